package gamecontroller

import (
	"bytes"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// held is a MotionInfo and a VisionInfo held back, as the node's reader rings hold them,
// until the component's input sync hands them over with the time they arrived.
type held struct {
	mu     sync.Mutex
	motion *dmsgs.MotionInfo
	vision *dmsgs.VisionInfo
	at     time.Time
}

// sync returns the hook for c: it hands the held messages over through the At setters.
func (h *held) sync(c *Component) func() {
	return func() {
		h.mu.Lock()
		m, v, at := h.motion, h.vision, h.at
		h.motion, h.vision = nil, nil
		h.mu.Unlock()
		c.SetMotionAt(m, at)
		c.SetVisionAt(v, at)
	}
}

// TestInputSyncReturnV4 holds the inputs back until the component builds a return
// packet: the packet carries them, with the ball's age from their arrival time.
func TestInputSyncReturnV4(t *testing.T) {
	in := &held{}
	h := startHarness(t, nil, nil, nil, func(c *Component) { c.SetInputSync(in.sync(c)) })
	p := basePacket(gcproto.LayoutHSL20)

	in.mu.Lock()
	in.motion = &dmsgs.MotionInfo{Stable: false}
	in.vision = &dmsgs.VisionInfo{
		SeeBall:   true,
		RobotPos:  geometry_msgs.Vector3{X: 150, Y: -75, Z: 90},
		BallField: geometry_msgs.Vector3{X: 30, Y: -40},
	}
	in.at = t0.Add(250 * time.Millisecond) // seen before the first return
	in.mu.Unlock()
	pose := [3]float32{1500, -750, float32(math.Pi / 2)}
	ball := [2]float32{300, -400}
	got, at := h.nextReturnAt(&p)
	if want := returnV4(ourPlayer, ourTeam, 1, pose, age(at, in.at), ball); !bytes.Equal(got, want) {
		t.Fatalf("held inputs:\n got % x\nwant % x", got, want)
	}
	if got, want := h.c.Status().LastReturnBytes, returnV4(ourPlayer, ourTeam, 1, pose, age(at, in.at), ball); !bytes.Equal(got, want) {
		t.Fatalf("Status().LastReturnBytes % x, want % x", got, want)
	}
	// Nothing held: the packet keeps the inputs, and the ball ages from its arrival.
	got, at = h.nextReturnAt(&p)
	if want := returnV4(ourPlayer, ourTeam, 1, pose, age(at, in.at), ball); !bytes.Equal(got, want) {
		t.Fatalf("nothing new held:\n got % x\nwant % x", got, want)
	}
}

// TestInputSyncWithoutLock runs the return, publish and receive paths with a hook that
// calls the setters, which take the component's lock: a hook called under the lock
// would deadlock.
func TestInputSyncWithoutLock(t *testing.T) {
	var calls atomic.Int64
	h := startHarness(t, nil, nil, nil, func(c *Component) {
		c.SetInputSync(func() {
			calls.Add(1)
			at := c.clk.Now()
			c.SetMotionAt(&dmsgs.MotionInfo{Stable: true}, at)
			c.SetVisionAt(&dmsgs.VisionInfo{SeeBall: true}, at)
		})
	})
	p := basePacket(gcproto.LayoutHSL20)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			h.nextReturn(&p)
		}
		h.c.Status()
		h.c.Snapshot()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("deadlock: the input sync hook was called with the component's lock held")
	}
	if n := calls.Load(); n < 3 {
		t.Fatalf("hook called %d times, want once per return packet (3)", n)
	}
}
