package team

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
)

// funcClock is a manual clock whose timer calls a function (clock.FuncTimerClock); the
// test fires it itself.
type funcClock struct {
	*clock.Manual
	mu sync.Mutex
	fn func(time.Time)
	at time.Time // the instant the timer is armed for
}

func (f *funcClock) NewTimerFunc(fn func(time.Time)) clock.Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fn = fn
	return funcTimer{f}
}

func (f *funcClock) armed() (func(time.Time), time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fn, f.at
}

type funcTimer struct{ f *funcClock }

func (t funcTimer) C() <-chan time.Time { return nil }
func (t funcTimer) Reset(at time.Time) {
	t.f.mu.Lock()
	t.f.at = at
	t.f.mu.Unlock()
}
func (t funcTimer) Stop() {}

// TestOnTimer: with a clock whose timers call a function, a timed Run takes its ticks
// in that function: a firing at the armed instant ticks (our packet is sent), one
// before it (a firing that raced with a Reset to later) and one after Run returned
// are dropped.
func TestOnTimer(t *testing.T) {
	clk := &funcClock{Manual: clock.NewManual(harnessStart)}
	conn := bus.NewFakeConn(8)
	c, err := New(testConfig(), Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.TeamInfo]{}, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan event, 64)
	c.hook = func(e event) { events <- e }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer cancel()
	if e := <-events; e != eventReady {
		t.Fatalf("first event %v, want ready", e)
	}
	fire, at := clk.armed()
	if fire == nil || !at.After(harnessStart) {
		t.Fatalf("timer made with NewTimerFunc armed for %v (start %v)", at, harnessStart)
	}
	ticked := func() bool {
		select {
		case e := <-events:
			if e != eventTick {
				t.Fatalf("event %v, want a tick", e)
			}
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}

	early := at.Add(-time.Millisecond)
	clk.Set(early)
	fire(early)
	if ticked() || len(conn.Sent()) != 0 {
		t.Fatalf("a firing before the armed instant ticked (sent %d)", len(conn.Sent()))
	}
	clk.Set(at)
	fire(at)
	if !ticked() || len(conn.Sent()) != 1 {
		t.Fatalf("the firing at the armed instant: sent %d, want 1", len(conn.Sent()))
	}
	st := c.Status().Send
	if st.Ticks == 0 || st.Ticks != st.Decisions() || st.Sent != 1 {
		t.Fatalf("send counters %+v", st)
	}
	_, next := clk.armed()
	if !next.After(at) {
		t.Fatalf("re-armed for %v, not after %v", next, at)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	clk.Set(next)
	fire(next)
	if ticked() || len(conn.Sent()) != 1 {
		t.Fatalf("a firing after Run returned ticked (sent %d)", len(conn.Sent()))
	}
}
