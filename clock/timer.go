package clock

import "time"

// Timer fires once when its clock reaches a set time. A component that only has work
// at known instants arms one for the next of them instead of waking on every period
// of a Ticker.
type Timer interface {
	// C returns the channel the firing arrives on; it carries the clock's time.
	C() <-chan time.Time
	// Reset arms the timer to fire once the clock reads at or after at (at once if it
	// already does), replacing any earlier arming. A firing of an earlier arming that
	// was not received is discarded: after Reset returns, C only delivers the new one.
	Reset(at time.Time)
	// Stop releases the timer: it never fires after Stop returns, and it must not be
	// Reset again.
	Stop()
}

// TimerClock is a Clock that also makes timers. Wall, Manual and the node's ROS clock
// are TimerClocks.
type TimerClock interface {
	Clock
	// NewTimer returns a disarmed timer on this clock's time.
	NewTimer() Timer
}

var _ TimerClock = wallClock{}

// FuncTimerClock is a TimerClock whose timers can call a function at each firing
// instead of delivering on a channel: an owner that does its work right there spares
// the hand-over to a goroutine of its own. Wall and the node's ROS clock are
// FuncTimerClocks; Manual is not (its timers fire inside Set and Advance, on the
// caller's goroutine).
type FuncTimerClock interface {
	TimerClock
	// NewTimerFunc returns a disarmed timer that calls fn with the clock's time at each
	// firing, on a goroutine of the clock's, instead of delivering on C (nothing
	// arrives there). fn may Reset the timer, to arm the next firing, but must not Stop
	// it. A firing can race with Reset and Stop: fn may be called for an arming that
	// Reset has replaced, or after Stop returned, and must judge whether the firing is
	// still wanted.
	NewTimerFunc(fn func(now time.Time)) Timer
}

// NewTimer returns a disarmed timer that fires when Set or Advance moves the clock to
// or past its time. Set moving the clock back (a simulation reset) fires every armed
// timer at once, so that its owner plans again from the new time.
func (c *Manual) NewTimer() Timer {
	return &manualTimer{clock: c, c: make(chan time.Time, 1)}
}

type manualTimer struct {
	clock *Manual
	c     chan time.Time
	at    time.Time // guarded by clock.mu
}

func (t *manualTimer) C() <-chan time.Time { return t.c }

func (t *manualTimer) Reset(at time.Time) {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	t.drain()
	if c.set && !c.now.Before(at) {
		delete(c.timers, t)
		t.c <- c.now
		return
	}
	t.at = at
	if c.timers == nil {
		c.timers = map[*manualTimer]struct{}{}
	}
	c.timers[t] = struct{}{}
}

func (t *manualTimer) Stop() {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	delete(t.clock.timers, t)
	t.drain()
}

// drain discards an unreceived firing; the caller holds clock.mu.
func (t *manualTimer) drain() { drain(t.c) }

// fireTimers fires the armed timers that are due at c.now (all of them if back); the
// caller holds c.mu.
func (c *Manual) fireTimers(back bool) {
	for t := range c.timers {
		if back || !c.now.Before(t.at) {
			delete(c.timers, t)
			t.drain()
			t.c <- c.now
		}
	}
}

var _ TimerClock = (*Manual)(nil)
