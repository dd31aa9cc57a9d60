package team

import (
	"net/netip"

	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// MateEvent is what a mate hook (SetMateHook) is told of one teammate: a packet of it was
// accepted, or it went offline.
type MateEvent struct {
	// Player is the teammate's player number.
	Player uint8
	// Offline says the teammate went offline (no packet accepted for
	// Config.TeammateTimeout); Src and RobotPos are then zero. Otherwise a packet of it
	// was just accepted.
	Offline bool
	// Src is the address the accepted packet came from.
	Src netip.Addr
	// RobotPos is the packet's robot_pos as TeamInfo publishes it: cm, z the heading in
	// degrees.
	RobotPos geometry_msgs.Vector3
}

// SetMateHook sets f, which the component calls after every accepted teammate packet
// and once when a teammate it was told of goes offline (noticed at the first tick or
// plan after its Config.TeammateTimeout, the same instant the teammate leaves
// Status.Teammates and the "teammate offline" log line is written). f is called on the
// goroutine that owns the component's state, with no lock of the component's held, one
// call at a time; it must be quick and must not block. nil means none. Call it before
// Run: it is not safe concurrently with Run.
func (c *Component) SetMateHook(f func(MateEvent)) { c.mateHook = f }

// tellMate tells the mate hook of the accepted packet in c.msg, which came from src.
func (c *Component) tellMate(src netip.AddrPort) {
	if c.mateHook == nil {
		return
	}
	p := c.msg.PlayerNumber
	c.told[p] = true
	c.mateHook(MateEvent{Player: p, Src: src.Addr().Unmap(), RobotPos: c.msg.RobotPos})
}

// tellOffline tells the mate hook of the teammates it was told of that r no longer
// counts online.
func (c *Component) tellOffline(r *rule) {
	if c.mateHook == nil {
		return
	}
	for _, p := range r.mates {
		if c.told[p] && !r.on[p] {
			c.told[p] = false
			c.mateHook(MateEvent{Player: p, Offline: true})
		}
	}
}
