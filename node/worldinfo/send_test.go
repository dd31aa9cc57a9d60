package worldinfo

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// testVision: robot at (1 m, -0.5 m) facing +y (90 deg), ball 3 m ahead and 4 m to the
// left (5 m away), at (2.5 m, 1 m) on the field, obstacles 2 m to the right and 1 m ahead.
func testVision() *dmsgs.VisionInfo {
	return &dmsgs.VisionInfo{
		LocOK: true, SeeBall: true, SeeObstacle: true,
		RobotPos:       geometry_msgs.Vector3{X: 100, Y: -50, Z: 90},
		BallField:      geometry_msgs.Vector3{X: 300, Y: 400},
		BallGlobal:     geometry_msgs.Vector3{X: 250, Y: 100},
		ObstaclesField: []geometry_msgs.Vector3{{X: 0, Y: -200}, {X: 100, Y: 0}},
	}
}

// testGame: we are red against blue (magenta in Fawkes' terms), 2:1 up, our kick-off,
// second half, this robot penalised for 20 more seconds.
var testGame = Game{
	State: dmsgs.GCInfoStatePlaying, TeamColour: dmsgs.GCInfoTeamRed, EnemyColour: dmsgs.GCInfoTeamBlue,
	OurScore: 2, EnemyScore: 1, Kickoff: true, Penalised: true, SecsTillUnpenalised: 20,
}

func TestSendContents(t *testing.T) {
	cfg := testConfig()
	cfg.PlayerNumber = 3
	h := start(t, cfg)
	h.c.SetBehavior(&dmsgs.BehaviorInfo{AttackRight: true})
	h.c.SetVision(testVision())
	h.game.set(testGame, true)
	h.tick()

	sent := h.sent()
	if len(sent) != 1 || sent[0].Dst != cfg.Group || sent[0].Broadcast {
		t.Fatalf("sent %+v, want one datagram to %v", sent, cfg.Group)
	}
	hdr, recs := decode(t, wi.DefaultKey, sent[0].Payload)
	wantTypes := []wi.RecordType{wi.TypePose, wi.TypeRelBall, wi.TypeGlobalBall, wi.TypeGameState,
		wi.TypePenalty, wi.TypeOpponent, wi.TypeOpponent}
	if hdr.Seq != 0 || !slices.Equal(types(recs), wantTypes) {
		t.Fatalf("seq %d records %v, want 0 and %v", hdr.Seq, types(recs), wantTypes)
	}
	// Fawkes' frame: y right, clockwise angles.
	if p := recs[0].msg.(*wi.Pose); !near32(p.X, 1) || !near32(p.Y, 0.5) || !near32(p.Theta, -math.Pi/2) ||
		p.Covariance != (wi.Cov3{}) {
		t.Errorf("pose %+v, want (1, 0.5, -pi/2)", p)
	}
	if b := recs[1].msg.(*wi.RelBall); !near32(b.Dist, 5) || !near32(b.Bearing, -math.Atan2(4, 3)) ||
		b.Slope != 0 || !b.Visible || b.History != 1 {
		t.Errorf("relative ball %+v, want 5 m at -0.927 rad, visible, history 1", b)
	}
	if b := recs[2].msg.(*wi.GlobalBall); !near32(b.X, 2.5) || !near32(b.Y, -1) || b.Z != 0 ||
		!b.Visible || b.History != 1 {
		t.Errorf("global ball %+v, want (2.5, -1), visible, history 1", b)
	}
	wantGame := wi.GameState{State: wi.SPLPlay, StateTeam: wi.TeamMagenta, ScoreCyan: 1, ScoreMagenta: 2,
		OurTeam: wi.TeamMagenta, OurGoalColor: wi.GoalYellow, Half: wi.HalfSecond}
	if g := recs[3].msg.(*wi.GameState); *g != wantGame {
		t.Errorf("game state %+v, want %+v", g, wantGame)
	}
	if p := recs[4].msg.(*wi.Penalty); *p != (wi.Penalty{Player: 3, Code: wi.PenaltyManual, SecondsRemaining: 20}) {
		t.Errorf("penalty %+v", p)
	}
	// Nearest first: 1 m ahead, then 2 m to the right (positive bearing in Fawkes' frame).
	if o := recs[5].msg.(*wi.Opponent); o.UID != 1 || !near32(o.Dist, 1) || !near32(o.Bearing, 0) {
		t.Errorf("first opponent %+v", o)
	}
	if o := recs[6].msg.(*wi.Opponent); o.UID != 2 || !near32(o.Dist, 2) || !near32(o.Bearing, math.Pi/2) {
		t.Errorf("second opponent %+v", o)
	}

	// Next frame: the ball is lost, the near obstacle moved 10 cm, the other is gone, the
	// GameController is silent.
	v := testVision()
	v.SeeBall = false
	v.BallField, v.BallGlobal = geometry_msgs.Vector3{}, geometry_msgs.Vector3{}
	v.ObstaclesField = []geometry_msgs.Vector3{{X: 110, Y: 0}}
	h.c.SetVision(v)
	h.game.set(Game{}, false)
	h.tick()
	sent = h.sent()
	if len(sent) != 1 {
		t.Fatalf("sent %d datagrams, status %+v", len(sent), h.c.Status())
	}
	hdr, recs = decode(t, wi.DefaultKey, sent[0].Payload)
	wantTypes = []wi.RecordType{wi.TypePose, wi.TypeRelBall, wi.TypeGlobalBall, wi.TypeOpponent, wi.TypeOpponentDisapp}
	if hdr.Seq != 1 || !slices.Equal(types(recs), wantTypes) {
		t.Fatalf("seq %d records %v, want 1 and %v", hdr.Seq, types(recs), wantTypes)
	}
	// Not visible, history -1, the last position seen.
	if b := recs[1].msg.(*wi.RelBall); !near32(b.Dist, 5) || b.Visible || b.History != -1 {
		t.Errorf("lost relative ball %+v", b)
	}
	if b := recs[2].msg.(*wi.GlobalBall); !near32(b.X, 2.5) || b.Visible || b.History != -1 {
		t.Errorf("lost global ball %+v", b)
	}
	if o := recs[3].msg.(*wi.Opponent); o.UID != 1 || !near32(o.Dist, 1.1) {
		t.Errorf("tracked opponent %+v, want uid 1 at 1.1 m", o)
	}
	if d := recs[4].msg.(*wi.OpponentDisappeared); d.UID != 2 {
		t.Errorf("disappeared %+v, want uid 2", d)
	}
	if st := h.c.Status(); st.Cycles != 2 || st.EmptyCycles != 0 || st.Send.Sent != 2 || st.Send.SendErrors != 0 {
		t.Errorf("status %+v", st)
	}
}

func TestSendFrames(t *testing.T) {
	a43 := math.Atan2(4, 3)
	for _, tc := range []struct {
		name                 string
		attackRight, ignore  bool
		ros                  bool
		x, y, th, gx, gy, rb float64
		opp                  float64 // bearing of the obstacle 2 m to the right
	}{
		{"fawkes, attacking +x", true, false, false, 1, 0.5, -math.Pi / 2, 2.5, -1, -a43, math.Pi / 2},
		{"fawkes, attacking -x", false, false, false, -1, -0.5, math.Pi / 2, -2.5, 1, -a43, math.Pi / 2},
		{"fawkes, attack side ignored", false, true, false, 1, 0.5, -math.Pi / 2, 2.5, -1, -a43, math.Pi / 2},
		{"ros on the wire", true, false, true, 1, -0.5, math.Pi / 2, 2.5, 1, a43, -math.Pi / 2},
		{"ros on the wire, attacking -x", false, false, true, -1, 0.5, -math.Pi / 2, -2.5, -1, a43, -math.Pi / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.IgnoreAttackSide, cfg.ROSFrameOnWire = tc.ignore, tc.ros
			h := start(t, cfg)
			h.c.SetBehavior(&dmsgs.BehaviorInfo{AttackRight: tc.attackRight})
			h.c.SetVision(testVision())
			h.tick()
			sent := h.sent()
			if len(sent) != 1 {
				t.Fatalf("sent %d datagrams", len(sent))
			}
			_, recs := decode(t, wi.DefaultKey, sent[0].Payload)
			if len(recs) != 5 {
				t.Fatalf("records %v", types(recs))
			}
			p, rb, gb := recs[0].msg.(*wi.Pose), recs[1].msg.(*wi.RelBall), recs[2].msg.(*wi.GlobalBall)
			o := recs[4].msg.(*wi.Opponent)
			if !near32(p.X, tc.x) || !near32(p.Y, tc.y) || !near32(p.Theta, tc.th) {
				t.Errorf("pose %+v, want (%v, %v, %v)", p, tc.x, tc.y, tc.th)
			}
			if !near32(gb.X, tc.gx) || !near32(gb.Y, tc.gy) {
				t.Errorf("global ball %+v, want (%v, %v)", gb, tc.gx, tc.gy)
			}
			if !near32(rb.Bearing, tc.rb) || !near32(o.Bearing, tc.opp) {
				t.Errorf("bearings: ball %v, opponent %v; want %v, %v", rb.Bearing, o.Bearing, tc.rb, tc.opp)
			}
		})
	}
}

func TestSendBeforeBehavior(t *testing.T) {
	// Without a BehaviorInfo the team is taken to attack towards +x.
	h := start(t, testConfig())
	h.c.SetVision(testVision())
	h.tick()
	_, recs := decode(t, wi.DefaultKey, h.sent()[0].Payload)
	if p := recs[0].msg.(*wi.Pose); !near32(p.X, 1) || !near32(p.Y, 0.5) {
		t.Errorf("pose %+v", p)
	}
}

func TestSendVelocity(t *testing.T) {
	cfg := testConfig()
	cfg.MaxOpponents = 0
	h := start(t, cfg)
	h.c.SetBehavior(&dmsgs.BehaviorInfo{AttackRight: true})
	vision := testVision()
	vision.SeeBall = false
	vision.SeeObstacle = false
	odo := func(x, y, th float64) *dmsgs.MotionInfo {
		return &dmsgs.MotionInfo{Stable: true, Odometry: geometry_msgs.Vector3{X: x, Y: y, Z: th}}
	}
	velocity := func() *wi.Velocity {
		t.Helper()
		h.c.SetVision(vision)
		h.tick()
		for _, s := range h.sent() {
			_, recs := decode(t, wi.DefaultKey, s.Payload)
			for _, r := range recs {
				if v, ok := r.msg.(*wi.Velocity); ok {
					return v
				}
			}
		}
		return nil
	}

	h.c.SetMotion(odo(0, 0, 0)) // arrives at t0
	if v := velocity(); v != nil {
		t.Fatalf("velocity from one sample: %+v", v)
	}
	// 50 cm forward in the 500 ms since: 1 m/s forward. The robot faces +y on the field
	// (heading 90 deg), which is -y in Fawkes' frame.
	h.c.SetMotion(odo(50, 0, 0))
	v := velocity()
	if v == nil || !near32(v.VelX, 0) || !near32(v.VelY, -1) || !near32(v.VelTheta, 0) {
		t.Fatalf("velocity %+v, want (0, -1, 0)", v)
	}
	// A cycle without a new odometry sample sends no velocity.
	if v := velocity(); v != nil {
		t.Errorf("velocity without a new sample: %+v", v)
	}
	// Stamped samples: 25 cm along odometry x while turning 10 degrees in 250 ms.
	stamp := func(d time.Duration) builtin_interfaces.Time { return builtin_interfaces.NewTime(t0.Add(d)) }
	m := odo(50, 0, 0)
	m.Timestamp = stamp(0)
	h.c.SetMotion(m)
	if v := velocity(); v != nil {
		t.Errorf("velocity across a change of time source: %+v", v)
	}
	m = odo(75, 0, 10)
	m.Timestamp = stamp(250 * time.Millisecond)
	h.c.SetMotion(m)
	v = velocity()
	mid := units.Radians(5)
	fwd, left := math.Cos(mid)*0.25/0.25, -math.Sin(mid)*0.25/0.25
	// Field frame (heading 90 deg): x = -left, y = fwd; Fawkes: y and the rate negated.
	if v == nil || !near32(v.VelX, -left) || !near32(v.VelY, -fwd) || !near32(v.VelTheta, -units.Radians(40)) {
		t.Fatalf("velocity %+v, want (%v, %v, %v)", v, -left, -fwd, -units.Radians(40))
	}
	// An odometry reset is not a velocity.
	m = odo(-500, 0, 0)
	m.Timestamp = stamp(500 * time.Millisecond)
	h.c.SetMotion(m)
	if v := velocity(); v != nil {
		t.Errorf("velocity from an odometry reset: %+v", v)
	}
	// Without localisation there is no field frame, so no velocity.
	vision.LocOK = false
	m = odo(20, 0, 0)
	m.Timestamp = stamp(750 * time.Millisecond)
	h.c.SetMotion(m)
	if v := velocity(); v != nil {
		t.Errorf("velocity without localisation: %+v", v)
	}
}

func TestSendStaleInputs(t *testing.T) {
	h := start(t, testConfig()) // InputTimeout 1 s
	h.c.SetVision(testVision())
	h.c.SetMotion(&dmsgs.MotionInfo{})
	h.tick() // t0+0.5 s
	h.tick() // t0+1 s: still fresh
	if n := len(h.sent()); n != 2 {
		t.Fatalf("%d datagrams while fresh", n)
	}
	h.tick() // t0+1.5 s: stale; both opponents are announced as gone, once
	sent := h.sent()
	if len(sent) != 1 {
		t.Fatalf("%d datagrams on going stale", len(sent))
	}
	_, recs := decode(t, wi.DefaultKey, sent[0].Payload)
	if !slices.Equal(types(recs), []wi.RecordType{wi.TypeOpponentDisapp, wi.TypeOpponentDisapp}) {
		t.Fatalf("records %v", types(recs))
	}
	h.tick()
	if sent := h.sent(); len(sent) != 0 {
		t.Errorf("sent %d datagrams with stale inputs", len(sent))
	}
	if st := h.c.Status(); st.Cycles != 4 || st.EmptyCycles != 1 || st.Send.Sent != 3 {
		t.Errorf("status %+v", st)
	}
	// Fresh vision again: opponents get new uids.
	h.c.SetVision(testVision())
	h.tick()
	_, recs = decode(t, wi.DefaultKey, h.sent()[0].Payload)
	if o := recs[len(recs)-1].msg.(*wi.Opponent); o.UID != 4 {
		t.Errorf("opponent after staleness %+v, want uid 4", o)
	}
}

func TestSendWithoutLocalisation(t *testing.T) {
	for _, withoutLoc := range []bool{false, true} {
		cfg := testConfig()
		cfg.PoseWithoutLoc = withoutLoc
		h := start(t, cfg)
		v := testVision()
		v.LocOK = false
		h.c.SetVision(v)
		h.tick()
		_, recs := decode(t, wi.DefaultKey, h.sent()[0].Payload)
		want := []wi.RecordType{wi.TypeRelBall, wi.TypeOpponent, wi.TypeOpponent}
		if withoutLoc {
			want = []wi.RecordType{wi.TypePose, wi.TypeRelBall, wi.TypeGlobalBall, wi.TypeOpponent, wi.TypeOpponent}
		}
		if !slices.Equal(types(recs), want) {
			t.Errorf("PoseWithoutLoc %v: records %v, want %v", withoutLoc, types(recs), want)
		}
		must(t, h.stop())
	}
}

func TestSendInvalidInputs(t *testing.T) {
	h := start(t, testConfig())
	v := testVision()
	v.RobotPos.X = math.NaN()
	v.BallField.Y = math.Inf(1)
	v.ObstaclesField = append(v.ObstaclesField, geometry_msgs.Vector3{X: math.NaN()})
	h.c.SetVision(v)
	h.tick()
	_, recs := decode(t, wi.DefaultKey, h.sent()[0].Payload)
	if !slices.Equal(types(recs), []wi.RecordType{wi.TypeOpponent, wi.TypeOpponent}) {
		t.Errorf("records %v", types(recs))
	}
	if st := h.c.Status(); st.InvalidInputs != 3 {
		t.Errorf("InvalidInputs %d, want 3 (pose, relative ball, one obstacle)", st.InvalidInputs)
	}
}

func TestSendMaxOpponents(t *testing.T) {
	cfg := testConfig()
	cfg.MaxOpponents = 3
	h := start(t, cfg)
	v := testVision()
	v.SeeBall = false
	v.ObstaclesField = nil
	for i := range 6 {
		v.ObstaclesField = append(v.ObstaclesField, geometry_msgs.Vector3{X: float64(600 - 100*i)})
	}
	h.c.SetVision(v)
	h.tick()
	_, recs := decode(t, wi.DefaultKey, h.sent()[0].Payload)
	var dists []float32
	for _, r := range recs[1:] {
		dists = append(dists, r.msg.(*wi.Opponent).Dist)
	}
	if !slices.Equal(dists, []float32{1, 2, 3}) {
		t.Errorf("opponent distances %v, want the nearest three", dists)
	}
	// Obstacles are ignored while vision says it sees none.
	v.SeeObstacle = false
	h.c.SetVision(v)
	h.tick()
	_, recs = decode(t, wi.DefaultKey, h.sent()[0].Payload)
	if !slices.Equal(types(recs), []wi.RecordType{wi.TypePose, wi.TypeOpponentDisapp,
		wi.TypeOpponentDisapp, wi.TypeOpponentDisapp}) {
		t.Errorf("records %v", types(recs))
	}
}

func TestSendFatMessage(t *testing.T) {
	cfg := testConfig()
	cfg.FatMessage = true
	cfg.Key = "another key of some length"
	h := start(t, cfg)
	h.c.SetVision(testVision())
	h.tick()
	sent := h.sent()
	if len(sent) != 2 {
		t.Fatalf("%d datagrams, want slim and fat", len(sent))
	}
	h0, _ := decode(t, cfg.Key, sent[0].Payload)
	h1, recs := decode(t, cfg.Key, sent[1].Payload)
	if h0.Seq != 0 || h1.Seq != 1 || len(recs) != 1 || recs[0].typ != wi.TypeFat {
		t.Fatalf("seqs %d %d, fat datagram %v", h0.Seq, h1.Seq, types(recs))
	}
	f := recs[0].msg.(*wi.Fat)
	if !f.ValidPose || f.ValidVelocity || !f.ValidRelBall || f.NumOpponents != 2 || !near32(f.Pose.X, 1) ||
		!near32(f.RelBall.Dist, 5) || f.Opponents[1].UID != 2 {
		t.Errorf("fat record %+v", f)
	}
	if plain, err := wi.NewCipher(wi.DefaultKey).Open(nil, sent[0].Payload); err == nil {
		if _, _, err := wi.Parse(plain); err == nil {
			t.Error("datagram readable with the default key")
		}
	}
}

func TestSendErrorsCounted(t *testing.T) {
	h := start(t, testConfig())
	h.conn.SendErr = errors.New("network unreachable")
	h.game.set(testGame, true)
	h.tick()
	h.tick()
	if st := h.c.Status(); st.Send.Sent != 0 || st.Send.SendErrors != 2 || st.Socket.SendErrors != 2 || st.Cycles != 2 {
		t.Errorf("status %+v", st)
	}
}

// TestSendRate drives the clock in 100 ms steps for 10 s and checks that a datagram
// leaves exactly every interval.
func TestSendRate(t *testing.T) {
	for _, interval := range []time.Duration{DefaultInterval, 300 * time.Millisecond} {
		cfg := testConfig()
		cfg.Interval = interval
		h := start(t, cfg)
		h.game.set(Game{State: dmsgs.GCInfoStatePlaying, FirstHalf: true}, true)
		const step, total = 100 * time.Millisecond, 10 * time.Second
		for elapsed := step; elapsed <= total; elapsed += step {
			h.clk.Advance(step)
			want := uint64(elapsed / interval)
			waitFor(t, "cycles to catch up", func() bool { return h.c.cycles.Load() >= want })
			if got := h.c.cycles.Load(); got != want {
				t.Fatalf("interval %v: %d cycles after %v, want %d", interval, got, elapsed, want)
			}
			if n := uint64(len(h.conn.Sent())); n != want {
				t.Fatalf("interval %v: %d datagrams after %v, want %d", interval, n, elapsed, want)
			}
		}
		for i, s := range h.conn.Sent() {
			if hdr, _ := decode(t, wi.DefaultKey, s.Payload); hdr.Seq != uint32(i) {
				t.Fatalf("datagram %d has seq %d", i, hdr.Seq)
			}
		}
		must(t, h.stop())
	}
}

// TestSendInputsAfterClockWentBack: when the clock goes back (a restarted simulation
// under use_sim_time) past the arrival of the last VisionInfo and MotionInfo and no new
// ones come, the inputs are stale, not fresh until the clock catches up with them: the
// robot does not go on claiming the pose of the previous run. The cycles are run
// directly, without Run, to set their times.
func TestSendInputsAfterClockWentBack(t *testing.T) {
	clk := clock.NewManual(t0)
	conn := bus.NewFakeConn(64)
	c, err := New(testConfig(), Deps{Clock: clk, Conn: conn, Publisher: &bus.Recorder[dmsgs.WorldInfo]{}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetVisionAt(testVision(), t0)
	c.SetMotionAt(&dmsgs.MotionInfo{}, t0)
	c.cycle(t0.Add(500 * time.Millisecond))
	if sent := conn.Sent(); len(sent) != 1 {
		t.Fatalf("%d datagrams with fresh inputs, want 1", len(sent))
	}
	conn.ResetSent()
	c.cycle(t0.Add(-time.Minute))
	for _, s := range conn.Sent() {
		_, recs := decode(t, wi.DefaultKey, s.Payload)
		if slices.Contains(types(recs), wi.TypePose) || slices.Contains(types(recs), wi.TypeOpponent) {
			t.Errorf("a minute before the inputs arrived: records %v, want no pose and no opponents", types(recs))
		}
	}
}
