//go:build cgo

package dds

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestWriteHeld: samples written with WriteHeld do not leave the process until Flush or
// the next Write sends them, all of them and in order. Best effort, so that no
// heartbeat or retransmission of Cyclone's own sends them first. That nothing left is
// shown by a marker written on a second writer (a Write flushes only its own writer):
// the echo peer reads one socket and echoes in order, so whatever left before the
// marker is echoed before it.
func TestWriteHeld(t *testing.T) {
	domainHeld := takeDomain(t)
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
	marks, err := p.NewWriter("rt/ping", testType, qos)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	waitMatched(t, marks, 1)
	ddstest.WaitFor(t, 10*time.Second, "echo writer matched", func() error {
		eps, err := r.MatchedPublications()
		if err == nil && len(eps) == 0 {
			err = errors.New("no writer matched")
		}
		return err
	})
	// echoed reports whether an echo of s came at or after index n.
	echoed := func(s []byte, n int) (int, bool) {
		got := c.wait(t, 0, 0)
		for i := n; i < len(got); i++ {
			if d := got[i].Data; len(d) >= len(s) && len(d) <= len(s)+3 && string(d[:len(s)]) == string(s) {
				return i, true
			}
		}
		return 0, false
	}
	// Best effort: a sample sent before the echo's reader has matched us is lost, so
	// wait until one of each writer gets through.
	for i, pw := range []*Writer{w, marks} {
		probe := sample(fmt.Sprintf("probe-%d", i))
		ddstest.WaitFor(t, 10*time.Second, string(probe[4:])+" echoed", func() error {
			if err := pw.Write(probe); err != nil {
				return err
			}
			time.Sleep(50 * time.Millisecond)
			if _, ok := echoed(probe, 0); !ok {
				return errors.New("no echo yet")
			}
			return nil
		})
	}
	// mark writes a marker on the second writer and returns how many echoes came after
	// the first n and before the marker's.
	nmark := 0
	mark := func(n int) int {
		t.Helper()
		nmark++
		m := sample(fmt.Sprintf("mark-%d", nmark))
		if err := marks.Write(m); err != nil {
			t.Fatal(err)
		}
		for seen := n + 1; ; seen++ {
			c.wait(t, seen, 10*time.Second)
			if i, ok := echoed(m, n); ok {
				return i - n
			}
		}
	}
	// The probes' echoes, some perhaps still on their way, end before the first marker.
	base := c.len()
	base += mark(base) + 1
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
	if n := mark(base); n != 0 {
		t.Fatalf("%d held samples reached the peer before Flush", n)
	}
	base++
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
	if n := mark(base); n != 0 {
		t.Fatalf("%d echoes after a Flush with nothing held", n)
	}
}
