package worldinfo

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// heldVision is a VisionInfo held back, as the node's reader ring holds it, until the
// component's input sync hands it over with the time it arrived.
type heldVision struct {
	mu sync.Mutex
	v  *dmsgs.VisionInfo
	at time.Time
}

func (h *heldVision) hold(v *dmsgs.VisionInfo, at time.Time) {
	h.mu.Lock()
	h.v, h.at = v, at
	h.mu.Unlock()
}

// TestInputSyncHandsOverBeforeSending holds VisionInfos back until a send cycle asks
// for them: the cycle's datagram carries them, and their freshness counts from the time
// they arrived, not from the time they were handed over.
func TestInputSyncHandsOverBeforeSending(t *testing.T) {
	held := &heldVision{}
	h := startWith(t, testConfig(), func(c *Component) { // InputTimeout 1 s
		c.SetInputSync(func() {
			held.mu.Lock()
			v, at := held.v, held.at
			held.v = nil
			held.mu.Unlock()
			c.SetVisionAt(v, at)
		})
	})
	records := func() []wi.RecordType {
		t.Helper()
		sent := h.sent()
		if len(sent) == 0 {
			return nil
		}
		if len(sent) != 1 {
			t.Fatalf("%d datagrams in one cycle", len(sent))
		}
		_, recs := decode(t, wi.DefaultKey, sent[0].Payload)
		return types(recs)
	}
	withPose := []wi.RecordType{wi.TypePose, wi.TypeRelBall, wi.TypeGlobalBall, wi.TypeOpponent, wi.TypeOpponent}

	held.hold(testVision(), t0.Add(100*time.Millisecond))
	h.tick() // t0+0.5 s: handed over by this cycle, sent by it
	if got := records(); !slices.Equal(got, withPose) {
		t.Fatalf("first cycle: records %v, want %v", got, withPose)
	}
	h.tick() // t0+1 s: 0.9 s old, fresh
	if got := records(); !slices.Equal(got, withPose) {
		t.Fatalf("second cycle: records %v, want %v", got, withPose)
	}
	// Handed over at t0+1.5 s but arrived at t0+0.4 s: 1.1 s old, stale.
	held.hold(testVision(), t0.Add(400*time.Millisecond))
	h.tick()
	if got, want := records(), []wi.RecordType{wi.TypeOpponentDisapp, wi.TypeOpponentDisapp}; !slices.Equal(got, want) {
		t.Fatalf("stale on arrival: records %v, want %v", got, want)
	}
	held.hold(testVision(), t0.Add(1900*time.Millisecond))
	h.tick() // t0+2 s: 0.1 s old
	if got := records(); !slices.Equal(got, withPose) {
		t.Fatalf("fresh again: records %v, want %v", got, withPose)
	}
}

// TestInputSyncWithoutLock runs send cycles and Status with a hook that calls every
// setter, which take the inputs' lock: a hook called under it would deadlock.
func TestInputSyncWithoutLock(t *testing.T) {
	var calls atomic.Int64
	h := startWith(t, testConfig(), func(c *Component) {
		c.SetInputSync(func() {
			calls.Add(1)
			at := c.clk.Now()
			c.SetMotionAt(&dmsgs.MotionInfo{}, at)
			c.SetBehaviorAt(&dmsgs.BehaviorInfo{AttackRight: true}, at)
			c.SetVisionAt(testVision(), at)
		})
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			h.tick()
		}
		h.c.Status()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("deadlock: the input sync hook was called with the inputs' lock held")
	}
	if n := calls.Load(); n != 3 {
		t.Fatalf("hook called %d times, want once per cycle (3)", n)
	}
	if n := len(h.sent()); n != 3 {
		t.Fatalf("%d datagrams, want 3", n)
	}
}
