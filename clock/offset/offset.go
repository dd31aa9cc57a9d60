package offset

import (
	"time"
)

// Defaults of Config.
const (
	// DefaultDrift is the rate two robots' clocks may run apart: 100 ppm, twice the
	// tolerance of a common quartz oscillator. A bound observed a minute ago has
	// loosened by 6 ms.
	DefaultDrift = 100e-6
	// DefaultConfirm is how many packets that contradict the estimate must agree with
	// each other before the estimate is replaced by theirs.
	DefaultConfirm = 3
	// DefaultCandidateTimeout is how long a candidate waits for its next confirming
	// packet before it is forgotten.
	DefaultCandidateTimeout = 10 * time.Second
)

// keep is how many observations each side of an interval keeps (the tightest ones).
const keep = 4

// Config tunes an Estimator; the zero value means the defaults.
type Config struct {
	// Drift is the largest rate at which the two clocks run apart, as a fraction (1e-4 is
	// 100 ppm); each bound loosens by Drift times its age. 0: DefaultDrift; negative: 0.
	Drift float64
	// Confirm is how many packets that contradict the estimate, and agree with each
	// other, replace it (a clock was set); 0: DefaultConfirm; at least 2.
	Confirm int
	// CandidateTimeout is how long a candidate estimate waits for its next confirming
	// packet; 0: DefaultCandidateTimeout.
	CandidateTimeout time.Duration
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

func (c Config) confirm() int {
	if c.Confirm == 0 {
		return DefaultConfirm
	}
	return max(c.Confirm, 2)
}

func (c Config) candidateTimeout() time.Duration {
	if c.CandidateTimeout <= 0 {
		return DefaultCandidateTimeout
	}
	return c.CandidateTimeout
}

// Sample is what one packet tells about the offset: a lower bound (its stamp minus our
// receive time), an upper bound (from an echo of one of our packets), or both.
type Sample struct {
	Lower, Upper       time.Duration
	HasLower, HasUpper bool
}

// Outcome is what an Estimator did with one Sample.
type Outcome uint8

const (
	// Used: the sample agrees with the estimate and was kept where it tightens it.
	Used Outcome = iota
	// Rejected: the sample contradicts the estimate; it was not used, only held as
	// evidence that a clock was set.
	Rejected
	// Replaced: the sample confirmed enough rejected ones: a clock was set, and the
	// estimate now rests on the samples that showed it.
	Replaced
	// Empty: the sample bounds nothing.
	Empty
)

func (o Outcome) String() string {
	switch o {
	case Used:
		return "used"
	case Rejected:
		return "rejected"
	case Replaced:
		return "replaced"
	case Empty:
		return "empty"
	}
	return "outcome(?)"
}

// obs is one observation of a bound: its value and our clock's time when it was made.
type obs struct {
	v  time.Duration
	at time.Time
}

// side keeps the tightest observations of one side of an interval, up to keep of them.
type side struct {
	o [keep]obs
	n int
	// proven says that an observation was forgotten because the other side's bound
	// contradicted it: it was dishonest, so a lone survivor may stand for the side.
	proven bool
}

// interval is a set of lower and upper observations.
type interval struct {
	lo, hi side
}

// Estimator estimates the other clock minus ours. Its zero value is ready to use with
// the default Config.
type Estimator struct {
	Config Config

	main interval
	// cand gathers the samples that contradict main, to replace it once confirmed.
	cand     interval
	candOn   bool
	candN    int       // packets that contradicted main and agreed with cand
	candLast time.Time // the last of them

	rejected, jumps uint64
}

// Estimate is an Estimator's answer at one time of our clock.
type Estimate struct {
	// Known says that both sides are bounded, so Offset and Bound hold. Once known, an
	// estimate stays known: its bound only widens with age.
	Known bool
	// Offset is the other clock minus ours: the middle of [Lower, Upper].
	Offset time.Duration
	// Bound is the largest error of Offset: half the width of [Lower, Upper].
	Bound time.Duration
	// Lower and Upper bound the offset (each valid when HasLower, HasUpper), loosened by
	// the drift since they were observed.
	Lower, Upper       time.Duration
	HasLower, HasUpper bool
	// Rejected counts the samples that contradicted the estimate and were not used.
	Rejected uint64
	// Jumps counts how often confirmed contradicting samples replaced the estimate (a
	// clock was set).
	Jumps uint64
	// Confirming is how many packets back a pending replacement (0: none pending).
	Confirming int
}

// Contains reports whether the estimate is known and d lies within its bound.
func (e Estimate) Contains(d time.Duration) bool {
	return e.Known && d >= e.Lower && d <= e.Upper
}

// Lower records one packet that says the offset is at least v, observed at our clock's
// time at: a packet stamped S by the other clock and received at R = at by ours gives
// v = S - R. Round v down when S or R is truncated (a truncated S keeps the bound).
func (e *Estimator) Lower(v time.Duration, at time.Time) Outcome {
	return e.Observe(Sample{Lower: v, HasLower: true}, at)
}

// Upper records one packet that says the offset is at most v, observed at our clock's
// time at: an echo of our packet stamped T1 by our clock, received by the other robot at
// T2 by its clock, gives v = T2 - T1. Round v up when T1 or T2 is truncated: with both in
// whole milliseconds, v = T2 - T1 + 1 ms.
func (e *Estimator) Upper(v time.Duration, at time.Time) Outcome {
	return e.Observe(Sample{Upper: v, HasUpper: true}, at)
}

// Observe records what one packet, received at our clock's time at, says about the
// offset. A sample that agrees with the estimate is used; one that contradicts it is
// rejected and counted, and kept as a candidate: when Config.Confirm contradicting
// packets agree with each other (and bound both sides), they replace the estimate.
func (e *Estimator) Observe(s Sample, at time.Time) Outcome {
	if !s.HasLower && !s.HasUpper {
		return Empty
	}
	if s.HasLower && s.HasUpper && s.Lower > s.Upper {
		// No offset fits the packet itself: it is not evidence of anything, not even
		// of a clock that was set.
		e.rejected++
		return Rejected
	}
	d := e.Config.drift()
	if e.candOn && at.Sub(e.candLast) > e.Config.candidateTimeout() {
		e.dropCandidate()
	}
	if !e.main.contradicts(s, at, d, false) {
		e.main.add(s, at, d)
		if e.candOn {
			if e.cand.contradicts(s, at, d, true) {
				e.dropCandidate() // an agreeing packet refutes the candidate
			} else {
				e.cand.add(s, at, d) // it may bound the candidate's other side
			}
		}
		return Used
	}
	e.rejected++
	if e.candOn && !e.cand.contradicts(s, at, d, true) {
		e.cand.add(s, at, d)
		e.candN++
	} else {
		e.cand = interval{}
		e.cand.add(s, at, d)
		e.candOn, e.candN = true, 1
	}
	e.candLast = at
	if e.candN >= e.Config.confirm() {
		if _, _, ok := e.cand.effective(at, d); ok {
			e.main = e.cand
			e.dropCandidate()
			e.jumps++
			return Replaced
		}
	}
	return Rejected
}

func (e *Estimator) dropCandidate() {
	e.cand, e.candOn, e.candN = interval{}, false, 0
}

// Estimate returns the estimate at our clock's time now.
func (e *Estimator) Estimate(now time.Time) Estimate {
	r := Estimate{Rejected: e.rejected, Jumps: e.jumps}
	if e.candOn {
		r.Confirming = e.candN
	}
	d := e.Config.drift()
	r.Lower, r.HasLower = e.main.lo.bound(now, d, -1)
	r.Upper, r.HasUpper = e.main.hi.bound(now, d, +1)
	if r.HasLower && r.HasUpper && r.Lower <= r.Upper {
		r.Known = true
		r.Offset = r.Lower + (r.Upper-r.Lower)/2
		r.Bound = r.Upper - r.Offset
	}
	return r
}

// Reset forgets every observation and any candidate (the counts are kept).
func (e *Estimator) Reset() {
	e.main = interval{}
	e.dropCandidate()
}

// aged returns o's value at now: moved outwards (down for a lower bound, sign -1; up for
// an upper one, +1) by the drift over its age. An observation from the future (our clock
// went back) has age 0.
func aged(o obs, now time.Time, drift float64, sign int) time.Duration {
	age := max(now.Sub(o.at), 0)
	slack := time.Duration(float64(age) * drift)
	if sign < 0 {
		return o.v - slack
	}
	return o.v + slack
}

// tighter reports whether a is a tighter bound than b on a side of sign.
func tighter(a, b time.Duration, sign int) bool {
	if sign < 0 {
		return a > b
	}
	return a < b
}

// rank returns the side's observations aged to now, tightest first.
func (s *side) rank(now time.Time, drift float64, sign int) ([keep]time.Duration, int) {
	var v [keep]time.Duration
	for i := range s.n {
		x := aged(s.o[i], now, drift, sign)
		j := i
		for j > 0 && tighter(x, v[j-1], sign) {
			v[j] = v[j-1]
			j--
		}
		v[j] = x
	}
	return v, s.n
}

// best returns the side's tightest aged value.
func (s *side) best(now time.Time, drift float64, sign int) (time.Duration, bool) {
	v, n := s.rank(now, drift, sign)
	return v[0], n > 0
}

// bound returns the value the side stands for: its second tightest aged value, so that
// no single observation decides it; or, when every observation but one was forgotten
// as dishonest (proven), that one. With at most one dishonest packet the survivor is
// honest: the forgotten observation lay beyond the other side's bound, which one
// dishonest packet cannot move past the truth.
func (s *side) bound(now time.Time, drift float64, sign int) (time.Duration, bool) {
	v, n := s.rank(now, drift, sign)
	if n == 1 && s.proven {
		return v[0], true
	}
	return v[1], n > 1
}

// insert keeps o if it is among the side's keep tightest at o.at.
func (s *side) insert(o obs, drift float64, sign int) {
	if s.n < keep {
		s.o[s.n] = o
		s.n++
		return
	}
	// Replace the loosest, if o is tighter than it.
	worst := 0
	for i := 1; i < s.n; i++ {
		if tighter(aged(s.o[worst], o.at, drift, sign), aged(s.o[i], o.at, drift, sign), sign) {
			worst = i
		}
	}
	if tighter(o.v, aged(s.o[worst], o.at, drift, sign), sign) {
		s.o[worst] = o
	}
}

// drop removes every observation whose aged value lies beyond limit (above it for a
// lower side, below it for an upper one).
func (s *side) drop(limit time.Duration, now time.Time, drift float64, sign int) {
	n := 0
	for i := range s.n {
		if tighter(aged(s.o[i], now, drift, sign), limit, sign) {
			s.proven = true
			continue
		}
		s.o[n] = s.o[i]
		n++
	}
	s.n = n
}

// limits returns the bounds a sample is checked against: each side's bound, or with
// strict its tightest value, when there is one.
func (iv *interval) limits(now time.Time, drift float64, strict bool) (lo, hi time.Duration, hasLo, hasHi bool) {
	if strict {
		lo, hasLo = iv.lo.best(now, drift, -1)
		hi, hasHi = iv.hi.best(now, drift, +1)
		return
	}
	lo, hasLo = iv.lo.bound(now, drift, -1)
	hi, hasHi = iv.hi.bound(now, drift, +1)
	return
}

// contradicts reports whether s leaves the interval empty: a lower bound above its upper
// limit or an upper bound below its lower limit. The limits are the sides' bounds, or
// with strict (a candidate, which any contradiction refutes) their tightest values.
func (iv *interval) contradicts(s Sample, at time.Time, drift float64, strict bool) bool {
	lo, hi, hasLo, hasHi := iv.limits(at, drift, strict)
	return s.HasLower && hasHi && s.Lower > hi || s.HasUpper && hasLo && s.Upper < lo
}

// add records s, then forgets observations that the other side's bound contradicts (kept
// before that side was bounded).
func (iv *interval) add(s Sample, at time.Time, drift float64) {
	if s.HasLower {
		iv.lo.insert(obs{s.Lower, at}, drift, -1)
	}
	if s.HasUpper {
		iv.hi.insert(obs{s.Upper, at}, drift, +1)
	}
	if hi, ok := iv.hi.bound(at, drift, +1); ok {
		iv.lo.drop(hi, at, drift, -1)
	}
	if lo, ok := iv.lo.bound(at, drift, -1); ok {
		iv.hi.drop(lo, at, drift, +1)
	}
}

// effective returns the interval's bounds at now when both sides are bounded and they
// do not cross.
func (iv *interval) effective(now time.Time, drift float64) (lo, hi time.Duration, ok bool) {
	lo, hasLo := iv.lo.bound(now, drift, -1)
	hi, hasHi := iv.hi.bound(now, drift, +1)
	return lo, hi, hasLo && hasHi && lo <= hi
}
