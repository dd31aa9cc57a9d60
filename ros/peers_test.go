//go:build cgo

package ros

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
	var mu sync.Mutex
	var buf bytes.Buffer
	logs := func() string {
		mu.Lock()
		defer mu.Unlock()
		return buf.String()
	}
	pubNode, err := NewNode(context.Background(), "talker", "/", NodeOptions{Getenv: env, LogOutput: lockedWriter{&mu, &buf}})
	if err != nil {
		t.Fatal(err)
	}
	defer pubNode.Close()
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
