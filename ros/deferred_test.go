//go:build cgo

package ros

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestSubscriptionDeferred checks a deferred subscription between two nodes of one
// process (local delivery: the listener has run when Publish returns): messages whose
// key (here the header's stamp.sec) is the previous one's wait until Sync, which hands
// them over on the caller's goroutine, each with the ROS time it arrived; a message of
// a new key is handled at once; while simulation time is active the subscription is
// eager and its messages carry the simulation time.
func TestSubscriptionDeferred(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	talker := newTestNode(t, env, "talker", "/")
	listener := newTestNode(t, env, "listener", "/")
	pub, err := NewPublisher[diagnostic_msgs.DiagnosticArray](talker, "/deferred", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		sec, nsec int32
		at        time.Time
	}
	var mu sync.Mutex
	var seen []got
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(seen) }
	rule := dds.WakeRule{{Op: dds.WakeByte}} // stamp.sec's low byte
	sub, err := NewSubscriptionDeferred(listener, "/deferred", QoSDefault, func(m *diagnostic_msgs.DiagnosticArray, at time.Time) {
		mu.Lock()
		seen = append(seen, got{m.Header.Stamp.Sec, int32(m.Header.Stamp.Nanosec), at})
		mu.Unlock()
	}, rule)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "publisher matched", func() error {
		if n, err := pub.SubscriptionCount(); err != nil || n != 1 {
			return fmt.Errorf("%d subscriptions, %v", n, err)
		}
		return nil
	})
	publish := func(sec, nsec int32) {
		t.Helper()
		m := &diagnostic_msgs.DiagnosticArray{}
		m.Header.Stamp.Sec, m.Header.Stamp.Nanosec = sec, uint32(nsec)
		if err := pub.Publish(m); err != nil {
			t.Fatal(err)
		}
	}
	handled := func(n int) {
		t.Helper()
		waitFor(t, fmt.Sprintf("%d messages handled", n), func() error {
			if c := count(); c < n {
				return fmt.Errorf("%d handled", c)
			}
			return nil
		})
	}
	publish(1, 0) // the first message wakes the goroutine
	handled(1)
	signals := sub.r.Signals()
	start := time.Now()
	publish(1, 1)
	publish(1, 2)
	end := time.Now()
	// The listener ran inside each write: had it woken the goroutine, it would have
	// counted the signal.
	if n := sub.r.Signals() - signals; n != 0 {
		t.Fatalf("%d wake-ups for messages with the first one's key, want none", n)
	}
	if c := count(); c != 1 {
		t.Fatalf("%d messages handled before Sync, want 1 (the others have the first one's key)", c)
	}
	sub.Sync()
	mu.Lock()
	if len(seen) != 3 {
		t.Fatalf("after Sync %d messages handled, want 3", len(seen))
	}
	for i, g := range seen[1:] {
		if g.nsec != int32(i+1) {
			t.Errorf("message %d has nanosec %d, want %d (order)", i+1, g.nsec, i+1)
		}
		if g.at.Before(start) || g.at.After(end) {
			t.Errorf("message %d arrived at %v, published between %v and %v", i+1, g.at, start, end)
		}
	}
	mu.Unlock()
	publish(2, 0) // a new key: at once
	handled(4)

	listener.clock.setSimTime(time.Unix(1000, 0))
	listener.clock.setSim(true)
	publish(2, 1) // the same key, but the subscription is eager now
	handled(5)
	mu.Lock()
	if at := seen[4].at; !at.Equal(time.Unix(1000, 0)) {
		t.Errorf("with simulation time the message carries %v, want the simulation time", at)
	}
	mu.Unlock()
	listener.clock.setSim(false)
	publish(2, 2) // deferred again: the switch forgot the key, so this one wakes
	handled(6)
	signals = sub.r.Signals()
	publish(2, 3)
	if n := sub.r.Signals() - signals; n != 0 {
		t.Errorf("%d wake-ups for a message with the previous one's key after switching back, want none", n)
	}
	if c := count(); c != 6 {
		t.Errorf("%d messages handled after switching back, want 6", c)
	}
	sub.Sync()
	if c := count(); c != 7 {
		t.Errorf("%d messages handled after Sync, want 7", c)
	}
}
