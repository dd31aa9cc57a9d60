package monitor

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// udpMonitor runs a monitor on loopback with kernel-chosen ports: the GameController port,
// the return port, team 5's port and a shared team port, in this order.
func udpMonitor(t *testing.T, cfg Config) (*Monitor, *clock.Manual, []Port) {
	t.Helper()
	cfg.Ports = []Port{{Kind: KindGameController}, {Kind: KindReturn}, {Kind: KindTeam, Team: 5}, {Kind: KindTeam}}
	cfg.Interface = "any"
	m, clk := newTest(t, cfg)
	runMonitor(t, m)
	ps := m.Ports()
	for _, p := range ps {
		if p.Port == 0 {
			t.Fatalf("port %s not bound: %+v", p.Name(), ps)
		}
	}
	return m, clk, ps
}

func TestUDP(t *testing.T) {
	m, clk, ps := udpMonitor(t, Config{})
	gcp, retp, teamp, sharedp := ps[0].Port, ps[1].Port, ps[2].Port, ps[3].Port
	gc, robot1, robot2, robot3 := newSender(t), newSender(t), newSender(t), newSender(t)

	g := game{state: gcproto.StatePlaying, firstHalf: true, secs: 300, teams: [2]uint8{5, 9},
		scores: [2]uint8{1, 0}, budgets: [2]uint16{12000, 12000}, kicking: 5}
	const nGC, nRet, nDNet, nZJU, nJunk = 3, 4, 5, 2, 3
	for range nGC {
		gc.send(gcp, g.packet(t))
	}
	eventually(t, "the control packets", func() bool { return m.State().GameController.Packets == nGC })
	for range nRet {
		robot2.send(retp, returnV4(t, 5, 2, 1500, 500, 0, &[2]float32{300, 0}, false))
	}
	striker := mate{team: 5, player: 1, x: 2, y: 1, theta: 0.5, role: teaminfo.RoleStriker, play: teaminfo.PlayPlaying, ball: &[2]float64{0.5, 0}}
	for range nDNet {
		robot1.send(teamp, striker.dnet(t, nil))
	}
	for range nZJU {
		robot3.send(sharedp, mate{team: 5, player: 3, x: -3, role: teaminfo.RoleGoalie}.zju())
	}
	for i := range nJunk {
		robot1.send(teamp, make([]byte, 20+i))
	}
	// robot3's junk arrives on another socket than its zju packets: send it once the monitor
	// knows robot3's address, so that it is counted for robot3.
	eventually(t, "the zju packets", func() bool {
		r := findRobot(m.State(), 5, 3)
		return r != nil && r.TeamMsgs.Count == nZJU
	})
	robot3.send(teamp, make([]byte, 700)) // over the HSL cap, but no packet anyway: wrong size
	gc.send(gcp, []byte("RGme"))

	// A malformed packet is counted by the monitor before its socket is told: wait for
	// the team port's count too.
	eventually(t, "every packet", func() bool {
		s := m.State()
		r1, r2, r3 := findRobot(s, 5, 1), findRobot(s, 5, 2), findRobot(s, 5, 3)
		return r1 != nil && r2 != nil && r3 != nil && r1.TeamMsgs.Count == nDNet && r1.Faults.WrongSize == nJunk &&
			r2.ReturnMsgs.Count == nRet && r3.TeamMsgs.Count == nZJU && r3.Faults.WrongSize == 1 &&
			s.GameController.Faults.WrongSize == 1 && s.Ports[2].Malformed >= nJunk+1
	})
	clk.Set(t0.Add(time.Second))
	s := m.State()
	r1 := findRobot(s, 5, 1)
	if !r1.Online || r1.Role != "striker" || r1.TeamMsgs.Rate != 0.5 || r1.TeamMsgs.Source != robot1.addr().String() ||
		r1.Counted != nDNet || r1.Pose == nil || !near(r1.Pose.X, 2) || r1.Ball == nil {
		t.Errorf("robot 5/1 = %+v", r1)
	}
	if r2 := findRobot(s, 5, 2); r2.ReturnMsgs.Source != robot2.addr().String() || r2.PoseSource != "return" ||
		!near(r2.Pose.X, 1.5) || r2.Ball == nil || !near(r2.Ball.X, 1.8) {
		t.Errorf("robot 5/2 = %+v", r2)
	}
	gm := s.GameController.Game
	if gm == nil || gm.State != "playing" || gm.SecsRemaining != 300 || gm.Teams[0].Score != 1 || !s.GameController.Online ||
		s.GameController.Source != gc.addr().String() {
		t.Errorf("gamecontroller = %+v, game %+v", s.GameController, gm)
	}
	tv := findTeam(s, 5)
	// Team 5's port: 5 dnet + 3 junk + 1 oversize junk, all counted; the shared port adds 2 zju.
	if tv.Messages != nDNet+nJunk+1+nZJU || tv.Counted != nDNet+nJunk+1+nZJU || tv.Robots != 3 || tv.Malformed != nJunk+1 {
		t.Errorf("team 5 = %+v", tv)
	}
	for _, p := range s.Ports {
		if p.State != "up" || p.Received != p.Delivered+p.Malformed || p.Sent != 0 {
			t.Errorf("port %+v: want up, received = delivered + malformed, nothing sent", p)
		}
	}
	if p := s.Ports[2]; p.Received != nDNet+nJunk+1 || p.Malformed != nJunk+1 {
		t.Errorf("team port counters %+v", p)
	}

	// Offline after 5 s of silence, on the manual clock.
	clk.Set(t0.Add(5*time.Second + time.Millisecond))
	s = m.State()
	for _, r := range s.Robots {
		if r.Online {
			t.Errorf("robot %d/%d online after 5 s", r.Team, r.Player)
		}
	}
	if s.GameController.Online {
		t.Error("GameController online after 5 s")
	}
	if m.Sent() != 0 {
		t.Errorf("the monitor sent %d datagrams", m.Sent())
	}

	// The prune ticker runs on the clock: after 60 s the robots are gone without a State call.
	clk.Set(t0.Add(61 * time.Second))
	eventually(t, "the prune tick", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.robots) == 0
	})
}

// broadcastSender returns a loopback socket allowed to send to 127.255.255.255.
func broadcastSender(t *testing.T) *udpSender {
	t.Helper()
	s := newSender(t)
	rc, err := s.conn.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_BROADCAST, 1)
	}); err != nil || serr != nil {
		t.Fatalf("SO_BROADCAST: %v %v", err, serr)
	}
	return s
}

// TestSharedPortWithNode runs the monitor beside a "node" socket on the same team port:
// broadcast reaches both, a unicast datagram only one of them.
func TestSharedPortWithNode(t *testing.T) {
	node, err := transport.New(transport.Config{Name: "node", Interface: "any", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = node.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(ctx, waitLimit)
	defer wcancel()
	if err := node.WaitUp(wctx); err != nil {
		t.Fatal(err)
	}
	port := node.LocalAddr().Port()

	m, clk := newTest(t, Config{Interface: "any", Ports: []Port{{Kind: KindTeam, Port: port, Team: 5}}})
	runMonitor(t, m)

	pkt := mate{team: 5, player: 2}.dnet(t, nil)
	bc := broadcastSender(t)
	const n = 3
	for range n {
		if _, err := bc.conn.WriteToUDPAddrPort(pkt, netip.MustParseAddrPort("127.255.255.255:"+strconv.Itoa(int(port)))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		select {
		case <-node.Datagrams():
		case <-time.After(waitLimit):
			t.Fatalf("node got %d of %d broadcast datagrams", i, n)
		}
	}
	eventually(t, "the broadcast at the monitor", func() bool {
		r := findRobot(m.State(), 5, 2)
		return r != nil && r.TeamMsgs.Count == n
	})

	// Unicast: one copy, to one socket.
	newSender(t).send(port, pkt)
	var got string
	deadline := time.After(waitLimit)
	for got == "" {
		select {
		case <-node.Datagrams():
			got = "node"
		case <-deadline:
			got = "none"
		default:
			if r := findRobot(m.State(), 5, 2); r.TeamMsgs.Count == n+1 {
				got = "monitor"
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Logf("unicast to the shared port went to the %s", got)
	if got == "none" {
		t.Fatal("the unicast datagram reached neither socket")
	}
	// A broadcast of another player marks the end: each socket is read in order, so
	// one that has the marker has every copy of the unicast it was given.
	marker := mate{team: 5, player: 3}.dnet(t, nil)
	if _, err := bc.conn.WriteToUDPAddrPort(marker, netip.MustParseAddrPort("127.255.255.255:"+strconv.Itoa(int(port)))); err != nil {
		t.Fatal(err)
	}
	for marked := false; !marked; {
		select {
		case d := <-node.Datagrams():
			marked = bytes.Equal(d.Payload, marker)
		case <-time.After(waitLimit):
			t.Fatalf("the marker did not reach the node (stats %+v)", node.Stats())
		}
	}
	eventually(t, "the marker at the monitor", func() bool {
		r := findRobot(m.State(), 5, 3)
		return r != nil && r.TeamMsgs.Count == 1
	})
	clk.Advance(time.Millisecond)
	nodeGot := node.Stats().Received - n - 1
	monGot := findRobot(m.State(), 5, 2).TeamMsgs.Count - n
	if nodeGot+monGot != 1 {
		t.Errorf("unicast reached the node %d times and the monitor %d times, want once in all", nodeGot, monGot)
	}
	if m.Sent() != 0 {
		t.Errorf("the monitor sent %d datagrams", m.Sent())
	}
}

// TestFollowGC opens the port of a team the GameController names.
func TestFollowGC(t *testing.T) {
	m, _, _ := udpMonitor(t, Config{FollowGC: true})
	gcp := m.Ports()[0].Port
	team := uint8(200 + os.Getpid()%50) // a port no other test of the project uses
	g := game{state: gcproto.StateReady, firstHalf: true, teams: [2]uint8{5, team}}
	newSender(t).send(gcp, g.packet(t))
	var follow Port
	eventually(t, "the followed port", func() bool {
		for _, p := range m.Ports() {
			if p.Kind == KindTeam && p.Team == team {
				follow = p
				return true
			}
		}
		return false
	})
	if follow.Port != TeamBasePort+uint16(team) {
		t.Fatalf("followed port %+v, want %d", follow, TeamBasePort+uint16(team))
	}
	wctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := m.WaitUp(wctx); err != nil {
		t.Fatal(err)
	}
	newSender(t).send(follow.Port, mate{team: team, player: 4}.dnet(t, nil))
	eventually(t, "the followed team's robot", func() bool { return findRobot(m.State(), team, 4) != nil })
	if n := len(m.Ports()); n != 5 {
		t.Errorf("%d ports, want 5 (team 5 was configured already)", n)
	}
}
