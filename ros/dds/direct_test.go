//go:build cgo

package dds

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/internal/directcall"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestWriteDirect checks which writes are direct calls (no cgo call, so no pass
// through the runtime's system-call path): every write of a KEEP_LAST writer whose
// history stays under directWriteBytes; not a sample too large for that, nor the depth
// writes after it, while it may still be in the history; never a KEEP_ALL writer's.
// Every sample arrives, in order, at a reader of the same participant (local delivery
// runs the reader's listener inside the write).
func TestWriteDirect(t *testing.T) {
	domainDirect := takeDomain(t)
	ddstest.Setup(t)
	if !directcall.Available {
		t.Skip("this build makes no direct calls (see package directcall)")
	}
	p := newParticipant(t, domainDirect, "")
	const depth = 4
	w, err := p.NewWriter("rt/direct", testType, QoS{Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	all, err := p.NewWriter("rt/direct_all", testType, QoS{History: KeepAll})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	if _, err := p.NewReader("rt/direct", testType, QoS{History: KeepAll}, c.handle); err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)

	var sent [][]byte
	// cgoCalls writes s and returns the cgo calls the process made meanwhile, and
	// whether the write was a direct call. Race builds make an empty cgo call beside
	// each direct call (raceSync), so there the count says nothing.
	cgoCalls := func(w *Writer, s []byte) (int64, bool) {
		t.Helper()
		n, d := runtime.NumCgoCall(), directWrites.Load()
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		calls, direct := runtime.NumCgoCall()-n, directWrites.Load() != d
		if raceEnabled {
			calls = 0
			if !direct {
				calls = 1
			}
		}
		return calls, direct
	}
	small := func(i int) []byte { return sample(fmt.Sprintf("small sample %03d", i)) }
	for i := range 20 {
		s := small(i)
		if n, direct := cgoCalls(w, s); n != 0 || !direct {
			t.Errorf("write %d of %d bytes: %d cgo calls (direct %v), want a direct call", i, len(s), n, direct)
		}
		sent = append(sent, s)
	}
	big := sample(string(bytes.Repeat([]byte{'b'}, directWriteBytes/(depth+1))))
	if n, direct := cgoCalls(w, big); n == 0 || direct {
		t.Errorf("write of %d bytes with depth %d was a direct call; its history could exceed %d bytes", len(big), depth, directWriteBytes)
	}
	sent = append(sent, big)
	for i := range depth {
		s := small(100 + i)
		if n, direct := cgoCalls(w, s); n == 0 || direct {
			t.Errorf("write %d after the large one was a direct call while the large sample may still be in the history", i+1)
		}
		sent = append(sent, s)
	}
	s := small(200)
	if n, direct := cgoCalls(w, s); n != 0 || !direct {
		t.Errorf("write after the large sample left the history: %d cgo calls (direct %v), want a direct call", n, direct)
	}
	sent = append(sent, s)
	if n, direct := cgoCalls(all, small(300)); n == 0 || direct {
		t.Error("a KEEP_ALL writer's write was a direct call; its history is unbounded")
	}

	got := c.wait(t, len(sent), 10*time.Second)
	for i, s := range sent {
		if !bytes.Equal(trimmed(t, got[i].Data, len(s)), s) {
			t.Fatalf("sample %d: got %d bytes %q..., want %q...", i, len(got[i].Data), got[i].Data[:min(24, len(got[i].Data))], s[:min(24, len(s))])
		}
	}
}
