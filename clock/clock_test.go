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
	tk.Stop()
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

func TestWall(t *testing.T) {
	tk := Wall.NewTicker(time.Millisecond)
	defer tk.Stop()
	select {
	case <-tk.C():
	case <-time.After(5 * time.Second):
		t.Fatal("wall ticker did not tick")
	}
	if d := time.Since(Wall.Now()); d < 0 || d > time.Second {
		t.Fatalf("wall clock off by %v", d)
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

// TestWallTickerGrid checks that wall tickers of 20 ms and 40 ms tick once per grid
// interval (the tick's time lies in a later interval each time) and never after Stop.
func TestWallTickerGrid(t *testing.T) {
	for _, d := range []time.Duration{20 * time.Millisecond, 40 * time.Millisecond} {
		tk := Wall.NewTicker(d)
		last := int64(-1)
		for range 4 {
			select {
			case now := <-tk.C():
				k := now.UnixNano() / int64(d)
				if k <= last {
					t.Fatalf("period %v: tick in grid interval %d after one in %d", d, k, last)
				}
				last = k
			case <-time.After(5 * time.Second):
				t.Fatalf("period %v: no tick", d)
			}
		}
		tk.Stop()
		select {
		case <-tk.C(): // at most one tick was buffered before Stop
		default:
		}
		select {
		case <-tk.C():
			t.Fatalf("period %v: tick after Stop", d)
		case <-time.After(3 * d):
		}
	}
}
