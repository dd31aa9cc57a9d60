package clock

import (
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// wallImpls are the wall clock's two implementations: what Wall makes (a timerfd on
// Linux) and Go's timers (GoWall, the fallback), so that both keep the same guarantees.
// fake: the tests run it in a testing/synctest bubble (inImpl), where time is fake and
// letting an hour pass proves that nothing more comes; a timerfd runs on real time, so
// its tests prove that from its state instead (fdStopped, fdIdle, fdArmedFor).
var wallImpls = []struct {
	name   string
	fake   bool
	ticker func(time.Duration) Ticker
	timer  func() Timer
}{
	{"wall", false, Wall.NewTicker, Wall.(TimerClock).NewTimer},
	{"go", true, GoWall.NewTicker, GoWall.NewTimer},
}

// inImpl runs f as the subtest name, in a synctest bubble if fake. Outside Linux the
// wall clock is Go's timers on real time, tested as "go": the real-time run skips.
func inImpl(t *testing.T, name string, fake bool, f func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		switch {
		case fake:
			synctest.Test(t, f)
		case runtime.GOOS != "linux":
			t.Skip("no timerfd: the wall clock is Go's timers, tested on fake time")
		default:
			f(t)
		}
	})
}

// noneAfterStop checks that x, stopped, never delivers on c: c is empty and, on fake
// time, stays so when an hour has passed; a timerfd's goroutine, the only sender on c,
// has ended.
func noneAfterStop(t *testing.T, fake bool, x any, c func() <-chan time.Time) {
	t.Helper()
	if fake {
		time.Sleep(time.Hour)
		synctest.Wait()
	} else {
		fdStopped(t, x)
	}
	select {
	case v := <-c():
		t.Fatalf("delivered %v after Stop", v)
	default:
	}
}

// fallDue lets the firing tm is armed for now fall due without receiving it: on fake
// time d passes; a timerfd's goroutine is waited for until it has delivered.
func fallDue(t *testing.T, fake bool, tm Timer, d time.Duration) {
	t.Helper()
	if fake {
		time.Sleep(d)
		synctest.Wait()
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(tm.C()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no firing waiting 10 s after its time")
		}
		time.Sleep(time.Millisecond)
	}
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
		inImpl(t, impl.name, impl.fake, func(t *testing.T) {
			for _, d := range []time.Duration{20 * time.Millisecond, 40 * time.Millisecond} {
				tk := impl.ticker(d)
				last := int64(-1)
				for range 4 {
					select {
					case now := <-tk.C():
						k := now.UnixNano() / int64(d)
						if k <= last {
							t.Fatalf("period %v: tick in grid interval %d after one in %d", d, k, last)
						}
						last = k
					case <-time.After(5 * time.Second):
						t.Fatalf("period %v: no tick", d)
					}
				}
				tk.Stop()
				noneAfterStop(t, impl.fake, tk, tk.C)
			}
		})
	}
}

// TestWallTickerStopDiscards checks that Stop discards a tick not yet received, the
// first one included: a ticker never delivers after Stop returns.
func TestWallTickerStopDiscards(t *testing.T) {
	for _, impl := range wallImpls {
		inImpl(t, impl.name, impl.fake, func(t *testing.T) {
			for _, wait := range []bool{false, true} {
				tk := impl.ticker(time.Millisecond)
				if wait { // past the first tick, which the Go ticker sends on a channel of its own
					<-tk.C()
				}
				time.Sleep(20 * time.Millisecond) // ticks fell due, none received
				if impl.fake {
					synctest.Wait()
				}
				tk.Stop()
				if v, ok := recv(t, tk); ok {
					t.Fatalf("tick of %v delivered after Stop", v)
				}
				noneAfterStop(t, impl.fake, tk, tk.C)
			}
		})
	}
}

func TestWallTimer(t *testing.T) {
	for _, impl := range wallImpls {
		inImpl(t, impl.name, impl.fake, func(t *testing.T) {
			tm := impl.timer()
			start := time.Now()
			tm.Reset(start.Add(20 * time.Millisecond))
			v := <-tm.C()
			if v.Sub(start) < 20*time.Millisecond {
				t.Fatalf("fired after %v, armed for 20ms", v.Sub(start))
			}
			// Reset discards an unreceived firing: nothing comes before the new arming.
			tm.Reset(time.Now())
			fallDue(t, impl.fake, tm, 20*time.Millisecond)
			at := time.Now().Add(time.Hour)
			tm.Reset(at)
			if _, ok := fired(tm); ok {
				t.Fatal("a firing of the earlier arming survived Reset")
			}
			noneBefore(t, impl.fake, tm, at)
			// A time already reached fires at once.
			tm.Reset(time.Now().Add(-time.Second))
			select {
			case <-tm.C():
			case <-time.After(5 * time.Second):
				t.Fatal("a past time did not fire")
			}
			// Stop discards an unreceived firing and nothing comes after it.
			tm.Reset(time.Now())
			fallDue(t, impl.fake, tm, 5*time.Millisecond)
			tm.Stop()
			noneAfterStop(t, impl.fake, tm, tm.C)
		})
	}
}

// noneBefore checks that tm, just armed for at, delivers nothing before at: on fake
// time, nothing has come just before it; a timerfd has no expiry left unread and is
// armed for at (fdArmedFor).
func noneBefore(t *testing.T, fake bool, tm Timer, at time.Time) {
	t.Helper()
	if fake {
		time.Sleep(time.Until(at) - time.Nanosecond)
		synctest.Wait()
	} else {
		fdArmedFor(t, tm, at)
	}
	if v, ok := fired(tm); ok {
		t.Fatalf("fired with %v, armed for %v", v, at)
	}
}

// TestTimerFuncRearmsFromFn: a timer that calls a function may be Reset from that
// function (a component re-arms its next tick there), on both implementations: each
// arming made in fn fires once, at or after its instant, and nothing fires once fn
// arms no more.
func TestTimerFuncRearmsFromFn(t *testing.T) {
	impls := []struct {
		name string
		fake bool
		make func(func(time.Time)) Timer
	}{
		{"wall", false, Wall.(FuncTimerClock).NewTimerFunc},
		{"go", true, GoWall.NewTimerFunc},
	}
	for _, impl := range impls {
		inImpl(t, impl.name, impl.fake, func(t *testing.T) {
			type firing struct{ at, now time.Time }
			calls := make(chan firing, 8)
			var tm Timer
			var at time.Time // read and written by fn only, after the first Reset below
			n := 0
			tm = impl.make(func(now time.Time) {
				f := firing{at, now}
				if n++; n < 3 {
					at = now.Add(10 * time.Millisecond)
					tm.Reset(at)
				}
				calls <- f // last: once the third has come, fn is done arming
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
			// None armed: a fourth never comes.
			if impl.fake {
				time.Sleep(time.Hour)
				synctest.Wait()
			} else {
				fdIdle(t, tm)
			}
			select {
			case f := <-calls:
				t.Fatalf("a fourth firing at %v, none armed", f.now)
			default:
			}
		})
	}
}
