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
