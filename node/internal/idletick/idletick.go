package idletick

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// Ticker is a clock ticker that can be stopped and started again. Create it with New,
// or with NewEarly for one whose ticks an event may take early.
type Ticker struct {
	clk    clock.Clock
	period time.Duration
	tk     clock.Ticker // nil while stopped
	since  time.Time    // the tick it was stopped at
	early  *early       // NewEarly on a clock with timers; tk is then nil
}

// New returns a running Ticker of period d on clk.
func New(clk clock.Clock, d time.Duration) *Ticker {
	return &Ticker{clk: clk, period: d, tk: clk.NewTicker(d)}
}

// C returns the channel the next tick arrives on, nil while the Ticker is stopped.
// As with clock.Ticker, call it for every receive.
func (t *Ticker) C() <-chan time.Time {
	if t.early != nil {
		return t.early.c()
	}
	if t.tk == nil {
		return nil
	}
	return t.tk.C()
}

// Running reports whether the Ticker ticks.
func (t *Ticker) Running() bool {
	if t.early != nil {
		return t.early.tm != nil
	}
	return t.tk != nil
}

// Idle stops the Ticker after the tick received at now; it returns now, the time
// Missed counts from. It does nothing to a stopped Ticker (and returns the time it
// was stopped at).
func (t *Ticker) Idle(now time.Time) time.Time {
	if t.early != nil {
		if t.early.tm != nil {
			t.early.stop()
			t.since = now
		}
		return t.since
	}
	if t.tk != nil {
		t.tk.Stop()
		t.tk, t.since = nil, now
	}
	return t.since
}

// Wake starts a stopped Ticker again at now and returns how many ticks it missed
// (Missed since it was stopped); a running Ticker is left alone and 0 returned.
func (t *Ticker) Wake(now time.Time) uint64 {
	if t.Running() {
		return 0
	}
	if t.early != nil {
		t.early.start(now)
	} else {
		t.tk = t.clk.NewTicker(t.period)
	}
	return Missed(t.since, now, t.period)
}

// Stop turns the Ticker off for good.
func (t *Ticker) Stop() {
	if t.early != nil {
		t.early.stop()
		return
	}
	if t.tk != nil {
		t.tk.Stop()
		t.tk = nil
	}
}

// Missed returns the number of whole multiples of d since the Unix epoch in
// (since, now]: the ticks a wall ticker of period d stopped at since would have
// delivered by now. The times are placed on the wall tickers' own grid
// (clock.GridTime), which follows the monotonic clock, so a step or slew of the
// system time meanwhile neither adds ticks nor loses any, and a tick already
// delivered is never counted again. It is 0 when now is not after since (a clock that
// went back).
func Missed(since, now time.Time, d time.Duration) uint64 {
	if !now.After(since) || d <= 0 {
		return 0
	}
	// Both times come from one clock, so both carry a monotonic reading or neither does;
	// were they mixed, the grid could put now before since.
	return uint64(max(floorDiv(clock.GridTime(now), int64(d))-floorDiv(clock.GridTime(since), int64(d)), 0))
}

// floorDiv is a/b rounded towards minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
