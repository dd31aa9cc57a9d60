package worldinfo

import (
	"context"
	"errors"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

var cov9 = []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}

// setEverything gives a peer one of every slim record.
func setEverything(t *testing.T, p *peer) {
	must(t,
		p.s.SetPose(1.5, -2, 0.25, cov9),
		p.s.SetVelocity(0.5, 0.25, -1, cov9),
		p.s.SetRelBallPos(3, -0.5, 0.125, cov9),
		p.s.SetGlobalBallPos(-1, 2, 0, cov9),
		p.s.SetRelBallVelocity(1, 2, 3, cov9),
		p.s.SetGlobalBallVelocity(-1, -2, -3, cov9),
		p.s.SetGameState(wi.SPLSet, wi.TeamCyan),
		p.s.SetScore(4, 5),
		p.s.SetTeamGoal(wi.TeamMagenta, wi.GoalYellow),
		p.s.SetHalf(wi.HalfSecond),
		p.s.AddPenalty(2, wi.PenaltyPlayerPushing, 30),
		p.s.AddPenalty(5, wi.PenaltyNone, 0),
		p.s.AddOpponent(7, 2.5, 0.75, []float32{1, 0, 0, 1}),
		p.s.AddOpponent(8, 4, -1, []float32{2, 0, 0, 2}),
	)
	p.s.SetRelBallVisible(true, 12)
	p.s.SetGlobalBallVisible(false, -4)
	p.s.AddDisappearedOpponent(3)
}

// everything is the message setEverything's datagram must become.
func everything(from netip.Addr, seq uint32, at time.Time) dmsgs.WorldInfo {
	c9 := [9]float32(cov9)
	return dmsgs.WorldInfo{
		Sender:   from.String(),
		Sequence: seq,
		HasPose:  true, Pose: geometry_msgs.Pose2D{X: 1.5, Y: -2, Theta: 0.25}, PoseCovariance: c9,
		HasVelocity: true, Velocity: geometry_msgs.Pose2D{X: 0.5, Y: 0.25, Theta: -1}, VelocityCovariance: c9,
		RelativeBall: dmsgs.WorldInfoRelativeBall{Valid: true, Visible: true, VisibilityHistory: 12,
			Bearing: -0.5, Distance: 3, Slope: 0.125, Covariance: c9},
		GlobalBall: dmsgs.WorldInfoGlobalBall{Valid: true, Visible: false, VisibilityHistory: -4,
			Position: geometry_msgs.Point{X: -1, Y: 2}, Covariance: c9},
		HasRelativeBallVelocity: true, RelativeBallVelocity: geometry_msgs.Vector3{X: 1, Y: 2, Z: 3},
		RelativeBallVelocityCovariance: c9,
		HasGlobalBallVelocity:          true, GlobalBallVelocity: geometry_msgs.Vector3{X: -1, Y: -2, Z: -3},
		GlobalBallVelocityCovariance: c9,
		Opponents: []dmsgs.WorldInfoOpponent{
			{UID: 7, Distance: 2.5, Bearing: 0.75, Covariance: [4]float32{1, 0, 0, 1}},
			{UID: 8, Distance: 4, Bearing: -1, Covariance: [4]float32{2, 0, 0, 2}},
		},
		DisappearedOpponents: []uint32{3},
		HasGameState:         true,
		GameState: dmsgs.WorldInfoGameState{State: wi.SPLSet, StateTeam: dmsgs.WorldInfoGameStateTeamCyan,
			ScoreCyan: 4, ScoreMagenta: 5, OurTeam: dmsgs.WorldInfoGameStateTeamMagenta,
			OurGoalColor: dmsgs.WorldInfoGameStateGoalYellow, Half: dmsgs.WorldInfoGameStateHalfSecond},
		Penalties: []dmsgs.WorldInfoPenalty{
			{Player: 2, Penalty: dmsgs.WorldInfoPenaltyPenaltyPlayerPushing, SecondsRemaining: 30},
			{Player: 5, Penalty: dmsgs.WorldInfoPenaltyPenaltyNone},
		},
	}
}

func stamped(m dmsgs.WorldInfo, at time.Time) dmsgs.WorldInfo {
	m.Header.Stamp = builtin_interfaces.NewTime(at)
	return m
}

func TestReceivePublishesPerDatagram(t *testing.T) {
	h := start(t, testConfig())
	a, b := newPeer(t, wit.Config{}), newPeer(t, wit.Config{})

	setEverything(t, a)
	a0 := a.send()[0]
	h.deliver(peerA, a0)
	if !h.rec.WaitLen(1, time.Second) {
		t.Fatal("nothing published")
	}
	want := stamped(everything(peerA, 0, t0), t0)
	if got, _ := h.rec.Last(); !reflect.DeepEqual(got, want) {
		t.Fatalf("published\n%+v\nwant\n%+v", got, want)
	}

	// B: a pose only, a little later; then A's next datagram.
	h.clk.Advance(100 * time.Millisecond)
	must(t, b.s.SetPose(-3, 1, 3, cov9))
	h.deliver(peerB, b.send()[0])
	must(t, a.s.AddOpponent(9, 1, 0, []float32{0, 0, 0, 0}))
	h.deliver(peerA, a.send()[0])
	msgs := h.rec.Messages()
	if len(msgs) != 3 {
		t.Fatalf("%d messages", len(msgs))
	}
	t1 := t0.Add(100 * time.Millisecond)
	wantB := stamped(dmsgs.WorldInfo{Sender: "10.0.1.12", HasPose: true,
		Pose: geometry_msgs.Pose2D{X: -3, Y: 1, Theta: 3}, PoseCovariance: [9]float32(cov9)}, t1)
	if !reflect.DeepEqual(msgs[1], wantB) {
		t.Errorf("B's message\n%+v\nwant\n%+v", msgs[1], wantB)
	}
	wantA1 := stamped(dmsgs.WorldInfo{Sender: "10.0.1.11", Sequence: 1,
		Opponents: []dmsgs.WorldInfoOpponent{{UID: 9, Distance: 1}}}, t1)
	if !reflect.DeepEqual(msgs[2], wantA1) {
		t.Errorf("A's second message\n%+v\nwant\n%+v", msgs[2], wantA1)
	}
	// The first message was not overwritten by the later ones (fresh slices).
	if !reflect.DeepEqual(msgs[0], want) {
		t.Errorf("first message changed to\n%+v", msgs[0])
	}

	// Drops: a replay of A's first datagram (stale), junk, a wrong key, and 127.0.0.1
	// with loopback off.
	h.deliver(peerA, a0)
	h.deliver(peerB, []byte("not a world info datagram"))
	other := newPeer(t, wit.Config{Key: "SomeOtherTeamsKey"})
	must(t, other.s.SetPose(1, 1, 1, cov9))
	h.deliver(peerB, other.send()[0])
	h.deliver(netip.MustParseAddr("127.0.0.1"), b.send2(t))

	st := h.c.Status()
	if h.rec.Len() != 3 || st.Received != 7 || st.Published != 3 || st.PublishErrors != 0 {
		t.Errorf("status %+v", st)
	}
	if st.Received != st.Published+st.PublishErrors+st.Recv.Dropped() {
		t.Errorf("received %d != published %d + failed %d + dropped %d", st.Received, st.Published,
			st.PublishErrors, st.Recv.Dropped())
	}
	r := st.Recv
	if r.Stale != 1 || r.CipherLength != 1 || r.Padding+r.Magic != 1 || r.Loopback != 1 || r.Accepted != 3 {
		t.Errorf("receiver drops %+v", r)
	}
	// Junk and the wrong key are malformed for the socket; the replay and loopback are not.
	if st.Socket.Malformed != 2 || st.Socket.Received != 7 || st.Socket.Delivered != 5 {
		t.Errorf("socket %+v", st.Socket)
	}
	wantSenders := []SenderStatus{
		{Addr: peerA, Datagrams: 2, Records: 12 + 1, Dropped: 1, LastSeq: 1, FirstSeen: t0, LastSeen: t1},
		{Addr: peerB, Datagrams: 1, Records: 1, Dropped: 2, LastSeq: 0, FirstSeen: t1, LastSeen: t1},
	}
	if !reflect.DeepEqual(st.Senders, wantSenders) || st.SendersSeen != 2 {
		t.Errorf("senders %+v (seen %d)\nwant %+v", st.Senders, st.SendersSeen, wantSenders)
	}

	// Senders silent for longer than FlushAfter leave the table at the next cycle.
	h.clk.Advance(wit.DefaultFlushAfter) // one cycle, at exactly FlushAfter of silence
	waitFor(t, "a cycle", func() bool { return h.c.cycles.Load() == 1 })
	if st := h.c.Status(); len(st.Senders) != 2 {
		t.Errorf("after exactly FlushAfter: senders %+v", st.Senders)
	}
	h.tick()
	if st := h.c.Status(); len(st.Senders) != 0 || st.SendersForgotten != 2 || st.SendersSeen != 2 {
		t.Errorf("after FlushAfter: %+v", st)
	}
}

// TestForgetSendersAfterClockWentBack: a sender heard before the clock went back (a
// simulation reset) and silent since is forgotten FlushAfter after the reset (give or
// take the cycles that notice it), not only when the clock has caught up with its last
// datagram again; it is not forgotten at the reset either.
func TestForgetSendersAfterClockWentBack(t *testing.T) {
	h := start(t, testConfig())
	a := newPeer(t, wit.Config{})
	h.deliver(peerA, a.send2(t))
	h.clk.Set(t0.Add(-time.Hour)) // a simulation reset
	n := int(wit.DefaultFlushAfter / h.c.cfg.Interval)
	for range n - 1 {
		h.tick()
	}
	if st := h.c.Status(); len(st.Senders) != 1 || st.SendersForgotten != 0 {
		t.Fatalf("silent for less than FlushAfter since the reset, forgotten: %+v", st)
	}
	for range 3 {
		h.tick()
	}
	if st := h.c.Status(); len(st.Senders) != 0 || st.SendersForgotten != 1 {
		t.Fatalf("silent for FlushAfter since the reset, still there: %+v", st.Senders)
	}
	// Heard again: back in the table, stamped with the new time.
	h.deliver(peerA, a.send2(t))
	if st := h.c.Status(); len(st.Senders) != 1 || st.Senders[0].LastSeen != h.clk.Now() {
		t.Fatalf("heard again: %+v", st.Senders)
	}
}

// send2 returns a fresh datagram of b (any content).
func (p *peer) send2(t *testing.T) []byte {
	must(t, p.s.SetHalf(wi.HalfFirst))
	return p.send()[0]
}

func TestReceiveFatAndType10(t *testing.T) {
	h := start(t, testConfig())
	// A Fawkes-style sender: relative ball as type 10 next to the global ball, plus the
	// fat datagram.
	p := newPeer(t, wit.Config{RelBallAsType10: true, FatMessage: true})
	must(t, p.s.SetPose(1, 2, 3, cov9), p.s.SetRelBallPos(2, 0.5, 0, cov9), p.s.SetGlobalBallPos(4, 5, 0, cov9),
		p.s.AddOpponent(1, 3, 0.5, []float32{0, 0, 0, 0}))
	p.s.SetRelBallVisible(true, 3)
	p.s.SetGlobalBallVisible(true, 3)
	dgs := p.send()
	if len(dgs) != 2 {
		t.Fatalf("%d datagrams", len(dgs))
	}
	for _, d := range dgs {
		h.deliver(peerA, d)
	}
	msgs := h.rec.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages", len(msgs))
	}
	slim, fat := msgs[0], msgs[1]
	if !slim.RelativeBall.Valid || slim.RelativeBall.Distance != 2 || slim.RelativeBall.Bearing != 0.5 ||
		!slim.GlobalBall.Valid || slim.GlobalBall.Position.X != 4 || slim.Sequence != 0 {
		t.Errorf("slim message %+v", slim)
	}
	if fat.Sequence != 1 || !fat.HasPose || fat.Pose.Theta != 3 || !fat.RelativeBall.Valid ||
		fat.RelativeBall.Distance != 2 || fat.GlobalBall.Valid || fat.HasVelocity || len(fat.Opponents) != 1 {
		t.Errorf("fat message %+v", fat)
	}
	if st := h.c.Status(); st.Recv.Type10Pairs != 1 || st.Senders[0].Records != 4+3 {
		t.Errorf("status %+v", st)
	}
}

func TestReceivePublishErrors(t *testing.T) {
	clk := clock.NewManual(t0)
	conn := bus.NewFakeConn(8)
	fail := errors.New("writer gone")
	pub := bus.PublisherFunc[dmsgs.WorldInfo](func(*dmsgs.WorldInfo) error { return fail })
	c, err := New(testConfig(), Deps{Clock: clk, Conn: conn, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	p := newPeer(t, wit.Config{})
	for range 3 {
		must(t, p.s.SetPose(1, 1, 1, cov9))
		conn.Deliver(transport.Datagram{Payload: p.send()[0], Src: netip.AddrPortFrom(peerA, 2806)})
	}
	conn.Deliver(transport.Datagram{Payload: make([]byte, 32), Src: netip.AddrPortFrom(peerA, 2806)})
	waitFor(t, "four datagrams", func() bool { return c.Status().Received == 4 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	st := c.Status()
	if st.Published != 0 || st.PublishErrors != 3 || st.Recv.Dropped() != 1 ||
		st.Received != st.Published+st.PublishErrors+st.Recv.Dropped() {
		t.Errorf("status %+v", st)
	}
	// A failed publish still counts the datagram for its sender.
	if len(st.Senders) != 1 || st.Senders[0].Datagrams != 3 || st.Senders[0].Dropped != 1 {
		t.Errorf("senders %+v", st.Senders)
	}
}

func TestReceiveAfterConnCloses(t *testing.T) {
	// When the socket's queue closes, the component keeps its send cycle until cancelled.
	h := start(t, testConfig())
	h.game.set(testGame, true)
	h.conn.Close()
	h.tick()
	h.tick()
	if n := len(h.sent()); n != 0 { // FakeConn refuses sends after Close
		t.Errorf("%d datagrams sent on a closed connection", n)
	}
	if st := h.c.Status(); st.Send.SendErrors != 2 {
		t.Errorf("status %+v", st)
	}
}
