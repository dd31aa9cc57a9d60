package clock

import (
	"testing"
	"time"
)

func recv(t *testing.T, tk Ticker) (time.Time, bool) {
	t.Helper()
	select {
	case v := <-tk.C():
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestManualTicker(t *testing.T) {
	start := time.Unix(100, 0)
	c := NewManual(start)
	tk := c.NewTicker(time.Second)
	defer tk.Stop()

	c.Advance(999 * time.Millisecond)
	if _, ok := recv(t, tk); ok {
		t.Fatal("ticked early")
	}
	c.Advance(time.Millisecond)
	if v, ok := recv(t, tk); !ok || !v.Equal(start.Add(time.Second)) {
		t.Fatalf("tick %v %v", v, ok)
	}
	// Missing several periods gives one tick, and the phase is kept.
	c.Advance(3500 * time.Millisecond)
	if _, ok := recv(t, tk); !ok {
		t.Fatal("no tick after a long advance")
	}
	if _, ok := recv(t, tk); ok {
		t.Fatal("more than one tick buffered")
	}
	c.Advance(400 * time.Millisecond) // now start+4.9 s: next tick at 5 s
	if _, ok := recv(t, tk); ok {
		t.Fatal("phase lost")
	}
	c.Advance(100 * time.Millisecond)
	if _, ok := recv(t, tk); !ok {
		t.Fatal("no tick at 5 s")
	}
	// Going back in time restarts the ticker from there.
	c.Set(start)
	c.Advance(time.Second)
	if _, ok := recv(t, tk); !ok {
		t.Fatal("no tick after reset")
	}
	// Stop discards a tick not yet received, and nothing comes after it.
	c.Advance(time.Second)
	tk.Stop()
	if _, ok := recv(t, tk); ok {
		t.Fatal("a tick sent before Stop was delivered after it")
	}
	c.Advance(10 * time.Second)
	if _, ok := recv(t, tk); ok {
		t.Fatal("tick after Stop")
	}
}

func TestManualZeroValueStartsAtFirstSet(t *testing.T) {
	var c Manual
	tk := c.NewTicker(time.Second)
	defer tk.Stop()
	c.Set(time.Unix(50, 0))
	if _, ok := recv(t, tk); ok {
		t.Fatal("ticked at the first Set")
	}
	c.Advance(time.Second)
	if v, ok := recv(t, tk); !ok || !v.Equal(time.Unix(51, 0)) {
		t.Fatalf("tick %v %v", v, ok)
	}
}

func TestUntilGrid(t *testing.T) {
	base := time.Unix(1_700_000_000, 0) // a whole second
	for _, tc := range []struct {
		now  time.Time
		d    time.Duration
		want time.Duration
	}{
		{base, time.Second, time.Second}, // on the grid: the next instant, not now
		{base.Add(1), time.Second, time.Second - 1},
		{base.Add(300 * time.Millisecond), 500 * time.Millisecond, 200 * time.Millisecond},
		{base.Add(700 * time.Millisecond), 500 * time.Millisecond, 300 * time.Millisecond},
		{base.Add(10 * time.Millisecond), time.Second / 30, time.Second/30 - time.Duration(base.Add(10*time.Millisecond).UnixNano()%int64(time.Second/30))},
		{time.Unix(-1, 0), time.Second, time.Second},
		{time.Unix(0, -250), time.Microsecond, 250 * time.Nanosecond},
	} {
		got := untilGrid(tc.now, tc.d)
		if got != tc.want {
			t.Errorf("untilGrid(%v, %v) = %v, want %v", tc.now.UnixNano(), tc.d, got, tc.want)
		}
		if at := tc.now.Add(got).UnixNano(); at%int64(tc.d) != 0 {
			t.Errorf("untilGrid(%v, %v) = %v: lands %d ns off the grid", tc.now.UnixNano(), tc.d, got, at%int64(tc.d))
		}
	}
}

func TestWithin(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, c := range []struct {
		off  time.Duration // t - now
		want bool
	}{{0, true}, {-time.Second, true}, {time.Second, true}, {-time.Second - 1, false}, {time.Second + 1, false}, {-time.Hour, false}, {time.Hour, false}} {
		if got := Within(now, now.Add(c.off), time.Second); got != c.want {
			t.Errorf("Within(now, now%+v, 1s) = %v, want %v", c.off, got, c.want)
		}
	}
}
