package world

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
)

const step = 50 * time.Millisecond

// quiet is a 5-robot world without falls, opponent kicks or noise, so that tests can
// predict it.
func quiet(t testing.TB, n int) *World {
	t.Helper()
	c := DefaultConfig(n)
	c.FallRate, c.OpponentRate, c.Noise = 0, 0, 0
	w, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func referee(state uint8) Referee {
	return Referee{Connected: true, State: state, FirstHalf: true}
}

// setAll gives every robot the same referee state.
func setAll(w *World, r Referee) {
	for id := 1; id <= w.cfg.Robots; id++ {
		w.SetReferee(id, r)
	}
}

// run steps the world for d, calling check (if not nil) after every step; it stops
// early when check returns true and reports whether it did.
func run(w *World, d time.Duration, check func() bool) bool {
	for end := w.Time() + d; w.Time() < end; {
		w.Step(step)
		if check != nil && check() {
			return true
		}
	}
	return false
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"no robots", func(c *Config) { c.Robots = 0 }, "robots 0 outside 1..20"},
		{"too many robots", func(c *Config) { c.Robots = 21 }, "robots 21 outside"},
		{"goal wider than field", func(c *Config) { c.Field.GoalWidth = 7 }, "field 9x6 m with 7 m goals"},
		{"penalty mark behind the centre", func(c *Config) { c.Field.PenaltyMarkDistance = 5 }, "markings"},
		{"no walking", func(c *Config) { c.WalkSpeed = 0 }, "speeds"},
		{"NaN speed", func(c *Config) { c.KickSpeed = math.NaN() }, "speeds"},
		{"fall rate", func(c *Config) { c.FallRate = 2 }, "fall rate 2"},
		{"negative noise", func(c *Config) { c.Noise = -1 }, "noise -1"},
		{"fall times", func(c *Config) { c.FallMax = c.FallMin / 2 }, "fall time 1s..500ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig(5)
			tc.change(&c)
			_, err := New(c)
			if !errors.Is(err, ErrConfig) || !contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrConfig with %q", err, tc.want)
			}
		})
	}
	c := DefaultConfig(5)
	c.FallRate, c.FallMin, c.FallMax = 0, 0, 0 // fall times do not matter without falls
	if _, err := New(c); err != nil {
		t.Errorf("no falls: %v", err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestStartOnTouchline(t *testing.T) {
	w := quiet(t, 5)
	f := w.cfg.Field
	for _, r := range w.Robots() {
		if r.Pose.Y != -f.Width/2 || r.Pose.X >= 0 || r.Pose.X <= -f.Length/2 || math.Abs(r.Pose.Theta-math.Pi/2) > 1e-9 {
			t.Errorf("robot %d starts at %+v, want on our touchline facing the field", r.ID, r.Pose)
		}
	}
	// Without a GameController nobody moves.
	before := w.Robots()
	run(w, 5*time.Second, nil)
	for i, r := range w.Robots() {
		if r.Pose != before[i].Pose || r.Play != dmsgs.BehaviorInfoStateInitializing {
			t.Errorf("robot %d moved without a GameController: %+v -> %+v", r.ID, before[i].Pose, r.Pose)
		}
	}
	if b := w.Ball(); b != (BallView{}) {
		t.Errorf("ball %+v, want still on the centre mark", b)
	}
}

// roles counts the roles of the robots that are not penalised.
func roles(w *World) map[uint8]int {
	n := map[uint8]int{}
	for _, r := range w.Robots() {
		if !r.Penalised {
			n[r.Role]++
		}
	}
	return n
}

func TestRoles(t *testing.T) {
	for _, tc := range []struct {
		robots                              int
		goalie, striker, supporter, defends int
	}{
		{1, 0, 1, 0, 0},
		{2, 1, 1, 0, 0},
		{3, 1, 1, 0, 1},
		{4, 1, 1, 1, 1},
		{5, 1, 1, 1, 2},
		{8, 1, 1, 1, 5},
	} {
		w := quiet(t, tc.robots)
		setAll(w, referee(dmsgs.GCInfoStatePlaying))
		for range 200 { // 10 s of play: roles change hands but the counts hold
			w.Step(step)
			n := roles(w)
			if n[dmsgs.BehaviorInfoRoleGoalie] != tc.goalie || n[dmsgs.BehaviorInfoRoleStriker] != tc.striker ||
				n[dmsgs.BehaviorInfoRoleSupporter] != tc.supporter || n[dmsgs.BehaviorInfoRoleDefender] != tc.defends {
				t.Fatalf("%d robots at %v: roles %v, want goalie %d striker %d supporter %d defenders %d",
					tc.robots, w.Time(), n, tc.goalie, tc.striker, tc.supporter, tc.defends)
			}
		}
		if tc.robots > 1 {
			if r, _ := w.Robot(1); r.Role != dmsgs.BehaviorInfoRoleGoalie {
				t.Errorf("%d robots: player 1 is %d, want the goalie", tc.robots, r.Role)
			}
		}
	}
}

func TestReadyPositions(t *testing.T) {
	for _, kickOff := range []bool{true, false} {
		w := quiet(t, 5)
		r := referee(dmsgs.GCInfoStateReady)
		r.KickOff = kickOff
		setAll(w, r)
		arrived := func() bool {
			for _, v := range w.Robots() {
				if v.Pose.Pos().Dist(v.Target.Pos()) > 0.05 {
					return false
				}
			}
			return true
		}
		if !run(w, 30*time.Second, arrived) {
			t.Fatalf("kick-off %v: robots not at their positions after 30 s: %+v", kickOff, w.Robots())
		}
		for _, v := range w.Robots() {
			if v.Play != dmsgs.BehaviorInfoStatePlacing || v.Pose.X >= 0 {
				t.Errorf("kick-off %v: robot %d at %+v state %d, want PLACING in our half", kickOff, v.ID, v.Pose, v.Play)
			}
			if v.Role == dmsgs.BehaviorInfoRoleStriker {
				inCircle := v.Pose.Pos().Len() < w.cfg.Field.CentreCircleDiameter/2
				if inCircle != kickOff {
					t.Errorf("kick-off %v: striker at %+v, in the centre circle %v", kickOff, v.Pose, inCircle)
				}
			}
		}
		// SET: everybody stands.
		setAll(w, referee(dmsgs.GCInfoStateSet))
		before := w.Robots()
		run(w, 2*time.Second, nil)
		for i, v := range w.Robots() {
			if v.Pose != before[i].Pose {
				t.Errorf("robot %d moved in SET", v.ID)
			}
		}
	}
}

func TestStrikerKicks(t *testing.T) {
	w := quiet(t, 5)
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	handled := false
	kicked := run(w, 40*time.Second, func() bool {
		if s, ok := w.Robot(w.Striker()); ok && s.Play == dmsgs.BehaviorInfoStateBallHandling {
			handled = true
			if d := s.Pose.Pos().Dist(w.Ball().Pos); d > HandleDistance {
				t.Fatalf("striker handles the ball %.2f m away", d)
			}
		}
		return w.Stats().Kicks > 0
	})
	if !kicked || !handled {
		t.Fatalf("kicked %v, handled %v within 40 s; striker %d, ball %+v", kicked, handled, w.Striker(), w.Ball())
	}
	s, _ := w.Robot(w.Striker())
	if !s.Kicking || s.Role != dmsgs.BehaviorInfoRoleStriker {
		t.Errorf("striker after the kick: %+v", s)
	}
	if v := w.Ball().Vel; v.X <= 0 || math.Abs(v.Angle()) > 0.6 {
		t.Errorf("ball kicked with velocity %+v, want towards the other goal", v)
	}
	var m dmsgs.MotionInfo
	var b dmsgs.BehaviorInfo
	var v dmsgs.VisionInfo
	w.Inputs(s.ID, time.Unix(100, 0), &m, &b, &v)
	if m.Status != dmsgs.MotionInfoStatusKicking || b.TimeSinceLastKick > 0.1 || b.KickerID != uint8(s.ID) || !b.TeamPlayPriority {
		t.Errorf("kicking striker's inputs: status %d, since kick %v, kicker %d, priority %v", m.Status, b.TimeSinceLastKick, b.KickerID, b.TeamPlayPriority)
	}
	// The ball rolls out and stops.
	run(w, 5*time.Second, nil)
	if w.Ball().Vel == (Vec{}) && w.Ball().Pos.X <= 0 {
		t.Errorf("ball at %+v after the kick", w.Ball())
	}
}

func TestKeepAwayFromTheirKickOff(t *testing.T) {
	w := quiet(t, 5)
	r := referee(dmsgs.GCInfoStatePlaying)
	r.KickOffRunning = true // their kick-off: KickOff false
	setAll(w, r)
	run(w, 20*time.Second, func() bool {
		for _, v := range w.Robots() {
			if d := v.Pose.Pos().Dist(w.Ball().Pos); d < KeepDistance-0.15 {
				t.Fatalf("robot %d %.2f m from the ball during their kick-off", v.ID, d)
			}
		}
		return false
	})
	if k := w.Stats().Kicks; k != 0 {
		t.Errorf("%d kicks during their kick-off", k)
	}
	// Kick-off over: the striker goes to the ball.
	r.KickOffRunning = false
	setAll(w, r)
	if !run(w, 20*time.Second, func() bool { return w.Stats().Kicks > 0 }) {
		t.Error("no kick after their kick-off ended")
	}
}

func TestSetPlayPlacement(t *testing.T) {
	f := KidSizeField()
	for _, tc := range []struct {
		name    string
		setPlay uint8
		ours    bool
		want    Vec
	}{
		{"our corner kick", dmsgs.GCInfoSetPlayCornerKick, true, Vec{f.Length / 2, f.Width / 2}},
		{"their corner kick", dmsgs.GCInfoSetPlayCornerKick, false, Vec{-f.Length / 2, f.Width / 2}},
		{"our goal kick", dmsgs.GCInfoSetPlayGoalKick, true, Vec{-f.Length/2 + f.GoalAreaLength, 0}},
		{"their goal kick", dmsgs.GCInfoSetPlayGoalKick, false, Vec{f.Length/2 - f.GoalAreaLength, 0}},
		{"our penalty kick", dmsgs.GCInfoSetPlayPenaltyKick, true, Vec{f.Length/2 - f.PenaltyMarkDistance, 0}},
		{"throw-in", dmsgs.GCInfoSetPlayThrowIn, false, Vec{0, f.Width / 2}},
		{"free kick where the foul was", dmsgs.GCInfoSetPlayDirectFreeKick, false, Vec{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := quiet(t, 5)
			r := referee(dmsgs.GCInfoStatePlaying)
			setAll(w, r)
			w.Step(step)
			r.SetPlay, r.SetPlayOurs = tc.setPlay, tc.ours
			setAll(w, r)
			w.Step(step)
			if got := w.Ball(); got.Pos != tc.want || got.Vel != (Vec{}) {
				t.Errorf("ball %+v, want at %+v", got, tc.want)
			}
			if !tc.ours && tc.setPlay != dmsgs.GCInfoSetPlayDirectFreeKick {
				run(w, 15*time.Second, nil)
				for _, v := range w.Robots() {
					if d := v.Pose.Pos().Dist(w.Ball().Pos); d < KeepDistance-0.15 {
						t.Errorf("robot %d %.2f m from the ball during their set play", v.ID, d)
					}
				}
			}
		})
	}
}

func TestFalls(t *testing.T) {
	c := DefaultConfig(5)
	c.FallRate, c.OpponentRate, c.Noise = 0.5, 0, 0
	w, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	setAll(w, referee(dmsgs.GCInfoStateReady))
	const dt = 10 * time.Millisecond
	down := map[int]time.Duration{}
	var durations []time.Duration
	for w.Time() < 60*time.Second && len(durations) < 5 {
		w.Step(dt)
		for _, v := range w.Robots() {
			var m dmsgs.MotionInfo
			var b dmsgs.BehaviorInfo
			var vi dmsgs.VisionInfo
			w.Inputs(v.ID, time.Unix(0, 0), &m, &b, &vi)
			if m.Stable == v.Fallen || (v.Fallen && (vi.SeeBall || vi.LocOK || math.Abs(m.IMURpy.Y) != 85 || v.Play != dmsgs.BehaviorInfoStateInactive)) {
				t.Fatalf("robot %d fallen %v: stable %v see_ball %v loc_ok %v pitch %v play %d", v.ID, v.Fallen, m.Stable, vi.SeeBall, vi.LocOK, m.IMURpy.Y, v.Play)
			}
			switch start, was := down[v.ID]; {
			case v.Fallen && !was:
				down[v.ID] = w.Time()
			case !v.Fallen && was:
				durations = append(durations, w.Time()-start)
				delete(down, v.ID)
			}
		}
	}
	if len(durations) < 5 {
		t.Fatalf("%d falls ended in 60 s at rate 0.5/s", len(durations))
	}
	for _, d := range durations {
		if d < c.FallMin || d > c.FallMax+dt {
			t.Errorf("a fall lasted %v, want %v..%v", d, c.FallMin, c.FallMax)
		}
	}
	if w.Stats().Falls < uint64(len(durations)) {
		t.Errorf("Stats.Falls %d < %d falls seen", w.Stats().Falls, len(durations))
	}
}

func TestPenalised(t *testing.T) {
	w := quiet(t, 5)
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	run(w, 5*time.Second, nil)
	id := w.Striker()
	r := referee(dmsgs.GCInfoStatePlaying)
	r.Penalised = true
	w.SetReferee(id, r)
	w.Step(step)
	v, _ := w.Robot(id)
	f := w.cfg.Field
	if math.Abs(v.Pose.Y) != f.Width/2 || v.Pose.X > -0.5 || v.Play != dmsgs.BehaviorInfoStateInactive || !v.Penalised {
		t.Fatalf("penalised robot %d at %+v play %d, want on our touchline, inactive", id, v.Pose, v.Play)
	}
	if w.Striker() == id {
		t.Errorf("penalised robot %d is still the striker", id)
	}
	if n := roles(w); n[dmsgs.BehaviorInfoRoleStriker] != 1 || n[dmsgs.BehaviorInfoRoleGoalie] != 1 {
		t.Errorf("roles with one robot penalised: %v", n)
	}
	pose := v.Pose
	run(w, 3*time.Second, nil)
	if v, _ := w.Robot(id); v.Pose != pose {
		t.Errorf("penalised robot moved from %+v to %+v", pose, v.Pose)
	}
	w.SetReferee(id, referee(dmsgs.GCInfoStatePlaying))
	run(w, 3*time.Second, nil)
	if v, _ := w.Robot(id); v.Pose == pose || v.Penalised {
		t.Errorf("unpenalised robot stays at %+v", v.Pose)
	}
}

func TestStoppedFreezes(t *testing.T) {
	w := quiet(t, 5)
	r := referee(dmsgs.GCInfoStatePlaying)
	setAll(w, r)
	run(w, 3*time.Second, nil)
	w.ball.vel = Vec{1, 0}
	r.Stopped = true
	setAll(w, r)
	before, ball := w.Robots(), w.Ball()
	run(w, 2*time.Second, nil)
	for i, v := range w.Robots() {
		if v.Pose != before[i].Pose {
			t.Errorf("robot %d moved while play is stopped", v.ID)
		}
	}
	if w.Ball().Pos != ball.Pos {
		t.Errorf("ball rolled while play is stopped: %+v -> %+v", ball.Pos, w.Ball().Pos)
	}
}

func TestBallPlacedByReferee(t *testing.T) {
	w := quiet(t, 5)
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	f := w.cfg.Field
	w.ball = ball{pos: Vec{4, 2.9}, vel: Vec{0, 3}}
	w.Step(step)
	if b := w.Ball(); b.Pos != (Vec{4, f.Width / 2}) || b.Vel != (Vec{}) {
		t.Errorf("ball over the touchline: %+v, want on the line", b)
	}
	w.ball = ball{pos: Vec{4.45, 0.3}, vel: Vec{2, 0}}
	w.Step(step)
	if b := w.Ball(); b.Pos != (Vec{f.Length/2 - f.GoalAreaLength, 0}) {
		t.Errorf("ball over the goal line: %+v, want on the goal area's edge", b)
	}
	// READY after a goal: the ball goes back to the centre mark.
	setAll(w, referee(dmsgs.GCInfoStateReady))
	w.Step(step)
	if b := w.Ball(); b != (BallView{}) {
		t.Errorf("ball in READY: %+v", b)
	}
}

func TestOpponentKicksBack(t *testing.T) {
	c := DefaultConfig(5)
	c.FallRate, c.Noise, c.OpponentRate = 0, 0, 2
	w, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	w.ball = ball{pos: Vec{3, 1}}
	if !run(w, 5*time.Second, func() bool { return w.Stats().OpponentKicks > 0 }) {
		t.Fatal("the opponent did not kick a free ball in its half")
	}
	if v := w.Ball().Vel; v.X >= 0 {
		t.Errorf("opponent kicked the ball with %+v, want towards our goal", v)
	}
}

func TestTheirGoalKick(t *testing.T) {
	c := DefaultConfig(5)
	c.FallRate, c.Noise = 0, 0
	c.OpponentRate = 1e-9 // no kicks in play, but goal kicks
	w, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	f := c.Field
	w.ball = ball{pos: Vec{4.4, 0.5}, vel: Vec{3, 0}}
	w.Step(step)
	spot := Vec{f.Length/2 - f.GoalAreaLength, 0}
	if b := w.Ball(); b.Pos != spot {
		t.Fatalf("ball over their goal line at %+v, want %+v", b.Pos, spot)
	}
	start := w.Time()
	kicked := run(w, 5*time.Second, func() bool {
		if w.Ball().Pos == spot {
			for _, v := range w.Robots() {
				if d := v.Pose.Pos().Dist(spot); d < KeepDistance-0.15 {
					t.Fatalf("robot %d %.2f m from the ball before their goal kick", v.ID, d)
				}
			}
		}
		return w.Stats().OpponentKicks > 0
	})
	if d := w.Time() - start; !kicked || d < GoalKickDelay/2 || d > GoalKickDelay*3/2+step {
		t.Fatalf("goal kick after %v (kicked %v), want %v..%v", d, kicked, GoalKickDelay/2, GoalKickDelay*3/2)
	}
	if v := w.Ball().Vel; v.X >= 0 || w.Stats().Kicks != 0 {
		t.Errorf("their goal kick: ball velocity %+v, our kicks %d", v, w.Stats().Kicks)
	}
}

func TestVision(t *testing.T) {
	w := quiet(t, 2)
	setAll(w, referee(dmsgs.GCInfoStateFinished)) // nobody moves, the ball stays
	w.robots[1].pose = Pose{X: 1, Y: 0, Theta: math.Pi / 2}
	w.robots[0].pose = Pose{X: -4, Y: 0}
	w.ball = ball{pos: Vec{1, 1}}
	w.Step(step)
	var m dmsgs.MotionInfo
	var b dmsgs.BehaviorInfo
	var v dmsgs.VisionInfo
	w.Inputs(2, time.Unix(5, 0), &m, &b, &v)
	if !v.SeeBall || !near(v.BallField.X, 100) || !near(v.BallField.Y, 0) || !near(v.BallGlobal.X, 100) || !near(v.BallGlobal.Y, 100) {
		t.Errorf("ball 1 m ahead: see %v field %+v global %+v", v.SeeBall, v.BallField, v.BallGlobal)
	}
	if !near(v.RobotPos.X, 100) || !near(v.RobotPos.Y, 0) || !near(v.RobotPos.Z, 90) || !v.LocOK || !m.Stable {
		t.Errorf("robot pose %+v loc %v stable %v", v.RobotPos, v.LocOK, m.Stable)
	}
	if !near(b.BallGlobal.X, 100) || !near(b.AttackTarget.X, 450) || !b.AttackRight {
		t.Errorf("behaviour: ball %+v attack %+v right %v", b.BallGlobal, b.AttackTarget, b.AttackRight)
	}
	if m.Timestamp.Sec != 5 {
		t.Errorf("timestamp %+v", m.Timestamp)
	}
	// Robot 1 is 5.1 m away: beyond the view distance.
	w.Inputs(1, time.Unix(5, 0), &m, &b, &v)
	if v.SeeBall || v.BallField.X != 0 || b.BallGlobal.X != 0 {
		t.Errorf("robot 5.1 m from the ball sees it: %+v", v.BallField)
	}
	if w.Inputs(3, time.Unix(5, 0), &m, &b, &v) {
		t.Error("Inputs of robot 3 of 2")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.5 }

func TestDeterministic(t *testing.T) {
	play := func() []RobotView {
		w, err := New(DefaultConfig(5))
		if err != nil {
			t.Fatal(err)
		}
		setAll(w, referee(dmsgs.GCInfoStatePlaying))
		var m dmsgs.MotionInfo
		var b dmsgs.BehaviorInfo
		var v dmsgs.VisionInfo
		for range 400 {
			w.Step(step)
			for id := 1; id <= 5; id++ {
				w.Inputs(id, time.Unix(0, 0), &m, &b, &v)
			}
		}
		return w.Robots()
	}
	a, b := play(), play()
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("robot %d differs between two runs with one seed: %+v vs %+v", i+1, a[i], b[i])
		}
	}
}

func TestRefereeOf(t *testing.T) {
	g := &dmsgs.GCInfo{Connected: true, State: dmsgs.GCInfoStatePlaying, SetPlay: dmsgs.GCInfoSetPlayCornerKick,
		SetPlayTeam: 17, FirstHalf: true, Penalised: true, OurScore: 2, EnemyScore: 1, SecondaryTime: 20}
	r := RefereeOf(g, 17)
	want := Referee{Connected: true, State: dmsgs.GCInfoStatePlaying, SetPlay: dmsgs.GCInfoSetPlayCornerKick,
		SetPlayOurs: true, FirstHalf: true, Penalised: true, OurScore: 2, EnemyScore: 1}
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
	if r := RefereeOf(g, 5); r.SetPlayOurs || !r.keepAway() || r.ourKick() {
		t.Errorf("their corner kick: %+v keepAway %v ourKick %v", r, r.keepAway(), r.ourKick())
	}
	g.SetPlay, g.Kickoff = dmsgs.GCInfoSetPlayNone, true
	if r := RefereeOf(g, 17); !r.KickOffRunning || !r.ourKick() || r.keepAway() {
		t.Errorf("our kick-off: %+v", r)
	}
	g.Stopped = true
	if r := RefereeOf(g, 17); r.playing() || r.ourKick() {
		t.Errorf("stopped play counts as playing: %+v", r)
	}
	if RefereeOf(nil, 17) != (Referee{}) {
		t.Error("RefereeOf(nil) is not the zero Referee")
	}
}

func BenchmarkStep(b *testing.B) {
	w, err := New(DefaultConfig(5))
	if err != nil {
		b.Fatal(err)
	}
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	b.ReportAllocs()
	for b.Loop() {
		w.Step(100 * time.Millisecond)
	}
}

func BenchmarkInputs(b *testing.B) {
	w, err := New(DefaultConfig(5))
	if err != nil {
		b.Fatal(err)
	}
	setAll(w, referee(dmsgs.GCInfoStatePlaying))
	w.Step(time.Second)
	var m dmsgs.MotionInfo
	var bi dmsgs.BehaviorInfo
	var v dmsgs.VisionInfo
	stamp := time.Unix(100, 0)
	b.ReportAllocs()
	for b.Loop() {
		w.Inputs(3, stamp, &m, &bi, &v)
	}
}
