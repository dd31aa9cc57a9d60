package booster

import (
	"math"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

func TestToState(t *testing.T) {
	m := wantMessage(Revision2026)
	m.IsLead = true
	var s teaminfo.State
	m.ToState(&s)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	sin, cos := math.Sincos(0.5)
	if s.Team != 12 || s.Player != 3 || s.Penalised || !s.SeeBall || s.Role != teaminfo.RoleStriker ||
		s.PlayState != teaminfo.PlayBallHandling || s.RobotPos != (teaminfo.Pose{X: -2.25, Y: 1, Theta: 0.5}) ||
		s.BallGlobal != (teaminfo.Point{X: 1.5, Y: -0.75}) || s.BallQuality != 0.875 ||
		!near(s.BallField.X, cos*3.75-sin*1.75) || !near(s.BallField.Y, -sin*3.75-cos*1.75) {
		t.Fatalf("state %+v", s)
	}
	if !math.IsNaN(s.TimeToReachBall) || !math.IsNaN(s.Dest.X) || s.Seq != 0 || s.Stamp != 0 {
		t.Fatalf("unknown values: %+v", s)
	}
	m.IsAlive, m.BallDetected, m.BallLocationKnown = false, false, false
	m.ToState(&s)
	if !s.Penalised || s.PlayState != teaminfo.PlayInactive || !math.IsNaN(s.BallGlobal.X) || !math.IsNaN(s.BallField.X) {
		t.Fatalf("dead robot without ball: %+v", s)
	}
}

func TestRoleMapping(t *testing.T) {
	for _, r := range []Revision{RevisionMain, Revision2026} {
		for _, role := range []teaminfo.Role{teaminfo.RoleStriker, teaminfo.RoleGoalie} {
			if got := StateRole(r, RoleFromState(r, role)); got != role {
				t.Errorf("%v: %v -> %v", r, role, got)
			}
		}
	}
	if RoleFromState(Revision2026, teaminfo.RoleDefender) != RoleDefender2026 || RoleFromState(RevisionMain, teaminfo.RoleDefender) != RoleUnknownMain ||
		RoleFromState(Revision2026, teaminfo.RoleSupporter) != RoleUnknown2026 || StateRole(RevisionMain, 3) != teaminfo.RoleNone ||
		StateRole(Revision2026, 3) != teaminfo.RoleDefender {
		t.Error("defender and unknown roles")
	}
}
