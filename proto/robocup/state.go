package robocup

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Bit-Bots roles by our role, and back.
var (
	bitbotsRole = [...]uint32{
		teaminfo.RoleStriker:   RoleStriker,
		teaminfo.RoleDefender:  RoleDefender,
		teaminfo.RoleSupporter: RoleSupporter,
		teaminfo.RoleGoalie:    RoleGoalie,
		teaminfo.RoleOther:     RoleOther,
	}
	roleOfBitbots = [...]teaminfo.Role{
		RoleIdling:    teaminfo.RoleOther,
		RoleOther:     teaminfo.RoleOther,
		RoleStriker:   teaminfo.RoleStriker,
		RoleSupporter: teaminfo.RoleSupporter,
		RoleDefender:  teaminfo.RoleDefender,
		RoleGoalie:    teaminfo.RoleGoalie,
	}
)

// Bit-Bots actions by our team-play state, and back.
var (
	bitbotsAction = [...]uint32{
		teaminfo.PlayInactive:     ActionWaiting,
		teaminfo.PlayPlaying:      ActionUndefined,
		teaminfo.PlayBallHandling: ActionGoingToBall,
		teaminfo.PlayPlacing:      ActionPositioning,
		teaminfo.PlaySearching:    ActionSearching,
		teaminfo.PlayInitializing: ActionLocalizing,
		teaminfo.PlayAssisting:    ActionPositioning,
	}
	stateOfBitbots = [...]teaminfo.PlayState{
		ActionUndefined:     teaminfo.PlayPlaying,
		ActionPositioning:   teaminfo.PlayPlacing,
		ActionGoingToBall:   teaminfo.PlayBallHandling,
		ActionTryingToScore: teaminfo.PlayBallHandling,
		ActionWaiting:       teaminfo.PlayInactive,
		ActionKicking:       teaminfo.PlayBallHandling,
		ActionSearching:     teaminfo.PlaySearching,
		ActionLocalizing:    teaminfo.PlayInitializing,
		ActionPassive:       teaminfo.PlayInactive,
	}
)

// BitBotsRole returns the Bit-Bots role of our role r (RoleUndefined for none).
func BitBotsRole(r teaminfo.Role) uint32 {
	if int(r) < len(bitbotsRole) {
		return bitbotsRole[r]
	}
	return RoleUndefined
}

// BitBotsAction returns the Bit-Bots action closest to our team-play state s.
func BitBotsAction(s teaminfo.PlayState) uint32 {
	if int(s) < len(bitbotsAction) {
		return bitbotsAction[s]
	}
	return ActionUndefined
}

// PurposeOf returns NUbots' purpose of our role r: striker, or defender for every other.
func PurposeOf(r teaminfo.Role) uint32 {
	if r == teaminfo.RoleStriker {
		return PurposeStriker
	}
	return PurposeDefender
}

// SenderTeam returns the team number current_pose.team names when a receiver using
// profile ext reads it as one, and false when it names no team: 0, or under ExtNone
// a colour (1 and 2). Bit-Bots and NUbots write their team number there.
func (p *Packet) SenderTeam(ext Extension) (uint32, bool) {
	t := p.TeamNumber()
	if t == 0 || (ext == ExtNone && p.Colour() != Team_UNKNOWN_TEAM) {
		return 0, false
	}
	return t, true
}

// ToState converts the message into the model of package teaminfo, in SI units:
// player and stamp, the pose, the target pose as dest and final destination, the kick
// target in the field frame, the ball (seen while the message has one; also relative to
// the robot), penalised, the role (Bit-Bots role or NUbots purpose), the team-play
// state (Bit-Bots action) and the time to reach the ball (NaN for TimeToBallUnknown).
// What the message does not carry is zero, or NaN for durations and qualities. The team
// number is left 0 for the caller; a player_id above 255 is cut to 8 bits (callers check
// it first).
func (p *Packet) ToState(s *teaminfo.State) {
	m := p.Msg
	nan := math.NaN()
	id := m.GetCurrentPose().GetPlayerId()
	*s = teaminfo.State{
		Player:            uint8(id),
		Penalised:         m.GetState() == State_PENALISED,
		TimeSinceLastKick: nan, TimeToReachBall: nan, BallAge: nan,
		BallQuality: nan, FieldQuality: nan, FieldConsistency: nan,
	}
	if ts := m.GetTimestamp(); ts != nil {
		s.Stamp = time.Duration(ts.GetSeconds())*time.Second + time.Duration(ts.GetNanos())
	}
	pos := m.GetCurrentPose().GetPosition()
	s.RobotPos = teaminfo.Pose{X: float64(pos.GetX()), Y: float64(pos.GetY()), Theta: float64(pos.GetZ())}
	sin, cos := math.Sincos(s.RobotPos.Theta)
	if tp := m.GetTargetPose().GetPosition(); tp != nil {
		s.Dest = teaminfo.Pose{X: float64(tp.GetX()), Y: float64(tp.GetY()), Theta: float64(tp.GetZ())}
		s.FinalDest = s.Dest
	}
	if k := m.GetKickTarget(); k != nil {
		kx, ky := float64(k.GetX()), float64(k.GetY())
		s.AttackTarget = teaminfo.Point{X: s.RobotPos.X + cos*kx - sin*ky, Y: s.RobotPos.Y + sin*kx + cos*ky}
	}
	if bp := m.GetBall().GetPosition(); bp != nil {
		s.SeeBall = true
		s.BallGlobal = teaminfo.Point{X: float64(bp.GetX()), Y: float64(bp.GetY()), Z: float64(bp.GetZ())}
		dx, dy := s.BallGlobal.X-s.RobotPos.X, s.BallGlobal.Y-s.RobotPos.Y
		s.BallField = teaminfo.Point{X: cos*dx + sin*dy, Y: -sin*dx + cos*dy, Z: s.BallGlobal.Z}
	}
	if p.HasBitBots {
		x := &p.BitBots
		if int(x.Role) < len(roleOfBitbots) {
			s.Role = roleOfBitbots[x.Role]
		}
		if int(x.Action) < len(stateOfBitbots) {
			s.PlayState = stateOfBitbots[x.Action]
		}
		if t := x.TimeToBall; t > 0 && t < TimeToBallUnknown {
			s.TimeToReachBall = float64(t)
		}
	}
	for _, pu := range p.Purposes {
		if pu.PlayerID == id {
			s.Role = teaminfo.RoleDefender
			if pu.Purpose == PurposeStriker {
				s.Role = teaminfo.RoleStriker
			}
		}
	}
}
