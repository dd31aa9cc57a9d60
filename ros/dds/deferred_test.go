//go:build cgo

package dds

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestReaderDeferred checks a deferred reader: a sample wakes the goroutine only when
// its key (here the body's first byte) differs from the previous sample's, or after
// WakeNext; the others wait in the ring until Sync, which hands them to the handler on
// the caller's goroutine, in order, each with the time it arrived; Eager hands over
// what waits and wakes for every sample again. Writes are local, so the listener has
// run when Write returns and the eventfd's counter tells whether it signalled.
func TestReaderDeferred(t *testing.T) {
	domainDeferred := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainDeferred, "")
	q := QoS{History: KeepAll}
	w, err := p.NewWriter("rt/deferred", testType, q)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	r, err := p.NewReaderLent("rt/deferred", testType, q, func(s Sample) {
		s.Data = append([]byte(nil), s.Data...)
		c.handle(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	if err := r.Defer(WakeRule{{Op: WakeByte}}); err != nil {
		t.Fatal(err)
	}
	write := func(body string) {
		t.Helper()
		if err := w.Write(sample(body)); err != nil {
			t.Fatal(err)
		}
	}
	signals := func(what string, want uint64, f func()) {
		t.Helper()
		before := eventfdCount(t, r)
		f()
		if got := eventfdCount(t, r) - before; got != want {
			t.Errorf("%s: %d signals, want %d", what, got, want)
		}
	}
	signals("the first sample", 1, func() { write("a0") })
	c.wait(t, 1, 10*time.Second)
	start := time.Now()
	signals("two samples of the same key", 0, func() { write("a1"); write("a2") })
	end := time.Now()
	// (No count of the samples handled before Sync here: a goroutine that started after
	// the first write drains at its start and again at the first signal's report, and
	// that second drain may find the two. That they made no signal is the point.)
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
	got := c.wait(t, 3, time.Second) // Sync has returned: no waiting needed
	for i, want := range []string{"a0", "a1", "a2"} {
		if body := string(got[i].Data[4:6]); body != want {
			t.Errorf("sample %d is %q, want %q", i, body, want)
		}
	}
	for i, s := range got[1:] {
		if s.Arrival.Before(start) || s.Arrival.After(end) {
			t.Errorf("sample %d arrived at %v, written between %v and %v", i+1, s.Arrival, start, end)
		}
	}
	if !got[1].Arrival.Before(got[2].Arrival) && !got[1].Arrival.Equal(got[2].Arrival) {
		t.Errorf("arrivals out of order: %v then %v", got[1].Arrival, got[2].Arrival)
	}
	signals("a sample of a new key", 1, func() { write("b0") })
	c.wait(t, 4, 10*time.Second)
	r.WakeNext()
	signals("the sample after WakeNext", 1, func() { write("b1") })
	c.wait(t, 5, 10*time.Second)
	signals("the same key again", 0, func() { write("b2") })
	if err := r.Eager(); err != nil {
		t.Fatal(err)
	}
	if got := len(c.wait(t, 6, time.Second)); got != 6 {
		t.Fatalf("Eager left samples in the ring: %d handled, want 6", got)
	}
	signals("an eager reader's sample", 1, func() { write("b3") })
	c.wait(t, 7, 10*time.Second)

	// Without a rule only a half-full ring wakes: 1 KiB samples, the first 20 wait.
	if err := r.Defer(nil); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1024)
	signals("20 samples of 1 KiB (a third of the ring)", 0, func() {
		for range 20 {
			write(big)
		}
	})
	// Past the half the goroutine is woken; it may empty the ring while the writes go
	// on, so the ring can pass the half once more.
	before := eventfdCount(t, r)
	for range 20 {
		write(big)
	}
	if n := eventfdCount(t, r) - before; n < 1 || n > 2 {
		t.Errorf("20 more (past the half): %d signals, want 1 or 2", n)
	}
	// The goroutine empties what the ring held when it woke; the rest waits for Sync.
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
	c.wait(t, 7+40, 10*time.Second)
	// Nothing arrived since: Sync returns at once, and hands over nothing more.
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := len(c.wait(t, 47, time.Second)); got != 47 {
		t.Errorf("%d samples after a second Sync, want 47", got)
	}
}

// TestWakeRuleEval checks the C evaluator on hand-made bodies: strings skipped,
// alignment counted from the body, the class of a distance with its flag, the rounding
// band around a limit, and bodies it cannot walk.
func TestWakeRuleEval(t *testing.T) {
	le := func(parts ...[]byte) []byte {
		b := []byte{0, 1, 0, 0}
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	f64 := func(v float64) []byte {
		var b [8]byte
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		return b[:]
	}
	// u8 role; string; align 8; x, y; flag.
	rule := WakeRule{{Op: WakeSkip, N: 1}, {Op: WakeString}, {Op: WakeByte}, {Op: WakeClass2, Div: 100, Limits: [2]float64{1, 3}}}
	body := func(s string, flag byte, x, y float64) []byte {
		str := append([]byte{byte(len(s) + 1), 0, 0, 0}, s...)
		str = append(str, 0)
		pre := append([]byte{7, 0, 0, 0}, str...) // role, pad to 4, string
		pre = append(pre, flag)
		for (len(pre))%8 != 0 {
			pre = append(pre, 0)
		}
		return le(pre, f64(x), f64(y))
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		key     string
		certain bool
	}{
		{"near", body("kick", 1, 30, 40), "\x01\x01", true},
		{"mid", body("a longer skill name", 1, 150, 0), "\x01\x02", true},
		{"far", body("", 1, 0, -400), "\x01\x03", true},
		{"not seen", body("kick", 0, 30, 40), "\x00\x00", true},
		{"NaN is far", body("kick", 1, math.NaN(), 0), "\x01\x03", true},
		{"on a limit", body("kick", 1, 60, 80), "\x01\x02", false},
		{"truncated", body("kick", 1, 30, 40)[:20], "", false},
		{"big-endian", append([]byte{0, 0, 0, 0}, body("kick", 1, 30, 40)[4:]...), "", false},
	} {
		key, certain, err := EvalWake(rule, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		if certain != tc.certain || (certain || tc.key != "") && string(key) != tc.key {
			t.Errorf("%s: key %q certain %v, want %q %v", tc.name, key, certain, tc.key, tc.certain)
		}
	}
	for _, bad := range []WakeRule{
		{{Op: WakeClass2, Div: 1, Limits: [2]float64{1, 2}}},
		{{Op: WakeByte}, {Op: WakeClass2, Div: 0, Limits: [2]float64{1, 2}}},
		{{Op: WakeByte}, {Op: WakeClass2, Div: 1, Limits: [2]float64{2, 1}}},
		{{Op: WakeAlign, N: 3}},
		{{Op: 99}},
		make(WakeRule, MaxWakeSteps+1),
	} {
		if _, _, err := EvalWake(bad, sample("x")); !errors.Is(err, ErrWakeRule) {
			t.Errorf("rule %v: %v, want ErrWakeRule", bad, err)
		}
	}

}

// FuzzWakeEval runs the C evaluator on any body with a rule made of the input's first
// bytes: it must never read outside the sample, and a key never exceeds MaxWakeKey.
func FuzzWakeEval(f *testing.F) {
	f.Add([]byte{4, 5, 1, 3, 4, 5}, []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 'a', 0})
	f.Add([]byte{1, 1, 3, 4, 5}, sample("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
	f.Fuzz(func(t *testing.T, ops, data []byte) {
		var rule WakeRule
		for i := 0; i+1 < len(ops) && len(rule) < MaxWakeSteps; i += 2 {
			s := WakeStep{Op: WakeOp(ops[i]%6 + 1), N: uint32(ops[i+1])}
			if s.Op == WakeAlign {
				s.N = 1 << (ops[i+1] % 4)
			}
			if s.Op == WakeClass2 {
				s.Div, s.Limits = float64(ops[i+1]%7+1), [2]float64{1, 3}
			}
			rule = append(rule, s)
		}
		if rule.Validate() != nil {
			return
		}
		key, _, err := EvalWake(rule, append([]byte(nil), data...))
		if err != nil {
			t.Fatal(err)
		}
		if len(key) > MaxWakeKey {
			t.Fatalf("key of %d bytes", len(key))
		}
	})
}

// TestArrivalsPairOnce: arrival stamps map onto time.Now's clock within the pairing's
// precision, and a drain (a fresh arrivals) makes no clock system call once the process
// has paired the clocks: it used to pair them at every drain, sixteen system calls that
// cost a GameController change's GCInfo about 3 µs (BenchmarkGCInfoLatency).
func TestArrivalsPairOnce(t *testing.T) {
	clockPair()
	// The pairing's error is half its tightest bracket: under a loaded race run or qemu
	// that may be tens of microseconds; a wrong offset would be far larger.
	const tol = time.Millisecond
	for i := range 3 {
		before := time.Now()
		m := monotonic()
		after := time.Now()
		reads := clockReads.Load()
		var a arrivals
		got := a.at(m)
		later := a.at(m + int64(time.Second))
		if n := clockReads.Load() - reads; n != 0 {
			t.Fatalf("drain %d: %d clock system calls, want none", i, n)
		}
		if got.Before(before.Add(-tol)) || got.After(after.Add(tol)) {
			t.Fatalf("arrival %v not within %v of [%v, %v]", got, tol, before, after)
		}
		if w, b, e := got.Round(0), before.Round(0), after.Round(0); w.Before(b.Add(-tol)) || w.After(e.Add(tol)) {
			t.Fatalf("arrival's wall time %v not within %v of [%v, %v]", w, tol, b, e)
		}
		if d := later.Sub(got); d != time.Second {
			t.Fatalf("a stamp 1 s later maps %v later", d)
		}
	}
}
