package offset

import (
	"time"
)

// Defaults of Config.
const (
	// DefaultDrift is the rate two robots' clocks may run apart: 100 ppm, twice the
	// tolerance of a common quartz oscillator.
	DefaultDrift = 100e-6
	// DefaultWindow is how long a bound is kept.
	DefaultWindow = time.Minute
)

// Config tunes an Estimator; the zero value means the defaults.
type Config struct {
	// Drift is the largest rate at which the two clocks run apart, as a fraction (1e-4 is
	// 100 ppm); each bound loosens by Drift times its age. 0: DefaultDrift; negative: 0.
	Drift float64
	// Window is how long a bound is kept; 0: DefaultWindow.
	Window time.Duration
}

func (c Config) drift() float64 {
	switch {
	case c.Drift == 0:
		return DefaultDrift
	case c.Drift < 0:
		return 0
	}
	return c.Drift
}

func (c Config) window() time.Duration {
	if c.Window <= 0 {
		return DefaultWindow
	}
	return c.Window
}

// bound is one side's tightest observation: the value and our clock's time when it
// was made.
type bound struct {
	v  time.Duration
	at time.Time
	ok bool
}

// Estimator estimates the other clock minus ours. Its zero value is ready to use with
// the default Config.
type Estimator struct {
	Config Config

	lo, hi bound
	jumps  uint64
}

// Estimate is an Estimator's answer at one time of our clock.
type Estimate struct {
	// Known says that both sides are bounded, so Offset and Bound hold.
	Known bool
	// Offset is the other clock minus ours: the middle of [Lower, Upper].
	Offset time.Duration
	// Bound is the largest error of Offset: half the width of [Lower, Upper].
	Bound time.Duration
	// Lower and Upper bound the offset (each valid when HasLower, HasUpper), loosened by
	// the drift since they were observed.
	Lower, Upper       time.Duration
	HasLower, HasUpper bool
	// Jumps counts the bounds forgotten because a new one contradicted them.
	Jumps uint64
}

// Contains reports whether the estimate is known and d lies within its bound.
func (e Estimate) Contains(d time.Duration) bool {
	return e.Known && d >= e.Lower && d <= e.Upper
}

// Lower records that the offset is at least v, observed at our clock's time at: a
// packet stamped S by the other clock and received at R = at by ours gives v = S - R.
// Round v down when S or R is truncated (a truncated S keeps the bound).
func (e *Estimator) Lower(v time.Duration, at time.Time) {
	e.add(&e.lo, &e.hi, v, at, -1)
}

// Upper records that the offset is at most v, observed at our clock's time at: an echo
// of our packet stamped T1 by our clock, received by the other robot at T2 by its clock,
// gives v = T2 - T1. Round v up when T1 or T2 is truncated: with both in whole
// milliseconds, v = T2 - T1 + 1 ms.
func (e *Estimator) Upper(v time.Duration, at time.Time) {
	e.add(&e.hi, &e.lo, v, at, +1)
}

// add records a bound on side b (sign -1: lower, +1: upper); other is the other side.
func (e *Estimator) add(b, other *bound, v time.Duration, at time.Time, sign int) {
	w := e.Config.window()
	for _, s := range []*bound{b, other} {
		// Forget bounds from the future (our clock was set back) and expired ones.
		if s.ok && (at.Before(s.at) || at.Sub(s.at) > w) {
			*s = bound{}
		}
	}
	if other.ok {
		o := e.loosen(*other, at, -sign)
		if sign < 0 && v > o || sign > 0 && v < o {
			*other = bound{} // a clock was set: the other side no longer holds
			e.jumps++
		}
	}
	if !b.ok || sign < 0 && v >= e.loosen(*b, at, sign) || sign > 0 && v <= e.loosen(*b, at, sign) {
		*b = bound{v: v, at: at, ok: true}
	}
}

// loosen returns b's value at now: moved outwards (down for a lower bound, sign -1; up
// for an upper one, +1) by the drift over its age.
func (e *Estimator) loosen(b bound, now time.Time, sign int) time.Duration {
	age := now.Sub(b.at)
	if age < 0 {
		age = 0
	}
	slack := time.Duration(float64(age) * e.Config.drift())
	if sign < 0 {
		return b.v - slack
	}
	return b.v + slack
}

// Estimate returns the estimate at our clock's time now.
func (e *Estimator) Estimate(now time.Time) Estimate {
	r := Estimate{Jumps: e.jumps}
	w := e.Config.window()
	if e.lo.ok && now.Sub(e.lo.at) <= w && !now.Before(e.lo.at) {
		r.Lower, r.HasLower = e.loosen(e.lo, now, -1), true
	}
	if e.hi.ok && now.Sub(e.hi.at) <= w && !now.Before(e.hi.at) {
		r.Upper, r.HasUpper = e.loosen(e.hi, now, +1), true
	}
	if r.HasLower && r.HasUpper && r.Lower <= r.Upper {
		r.Known = true
		r.Offset = r.Lower + (r.Upper-r.Lower)/2
		r.Bound = r.Upper - r.Offset
	}
	return r
}

// Reset forgets every bound (the jump count is kept).
func (e *Estimator) Reset() {
	e.lo, e.hi = bound{}, bound{}
}
