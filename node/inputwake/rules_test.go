package inputwake

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// wakes reports whether cur wakes after prev under rule, as the reader's listener
// decides: cur's key uncertain, or different from prev's.
func wakes(t *testing.T, rule dds.WakeRule, prev, cur []byte) bool {
	t.Helper()
	kp, _, err := dds.EvalWake(rule, prev)
	if err != nil {
		t.Skipf("no wake rule evaluator in this build: %v", err)
	}
	kc, certain, err := dds.EvalWake(rule, cur)
	if err != nil {
		t.Fatal(err)
	}
	return !certain || !bytes.Equal(kp, kc)
}

// ballCoord returns a ball coordinate (cm) that is often at, or a hair from, a limit.
func ballCoord(r *rand.Rand, rc team.RateConfig) float64 {
	switch r.IntN(8) {
	case 0:
		return rc.NearDistance * 100 * (1 + (r.Float64()-0.5)*1e-12)
	case 1:
		return -rc.MidDistance * 100 * (1 + (r.Float64()-0.5)*1e-12)
	case 2:
		return math.NaN()
	case 3:
		return math.Inf(1 - 2*r.IntN(2))
	case 4:
		return 0
	default:
		return (r.Float64() - 0.5) * 1200
	}
}

// TestRulesCoverRateKey checks on messages made by the generated marshallers that
// whenever the part of the team's rate key an input carries changes from one sample
// to the next, the next sample wakes (the rule is a superset of the key); and that
// samples which change nothing the key reads do not wake (the rule defers something).
func TestRulesCoverRateKey(t *testing.T) {
	rc := team.DefaultRateConfig()
	rc.NearDistance, rc.MidDistance = 0.8, 2.5
	r := rand.New(rand.NewPCG(25, 1))
	vision, behavior := Vision(rc), Behavior()

	var prevV, prevB []byte
	var prevVKey, prevBKey uint8
	deferredV, deferredB := 0, 0
	for i := range 20000 {
		v := &dmsgs.VisionInfo{
			SeeBall: r.IntN(4) > 0, SeeField: r.IntN(2) == 0, LocOK: r.IntN(2) == 0, SeeObstacle: r.IntN(2) == 0,
			BallQuality: r.Float32(), RobotPos: geometry_msgs.Vector3{X: r.Float64() * 900, Y: r.Float64() * 600, Z: 30},
			ObstaclesField: make([]geometry_msgs.Vector3, r.IntN(5)),
		}
		if r.IntN(3) == 0 {
			// Keep the ball where it was, or near it: most frames of a real game.
			v.BallField.X, v.BallField.Y = 30+r.Float64(), 40
		} else {
			v.BallField.X, v.BallField.Y = ballCoord(r, rc), ballCoord(r, rc)
		}
		b := &dmsgs.BehaviorInfo{
			CurrentRole: uint8(r.IntN(6)), Skill: strings.Repeat("k", r.IntN(20)), TeamPlayState: uint8(r.IntN(7)),
			AttackRight: r.IntN(2) == 0, Dest: geometry_msgs.Vector3{X: r.Float64()}, Voronoi: make([]geometry_msgs.Vector3, r.IntN(4)),
		}
		if r.IntN(2) == 0 {
			b.TeamPlayState = dmsgs.BehaviorInfoStateBallHandling
		}
		vb, bb := cdr.Marshal(v), cdr.Marshal(b)
		vKey := rc.Key(team.BallRateInput(0, v.SeeBall, v.BallField.X, v.BallField.Y))[1]
		bKey := rc.Key(team.BallRateInput(b.TeamPlayState, false, 0, 0))[0]
		if i > 0 {
			wv, wb := wakes(t, vision, prevV, vb), wakes(t, behavior, prevB, bb)
			if vKey != prevVKey && !wv {
				t.Fatalf("VisionInfo %d: rate key %d -> %d (ball %v seen %v) but the sample does not wake", i, prevVKey, vKey, v.BallField, v.SeeBall)
			}
			if bKey != prevBKey && !wb {
				t.Fatalf("BehaviorInfo %d: rate key %d -> %d but the sample does not wake", i, prevBKey, bKey)
			}
			if !wv {
				deferredV++
			}
			if !wb {
				deferredB++
			}
		}
		prevV, prevB, prevVKey, prevBKey = vb, bb, vKey, bKey
	}
	if deferredV < 2000 || deferredB < 2000 {
		t.Errorf("of 20000 samples only %d VisionInfo and %d BehaviorInfo wait: the rules defer (almost) nothing", deferredV, deferredB)
	}
}

// TestRulesReadTheFields checks each rule against one message changed in one field at
// a time: the fields the rate reads wake, the others (before and after them in the
// layout, strings of any length included) do not.
func TestRulesReadTheFields(t *testing.T) {
	rc := team.DefaultRateConfig()
	baseV := dmsgs.VisionInfo{SeeBall: true, BallField: geometry_msgs.Vector3{X: 30}, RobotPos: geometry_msgs.Vector3{X: 1}}
	baseB := dmsgs.BehaviorInfo{Skill: "walk", TeamPlayState: dmsgs.BehaviorInfoStateBallHandling}
	for _, tc := range []struct {
		name string
		f    func(v *dmsgs.VisionInfo)
		wake bool
	}{
		{"ball moves within near", func(v *dmsgs.VisionInfo) { v.BallField.X, v.BallField.Y = 50, 20 }, false},
		{"ball goes mid", func(v *dmsgs.VisionInfo) { v.BallField.X = 150 }, true},
		{"ball goes far", func(v *dmsgs.VisionInfo) { v.BallField.Y = -400 }, true},
		{"ball z", func(v *dmsgs.VisionInfo) { v.BallField.Z = 999 }, false},
		{"ball lost", func(v *dmsgs.VisionInfo) { v.SeeBall = false }, true},
		{"robot moves", func(v *dmsgs.VisionInfo) { v.RobotPos.X, v.LocOK, v.BallQuality = 500, true, 0.5 }, false},
		{"see_obstacle (after see_ball)", func(v *dmsgs.VisionInfo) { v.SeeObstacle = true }, false},
		{"see_goal (before see_ball)", func(v *dmsgs.VisionInfo) { v.SeeGoal = true }, false},
		{"ball_global", func(v *dmsgs.VisionInfo) { v.BallGlobal.X = 300 }, false},
	} {
		v := baseV
		tc.f(&v)
		if got := wakes(t, Vision(rc), cdr.Marshal(&baseV), cdr.Marshal(&v)); got != tc.wake {
			t.Errorf("VisionInfo, %s: wakes %v, want %v", tc.name, got, tc.wake)
		}
	}
	for _, tc := range []struct {
		name string
		f    func(b *dmsgs.BehaviorInfo)
		wake bool
	}{
		{"team_play_state", func(b *dmsgs.BehaviorInfo) { b.TeamPlayState = dmsgs.BehaviorInfoStatePlaying }, true},
		{"skill", func(b *dmsgs.BehaviorInfo) { b.Skill = "a much longer skill name" }, false},
		{"role", func(b *dmsgs.BehaviorInfo) { b.CurrentRole = dmsgs.BehaviorInfoRoleGoalie }, false},
		{"attack_right (before)", func(b *dmsgs.BehaviorInfo) { b.AttackRight = true }, false},
		{"kicker_id (after)", func(b *dmsgs.BehaviorInfo) { b.KickerID = 3 }, false},
		{"targets", func(b *dmsgs.BehaviorInfo) { b.Dest.X, b.AttackTarget.Y = 1, 2 }, false},
	} {
		b := baseB
		tc.f(&b)
		if got := wakes(t, Behavior(), cdr.Marshal(&baseB), cdr.Marshal(&b)); got != tc.wake {
			t.Errorf("BehaviorInfo, %s: wakes %v, want %v", tc.name, got, tc.wake)
		}
	}
	for _, rule := range []dds.WakeRule{Vision(rc), Behavior(), Motion()} {
		if err := rule.Validate(); err != nil {
			t.Error(err)
		}
	}
}
