package warnlimit

import (
	"testing"
	"time"
)

func TestAllow(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	type step struct {
		cause      string
		at         time.Duration // after t0
		ok         bool
		suppressed uint64
	}
	for _, tc := range []struct {
		name  string
		every time.Duration
		steps []step
	}{
		{"first record of a cause passes", 10 * time.Second, []step{
			{"a", 0, true, 0}, {"b", 0, true, 0},
		}},
		{"held back within the interval, counted on the next", 10 * time.Second, []step{
			{"a", 0, true, 0}, {"a", time.Second, false, 0}, {"a", 9 * time.Second, false, 0},
			{"a", 10 * time.Second, true, 2}, {"a", 11 * time.Second, false, 0},
			{"a", 20 * time.Second, true, 1},
		}},
		{"causes are independent", 10 * time.Second, []step{
			{"a", 0, true, 0}, {"b", time.Second, true, 0}, {"a", 2 * time.Second, false, 0},
			{"b", 3 * time.Second, false, 0}, {"b", 11 * time.Second, true, 1},
			{"a", 10 * time.Second, true, 1},
		}},
		{"same instant is held back", 10 * time.Second, []step{
			{"a", 0, true, 0}, {"a", 0, false, 0}, {"a", 10 * time.Second, true, 1},
		}},
		{"clock went back", 10 * time.Second, []step{
			{"a", 5 * time.Second, true, 0}, {"a", 6 * time.Second, false, 0},
			{"a", 0, true, 1}, {"a", time.Second, false, 0},
		}},
		{"no interval", 0, []step{
			{"a", 0, true, 0}, {"a", 0, true, 0}, {"a", time.Second, true, 0},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Limiter[string]{Every: tc.every}
			for i, s := range tc.steps {
				ok, n := l.Allow(s.cause, t0.Add(s.at))
				if ok != s.ok || n != s.suppressed {
					t.Fatalf("step %d (%s at %v): Allow = %v, %d; want %v, %d", i, s.cause, s.at, ok, n, s.ok, s.suppressed)
				}
			}
		})
	}
}

func TestZeroTimeIsATime(t *testing.T) {
	// A clock may start at the zero time; a record at that time still starts the interval.
	l := Limiter[int]{Every: time.Second}
	if ok, _ := l.Allow(1, time.Time{}); !ok {
		t.Fatal("first record held back")
	}
	if ok, _ := l.Allow(1, time.Time{}); ok {
		t.Fatal("second record at the same zero time let through")
	}
}

func BenchmarkAllowHeldBack(b *testing.B) {
	b.ReportAllocs()
	l := Limiter[uint8]{Every: time.Hour}
	now := time.Unix(1700000000, 0)
	l.Allow(3, now)
	for b.Loop() {
		l.Allow(3, now)
	}
}
