//go:build cgo

package ros

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestIncompatibleSubscriberLogged gives a volatile publisher a transient-local
// subscription: the publishing node logs the subscription once, naming topic, peer
// and policy, and counts it in PeerIssues next to the subscribing node's count of the
// refused publisher; compatible subscriptions are never reported.
func TestIncompatibleSubscriberLogged(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
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
	// A second compatible publisher refuses the same subscription: still one warning.
	p2, err := NewPublisher[std_msgs.String](pubNode, "/status", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	ddstest.WaitFor(t, 15*time.Second, "the second publisher's refusal", func() error {
		if n, _, err := p2.w.IncompatibleQoS(); err != nil || n == 0 {
			return fmt.Errorf("the second publisher has refused %d subscriptions (%v)", n, err)
		}
		return nil
	})
	// Fences: more refused subscriptions, each made once the previous one's warning is
	// in the log. The node handles refusals on one goroutine, writer after writer, each
	// call reading the subscriptions when it starts: every fence is warned of by a
	// later call than the one before. With two refusing writers a pass over them holds
	// at most two calls, so the fifth fence's warning comes after a whole pass that
	// began after the second publisher's refusal: that refusal has been handled.
	guids := []dds.GUID{s.GUID()}
	for i := range 5 {
		f, err := NewSubscription[std_msgs.String](subNode, "/status", latched, func(*std_msgs.String) {})
		if err != nil {
			t.Fatal(err)
		}
		guids = append(guids, f.GUID())
		ddstest.WaitFor(t, 15*time.Second, fmt.Sprintf("fence %d's warning", i+1), func() error {
			if !strings.Contains(logs(), fmt.Sprintf("cannot serve subscription %v ", f.GUID())) {
				return fmt.Errorf("no warning for subscription %v in the log:\n%s", f.GUID(), logs())
			}
			return nil
		})
	}
	for _, g := range guids {
		if n := strings.Count(logs(), fmt.Sprintf("cannot serve subscription %v ", g)); n != 1 {
			t.Errorf("%d warnings for subscription %v, want 1:\n%s", n, g, logs())
		}
	}
	if n := strings.Count(logs(), "cannot serve"); n != len(guids) {
		t.Errorf("%d warnings, want %d:\n%s", n, len(guids), logs())
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
