package clock

import (
	"sync"
	"time"
)

// Wall is the system's clock.
var Wall Clock = wallClock{}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// NewTicker returns a ticker on the system clock whose ticks fall on the whole
// multiples of d since the Unix epoch: the first comes within d, and every ticker of the
// process with the same period (or one dividing it: 0.5 s and 1 s) ticks at the same
// instants. Periodic work of all components thus shares its wake-ups (GCInfo,
// return packets, diagnostics), which on an idle robot cost more than the work itself.
//
// On Linux the ticker is a timerfd waited for in Go's netpoller (see doc.go); where
// one cannot be made (another system, or no descriptor left) it runs on Go's timers,
// with the same ticks at the cost of more wake-ups.
func (wallClock) NewTicker(d time.Duration) Ticker {
	if d > 0 {
		if t, err := newFDTicker(d); err == nil {
			return t
		}
	}
	return GoWall.NewTicker(d) // which panics for a non-positive d
}

// NewTimer implements TimerClock on the system clock: a timerfd on Linux, else (or
// without a descriptor left) one of Go's timers.
func (wallClock) NewTimer() Timer {
	if t, err := newFDTimer(); err == nil {
		return t
	}
	return GoWall.NewTimer()
}

var _ FuncTimerClock = wallClock{}

// NewTimerFunc implements FuncTimerClock on the system clock: NewWallTimerFunc.
func (wallClock) NewTimerFunc(fn func(now time.Time)) Timer { return NewWallTimerFunc(fn) }

// NewWallTimerFunc returns a disarmed one-shot timer on the system clock that calls fn
// with the time at each expiry, on a goroutine of its own, instead of delivering on a
// channel (nothing arrives on its C): for a timer that forwards its expiry to a channel
// of its own (ROS time's timers), one goroutine fewer per expiry. fn may Reset the timer
// (it is called with no lock of the timer's held) but must not Stop it (Stop waits for
// the goroutine fn runs on). A Reset after an expiry may still see fn called for it: fn
// must judge whether the expiry is still wanted. On Linux a timerfd; elsewhere (or without a
// descriptor left) one of Go's timers.
func NewWallTimerFunc(fn func(now time.Time)) Timer {
	if t, err := newFDTimerFunc(fn); err == nil {
		return t
	}
	return GoWall.NewTimerFunc(fn)
}

// GoWall is the system clock on Go's timers, which is what Wall falls back to where a
// timerfd cannot be made. Its tickers and timers wait on nothing but Go's runtime, so
// a test can run a component on it inside a testing/synctest bubble, on fake time.
var GoWall FuncTimerClock = goWall{}

type goWall struct{}

func (goWall) Now() time.Time { return time.Now() }

func (goWall) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	return newGoTicker(d)
}

func (goWall) NewTimer() Timer                           { return newGoTimer() }
func (goWall) NewTimerFunc(fn func(now time.Time)) Timer { return newGoFuncTimer(fn) }

// goFuncTimer is NewWallTimerFunc on Go's timers.
type goFuncTimer struct{ t *time.Timer }

func newGoFuncTimer(fn func(time.Time)) goFuncTimer {
	t := time.AfterFunc(time.Hour, func() { fn(time.Now()) })
	t.Stop()
	return goFuncTimer{t}
}

func (w goFuncTimer) C() <-chan time.Time { return nil }
func (w goFuncTimer) Reset(at time.Time)  { w.t.Reset(time.Until(at)) }
func (w goFuncTimer) Stop()               { w.t.Stop() }

// untilGrid returns the wait from now to the next whole multiple of d since the Unix
// epoch, in (0, d].
func untilGrid(now time.Time, d time.Duration) time.Duration {
	rem := time.Duration(now.UnixNano() % int64(d))
	if rem < 0 {
		rem += d
	}
	return d - rem
}

// goTicker is the wall ticker on Go's timers. A timer fires once at the first grid
// instant: it delivers that tick on first and starts a time.Ticker there, whose ticks
// then fall on the grid. C returns first until its tick is taken, then the
// time.Ticker's channel, so a tick costs no more than a time.Ticker's.
type goTicker struct {
	d       time.Duration
	first   chan time.Time
	mu      sync.Mutex // guards the fields below
	start   *time.Timer
	t       *time.Ticker // nil until the first grid instant
	stopped bool
}

func newGoTicker(d time.Duration) *goTicker {
	w := &goTicker{first: make(chan time.Time, 1), d: d}
	w.mu.Lock()
	w.start = time.AfterFunc(untilGrid(time.Now(), d), w.begin)
	w.mu.Unlock()
	return w
}

func (w *goTicker) begin() {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.t = time.NewTicker(w.d)
	w.first <- now // the only send, into a free slot
}

// C returns the channel the next tick comes on. A receiver calls C for every tick (in
// its select), as with every Ticker of this package.
func (w *goTicker) C() <-chan time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.t == nil || len(w.first) > 0 {
		return w.first
	}
	return w.t.C
}

// Stop also discards a first tick not yet received; the time.Ticker's channel holds
// none after its Stop.
func (w *goTicker) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.start.Stop()
	if w.t != nil {
		w.t.Stop()
	}
	drain(w.first)
}

// goTimer is the wall timer on one of Go's timers.
type goTimer struct{ t *time.Timer }

// newGoTimer returns a disarmed goTimer.
func newGoTimer() goTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return goTimer{t}
}

func (w goTimer) C() <-chan time.Time { return w.t.C }

// Reset relies on Go's timers discarding an unreceived value on Reset and Stop.
func (w goTimer) Reset(at time.Time) { w.t.Reset(time.Until(at)) }
func (w goTimer) Stop()              { w.t.Stop() }

// drain discards a value waiting in c, if any.
func drain(c chan time.Time) {
	select {
	case <-c:
	default:
	}
}
