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
}

// clockB is B's clock at true time t (an offset from epoch).
func (l *link) clockB(t time.Duration) time.Duration {
	b := time.Duration(float64(t)*l.rate) + l.offset
	if l.step != 0 && t >= l.stepAt {
		b += l.step
	}
	return b
}

func truncMs(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }

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
			e.Lower(ev.s-ev.at, now)
			if ev.echo {
				t2 := ev.s - ev.hold
				e.Upper(t2-ev.e1+time.Millisecond, now)
			}
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
	e.Config = Config{Drift: 1e-3, Window: 10 * time.Second}
	if est := e.Estimate(epoch); est.Known || est.HasLower || est.HasUpper {
		t.Fatalf("empty estimator: %+v", est)
	}
	e.Lower(10*time.Millisecond, epoch)
	if est := e.Estimate(epoch); est.Known || !est.HasLower || est.Lower != 10*time.Millisecond {
		t.Fatalf("one side: %+v", est)
	}
	e.Upper(30*time.Millisecond, epoch)
	est := e.Estimate(epoch)
	if !est.Known || est.Offset != 20*time.Millisecond || est.Bound != 10*time.Millisecond {
		t.Fatalf("both sides: %+v", est)
	}
	// One second later each side has loosened by 1 ms (1000 ppm).
	est = e.Estimate(epoch.Add(time.Second))
	if est.Lower != 9*time.Millisecond || est.Upper != 31*time.Millisecond || est.Bound != 11*time.Millisecond {
		t.Fatalf("aged: %+v", est)
	}
	// A looser fresh lower bound does not replace the aged tighter one.
	e.Lower(8500*time.Microsecond, epoch.Add(time.Second))
	if est := e.Estimate(epoch.Add(time.Second)); est.Lower != 9*time.Millisecond {
		t.Fatalf("looser bound taken: %+v", est)
	}
	e.Lower(15*time.Millisecond, epoch.Add(time.Second))
	if est := e.Estimate(epoch.Add(time.Second)); est.Lower != 15*time.Millisecond || est.Offset != 23*time.Millisecond {
		t.Fatalf("tighter bound: %+v", est)
	}
	// An upper bound below the lower one: a clock was set.
	e.Upper(-time.Second, epoch.Add(2*time.Second))
	est = e.Estimate(epoch.Add(2 * time.Second))
	if est.Known || est.HasLower || !est.HasUpper || est.Upper != -time.Second || est.Jumps != 1 {
		t.Fatalf("after a jump: %+v", est)
	}
	// Expiry: nothing after the window.
	if est := e.Estimate(epoch.Add(13 * time.Second)); est.HasUpper {
		t.Fatalf("expired bound kept: %+v", est)
	}
	// Our clock set back: old bounds go. (The lower bound 0 first contradicts the upper
	// bound -1 s: a second jump.)
	e.Lower(0, epoch.Add(2*time.Second))
	e.Upper(time.Millisecond, epoch)
	if est := e.Estimate(epoch); est.HasLower || !est.HasUpper {
		t.Fatalf("after our clock went back: %+v", est)
	}
	e.Reset()
	if est := e.Estimate(epoch); est.HasUpper || est.Jumps != 2 {
		t.Fatalf("after Reset: %+v", est)
	}
}

func TestConfigDefaults(t *testing.T) {
	if (Config{}).drift() != DefaultDrift || (Config{Drift: -1}).drift() != 0 || (Config{}).window() != DefaultWindow {
		t.Error("defaults")
	}
}
