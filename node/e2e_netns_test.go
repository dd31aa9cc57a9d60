//go:build cgo

package node_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// Environment of a robot process started by TestE2ENetns.
const (
	netnsRobotEnv = "DNETWORK_NETNS_ROBOT"   // the robot's id
	netnsDDSEnv   = "DNETWORK_NETNS_CYCLONE" // the Cyclone configuration file
	netnsRecEnv   = "DNETWORK_NETNS_RECORD"  // the directory of the recordings
	netnsRobots   = 3
)

// TestE2ENetns runs three robots as three processes, each in a network namespace of its
// own ("hosts" 10.91.0.1..3 on one Ethernet segment: veth pairs joined by a bridge in a
// fourth namespace, which also holds the GameController at 10.91.0.254). Every robot
// runs with the match defaults: interface auto (its only Ethernet interface), team
// packets broadcast on 10000 + team number, GameController on 3838; world info
// (multicast) and swarm (network mode) are switched on as well. Each robot process
// checks on its own DDS topics that it hears both teammates' TeamInfo, WorldInfo and
// swarm messages and the GameController's PLAYING, and the GameController receives
// return packets from all three. The GameController cycles through INITIAL, READY, SET
// and PLAYING with a clock that counts down, so every second's GCInfo differs. The
// robots' clocks disagree on purpose (netnsClockOffset); each robot checks its
// estimates of its teammates' clocks.
//
// Every robot records its traffic (record.*); robot 1's recording must open with
// tshark and dnetwork decode, hold every socket's traffic in both directions, and,
// replayed to a fresh node, drive that node through the GCInfo sequence robot 1
// published (see checkRecording).
func TestE2ENetns(t *testing.T) {
	netnstest.Require(t)
	hub := netnstest.New(t, "hub")
	robots := make([]*netnstest.NS, netnsRobots)
	var ports []string
	for i := range robots {
		robots[i] = netnstest.New(t, fmt.Sprintf("r%d", i+1))
		port := fmt.Sprintf("h%d", i+1)
		netnstest.Veth(t, hub, port, "", robots[i], "eth0", fmt.Sprintf("10.91.0.%d/24", i+1))
		ports = append(ports, port)
	}
	hub.Bridge(t, "br0", ports...)
	hub.IP(t, "addr", "add", "10.91.0.254/24", "dev", "br0")

	cyclone := filepath.Join(t.TempDir(), "cyclonedds.xml")
	if err := os.WriteFile(cyclone, []byte(cycloneConfig), 0o644); err != nil {
		t.Fatal(err)
	}

	// The GameController: PLAYING to the segment's broadcast address every 200 ms, and
	// every return packet counted by player.
	var gc *net.UDPConn
	if err := hub.Do(func() (err error) {
		gc, err = net.ListenUDP("udp4", &net.UDPAddr{Port: gamecontroller.DefaultReturnPort})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer gc.Close()
	recDir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	returns := map[uint8]gcproto.ReturnPacket{}
	wg.Go(func() {
		tk := time.NewTicker(200 * time.Millisecond)
		defer tk.Stop()
		for tick := 0; ; tick++ {
			p := cyclingPacket(tick)
			control, err := p.MarshalBinary()
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = gc.WriteToUDPAddrPort(control, netip.MustParseAddrPort("10.91.0.255:3838"))
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
	wg.Go(func() {
		buf := make([]byte, 1500)
		for {
			n, _, err := gc.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			var r gcproto.ReturnPacket
			if gcproto.DecodeReturn(buf[:n], &r) == nil {
				mu.Lock()
				returns[r.Player] = r
				mu.Unlock()
			}
		}
	})
	defer func() { cancel(); gc.Close(); wg.Wait() }()

	// The robots, as processes inside their namespaces.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	domain := rosdomain.Take(t) // one for all robots, each in its own namespace
	outs := make([]string, netnsRobots)
	errs := make([]error, netnsRobots)
	var rwg sync.WaitGroup
	for i, ns := range robots {
		rwg.Go(func() {
			cctx, ccancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer ccancel()
			cmd := exec.CommandContext(cctx, "ip", "netns", "exec", ns.Name, exe,
				"-test.run", "^TestE2ENetnsRobot$", "-test.count", "1", "-test.v")
			cmd.Env = append(os.Environ(), netnsRobotEnv+"="+strconv.Itoa(i+1), netnsDDSEnv+"="+cyclone, netnsRecEnv+"="+recDir, rosdomain.Env(domain))
			out, err := cmd.CombinedOutput()
			outs[i], errs[i] = string(out), err
		})
	}
	rwg.Wait()
	for i := range robots {
		if errs[i] != nil || !strings.Contains(outs[i], "--- PASS: TestE2ENetnsRobot") {
			t.Errorf("robot %d: %v\n%s", i+1, errs[i], outs[i])
		}
	}
	mu.Lock()
	for id := uint8(1); id <= netnsRobots; id++ {
		r, ok := returns[id]
		if !ok || r.Version != gcproto.ReturnVersion || r.Team != testTeam {
			t.Errorf("return packet of robot %d: %+v (received: %v)", id, r, ok)
		}
	}
	mu.Unlock()
	if !t.Failed() {
		checkRecording(t, recDir)
	}
}

// cyclingPacket is the GameController's packet number tick (5 per second): INITIAL,
// READY, SET and PLAYING for one second each, then PLAYING for three, over and over,
// with the seconds remaining counting down from 600.
func cyclingPacket(tick int) gcproto.Packet {
	sec := tick / 5
	states := []gcproto.State{gcproto.StateInitial, gcproto.StateReady, gcproto.StateSet,
		gcproto.StatePlaying, gcproto.StatePlaying, gcproto.StatePlaying, gcproto.StatePlaying}
	p := gamePacket(gcproto.LayoutHSL20, states[sec%len(states)])
	p.PacketNumber = uint8(tick)
	p.SecsRemaining = int32(600 - sec%600)
	return p
}

// TestE2ENetnsRobot is one robot of TestE2ENetns, run inside its namespace.
func TestE2ENetnsRobot(t *testing.T) {
	idText, ok := os.LookupEnv(netnsRobotEnv)
	if !ok {
		t.Skip("runs only inside a namespace of TestE2ENetns")
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CYCLONEDDS_URI": "file://" + os.Getenv(netnsDDSEnv), "ROS_DOMAIN_ID": strconv.Itoa(rosdomain.Inherited(t, 1)[0])}
	getenv := func(k string) string { return env[k] }

	cfg := node.DefaultConfig()
	cfg.RobotID, cfg.TeamNumber = id, testTeam
	cfg.Team.AuthKey = []byte("netns-team-secret")
	cfg.GameController.PublishRate = 10
	cfg.WorldInfo.Enabled = true
	cfg.WorldInfo.Interval = 200 * time.Millisecond
	cfg.Swarm.Enabled = true
	cfg.Record.Enabled, cfg.Record.Dir, cfg.Record.MinFreeMiB = true, os.Getenv(netnsRecEnv), 0
	for j := 1; j <= netnsRobots; j++ {
		cfg.Swarm.Hosts = append(cfg.Swarm.Hosts, fmt.Sprintf("robot%d=10.91.0.%d", j, j))
	}
	n := startNode(t, getenv, cfg, withClockOffset(netnsClockOffset(id)))
	if got := n.TeamAddr(); got != netip.MustParseAddrPort(fmt.Sprintf("10.91.0.%d:%d", id, 10000+testTeam)) {
		t.Errorf("team socket %v", got)
	}

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	prefix := fmt.Sprintf("/dnetwork_%d/", id)
	infos := collect[dmsgs.TeamInfo](t, tester, prefix+"TeamInfo")
	gcInfos := collect[dmsgs.GCInfo](t, tester, prefix+"GCInfo")
	world := collect[dmsgs.WorldInfo](t, tester, prefix+"WorldInfo")
	swarmRx := collect[dmsgs.SwarmMessage](t, tester, prefix+"swarm/received")
	neighbors := collect[dmsgs.Neighbors](t, tester, prefix+"swarm/neighbors")
	send, err := ros.NewPublisher[dmsgs.SwarmMessage](tester, prefix+"swarm/send", ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, "swarm/send", send.SubscriptionCount)
	robotInputs(t, tester, id)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Go(func() {
		tk := time.NewTicker(200 * time.Millisecond)
		defer tk.Stop()
		msg := &dmsgs.SwarmMessage{Dst: "broadcast", Port: 4100, Data: []byte("hello from " + idText)}
		for {
			_ = send.Publish(msg)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})

	const within = 20 * time.Second
	for mate := 1; mate <= netnsRobots; mate++ {
		if mate == id {
			continue
		}
		// A packet sent after the mate heard the GameController and its VisionInfo.
		m := infos.wait(t, 0, within, fmt.Sprintf("TeamInfo of robot %d", mate), func(m *dmsgs.TeamInfo) bool {
			return int(m.PlayerNumber) == mate && m.GCConnected && m.SeeBall && m.GCState == dmsgs.GCInfoStatePlaying
		})
		if !m.Authenticated || !near(m.RobotPos.X, 100*float64(mate)) || m.GCState != dmsgs.GCInfoStatePlaying {
			t.Errorf("TeamInfo of robot %d: %+v", mate, m)
		}
		addr := fmt.Sprintf("10.91.0.%d", mate)
		w := world.wait(t, 0, within, "WorldInfo of "+addr, func(m *dmsgs.WorldInfo) bool {
			return m.Sender == addr && m.HasPose && m.HasGameState
		})
		// Fawkes' frame: metres, y to the right.
		if !near(w.Pose.X, float64(mate)) || !near(w.Pose.Y, 0.5*float64(mate)) {
			t.Errorf("WorldInfo of %s: pose %+v", addr, w.Pose)
		}
		want := fmt.Sprintf("hello from %d", mate)
		swarmRx.wait(t, 0, within, "swarm message of robot "+strconv.Itoa(mate), func(m *dmsgs.SwarmMessage) bool {
			return string(m.Data) == want && m.Src == "robot"+strconv.Itoa(mate)
		})
	}
	checkClockOffsets(t, infos, id, netnsRobots, within)
	g := gcInfos.wait(t, 0, within, "GameController", func(m *dmsgs.GCInfo) bool {
		return m.Connected && m.State == dmsgs.GCInfoStatePlaying
	})
	if g.State != dmsgs.GCInfoStatePlaying || g.GCVersion != "HSL20" {
		t.Errorf("GCInfo %+v", g)
	}
	neighbors.wait(t, 0, within, "two neighbours", func(m *dmsgs.Neighbors) bool { return len(m.Names) == netnsRobots-1 })
	// Keep talking for a while, so that the other robots hear this one too; robot 1
	// stays until it has seen the GameController's whole cycle, for the replay check.
	time.Sleep(3 * time.Second)
	for deadline := time.Now().Add(20 * time.Second); id == 1 && time.Now().Before(deadline); {
		states := map[uint8]bool{}
		for _, m := range gcInfos.since(0) {
			if m.Connected {
				states[m.State] = true
			}
		}
		if len(states) == 4 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The recorder's counters are on /diagnostics; the GCInfo sequence this robot
	// published is kept beside the recording for the replay check.
	diag := n.Diagnostics()
	name := node.NodeName(id) + ": " + node.DiagRecord
	if w, _ := diagValue(&diag, name, "written"); w == "" || w == "0" {
		t.Errorf("record status %q: written %q", name, w)
	}
	if d, _ := diagValue(&diag, name, "dropped_queue_full"); d != "0" {
		t.Errorf("record status %q: dropped_queue_full %q", name, d)
	}
	var seq []string
	for _, m := range gcInfos.since(0) {
		seq = appendGCStep(seq, m)
	}
	if err := os.WriteFile(filepath.Join(os.Getenv(netnsRecEnv), fmt.Sprintf("gcinfo_%d.txt", id)), []byte(strings.Join(seq, "\n")), 0o644); err != nil {
		t.Error(err)
	}
}

// appendGCStep appends the part of a connected GCInfo that the GameController's packets
// decide (state and clock) unless it equals the last step.
func appendGCStep(seq []string, m *dmsgs.GCInfo) []string {
	if !m.Connected {
		return seq
	}
	s := fmt.Sprintf("state %d secs %d", m.State, m.SecsRemaining)
	if len(seq) > 0 && seq[len(seq)-1] == s {
		return seq
	}
	return append(seq, s)
}
