package team

import (
	"net/netip"
	"testing"
	"time"
)

// startTwin drives a ticking and a timed component with Config.GCWait set to wait and
// a monitor, both started at harnessStart without a GameController.
func startTwin(t *testing.T, wait time.Duration) (*twin, Config) {
	t.Helper()
	cfg := testConfig()
	cfg.GCWait = wait
	cfg.Monitor = netip.MustParseAddrPort("10.0.0.50:3838")
	w := &twin{ticked: newHarness(t, cfg, harnessStart, nil), timed: newTimedHarness(t, cfg, harnessStart), tick: cfg.Tick}
	return w, cfg
}

// checkHeld checks that neither component has sent a team packet and that every tick
// so far is counted as silent-start, while the monitor copies went.
func checkHeld(t *testing.T, w *twin, when string, ticks uint64) {
	t.Helper()
	w.compare(when)
	for _, h := range []*harness{w.ticked, w.timed} {
		st := h.checkInvariants()
		if n := len(h.broadcasts()); n != 0 || st.Send.SilentStart != ticks || st.Send.Ticks != ticks ||
			st.LastDecision != DecisionSilentStart || !st.LastSend.IsZero() {
			t.Fatalf("%s: %d packets, counters %+v, last %v", when, n, st.Send, st.LastDecision)
		}
		if st.Send.MonitorSent == 0 {
			t.Fatalf("%s: no monitor copy while held", when)
		}
	}
}

// TestStartHeldUntilGameController: after start the team packets wait for the
// GameController; its first packet lets them go on the next tick, and losing it later
// does not hold them again.
func TestStartHeldUntilGameController(t *testing.T) {
	w, _ := startTwin(t, DefaultGCWait)
	w.ticks(30) // 1 s < 1.2 s
	checkHeld(t, w, "before the GameController", 30)

	w.game(func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 1000}
	})
	w.ticks(1)
	for _, h := range []*harness{w.ticked, w.timed} {
		if st := h.c.Status(); len(h.broadcasts()) != 1 || st.LastDecision != DecisionSent || st.BudgetLeft != 999 {
			t.Fatalf("after the GameController: %d packets, last %v, budget %d", len(h.broadcasts()), st.LastDecision, st.BudgetLeft)
		}
	}
	w.ticks(1) // the ticking status shows the verdict of the spent budget from the next tick
	w.compare("GameController heard")

	// Lost: the robot keeps playing, at the allowance's interval (1.33 s).
	w.game(func(s *GameSnapshot) { s.Connected = false })
	w.ticks(90)
	w.compare("GameController lost")
	for _, h := range []*harness{w.ticked, w.timed} {
		if st := h.c.Status(); st.Send.SilentStart != 30 || len(h.broadcasts()) < 3 {
			t.Fatalf("after losing the GameController: %d packets, counters %+v", len(h.broadcasts()), st.Send)
		}
	}
}

// TestStartHeldAtBudgetZero: a robot rebooted during a game whose team has spent its
// budget sends no team packet at all: held until the GameController's first packet,
// then silent for the budget.
func TestStartHeldAtBudgetZero(t *testing.T) {
	w, _ := startTwin(t, DefaultGCWait)
	w.ticks(15) // the GameController's next packet comes within its period
	checkHeld(t, w, "before the GameController", 15)
	w.game(func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: false, SecsRemaining: 300, MessageBudget: 0}
	})
	w.ticks(90)
	w.compare("budget 0")
	for _, h := range []*harness{w.ticked, w.timed} {
		st := h.checkInvariants()
		if len(h.broadcasts()) != 0 || st.Send.SilentStart != 15 || st.Send.SilentBudget != 90 || st.LastDecision != DecisionSilentBudget {
			t.Fatalf("budget 0: %d packets, counters %+v, last %v", len(h.broadcasts()), st.Send, st.LastDecision)
		}
	}
}

// TestStartWaitOver: without a GameController the robot talks as before once the wait
// has passed: its first packet on the first tick at or after GCWait.
func TestStartWaitOver(t *testing.T) {
	w, cfg := startTwin(t, DefaultGCWait)
	first := int((cfg.GCWait + cfg.Tick - 1) / cfg.Tick) // the first tick not before the wait's end
	w.ticks(first - 1)
	checkHeld(t, w, "during the wait", uint64(first-1))
	w.ticks(1)
	w.compare("wait over")
	for _, h := range []*harness{w.ticked, w.timed} {
		st := h.checkInvariants()
		if len(h.broadcasts()) != 1 || st.LastDecision != DecisionSent || !st.LastSend.Equal(harnessStart.Add(time.Duration(first)*cfg.Tick)) {
			t.Fatalf("wait over: %d packets, last %v at %v", len(h.broadcasts()), st.LastDecision, st.LastSend)
		}
	}
	w.ticks(60) // blind, alone: the rate row as without the wait
	w.compare("after the wait")
	if st := w.ticked.c.Status(); st.Send.SilentStart != uint64(first-1) || st.Send.Sent != 3 {
		t.Fatalf("after the wait: counters %+v", st.Send)
	}
}

// TestStartWaitOff: GCWait 0 sends on the first tick, as before the wait existed.
func TestStartWaitOff(t *testing.T) {
	w, _ := startTwin(t, 0)
	w.ticks(1)
	w.compare("first tick")
	for _, h := range []*harness{w.ticked, w.timed} {
		if st := h.checkInvariants(); len(h.broadcasts()) != 1 || st.Send.SilentStart != 0 || st.LastDecision != DecisionSent {
			t.Fatalf("off: %d packets, counters %+v", len(h.broadcasts()), st.Send)
		}
	}
}

// TestGCWaitValidate: the wait is 0 (off) up to MaxGCWait.
func TestGCWaitValidate(t *testing.T) {
	for _, c := range []struct {
		wait time.Duration
		ok   bool
	}{{0, true}, {DefaultGCWait, true}, {MaxGCWait, true}, {-time.Millisecond, false}, {MaxGCWait + time.Second, false}} {
		cfg := testConfig()
		cfg.GCWait = c.wait
		if err := cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("GCWait %v: %v", c.wait, err)
		}
	}
	if DefaultConfig().GCWait != DefaultGCWait {
		t.Errorf("default wait %v", DefaultConfig().GCWait)
	}
}

// TestStartWaitAfterClockWentBack: a clock that goes back during the wait (a
// simulation reset soon after start) ends the wait GCWait after the reset, not when the
// clock has caught up with the start again; ticking or timed.
func TestStartWaitAfterClockWentBack(t *testing.T) {
	runBoth(t, func(t *testing.T, timed bool) {
		cfg := testConfig()
		cfg.GCWait = DefaultGCWait
		var h *harness
		if timed {
			h = newTimedHarness(t, cfg, harnessStart)
		} else {
			h = newHarness(t, cfg, harnessStart, nil)
		}
		step := func() { h.stepTick(timed) }
		for range 10 {
			step()
		}
		h.clk.Set(h.clk.Now().Add(-time.Minute)) // a simulation reset
		if timed {
			h.expect(eventTick) // the manual clock fires its timers when it goes back
		}
		for range int(cfg.GCWait/cfg.Tick) + 2 {
			step()
		}
		if st := h.checkInvariants(); len(h.broadcasts()) == 0 || st.LastDecision == DecisionSilentStart {
			t.Fatalf("%v after the clock went back 1 min: %d packets, last %v, counters %+v",
				cfg.GCWait, len(h.broadcasts()), st.LastDecision, st.Send)
		}
	})
}
