package gamecontroller

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/units"
)

// SetMotion hands the latest MotionInfo to the component: fallen = !m.Stable in return
// packet v4. A nil m is ignored. It is safe for concurrent use.
func (c *Component) SetMotion(m *dmsgs.MotionInfo) {
	c.SetMotionAt(m, time.Time{})
}

// SetMotionAt is SetMotion for a MotionInfo handed over after it arrived; the return
// packet does not date it, so at is not used. It is safe for concurrent use.
func (c *Component) SetMotionAt(m *dmsgs.MotionInfo, at time.Time) {
	if m == nil {
		return
	}
	c.mu.Lock()
	c.s.stable = m.Stable
	c.mu.Unlock()
}

// SetVision hands the latest VisionInfo to the component: the robot's pose (robot_pos,
// cm and degrees) and, when it sees the ball, the robot-relative ball (ball_field, cm)
// and the time it was seen, for return packet v4. A nil v is ignored. It is safe for
// concurrent use.
func (c *Component) SetVision(v *dmsgs.VisionInfo) {
	if v == nil {
		return
	}
	c.SetVisionAt(v, c.clk.Now())
}

// SetVisionAt is SetVision for a VisionInfo that arrived at at (the clock's time then),
// which is the time the ball was seen if it sees it. It is safe for concurrent use.
func (c *Component) SetVisionAt(v *dmsgs.VisionInfo, at time.Time) {
	if v == nil {
		return
	}
	pose := [3]float32{
		finite32(v.RobotPos.X * mmPerCm),
		finite32(v.RobotPos.Y * mmPerCm),
		finite32(units.Radians(v.RobotPos.Z)),
	}
	ball := [2]float32{finite32(v.BallField.X * mmPerCm), finite32(v.BallField.Y * mmPerCm)}
	c.mu.Lock()
	c.s.pose = pose
	if v.SeeBall {
		c.s.ball = ball
		c.s.ballSeen = at
		c.s.ballEver = true
	}
	c.mu.Unlock()
}

// SetInputSync sets f, which the component calls before it reads what SetMotion and
// SetVision wrote (before each return packet is built), so that inputs held back
// elsewhere can be handed over first through the setters. f is called on Run's
// goroutine without any lock of the component's held; nil means none. Call it before
// Run: it is not safe concurrently with Run.
func (c *Component) SetInputSync(f func()) { c.inputSync = f }
