//go:build cgo

package node_test

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestE2ETeam runs three robots of one team on loopback, each on its own team port
// sending to the other two (per-robot ports, signed dnet packets). A test ROS node
// publishes each robot's inputs and reads /dnetwork_<id>/TeamInfo: every robot must
// publish both teammates' packets with the values their inputs gave. Then a scripted
// GameController penalises robot 3: it must fall silent while robot 2 keeps talking,
// the GameController state must reach the teammates' packets, return packets v4 must
// arrive from all three robots, and /diagnostics must count the teammates.
func TestE2ETeam(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	const robots = 3
	ports := freePorts(t, 2*robots)
	teamPorts, gcPorts := ports[:robots], ports[robots:]
	gc := udpSocket(t, "127.0.0.1:0") // the GameController: sends control packets, receives returns
	nodes := make([]*node.Node, robots)

	for i := range robots {
		id := i + 1
		cfg := baseConfig(id)
		cfg.Team.Port = teamPorts[i]
		cfg.Team.AuthKey = []byte("e2e-team-17-secret")
		for j, p := range teamPorts {
			if j != i {
				cfg.Team.Peers = append(cfg.Team.Peers, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), p))
			}
		}
		cfg.GameControllerPort = gcPorts[i]
		cfg.GameController.ReturnPort = localPort(gc)
		cfg.GameController.ReturnRate = 2
		nodes[i] = startNode(t, getenv, cfg)
	}

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := make([]*collector[dmsgs.TeamInfo], robots)
	gcInfos := make([]*collector[dmsgs.GCInfo], robots)
	for i := range robots {
		infos[i] = collect[dmsgs.TeamInfo](t, tester, fmt.Sprintf("/dnetwork_%d/TeamInfo", i+1))
		gcInfos[i] = collect[dmsgs.GCInfo](t, tester, fmt.Sprintf("/dnetwork_%d/GCInfo", i+1))
	}
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	for i := range robots {
		waitMatched(t, "TeamInfo", infos[i].sub.PublisherCount)
		robotInputs(t, tester, i+1)
	}

	// Every robot hears both teammates, with what their inputs said.
	for i := range robots {
		for j := range robots {
			if i == j {
				continue
			}
			mate := j + 1
			// Wait until the mate's three inputs (VisionInfo, BehaviorInfo, MotionInfo, on
			// separate topics) have all reached it, then check what they said.
			m := infos[i].wait(t, 0, 10*time.Second, fmt.Sprintf("robot %d hears robot %d", i+1, mate), func(m *dmsgs.TeamInfo) bool {
				return int(m.PlayerNumber) == mate && m.SeeBall && m.Role != 0 && !m.Incapacitated
			})
			if m.TeamNumber != testTeam || !m.Authenticated || m.Format != dmsgs.TeamInfoFormatDnet ||
				!near(m.RobotPos.X, 100*float64(mate)) || !near(m.RobotPos.Y, -50*float64(mate)) ||
				m.Role != uint8(mate) || m.State != dmsgs.TeamInfoStatePlaying || m.Incapacitated || m.GCConnected {
				t.Errorf("robot %d heard robot %d as %+v", i+1, mate, m)
			}
		}
	}

	// The GameController puts the game in PLAYING and penalises robot 3.
	stop := make(chan struct{})
	sent := make(chan struct{})
	p := gamePacket(gcproto.LayoutHSL20, gcproto.StatePlaying)
	p.Teams[0].Players[2].Penalty = firstPenalty(gcproto.LayoutHSL20)
	p.Teams[0].Players[2].SecsTillUnpenalised = 30
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(sent)
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			for _, port := range gcPorts {
				sendTo(t, gc, b, port)
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	defer func() { close(stop); <-sent }()

	g := gcInfos[2].wait(t, 0, 5*time.Second, "robot 3 penalised", func(m *dmsgs.GCInfo) bool { return m.Connected && m.Penalised })
	if g.State != dmsgs.GCInfoStatePlaying || g.GCVersion != "HSL20" || g.SecsTillUnpenalised == 0 || g.MessageBudget != 12000 {
		t.Errorf("robot 3 GCInfo %+v", g)
	}
	// Robot 2's packets now say what the GameController says.
	m := infos[0].wait(t, 0, 5*time.Second, "robot 2 connected to the GameController", func(m *dmsgs.TeamInfo) bool {
		return m.PlayerNumber == 2 && m.GCConnected
	})
	if m.GCState != dmsgs.GCInfoStatePlaying || m.Penalised {
		t.Errorf("robot 2's packet: gc_state %d penalised %v", m.GCState, m.Penalised)
	}
	// Robot 3 falls silent. Its own counters say from when: once a tick has decided
	// silent-penalised, built3 is the sequence number of the last packet it made (dnet
	// numbers a robot's packets from 1), and robot 1 may still publish those that were
	// in flight, but none with a higher number.
	const team2, team3 = "dnetwork_2: team", "dnetwork_3: team"
	a3 := waitDiag(t, nodes[2], 5*time.Second, "robot 3 silent for its penalty", func(a *dm.DiagnosticArray) bool {
		return diagCount(t, a, team3, "silent_penalised") > 0
	})
	built3, silent3 := builtPackets(t, a3, team3), diagCount(t, a3, team3, "silent_penalised")
	// The window: the next five packets robot 2 makes from now on, as robot 1 publishes
	// them. Robot 3 would send as often as robot 2 were it not penalised.
	a2 := nodes[1].Diagnostics()
	built2 := builtPackets(t, &a2, team2)
	const window = 5
	infos[0].wait(t, 0, 10*time.Second, fmt.Sprintf("robot 1 hears %d new packets of robot 2", window), func(m *dmsgs.TeamInfo) bool {
		return m.PlayerNumber == 2 && uint64(m.Sequence) >= built2+window
	})
	seen3 := map[uint32]bool{}
	var bad []uint32
	for _, m := range infos[0].since(0) {
		if m.PlayerNumber != 3 {
			continue
		}
		if uint64(m.Sequence) > built3 || seen3[m.Sequence] {
			bad = append(bad, m.Sequence)
		}
		seen3[m.Sequence] = true
	}
	if len(bad) > 0 {
		t.Errorf("robot 1 published robot 3's packets %v during its penalty (made later than %d, robot 3's last before it fell silent, or again)", bad, built3)
	}
	a3 = ptr(nodes[2].Diagnostics())
	if b, s := builtPackets(t, a3, team3), diagCount(t, a3, team3, "silent_penalised"); b != built3 || s <= silent3 {
		t.Errorf("robot 3 during its penalty: %d packets made (%d before), %d silent ticks (%d before)", b, built3, s, silent3)
	}

	// Return packets v4 from every robot, with the pose their vision gave.
	seen := map[uint8]bool{}
	buf := make([]byte, 1500)
	if err := gc.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for len(seen) < robots {
		n, _, err := gc.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatalf("return packets from %v only: %v", seen, err)
		}
		var r gcproto.ReturnPacket
		if err := gcproto.DecodeReturn(buf[:n], &r); err != nil {
			t.Fatalf("return packet % x: %v", buf[:n], err)
		}
		if r.Version != gcproto.ReturnVersion || r.Team != testTeam || r.Fallen ||
			!near(float64(r.Pose[0]), 1000*float64(r.Player)) || !near(float64(r.Ball[0]), 500) {
			t.Errorf("return packet %+v", r)
		}
		seen[r.Player] = true
	}

	// Diagnostics: robot 1 has both teammates online and counts what it received.
	diags.wait(t, 0, 5*time.Second, "robot 1 diagnostics", func(a *dm.DiagnosticArray) bool {
		st, ok := diagStatus(a, "dnetwork_1: team")
		if !ok {
			return false
		}
		v, _ := diagValue(a, "dnetwork_1: team", "teammates")
		return st.Level == dm.DiagnosticStatusOK && v == "2 3" &&
			diagHas(a, "dnetwork_1: gamecontroller", map[string]string{"connected": "true", "version": "HSL20"}) &&
			diagHas(a, "dnetwork_1: "+node.DiagSocketPrefix+"team", map[string]string{"state": "up"})
	})
}

// builtPackets returns how many team packets a robot has made (sent, or failed to
// encode or send), which is the sequence number of its last dnet packet.
func builtPackets(t testing.TB, a *dm.DiagnosticArray, name string) uint64 {
	t.Helper()
	var n uint64
	for _, k := range []string{"sent", "send_errors", "encode_errors", "too_large"} {
		n += diagCount(t, a, name, k)
	}
	return n
}

// gamePacket is a packet of layout l in state s for our team 17 (first, red, score 2)
// against team 5 (blue, score 1), our kick-off, 300 s left, budgets where the layout
// has them.
func gamePacket(l gcproto.Layout, s gcproto.State) gcproto.Packet {
	p := gcproto.Packet{
		Layout: l, PacketNumber: 1, PlayersPerTeam: 5, State: s, FirstHalf: true,
		KickingTeam: testTeam, SecsRemaining: 300, DropInTime: -1,
	}
	p.Teams[0] = gcproto.TeamInfo{TeamNumber: testTeam, FieldPlayerColour: gcproto.ColourRed, Score: 2}
	p.Teams[1] = gcproto.TeamInfo{TeamNumber: otherTeam, FieldPlayerColour: gcproto.ColourBlue, Score: 1}
	if l.HasMessageBudget() {
		p.Teams[0].MessageBudget, p.Teams[1].MessageBudget = 12000, 11000
	}
	return p
}

// firstPenalty returns the smallest penalty code the layout knows.
func firstPenalty(l gcproto.Layout) gcproto.Penalty {
	for p := gcproto.Penalty(1); p != 0; p++ {
		if l.ValidPenalty(p) {
			return p
		}
	}
	panic("no penalty code in " + l.String())
}
