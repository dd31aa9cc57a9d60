package linkemu

import (
	"os"
	"testing"
	"time"
)

// TestCarrierOffDropsQueued: a frame held for its release when the receiving host's
// carrier goes off is not written to that host later: it is counted NoCarrier, as a
// frame offered while the carrier is off is. The hosts' devices are pipes, so the test
// needs no namespaces; the carrier flag is set directly (SetCarrier needs a TAP).
func TestCarrierOffDropsQueued(t *testing.T) {
	e := New(1)
	var readEnds [2]*os.File
	var hosts [2]*Host
	for i, name := range []string{"a", "b"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		readEnds[i] = r
		if hosts[i], err = e.Attach(name, w); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { e.Close() })
	a, b := hosts[0], hosts[1]

	// Offered while b's carrier is on, queued (no writer runs yet), then b's carrier
	// goes off before the frame's release is handled.
	e.route(a, udpFrameBytes([]byte("in flight")), time.Now())
	if n := e.InFlight(); n != 1 {
		t.Fatalf("InFlight = %d, want 1", n)
	}
	e.mu.Lock()
	b.carrier = false
	e.mu.Unlock()

	e.wg.Add(1)
	go e.write(b)
	deadline := time.Now().Add(10 * time.Second)
	var s Stats
	for {
		s = e.Stats(a, b)
		if s.Delivered+s.NoCarrier+s.WriteErrors == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the queued frame was never handled: %+v", s)
		}
		time.Sleep(time.Millisecond)
	}
	if s.NoCarrier != 1 || s.Delivered != 0 {
		t.Errorf("a frame queued for a host whose carrier went off: %+v, want NoCarrier 1, Delivered 0", s)
	}
	if r := e.Records(a, b); len(r) != 1 || r[0].Fate != NoCarrier {
		t.Errorf("records %+v, want one NoCarrier", r)
	}
	checkBalance(t, "a->b", s)
}
