//go:build cgo

package ros

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
)

// TestIncompatibleQoSLogged pairs a reliable subscription with a best-effort
// publisher: DDS never matches them, and the subscribing node says so in its log,
// naming the topic and the policy, and counts the refused publisher.
func TestIncompatibleQoSLogged(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	sub, logs := loggingNode(t, env, "listener")
	pubNode := newTestNode(t, env, "talker", "/")
	s, err := NewSubscription[std_msgs.String](sub, "/chatter", QoSDefault, func(*std_msgs.String) {})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := NewPublisher[std_msgs.String](pubNode, "/chatter", QoSSensorData)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	want := fmt.Sprintf("subscription /chatter cannot receive from publisher %v of participant %v (Eclipse Cyclone DDS): incompatible QoS RELIABILITY (it offers best-effort, this subscription asks reliable); no messages arrive from it",
		pub.GUID(), pubNode.Participant().GUID())
	for !strings.Contains(logs(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no warning %q in 15 s; log:\n%s", want, logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := s.IncompatiblePublishers(); got != 1 {
		t.Errorf("IncompatiblePublishers = %d, want 1", got)
	}
	// A compatible publisher is not reported.
	if _, err := NewPublisher[std_msgs.String](pubNode, "/chatter", QoSDefault); err != nil {
		t.Fatal(err)
	}
	for n, _ := s.PublisherCount(); n != 1; n, _ = s.PublisherCount() {
		if time.Now().After(deadline) {
			t.Fatalf("the compatible publisher did not match within 15 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := strings.Count(logs(), "incompatible QoS"); n != 1 {
		t.Errorf("%d warnings after a compatible publisher joined, want 1:\n%s", n, logs())
	}
}
