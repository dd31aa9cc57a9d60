//go:build cgo

package ros

import (
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
)

// TestPublisherFlushWithin: a message published held and flushed with FlushWithin
// reaches a subscription of the same process, with nothing else to flush it, by its
// deadline (dds.Writer.FlushWithin); a FlushWithin with nothing held does nothing.
// (ros/dds's TestFlushWithin* check the send queue's side.)
func TestPublisherFlushWithin(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	talker := newTestNode(t, env, "talker", "/")
	listener := newTestNode(t, env, "listener", "/")
	pub, err := NewPublisher[std_msgs.String](talker, "periodic", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 4)
	if _, err := NewSubscription(listener, "periodic", QoSDefault, func(m *std_msgs.String) { got <- m.Data }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "publisher matched", func() error {
		if n, err := pub.SubscriptionCount(); err != nil || n != 1 {
			return fmt.Errorf("%d subscriptions, %v", n, err)
		}
		return nil
	})
	receive := func(want string) {
		t.Helper()
		select {
		case s := <-got:
			if s != want {
				t.Fatalf("received %q, want %q", s, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q has not arrived in 10 s", want)
		}
	}
	// A first held message, flushed, starts the send queue's thread (which takes what
	// is queued as it starts) and lets it go to sleep again.
	if err := pub.PublishHeld(&std_msgs.String{Data: "first"}); err != nil {
		t.Fatal(err)
	}
	pub.Flush()
	receive("first")
	pub.FlushWithin(time.Millisecond) // nothing held
	if err := pub.PublishHeld(&std_msgs.String{Data: "tick"}); err != nil {
		t.Fatal(err)
	}
	pub.FlushWithin(20 * time.Millisecond)
	receive("tick")
}
