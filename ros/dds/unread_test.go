//go:build cgo

package dds

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// waitReaderCount waits until the count the reader's listener keeps is want.
func waitReaderCount(t *testing.T, r *Reader, want int) {
	t.Helper()
	ddstest.WaitFor(t, 10*time.Second, fmt.Sprintf("reader counting %d writers", want), func() error {
		if n, ok := r.MatchedCount(); !ok || n != want {
			return fmt.Errorf("count %d (known %v)", n, ok)
		}
		return nil
	})
}

// waitCount waits until the count the writer's listener keeps is want.
func waitCount(t *testing.T, w *Writer, want int32) {
	t.Helper()
	ddstest.WaitFor(t, 10*time.Second, fmt.Sprintf("writer on %s counting %d readers", w.Topic(), want), func() error {
		if got, _ := w.MatchedCount(); int32(got) != want {
			return fmt.Errorf("count %d", got)
		}
		return nil
	})
}

// TestWriterUnread checks the match counts the listeners keep: a writer's (for
// Unread) follows readers coming and going, in this participant and another, also for
// readers that were there before the writer; a reader's follows its writers; and a
// transient-local writer is never unread, since it keeps samples for readers to come.
func TestWriterUnread(t *testing.T) {
	domainUnread := takeDomain(t)
	ddstest.Setup(t)
	pub := newParticipant(t, domainUnread, "enclave=/;")
	sub := newParticipant(t, domainUnread, "enclave=/;")
	const topic = "rt/robot1/unread"
	w, err := pub.NewWriter(topic, testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	// No reader yet: known from the count taken at creation, as no callback comes.
	if !w.Unread() {
		t.Error("not unread with no reader ever matched")
	}
	c := newCollector()
	r1, err := sub.NewReader(topic, testType, QoS{Depth: 10}, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, w, 1)
	if w.Unread() {
		t.Error("unread with a reader matched")
	}
	waitReaderCount(t, r1, 1)
	r2, err := pub.NewReader(topic, testType, QoS{Depth: 10}, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, w, 2)
	if err := r1.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r2.Close(); err != nil {
		t.Fatal(err)
	}
	waitCount(t, w, 0)
	if !w.Unread() {
		t.Error("not unread with no reader matched")
	}
	// A reader that comes back is counted, and what is written then arrives.
	c = newCollector()
	r3, err := sub.NewReader(topic, testType, QoS{Depth: 10}, c.handle)
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, w, 1)
	if err := w.Write(sample("again")); err != nil {
		t.Fatal(err)
	}
	c.wait(t, 1, 5*time.Second)
	// The reader's count follows its writers too.
	waitReaderCount(t, r3, 1)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	waitReaderCount(t, r3, 0)

	// A writer created after its reader learns of it.
	if _, err := sub.NewReader("rt/robot1/late", testType, QoS{Depth: 10}, func(Sample) {}); err != nil {
		t.Fatal(err)
	}
	late, err := pub.NewWriter("rt/robot1/late", testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, late, 1)

	tl, err := pub.NewWriter("rt/robot1/latched", testType, QoS{Depth: 1, Durability: TransientLocal})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sub.NewReader("rt/robot1/latched", testType, QoS{Depth: 1, Durability: TransientLocal}, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, tl, 1)
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	waitCount(t, tl, 0)
	if tl.Unread() {
		t.Error("a transient-local writer is unread: it keeps samples for later readers")
	}
}

// recvChange waits for a value on ch, then until the writer counts want readers.
func recvChange(t *testing.T, ch <-chan struct{}, w *Writer, want int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-ch:
			if n, _ := w.MatchedCount(); n == want {
				return
			}
		case <-deadline:
			n, _ := w.MatchedCount()
			t.Fatalf("no change to %d readers signalled in 10 s (count %d)", want, n)
		}
	}
}

// TestWriterMatchChanges checks MatchChanges: nothing is signalled before a change and
// each change once (the listener's signals are counted: none before the first reader,
// one more per reader coming or going), the channel is the same for every call, and
// the eventfd goes with the writer (closed, or deleted with its participant).
func TestWriterMatchChanges(t *testing.T) {
	domainChanges := takeDomain(t)
	ddstest.Setup(t)
	pub := newParticipant(t, domainChanges, "enclave=/;")
	sub := newParticipant(t, domainChanges, "enclave=/;")
	const topic = "rt/robot1/changes"
	w, err := pub.NewWriter(topic, testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := w.MatchChanges()
	if err != nil {
		t.Fatal(err)
	}
	if again, err := w.MatchChanges(); err != nil || again != ch {
		t.Fatalf("second call: %v, %v; want the same channel", again, err)
	}
	if n := matchSignals(t, w); n != 0 {
		t.Fatalf("%d signals before any reader came", n)
	}
	r, err := sub.NewReader(topic, testType, QoS{Depth: 10}, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	recvChange(t, ch, w, 1)
	signalled(t, w, 1, "the first reader came")
	if w.Unread() {
		t.Error("unread after the change to one reader")
	}
	local, err := pub.NewReader(topic, testType, QoS{Depth: 10}, func(Sample) {})
	if err != nil {
		t.Fatal(err)
	}
	recvChange(t, ch, w, 2)
	signalled(t, w, 2, "a second reader came")
	for i, rd := range []*Reader{r, local} {
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		recvChange(t, ch, w, 1-i)
		signalled(t, w, uint64(3+i), "a reader went")
	}
	if !w.Unread() {
		t.Error("not unread after the change to no reader")
	}

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, w, "the writer was closed")
	if _, err := w.MatchChanges(); !errors.Is(err, ErrClosed) {
		t.Errorf("MatchChanges after Close: %v, want ErrClosed", err)
	}

	// A writer deleted with its participant closes its eventfd too.
	w2, err := sub.NewWriter(topic, testType, QoS{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.MatchChanges(); err != nil {
		t.Fatal(err)
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, w2, "its participant was closed")
}

// signalled checks that w's listener has signalled want changes in all, each of which
// was received on MatchChanges' channel: one signal per change, none without one.
func signalled(t *testing.T, w *Writer, want uint64, after string) {
	t.Helper()
	if n := matchSignals(t, w); n != want {
		t.Fatalf("%d signals once %s and its change was received, want %d (one per change)", n, after, want)
	}
}

// matchSignals returns the signals of w's listener so far: those left in the eventfd,
// then those its goroutine read. In that order none is missed; one the goroutine reads
// in between counts twice, so a test expects an exact count only once every signal it
// expects has been read (received on the channel).
func matchSignals(t *testing.T, w *Writer) uint64 {
	t.Helper()
	w.notifyMu.Lock()
	f := w.notify
	w.notifyMu.Unlock()
	left := fileEventfdCount(t, f)
	return left + w.signals.Load()
}

// waitEnded waits until the goroutine forwarding w's signals has ended, which it does
// when the eventfd is closed.
func waitEnded(t *testing.T, w *Writer, after string) {
	t.Helper()
	select {
	case <-w.notified:
	case <-time.After(10 * time.Second):
		t.Fatalf("the eventfd's goroutine still runs 10 s after %s", after)
	}
}
