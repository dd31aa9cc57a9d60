package world

import "math"

// Vec is a point or a vector on the field, in metres.
type Vec struct{ X, Y float64 }

// Add returns v + u.
func (v Vec) Add(u Vec) Vec { return Vec{v.X + u.X, v.Y + u.Y} }

// Sub returns v - u.
func (v Vec) Sub(u Vec) Vec { return Vec{v.X - u.X, v.Y - u.Y} }

// Scale returns k·v.
func (v Vec) Scale(k float64) Vec { return Vec{k * v.X, k * v.Y} }

// Len returns the length of v.
func (v Vec) Len() float64 { return math.Hypot(v.X, v.Y) }

// Dist returns the distance between v and u.
func (v Vec) Dist(u Vec) float64 { return v.Sub(u).Len() }

// Angle returns the direction of v in radians, (-π, π].
func (v Vec) Angle() float64 { return math.Atan2(v.Y, v.X) }

// Unit returns v scaled to length 1, or the zero vector for a zero v.
func (v Vec) Unit() Vec {
	l := v.Len()
	if l == 0 {
		return Vec{}
	}
	return v.Scale(1 / l)
}

// Rotate returns v turned by a radians.
func (v Vec) Rotate(a float64) Vec {
	s, c := math.Sincos(a)
	return Vec{c*v.X - s*v.Y, s*v.X + c*v.Y}
}

// Polar returns the vector of length r in direction a.
func Polar(r, a float64) Vec {
	s, c := math.Sincos(a)
	return Vec{r * c, r * s}
}

// Pose is a robot's position in metres and heading in radians.
type Pose struct {
	X, Y, Theta float64
}

// Pos returns the position of p.
func (p Pose) Pos() Vec { return Vec{p.X, p.Y} }

// ToRobot returns the field point q in the robot's frame: x forward, y to the left.
func (p Pose) ToRobot(q Vec) Vec { return q.Sub(p.Pos()).Rotate(-p.Theta) }

// NormAngle returns a in (-π, π].
func NormAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a <= -math.Pi:
		a += 2 * math.Pi
	}
	return a
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// sign returns -1 for negative v and 1 otherwise.
func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
