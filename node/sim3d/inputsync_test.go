package sim3d

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

// heldVisions are VisionInfos held back, as the node's reader ring holds them, until the
// Team's input sync hands them over, in order, with the times they arrived.
type heldVisions struct {
	mu sync.Mutex
	v  []*dmsgs.VisionInfo
	at []time.Time
}

func (h *heldVisions) hold(v *dmsgs.VisionInfo, at time.Time) {
	h.mu.Lock()
	h.v, h.at = append(h.v, v), append(h.at, at)
	h.mu.Unlock()
}

func (h *heldVisions) sync(t *Team) func() {
	return func() {
		h.mu.Lock()
		v, at := h.v, h.at
		h.v, h.at = nil, nil
		h.mu.Unlock()
		for i := range v {
			t.SetVisionAt(v[i], at[i])
		}
	}
}

// TestInputSyncHandsOverBeforeSaying holds VisionInfos back until the slot rule is
// evaluated: the message said carries them, with the ball's age from the arrival of the
// last one that saw it.
func TestInputSyncHandsOverBeforeSaying(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	held := &heldVisions{}
	r.team.SetInputSync(held.sync(r.team))
	decodeLast := func() sim3dproto.TeamState {
		t.Helper()
		m, ok := r.says.Last()
		if !ok {
			t.Fatal("nothing said")
		}
		var s sim3dproto.TeamState
		if err := sim3dproto.NewTeamCodec("TeamX").Decode([]byte(m.Message), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}

	// Seen 100 ms before the clock's time, lost 60 ms before it.
	held.hold(&dmsgs.VisionInfo{RobotPos: vec(-300, 140, 30), SeeBall: true, BallGlobal: vec(100, 200, 0)},
		start.Add(-100*time.Millisecond))
	held.hold(&dmsgs.VisionInfo{RobotPos: vec(-300, 140, 30)}, start.Add(-60*time.Millisecond))
	r.team.SetServerTime(10) // cycle 500: due
	s := decodeLast()
	if !s.BallKnown || s.BallAge != 100*time.Millisecond || math.Abs(s.BallX-1) > 1e-9 || math.Abs(s.X+3) > 1e-9 {
		t.Fatalf("decoded %+v: want x -3, the ball at x 1 seen 100 ms ago", s)
	}

	// Through Run's ticker: a VisionInfo that sees the ball again, 20 ms ago.
	r.run()
	held.hold(&dmsgs.VisionInfo{RobotPos: vec(100, 0, 0), SeeBall: true, BallGlobal: vec(-50, 0, 0)},
		start.Add(-20*time.Millisecond))
	for r.says.Len() < 2 {
		r.tick()
	}
	s = decodeLast()
	if !s.BallKnown || s.BallAge != 0 || math.Abs(s.BallX+0.5) > 1e-9 || math.Abs(s.X-1) > 1e-9 {
		t.Fatalf("decoded %+v: want x 1, the ball at x -0.5 seen now", s)
	}
	checkInvariants(t, r.team.Status())
}

// TestInputSyncWithoutLock evaluates the slot rule on Run's ticker and in SetServerTime
// with a hook that calls every setter, which take the Team's lock: a hook called under
// the lock would deadlock.
func TestInputSyncWithoutLock(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamSize = 1 })
	var calls atomic.Int64
	r.team.SetInputSync(func() {
		calls.Add(1)
		at := r.clk.Now()
		r.team.SetMotionAt(&dmsgs.MotionInfo{Stable: true}, at)
		r.team.SetBehaviorAt(&dmsgs.BehaviorInfo{}, at)
		r.team.SetVisionAt(&dmsgs.VisionInfo{SeeBall: true}, at)
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.team.SetServerTime(10)
		r.team.Status()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlock: SetServerTime called the input sync hook with the Team's lock held")
	}
	r.run()
	for range 4 {
		r.tick() // waits 5 s at most for each evaluation
	}
	if n := calls.Load(); n != 5 {
		t.Fatalf("hook called %d times, want once per evaluation (5)", n)
	}
	st := r.team.Status()
	if st.Evaluations != 5 || st.Said == 0 {
		t.Fatalf("%d evaluations, %d said; want 5, some said", st.Evaluations, st.Said)
	}
	checkInvariants(t, st)
}
