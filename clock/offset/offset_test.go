package offset

import (
	"math/rand/v2"
	"testing"
	"time"
)

var epoch = time.Unix(1700000000, 0)

// link simulates two robots on a network: ours (A) and another (B) whose clock reads
// rate×t + offset at true time t (ours reads t). Both send every period; every packet of
// B answers A's latest packet, as dnet version 2 does, with stamps truncated to whole
// milliseconds.
type link struct {
	offset       time.Duration // B's clock minus ours at t = 0
	rate         float64       // B's clock rate relative to ours
	fwd, back    time.Duration // smallest delay A->B and B->A
	jitter       time.Duration // extra delay, uniform in [0, jitter)
	periodA      time.Duration
	periodB      time.Duration
	stepAt, step time.Duration // at true time stepAt, B's clock is set by step (0: never)
	// bad, when set, is asked about every packet of B as it arrives (n counts them from
	// 0): a packet it returns true for is replaced by the sample it returns (a packet
	// corrupted on the way, or forged).
	bad func(n int, honest Sample) (Sample, bool)
}

// clockB is B's clock at true time t (an offset from epoch).
func (l *link) clockB(t time.Duration) time.Duration {
	b := time.Duration(float64(t)*l.rate) + l.offset
	if l.step != 0 && t >= l.stepAt {
		b += l.step
	}
	return b
}

// truncMs truncates a stamp to whole milliseconds, downwards (as a stamp counting from
// the epoch is; the simulated clocks may read negative).
func truncMs(d time.Duration) time.Duration {
	t := d.Truncate(time.Millisecond)
	if t > d {
		t -= time.Millisecond
	}
	return t
}

// run plays the exchange for dur and calls check after every observation with the true
// offset at that time.
func (l *link) run(t *testing.T, e *Estimator, dur time.Duration, seed uint64, check func(now time.Duration, truth time.Duration, est Estimate)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	delay := func(base time.Duration) time.Duration {
		if l.jitter == 0 {
			return base
		}
		return base + time.Duration(rng.Int64N(int64(l.jitter)))
	}
	type event struct {
		at   time.Duration // true time
		kind int           // 0: A sends, 1: B sends, 2: A's packet reaches B, 3: B's packet reaches A
		s    time.Duration // stamp
		e1   time.Duration // echoed stamp (kind 3)
		hold time.Duration // hold (kind 3)
		echo bool
	}
	var queue []event
	push := func(ev event) {
		i := len(queue)
		queue = append(queue, ev)
		for i > 0 && queue[i-1].at > ev.at {
			queue[i], queue[i-1] = queue[i-1], queue[i]
			i--
		}
	}
	push(event{at: 0, kind: 0})
	push(event{at: l.periodB / 3, kind: 1})
	var lastA time.Duration   // stamp of A's latest packet heard by B
	var recvAtB time.Duration // B's clock when it arrived
	heard := false
	nB := 0
	for len(queue) > 0 {
		ev := queue[0]
		queue = queue[1:]
		if ev.at > dur {
			break
		}
		switch ev.kind {
		case 0:
			s := truncMs(ev.at)
			push(event{at: ev.at + delay(l.fwd), kind: 2, s: s})
			push(event{at: ev.at + l.periodA, kind: 0})
		case 2:
			lastA, recvAtB, heard = ev.s, l.clockB(ev.at), true
		case 1:
			s := truncMs(l.clockB(ev.at))
			out := event{at: ev.at + delay(l.back), kind: 3, s: s}
			if heard {
				out.echo, out.e1, out.hold = true, lastA, s-truncMs(recvAtB)
				heard = false
			}
			push(out)
			push(event{at: ev.at + l.periodB, kind: 1})
		case 3:
			now := epoch.Add(ev.at)
			smp := Sample{Lower: ev.s - ev.at, HasLower: true}
			if ev.echo {
				t2 := ev.s - ev.hold
				smp.Upper, smp.HasUpper = t2-ev.e1+time.Millisecond, true
			}
			if l.bad != nil {
				if b, ok := l.bad(nB, smp); ok {
					smp = b
				}
			}
			nB++
			e.Observe(smp, now)
			check(ev.at, l.clockB(ev.at)-ev.at, e.Estimate(now))
		}
	}
}

func TestConvergesWithinBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    link
		// after settle, Bound must be at most want
		settle time.Duration
		want   time.Duration
	}{
		{"zero offset, 1 ms each way", link{fwd: time.Millisecond, back: time.Millisecond, rate: 1, periodA: 100 * time.Millisecond, periodB: 100 * time.Millisecond}, time.Second, 2 * time.Millisecond},
		{"ahead 3.7 s, asymmetric", link{offset: 3700 * time.Millisecond, fwd: 4 * time.Millisecond, back: 700 * time.Microsecond, rate: 1, periodA: 67 * time.Millisecond, periodB: 250 * time.Millisecond}, time.Second, 3500 * time.Microsecond},
		{"behind 42 days, jitter 30 ms", link{offset: -42 * 24 * time.Hour, fwd: 2 * time.Millisecond, back: 2 * time.Millisecond, jitter: 30 * time.Millisecond, rate: 1, periodA: 100 * time.Millisecond, periodB: 100 * time.Millisecond}, 20 * time.Second, 5 * time.Millisecond},
		{"drift 80 ppm, blind robot at 1 Hz", link{offset: -1234567 * time.Microsecond, fwd: time.Millisecond, back: 3 * time.Millisecond, jitter: 10 * time.Millisecond, rate: 1 + 80e-6, periodA: 400 * time.Millisecond, periodB: time.Second}, 30 * time.Second, 10 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e Estimator
			var checked, known int
			tc.l.run(t, &e, 2*time.Minute, 7, func(now, truth time.Duration, est Estimate) {
				checked++
				if est.HasLower && est.Lower > truth || est.HasUpper && est.Upper < truth {
					t.Fatalf("at %v: truth %v outside [%v, %v] (%+v)", now, truth, est.Lower, est.Upper, est)
				}
				if !est.Known {
					if now > tc.settle {
						t.Fatalf("at %v: still unknown: %+v", now, est)
					}
					return
				}
				known++
				if d := est.Offset - truth; d > est.Bound || -d > est.Bound {
					t.Fatalf("at %v: offset %v, truth %v, error %v > bound %v", now, est.Offset, truth, d, est.Bound)
				}
				if now > tc.settle && est.Bound > tc.want {
					t.Fatalf("at %v: bound %v > %v after %v", now, est.Bound, tc.want, tc.settle)
				}
			})
			if checked < 100 || known < checked/2 {
				t.Fatalf("%d observations, %d known", checked, known)
			}
			if j := e.Estimate(epoch.Add(2 * time.Minute)).Jumps; j != 0 {
				t.Errorf("%d jumps without a clock being set", j)
			}
		})
	}
}

// A clock set during the game: the bounds contradict, the old side is dropped, and the
// estimate converges to the new offset.
func TestClockSet(t *testing.T) {
	for _, step := range []time.Duration{5 * time.Second, -90 * time.Millisecond} {
		l := link{offset: time.Second, fwd: time.Millisecond, back: time.Millisecond, jitter: 5 * time.Millisecond, rate: 1,
			periodA: 100 * time.Millisecond, periodB: 200 * time.Millisecond, stepAt: 30 * time.Second, step: step}
		var e Estimator
		l.run(t, &e, time.Minute, 3, func(now, truth time.Duration, est Estimate) {
			if now < 32*time.Second && now >= 30*time.Second {
				return // the exchange in flight when the clock was set mixes both offsets
			}
			if now > 5*time.Second && !est.Contains(truth) {
				t.Fatalf("step %v at %v: truth %v not in %+v", step, now, truth, est)
			}
		})
		est := e.Estimate(epoch.Add(time.Minute))
		if est.Jumps == 0 {
			t.Errorf("step %v: no jump counted", step)
		}
		if est.Bound > 4*time.Millisecond {
			t.Errorf("step %v: bound %v after re-converging", step, est.Bound)
		}
	}
}

func TestBoundsByHand(t *testing.T) {
	var e Estimator
	e.Config = Config{Drift: 1e-3}
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	if est := e.Estimate(epoch); est.Known || est.HasLower || est.HasUpper {
		t.Fatalf("empty estimator: %+v", est)
	}
	// A side stands on its second tightest observation: one is not enough.
	e.Lower(ms(10), epoch)
	if est := e.Estimate(epoch); est.Known || est.HasLower {
		t.Fatalf("one lower observation: %+v", est)
	}
	e.Lower(ms(8), epoch)
	if est := e.Estimate(epoch); est.Known || !est.HasLower || est.Lower != ms(8) {
		t.Fatalf("two lower observations: %+v", est)
	}
	e.Upper(ms(30), epoch)
	e.Upper(ms(32), epoch)
	est := e.Estimate(epoch)
	if !est.Known || est.Lower != ms(8) || est.Upper != ms(32) || est.Offset != ms(20) || est.Bound != ms(12) {
		t.Fatalf("both sides: %+v", est)
	}
	// One second later each side has loosened by 1 ms (1000 ppm).
	est = e.Estimate(epoch.Add(time.Second))
	if est.Lower != ms(7) || est.Upper != ms(33) || est.Bound != ms(13) {
		t.Fatalf("aged: %+v", est)
	}
	// An hour later it is still known, only wider: 3.6 s each way.
	if est := e.Estimate(epoch.Add(time.Hour)); !est.Known || est.Lower != ms(8-3600) || est.Upper != ms(32+3600) {
		t.Fatalf("an hour later: %+v", est)
	}
	// A looser fresh lower bound does not replace the aged tighter ones.
	t1 := epoch.Add(time.Second)
	if o := e.Lower(ms(6.5), t1); o != Used {
		t.Fatalf("looser bound: %v", o)
	}
	if est := e.Estimate(t1); est.Lower != ms(7) {
		t.Fatalf("looser bound taken: %+v", est)
	}
	// A tighter one moves the second tightest up to the old tightest (10 ms aged to 9).
	e.Lower(ms(15), t1)
	if est := e.Estimate(t1); est.Lower != ms(9) || est.Offset != ms(21) {
		t.Fatalf("tighter bound: %+v", est)
	}
	// An upper bound below the lower one contradicts the estimate: rejected, counted,
	// and the estimate stands.
	t2 := epoch.Add(2 * time.Second)
	if o := e.Upper(-time.Second, t2); o != Rejected {
		t.Fatalf("contradicting bound: %v", o)
	}
	est = e.Estimate(t2)
	if !est.Known || est.Lower != ms(8) || est.Upper != ms(34) || est.Rejected != 1 || est.Jumps != 0 || est.Confirming != 1 {
		t.Fatalf("after a contradicting bound: %+v", est)
	}
	// An upper bound cannot refute a candidate that only has an upper side; an agreeing
	// lower bound above the candidate's upper side does.
	e.Upper(ms(33), t2)
	if est := e.Estimate(t2); est.Confirming != 1 || est.Upper != ms(33) {
		t.Fatalf("candidate refuted by an upper bound: %+v", est)
	}
	e.Lower(ms(8.5), t2)
	if est := e.Estimate(t2); est.Confirming != 0 || est.Lower != ms(8.5) {
		t.Fatalf("candidate not refuted: %+v", est)
	}
	// Three packets that agree with each other and not with the estimate, bounding both
	// sides, replace it: the other clock was set back by a second.
	t3 := epoch.Add(3 * time.Second)
	for i, s := range []Sample{
		{Upper: ms(-980), HasUpper: true},
		{Lower: ms(-1010), HasLower: true, Upper: ms(-985), HasUpper: true},
		{Lower: ms(-1015), HasLower: true, Upper: ms(-990), HasUpper: true},
	} {
		want := Rejected
		if i == 2 {
			want = Replaced
		}
		if o := e.Observe(s, t3); o != want {
			t.Fatalf("step packet %d: %v, want %v (%+v)", i, o, want, e.Estimate(t3))
		}
	}
	est = e.Estimate(t3)
	if !est.Known || est.Lower != ms(-1015) || est.Upper != ms(-985) || est.Jumps != 1 || est.Rejected != 4 || est.Confirming != 0 {
		t.Fatalf("after the step: %+v", est)
	}
	// Observations from the future (our clock went back) count as fresh.
	if est := e.Estimate(epoch); est.Lower != ms(-1015) {
		t.Fatalf("our clock back: %+v", est)
	}
	if o := e.Observe(Sample{}, t3); o != Empty {
		t.Fatalf("empty sample: %v", o)
	}
	e.Reset()
	if est := e.Estimate(t3); est.Known || est.HasUpper || est.Jumps != 1 || est.Rejected != 4 {
		t.Fatalf("after Reset: %+v", est)
	}
}

// A candidate that is not confirmed in time is forgotten: two contradicting packets far
// apart never replace the estimate.
func TestCandidateTimeout(t *testing.T) {
	e := Estimator{Config: Config{CandidateTimeout: time.Second}}
	for _, s := range []Sample{{Lower: -1, HasLower: true, Upper: 1, HasUpper: true}, {Lower: -2, HasLower: true, Upper: 2, HasUpper: true}} {
		e.Observe(s, epoch)
	}
	step := Sample{Lower: time.Second, HasLower: true, Upper: time.Second + 2, HasUpper: true}
	for i := range 5 {
		at := epoch.Add(time.Duration(i) * 1100 * time.Millisecond)
		if o := e.Observe(step, at); o != Rejected {
			t.Fatalf("packet %d: %v", i, o)
		}
		if c := e.Estimate(at).Confirming; c != 1 {
			t.Fatalf("packet %d: %d confirming", i, c)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	if (Config{}).drift() != DefaultDrift || (Config{Drift: -1}).drift() != 0 || (Config{}).confirm() != DefaultConfirm ||
		(Config{Confirm: 1}).confirm() != 2 || (Config{}).candidateTimeout() != DefaultCandidateTimeout {
		t.Error("defaults")
	}
	for o := Used; o <= Empty+1; o++ {
		if o.String() == "" {
			t.Error("no name")
		}
	}
}
