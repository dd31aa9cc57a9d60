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

// Tickers returns the number of the clock's tickers not stopped, so a test can see
// that a component stopped or started one.
func (c *Manual) Tickers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.tickers)
}

type manualTicker struct {
	clock  *Manual
	c      chan time.Time
	period time.Duration
	next   time.Time
	unset  bool // created before the clock had a time: start at the first Set
}

func (t *manualTicker) C() <-chan time.Time { return t.c }

// Stop also discards a tick not yet received: Set sends under the clock's lock.
func (t *manualTicker) Stop() {
	t.clock.mu.Lock()
	delete(t.clock.tickers, t)
	drain(t.c)
	t.clock.mu.Unlock()
}

// Within reports whether t lies within d of now, before or after it. A time more than d
// after now was read before the clock went back (a restarted simulation), so what it
// stamps is as stale as a time more than d before now.
func Within(now, t time.Time, d time.Duration) bool {
	x := now.Sub(t)
	return x <= d && x >= -d
}
