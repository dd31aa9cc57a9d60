package world

import (
	"math"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
)

// FuzzStep drives a world with arbitrary referee changes and time steps and checks
// that it stays sane: every value finite, robots and ball near the field, one goalie
// and one striker among the robots on the field, and inputs that say the same as the
// world.
func FuzzStep(f *testing.F) {
	f.Add([]byte{0x13, 0x03, 0x40, 0x63, 0x23, 0x83, 0xff, 0x03})
	f.Add([]byte{0x01, 0x11, 0x21, 0x32, 0x43, 0x53, 0x63, 0x73, 0x84, 0x90})
	f.Add([]byte("playing with every set play and penalty, twice over"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 400 {
			ops = ops[:400]
		}
		c := DefaultConfig(5)
		c.FallRate = 0.2
		w, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		f := c.Field
		var m dmsgs.MotionInfo
		var b dmsgs.BehaviorInfo
		var v dmsgs.VisionInfo
		for i, op := range ops {
			r := Referee{
				Connected: op&0x80 == 0, State: op & 0x07 % 6, Stopped: op&0x08 != 0,
				SetPlay: op >> 4 & 0x07, SetPlayOurs: i%2 == 0, KickOff: i%3 == 0, KickOffRunning: op&0x40 != 0,
				FirstHalf: i < len(ops)/2,
			}
			for id := 1; id <= 5; id++ {
				r.Penalised = (int(op)+id)%7 == 0
				w.SetReferee(id, r)
			}
			for range 1 + int(op)%20 {
				w.Step(time.Duration(1+int(op)%150) * time.Millisecond)
			}
			bv := w.Ball()
			if !finite(bv.Pos.X, bv.Pos.Y, bv.Vel.X, bv.Vel.Y) || math.Abs(bv.Pos.X) > f.Length/2+1e-9 || math.Abs(bv.Pos.Y) > f.Width/2+1e-9 {
				t.Fatalf("op %d: ball %+v", i, bv)
			}
			n := map[uint8]int{}
			for _, rv := range w.Robots() {
				p := rv.Pose
				if !finite(p.X, p.Y, p.Theta, rv.TimeToBall) || math.Abs(p.X) > f.Length/2+1 || math.Abs(p.Y) > f.Width/2+1 {
					t.Fatalf("op %d: robot %d at %+v", i, rv.ID, p)
				}
				if !rv.Penalised {
					n[rv.Role]++
				}
				w.Inputs(rv.ID, time.Unix(int64(i), 0), &m, &b, &v)
				if m.Stable == rv.Fallen || b.CurrentRole != rv.Role || v.SeeBall != rv.SeesBall ||
					!finite(v.RobotPos.X, v.RobotPos.Y, v.BallField.X, v.BallField.Y, float64(b.TimeToReachBall)) {
					t.Fatalf("op %d: robot %d inputs disagree with %+v", i, rv.ID, rv)
				}
			}
			onField := 5 - penalisedCount(w)
			if onField >= 2 && (n[dmsgs.BehaviorInfoRoleStriker] != 1 || n[dmsgs.BehaviorInfoRoleGoalie] > 1) {
				t.Fatalf("op %d: roles %v with %d robots on the field", i, n, onField)
			}
		}
	})
}

func penalisedCount(w *World) int {
	n := 0
	for _, r := range w.Robots() {
		if r.Penalised {
			n++
		}
	}
	return n
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
