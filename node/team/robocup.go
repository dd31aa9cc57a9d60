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
		x.Role = robocup.BitBotsRole(teaminfo.Role(in.role))
		x.Action = robocup.BitBotsAction(teaminfo.PlayState(in.playState))
		x.TimeToBall = robocup.TimeToBallUnknown
		if t := in.toBall; t > 0 && t < robocup.TimeToBallUnknown {
			x.TimeToBall = t
		}
	case robocup.ExtNUbots:
		rc.tx.Purposes = append(rc.tx.Purposes[:0], robocup.Purpose{PlayerID: uint32(c.cfg.Player), Purpose: robocup.PurposeOf(teaminfo.Role(in.role))})
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
	if team, ok := p.SenderTeam(c.cfg.RobocupExtension); ok && team != uint32(c.cfg.Team) {
		return dropForeign
	}
	p.ToState(&c.rx)
	c.rx.Team = c.cfg.Team
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
