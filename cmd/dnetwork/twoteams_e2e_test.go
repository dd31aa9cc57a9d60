//go:build cgo

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
)

// The segment of TestTwoTeams: veth pairs joined by a bridge in a hub namespace that
// also holds the GameController.
const (
	twoTeamsOwn   = 17 // the dnetwork robot's team
	twoTeamsOther = 5  // the stand-in's team
	twoTeamsNode  = "10.97.0.1"
	twoTeamsStand = "10.97.0.5"
	twoTeamsMon   = "10.97.0.100"
	twoTeamsBcast = "10.97.0.255"
)

// TestTwoTeams puts a team-17 dnetwork robot (a "dnetwork node" process, format dnet)
// beside a team-5 stand-in that sends the HL standard protobuf (the official
// definitions' Bit-Bots messages, current_pose.team set to 5) on 10005 and, against the
// rules, on team 17's port, with a GameController (gc-sim, PLAYING, counting both
// teams' messages) and a "dnetwork monitor" process on one Ethernet segment, each host
// in a network namespace of its own. The robot must count the stand-in's packets as
// wrong-format drops and publish none of them as TeamInfo; the monitor must show both
// teams with their formats and budget use against the GameController's, and flag the
// stand-in's host on team 17's port.
func TestTwoTeams(t *testing.T) {
	netnstest.Require(t)
	if testing.Short() {
		t.Skip("two-team field test skipped in -short mode")
	}
	hub := netnstest.New(t, "hub")
	robotNS, standNS, monNS := netnstest.New(t, "r17"), netnstest.New(t, "s5"), netnstest.New(t, "mon")
	netnstest.Veth(t, hub, "h1", "", robotNS, "eth0", twoTeamsNode+"/24")
	netnstest.Veth(t, hub, "h2", "", standNS, "eth0", twoTeamsStand+"/24")
	netnstest.Veth(t, hub, "h3", "", monNS, "eth0", twoTeamsMon+"/24")
	hub.Bridge(t, "br0", "h1", "h2", "h3")
	hub.IP(t, "addr", "add", "10.97.0.254/24", "dev", "br0")

	dir := t.TempDir()
	cyclone := filepath.Join(dir, "cyclonedds.xml")
	script := filepath.Join(dir, "game.txt")
	for p, s := range map[string]string{cyclone: ddsconfig.Loopback(30, false), script: "half 10m\n0 playing\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := &fieldRun{t: t}
	t.Cleanup(f.kill)
	gcArgs, _ := json.Marshal([]string{"gc-sim", "--layout", "hsl20", "--teams", fmt.Sprintf("%d,%d", twoTeamsOwn, twoTeamsOther),
		"--dest", "broadcast:br0", "--script", script, "--team-messages", "--table", "0"})
	f.start("gc", hub, exe, "^TestNodeChild$", childArgsEnv+"="+string(gcArgs))
	monArgs, _ := json.Marshal([]string{"monitor", "--interface", "eth0", "--passive", "--http", twoTeamsMon + ":8080"})
	mon := &fieldRun{t: t} // stopped by kill: it runs dnetwork's main, which prints no PASS
	t.Cleanup(mon.kill)
	mon.start("monitor", monNS, exe, "^TestNodeChild$", childArgsEnv+"="+string(monArgs))
	out := filepath.Join(dir, "robot1.jsonl")
	spec, _ := json.Marshal(fieldRobot{ID: 1, Out: out, Args: []string{"node", "--ros-args", "-p", "robot_id:=1",
		"-p", fmt.Sprintf("team_number:=%d", twoTeamsOwn), "-p", "interface:=eth0", "-p", "diagnostics.period:=0.5"}})
	f.start("robot 1", robotNS, exe, "^TestFieldRobot$", fieldRobotEnv+"="+string(spec),
		"CYCLONEDDS_URI=file://"+cyclone, "ROS_DOMAIN_ID="+strconv.Itoa(rosdomain.Take(t)),
		"ROS_LOCALHOST_ONLY=", "ROS_AUTOMATIC_DISCOVERY_RANGE=", "ROS_STATIC_PEERS=")

	// The stand-in: players 4 and 1 of team 5, every 100 ms on its own port and on
	// team 17's, to the segment's broadcast address.
	msgs := [][]byte{standIn(t, "bitbots"), standIn(t, "bitbots_goalie")}
	var conn *net.UDPConn
	if err := standNS.Do(func() (err error) {
		conn, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(twoTeamsStand)})
		if err != nil {
			return err
		}
		return setBroadcast(conn)
	}); err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stop := make(chan struct{})
	sent := make(chan int, 1)
	go func() {
		n := 0
		defer func() { sent <- n }()
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			for _, port := range []uint16{10000 + twoTeamsOther, 10000 + twoTeamsOwn} {
				for _, b := range msgs {
					if _, err := conn.WriteToUDPAddrPort(b, netip.AddrPortFrom(netip.MustParseAddr(twoTeamsBcast), port)); err == nil && port == 10000+twoTeamsOwn {
						n++
					}
				}
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()

	// The monitor's state, fetched inside its namespace.
	var state monitor.Snapshot
	deadline := time.Now().Add(25 * time.Second)
	for {
		if err := monNS.Do(func() error { return fetchState(&state) }); err == nil && twoTeamsShown(&state) {
			break
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(state, "", " ")
			for _, p := range append(f.procs, mon.procs...) {
				t.Logf("%s:\n%s", p.name, tail(p.stderr.String(), 1500))
			}
			t.Fatalf("the monitor did not show both teams:\n%.4000s", b)
		}
		time.Sleep(250 * time.Millisecond)
	}
	// The robot's drops: every datagram of the stand-in on its port is a wrong-format one.
	var team map[string]string
	for deadline = time.Now().Add(10 * time.Second); ; {
		for _, r := range readRecords(t, out) {
			if d := diag(r, 1, "team"); d != nil {
				team = d
			}
		}
		if team != nil && num(t, team, "dropped_wrong_format") >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("robot 1 does not count the stand-in's packets: %v", team)
		}
		time.Sleep(250 * time.Millisecond)
	}
	close(stop)
	n := <-sent
	f.stop()

	if num(t, team, "dropped_foreign_team") != 0 || team["accepted"] != "0" {
		t.Errorf("robot 1's team counters: %v", team)
	}
	recs := readRecords(t, out)
	for _, r := range recs {
		if r.Info != nil {
			t.Errorf("robot 1 published a TeamInfo of player %d team %d", r.Info.Player, r.Info.Team)
		}
	}
	last := team
	for _, r := range recs {
		if d := diag(r, 1, "team"); d != nil {
			last = d
		}
	}
	if got := num(t, last, "dropped_wrong_format"); got > uint64(n) || got < 10 {
		t.Errorf("robot 1 counted %d wrong-format drops; the stand-in sent %d on its port", got, n)
	}

	own, other := state.Teams[0], state.Teams[1]
	t.Logf("team %d: %d counted, GameController %d; team %d: %d counted, GameController %d",
		own.Team, own.Counted, *own.GCUsed, other.Team, other.Counted, *other.GCUsed)
	for _, tv := range []monitor.TeamView{own, other} {
		if tv.Counted == 0 || *tv.GCUsed == 0 || tv.Rate == 0 {
			t.Errorf("team %d: %d counted, GameController %d, rate %g", tv.Team, tv.Counted, *tv.GCUsed, tv.Rate)
		}
	}
}

// twoTeamsShown reports whether the monitor's state shows both teams of the match with
// their formats, the GameController's budget figures and the stand-in's flag.
func twoTeamsShown(s *monitor.Snapshot) bool {
	if len(s.Teams) < 2 || s.Teams[0].Team != twoTeamsOwn || s.Teams[1].Team != twoTeamsOther {
		return false
	}
	own, other := s.Teams[0], s.Teams[1]
	if !slices.Equal(own.Formats, []string{"dnet"}) || !slices.Equal(other.Formats, []string{"robocup"}) ||
		own.GCUsed == nil || other.GCUsed == nil || *own.GCUsed == 0 || *other.GCUsed == 0 || other.Robots != 2 {
		return false
	}
	for _, f := range s.PortFlags {
		if f.Host == twoTeamsStand && f.Port == 10000+twoTeamsOwn && f.Team == twoTeamsOther {
			return true
		}
	}
	return false
}

// fetchState reads the monitor's /api/state over a connection opened on the calling
// thread (inside the monitor's namespace when called from netnstest.NS.Do).
func fetchState(s *monitor.Snapshot) error {
	c, err := net.DialTimeout("tcp4", twoTeamsMon+":8080", 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := fmt.Fprintf(c, "GET /api/state HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", twoTeamsMon); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	*s = monitor.Snapshot{}
	return json.NewDecoder(resp.Body).Decode(s)
}

// standIn returns the official definitions' Bit-Bots message name with current_pose.team
// set to the stand-in's team, as a Bit-Bots robot of that team writes it.
func standIn(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "proto", "robocup", "testdata", "golden", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	var p robocup.Packet
	if err := robocup.Decode(b, &p); err != nil {
		t.Fatal(err)
	}
	p.Msg.CurrentPose.Team = robocup.Team(twoTeamsOther)
	if b, err = robocup.Append(nil, &p, robocup.ExtBitBots); err != nil {
		t.Fatal(err)
	}
	return b
}

func setBroadcast(c *net.UDPConn) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_BROADCAST, 1)
	}); err != nil {
		return err
	}
	return serr
}
