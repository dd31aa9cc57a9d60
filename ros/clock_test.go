package ros

import (
	"testing"
	"time"
)

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
