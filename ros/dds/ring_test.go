//go:build cgo

package dds

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestReaderRingOrder sends samples of every size through a reader whose handler is
// held back until all are written, so the reader's ring fills, wraps and stalls: small
// and mid-size samples, and samples larger than the whole ring (which leave it through
// the resume path). Every sample must arrive once, whole and in order: copied for the
// handler (NewReader), or lent from the ring (NewReaderLent: the bytes of a sample in
// the ring, which the listener must not overwrite while the handler holds them, here
// the first one for as long as the gate is shut).
func TestReaderRingOrder(t *testing.T) {
	domainRing := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainRing, "enclave=/;")
	for _, lent := range []bool{false, true} {
		name := "copied"
		if lent {
			name = "lent"
		}
		t.Run(name, func(t *testing.T) { testRingOrder(t, p, "rt/ring_"+name, lent) })
	}
}

func testRingOrder(t *testing.T, p *Participant, topic string, lent bool) {
	q := QoS{History: KeepAll}
	w, err := p.NewWriter(topic, testType, q)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	gate, held := make(chan struct{}), make(chan struct{})
	c := newCollector()
	first := true
	newReader, inRing := p.NewReader, 0
	if lent {
		newReader = p.NewReaderLent
	}
	var r *Reader
	r, err = newReader(topic, testType, q, func(s Sample) {
		if first {
			first = false
			close(held)
			<-gate // the ring and then the reader's history fill meanwhile
		}
		if lent {
			ring := uintptr(unsafe.Pointer(&r.ring.buf[0]))
			if at := uintptr(unsafe.Pointer(unsafe.SliceData(s.Data))); at >= ring && at < ring+ringBytes {
				inRing++
			}
			s.Data = bytes.Clone(s.Data) // kept by the collector
		}
		c.handle(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	waitMatched(t, w, 1)

	rng := rand.New(rand.NewPCG(3, 4))
	var want [][]byte
	total := 0
	for i := range 400 {
		n := 8 + rng.IntN(3000)
		switch i {
		case 70, 150, 151, 399: // after the ring has wrapped once
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
		if i == 0 {
			// The rest comes while the handler holds the first sample, so the listener
			// fills the ring around it.
			select {
			case <-held:
			case <-time.After(10 * time.Second):
				t.Fatal("the first sample did not reach the handler in 10 s")
			}
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
	// Only the four samples larger than the ring come another way.
	if lent && inRing != len(want)-4 {
		t.Errorf("%d of %d samples lent from the ring, want all but the 4 larger than it", inRing, len(want))
	}
	// One more sample marks the end: a duplicate of the others would come before it.
	end := sample("end")
	if err := w.Write(end); err != nil {
		t.Fatal(err)
	}
	if got := c.wait(t, len(want)+1, 10*time.Second); len(got) != len(want)+1 || !bytes.HasPrefix(got[len(want)].Data, end) {
		t.Errorf("%d samples before the end marker's, want %d (duplicates)", len(got)-1, len(want))
	}
}

// TestReaderRingWrapOfEmptyRing: a sample larger than half the ring that must wrap
// while the ring is empty, because its record would reach past the end from where the
// last one ended and not fit before that offset either, still arrives (through the
// resume path, like a sample larger than the ring), and so do the samples after it.
func TestReaderRingWrapOfEmptyRing(t *testing.T) {
	domainRing := takeDomain(t)
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
