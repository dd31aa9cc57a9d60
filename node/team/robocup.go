package team

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// maxOthers is the most robots of VisionInfo's obstacles a robocup packet carries.
const maxOthers = 8

// rcState is the robocup format's part of the component: the message we build and the
// one we decode, reused.
type rcState struct {
	tx, rx robocup.Packet
	txMsg  robocup.Message
	rxMsg  robocup.Message
	others [maxOthers]robocup.Robot
	oPtrs  [maxOthers]*robocup.Robot
}

// Bit-Bots roles by our role (dmsgs BehaviorInfo.ROLE_*), and back.
var (
	bitbotsRole = [...]uint32{
		dmsgs.BehaviorInfoRoleStriker:   robocup.RoleStriker,
		dmsgs.BehaviorInfoRoleDefender:  robocup.RoleDefender,
		dmsgs.BehaviorInfoRoleSupporter: robocup.RoleSupporter,
		dmsgs.BehaviorInfoRoleGoalie:    robocup.RoleGoalie,
		dmsgs.BehaviorInfoRoleOther:     robocup.RoleOther,
	}
	roleOfBitbots = [...]uint8{
		robocup.RoleIdling:    dmsgs.BehaviorInfoRoleOther,
		robocup.RoleOther:     dmsgs.BehaviorInfoRoleOther,
		robocup.RoleStriker:   dmsgs.BehaviorInfoRoleStriker,
		robocup.RoleSupporter: dmsgs.BehaviorInfoRoleSupporter,
		robocup.RoleDefender:  dmsgs.BehaviorInfoRoleDefender,
		robocup.RoleGoalie:    dmsgs.BehaviorInfoRoleGoalie,
	}
)

// Bit-Bots actions by our team-play state (dmsgs BehaviorInfo.STATE_*), and back.
var (
	bitbotsAction = [...]uint32{
		dmsgs.BehaviorInfoStateInactive:     robocup.ActionWaiting,
		dmsgs.BehaviorInfoStatePlaying:      robocup.ActionUndefined,
		dmsgs.BehaviorInfoStateBallHandling: robocup.ActionGoingToBall,
		dmsgs.BehaviorInfoStatePlacing:      robocup.ActionPositioning,
		dmsgs.BehaviorInfoStateSearching:    robocup.ActionSearching,
		dmsgs.BehaviorInfoStateInitializing: robocup.ActionLocalizing,
		dmsgs.BehaviorInfoStateAssisting:    robocup.ActionPositioning,
	}
	stateOfBitbots = [...]uint8{
		robocup.ActionUndefined:     dmsgs.BehaviorInfoStatePlaying,
		robocup.ActionPositioning:   dmsgs.BehaviorInfoStatePlacing,
		robocup.ActionGoingToBall:   dmsgs.BehaviorInfoStateBallHandling,
		robocup.ActionTryingToScore: dmsgs.BehaviorInfoStateBallHandling,
		robocup.ActionWaiting:       dmsgs.BehaviorInfoStateInactive,
		robocup.ActionKicking:       dmsgs.BehaviorInfoStateBallHandling,
		robocup.ActionSearching:     dmsgs.BehaviorInfoStateSearching,
		robocup.ActionLocalizing:    dmsgs.BehaviorInfoStateInitializing,
		robocup.ActionPassive:       dmsgs.BehaviorInfoStateInactive,
	}
)

// fvec3 converts a point in cm to metres.
func fvec3cm(v geometry_msgs.Vector3) *robocup.Fvec3 {
	return &robocup.Fvec3{X: float32(units.Metres(v.X)), Y: float32(units.Metres(v.Y)), Z: float32(units.Metres(v.Z))}
}

// fpose converts a pose (cm, cm, degrees) to metres and radians.
func fpose(v geometry_msgs.Vector3) *robocup.Fvec3 {
	return &robocup.Fvec3{X: float32(units.Metres(v.X)), Y: float32(units.Metres(v.Y)), Z: float32(units.Radians(v.Z))}
}

func finiteVec(v geometry_msgs.Vector3) bool {
	return !math.IsNaN(v.X+v.Y+v.Z) && !math.IsInf(v.X+v.Y+v.Z, 0)
}

// rcColour returns the standard's colour of our team (GCInfo.TEAM_*), when the
// GameController says it.
func rcColour(snap *GameSnapshot) robocup.Team {
	if snap.Connected {
		switch snap.Colour {
		case dmsgs.GCInfoTeamBlue:
			return robocup.Team_BLUE
		case dmsgs.GCInfoTeamRed:
			return robocup.Team_RED
		}
	}
	return robocup.Team_UNKNOWN_TEAM
}

// buildRobocup fills c.rc.tx, the standard message of our inputs in metres and
// radians, and returns its stamp (the timestamp, ns since the epoch).
func (c *Component) buildRobocup(now time.Time, in *inputs, snap *GameSnapshot) time.Duration {
	rc := &c.rc
	m := &rc.txMsg
	*m = robocup.Message{}
	ns := max(now.UnixNano(), 0)
	m.Timestamp = &timestamppb.Timestamp{Seconds: ns / 1e9, Nanos: int32(ns % 1e9)}
	switch {
	case snap.Penalised:
		m.State = robocup.State_PENALISED
	case snap.Connected:
		m.State = robocup.State_UNPENALISED
	}
	ext := c.cfg.RobocupExtension
	m.CurrentPose = &robocup.Robot{
		PlayerId: uint32(c.cfg.Player),
		Position: fpose(in.robotPos),
		Team:     robocup.TeamField(ext, c.cfg.Team, rcColour(snap)),
	}
	if !in.behaviorAt.IsZero() {
		m.TargetPose = &robocup.Robot{PlayerId: uint32(c.cfg.Player), Position: fpose(in.finalDest)}
		// kick_target is relative to the robot: the attack target in its frame.
		th := units.Radians(in.robotPos.Z)
		dx, dy := units.Metres(in.target.X-in.robotPos.X), units.Metres(in.target.Y-in.robotPos.Y)
		sin, cos := math.Sincos(th)
		m.KickTarget = &robocup.Fvec2{X: float32(cos*dx + sin*dy), Y: float32(-sin*dx + cos*dy)}
	}
	if w, ok := in.walk(); ok {
		m.WalkCommand = &robocup.Fvec3{X: float32(w.X), Y: float32(w.Y), Z: float32(w.Z)}
	}
	if in.seeBall {
		m.Ball = &robocup.Ball{Position: fvec3cm(in.ballGlobal)}
		if v := in.ballVel; (v.X != 0 || v.Y != 0 || v.Z != 0) && finiteVec(v) {
			m.Ball.Velocity = fvec3cm(v)
		}
	}
	n := min(in.nObstacles, maxOthers)
	for i, o := range in.obstacles[:n] {
		rc.others[i] = robocup.Robot{Position: &robocup.Fvec3{X: float32(units.Metres(o.X)), Y: float32(units.Metres(o.Y))}}
		rc.oPtrs[i] = &rc.others[i]
	}
	if n > 0 {
		m.Others = rc.oPtrs[:n]
	}
	rc.tx = robocup.Packet{Msg: m}
	switch ext {
	case robocup.ExtBitBots:
		x := &rc.tx.BitBots
		if int(in.role) < len(bitbotsRole) {
			x.Role = bitbotsRole[in.role]
		}
		if int(in.playState) < len(bitbotsAction) {
			x.Action = bitbotsAction[in.playState]
		}
		x.TimeToBall = robocup.TimeToBallUnknown
		if t := in.toBall; t > 0 && t < robocup.TimeToBallUnknown {
			x.TimeToBall = t
		}
	case robocup.ExtNUbots:
		p := robocup.PurposeDefender
		if in.role == dmsgs.BehaviorInfoRoleStriker {
			p = robocup.PurposeStriker
		}
		rc.tx.Purposes = append(rc.tx.Purposes[:0], robocup.Purpose{PlayerID: uint32(c.cfg.Player), Purpose: p})
	}
	return time.Duration(ns)
}

// headerRobocup is headerVerdict for the robocup format: a dnet or zju packet is
// another format; everything else needs the full decode.
func headerRobocup(b []byte) verdict {
	if teaminfo.IsDNet(b) || (len(b) == teaminfo.ZJUSize && !robocup.Looks(b)) {
		return dropWrongFormat
	}
	return accepted
}

// decodeRobocup decodes b into c.rc.rx and its model into c.rx (SI units; what the
// message does not carry is NaN or zero).
func (c *Component) decodeRobocup(b []byte) verdict {
	rc := &c.rc
	rc.rx.Msg = &rc.rxMsg
	if err := robocup.Decode(b, &rc.rx); err != nil {
		return dropMalformed
	}
	p := &rc.rx
	m := p.Msg
	if m.GetCurrentPose() == nil {
		return dropMalformed // not a robot's message: no player
	}
	id := m.GetCurrentPose().GetPlayerId()
	if id > 255 {
		return dropRange
	}
	// current_pose.team: the Bit-Bots and NUbots profiles write the team number there;
	// the standard a colour, which tells nothing about the team.
	team := p.TeamNumber()
	number := team != 0 && (c.cfg.RobocupExtension != robocup.ExtNone || p.Colour() == robocup.Team_UNKNOWN_TEAM)
	if number && team != uint32(c.cfg.Team) {
		return dropForeign
	}
	nan := math.NaN()
	s := &c.rx
	*s = teaminfo.State{
		Team:              c.cfg.Team,
		Player:            uint8(id),
		Penalised:         m.GetState() == robocup.State_PENALISED,
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
			s.Role = teaminfo.Role(roleOfBitbots[x.Role])
		}
		if int(x.Action) < len(stateOfBitbots) {
			s.PlayState = teaminfo.PlayState(stateOfBitbots[x.Action])
		}
		if t := x.TimeToBall; t > 0 && t < robocup.TimeToBallUnknown {
			s.TimeToReachBall = float64(t)
		}
	}
	for _, pu := range p.Purposes {
		if pu.PlayerID == id {
			s.Role = teaminfo.Role(dmsgs.BehaviorInfoRoleDefender)
			if pu.Purpose == robocup.PurposeStriker {
				s.Role = teaminfo.Role(dmsgs.BehaviorInfoRoleStriker)
			}
		}
	}
	return accepted
}

// walk returns the robot's walking velocity from the last two odometry samples of
// MotionInfo (robot frame: forward and left in m/s, turn rate in rad/s), or false when
// there are not two samples up to a second apart.
func (in *inputs) walk() (geometry_msgs.Vector3, bool) {
	a, b := in.odoPrev, in.odo
	dt := in.odoAt.Sub(in.odoPrevAt).Seconds()
	if in.odoPrevAt.IsZero() || !(dt > 0) || dt > 1 || !finiteVec(a) || !finiteVec(b) {
		return geometry_msgs.Vector3{}, false
	}
	dth := math.Remainder(units.Radians(b.Z-a.Z), 2*math.Pi)
	mid := units.Radians(a.Z) + dth/2
	dx, dy := units.Metres(b.X-a.X), units.Metres(b.Y-a.Y)
	sin, cos := math.Sincos(mid)
	return geometry_msgs.Vector3{X: (cos*dx + sin*dy) / dt, Y: (-sin*dx + cos*dy) / dt, Z: dth / dt}, true
}
