package team

import (
	"testing"
	"time"
)

func TestBudgetDecide(t *testing.T) {
	hsl := BudgetPolicy{League: LeagueHSL, Reserve: 100}
	playing := BudgetInput{Known: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, Robots: 5}

	// 12 000 messages, 100 reserved, 1 200 s left, 5 robots: 11 900/1 200/5 = 1.983 msg/s.
	in := playing
	in.Remaining = 12000
	v := hsl.Decide(in)
	if v.Silent {
		t.Fatalf("silent: %+v", v)
	}
	want := durationOf(11900.0 / 1200.0 / 5.0)
	if !near(v.MinInterval, want) {
		t.Fatalf("min interval %v want %v", v.MinInterval, want)
	}

	// Second half: only the half's remaining time counts.
	in.FirstHalf = false
	in.SecsRemaining = 300
	in.Remaining = 1100
	v = hsl.Decide(in)
	if want := durationOf(1000.0 / 300.0 / 5.0); !near(v.MinInterval, want) {
		t.Fatalf("second half: %v want %v", v.MinInterval, want)
	}

	if v.Cause != BudgetAllowance || v.Reason() != "allowance 0.67 msg/s per robot (1100 left, reserve 100)" {
		t.Fatalf("reason %q", v.Reason())
	}

	// At the reserve: silent.
	in.Remaining = 100
	if v := hsl.Decide(in); !v.Silent || v.Cause != BudgetReserve || v.Reason() != "budget at reserve (100 left, reserve 100)" {
		t.Fatalf("at reserve not silent: %+v", v)
	}

	// Nothing left: exhausted.
	in.Remaining = 0
	if v := hsl.Decide(in); !v.Silent || v.Cause != BudgetReserve ||
		v.Reason() != "budget exhausted (0 left, reserve 100): a counted message now would be illegal communication" {
		t.Fatalf("exhausted: %+v %q", v, v.Reason())
	}

	// Penalised: silent whatever the budget.
	in.Remaining = 12000
	in.Penalised = true
	if v := hsl.Decide(in); !v.Silent || v.Cause != BudgetPenalised || v.Reason() != "penalised" {
		t.Fatalf("penalised: %+v", v)
	}

	// Uncounted state: free above the reserve (TestBudgetUncountedAtReserve), unless
	// configured silent.
	in = playing
	in.State = StateInitial
	in.Remaining = 101
	if v := hsl.Decide(in); v.Silent || v.MinInterval != 0 || v.Cause != BudgetUncounted {
		t.Fatalf("initial: %+v", v)
	}
	hsl.SilentUncounted = true
	if v := hsl.Decide(in); !v.Silent || v.Cause != BudgetUncountedSilent {
		t.Fatalf("initial, silent configured: %+v", v)
	}

	// Unknown budget: no bound.
	in = playing
	in.Known = false
	if v := hsl.Decide(in); v.Silent || v.MinInterval != 0 || v.Reason() != "no budget known" {
		t.Fatalf("unknown: %+v", v)
	}

	// Zero time left and zero robots do not divide by zero.
	in = playing
	in.FirstHalf, in.SecsRemaining, in.Robots, in.Remaining = false, 0, 0, 101
	if v := hsl.Decide(in); v.Silent || v.MinInterval != time.Second {
		t.Fatalf("edge: %+v", v)
	}
}

// TestBudgetExtraTime: in the first half of extra time the budget must last both halves
// of extra time (the HSL GameController's extraHalfDuration, 300 s), as in the first
// regular half it lasts both regular halves.
func TestBudgetExtraTime(t *testing.T) {
	hsl := BudgetPolicy{League: LeagueHSL, Reserve: 100}
	in := BudgetInput{Known: true, Remaining: 6100, State: StatePlaying, Phase: PhaseOvertime, FirstHalf: true,
		SecsRemaining: 300, Robots: 5}
	// 6 000 usable messages, 600 s of extra time left, 5 robots: 2 msg/s per robot.
	if v := hsl.Decide(in); !near(v.MinInterval, durationOf(6000.0/600.0/5.0)) {
		t.Fatalf("first half of extra time: %v (%.2f msg/s per robot), want %v", v.MinInterval, v.PerRobot, durationOf(2))
	}
	in.FirstHalf, in.Remaining, in.SecsRemaining = false, 3100, 300
	if v := hsl.Decide(in); !near(v.MinInterval, durationOf(3000.0/300.0/5.0)) {
		t.Fatalf("second half of extra time: %v, want %v", v.MinInterval, durationOf(2))
	}
}

func TestBudgetTracker(t *testing.T) {
	var b BudgetTracker
	b.Spend(3)
	if _, ok := b.Remaining(); ok {
		t.Fatal("known before any GameController packet")
	}
	b.FromGameController(10)
	b.Spend(3)
	if r, ok := b.Remaining(); !ok || r != 7 {
		t.Fatalf("remaining %d %v", r, ok)
	}
	b.Spend(20)
	if r, _ := b.Remaining(); r != 0 {
		t.Fatalf("went below zero: %d", r)
	}
	b.FromGameController(5) // falling, so one packet late: the 23 messages came after it
	if r, _ := b.Remaining(); r != 0 {
		t.Fatalf("late figure: %d", r)
	}
	b.FromGameController(8) // growing: taken as it is
	if r, _ := b.Remaining(); r != 8 {
		t.Fatalf("reset: %d", r)
	}
	b.Forget()
	if _, ok := b.Remaining(); ok {
		t.Fatal("known after Forget")
	}
}

// durationOf returns the interval of a rate in messages per second, computed at run time
// the way Decide does.
func durationOf(perSecond float64) time.Duration {
	return time.Duration(float64(time.Second) / perSecond)
}

func near(a, b time.Duration) bool { d := a - b; return d > -time.Microsecond && d < time.Microsecond }

// TestBudgetReserveCoversTeammates: every robot decides on the same figure before it hears
// the others' messages, so with a reserve smaller than the team (0 here) the last few
// messages must stay silent: 3 robots that all heard "2 left" would send 3, and the GameController
// takes the third at 0 as illegal communication. One robot alone may spend the last one.
func TestBudgetReserveCoversTeammates(t *testing.T) {
	p := BudgetPolicy{League: LeagueHSL, Reserve: 0}
	in := BudgetInput{Known: true, State: StatePlaying, SecsRemaining: 60, Robots: 3}
	for _, c := range []struct {
		remaining, robots int
		silent            bool
	}{
		{2, 3, true}, {3, 3, false}, {1, 2, true}, {2, 2, false}, {1, 1, false}, {0, 1, true},
	} {
		in.Remaining, in.Robots = c.remaining, c.robots
		if v := p.Decide(in); v.Silent != c.silent {
			t.Errorf("%d left, %d robots, reserve 0: silent %v, want %v (%s)", c.remaining, c.robots, v.Silent, c.silent, v.Reason())
		}
	}
	// A reserve at least the team's size is the bound, as before.
	p.Reserve = 100
	in.Remaining, in.Robots = 101, 5
	if v := p.Decide(in); v.Silent {
		t.Fatalf("101 left, reserve 100: silent (%s)", v.Reason())
	}
}

// TestBudgetTrackerLateFigure: the GameController component publishes a falling budget one
// packet late (gamecontroller steadyBudgets keeps the larger of two packets in a row), so
// a new figure does not yet include the team's messages since the last figure. Taking it
// as it is forgot them and let the team spend past its reserve.
func TestBudgetTrackerLateFigure(t *testing.T) {
	var b BudgetTracker
	b.FromGameController(200) // the budget a packet before: 20 messages since it are already counted
	b.Spend(60)               // the team's messages until the next figure
	b.FromGameController(180) // 200-20: the budget when 200 arrived; 60 more went since
	if r, _ := b.Remaining(); r != 120 {
		t.Fatalf("late figure 180 after 60 messages: estimate %d, want 120", r)
	}
	b.Spend(10)
	b.FromGameController(120)
	if r, _ := b.Remaining(); r != 110 {
		t.Fatalf("late figure 120 after 10 messages: estimate %d, want 110", r)
	}
	// The same figure again (a GameController that did not count the messages, or one
	// packet late) wins over the count: only the messages since the last packet are
	// subtracted, so a count the GameController does not share never adds up.
	b.Spend(7)
	b.FromGameController(120)
	if r, _ := b.Remaining(); r != 113 {
		t.Fatalf("same figure 120 after 7 messages: estimate %d, want 113", r)
	}
	b.Spend(4)
	b.FromGameController(120)
	if r, _ := b.Remaining(); r != 116 {
		t.Fatalf("same figure 120 after 4 more messages: estimate %d, want 116", r)
	}
	// A figure that grows (additional minutes, extra time, a new half) is the packet's own.
	b.Spend(5)
	b.FromGameController(710)
	if r, _ := b.Remaining(); r != 710 {
		t.Fatalf("grown figure 710: estimate %d", r)
	}
}

// TestBudgetUncountedAtReserve: the GameController moves from a state that does not count
// into one that does (INITIAL to READY or STANDBY, the end of a timeout) up to one of its
// packets before the robots hear it, and counts what they send in between. A team at its
// reserve (or at 0) stays silent in those states too; in the penalty shoot-out, which no
// counted state follows, and above the reserve it talks for free as before.
func TestBudgetUncountedAtReserve(t *testing.T) {
	hsl := BudgetPolicy{League: LeagueHSL, Reserve: 100}
	in := BudgetInput{Known: true, State: StateInitial, SecsRemaining: 600, Robots: 5}
	for _, c := range []struct {
		state, phase uint8
		remaining    int
		silent       bool
	}{
		{StateInitial, PhaseNormal, 0, true},
		{StateInitial, PhaseNormal, 100, true},
		{StateInitial, PhaseTimeout, 50, true},
		{StateInitial, PhaseNormal, 101, false},
		{StateSet, PhasePenaltyShoot, 0, false},
	} {
		in.State, in.Phase, in.Remaining = c.state, c.phase, c.remaining
		if v := hsl.Decide(in); v.Silent != c.silent {
			t.Errorf("state %d phase %d, %d left: silent %v, want %v (%s)", c.state, c.phase, c.remaining, v.Silent, c.silent, v.Reason())
		}
	}
	in.State, in.Phase, in.Remaining, in.Known = StateInitial, PhaseNormal, 0, false
	if v := hsl.Decide(in); v.Silent {
		t.Errorf("no budget known: silent (%s)", v.Reason())
	}
}

// TestBudgetFigureHeldByGameController: a GameController counts only the datagrams it
// receives on the team port. Messages it never sees (unicast to the peers, another network,
// lost on the air) leave its figure where it is, and it keeps sending that figure in every
// packet. The robot counts every teammate's message and its own on top of the figure; the
// figure must win whenever a packet brings it, so the estimate never runs down to the
// reserve while the GameController says 1 200 messages are left.
func TestBudgetFigureHeldByGameController(t *testing.T) {
	cfg := testConfig()
	cfg.League = LeagueSPL // 1 200 messages, reserve 30
	h := newTimedHarness(t, cfg, harnessStart)
	const figure = 1200
	packet := func() { // a GameController packet: the same figure again
		h.game.set(func(s *GameSnapshot) {
			*s = GameSnapshot{Connected: true, State: StatePlaying, SecsRemaining: 600, MessageBudget: figure}
		})
		h.expect(eventPlan)
	}
	mates := []uint8{3, 4, 5, 6, 7}
	packet()
	for _, p := range mates {
		h.introduce(17, p, 1, stampAt(h.clk.Now()), nil)
	}
	// 150 s of play, a GameController packet every 500 ms, every teammate sending at 2 Hz:
	// 1 500 messages the robot counts and the GameController does not.
	var seq uint32 = 1
	var sentLate uint64
	for i := range 300 {
		packet()
		for _, p := range mates {
			h.deliver(dnetFrom(t, 17, p, seq, stampAt(h.clk.Now()), nil))
		}
		seq++
		if i == 240 {
			sentLate = h.c.Status().Send.Sent
		}
		h.advanceTimed(500 * time.Millisecond)
	}
	st := h.checkInvariants()
	counted := st.Receive.Accepted + st.Send.Sent
	if counted < figure {
		t.Fatalf("only %d messages counted: the test needs more than the budget", counted)
	}
	// One packet's interval of messages (5 teammates, maybe one of ours) is all the
	// estimate may hold back below the GameController's figure, twice with the late rule.
	if st.BudgetLeft < figure-2*(len(mates)+1) || st.Send.SilentBudget != 0 {
		t.Fatalf("GameController says %d left, %d messages counted: estimate %d, %d ticks silent (%s)",
			figure, counted, st.BudgetLeft, st.Send.SilentBudget, st.Budget.Reason())
	}
	if st.Send.Sent == sentLate {
		t.Fatalf("sent nothing in the last 30 s (%d in all)", st.Send.Sent)
	}
}

// advanceTimed advances a timed harness's clock by d, one tick at a time, and waits for
// every tick its timer fires on the way (as twin.step does).
func (h *harness) advanceTimed(d time.Duration) {
	h.t.Helper()
	end := h.clk.Now().Add(d)
	for h.clk.Now().Before(end) {
		h.c.mu.Lock()
		wake := h.c.st.origin.Add(time.Duration(h.c.st.wakeK) * h.c.cfg.Tick)
		h.c.mu.Unlock()
		h.clk.Advance(min(h.c.cfg.Tick, end.Sub(h.clk.Now())))
		if !h.clk.Now().Before(wake) {
			h.expect(eventTick)
		}
	}
}
