package builtin_interfaces

import (
	"testing"
	"time"
)

func TestDurationConversion(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want Duration
	}{
		{0, Duration{}},
		{1500 * time.Millisecond, Duration{Sec: 1, Nanosec: 500_000_000}},
		{-1500 * time.Millisecond, Duration{Sec: -2, Nanosec: 500_000_000}},
		{-time.Second, Duration{Sec: -1}},
		{-time.Nanosecond, Duration{Sec: -1, Nanosec: 999_999_999}},
	} {
		got := NewDuration(tc.d)
		if got != tc.want {
			t.Errorf("NewDuration(%v) = %+v, want %+v", tc.d, got, tc.want)
		}
		if back := got.Duration(); back != tc.d {
			t.Errorf("%+v.Duration() = %v, want %v", got, back, tc.d)
		}
	}
}

// TestDurationClamped: a duration beyond the int32 seconds (68 years, as a clock
// offset to a teammate whose clock reads year 1 would be) is clamped like NewTime's
// times, not wrapped into one of the other sign.
func TestDurationClamped(t *testing.T) {
	const year = 365 * 24 * time.Hour
	if got := NewDuration(100 * year); got != (Duration{Sec: 1<<31 - 1, Nanosec: 999_999_999}) {
		t.Errorf("NewDuration(100 years) = %+v, want the largest", got)
	}
	if got := NewDuration(-100 * year); got != (Duration{Sec: -1 << 31}) {
		t.Errorf("NewDuration(-100 years) = %+v, want the smallest", got)
	}
}

func TestTimeConversion(t *testing.T) {
	now := time.Date(2026, 7, 1, 12, 0, 0, 123456789, time.UTC)
	m := NewTime(now)
	if m != (Time{Sec: int32(now.Unix()), Nanosec: 123456789}) || !m.Time().Equal(now) {
		t.Errorf("NewTime(%v) = %+v -> %v", now, m, m.Time())
	}
	later := NewTime(now.Add(1500 * time.Millisecond))
	if d := later.Sub(m); d != 1500*time.Millisecond {
		t.Errorf("Sub = %v", d)
	}
	if d := m.Sub(later); d != -1500*time.Millisecond {
		t.Errorf("Sub = %v", d)
	}
	if got := NewTime(time.Unix(1<<40, 0)); got.Sec != 1<<31-1 {
		t.Errorf("far future not clamped: %+v", got)
	}
	if got := NewTime(time.Unix(-1<<40, 0)); got != (Time{Sec: -1 << 31}) {
		t.Errorf("far past not clamped: %+v", got)
	}
	// The zero time.Time is what a ROS clock on simulation time reads before the first
	// /clock: ROS time 0, as rclcpp stamps it, not the far past.
	if got := NewTime(time.Time{}); got != (Time{}) {
		t.Errorf("NewTime(zero time) = %+v, want time 0", got)
	}
}
