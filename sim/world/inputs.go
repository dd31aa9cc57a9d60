package world

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// RobotView is what the world knows about one robot.
type RobotView struct {
	ID   int
	Pose Pose
	// Target is where the robot walks.
	Target Pose
	// Role and Play are dmsgs.BehaviorInfoRole* and dmsgs.BehaviorInfoState*; Skill
	// names what the behaviour does ("GoToBall", "Kick", "Defend", ...).
	Role  uint8
	Play  uint8
	Skill string
	// Fallen: the robot is down (MotionInfo stable false). Kicking: it is kicking.
	Fallen, Kicking bool
	// Penalised: the robot's node says it is penalised; it stands off the field.
	Penalised bool
	// SeesBall: the ball is within the view distance and the robot is up.
	SeesBall bool
	// TimeToBall is the estimated time to reach the ball, in seconds.
	TimeToBall float64
}

// BallView is the ball: position and velocity in metres and m/s.
type BallView struct {
	Pos, Vel Vec
}

// Robots returns every robot, by player number.
func (w *World) Robots() []RobotView {
	out := make([]RobotView, len(w.robots))
	for i, r := range w.robots {
		out[i] = w.view(r)
	}
	return out
}

// Robot returns robot id (1..Robots); ok is false for another id.
func (w *World) Robot(id int) (v RobotView, ok bool) {
	r := w.robot(id)
	if r == nil {
		return RobotView{}, false
	}
	return w.view(r), true
}

func (w *World) view(r *robot) RobotView {
	return RobotView{
		ID: r.id, Pose: r.pose, Target: r.target, Role: r.role, Play: r.play, Skill: r.skill,
		Fallen: r.fallUntil > w.t, Kicking: r.kickUntil > w.t, Penalised: r.ref.Penalised,
		SeesBall: r.sees, TimeToBall: r.timeToBall,
	}
}

// Ball returns the ball.
func (w *World) Ball() BallView { return BallView{Pos: w.ball.pos, Vel: w.ball.vel} }

// Striker returns the player number of the ball handler among the field players (0:
// none).
func (w *World) Striker() int { return w.striker }

// neverKicked is the time_since_last_kick of a robot that has not kicked yet.
const neverKicked = 9999

// Inputs fills the MotionInfo, BehaviorInfo and VisionInfo that robot id's motion,
// behaviour and vision nodes would publish now, stamped with stamp, in the ZJUDancer
// units: centimetres, headings in degrees, our team attacking +x. Measured values
// carry the configured noise. Every field of the three messages is overwritten.
// It reports false for an unknown id.
func (w *World) Inputs(id int, stamp time.Time, m *dmsgs.MotionInfo, b *dmsgs.BehaviorInfo, v *dmsgs.VisionInfo) bool {
	r := w.robot(id)
	if r == nil {
		return false
	}
	f := w.cfg.Field
	fallen := r.fallUntil > w.t
	status := dmsgs.MotionInfoStatusStandby
	switch {
	case r.kickUntil > w.t:
		status = dmsgs.MotionInfoStatusKicking
	case r.walking:
		status = dmsgs.MotionInfoStatusWalking
	}
	var pitch float64
	if fallen {
		pitch = r.fallPitch
	}
	*m = dmsgs.MotionInfo{
		Stable:              !fallen,
		ForwardOrBackward:   true,
		Timestamp:           builtin_interfaces.NewTime(stamp),
		LowerBoardConnected: true,
		Odometry:            cmPose(r.odom),
		IMURpy:              geometry_msgs.Vector3{Y: pitch, Z: units.Degrees(r.pose.Theta)},
		Status:              status,
	}

	sinceKick := float32(neverKicked)
	if r.lastKick >= 0 {
		sinceKick = float32((w.t - r.lastKick).Seconds())
	}
	var teamBall geometry_msgs.Vector3
	if r.lastSeen >= 0 {
		teamBall = cm(r.lastBall)
	}
	*b = dmsgs.BehaviorInfo{
		CurrentRole:       r.role,
		Skill:             r.skill,
		Dest:              cmPose(r.target),
		FinalDest:         cmPose(r.target),
		AttackTarget:      cm(Vec{f.Length / 2, 0}),
		AttackRight:       w.game.FirstHalf,
		TeamPlayState:     r.play,
		KickerID:          uint8(w.striker),
		TeamPlayPriority:  r.id == w.striker,
		TimeSinceLastKick: sinceKick,
		TimeToReachBall:   float32(r.timeToBall),
		BallGlobal:        teamBall,
	}

	// Vision: the pose as localisation estimates it, the ball when in view.
	n := w.cfg.Noise
	est := Pose{
		X:     r.pose.X + 0.02*n*w.rng.NormFloat64(),
		Y:     r.pose.Y + 0.02*n*w.rng.NormFloat64(),
		Theta: NormAngle(r.pose.Theta + units.Radians(n*w.rng.NormFloat64())),
	}
	*v = dmsgs.VisionInfo{
		SeeField:         !fallen,
		SeeLine:          !fallen,
		LocOK:            !fallen,
		SeeBall:          r.sees,
		FieldQuality:     0.8,
		FieldConsistency: 0.9,
		RobotPos:         cmPose(est),
	}
	if fallen {
		v.FieldQuality, v.FieldConsistency = 0.1, 0.2
	}
	if r.sees {
		d := r.pose.Pos().Dist(w.ball.pos)
		sigma := n * (0.03 + 0.02*d)
		seen := w.ball.pos.Add(Vec{sigma * w.rng.NormFloat64(), sigma * w.rng.NormFloat64()})
		v.BallQuality = float32(1 - 0.5*d/w.cfg.ViewDistance)
		v.BallGlobal = cm(seen)
		v.BallField = cm(est.ToRobot(seen))
		v.BallVelocity = cm(w.ball.vel)
	}
	centre := Vec{}
	if !fallen && r.pose.Pos().Dist(centre) < 3 {
		v.SeeCircle = true
		v.CircleGlobal, v.CircleField = cm(centre), cm(est.ToRobot(centre))
	}
	goal := Vec{f.Length / 2, 0}
	if !fallen && r.pose.Pos().Dist(goal) < w.cfg.ViewDistance &&
		math.Abs(NormAngle(goal.Sub(r.pose.Pos()).Angle()-r.pose.Theta)) < math.Pi/3 {
		v.SeeGoal = true
		v.GoalGlobal, v.GoalField = cm(goal), cm(est.ToRobot(goal))
	}
	return true
}

// cm converts a point in metres to a Vector3 in centimetres (z 0).
func cm(p Vec) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: units.Centimetres(p.X), Y: units.Centimetres(p.Y)}
}

// cmPose converts a pose to the ZJUDancer Vector3: x, y in centimetres, z = heading in
// degrees.
func cmPose(p Pose) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: units.Centimetres(p.X), Y: units.Centimetres(p.Y), Z: units.Degrees(p.Theta)}
}
