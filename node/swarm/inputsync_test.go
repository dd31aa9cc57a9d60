package swarm

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// heldPosition is this robot's position held back, as the node's reader ring holds the
// VisionInfo it comes from, until the component's input sync hands it over.
type heldPosition struct {
	mu  sync.Mutex
	p   Point
	has bool
}

func (h *heldPosition) hold(p Point) {
	h.mu.Lock()
	h.p, h.has = p, true
	h.mu.Unlock()
}

// TestInputSyncBeforeRangeCheck holds r2's own position back until a range check asks
// for it: on receive and in the neighbour list, the check sees the position just handed
// over.
func TestInputSyncBeforeRangeCheck(t *testing.T) {
	held := &heldPosition{}
	rs := startRobotsWith(t, clock.NewManual(t0), []string{"r1", "r2"}, func(_ string, c *Config) { c.Range = 50 },
		func(r *robot) {
			if r.name != "r2" {
				return
			}
			r.c.SetInputSync(func() {
				held.mu.Lock()
				p, has := held.p, held.has
				held.has = false
				held.mu.Unlock()
				if has {
					r.c.SetPosition("r2", p)
				}
			})
		})
	r1, r2 := rs["r1"], rs["r2"]
	r2.c.SetPosition("r1", Point{})

	held.hold(Point{X: 60, Y: 80}) // 100 m from r1
	r1.send(t, "r2", 4100, "far")
	r2.heard(t, 1)
	if s := r2.c.Status(); s.Swarm.OutOfRange != 1 || s.Counters.Received != 0 {
		t.Fatalf("r2 100 m away: out of range %d, received %d", s.Swarm.OutOfRange, s.Counters.Received)
	}
	held.hold(Point{X: 6, Y: 8}) // 10 m
	r1.send(t, "r2", 4100, "near")
	r2.heard(t, 2)
	if s := r2.c.Status(); s.Counters.Received != 1 || !slices.Equal(s.Neighbors, []string{"r1"}) {
		t.Fatalf("r2 10 m away: received %d, neighbours %v", s.Counters.Received, s.Neighbors)
	}
	held.hold(Point{X: 60, Y: 80}) // away again: Status's neighbour list hands it over
	if s := r2.c.Status(); len(s.Neighbors) != 0 {
		t.Fatalf("r2 100 m away again: neighbours %v", s.Neighbors)
	}
	checkCounts(t, r2)
}

// TestInputSyncWithoutLock receives frames and reads the neighbour list with a hook
// that calls SetPosition and ForgetPosition, which take the positions' lock: a hook
// called under it would deadlock.
func TestInputSyncWithoutLock(t *testing.T) {
	var calls atomic.Int64
	rs := startRobotsWith(t, clock.NewManual(t0), []string{"r1", "r2"}, func(_ string, c *Config) { c.Range = 50 },
		func(r *robot) {
			r.c.SetInputSync(func() {
				calls.Add(1)
				r.c.SetPosition(r.name, Point{X: 1})
				r.c.ForgetPosition("nobody")
			})
		})
	rs["r2"].c.SetPosition("r1", Point{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		rs["r1"].send(t, "r2", 4100, "hello")
		rs["r2"].heard(t, 1)
		rs["r2"].c.Status()
	}()
	select {
	case <-done:
	case <-time.After(2 * waitLimit):
		t.Fatal("deadlock: the input sync hook was called with the positions' lock held")
	}
	if s := rs["r2"].c.Status(); s.Counters.Received != 1 || !slices.Equal(s.Neighbors, []string{"r1"}) {
		t.Fatalf("received %d, neighbours %v", s.Counters.Received, s.Neighbors)
	}
	if n := calls.Load(); n < 2 {
		t.Fatalf("hook called %d times, want on receive and in Status", n)
	}
}
