package clock

import (
	"testing"
	"time"
)

// wallImpls are the wall clock's two implementations: what Wall makes (a timerfd on
// Linux) and Go's timers (the fallback), so that both keep the same guarantees.
var wallImpls = []struct {
	name   string
	ticker func(time.Duration) Ticker
	timer  func() Timer
}{
	{"wall", Wall.NewTicker, Wall.(TimerClock).NewTimer},
	{"go", func(d time.Duration) Ticker { return newGoTicker(d) }, func() Timer { return newGoTimer() }},
}

func TestWall(t *testing.T) {
	tk := Wall.NewTicker(time.Millisecond)
	defer tk.Stop()
	select {
	case <-tk.C():
	case <-time.After(5 * time.Second):
		t.Fatal("wall ticker did not tick")
	}
	if d := time.Since(Wall.Now()); d < 0 || d > time.Second {
		t.Fatalf("wall clock off by %v", d)
	}
}

// TestWallTickerGrid checks that wall tickers of 20 ms and 40 ms tick once per grid
// interval (the tick's time lies in a later interval each time) and never after Stop.
func TestWallTickerGrid(t *testing.T) {
	for _, impl := range wallImpls {
		for _, d := range []time.Duration{20 * time.Millisecond, 40 * time.Millisecond} {
			tk := impl.ticker(d)
			last := int64(-1)
			for range 4 {
				select {
				case now := <-tk.C():
					k := now.UnixNano() / int64(d)
					if k <= last {
						t.Fatalf("%s, period %v: tick in grid interval %d after one in %d", impl.name, d, k, last)
					}
					last = k
				case <-time.After(5 * time.Second):
					t.Fatalf("%s, period %v: no tick", impl.name, d)
				}
			}
			tk.Stop()
			select {
			case <-tk.C():
				t.Fatalf("%s, period %v: tick after Stop", impl.name, d)
			case <-time.After(3 * d):
			}
		}
	}
}

// TestWallTickerStopDiscards checks that Stop discards a tick not yet received, the
// first one included: a ticker never delivers after Stop returns.
func TestWallTickerStopDiscards(t *testing.T) {
	for _, impl := range wallImpls {
		for _, wait := range []bool{false, true} {
			tk := impl.ticker(time.Millisecond)
			if wait { // past the first tick, which the Go ticker sends on a channel of its own
				<-tk.C()
			}
			time.Sleep(20 * time.Millisecond) // ticks fell due, none received
			tk.Stop()
			if v, ok := recv(t, tk); ok {
				t.Fatalf("%s: tick of %v delivered after Stop", impl.name, v)
			}
		}
	}
}

func TestWallTimer(t *testing.T) {
	for _, impl := range wallImpls {
		tm := impl.timer()
		start := time.Now()
		tm.Reset(start.Add(20 * time.Millisecond))
		v := <-tm.C()
		if v.Sub(start) < 20*time.Millisecond {
			t.Fatalf("%s: fired after %v, armed for 20ms", impl.name, v.Sub(start))
		}
		// Reset discards an unreceived firing.
		tm.Reset(time.Now())
		time.Sleep(20 * time.Millisecond) // its time has passed, nothing received
		tm.Reset(time.Now().Add(time.Hour))
		if _, ok := fired(tm); ok {
			t.Fatalf("%s: a firing of the earlier arming survived Reset", impl.name)
		}
		// A time already reached fires at once.
		tm.Reset(time.Now().Add(-time.Second))
		select {
		case <-tm.C():
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: a past time did not fire", impl.name)
		}
		// Stop discards an unreceived firing and nothing comes after it.
		tm.Reset(time.Now())
		time.Sleep(5 * time.Millisecond)
		tm.Stop()
		select {
		case <-tm.C():
			t.Fatalf("%s: fired after Stop", impl.name)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestTimerFuncRearmsFromFn: a timer that calls a function may be Reset from that
// function (a component re-arms its next tick there), on both implementations: each
// arming made in fn fires once, at or after its instant.
func TestTimerFuncRearmsFromFn(t *testing.T) {
	impls := []struct {
		name string
		make func(func(time.Time)) Timer
	}{
		{"wall", Wall.(FuncTimerClock).NewTimerFunc},
		{"go", func(fn func(time.Time)) Timer { return newGoFuncTimer(fn) }},
	}
	for _, impl := range impls {
		t.Run(impl.name, func(t *testing.T) {
			type firing struct{ at, now time.Time }
			calls := make(chan firing, 8)
			var tm Timer
			var at time.Time // read and written by fn only, after the first Reset below
			n := 0
			tm = impl.make(func(now time.Time) {
				calls <- firing{at, now}
				if n++; n < 3 {
					at = now.Add(10 * time.Millisecond)
					tm.Reset(at)
				}
			})
			defer tm.Stop()
			at = time.Now().Add(10 * time.Millisecond)
			tm.Reset(at)
			for i := range 3 {
				select {
				case f := <-calls:
					if f.now.Before(f.at) {
						t.Fatalf("firing %d at %v, armed for %v", i, f.now, f.at)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("firing %d of 3 did not come", i)
				}
			}
			select {
			case f := <-calls:
				t.Fatalf("a fourth firing at %v, none armed", f.now)
			case <-time.After(50 * time.Millisecond):
			}
		})
	}
}
