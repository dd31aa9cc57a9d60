//go:build cgo

package dds

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// offeredEvent is one call of the OnOfferedIncompatibleQoS callback.
type offeredEvent struct {
	topic  string
	total  uint32
	policy string
}

// TestOfferedIncompatibleQoS has readers ask more than writers offer: the writers'
// callback reports each refusal with the policy, for writers made before and after the
// watch started, and the refused reader is found among the discovered ones with the
// same policy named by Incompatibilities.
func TestOfferedIncompatibleQoS(t *testing.T) {
	domainOffered := takeDomain(t)
	ddstest.Setup(t)
	pub := newParticipant(t, domainOffered, "enclave=/;")
	sub := newParticipant(t, domainOffered, "enclave=/;")
	volatile, err := pub.NewWriter("rt/robot1/volatile", testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	// Refused before the watch starts: reported when it starts.
	late, err := sub.NewReader("rt/robot1/volatile", testType, QoS{Durability: TransientLocal, Depth: 1}, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	ddstest.WaitFor(t, 5*time.Second, "refusal of the transient-local reader", func() error {
		if n, _, _ := volatile.IncompatibleQoS(); n != 1 {
			return fmt.Errorf("%d refused", n)
		}
		return nil
	})

	var mu sync.Mutex
	var events []offeredEvent
	if err := pub.OnOfferedIncompatibleQoS(func(w *Writer, total uint32, policy string) {
		mu.Lock()
		events = append(events, offeredEvent{w.Topic(), total, policy})
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := pub.OnOfferedIncompatibleQoS(func(*Writer, uint32, string) {}); err == nil {
		t.Error("a second watch was accepted")
	}
	// A writer made after the watch, refused by a reliable reader.
	bestEffort, err := pub.NewWriter("rt/robot1/best_effort", testType, QoS{Reliability: BestEffort, Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NewReader("rt/robot1/best_effort", testType, QoS{Depth: 5}, func(Sample) {}); err != nil {
		t.Fatal(err)
	}
	// A compatible pair is never reported.
	if _, err := pub.NewWriter("rt/robot1/fine", testType, QoS{Durability: TransientLocal, Depth: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NewReader("rt/robot1/fine", testType, QoS{Depth: 1}, func(Sample) {}); err != nil {
		t.Fatal(err)
	}
	want := []offeredEvent{{"rt/robot1/best_effort", 1, "RELIABILITY"}, {"rt/robot1/volatile", 1, "DURABILITY"}}
	ddstest.WaitFor(t, 5*time.Second, "both refusals reported", func() error {
		mu.Lock()
		defer mu.Unlock()
		got := slices.Clone(events)
		slices.SortFunc(got, func(a, b offeredEvent) int {
			if a.topic < b.topic {
				return -1
			}
			return 1
		})
		if !slices.Equal(got, want) {
			return fmt.Errorf("events %v, want %v", got, want)
		}
		return nil
	})
	if n, policy, err := bestEffort.IncompatibleQoS(); n != 1 || policy != "RELIABILITY" || err != nil {
		t.Errorf("best-effort writer: IncompatibleQoS() = %d, %q, %v", n, policy, err)
	}

	// The refused reader: discovered, not matched, and Incompatibilities says why.
	subs, err := pub.DiscoveredSubscriptions()
	if err != nil {
		t.Fatal(err)
	}
	ep := find(subs, late.GUID())
	if ep == nil {
		t.Fatalf("transient-local reader %v not discovered", late.GUID())
	}
	if got := Incompatibilities(volatile.QoS(), ep.QoS); len(got) != 1 || got[0] != (Incompatibility{"DURABILITY", "volatile", "transient-local"}) {
		t.Errorf("Incompatibilities = %+v", got)
	}
	matched, err := volatile.MatchedSubscriptions()
	if err != nil || len(matched) != 0 {
		t.Errorf("volatile writer matched %v (%v)", matched, err)
	}
	if err := volatile.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := volatile.IncompatibleQoS(); err == nil {
		t.Error("IncompatibleQoS of a closed writer: no error")
	}
}
