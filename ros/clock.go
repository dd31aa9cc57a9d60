package ros

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// Clock is the time source dnetwork's components take (package clock); a node's
// ROSClock is one.
type Clock = clock.Clock

// Ticker delivers ticks of a Clock.
type Ticker = clock.Ticker

// ROSClock is a node's clock (RCL_ROS_TIME): the system time, or, while simulation
// time is active (parameter use_sim_time), the latest time received on /clock.
// Tickers follow switches between the two.
type ROSClock struct {
	sim    clock.Manual
	useSim atomic.Bool
	offset time.Duration // added to the system time (NodeOptions.ClockOffset)
	// wall makes the system time's tickers and timers: clock.Wall if nil; tests give
	// clock.GoWall and run the clock in a testing/synctest bubble, on fake time.
	wall clock.FuncTimerClock

	// resets counts the times /clock went back (setSimTime), under resetMu, which a
	// timer's Reset read-locks: a firing of that reset tells the timer so (rosTimer.fire).
	resetMu sync.RWMutex
	resets  atomic.Uint64

	mu       sync.Mutex
	switches map[*func(sim bool)]struct{} // called at each switch (onSwitch, setSim)
}

// Now returns the simulation time if it is active, else the system time. Before the
// first /clock message, simulation time is the zero time.
func (c *ROSClock) Now() time.Time {
	if c.useSim.Load() {
		return c.sim.Now()
	}
	return time.Now().Add(c.offset)
}

// SimActive reports whether the clock follows /clock.
func (c *ROSClock) SimActive() bool { return c.useSim.Load() }

// wallClock returns the clock of the system time's tickers and timers.
func (c *ROSClock) wallClock() clock.FuncTimerClock {
	if c.wall != nil {
		return c.wall
	}
	return clock.Wall.(clock.FuncTimerClock)
}

// setSim switches simulation time on or off and calls the onSwitch functions if that
// changes anything: before the switch when it goes on, after it when it goes off, so
// that what they hand over is stamped by the system time (deferred subscriptions
// become eager while the system time still stamps what waited). Its callers are
// serialised (the parameter's set).
func (c *ROSClock) setSim(on bool) {
	if c.useSim.Load() == on {
		return
	}
	if !on {
		c.useSim.Store(false)
	}
	c.mu.Lock()
	fs := make([]func(bool), 0, len(c.switches))
	for f := range c.switches {
		fs = append(fs, *f)
	}
	c.mu.Unlock()
	for _, f := range fs {
		f(on)
	}
	if on {
		c.useSim.Store(true)
	}
}

// onSwitch has f called at every switch of simulation time (see setSim for when),
// with the new state, on the goroutine that switches; cancel stops the calls.
func (c *ROSClock) onSwitch(f func(sim bool)) (cancel func()) {
	p := &f
	c.mu.Lock()
	if c.switches == nil {
		c.switches = make(map[*func(bool)]struct{})
	}
	c.switches[p] = struct{}{}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.switches, p)
		c.mu.Unlock()
	}
}

// arrival is the ROS time of a sample that arrived at wall (time.Now's clock): wall
// plus the clock's offset, or, while simulation time is active, the simulation time
// now (deferred subscriptions are eager then, so now is when the sample was handed
// over, as for every other subscription).
func (c *ROSClock) arrival(wall time.Time) time.Time {
	if c.useSim.Load() {
		return c.sim.Now()
	}
	return wall.Add(c.offset)
}

// setSimTime records a time received on /clock.
func (c *ROSClock) setSimTime(t time.Time) {
	c.resetMu.Lock()
	defer c.resetMu.Unlock()
	if t.Before(c.sim.Now()) {
		c.resets.Add(1) // before Set fires the timers
	}
	c.sim.Set(t)
}

// NewTicker returns a ticker on the ROS time: every d of system time while
// simulation time is off, every d of /clock time while it is on.
func (c *ROSClock) NewTicker(d time.Duration) Ticker {
	t := &rosTicker{
		c:    make(chan time.Time, 1),
		wall: c.wallClock().NewTicker(d), // on the shared grid: see clock.Wall
		sim:  c.sim.NewTicker(d),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go t.run(&c.useSim, c.offset)
	return t
}

type rosTicker struct {
	c        chan time.Time
	wall     Ticker
	sim      Ticker
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

func (t *rosTicker) run(useSim *atomic.Bool, offset time.Duration) {
	defer close(t.done)
	for {
		var now time.Time
		select {
		case now = <-t.wall.C():
			if useSim.Load() {
				continue
			}
			now = now.Add(offset)
		case now = <-t.sim.C():
			if !useSim.Load() {
				continue
			}
		case <-t.stop:
			return
		}
		select {
		case t.c <- now:
		default:
		}
	}
}

func (t *rosTicker) C() <-chan time.Time { return t.c }

// Stop also discards a tick not yet received, once the forwarding goroutine has ended.
func (t *rosTicker) Stop() {
	t.stopOnce.Do(func() {
		t.wall.Stop()
		t.sim.Stop()
		close(t.stop)
		<-t.done
		select {
		case <-t.c:
		default:
		}
	})
}

var _ Clock = (*ROSClock)(nil)

// NewTimer returns a disarmed timer on the ROS time (clock.TimerClock): it fires when
// the system time, or the /clock time while simulation time is on, reaches the time it
// is armed for, or at once when /clock goes back (a simulation reset, as clock.Manual's
// timers do). A switch between the two while the timer is armed takes effect at its
// next Reset.
func (c *ROSClock) NewTimer() clock.Timer { return c.newTimer(nil) }

// NewTimerFunc is NewTimer with fn called at each firing instead of a delivery on C
// (clock.FuncTimerClock): on the system timer's goroutine, or on the timer's own while
// simulation time is on, with no lock of the timer's held, so fn may Reset it.
func (c *ROSClock) NewTimerFunc(fn func(now time.Time)) clock.Timer { return c.newTimer(fn) }

func (c *ROSClock) newTimer(fn func(time.Time)) *rosTimer {
	t := &rosTimer{
		fn:     fn,
		sim:    c.sim.NewTimer(),
		useSim: &c.useSim,
		clk:    c,
		offset: c.offset,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	if fn == nil {
		t.c = make(chan time.Time, 1)
	}
	// The wall timer's own goroutine fires t: a wall expiry reaches t's channel with
	// one hand-over between goroutines, not two (and fn with none).
	t.wall = c.wallClock().NewTimerFunc(t.wallExpired)
	go t.run()
	return t
}

// wallExpired takes an expiry of the wall timer: a tick of the ROS time unless
// simulation time is on.
func (t *rosTimer) wallExpired(now time.Time) {
	if !t.useSim.Load() {
		t.fire(now.Add(t.offset), false)
	}
}

type rosTimer struct {
	c        chan time.Time  // nil with fn
	fn       func(time.Time) // NewTimerFunc's; called instead of a delivery on c
	wall     clock.Timer     // armed for the ROS time minus offset, in system time; calls wallExpired
	sim      clock.Timer
	useSim   *atomic.Bool
	clk      *ROSClock
	offset   time.Duration
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once

	mu       sync.Mutex
	at       time.Time
	armed    bool
	resetsAt uint64 // clk.resets when armed
}

func (t *rosTimer) run() {
	defer close(t.done)
	for {
		var now time.Time
		select {
		case now = <-t.sim.C():
			if !t.useSim.Load() {
				continue
			}
		case <-t.stop:
			return
		}
		t.fire(now, true)
	}
}

// fire delivers now if the timer is armed for it, or, from the simulation time (sim),
// if /clock went back since it was armed (clock.Manual fires every timer then, so that
// its owner plans again); a firing of an earlier arming that raced with Reset is not,
// unless the new time has come too.
func (t *rosTimer) fire(now time.Time, sim bool) {
	t.mu.Lock()
	if !t.armed || now.Before(t.at) && !(sim && t.clk.resets.Load() != t.resetsAt) {
		t.mu.Unlock()
		return
	}
	t.armed = false
	if t.fn != nil {
		t.mu.Unlock()
		t.fn(now)
		return
	}
	t.drain()
	t.c <- now
	t.mu.Unlock()
}

func (t *rosTimer) drain() {
	select {
	case <-t.c:
	default:
	}
}

func (t *rosTimer) C() <-chan time.Time { return t.c }

func (t *rosTimer) Reset(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.drain()
	t.at, t.armed = at, true
	t.wall.Reset(at.Add(-t.offset))
	t.clk.resetMu.RLock()
	t.resetsAt = t.clk.resets.Load()
	t.sim.Reset(at)
	t.clk.resetMu.RUnlock()
}

func (t *rosTimer) Stop() {
	t.stopOnce.Do(func() {
		t.wall.Stop()
		t.sim.Stop()
		close(t.stop)
		<-t.done
		t.mu.Lock()
		t.armed = false
		t.drain()
		t.mu.Unlock()
	})
}

var _ clock.FuncTimerClock = (*ROSClock)(nil)
