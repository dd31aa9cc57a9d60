package worldinfo

import (
	"cmp"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"math"
	"slices"
	"time"
)

const (
	// maxSpeed and maxTurnRate bound a plausible robot motion; faster odometry changes
	// are odometry resets.
	maxSpeed    = 5           // m/s
	maxTurnRate = 4 * math.Pi // rad/s
)

// normAngle returns a in (-pi, pi].
func normAngle(a float64) float64 {
	a = math.Remainder(a, 2*math.Pi) // [-pi, pi]
	if a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// frame turns values in the robot's convention (ROS: y left, counter-clockwise angles,
// the robot's field frame) into the wire's (see the package documentation).
type frame struct {
	flip   bool // our team attacks towards -x: turn field values by 180 degrees
	mirror bool // Fawkes' handedness: y right, clockwise angles
}

// fieldPoint converts a field position or a field-frame vector.
func (f frame) fieldPoint(x, y float64) (float64, float64) {
	if f.flip {
		x, y = -x, -y
	}
	if f.mirror {
		y = -y
	}
	return x, y
}

// heading converts a field-frame heading.
func (f frame) heading(th float64) float64 {
	if f.flip {
		th += math.Pi
	}
	if f.mirror {
		th = -th
	}
	return normAngle(th)
}

// rate converts an angular rate.
func (f frame) rate(w float64) float64 {
	if f.mirror {
		return -w
	}
	return w
}

// polar converts a robot-relative position to distance and bearing (0 ahead; positive
// to the right in Fawkes' handedness, to the left in the ROS one).
func (f frame) polar(x, y float64) (dist, bearing float64) {
	if f.mirror {
		y = -y
	}
	return math.Hypot(x, y), math.Atan2(y, x)
}

// odoSample is one accumulated odometry reading: x, y in cm, heading in degrees.
type odoSample struct {
	valid   bool
	stamped bool // t is MotionInfo.timestamp, not the arrival time
	t       time.Time
	x, y    float64
	th      float64
}

// odoVelocity returns the mean robot-frame velocity between two odometry samples
// (forward and left in m/s, turn rate in rad/s, counter-clockwise), or false when the
// samples do not give one: no time between them, or a motion too fast to be real.
func odoVelocity(a, b odoSample) (fwd, left, w float64, ok bool) {
	dt := b.t.Sub(a.t).Seconds()
	if !(dt > 0) || !finite(a.x, a.y, a.th, b.x, b.y, b.th) {
		return 0, 0, 0, false
	}
	dth := normAngle(units.Radians(b.th - a.th))
	mid := units.Radians(a.th) + dth/2
	dx, dy := units.Metres(b.x-a.x), units.Metres(b.y-a.y)
	sin, cos := math.Sincos(mid)
	fwd, left, w = (cos*dx+sin*dy)/dt, (-sin*dx+cos*dy)/dt, dth/dt
	if math.Hypot(fwd, left) > maxSpeed || math.Abs(w) > maxTurnRate {
		return 0, 0, 0, false
	}
	return fwd, left, w, true
}

// rotate turns (x, y) by th counter-clockwise.
func rotate(x, y, th float64) (float64, float64) {
	sin, cos := math.Sincos(th)
	return cos*x - sin*y, sin*x + cos*y
}

// point is a position in metres.
type point struct{ x, y float64 }

// track is an opponent the tracker follows: its uid and its position in the frame the
// tracker matches in.
type track struct {
	uid uint32
	pos point
}

type match struct {
	d      float64
	tr, ob int
}

// tracker gives obstacles the stable uids Fawkes requires: each update matches the new
// obstacles to the previous ones by nearest neighbour within a gate; unmatched obstacles
// get fresh uids, unmatched tracks disappear and their uids are never used again.
type tracker struct {
	last   uint32 // last uid handed out
	field  bool   // tracks are field positions (else robot-relative)
	tracks []track

	// scratch, reused
	next    []track
	gone    []uint32
	matches []match
	trUsed  []bool
	obUID   []uint32
}

// update matches obs (positions in the field frame if field, else robot-relative) and
// returns their uids, in the order of obs, and the uids that disappeared. The returned
// slices are valid until the next call.
func (t *tracker) update(obs []point, field bool, gate float64) (uids, gone []uint32) {
	t.gone = t.gone[:0]
	if field != t.field {
		for _, tr := range t.tracks {
			t.gone = append(t.gone, tr.uid)
		}
		t.tracks, t.field = t.tracks[:0], field
	}
	t.matches = t.matches[:0]
	for i, tr := range t.tracks {
		for j, o := range obs {
			if d := math.Hypot(tr.pos.x-o.x, tr.pos.y-o.y); d <= gate {
				t.matches = append(t.matches, match{d: d, tr: i, ob: j})
			}
		}
	}
	slices.SortFunc(t.matches, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.tr, b.tr), cmp.Compare(a.ob, b.ob))
	})
	t.trUsed = append(t.trUsed[:0], make([]bool, len(t.tracks))...)
	t.obUID = append(t.obUID[:0], make([]uint32, len(obs))...)
	for _, m := range t.matches {
		if !t.trUsed[m.tr] && t.obUID[m.ob] == 0 {
			t.trUsed[m.tr], t.obUID[m.ob] = true, t.tracks[m.tr].uid
		}
	}
	t.next = t.next[:0]
	for j, o := range obs {
		if t.obUID[j] == 0 {
			t.last++
			if t.last == 0 { // after 2^32 uids; 0 is never handed out
				t.last = 1
			}
			t.obUID[j] = t.last
		}
		t.next = append(t.next, track{uid: t.obUID[j], pos: o})
	}
	for i, tr := range t.tracks {
		if !t.trUsed[i] {
			t.gone = append(t.gone, tr.uid)
		}
	}
	t.tracks, t.next = t.next, t.tracks
	return t.obUID, t.gone
}

// reset forgets every track and returns their uids.
func (t *tracker) reset() (gone []uint32) {
	t.gone = t.gone[:0]
	for _, tr := range t.tracks {
		t.gone = append(t.gone, tr.uid)
	}
	t.tracks = t.tracks[:0]
	return t.gone
}
