//go:build cgo

package ros

import (
	"fmt"
	"sync"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestSubscriptionReused checks that a subscription made with NewSubscriptionReused
// hands its handler the same message every time, decoded afresh: slices shrink and
// grow with each sample and nothing of an earlier sample shows through.
func TestSubscriptionReused(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	talker := newTestNode(t, env, "talker", "/")
	listener := newTestNode(t, env, "listener", "/")
	pub, err := NewPublisher[diagnostic_msgs.DiagnosticArray](talker, "/diag", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string                                    // each message as the handler saw it
	ptrs := map[*diagnostic_msgs.DiagnosticArray]bool{} // the messages handed over
	sub, err := NewSubscriptionReused(listener, "/diag", QoSDefault, func(m *diagnostic_msgs.DiagnosticArray) {
		mu.Lock()
		defer mu.Unlock()
		ptrs[m] = true
		s := ""
		for _, st := range m.Status {
			s += st.Name + "["
			for _, kv := range st.Values {
				s += kv.Key + "=" + kv.Value + ","
			}
			s += "]"
		}
		got = append(got, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "publisher matched", func() error {
		if n, err := pub.SubscriptionCount(); err != nil || n != 1 {
			return fmt.Errorf("%d subscriptions, %v", n, err)
		}
		return nil
	})
	kv := func(k, v string) diagnostic_msgs.KeyValue { return diagnostic_msgs.KeyValue{Key: k, Value: v} }
	sent := []*diagnostic_msgs.DiagnosticArray{
		{Status: []diagnostic_msgs.DiagnosticStatus{{Name: "a", Values: []diagnostic_msgs.KeyValue{kv("1", "x"), kv("2", "y"), kv("3", "z")}}, {Name: "b"}}},
		{Status: []diagnostic_msgs.DiagnosticStatus{{Name: "c", Values: []diagnostic_msgs.KeyValue{kv("4", "w")}}}},
		{},
		{Status: []diagnostic_msgs.DiagnosticStatus{{Name: "d"}, {Name: "e", Values: []diagnostic_msgs.KeyValue{kv("5", "v"), kv("6", "u")}}, {Name: "f"}}},
	}
	want := []string{"a[1=x,2=y,3=z,]b[]", "c[4=w,]", "", "d[]e[5=v,6=u,]f[]"}
	for _, m := range sent {
		if err := pub.Publish(m); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "messages received", func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(got) < len(want) {
			return fmt.Errorf("%d of %d messages", len(got), len(want))
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: handler saw %q, want %q", i, got[i], want[i])
		}
	}
	if n := sub.Dropped(); n != 0 {
		t.Errorf("%d messages dropped", n)
	}
	if len(ptrs) != 1 {
		t.Errorf("the handler got %d distinct messages, want the same one every time", len(ptrs))
	}
}
