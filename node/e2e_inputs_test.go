//go:build cgo

package node_test

import (
	"fmt"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// TestE2EDeferredInputs checks the node with its inputs deferred (package inputwake),
// from outside: a VisionInfo that brings the ball near re-plans the team packets at
// once (the blind interval is 8 s here, so nothing but that sample can bring the next
// packet within 3 s); while the ball stays near, VisionInfo samples wait in the ring,
// yet every packet carries the ball of the last sample published before it and a
// ball age measured from when that sample arrived; and a lost ball slows the packets
// down again.
func TestE2EDeferredInputs(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	mate := udpSocket(t, "127.0.0.1:0") // a teammate: receives robot 1's packets
	cfg := baseConfig(1)
	cfg.Team.Port = freePorts(t, 1)[0]
	cfg.Team.Peers = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), localPort(mate))}
	cfg.Team.Rate.Blind, cfg.Team.Rate.BallFar = 8*time.Second, 8*time.Second
	cfg.Team.Rate.BallNear, cfg.Team.Rate.Alone = 100*time.Millisecond, 0
	cfg.Team.TeammateTimeout = 10 * time.Second
	n := startNode(t, getenv, cfg)

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	vision, err := ros.NewPublisher[dmsgs.VisionInfo](tester, "/dvision_1/VisionInfo", ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, "VisionInfo", vision.SubscriptionCount)
	publish := func(seeBall bool, x float64) time.Time {
		t.Helper()
		if err := vision.Publish(&dmsgs.VisionInfo{SeeBall: seeBall, BallField: geometry_msgs.Vector3{X: x}}); err != nil {
			t.Fatal(err)
		}
		return time.Now()
	}
	// next returns the next packet of robot 1 and when it came, or fails after timeout.
	buf := make([]byte, 2048)
	next := func(timeout time.Duration, what string) (teaminfo.State, time.Time) {
		t.Helper()
		if err := mate.SetReadDeadline(time.Now().Add(timeout)); err != nil {
			t.Fatal(err)
		}
		n, err := mate.Read(buf)
		if err != nil {
			t.Fatalf("%s: no team packet within %v: %v", what, timeout, err)
		}
		var s teaminfo.State
		if _, err := teaminfo.DecodeDNet(buf[:n], &s, nil); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return s, time.Now()
	}
	drain := func() {
		_ = mate.SetReadDeadline(time.Now().Add(time.Millisecond))
		for {
			if _, err := mate.Read(buf); err != nil {
				return
			}
		}
	}

	// Blind: the first packet goes at once, the next only after 8 s.
	publish(false, 0)
	next(10*time.Second, "first packet")
	// Not a proof of silence: time passes so that the sample below comes to a node that
	// has planned its next packet 8 s ahead, and must re-plan.
	time.Sleep(300 * time.Millisecond)
	drain()
	// The ball near: the next packet within 3 s, then every 100 ms.
	nearAt := publish(true, 50)
	s, got := next(3*time.Second, "packet after the ball came near (blind interval 8 s)")
	t.Logf("the first packet after the ball came near: %v after the VisionInfo", got.Sub(nearAt))
	if !s.SeeBall || math.Abs(s.BallField.X-0.5) > 1e-6 {
		t.Fatalf("packet after the ball came near: see_ball %v, ball %v m; want true, 0.5", s.SeeBall, s.BallField.X)
	}
	// The ball moves within the near class: no sample wakes the node, and yet each
	// packet has the latest ball.
	lastSeq := s.Seq // of the last packet read
	for i := range 20 {
		x := 20 + float64(i)
		published := publish(true, x)
		time.Sleep(30 * time.Millisecond)
		drain()
		s, at := next(2*time.Second, fmt.Sprintf("packet %d with the ball near", i))
		lastSeq = s.Seq
		if math.Abs(s.BallField.X-x/100) > 1e-6 {
			t.Fatalf("packet %d carries the ball at %v m, the last VisionInfo before it said %v m", i, s.BallField.X, x/100)
		}
		// The age is measured from the sample's arrival, whenever it was handled.
		if maxAge := at.Sub(published).Seconds() + 0.02; s.BallAge > maxAge {
			t.Errorf("packet %d: ball age %.3f s, but the ball was seen %.3f s before the packet arrived", i, s.BallAge, maxAge-0.02)
		}
	}
	// Ball lost: back to the 8 s interval. Once the node has the lost ball (its status
	// hands held-back samples to the team component first), a tick that read the inputs
	// before may still make one packet with the ball near; no packet may say the ball is
	// lost within 2 s of the node's own send ticks. The fence: the ball near again wakes
	// the node, and its next packet says so; the socket is read in order, so every packet
	// made before comes before it.
	publish(false, 0)
	const visions = 1 + 1 + 20 + 1 // every VisionInfo published so far
	const nodeStatus, teamStatus = "dnetwork_1: node", "dnetwork_1: team"
	waitDiag(t, n, 5*time.Second, "the node receives the lost ball", func(a *dm.DiagnosticArray) bool {
		return diagCount(t, a, nodeStatus, "visioninfo_received") >= visions
	})
	a := n.Diagnostics()
	ticks := diagCount(t, &a, teamStatus, "ticks")
	window := uint64(2 * time.Second / cfg.Team.Tick)
	waitDiag(t, n, 10*time.Second, "2 s of send ticks after the ball was lost", func(a *dm.DiagnosticArray) bool {
		return diagCount(t, a, teamStatus, "ticks") >= ticks+window
	})
	const fenceX = 77.0
	publish(true, fenceX)
	inProgress := 0
	for {
		s, _ := next(3*time.Second, "the packet after the ball came near again")
		if s.SeeBall && math.Abs(s.BallField.X-fenceX/100) < 1e-6 {
			break
		}
		switch {
		case s.Seq <= lastSeq:
			t.Errorf("packet %d again after packet %d", s.Seq, lastSeq)
		case !s.SeeBall:
			t.Errorf("packet %d knows the ball is lost and came within 2 s of ticks (blind interval 8 s): %+v", s.Seq, s)
		default:
			inProgress++ // made before the node had the lost ball
		}
	}
	if inProgress > 1 {
		t.Errorf("%d packets with the ball near after the last one read, want at most the one of a tick in progress", inProgress)
	}
}

// TestE2ERefusedInputWhileStale: with inputs.reliable a best-effort BehaviorInfo
// publisher is refused, so the input is stale too; the node's status is a warning that
// names the refusal and its policy all the same, before the stale inputs.
func TestE2ERefusedInputWhileStale(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	cfg := baseConfig(1)
	cfg.InputsReliable = true
	cfg.TeamEnabled = false
	startNode(t, getenv, cfg)
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	if _, err := ros.NewPublisher[dmsgs.BehaviorInfo](tester, "/dbehavior_1/BehaviorInfo", ros.QoSSensorData); err != nil {
		t.Fatal(err)
	}
	const status = "dnetwork_1: " + node.DiagNode
	const want = "incompatible QoS: /dbehavior_1/BehaviorInfo: 1 incompatible publishers (RELIABILITY); no /dmotion_1/MotionInfo yet"
	a := diags.wait(t, 0, 15*time.Second, "the refusal in robot 1's status", func(a *dm.DiagnosticArray) bool {
		st, ok := diagStatus(a, status)
		return ok && strings.HasPrefix(st.Message, "incompatible QoS")
	})
	if st, _ := diagStatus(a, status); st.Level != dm.DiagnosticStatusWarn || !strings.HasPrefix(st.Message, want) {
		t.Errorf("status: level %d %q, want a warning starting %q", st.Level, st.Message, want)
	}
}
