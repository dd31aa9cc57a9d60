package linkq

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var t0 = time.Unix(1_700_000_000, 0)

const offset = 3250 * time.Millisecond // the sender's clock minus ours

// send feeds packet i of a 30 Hz sender whose packet took delay to arrive.
func send(tr *Tracker, seq uint32, i int, delay time.Duration) time.Time {
	sent := time.Duration(i) * time.Second / 30
	at := t0.Add(sent + delay)
	stamp := offset + sent // the sender's clock, ours + offset
	tr.Observe(seq, true, false, time.Duration(at.UnixNano()-t0.UnixNano())-stamp, at)
	return at
}

func TestLossDelayJitter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tr Tracker
	var at time.Time
	var delays []time.Duration
	lost := 0
	for i := range 600 { // 20 s
		d := 20*time.Millisecond + time.Duration(rng.Int64N(int64(20*time.Millisecond))) - 10*time.Millisecond
		if i%10 == 3 {
			if i >= 300 {
				lost++
			}
			continue
		}
		at = send(&tr, uint32(1000+i), i, d)
		if i >= 300 {
			delays = append(delays, d)
		}
	}
	// The window holds the last 10 s: packets 300 .. 599 minus the lost ones (the
	// first may just fall out: allow one).
	q := tr.Quality(at, offset, 500*time.Microsecond, true)
	if q.Expected < 298 || q.Expected > 300 || q.Lost != 30 || math.Abs(q.Loss-0.1) > 0.002 {
		t.Fatalf("loss: %+v", q)
	}
	var sum, diff time.Duration
	for i, d := range delays {
		sum += d
		if i > 0 {
			diff += (d - delays[i-1]).Abs()
		}
	}
	mean, jitter := sum/time.Duration(len(delays)), diff/time.Duration(len(delays)-1)
	if !q.DelayKnown || (q.Delay-mean).Abs() > 200*time.Microsecond || q.DelayBound != 1500*time.Microsecond {
		t.Fatalf("delay %v ± %v, want %v", q.Delay, q.DelayBound, mean)
	}
	if !q.JitterKnown || (q.Jitter-jitter).Abs() > 200*time.Microsecond {
		t.Fatalf("jitter %v, want %v", q.Jitter, jitter)
	}
	// Uniform over ±10 ms: 2j/3 = 6.7 ms.
	if q.Jitter < 6*time.Millisecond || q.Jitter > 7500*time.Microsecond {
		t.Fatalf("jitter %v, want about 6.7 ms", q.Jitter)
	}
	if math.Abs(q.Rate-27) > 0.5 || q.Age != 0 || q.Duplicates != 0 || q.Reordered != 0 {
		t.Fatalf("%+v", q)
	}
	if q := tr.Quality(at, 0, 0, false); q.DelayKnown || !q.JitterKnown {
		t.Fatalf("without the offset: %+v", q)
	}
	t.Logf("loss %.3f, delay %v (true mean %v), jitter %v (true %v)", q.Loss, q.Delay, mean, q.Jitter, jitter)
}

func TestDuplicatesAndReorders(t *testing.T) {
	var tr Tracker
	ms := time.Millisecond
	for _, p := range []struct {
		seq uint32
		i   int
	}{{10, 0}, {11, 1}, {13, 3}, {12, 2}, {12, 2}, {14, 4}, {11, 1}, {15, 5}} {
		send(&tr, p.seq, p.i, 5*ms)
	}
	at := t0.Add(time.Second)
	q := tr.Quality(at, offset, 0, true)
	if q.Received != 6 || q.Expected != 6 || q.Lost != 0 || q.Loss != 0 || q.Duplicates != 2 || q.Reordered != 1 ||
		q.TotalDuplicates != 2 || q.TotalReordered != 1 {
		t.Fatalf("%+v", q)
	}
	if q.Delay != 5*ms || q.Age != time.Second-5*time.Second/30-5*ms {
		t.Fatalf("delay %v age %v", q.Delay, q.Age)
	}
}

func TestWindowAndRestart(t *testing.T) {
	var tr Tracker
	if q := tr.Quality(t0, 0, 0, true); q.HasPacket || q.Received != 0 || !math.IsNaN(q.Loss) || q.DelayKnown || q.JitterKnown {
		t.Fatalf("empty: %+v", q)
	}
	var at time.Time
	for i := range 30 {
		at = send(&tr, uint32(i*2), i, 0) // every other number lost
	}
	if q := tr.Quality(at, offset, 0, true); q.Expected != 59 || q.Received != 30 {
		t.Fatalf("%+v", q)
	}
	// 11 s later the window is empty; the age still shows.
	late := at.Add(11 * time.Second)
	if q := tr.Quality(late, offset, 0, true); q.Received != 0 || !math.IsNaN(q.Loss) || q.Age != 11*time.Second || !q.HasPacket {
		t.Fatalf("after silence: %+v", q)
	}
	// A restart of the numbering (told, or a jump) starts afresh.
	tr.Observe(5, true, true, offset, late)
	tr.Observe(6, true, false, offset, late)
	tr.Observe(6+MaxJump+1, true, false, offset, late)
	tr.Observe(6+MaxJump+2, true, false, offset, late)
	if q := tr.Quality(late, 0, 0, false); q.Expected != 2 || q.Received != 2 || q.TotalDuplicates != 0 {
		t.Fatalf("after restarts: %+v", q)
	}
	// Packets without numbers count, with no loss figure.
	var un Tracker
	un.Observe(0, false, false, 0, t0)
	un.Observe(0, false, false, 0, t0.Add(time.Second))
	if q := un.Quality(t0.Add(time.Second), 0, 0, false); q.Received != 2 || !math.IsNaN(q.Loss) || q.Rate != 1 {
		t.Fatalf("unnumbered: %+v", q)
	}
}

// Memory is bounded: a flood keeps the newest MaxEntries packets.
func TestBounded(t *testing.T) {
	var tr Tracker
	for i := range 5 * MaxEntries {
		tr.Observe(uint32(i), true, false, 0, t0.Add(time.Duration(i)*time.Microsecond))
	}
	q := tr.Quality(t0.Add(time.Second), 0, 0, false)
	if len(tr.ring) != MaxEntries || q.Received != MaxEntries || q.Expected != MaxEntries || q.Lost != 0 {
		t.Fatalf("%d entries: %+v", len(tr.ring), q)
	}
}

// FuzzTracker: any sequence of packets keeps the invariants.
func FuzzTracker(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 5, 2, 0, 0, 0, 7, 2, 0, 0, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr Tracker
		tr.Window = time.Second
		now := t0
		for len(data) >= 5 {
			seq := uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24
			now = now.Add(time.Duration(data[4]) * 10 * time.Millisecond)
			tr.Observe(seq, data[4]&1 == 0, data[4]&2 != 0, time.Duration(data[4])*time.Millisecond, now)
			data = data[5:]
			q := tr.Quality(now, 0, 0, true)
			if q.Received > q.Expected && q.Expected > 0 || q.Lost != max(q.Expected-q.Received, 0) || q.Loss < 0 || q.Loss > 1 || len(tr.ring) > MaxEntries {
				t.Fatalf("%+v", q)
			}
		}
	})
}

// The duplicate check agrees with a plain set of the numbers within seenBits of the
// newest, whatever the order.
func TestDuplicateBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var tr Tracker
	got := map[uint32]bool{}
	var top uint32
	dups := uint64(0)
	for i := range 20000 {
		seq := top + uint32(rng.IntN(200)) - 100
		if i == 0 {
			seq = 1000
		}
		if i > 0 && int32(top-seq) < seenBits && got[seq] {
			dups++
		}
		tr.Observe(seq, true, false, 0, t0)
		got[seq] = true
		if i == 0 || int32(seq-top) > 0 {
			top = seq
		}
		if tr.dups != dups {
			t.Fatalf("packet %d (seq %d, top %d): %d duplicates, want %d", i, seq, top, tr.dups, dups)
		}
	}
}
