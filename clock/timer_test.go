package clock

import (
	"testing"
	"time"
)

func fired(tm Timer) (time.Time, bool) {
	select {
	case v := <-tm.C():
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestManualTimer(t *testing.T) {
	start := time.Unix(100, 0)
	c := NewManual(start)
	tm := c.NewTimer()
	if _, ok := fired(tm); ok {
		t.Fatal("a new timer fired")
	}
	c.Advance(time.Hour)
	if _, ok := fired(tm); ok {
		t.Fatal("a disarmed timer fired")
	}

	now := c.Now()
	tm.Reset(now.Add(time.Second))
	c.Advance(999 * time.Millisecond)
	if _, ok := fired(tm); ok {
		t.Fatal("fired early")
	}
	c.Advance(5 * time.Second) // a jump past the time fires once, with the clock's time
	if v, ok := fired(tm); !ok || !v.Equal(now.Add(5999*time.Millisecond)) {
		t.Fatalf("firing %v %v", v, ok)
	}
	c.Advance(10 * time.Second)
	if _, ok := fired(tm); ok {
		t.Fatal("fired twice for one arming")
	}

	// A time already reached fires at once.
	tm.Reset(c.Now())
	if v, ok := fired(tm); !ok || !v.Equal(c.Now()) {
		t.Fatalf("past time: %v %v", v, ok)
	}

	// Reset discards an unreceived firing and replaces the arming.
	tm.Reset(c.Now().Add(time.Second))
	c.Advance(time.Second) // fires, not received
	tm.Reset(c.Now().Add(3 * time.Second))
	if _, ok := fired(tm); ok {
		t.Fatal("a firing of the earlier arming survived Reset")
	}
	c.Advance(2 * time.Second)
	if _, ok := fired(tm); ok {
		t.Fatal("fired at the earlier arming's time")
	}
	c.Advance(time.Second)
	if _, ok := fired(tm); !ok {
		t.Fatal("did not fire at the new time")
	}

	// Stop discards an unreceived firing, and the timer never fires again.
	tm.Reset(c.Now().Add(time.Second))
	c.Advance(time.Second)
	tm.Stop()
	if _, ok := fired(tm); ok {
		t.Fatal("an unreceived firing survived Stop")
	}
	c.Advance(time.Minute)
	if _, ok := fired(tm); ok {
		t.Fatal("fired after Stop")
	}
}

func TestManualTimerSetBack(t *testing.T) {
	c := NewManual(time.Unix(1000, 0))
	tm := c.NewTimer()
	tm.Reset(time.Unix(2000, 0))
	c.Set(time.Unix(10, 0)) // simulation reset
	if v, ok := fired(tm); !ok || !v.Equal(time.Unix(10, 0)) {
		t.Fatalf("set back: %v %v", v, ok)
	}
	c.Set(time.Unix(3000, 0))
	if _, ok := fired(tm); ok {
		t.Fatal("fired again without a new arming")
	}
}

func TestManualTimerBeforeFirstSet(t *testing.T) {
	var c Manual
	tm := c.NewTimer()
	tm.Reset(time.Unix(50, 0)) // the zero time is before it: armed
	if _, ok := fired(tm); ok {
		t.Fatal("fired before the clock had a time")
	}
	c.Set(time.Unix(40, 0))
	if _, ok := fired(tm); ok {
		t.Fatal("fired early")
	}
	c.Set(time.Unix(50, 0))
	if _, ok := fired(tm); !ok {
		t.Fatal("did not fire")
	}
}
