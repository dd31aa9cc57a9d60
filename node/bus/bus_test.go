package bus

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

func TestFakeConnCounters(t *testing.T) {
	f := NewFakeConn(2)
	for i := 0; i < 3; i++ {
		f.Deliver(transport.Datagram{Payload: []byte{byte(i)}})
	}
	<-f.Datagrams()
	f.ReportMalformed()
	s := f.Stats()
	if s.Received != 3 || s.Delivered != 1 || s.QueueFull != 1 || s.Malformed != 1 {
		t.Fatalf("stats %+v", s)
	}
	if s.Received != s.Delivered+s.Dropped() {
		t.Fatalf("received != delivered + dropped: %+v", s)
	}
	dst := netip.MustParseAddrPort("127.0.0.1:3939")
	buf := []byte{1, 2}
	if err := f.SendTo(buf, dst); err != nil {
		t.Fatal(err)
	}
	buf[0] = 9 // the fake keeps its own copy
	if err := f.Broadcast([]byte{3}, 10017); err != nil {
		t.Fatal(err)
	}
	sent := f.Sent()
	if len(sent) != 2 || sent[0].Payload[0] != 1 || sent[0].Dst != dst || !sent[1].Broadcast || sent[1].Port != 10017 {
		t.Fatalf("sent %+v", sent)
	}
	f.SendErr = errors.New("down")
	if err := f.SendTo(nil, dst); err == nil || f.Stats().SendErrors != 1 {
		t.Fatal("send error not returned or counted")
	}
	f.Close()
	if _, ok := <-f.Datagrams(); !ok {
		// the one queued datagram is still there
		t.Fatal("queued datagram lost on close")
	}
	if _, ok := <-f.Datagrams(); ok {
		t.Fatal("queue not closed")
	}
}

func TestRecorderWait(t *testing.T) {
	var r Recorder[int]
	go func() {
		for i := 1; i <= 3; i++ {
			v := i
			r.Publish(&v)
		}
	}()
	if !r.WaitLen(3, 5*time.Second) {
		t.Fatal("did not see 3 messages")
	}
	if last, ok := r.Last(); !ok || last != 3 {
		t.Fatalf("last %d %v", last, ok)
	}
	if r.WaitLen(4, 10*time.Millisecond) {
		t.Fatal("saw a fourth message")
	}
}

// plainPublisher is a Publisher that cannot hold messages.
type plainPublisher struct{ got []int }

func (p *plainPublisher) Publish(m *int) error { p.got = append(p.got, *m); return nil }

// heldWithError is a Recorder whose PublishHeld holds the message and returns err, as
// ros.Publisher does when the error reports earlier queued writes (dds.ErrQueuedWrite).
type heldWithError struct {
	Recorder[int]
	err error
}

func (h *heldWithError) PublishHeld(m *int) error {
	h.Recorder.PublishHeld(m)
	return h.err
}

// TestPublishQueued: a HeldPublisher gets the message held and flushed with
// FlushWithin(within) (also when PublishHeld held it and reported an error); a plain
// Publisher gets it published.
func TestPublishQueued(t *testing.T) {
	var rec Recorder[int]
	for i := range 3 {
		v := i
		within := time.Duration(i+1) * 100 * time.Millisecond
		if err := PublishQueued[int](&rec, &v, within); err != nil {
			t.Fatal(err)
		}
		if got := rec.LastWithin(); got != within {
			t.Fatalf("message %d flushed within %v, want FlushWithin(%v)", i, got, within)
		}
	}
	if got := rec.Messages(); len(got) != 3 || got[0] != 0 || got[2] != 2 || rec.Flushes() != 3 {
		t.Fatalf("recorded %v after %d flushes, want [0 1 2] after 3", got, rec.Flushes())
	}
	errEarlier := errors.New("an earlier write failed")
	held := &heldWithError{err: errEarlier}
	v := 5
	if err := PublishQueued[int](held, &v, time.Second); err != errEarlier {
		t.Fatalf("PublishQueued returned %v, want PublishHeld's error", err)
	}
	if held.Held() != 0 || held.Len() != 1 || held.LastWithin() != time.Second {
		t.Fatalf("after PublishHeld held the message and failed: %d held, %d sent (within %v), want it flushed within 1s",
			held.Held(), held.Len(), held.LastWithin())
	}
	var plain plainPublisher
	v = 7
	if err := PublishQueued[int](&plain, &v, time.Second); err != nil || len(plain.got) != 1 || plain.got[0] != 7 {
		t.Fatalf("plain publisher got %v, %v", plain.got, err)
	}
}
