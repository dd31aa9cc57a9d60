package idletick

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// early is a Ticker's one-shot timer (NewEarly). Every grid instant is one tick,
// delivered once: by the timer, or taken early by an event (Early) in the half
// period before it, or, while events come (shifted), in the half period after it,
// the timer then being armed for the end of that half.
type early struct {
	clk     clock.TimerClock
	period  time.Duration
	tm      clock.Timer // nil while stopped
	due     time.Time   // the grid instant of the next tick
	shifted bool        // the timer waits half a period past due for an event
	event   time.Time   // the last Early call; zero: none yet
	last    time.Time   // the last tick, delivered or taken; zero: none yet
}

// NewEarly returns a running Ticker of period d on clk whose ticks an event may take
// early (Early): a component that its own events wake anyway, at about the rate of
// its ticks or faster, then does the tick's work on those wake-ups, and the Ticker's
// timer wakes nobody. Its ticks stay those of New's wall ticker, one per grid instant
// (whole multiples of d since the Unix epoch, clock.GridTime), so that the Ticker
// ticks at its rate and Missed counts what a stopped one missed; an event only moves
// a tick by up to half a period. Its owner calls Ticked after every tick it receives
// from C. On a clock without timers it is New's Ticker, whose Early takes nothing.
func NewEarly(clk clock.Clock, d time.Duration) *Ticker {
	tc, ok := clk.(clock.TimerClock)
	if !ok {
		return New(clk, d)
	}
	e := &early{clk: tc, period: d}
	e.start(tc.Now())
	return &Ticker{clk: clk, period: d, early: e}
}

// Ticked moves the Ticker on after the tick received from C at now, and returns the
// time the tick stands for: its grid instant when the tick comes after it by less than
// a period (the timer waited past it for an event, or fired late), else now (also
// after a jump of the clock of a period or more, such as the first /clock message of
// simulation time). The owner judges the tick as of that time (a GameController still
// connected then is answered), so that waiting changes when the work is done, not
// whether. While events came in the last period and a quarter, the next tick's timer
// waits half a period past its instant for one (so that events at the ticks' rate,
// whatever their phase, take every tick). A Ticker made by New, whose clock ticker
// moves on by itself, returns now.
func (t *Ticker) Ticked(now time.Time) time.Time {
	e := t.early
	if e == nil || e.tm == nil {
		return now
	}
	at := now
	if e.due.Before(now) && now.Sub(e.due) < e.period { // else a jump of the clock (next)
		at = e.due
	}
	e.shifted = !e.event.IsZero() && now.Sub(e.event) <= e.period+e.period/4
	e.last = now
	e.next(now)
	return at
}

// Early takes the Ticker's next tick at now, when now is within half a period of its
// instant, the timer has not delivered it and the last tick is at least half a period
// ago, and reports whether it did; the caller then does the tick's work as if it had
// received now on C. A stopped Ticker, or one made by New, takes none.
func (t *Ticker) Early(now time.Time) bool {
	e := t.early
	if e == nil || e.tm == nil {
		return false
	}
	e.event = now
	if now.Before(e.due.Add(-e.period/2)) || !now.Before(e.armedFor()) ||
		!e.last.IsZero() && now.Sub(e.last) < e.period/2 {
		return false
	}
	e.shifted, e.last = true, now
	e.next(now)
	return true
}

func (e *early) start(now time.Time) {
	e.tm = e.clk.NewTimer()
	e.due, e.shifted = gridAfter(now, e.period), false
	e.tm.Reset(e.armedFor())
}

// next arms the timer for the tick after due, the one just delivered or taken at now;
// after a jump of the clock (a simulation reset, a slow receiver) for the first grid
// instant after now.
func (e *early) next(now time.Time) {
	e.due = e.due.Add(e.period)
	if !now.Before(e.due) || e.due.Sub(now) > 2*e.period {
		e.due = gridAfter(now, e.period)
	}
	e.tm.Reset(e.armedFor())
}

func (e *early) armedFor() time.Time {
	if e.shifted {
		return e.due.Add(e.period / 2)
	}
	return e.due
}

func (e *early) c() <-chan time.Time {
	if e.tm == nil {
		return nil
	}
	return e.tm.C()
}

func (e *early) stop() {
	if e.tm != nil {
		e.tm.Stop()
		e.tm = nil
	}
}

// gridAfter returns the first whole multiple of d since the Unix epoch after t, on the
// wall tickers' grid (clock.GridTime).
func gridAfter(t time.Time, d time.Duration) time.Time {
	rem := time.Duration(clock.GridTime(t) % int64(d))
	if rem < 0 {
		rem += d
	}
	return t.Add(d - rem)
}
