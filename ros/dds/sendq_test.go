//go:build cgo

package dds

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/internal/directcall"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// queueSetup skips builds that make direct calls instead of queueing, and returns a
// participant, a KEEP_LAST writer of depth 4 on topic and a collector of a KEEP_ALL
// reader of the same participant (local delivery: the reader has every sample the
// queue's thread wrote).
func queueSetup(t *testing.T, topic string) (*Participant, *Writer, *collector) {
	domainSendQueue := takeDomain(t)
	t.Helper()
	ddstest.Setup(t)
	if directcall.Available {
		t.Skip("this build makes direct calls instead of queueing (see package directcall)")
	}
	p := newParticipant(t, domainSendQueue, "")
	w, err := p.NewWriter(topic, testType, QoS{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	if _, err := p.NewReader(topic, testType, QoS{History: KeepAll}, c.handle); err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	if theSendQueue() == nil {
		t.Fatal("the send queue's thread did not start")
	}
	return p, w, c
}

// checkSamples checks that the collector got sent, in order.
func checkSamples(t *testing.T, c *collector, sent [][]byte) {
	t.Helper()
	got := c.wait(t, len(sent), 10*time.Second)
	for i, s := range sent {
		if !bytes.Equal(trimmed(t, got[i].Data, len(s)), s) {
			t.Fatalf("sample %d: got %d bytes %q..., want %q...", i, len(got[i].Data), got[i].Data[:min(24, len(got[i].Data))], s[:min(24, len(s))])
		}
	}
}

// TestWriteQueued checks which writes go through the send queue, with no cgo call:
// every held write of a KEEP_LAST writer whose history stays under directWriteBytes;
// not a sample too large for that, nor the depth writes after it, while it may still
// be in the history; never a KEEP_ALL writer's, nor a Write (cgo calls that make what
// is queued first). Flush is no cgo call either. Every sample arrives, in order.
func TestWriteQueued(t *testing.T) {
	p, w, c := queueSetup(t, "rt/queued")
	const depth = 4
	all, err := p.NewWriter("rt/queued_all", testType, QoS{History: KeepAll})
	if err != nil {
		t.Fatal(err)
	}
	var sent [][]byte
	// cgoCalls writes s (held, or sent now) and returns the cgo calls the process
	// made meanwhile, and whether the write was queued.
	cgoCalls := func(w *Writer, s []byte, held bool) (int64, bool) {
		t.Helper()
		n, q := runtime.NumCgoCall(), queuedWrites.Load()
		write := w.Write
		if held {
			write = w.WriteHeld
		}
		if err := write(s); err != nil {
			t.Fatal(err)
		}
		return runtime.NumCgoCall() - n, queuedWrites.Load() != q
	}
	small := func(i int) []byte { return sample(fmt.Sprintf("small sample %03d", i)) }
	for i := range 20 {
		s := small(i)
		if n, queued := cgoCalls(w, s, true); n != 0 || !queued {
			t.Errorf("held write %d of %d bytes: %d cgo calls (queued %v), want it queued", i, len(s), n, queued)
		}
		sent = append(sent, s)
	}
	// The reader's goroutine makes a cgo call per drain in race builds (raceSync): the
	// queue's thread is held while Flush is counted, so that nothing arrives meanwhile.
	release := holdSendQueue(theSendQueue())
	n := runtime.NumCgoCall()
	w.Flush()
	n = runtime.NumCgoCall() - n
	release()
	if n != 0 {
		t.Errorf("Flush made %d cgo calls, want it queued", n)
	}
	s := small(50)
	if n, queued := cgoCalls(w, s, false); n == 0 || queued {
		t.Errorf("Write was queued (%d cgo calls), want it sent by the caller", n)
	}
	sent = append(sent, s)
	big := sample(string(bytes.Repeat([]byte{'b'}, directWriteBytes/(depth+1))))
	if n, queued := cgoCalls(w, big, true); n == 0 || queued {
		t.Errorf("write of %d bytes with depth %d was queued; its history could exceed %d bytes", len(big), depth, directWriteBytes)
	}
	sent = append(sent, big)
	for i := range depth {
		s := small(100 + i)
		if n, queued := cgoCalls(w, s, true); n == 0 || queued {
			t.Errorf("write %d after the large one was queued while the large sample may still be in the history", i+1)
		}
		sent = append(sent, s)
	}
	c.wait(t, len(sent), 10*time.Second) // the reader drained what was written, before counting
	s = small(200)
	if n, queued := cgoCalls(w, s, true); n != 0 || !queued {
		t.Errorf("held write after the large sample left the history: %d cgo calls (queued %v), want it queued", n, queued)
	}
	sent = append(sent, s)
	w.Flush()
	if n, queued := cgoCalls(all, small(300), true); n == 0 || queued {
		t.Error("a KEEP_ALL writer's write was queued; its history is unbounded")
	}
	checkSamples(t, c, sent)
}

// TestSendQueueFull holds the queue's thread while a writer fills the ring with held
// writes: the write that does not fit drains the queue and writes itself, by a cgo
// call, once the thread lets go; every sample arrives in order, across the ring's wrap.
func TestSendQueueFull(t *testing.T) {
	_, w, c := queueSetup(t, "rt/queue_full")
	const n = 400 // of 1028 bytes each: more than the ring holds
	sent := make([][]byte, n)
	for i := range sent {
		sent[i] = sample(fmt.Sprintf("%04d", i) + string(bytes.Repeat([]byte{'x'}, 1020)))
	}
	release := holdSendQueue(theSendQueue())
	q0, s0 := queuedWrites.Load(), syncWrites.Load()
	done := make(chan error, 1)
	go func() {
		for _, s := range sent {
			if err := w.WriteHeld(s); err != nil {
				done <- err
				return
			}
		}
		w.Flush()
		done <- nil
	}()
	ddstest.WaitFor(t, 10*time.Second, "a write that does not fit", func() error {
		if syncWrites.Load() == s0 {
			return fmt.Errorf("%d writes queued", queuedWrites.Load()-q0)
		}
		return nil
	})
	queued := queuedWrites.Load() - q0
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := uint64(sendQueueBytes / 1056); queued < want-1 || queued > want {
		t.Errorf("%d writes queued before the ring was full, want %d of 1056 bytes in %d", queued, want, sendQueueBytes)
	}
	checkSamples(t, c, sent)
}

// TestSendQueueFlush: samples written held wait in the queue or with the writer, and
// Flush sends them, as one wake-up of the queue's thread.
func TestSendQueueFlush(t *testing.T) {
	_, w, c := queueSetup(t, "rt/queue_flush")
	var sent [][]byte
	for i := range 5 {
		s := sample(fmt.Sprintf("held %d", i))
		if err := w.WriteHeld(s); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, s)
	}
	w.Flush()
	checkSamples(t, c, sent)
}

// failQueuedWrite makes one queued write of w fail: queued while the queue's thread is
// held, w's entity deleted behind its back, then the thread let go; it returns once the
// failure is counted in w's status block.
func failQueuedWrite(t *testing.T, w *Writer) {
	t.Helper()
	release := holdSendQueue(theSendQueue())
	if err := w.WriteHeld(sample("lost")); err != nil {
		release()
		t.Fatal(err)
	}
	w.Flush()
	deleteHandle(w)
	release()
	ddstest.WaitFor(t, 10*time.Second, "the queued write's failure", func() error {
		if atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.status.write_errors))) == 0 {
			return errors.New("not counted yet")
		}
		return nil
	})
}

// TestQueuedWriteFails makes a queued write fail (its writer's entity deleted while
// the thread is held): the next write of the writer reports it, as ErrQueuedWrite with
// Cyclone's return code, counting the one failure.
func TestQueuedWriteFails(t *testing.T) {
	_, w, _ := queueSetup(t, "rt/queue_fail")
	failQueuedWrite(t, w)
	err := w.WriteHeld(sample("next"))
	var rc *RetcodeError
	if !errors.Is(err, ErrQueuedWrite) || !errors.As(err, &rc) || rc.Code >= 0 {
		t.Fatalf("write after a failed queued write: %v, want ErrQueuedWrite with a return code", err)
	}
	if !strings.Contains(err.Error(), ": 1 to ") {
		t.Fatalf("write after one failed queued write: %v", err)
	}
}

// TestQueuedFailureAfterFailedWrite: a write that fails itself does not take the
// report of a queued write that failed before it; the next write that succeeds (here
// a queued one, while the thread is held) reports it.
func TestQueuedFailureAfterFailedWrite(t *testing.T) {
	_, w, _ := queueSetup(t, "rt/queue_fail_twice")
	failQueuedWrite(t, w)
	err := w.Write(sample("fails too"))
	var rc *RetcodeError
	if !errors.As(err, &rc) || errors.Is(err, ErrQueuedWrite) {
		t.Fatalf("write to a deleted entity: %v, want its own return code alone", err)
	}
	release := holdSendQueue(theSendQueue())
	err = w.WriteHeld(sample("queued"))
	release()
	if !errors.Is(err, ErrQueuedWrite) || !strings.Contains(err.Error(), ": 1 to ") {
		t.Fatalf("queued write after a failed one: %v, want the earlier queued failure (ErrQueuedWrite, 1)", err)
	}
}

// TestCloseDrainsQueue: what was written before Close reaches a reader of the same
// process, although the queue's thread was held until Close.
func TestCloseDrainsQueue(t *testing.T) {
	_, w, c := queueSetup(t, "rt/queue_close")
	var sent [][]byte
	release := holdSendQueue(theSendQueue())
	for i := range 10 {
		s := sample(fmt.Sprintf("before close %d", i))
		if err := w.WriteHeld(s); err != nil {
			release()
			t.Fatal(err)
		}
		sent = append(sent, s)
	}
	w.Flush()
	closed := make(chan error, 1)
	go func() { closed <- w.Close() }()
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	checkSamples(t, c, sent)
	if err := w.Write(sample("after")); !errors.Is(err, ErrClosed) {
		t.Fatalf("write after Close: %v", err)
	}
}
