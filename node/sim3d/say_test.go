package sim3d

import (
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

func vec(x, y, z float64) geometry_msgs.Vector3 { return geometry_msgs.Vector3{X: x, Y: y, Z: z} }

func encode(t *testing.T, key string, s sim3dproto.TeamState) string {
	t.Helper()
	b, err := sim3dproto.NewTeamCodec(key).Append(nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSayIsCodecEncoding drives the ticker and checks that the message said in the
// player's slot is the codec's encoding of the inputs, with the ball age counted from the
// last VisionInfo that saw the ball.
func TestSayIsCodecEncoding(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.Player, c.TeamSize = 2, 3 })
	r.team.SetMotion(&dmsgs.MotionInfo{Stable: false})
	r.team.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: dmsgs.BehaviorInfoRoleDefender,
		TeamPlayState: dmsgs.BehaviorInfoStatePlacing})
	r.team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(-312.4, 150.6, -45), SeeBall: true,
		BallGlobal: vec(420, -180, 0)})
	ballAt := r.clk.Now()
	r.run()

	slot := Slot{Player: 2, TeamSize: 3, Cycles: MinSlotCycles}
	wantCycles := []int64{slot.Next(50000), slot.Next(slot.Next(50000))}
	if wantCycles[0] != 50006 { // 50000 mod 6 = 2: player 2's slot starts the run
		t.Fatalf("first slot %d, want 50006", wantCycles[0])
	}
	var got []string
	for c := int64(50001); c <= wantCycles[1]; c++ {
		if c == 50005 { // the robot stands up, walks on and loses the ball
			r.team.SetMotion(&dmsgs.MotionInfo{Stable: true})
			r.team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(-300, 140, 30)})
		}
		st := r.tick()
		if st.LastCycle != c {
			t.Fatalf("evaluated cycle %d, want %d", st.LastCycle, c)
		}
		if n := r.says.Len(); n > len(got) {
			if c != wantCycles[len(got)] {
				t.Fatalf("said in cycle %d, want %d", c, wantCycles[len(got)])
			}
			m, _ := r.says.Last()
			got = append(got, m.Message)
		}
	}
	if len(got) != 2 {
		t.Fatalf("said %d messages, want 2", len(got))
	}
	cycleTime := func(c int64) time.Time { return time.Unix(0, 0).Add(time.Duration(c) * cycle) }
	want := []string{
		encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: 1, Role: 2, State: 3,
			X: -3, Y: 1.4, Heading: 30,
			BallKnown: true, BallX: 4.2, BallY: -1.8, BallAge: cycleTime(50006).Sub(ballAt)}),
		encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: 2, Role: 2, State: 3,
			X: -3, Y: 1.4, Heading: 30,
			BallKnown: true, BallX: 4.2, BallY: -1.8, BallAge: cycleTime(50012).Sub(ballAt)}),
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("say %d: got %q, want %q", i, got[i], want[i])
		}
		if err := sim3dproto.ValidateSaySafe(got[i]); err != nil {
			t.Errorf("say %d %q: %v", i, got[i], err)
		}
	}
	// Fallen before the robot stood up: the first say of the same slot with the old
	// inputs would have differed, so check the decoded values too.
	var s sim3dproto.TeamState
	if err := sim3dproto.NewTeamCodec("TeamX").Decode([]byte(got[0]), &s); err != nil {
		t.Fatal(err)
	}
	if s.Fallen || s.BallAge != 100*time.Millisecond || math.Abs(s.X+3) > 1e-9 {
		t.Errorf("decoded %+v: want standing, ball age 100 ms (120 ms rounded), x -3", s)
	}
	st := r.team.Status()
	if st.Said != 2 || st.Seq != 2 || !st.HasSaid || st.LastSaidCycle != 50012 || st.Source != SourceClock {
		t.Errorf("status %+v", st)
	}
	checkInvariants(t, st)
}

// TestSayInputsAbsentAndForgotten checks the say of a robot without any input yet and one whose
// ball is forgotten.
func TestSayInputsAbsentAndForgotten(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize, c.BallForget = 1, 200*time.Millisecond })
	r.team.SetServerTime(10) // cycle 500: due
	want := encode(t, "TeamX", sim3dproto.TeamState{Player: 1, Seq: 1})
	if m, _ := r.says.Last(); m.Message != want {
		t.Fatalf("say without inputs: got %q, want %q", m.Message, want)
	}
	r.team.SetVision(&dmsgs.VisionInfo{SeeBall: true, BallGlobal: vec(100, 200, 0)})
	r.team.SetVision(&dmsgs.VisionInfo{}) // ball out of sight
	for i, tc := range []struct {
		after time.Duration
		known bool
	}{{100 * time.Millisecond, true}, {200 * time.Millisecond, true}, {220 * time.Millisecond, false}} {
		r.clk.Set(start.Add(tc.after))
		r.team.SetServerTime(10 + float64(2*(i+1))*0.02)
		m, _ := r.says.Last()
		var s sim3dproto.TeamState
		if err := sim3dproto.NewTeamCodec("TeamX").Decode([]byte(m.Message), &s); err != nil {
			t.Fatal(err)
		}
		if s.BallKnown != tc.known || tc.known && (s.BallAge != tc.after || math.Abs(s.BallX-1) > 1e-9 || math.Abs(s.BallY-2) > 1e-9) {
			t.Errorf("%v after the ball was seen: decoded %+v, want known=%v", tc.after, s, tc.known)
		}
	}
	if st := r.team.Status(); st.Said != 4 {
		t.Errorf("said %d, want 4", st.Said)
	}
}

// tickModel mirrors clock.Manual's ticker: it fires when the clock reaches the next tick
// and then keeps its phase.
type tickModel struct {
	next   time.Time
	period time.Duration
}

func (m *tickModel) fires(now time.Time) bool {
	if now.Before(m.next) {
		return false
	}
	missed := now.Sub(m.next) / m.period
	m.next = m.next.Add((missed + 1) * m.period)
	return true
}

// TestAtMostOneSayPerTwoCycles lets a one-player team (a slot every second cycle) run on
// ticks at random, irregular times: every say lies in a due cycle, two says are at least
// two cycles apart, and every due cycle is either said or counted as missed.
func TestAtMostOneSayPerTwoCycles(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	r.run()
	ticks := tickModel{next: start.Add(cycle), period: cycle}
	rng := rand.New(rand.NewPCG(1, 2))
	var said []int64
	var first, last int64
	evals := uint64(0)
	for range 600 {
		r.clk.Advance(time.Duration(1+rng.IntN(50)) * time.Millisecond)
		if !ticks.fires(r.clk.Now()) {
			continue
		}
		evals++
		r.waitEval(evals)
		st := r.team.Status()
		if evals == 1 {
			first = st.LastCycle
		}
		last = st.LastCycle
		if st.Said > uint64(len(said)) {
			said = append(said, st.LastSaidCycle)
		}
	}
	slot := Slot{Player: 1, TeamSize: 1, Cycles: MinSlotCycles}
	for i, c := range said {
		if !slot.Due(c) {
			t.Errorf("said in cycle %d, not a slot", c)
		}
		if i > 0 && c-said[i-1] < 2 {
			t.Errorf("says in cycles %d and %d", said[i-1], c)
		}
	}
	st := r.team.Status()
	due := slot.Between(first-1, last+1)
	if st.Said+st.SlotsMissed != due {
		t.Errorf("said %d + missed %d, want %d due cycles in %d..%d", st.Said, st.SlotsMissed, due, first, last)
	}
	if st.Said < 100 || st.SlotsMissed == 0 {
		t.Errorf("said %d, missed %d: the random ticks should give both", st.Said, st.SlotsMissed)
	}
	if st.Evaluations != evals {
		t.Errorf("evaluations %d, want %d", st.Evaluations, evals)
	}
	if n := r.logs.count(slog.LevelWarn, "own talking slot passed between two evaluations"); n < 1 || n > 2 {
		t.Errorf("%d missed-slot warnings in %v, want 1 or 2 (one per 10 s)", n, r.clk.Now().Sub(start))
	}
	checkInvariants(t, st)
}

// TestServerTimeSaysOncePerCycle feeds every server cycle three times: a one-player team
// says once in every even cycle and never twice in one.
func TestServerTimeSaysOncePerCycle(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	for c := range 100 {
		for range 3 {
			r.team.SetServerTime(float64(c) * 0.02)
			r.clk.Advance(time.Millisecond)
		}
		st := r.team.Status()
		if want := uint64(c/2 + 1); st.Said != want {
			t.Fatalf("after cycle %d: said %d, want %d", c, st.Said, want)
		}
	}
	st := r.team.Status()
	if st.Said != 50 || st.NotDue != 250 || st.SlotsMissed != 0 || st.Source != SourceServer || st.LastSaidCycle != 98 {
		t.Errorf("status %+v", st)
	}
	checkInvariants(t, st)
}

func TestServerTimeBase(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	r.team.SetServerTime(93.5999999) // rounds to cycle 4680
	if st := r.team.Status(); st.LastCycle != 4680 || st.Source != SourceServer || st.Said != 1 {
		t.Fatalf("status %+v", st)
	}
	r.run()
	st := r.tick() // 20 ms later the server time is still the base: same cycle, not due
	if st.Source != SourceServer || st.LastCycle != 4680 || st.Said != 1 || st.NotDue != 1 {
		t.Fatalf("tick with a fresh server time: %+v", st)
	}
	// Server time skips 4682 and 4684: two own slots missed.
	r.team.SetServerTime(93.70)
	if st := r.team.Status(); st.SlotsMissed != 2 || st.LastCycle != 4685 {
		t.Fatalf("after a skip: %+v", st)
	}
	// No server time for longer than the timeout: back to the clock.
	n := r.team.Status().Evaluations
	r.clk.Advance(time.Second + cycle)
	r.waitEval(n + 1)
	st = r.team.Status()
	if st.Source != SourceClock || st.Resyncs != 1 || st.LastCycle != start.Unix()*50+52 {
		t.Fatalf("after the timeout: %+v", st)
	}
	// Server time again, then a restarted simulation whose time goes backwards.
	r.team.SetServerTime(50)
	r.team.SetServerTime(10)
	st = r.team.Status()
	if st.Source != SourceServer || st.Resyncs != 3 || st.LastCycle != 500 || st.LastSaidCycle != 500 {
		t.Fatalf("after a restart: %+v", st)
	}
	// Bad server times are counted and ignored.
	for _, v := range []float64{math.NaN(), math.Inf(1), -0.02, 1e11} {
		r.team.SetServerTime(v)
	}
	st = r.team.Status()
	if st.BadServerTimes != 4 || st.LastCycle != 500 {
		t.Fatalf("after bad server times: %+v", st)
	}
	if r.logs.count(slog.LevelWarn, "ignoring a bad server time") != 1 {
		t.Errorf("bad server time warnings: want exactly 1")
	}
	checkInvariants(t, st)
}

func TestSayEncodeAndPublishErrors(t *testing.T) {
	fail := errors.New("writer gone")
	var failing bool
	says := &bus.Recorder[dmsgs.Sim3dSay]{}
	pub := bus.PublisherFunc[dmsgs.Sim3dSay](func(m *dmsgs.Sim3dSay) error {
		if failing {
			return fail
		}
		return says.Publish(m)
	})
	logs := &logRecorder{}
	c := DefaultConfig()
	c.Player, c.TeamSize, c.Key, c.Logger, c.SlotCycles = 1, 1, "TeamX", slog.New(logs), MinSlotCycles
	clk := clock.NewManual(start)
	team, err := New(c, clk, pub, &bus.Recorder[dmsgs.TeamInfo]{})
	if err != nil {
		t.Fatal(err)
	}
	server := 0.0
	next := func() { server += 0.04; team.SetServerTime(server) }

	team.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: 9})
	next()
	team.SetBehavior(&dmsgs.BehaviorInfo{TeamPlayState: 8})
	next()
	team.SetBehavior(&dmsgs.BehaviorInfo{})
	team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(math.NaN(), 0, 0)})
	next()
	if st := team.Status(); st.EncodeErrors != 3 || st.Said != 0 || st.Seq != 0 {
		t.Fatalf("after bad inputs: %+v", st)
	}
	if logs.count(slog.LevelWarn, "cannot encode the robot's state, slot skipped") != 1 {
		t.Error("want one rate-limited encode warning")
	}
	team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(10, 20, 0)})
	failing = true
	next() // reserved sequence number 1, lost
	failing = false
	next()
	st := team.Status()
	if st.SayPublishErrors != 1 || st.Said != 1 || st.Seq != 2 {
		t.Fatalf("after a publish error: %+v", st)
	}
	if m, _ := says.Last(); m.Message != encode(t, "TeamX", sim3dproto.TeamState{Player: 1, Seq: 2, X: 0.1, Y: 0.2}) {
		t.Errorf("say after the error: %q", m.Message)
	}
	checkInvariants(t, st)
}

// TestSlottingOverSimulatedTime runs five robots of a five-player team on one clock
// through their tickers: no two say in the same cycle pair, and each says once per
// ten cycles.
func TestSlottingOverSimulatedTime(t *testing.T) {
	const players, cycles = 5, 200
	clk := clock.NewManual(start)
	rigs := make([]*rig, players)
	for i := range rigs {
		rigs[i] = newRig(t, clk, func(c *Config) { c.Player, c.TeamSize = i+1, players })
		rigs[i].run()
	}
	pairs := map[int64]int{} // cycle/2 → speaker
	lastSaid := make([]int64, players)
	prevSaid := make([]uint64, players)
	for k := uint64(1); k <= cycles; k++ {
		clk.Advance(cycle)
		for _, r := range rigs {
			r.waitEval(k)
		}
		for i, r := range rigs {
			st := r.team.Status()
			if st.Said == prevSaid[i] {
				continue
			}
			prevSaid[i] = st.Said
			c := st.LastSaidCycle
			if c != st.LastCycle {
				t.Fatalf("player %d: said in cycle %d while evaluating %d", i+1, c, st.LastCycle)
			}
			if other, ok := pairs[c/2]; ok {
				t.Fatalf("players %d and %d both talk in cycle pair %d", other+1, i+1, c/2)
			}
			pairs[c/2] = i
			if lastSaid[i] != 0 && c-lastSaid[i] != 2*players {
				t.Errorf("player %d said in cycles %d and %d, want %d apart", i+1, lastSaid[i], c, 2*players)
			}
			lastSaid[i] = c
		}
	}
	for i, r := range rigs {
		st := r.team.Status()
		if st.Said != cycles/(2*players) || st.SlotsMissed != 0 || r.says.Len() != int(st.Said) {
			t.Errorf("player %d: said %d (recorded %d), missed %d, want %d and 0",
				i+1, st.Said, r.says.Len(), st.SlotsMissed, cycles/(2*players))
		}
		checkInvariants(t, st)
	}
	if len(pairs) != cycles/2 {
		t.Errorf("%d of %d cycle pairs used", len(pairs), cycles/2)
	}
}

// TestSayBallAfterClockWentBack: the clock goes back (a restarted simulation under
// use_sim_time) after the robot last saw the ball. The ball was seen at a time that now
// lies in the future; its age is unknown, so the ball is said as unknown, not as seen
// this instant at its old position (which teammates would read as see_ball).
func TestSayBallAfterClockWentBack(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	r.team.SetVision(&dmsgs.VisionInfo{SeeBall: true, BallGlobal: vec(100, 200, 0)})
	r.team.SetVision(&dmsgs.VisionInfo{}) // ball out of sight
	r.clk.Set(start.Add(-time.Minute))    // the simulation restarted
	r.team.SetVision(&dmsgs.VisionInfo{}) // vision runs on, the ball still not seen
	r.team.SetServerTime(10)              // cycle 500: due
	m, ok := r.says.Last()
	if !ok {
		t.Fatal("nothing said")
	}
	var s sim3dproto.TeamState
	if err := sim3dproto.NewTeamCodec("TeamX").Decode([]byte(m.Message), &s); err != nil {
		t.Fatal(err)
	}
	if s.BallKnown {
		t.Errorf("ball last seen a minute in the future said as known: %+v", s)
	}
}
