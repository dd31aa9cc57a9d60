package idletick

import (
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// earlyRun steps a NewEarly Ticker of period p on a manual clock for d in 10 ms steps,
// calling Early at every event and Ticked at every tick delivered, and returns when
// each tick happened and whether the timer delivered it. It checks what Ticked
// returns: the grid instant for a tick that waited past it, else the tick's time.
func earlyRun(t *testing.T, p, d time.Duration, event func(now time.Time) bool) (at []time.Time, timer []bool) {
	t.Helper()
	clk := clock.NewManual(time.Unix(1000, 0))
	tk := NewEarly(clk, p)
	defer tk.Stop()
	for range d / (10 * time.Millisecond) {
		clk.Advance(10 * time.Millisecond)
		now := clk.Now()
		select {
		case <-tk.C():
			want := now
			if g := now.Truncate(p); now.Sub(g) == p/2 && p/2 > 10*time.Millisecond {
				want = g // waited half a period for an event
			}
			if got := tk.Ticked(now); !got.Equal(want) {
				t.Fatalf("tick at %v stands for %v, want %v", now.UnixMilli(), got.UnixMilli(), want.UnixMilli())
			}
			at, timer = append(at, now), append(timer, true)
		default:
		}
		if event(now) && tk.Early(now) {
			at, timer = append(at, now), append(timer, false)
		}
	}
	return at, timer
}

// checkGrid checks that the ticks at fall one per grid instant of period p, each
// within half a period of its instant, and never closer than half a period.
func checkGrid(t *testing.T, p time.Duration, at []time.Time) {
	t.Helper()
	for i, a := range at {
		g := at[0].Add(p / 2).Truncate(p).Add(time.Duration(i) * p)
		if d := a.Sub(g); d < -p/2 || d > p/2 {
			t.Fatalf("tick %d at %v is %v from its grid instant %v", i, a.UnixMilli(), d, g.UnixMilli())
		}
		if i > 0 && a.Sub(at[i-1]) < p/2 {
			t.Fatalf("ticks %d and %d only %v apart", i-1, i, a.Sub(at[i-1]))
		}
	}
}

// TestEarlyEventsTakeTicks: events at the ticks' rate, whatever their phase, take
// every tick after at most one from the timer, and the ticks stay one per grid
// instant; events five times faster take them too without adding any.
func TestEarlyEventsTakeTicks(t *testing.T) {
	const p = 500 * time.Millisecond
	for _, every := range []time.Duration{p, p / 5} {
		for phase := time.Duration(0); phase < every; phase += every / 5 {
			t.Run(fmt.Sprint(every, "+", phase), func(t *testing.T) {
				at, timer := earlyRun(t, p, 20*time.Second, func(now time.Time) bool {
					return (now.UnixNano()-int64(phase))%int64(every) == 0
				})
				checkGrid(t, p, at)
				if n := len(at); n < 39 || n > 40 {
					t.Fatalf("%d ticks in 20 s, want 39 or 40", n)
				}
				byTimer := 0
				for i, tm := range timer {
					if tm && i > 1 {
						byTimer++
					}
				}
				if byTimer > 0 {
					t.Errorf("%d ticks after the first two came by the timer, want 0 (%v)", byTimer, timer)
				}
			})
		}
	}
}

// TestEarlyWithoutEvents: without events the timer ticks on the grid; after events stop
// the next two ticks wait half a period for one, and the rest are on the grid again.
func TestEarlyWithoutEvents(t *testing.T) {
	const p = time.Second
	at, timer := earlyRun(t, p, 10*time.Second, func(time.Time) bool { return false })
	checkGrid(t, p, at)
	for i, a := range at {
		if !timer[i] || a.Sub(a.Truncate(p)) != 0 {
			t.Fatalf("tick %d at %v (timer %v), want on a whole second by the timer", i, a.UnixMilli(), timer[i])
		}
	}
	if len(at) != 10 {
		t.Fatalf("%d ticks in 10 s, want 10", len(at))
	}

	stop := time.Unix(1005, 300*int64(time.Millisecond))
	at, timer = earlyRun(t, p, 10*time.Second, func(now time.Time) bool {
		return now.Before(stop) && now.UnixMilli()%1000 == 300
	})
	checkGrid(t, p, at)
	late := 0
	for i, a := range at {
		if a.After(stop) && timer[i] && a.Sub(a.Truncate(p)) != 0 {
			late++
			if a.Sub(a.Truncate(p)) != p/2 {
				t.Errorf("tick %d at %v: late by %v, want half a period", i, a.UnixMilli(), a.Sub(a.Truncate(p)))
			}
		}
	}
	if late != 2 {
		t.Errorf("%d ticks off the grid after the events stopped, want 2 (%v)", late, at)
	}
}

// TestEarlyStopped: a stopped Ticker takes no tick early and Wake starts it on the grid;
// a Ticker on a clock without timers takes none either.
func TestEarlyStopped(t *testing.T) {
	clk := clock.NewManual(time.Unix(1000, 0))
	tk := NewEarly(clk, time.Second)
	defer tk.Stop()
	clk.Advance(600 * time.Millisecond)
	tk.Idle(clk.Now())
	if tk.Running() || tk.C() != nil || tk.Early(clk.Now()) {
		t.Fatal("an idle Ticker runs, has a channel or takes a tick")
	}
	clk.Advance(2 * time.Second)
	if n := tk.Wake(clk.Now()); n != 2 {
		t.Errorf("Wake after 2 s missed %d ticks, want 2", n)
	}
	if !tk.Early(clk.Now()) {
		t.Error("a woken Ticker did not take the tick due in 400 ms")
	}

	var c noTimers
	plain := NewEarly(c, time.Second)
	defer plain.Stop()
	if plain.Early(c.Now()) {
		t.Error("a Ticker on a clock without timers took a tick early")
	}
}

// noTimers is a Clock without timers (a Manual hidden behind the Clock interface).
type noTimers struct{}

var manual = clock.NewManual(time.Unix(1000, 0))

func (noTimers) Now() time.Time                         { return manual.Now() }
func (noTimers) NewTicker(d time.Duration) clock.Ticker { return manual.NewTicker(d) }
