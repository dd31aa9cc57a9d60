package team

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// heldVision is a VisionInfo held back, as the node's reader ring holds it, until the
// component's input sync hands it over with the time it arrived.
type heldVision struct {
	mu    sync.Mutex
	m     *dmsgs.VisionInfo
	at    time.Time
	calls int
}

func (h *heldVision) hold(m *dmsgs.VisionInfo, at time.Time) {
	h.mu.Lock()
	h.m, h.at = m, at
	h.mu.Unlock()
}

// sync returns the hook for c: it hands the held VisionInfo over through SetVisionAt.
func (h *heldVision) sync(c *Component) func() {
	return func() {
		h.mu.Lock()
		m, at := h.m, h.at
		h.m = nil
		h.calls++
		h.mu.Unlock()
		if m != nil {
			c.SetVisionAt(m, at)
		}
	}
}

// TestInputSyncHandsOverBeforeReading holds VisionInfos back until the component asks
// for them: the packet of the tick that asks already carries the ball age from the
// arrival time, and Status reports that time as the last VisionInfo's.
func TestInputSyncHandsOverBeforeReading(t *testing.T) {
	held := &heldVision{}
	h := newHarness(t, testConfig(), harnessStart, func(c *Component) { c.SetInputSync(held.sync(c)) })
	last := func() teaminfo.State {
		t.Helper()
		b := h.broadcasts()
		if len(b) == 0 {
			t.Fatal("no packet sent")
		}
		var s teaminfo.State
		if _, err := teaminfo.DecodeDNet(b[len(b)-1], &s, nil); err != nil {
			t.Fatal(err)
		}
		return s
	}

	// Arrived 100 ms before Run started, handed over at the first tick, whose packet
	// (the first one is due at once) carries it.
	seen := harnessStart.Add(-100 * time.Millisecond)
	held.hold(&dmsgs.VisionInfo{SeeBall: true, BallField: v3(1000, 0, 0)}, seen)
	h.ticks(1)
	s := last()
	if want := (s.Stamp - stampAt(seen)).Seconds(); math.IsNaN(s.BallAge) || math.Abs(s.BallAge-want) > teaminfo.TolDuration {
		t.Fatalf("first packet's ball age %v, want %v (from the held VisionInfo's arrival)", s.BallAge, want)
	}
	if st := h.c.Status(); !st.LastVision.Equal(seen) {
		t.Fatalf("LastVision %v, want the arrival time %v", st.LastVision, seen)
	}

	// Held while the component sleeps between ticks; Status hands it over itself.
	h.ticks(3)
	seen2 := h.clk.Now().Add(-10 * time.Millisecond)
	held.hold(&dmsgs.VisionInfo{SeeBall: true, BallField: v3(1000, 0, 0)}, seen2)
	if st := h.c.Status(); !st.LastVision.Equal(seen2) {
		t.Fatalf("LastVision %v, want %v handed over by Status", st.LastVision, seen2)
	}
	h.ticks(12) // far ball: the next packet within 12 ticks
	s = last()
	if want := (s.Stamp - stampAt(seen2)).Seconds(); want <= 0 || math.IsNaN(s.BallAge) || math.Abs(s.BallAge-want) > teaminfo.TolDuration {
		t.Fatalf("ball age %v, want %v (from the second VisionInfo's arrival)", s.BallAge, want)
	}
	if n := len(h.broadcasts()); n != 2 {
		t.Fatalf("%d packets, want 2 (the first tick's and the far-ball rate's)", n)
	}
	held.mu.Lock()
	calls := held.calls
	held.mu.Unlock()
	if calls < 16+2 {
		t.Fatalf("input sync called %d times, want at least once per tick and per Status (18)", calls)
	}
}

// TestInputSyncWithoutLock runs every read path of a ticking and a timed component with
// a hook that calls a setter, which takes the component's lock: a hook called under the
// lock would deadlock.
func TestInputSyncWithoutLock(t *testing.T) {
	for _, timed := range []bool{false, true} {
		g := &fakeGame{s: NoGame}
		var view GameView = g
		if timed {
			g.changed = make(chan struct{}, 1)
			view = notifyingGame{g}
		}
		var calls atomic.Int64
		prepare := func(c *Component) {
			c.SetInputSync(func() {
				calls.Add(1)
				c.SetMotionAt(&dmsgs.MotionInfo{Stable: true}, c.clk.Now())
			})
		}
		h := startHarness(t, testConfig(), harnessStart, prepare, g, view) // Run's first plan reads
		if n := calls.Load(); timed && n != 0 {
			// A plan reads only the rate key, which a held-back input never changes.
			t.Fatalf("timed: hook called %d times by Run's first plan, want 0", n)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.c.Status()
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("timed %v: Status deadlocked with a hook that calls a setter", timed)
		}
		if timed {
			h.clk.Advance(h.c.cfg.Tick) // the first packet is due on the first tick
			h.expect(eventTick)
		} else {
			h.ticks(3)
		}
		if len(h.broadcasts()) == 0 {
			t.Fatalf("timed %v: no packet", timed)
		}
		// Status and the tick's read (timed), Status and three ticks' reads (ticking).
		if n, want := calls.Load(), map[bool]int64{true: 2, false: 4}[timed]; n < want {
			t.Fatalf("timed %v: hook called %d times, want at least %d (Status and the ticks' reads)", timed, n, want)
		}
	}
}
