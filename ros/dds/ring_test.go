//go:build cgo

package dds

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestReaderRingOrder sends samples of every size through a reader whose handler is
// held back until all are written, so the reader's ring fills, wraps and stalls: small
// and mid-size samples, and samples larger than the whole ring (which leave it through
// the resume path). Every sample must arrive once, whole and in order.
func TestReaderRingOrder(t *testing.T) {
	ddstest.Setup(t)
	p := newParticipant(t, domainRing, "enclave=/;")
	q := QoS{History: KeepAll}
	w, err := p.NewWriter("rt/ring", testType, q)
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	c := newCollector()
	first := true
	r, err := p.NewReader("rt/ring", testType, q, func(s Sample) {
		if first {
			first = false
			<-gate // the ring and then the reader's history fill meanwhile
		}
		c.handle(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)

	rng := rand.New(rand.NewPCG(3, 4))
	var want [][]byte
	total := 0
	for i := range 400 {
		n := 8 + rng.IntN(3000)
		switch i {
		case 7, 150, 151, 399:
			n = ringBytes + 1 + rng.IntN(3*ringBytes) // larger than the whole ring
		}
		body := make([]byte, n)
		binary.LittleEndian.PutUint32(body, uint32(i))
		for j := 4; j < n; j++ {
			body[j] = byte(rng.Uint32())
		}
		s := sample(string(body))
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
		total += len(s)
	}
	if total < 4*ringBytes {
		t.Fatalf("only %d bytes written: the ring would not wrap and stall", total)
	}
	close(gate)
	got := c.wait(t, len(want), 30*time.Second)
	if len(got) != len(want) {
		t.Fatalf("received %d samples, want %d", len(got), len(want))
	}
	for i := range want {
		if d := trimmed(t, got[i].Data, len(want[i])); !bytes.Equal(d, want[i]) {
			t.Fatalf("sample %d: %d bytes, index %d; want %d bytes, index %d", i, len(d),
				binary.LittleEndian.Uint32(d[4:]), len(want[i]), i)
		}
		if got[i].Publication != w.InstanceHandle() {
			t.Fatalf("sample %d from handle %x, want writer %x", i, got[i].Publication, w.InstanceHandle())
		}
	}
	if r.Received() != uint64(len(want)) {
		t.Errorf("Received() = %d, want %d", r.Received(), len(want))
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(c.wait(t, 0, time.Second)); n != len(want) {
		t.Errorf("%d samples in the end, want %d (duplicates)", n, len(want))
	}
}

// TestReaderRingWrapOfEmptyRing: a sample larger than half the ring that must wrap
// while the ring is empty, because its record would reach past the end from where the
// last one ended and not fit before that offset either, still arrives (through the
// resume path, like a sample larger than the ring), and so do the samples after it.
func TestReaderRingWrapOfEmptyRing(t *testing.T) {
	ddstest.Setup(t)
	p := newParticipant(t, domainRing, "enclave=/;")
	q := QoS{History: KeepAll}
	const topic = "rt/ring_wrap"
	w, err := p.NewWriter(topic, testType, q)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	r, err := p.NewReader(topic, testType, q, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)

	// The first record ends a little past the middle of the ring; the second needs
	// more than that offset and more than what remains after it.
	sizes := []int{ringBytes/2 + 300, ringBytes/2 + 3000, 100}
	var want [][]byte
	for i, n := range sizes {
		body := bytes.Repeat([]byte{byte('a' + i)}, n)
		s := sample(string(body))
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
		got := c.wait(t, i+1, 10*time.Second)
		if d := trimmed(t, got[i].Data, len(s)); !bytes.Equal(d, s) {
			t.Fatalf("sample %d: %d bytes, not the %d written", i, len(d), len(s))
		}
	}
	if r.Received() != uint64(len(want)) {
		t.Errorf("Received() = %d, want %d", r.Received(), len(want))
	}
}
