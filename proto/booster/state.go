package booster

import (
	"math"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// ToState converts m to the team model (metres and radians, as on the wire). The
// message carries no time, sequence number, targets or qualities but the ball's: Stamp
// and Seq are 0 and the unknown values NaN. isAlive false (off the field or penalised)
// is penalised and inactive; isLead is ball handling. The ball, when detected or its
// location known, is also given relative to the robot. Team and player numbers are
// truncated to a byte: check their range first.
func (m *Message) ToState(s *teaminfo.State) {
	nan := math.NaN()
	unknownPose := teaminfo.Pose{X: nan, Y: nan, Theta: nan}
	unknown := teaminfo.Point{X: nan, Y: nan, Z: nan}
	*s = teaminfo.State{
		Team:              uint8(m.TeamID),
		Player:            uint8(m.PlayerID),
		Penalised:         !m.IsAlive,
		SeeBall:           m.BallDetected,
		Role:              StateRole(m.Revision, m.PlayerRole),
		PlayState:         teaminfo.PlayPlaying,
		RobotPos:          teaminfo.Pose{X: m.RobotPose.X, Y: m.RobotPose.Y, Theta: m.RobotPose.Theta},
		Dest:              unknownPose,
		FinalDest:         unknownPose,
		AttackTarget:      unknown,
		BallField:         unknown,
		BallGlobal:        unknown,
		TeamBallGlobal:    unknown,
		CircleField:       unknown,
		CircleGlobal:      unknown,
		GoalField:         unknown,
		GoalGlobal:        unknown,
		TimeSinceLastKick: nan,
		TimeToReachBall:   nan,
		BallAge:           nan,
		BallQuality:       m.BallConfidence,
		FieldQuality:      nan,
		FieldConsistency:  nan,
	}
	switch {
	case !m.IsAlive:
		s.PlayState = teaminfo.PlayInactive
	case m.IsLead:
		s.PlayState = teaminfo.PlayBallHandling
	}
	if m.BallDetected || m.BallLocationKnown {
		s.BallGlobal = teaminfo.Point{X: m.BallPos.X, Y: m.BallPos.Y, Z: m.BallPos.Z}
		// Relative to the robot: the field offset turned by -theta.
		dx, dy := m.BallPos.X-m.RobotPose.X, m.BallPos.Y-m.RobotPose.Y
		sin, cos := math.Sincos(m.RobotPose.Theta)
		s.BallField = teaminfo.Point{X: cos*dx + sin*dy, Y: -sin*dx + cos*dy}
	}
}

// StateRole maps a role of revision r to the team model's: striker, goal keeper,
// defender (2026); unknown and undefined roles are RoleNone.
func StateRole(r Revision, role int32) teaminfo.Role {
	switch RoleName(r, role) {
	case roleNameStriker:
		return teaminfo.RoleStriker
	case roleNameKeeper:
		return teaminfo.RoleGoalie
	case roleNameDefender:
		return teaminfo.RoleDefender
	}
	return teaminfo.RoleNone
}

// RoleFromState maps a team-model role to revision r's: a role r does not have is
// unknown.
func RoleFromState(r Revision, role teaminfo.Role) int32 {
	switch {
	case role == teaminfo.RoleStriker:
		return RoleStriker
	case role == teaminfo.RoleGoalie:
		return RoleGoalKeeper
	case role == teaminfo.RoleDefender && r == Revision2026:
		return RoleDefender2026
	case r == Revision2026:
		return RoleUnknown2026
	}
	return RoleUnknownMain
}
