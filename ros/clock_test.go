package ros

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// TestROSClockSwitchesToSimTime runs on fake time (a synctest bubble, the system time's
// tickers on Go's timers), so that letting wall periods pass shows that no wall tick
// comes after the switch.
func TestROSClockSwitchesToSimTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := ROSClock{wall: clock.GoWall}
		if d := time.Since(c.Now()); d < 0 || d > time.Second {
			t.Fatalf("ROS clock without sim time reads %v", c.Now())
		}
		tk := c.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		select {
		case <-tk.C():
		case <-time.After(2 * time.Second):
			t.Fatal("no wall-clock tick")
		}
		c.setSim(true)
		switched := time.Now()
		sim := time.Unix(42, 0)
		c.setSimTime(sim)
		if !c.Now().Equal(sim) || !c.SimActive() {
			t.Fatalf("sim time %v, active %v", c.Now(), c.SimActive())
		}
		// 50 wall periods pass, all of them after the switch (the next wall tick was
		// 20 ms away), and the ticker's goroutine has taken each: none is forwarded.
		time.Sleep(time.Second)
		synctest.Wait()
		select {
		case v := <-tk.C():
			t.Fatalf("wall tick %v, %v after the switch to sim time (active and frozen)", v, v.Sub(switched))
		default:
		}
		c.setSimTime(sim.Add(20 * time.Millisecond))
		select {
		case v := <-tk.C():
			if !v.Equal(sim.Add(20 * time.Millisecond)) {
				t.Fatalf("sim tick carries %v", v)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("no sim tick")
		}
		tk.Stop()
		tk.Stop() // twice is fine
	})
}

// Stop discards a tick the ticker forwarded but nobody received: a ticker never
// delivers after Stop returns. On fake time (as above), so that a tick is known to
// wait when Stop is called and an hour passes after it.
func TestROSClockTickerStopDiscards(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := ROSClock{wall: clock.GoWall}
		tk := c.NewTicker(time.Millisecond)
		<-tk.C()                          // the ticker forwards wall ticks
		time.Sleep(20 * time.Millisecond) // more fell due, none received
		synctest.Wait()
		if len(tk.C()) == 0 {
			t.Fatal("no tick waiting 20 ms after the last one received")
		}
		tk.Stop()
		for range 2 {
			select {
			case v := <-tk.C():
				t.Fatalf("tick of %v delivered after Stop", v)
			default:
			}
			time.Sleep(time.Hour)
			synctest.Wait()
		}
	})
}

// A clock offset moves the system time and the ticks, not simulation time.
func TestROSClockOffset(t *testing.T) {
	const off = -3*time.Hour + 250*time.Millisecond
	c := ROSClock{offset: off}
	if d := time.Since(c.Now()) + off; d < 0 || d > time.Second {
		t.Fatalf("clock with offset %v reads %v", off, c.Now())
	}
	tk := c.NewTicker(10 * time.Millisecond)
	defer tk.Stop()
	select {
	case v := <-tk.C():
		if d := time.Since(v) + off; d < 0 || d > time.Second {
			t.Fatalf("tick carries %v, %v from the offset system time", v, d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no tick")
	}
	c.setSim(true)
	c.setSimTime(time.Unix(42, 0))
	if !c.Now().Equal(time.Unix(42, 0)) {
		t.Fatalf("sim time with offset: %v", c.Now())
	}
}

// A timer fires at its ROS time: system time plus offset, or /clock time; one made by
// NewTimerFunc calls its function where the other delivers, with the same times. The
// system time's timer is a timerfd (clock.Wall) or, on fake time in a synctest bubble,
// one of Go's timers (clock.GoWall): only there can the test let time pass to show
// that a timer armed for /clock time does not fire early.
func TestROSClockTimer(t *testing.T) {
	for _, fake := range []bool{false, true} {
		name, run := "wall", func(t *testing.T, f func(t *testing.T)) { f(t) }
		if fake {
			name, run = "fake", synctest.Test
		}
		t.Run(name, func(t *testing.T) {
			t.Run("channel", func(t *testing.T) {
				run(t, func(t *testing.T) {
					c := &ROSClock{offset: -3 * time.Hour}
					if fake {
						c.wall = clock.GoWall
					}
					tm := c.NewTimer()
					testROSTimer(t, c, tm, tm.C(), fake)
				})
			})
			t.Run("func", func(t *testing.T) {
				run(t, func(t *testing.T) {
					c := &ROSClock{offset: -3 * time.Hour}
					if fake {
						c.wall = clock.GoWall
					}
					calls := make(chan time.Time, 4)
					tm := c.NewTimerFunc(func(now time.Time) { calls <- now })
					if tm.C() != nil {
						t.Fatal("a NewTimerFunc timer has a channel")
					}
					testROSTimer(t, c, tm, calls, fake)
				})
			})
		})
	}
}

// testROSTimer checks tm on the system time, then on /clock time; fake: it runs in a
// synctest bubble, where it also checks that no firing comes before /clock reaches
// the arming (the system time's timer, armed for an instant long past, has fired and
// was ignored).
func testROSTimer(t *testing.T, c *ROSClock, tm clock.Timer, fired <-chan time.Time, fake bool) {
	defer tm.Stop()
	at := c.Now().Add(30 * time.Millisecond)
	tm.Reset(at)
	select {
	case v := <-fired:
		if v.Before(at) || v.Sub(at) > time.Second {
			t.Fatalf("fired with %v, armed for %v", v, at)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no firing on system time")
	}
	// A new arming replaces the old one: the firing comes at the later time only.
	tm.Reset(c.Now().Add(10 * time.Millisecond))
	later := c.Now().Add(150 * time.Millisecond)
	tm.Reset(later)
	select {
	case v := <-fired:
		if v.Before(later) {
			t.Fatalf("fired with %v, before the new arming's %v", v, later)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no firing after Reset")
	}

	c.setSim(true)
	sim := time.Unix(42, 0)
	c.setSimTime(sim)
	tm.Reset(sim.Add(time.Second))
	c.setSimTime(sim.Add(999 * time.Millisecond))
	if fake {
		time.Sleep(time.Second)
		synctest.Wait()
		select {
		case v := <-fired:
			t.Fatalf("fired with %v before the sim time reached the arming", v)
		default:
		}
	}
	c.setSimTime(sim.Add(time.Second))
	select {
	case v := <-fired:
		if !v.Equal(sim.Add(time.Second)) {
			t.Fatalf("sim firing carries %v", v)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no firing on sim time")
	}
	tm.Stop()
	tm.Stop() // twice is fine
}

// A timer made by NewTimerFunc may be Reset from its function, on system time and on
// /clock time: the node's team component re-arms its next tick there.
func TestROSClockTimerFuncRearms(t *testing.T) {
	c := &ROSClock{offset: -3 * time.Hour}
	calls := make(chan time.Time, 8)
	var tm clock.Timer
	next := make(chan time.Time, 8) // where fn arms next; zero: nowhere
	tm = c.NewTimerFunc(func(now time.Time) {
		calls <- now
		if at := <-next; !at.IsZero() {
			tm.Reset(at)
		}
	})
	defer tm.Stop()
	wait := func(what string, want time.Time) {
		t.Helper()
		select {
		case v := <-calls:
			if v.Before(want) {
				t.Fatalf("%s: fired with %v, armed for %v", what, v, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: no firing", what)
		}
	}
	at := c.Now().Add(20 * time.Millisecond)
	later := at.Add(20 * time.Millisecond)
	next <- later
	tm.Reset(at)
	wait("system time", at)
	next <- time.Time{}
	wait("system time, re-armed in fn", later)

	c.setSim(true)
	sim := time.Unix(42, 0)
	c.setSimTime(sim)
	next <- sim.Add(2 * time.Second)
	tm.Reset(sim.Add(time.Second))
	c.setSimTime(sim.Add(time.Second))
	wait("sim time", sim.Add(time.Second))
	next <- time.Time{}
	c.setSimTime(sim.Add(2 * time.Second))
	wait("sim time, re-armed in fn", sim.Add(2*time.Second))
}

// A simulation reset (the /clock time going back) fires an armed timer at once, as
// clock.Manual's timers do, so that its owner plans again from the new time: a timer
// left armed for the old time would not fire until the simulation got there again.
func TestROSClockTimerFiresOnSimReset(t *testing.T) {
	t.Run("channel", func(t *testing.T) {
		c := &ROSClock{}
		tm := c.NewTimer()
		testROSTimerSimReset(t, c, tm, tm.C())
	})
	t.Run("func", func(t *testing.T) {
		c := &ROSClock{}
		calls := make(chan time.Time, 4)
		testROSTimerSimReset(t, c, c.NewTimerFunc(func(now time.Time) { calls <- now }), calls)
	})
}

func testROSTimerSimReset(t *testing.T, c *ROSClock, tm clock.Timer, fired <-chan time.Time) {
	defer tm.Stop()
	c.setSim(true)
	sim := time.Unix(100, 0)
	c.setSimTime(sim)
	tm.Reset(sim.Add(time.Second))
	back := time.Unix(5, 0)
	c.setSimTime(back)
	select {
	case v := <-fired:
		if !v.Equal(back) {
			t.Fatalf("fired with %v, want the reset's %v", v, back)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no firing after the sim time went back")
	}
	// Armed again, it fires at its new time only.
	tm.Reset(back.Add(time.Second))
	c.setSimTime(back.Add(500 * time.Millisecond))
	c.setSimTime(back.Add(time.Second))
	select {
	case v := <-fired:
		if !v.Equal(back.Add(time.Second)) {
			t.Fatalf("fired with %v, armed for %v", v, back.Add(time.Second))
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no firing after the reset's re-arming")
	}
}
