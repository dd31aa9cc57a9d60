// Package clock gives dnetwork's components their time: the system clock, or a
// manual clock driven by simulation time (/clock) or by a test.
package clock

import (
	"sync"
	"time"
)

// Clock tells time. dnetwork's components take one instead of calling time.Now, so
// that they follow simulation time when the node's use_sim_time parameter is true,
// and so that tests can drive them with a Manual.
type Clock interface {
	// Now returns the current time of this clock.
	Now() time.Time
	// NewTicker returns a ticker that fires every d (> 0) of this clock's time.
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks of a Clock. Like time.Ticker it drops ticks for a slow
// receiver, and it never fires after Stop returns.
type Ticker interface {
	// C returns the channel the next tick arrives on; each carries the clock's time.
	// The channel may change between ticks (the system clock's first tick comes on a
	// channel of its own), so receivers call C for every receive, as in
	// `case now := <-tk.C():`.
	C() <-chan time.Time
	// Stop turns the ticker off.
	Stop()
}

// Wall is the system's clock.
var Wall Clock = wallClock{}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// NewTicker returns a ticker on the system clock whose ticks fall on the whole
// multiples of d since the Unix epoch: the first comes within d, and every ticker of the
// process with the same period (or one dividing it: 0.5 s and 1 s) ticks at the same
// instants. Periodic work of all components thus shares its wake-ups (GCInfo,
// return packets, diagnostics), which on an idle robot cost more than the work itself.
func (wallClock) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	w := &wallTicker{first: make(chan time.Time, 1), d: d}
	w.mu.Lock()
	w.start = time.AfterFunc(untilGrid(time.Now(), d), w.begin)
	w.mu.Unlock()
	return w
}

// untilGrid returns the wait from now to the next whole multiple of d since the Unix
// epoch, in (0, d].
func untilGrid(now time.Time, d time.Duration) time.Duration {
	rem := time.Duration(now.UnixNano() % int64(d))
	if rem < 0 {
		rem += d
	}
	return d - rem
}

// wallTicker is the system clock's ticker. A timer fires once at the first grid
// instant: it delivers that tick on first and starts a time.Ticker there, whose ticks
// then fall on the grid. C returns first until its tick is taken, then the
// time.Ticker's channel, so a tick costs no more than a time.Ticker's.
type wallTicker struct {
	d       time.Duration
	first   chan time.Time
	mu      sync.Mutex // guards the fields below
	start   *time.Timer
	t       *time.Ticker // nil until the first grid instant
	stopped bool
}

func (w *wallTicker) begin() {
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
func (w *wallTicker) C() <-chan time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.t == nil || len(w.first) > 0 {
		return w.first
	}
	return w.t.C
}

func (w *wallTicker) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.start.Stop()
	if w.t != nil {
		w.t.Stop()
	}
}

// Manual is a clock whose time only moves when Set or Advance is called: the
// simulation time received on /clock, or a test's fake time. Its zero value reads
// the zero time until the first Set. It is safe for concurrent use.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	set     bool // now has been set
	tickers map[*manualTicker]struct{}
	timers  map[*manualTimer]struct{} // armed ones
}

// NewManual returns a Manual reading start.
func NewManual(start time.Time) *Manual {
	c := &Manual{}
	c.Set(start)
	return c
}

// Now returns the time last set.
func (c *Manual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t and fires every ticker whose next tick is due and every
// timer whose time has come. A ticker that missed several periods fires once and then
// keeps its phase; if t is before the clock's previous time (a simulation reset),
// tickers restart from t and armed timers fire.
func (c *Manual) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	back := c.set && t.Before(c.now)
	first := !c.set
	c.now, c.set = t, true
	c.fireTimers(back)
	for tk := range c.tickers {
		switch {
		case back || first && tk.unset:
			tk.next, tk.unset = t.Add(tk.period), false
			continue
		case t.Before(tk.next):
			continue
		}
		select {
		case tk.c <- t:
		default: // receiver is slow: drop, as time.Ticker does
		}
		missed := t.Sub(tk.next) / tk.period
		tk.next = tk.next.Add((missed + 1) * tk.period)
	}
}

// Advance moves the clock forward by d.
func (c *Manual) Advance(d time.Duration) {
	c.mu.Lock()
	t := c.now.Add(d)
	c.mu.Unlock()
	c.Set(t)
}

// NewTicker returns a ticker that fires whenever the clock has moved past its next
// tick, the first being d after the clock's current time.
func (c *Manual) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tk := &manualTicker{clock: c, c: make(chan time.Time, 1), period: d, next: c.now.Add(d), unset: !c.set}
	if c.tickers == nil {
		c.tickers = map[*manualTicker]struct{}{}
	}
	c.tickers[tk] = struct{}{}
	return tk
}

type manualTicker struct {
	clock  *Manual
	c      chan time.Time
	period time.Duration
	next   time.Time
	unset  bool // created before the clock had a time: start at the first Set
}

func (t *manualTicker) C() <-chan time.Time { return t.c }

func (t *manualTicker) Stop() {
	t.clock.mu.Lock()
	delete(t.clock.tickers, t)
	t.clock.mu.Unlock()
}
