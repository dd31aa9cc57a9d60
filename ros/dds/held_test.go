//go:build cgo

package dds

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

const domainHeld = 27

// TestWriteHeld: samples written with WriteHeld do not leave the process until Flush or
// the next Write sends them, all of them and in order. Best effort, so that no
// heartbeat or retransmission of Cyclone's own sends them first.
func TestWriteHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second process")
	}
	ddstest.Setup(t)
	p := newParticipant(t, domainHeld, "")
	startPeer(t, "DDS_TEST_PEER=echo", fmt.Sprintf("DDS_TEST_DOMAIN=%d", domainHeld), "DDS_TEST_BEST_EFFORT=1")
	qos := QoS{Reliability: BestEffort, Depth: 16}
	w, err := p.NewWriter("rt/ping", testType, qos)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	r, err := p.NewReader("rt/pong", testType, qos, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	ddstest.WaitFor(t, 10*time.Second, "echo writer matched", func() error {
		eps, err := r.MatchedPublications()
		if err == nil && len(eps) == 0 {
			err = errors.New("no writer matched")
		}
		return err
	})
	// Best effort: a sample sent before the echo's reader has matched us is lost, so
	// wait until one gets through.
	ddstest.WaitFor(t, 10*time.Second, "first echo", func() error {
		if err := w.Write(sample("probe")); err != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
		if c.len() == 0 {
			return errors.New("no echo yet")
		}
		return nil
	})
	time.Sleep(100 * time.Millisecond)
	base := c.len()
	check := func(want ...string) {
		t.Helper()
		got := c.wait(t, base+len(want), 10*time.Second)[base:]
		for i, s := range want {
			if d := string(trimmed(t, got[i].Data, len(sample(s)))); d != string(sample(s)) {
				t.Fatalf("echo %d is %q, want %q", i, d, sample(s))
			}
		}
		base += len(want)
	}

	for _, s := range []string{"held-1", "held-2", "held-3"} {
		if err := w.WriteHeld(sample(s)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if n := c.len() - base; n != 0 {
		t.Fatalf("%d held samples reached the peer before Flush", n)
	}
	w.Flush()
	check("held-1", "held-2", "held-3")

	// A Write sends the held samples before its own.
	if err := w.WriteHeld(sample("held-4")); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(sample("sent-5")); err != nil {
		t.Fatal(err)
	}
	check("held-4", "sent-5")
	w.Flush() // nothing held: nothing sent
	time.Sleep(100 * time.Millisecond)
	if n := c.len() - base; n != 0 {
		t.Fatalf("%d echoes after a Flush with nothing held", n)
	}
}
