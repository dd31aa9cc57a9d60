//go:build cgo

package ros

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// domainOfferedQoS is the domain of TestIncompatibleSubscriberLogged.
const domainOfferedQoS = 142

// TestIncompatibleSubscriberLogged gives a volatile publisher a transient-local
// subscription: the publishing node logs the subscription once, naming topic, peer
// and policy, and counts it in PeerIssues next to the subscribing node's count of the
// refused publisher; compatible subscriptions are never reported.
func TestIncompatibleSubscriberLogged(t *testing.T) {
	env := testEnv(t, domainOfferedQoS, "jazzy")
	pubNode, logs := loggingNode(t, env, "talker")
	subNode := newTestNode(t, env, "listener", "/")
	if _, err := NewPublisher[std_msgs.String](pubNode, "/status", QoSDefault); err != nil {
		t.Fatal(err)
	}
	latched := QoSDefault
	latched.Durability = dds.TransientLocal
	s, err := NewSubscription[std_msgs.String](subNode, "/status", latched, func(*std_msgs.String) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSubscription[std_msgs.String](subNode, "/status", QoSDefault, func(*std_msgs.String) {}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("publisher /status cannot serve subscription %v of participant %v (Eclipse Cyclone DDS): incompatible QoS DURABILITY (it asks transient-local, this publisher offers volatile)",
		s.GUID(), subNode.Participant().GUID())
	ddstest.WaitFor(t, 15*time.Second, "the publisher's warning", func() error {
		if !strings.Contains(logs(), want) {
			return fmt.Errorf("no %q in the log:\n%s", want, logs())
		}
		return nil
	})
	wantIssue := []PeerIssue{{Name: "/status", Kind: IncompatibleSubscribers, Count: 1, Last: "DURABILITY"}}
	if got := pubNode.PeerIssues(); !slices.Equal(got, wantIssue) {
		t.Errorf("publisher's PeerIssues = %+v, want %+v", got, wantIssue)
	}
	wantIssue = []PeerIssue{{Name: "/status", Kind: IncompatiblePublishers, Count: 1, Last: "DURABILITY"}}
	ddstest.WaitFor(t, 5*time.Second, "the subscriber's count", func() error {
		if got := subNode.PeerIssues(); !slices.Equal(got, wantIssue) {
			return fmt.Errorf("subscriber's PeerIssues = %+v, want %+v", got, wantIssue)
		}
		return nil
	})
	// A second compatible publisher and a while later: still one warning.
	if _, err := NewPublisher[std_msgs.String](pubNode, "/status", QoSDefault); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(logs(), "cannot serve"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs())
	}
}

// loggingNode creates a node that logs into a buffer, closed when the test ends, and
// returns it with a function that reads the log so far.
func loggingNode(t *testing.T, env func(string) string, name string) (*Node, func() string) {
	t.Helper()
	var buf syncbuf.Buffer
	n, err := NewNode(context.Background(), name, "/", NodeOptions{Getenv: env, LogOutput: &buf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n, buf.String
}
