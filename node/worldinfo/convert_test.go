package worldinfo

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/units"
)

const eps = 1e-6

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

func TestNormAngle(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0}, {math.Pi, math.Pi}, {-math.Pi, math.Pi}, {3 * math.Pi, math.Pi},
		{1.5 * math.Pi, -0.5 * math.Pi}, {-1.5 * math.Pi, 0.5 * math.Pi}, {2 * math.Pi, 0},
		{0.25, 0.25}, {-7, -7 + 2*math.Pi},
	} {
		if got := normAngle(tc.in); !near(got, tc.want) {
			t.Errorf("normAngle(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestFrame(t *testing.T) {
	type out struct{ x, y, th, w, dist, bearing float64 }
	// Input: field point (1, 2), heading 30 deg, rate 0.5, relative point (3, 4).
	th := units.Radians(30)
	for _, tc := range []struct {
		name string
		f    frame
		want out
	}{
		{"ros", frame{}, out{1, 2, th, 0.5, 5, math.Atan2(4, 3)}},
		{"fawkes", frame{mirror: true}, out{1, -2, -th, -0.5, 5, -math.Atan2(4, 3)}},
		{"ros attacking left", frame{flip: true}, out{-1, -2, th - math.Pi, 0.5, 5, math.Atan2(4, 3)}},
		{"fawkes attacking left", frame{flip: true, mirror: true}, out{-1, 2, math.Pi - th, -0.5, 5, -math.Atan2(4, 3)}},
	} {
		x, y := tc.f.fieldPoint(1, 2)
		dist, bearing := tc.f.polar(3, 4)
		got := out{x, y, tc.f.heading(th), tc.f.rate(0.5), dist, bearing}
		if !near(got.x, tc.want.x) || !near(got.y, tc.want.y) || !near(got.th, tc.want.th) ||
			!near(got.w, tc.want.w) || !near(got.dist, tc.want.dist) || !near(got.bearing, tc.want.bearing) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestOdoVelocity(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := func(dt time.Duration, x, y, th float64) odoSample {
		return odoSample{valid: true, t: t0.Add(dt), x: x, y: y, th: th}
	}
	half := 500 * time.Millisecond
	mid5 := units.Radians(5)
	for _, tc := range []struct {
		name         string
		a, b         odoSample
		fwd, left, w float64
		ok           bool
	}{
		{"forward", s(0, 0, 0, 0), s(half, 50, 0, 0), 1, 0, 0, true},
		{"left in a turned odometry frame", s(0, 10, 10, 90), s(half, 10, 60, 90), 1, 0, 0, true},
		{"backwards", s(0, 0, 0, 180), s(half, 25, 0, 180), -0.5, 0, 0, true},
		{"sideways", s(0, 0, 0, 0), s(time.Second, 0, -30, 0), 0, -0.3, 0, true},
		// 0.5 m along odometry x while turning 10 degrees: the mean heading is 5 degrees.
		{"arc", s(0, 0, 0, 0), s(half, 50, 0, 10), math.Cos(mid5), -math.Sin(mid5), units.Radians(20), true},
		{"turn across 180", s(0, 0, 0, 170), s(half, 0, 0, -170), 0, 0, units.Radians(40), true},
		{"no time", s(0, 0, 0, 0), s(0, 50, 0, 0), 0, 0, 0, false},
		{"time backwards", s(half, 0, 0, 0), s(0, 50, 0, 0), 0, 0, 0, false},
		{"odometry reset", s(0, 1000, 0, 0), s(half, 0, 0, 0), 0, 0, 0, false},
		{"spin reset", s(0, 0, 0, 0), s(10*time.Millisecond, 0, 0, 179), 0, 0, 0, false},
		{"NaN", s(0, 0, 0, 0), s(half, math.NaN(), 0, 0), 0, 0, 0, false},
	} {
		fwd, left, w, ok := odoVelocity(tc.a, tc.b)
		if ok != tc.ok || !near(fwd, tc.fwd) || !near(left, tc.left) || !near(w, tc.w) {
			t.Errorf("%s: got (%v, %v, %v, %v), want (%v, %v, %v, %v)",
				tc.name, fwd, left, w, ok, tc.fwd, tc.left, tc.w, tc.ok)
		}
	}
}

func TestTracker(t *testing.T) {
	var tr tracker
	step := func(name string, field bool, obs []point, wantUIDs, wantGone []uint32) {
		t.Helper()
		uids, gone := tr.update(obs, field, 0.5)
		if !slices.Equal(uids, wantUIDs) || !slices.Equal(gone, wantGone) {
			t.Errorf("%s: uids %v gone %v, want %v and %v", name, uids, gone, wantUIDs, wantGone)
		}
	}
	step("first sight", true, []point{{1, 0}, {3, 0}}, []uint32{1, 2}, nil)
	step("both moved a little, order swapped", true, []point{{3.2, 0.1}, {1.3, 0}}, []uint32{2, 1}, nil)
	step("one jumped beyond the gate", true, []point{{1.3, 0}, {4, 0}}, []uint32{1, 3}, []uint32{2})
	// Two obstacles compete for track 1 at (1.3, 0): the nearer wins, the other is new.
	step("nearest wins", true, []point{{1.7, 0}, {1.4, 0}, {4, 0.1}}, []uint32{4, 1, 3}, nil)
	step("all gone", true, nil, nil, []uint32{4, 1, 3})
	step("back at an old place: a new uid", true, []point{{1.4, 0}}, []uint32{5}, nil)
	step("frame switch forgets", false, []point{{1.4, 0}}, []uint32{6}, []uint32{5})
	if gone := tr.reset(); !slices.Equal(gone, []uint32{6}) {
		t.Errorf("reset: gone %v", gone)
	}
	if gone := tr.reset(); len(gone) != 0 {
		t.Errorf("second reset: gone %v", gone)
	}
	step("after reset", false, []point{{1.4, 0}}, []uint32{7}, nil)

	tr.last = math.MaxUint32
	step("uid wraps past 0", false, []point{{1.4, 0}, {9, 9}}, []uint32{7, 1}, nil)
}
