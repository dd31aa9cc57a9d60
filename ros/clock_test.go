package ros

import (
	"testing"
	"time"
)

func recvTick(t *testing.T, tk Ticker) (time.Time, bool) {
	t.Helper()
	select {
	case v := <-tk.C():
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestManualClockTicker(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := NewManualClock(t0)
	tk := c.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	c.Advance(99 * time.Millisecond)
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("tick before the period elapsed")
	}
	c.Advance(time.Millisecond)
	if v, ok := recvTick(t, tk); !ok || !v.Equal(t0.Add(100*time.Millisecond)) {
		t.Fatalf("tick at 100 ms: %v %v", v, ok)
	}
	// Missing several periods gives one tick and keeps the phase: next at 500 ms.
	c.Set(t0.Add(450 * time.Millisecond))
	if _, ok := recvTick(t, tk); !ok {
		t.Fatal("no tick after missed periods")
	}
	c.Set(t0.Add(499 * time.Millisecond))
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("tick before 500 ms")
	}
	c.Set(t0.Add(500 * time.Millisecond))
	if _, ok := recvTick(t, tk); !ok {
		t.Fatal("no tick at 500 ms")
	}
	// A slow receiver loses ticks instead of blocking the clock.
	c.Advance(100 * time.Millisecond)
	c.Advance(100 * time.Millisecond)
	if _, ok := recvTick(t, tk); !ok {
		t.Fatal("no buffered tick")
	}
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("more than one buffered tick")
	}
	// A jump back (simulation reset) restarts the ticker from the new time.
	c.Set(t0)
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("tick on a jump back")
	}
	c.Advance(100 * time.Millisecond)
	if _, ok := recvTick(t, tk); !ok {
		t.Fatal("no tick one period after the reset")
	}
	tk.Stop()
	c.Advance(time.Second)
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("tick after Stop")
	}
}

func TestManualClockUnset(t *testing.T) {
	var c ManualClock
	if !c.Now().IsZero() {
		t.Fatalf("unset clock reads %v", c.Now())
	}
	tk := c.NewTicker(time.Second)
	defer tk.Stop()
	c.Set(time.Unix(5000, 0)) // first time: the ticker starts here, it does not fire
	if _, ok := recvTick(t, tk); ok {
		t.Fatal("tick on the first Set")
	}
	c.Advance(time.Second)
	if v, ok := recvTick(t, tk); !ok || v.Unix() != 5001 {
		t.Fatalf("tick %v %v", v, ok)
	}
}

func TestROSClockSwitchesToSimTime(t *testing.T) {
	var c ROSClock
	if d := time.Since(c.Now()); d < 0 || d > time.Second {
		t.Fatalf("ROS clock without sim time reads %v", c.Now())
	}
	tk := c.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	select {
	case <-tk.C():
	case <-time.After(2 * time.Second):
		t.Fatal("no wall-clock tick")
	}
	c.setSim(true)
	sim := time.Unix(42, 0)
	c.setSimTime(sim)
	if !c.Now().Equal(sim) || !c.SimActive() {
		t.Fatalf("sim time %v, active %v", c.Now(), c.SimActive())
	}
	// Drain a wall tick that may have been forwarded before the switch.
	select {
	case <-tk.C():
	case <-time.After(50 * time.Millisecond):
	}
	select {
	case v := <-tk.C():
		t.Fatalf("wall tick %v while sim time is active and frozen", v)
	case <-time.After(100 * time.Millisecond):
	}
	c.setSimTime(sim.Add(20 * time.Millisecond))
	select {
	case v := <-tk.C():
		if !v.Equal(sim.Add(20 * time.Millisecond)) {
			t.Fatalf("sim tick carries %v", v)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no sim tick")
	}
	tk.Stop()
	tk.Stop() // twice is fine
}
