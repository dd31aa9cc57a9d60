//go:build cgo

package dds

/*
#include <stdlib.h>
#include "dds/dds.h"
#include "rawcdr.h"
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/internal/directcall"
)

// Writer writes serialised samples to one topic.
type Writer struct {
	p        *Participant
	handle   C.dds_entity_t
	topic    string
	typeName string
	guid     GUID
	ih       InstanceHandle
	closed   atomic.Bool
	// status holds the count of matched readers the writer's listener stores
	// (rawcdr.h), -1 while unknown (see NewWriter). It is pinned while Cyclone may call
	// the listener: until the writer is deleted, by Close or with the participant.
	status   C.struct_rawcdr_status
	pin      runtime.Pinner
	volatile bool // durability VOLATILE: no history is kept for readers that come later
	qos      QoS
	// depth is the KEEP_LAST depth, 0 for KEEP_ALL: what the writer's history can hold,
	// which decides whether a write can block (see nonblocking).
	depth int

	directMu   sync.Mutex
	bigLeft    int           // writes before the last too large to queue has left the history
	failedSeen atomic.Uint32 // status.write_errors when queued failures were last reported

	// signals sums the eventfd counts MatchChanges' goroutine read: the listener's
	// signals that reached it (for tests).
	signals atomic.Uint64

	notifyMu sync.Mutex    // guards the fields below
	changes  chan struct{} // MatchChanges' channel; nil until its first call
	notify   *os.File      // the eventfd the listener signals; nil until then
	notified chan struct{} // closed when the goroutine forwarding its signals ends
	released bool          // the writer is deleted and its eventfd closed
}

// NewWriter creates a writer on the key-less topic with DDS type typeName.
func (p *Participant) NewWriter(topic, typeName string, qos QoS) (*Writer, error) {
	if err := qos.Validate(); err != nil {
		return nil, fmt.Errorf("writer on %q: %w", topic, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%w: participant (creating writer on %q)", ErrClosed, topic)
	}
	tp, err := p.topicLocked(topic, typeName)
	if err != nil {
		return nil, err
	}
	w := &Writer{p: p, topic: topic, typeName: typeName, volatile: qos.Durability == Volatile, qos: qos}
	if qos.History != KeepAll {
		w.depth = int(qos.depth())
	}
	w.status.matched, w.status.notify_fd = -1, -1
	w.status.incompatible_fd = C.int32_t(p.offered.fdLocked())
	w.pin.Pin(&w.status)
	l := C.rawcdr_matched_listener(&w.status)
	if l == nil {
		w.pin.Unpin()
		return nil, fmt.Errorf("dds: writer on %q: cannot create listener", topic)
	}
	defer C.dds_delete_listener(l)
	cq := cQoS(&qos)
	defer C.dds_delete_qos(cq)
	if w.handle = C.dds_create_writer(p.handle, tp, cq, l); w.handle < 0 {
		w.pin.Unpin()
		return nil, retcode(fmt.Sprintf("create writer on %q (%s)", topic, qos), w.handle)
	}
	if w.guid, w.ih, err = identity(w.handle, "writer"); err != nil {
		if C.dds_delete(w.handle) >= 0 {
			w.pin.Unpin()
		}
		return nil, err
	}
	// The listener is called on changes only: a writer that no reader ever matches
	// would stay unknown. The count now, unless a callback has stored a count already
	// (its own or a later one; callbacks come in order, so that one stands).
	var st C.dds_publication_matched_status_t
	if C.dds_get_publication_matched_status(w.handle, &st) == 0 {
		initMatched(&w.status, st.current_count)
	}
	p.writers[w] = struct{}{}
	return w, nil
}

// Unread reports whether a sample written now would reach no reader: the writer is
// volatile (it keeps nothing for readers that come later) and Cyclone's last
// publication-matched callback (or the count taken when the writer was created)
// counted no reader. It is an atomic load, no cgo call, so a publisher can skip both
// the write for nobody and the cgo call, which would wake the runtime's sysmon thread
// from its idle sleep.
func (w *Writer) Unread() bool {
	n, ok := matchedCount(&w.status)
	return w.volatile && ok && n == 0
}

// MatchedCount returns the number of readers matched as Cyclone's last
// publication-matched callback (or the count taken at creation) counted them, without
// a cgo call; ok is false only if neither is known.
func (w *Writer) MatchedCount() (n int, ok bool) { return matchedCount(&w.status) }

// matchedCount loads the count of matched endpoints a listener keeps in s; ok is false
// while it is unknown (-1).
func matchedCount(s *C.struct_rawcdr_status) (n int, ok bool) {
	c := atomic.LoadInt32((*int32)(unsafe.Pointer(&s.matched)))
	return int(c), c >= 0
}

// initMatched stores the count taken at creation, unless a callback has stored one.
func initMatched(s *C.struct_rawcdr_status, n C.uint32_t) {
	atomic.CompareAndSwapInt32((*int32)(unsafe.Pointer(&s.matched)), -1, int32(n))
}

// incompatibleTotal loads the number of writers a reader's listener counted as refused
// for incompatible QoS (stored after the policy).
func incompatibleTotal(s *C.struct_rawcdr_status) uint32 {
	return atomic.LoadUint32((*uint32)(unsafe.Pointer(&s.incompatible)))
}

// Topic returns the DDS topic name.
func (w *Writer) Topic() string { return w.topic }

// GUID returns the writer's GUID.
func (w *Writer) GUID() GUID { return w.guid }

// InstanceHandle returns the writer's local instance handle.
func (w *Writer) InstanceHandle() InstanceHandle { return w.ih }

// Write publishes one sample: the 4-byte encapsulation header followed by the CDR body.
// The bytes are copied; sample may be reused when Write returns. It is sent at once,
// with those WriteHeld left with the writer. A RELIABLE writer blocks while its history
// is full of unacknowledged samples.
//
// Write is a cgo call on the calling goroutine, so the sample leaves at once: it first
// makes what WriteHeld left in the send queue (see the package doc), in order.
func (w *Writer) Write(sample []byte) error { return w.write(sample, true) }

// WriteHeld is Write but for the sending: the sample is written and held with the
// writer's other unsent samples until Flush (or FlushWithin) or the next Write sends
// them all, packed into as few datagrams as they fit (Cyclone's write batching),
// instead of one datagram each. For samples written back to back, such as the
// TeamInfo messages of a burst of teammate packets. The caller flushes before it
// waits for anything, or the held samples wait with it.
//
// A held write that cannot block goes through the process's send queue: WriteHeld
// copies the sample into the queue's ring (no cgo call) and returns, and the queue's
// thread makes the write when Flush wakes it, when its timer bounds a FlushWithin, or
// earlier if it is awake, so a reader of the same process has the sample after the
// flush, not during the call. A queued write that failed is reported by the writer's
// next Write or WriteHeld that succeeds (ErrQueuedWrite).
func (w *Writer) WriteHeld(sample []byte) error { return w.write(sample, false) }

// Flush sends the samples WriteHeld left with the writer (nothing if there are none):
// where held writes are queued, it queues the flush and wakes the queue's thread (a
// raw write to its eventfd, no cgo call), which makes the writes and the flush in order.
func (w *Writer) Flush() { w.flush(0) }

// FlushWithin is Flush for samples whose latency does not matter, such as periodic
// ones: where held writes are queued, it queues the flush without waking the queue's
// thread, so the flush rides the thread's next pass (the next Flush of any writer of
// the process, or a pass under way), and arms the queue's timerfd (a raw system call)
// so that the thread makes it within d at the latest. A d <= 0 is Flush, and so is
// FlushWithin where nothing is queued (no held write yet, a full ring) or in builds
// with the tag dnetwork_directcall.
func (w *Writer) FlushWithin(d time.Duration) { w.flush(d) }

// flush is Flush (within <= 0) or FlushWithin(within).
func (w *Writer) flush(within time.Duration) {
	if w.closed.Load() {
		return
	}
	a := C.struct_rawcdr_write_args{writer: w.handle}
	if directcall.Available {
		raceSync()
		directcall.Call(unsafe.Pointer(C.rawcdr_flush_direct), unsafe.Pointer(&a))
		return
	}
	if q := sendq.Load(); q != nil { // nothing was ever held where it is nil
		queued, err := w.queue(q, nil, C.RAWCDR_SEND_NOSAMPLE, within)
		if err != nil {
			return // closed meanwhile: Close made what was queued, and the handle is gone
		}
		if queued {
			if within <= 0 {
				q.wake()
			}
			return
		}
		C.rawcdr_sendq_drain(q.q)
	}
	C.rawcdr_flush_direct(unsafe.Pointer(&a))
}

func (w *Writer) write(sample []byte, flush bool) error {
	if len(sample) < 4 {
		return fmt.Errorf("%w: %d bytes on %q, need at least the 4-byte encapsulation header", ErrSample, len(sample), w.topic)
	}
	if len(sample) > math.MaxUint32-3 {
		return fmt.Errorf("%w: %d bytes on %q exceed 4 GiB", ErrSample, len(sample), w.topic)
	}
	if w.closed.Load() {
		return fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	data, n := unsafe.Pointer(&sample[0]), C.uint32_t(len(sample))
	var rc C.dds_return_t
	nonblocking := w.nonblocking(len(sample))
	if nonblocking && directcall.Available {
		a := C.struct_rawcdr_write_args{writer: w.handle, len: n, data: data, flush: cBool(flush)}
		raceSync() // race builds: what the cgo call would tell the race detector
		directcall.Call(unsafe.Pointer(C.rawcdr_write_direct), unsafe.Pointer(&a))
		directWrites.Add(1)
		rc = a.rc
		runtime.KeepAlive(sample)
	} else {
		if nonblocking && !flush {
			if queued, err := w.enqueue(sample); err != nil {
				return err
			} else if queued {
				return w.queuedFailures()
			}
		}
		if q := sendq.Load(); q != nil {
			rc = C.rawcdr_sendq_drain_write(q.q, w.handle, data, n, cBool(flush))
		} else {
			rc = C.rawcdr_write_flush(w.handle, data, n, cBool(flush))
		}
	}
	if rc < 0 {
		// Queued failures wait for a write that succeeds: an error with ErrQueuedWrite
		// says that the call's own sample was written.
		return retcode(fmt.Sprintf("write %d bytes to %q", len(sample), w.topic), rc)
	}
	return w.queuedFailures()
}

// enqueue puts a held sample into the send queue; false when there is no queue or the
// sample does not fit now (syncWrites counts those: the caller writes it, after what
// the queue holds).
func (w *Writer) enqueue(sample []byte) (bool, error) {
	q := theSendQueue()
	if q == nil {
		return false, nil
	}
	queued, err := w.queue(q, sample, 0, 0)
	if err != nil {
		return false, err
	}
	if queued {
		queuedWrites.Add(1)
	} else {
		syncWrites.Add(1)
	}
	return queued, nil
}

// queue pushes a record of w (sample nil: a flush) into q, unless w is closed (an
// error); false when it does not fit now. Taking q.mu orders it with Close's drain. A
// record pushed with within > 0 gets the thread to pass within that (sendQueue.passBy).
func (w *Writer) queue(q *sendQueue, sample []byte, flags uint32, within time.Duration) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w.closed.Load() {
		return false, fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	if !q.push(w, sample, flags) {
		return false, nil
	}
	if within > 0 {
		q.passBy(within)
	}
	return true, nil
}

// queuedFailures returns an error for the queued writes that failed since the last
// call that reported some (ErrQueuedWrite), nil if none did.
func (w *Writer) queuedFailures() error {
	n := atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.status.write_errors)))
	seen := w.failedSeen.Load()
	if n == seen || !w.failedSeen.CompareAndSwap(seen, n) {
		return nil
	}
	rc := C.dds_return_t(atomic.LoadInt32((*int32)(unsafe.Pointer(&w.status.write_rc))))
	return fmt.Errorf("%w: %d to %q: %w", ErrQueuedWrite, n-seen, w.topic, retcode("write", rc))
}

// directWriteBytes bounds the bytes a writer's history may hold for a write to count as
// one that cannot block (queued, or a direct call). Cyclone blocks a write (up to the
// reliability's max_blocking_time, which is infinite here) only while its history holds
// more unacknowledged bytes than the writer's high-water mark, which starts at
// WhcHighInit (30 KiB by default) and only grows; a local reader's history refuses
// nothing, since no resource limits are set. A KEEP_LAST history holds the last depth
// samples at most (Cyclone drops the oldest, acknowledged or not), so writes stay under
// the mark while the last depth+1 samples were each at most directWriteBytes/(depth+1).
// Nothing else in a write waits: the listeners it may run (local readers) are C code
// that neither blocks nor calls Go.
const directWriteBytes = 16 << 10

// directWrites counts the writes made as direct calls (for tests).
var directWrites atomic.Uint64

// nonblocking reports whether a write of size bytes cannot block, so that a held one
// may be queued (or, in builds with the tag dnetwork_directcall, any one made as a
// direct call): a KEEP_LAST writer whose history cannot reach directWriteBytes. A
// larger sample is written by a cgo call, and so are the depth writes after it, until
// it has left the history.
func (w *Writer) nonblocking(size int) bool {
	if w.depth == 0 {
		return false
	}
	w.directMu.Lock()
	defer w.directMu.Unlock()
	if size > directWriteBytes/(w.depth+1) {
		w.bigLeft = w.depth
		return false
	}
	if w.bigLeft > 0 {
		w.bigLeft--
		return false
	}
	return true
}

// MatchedSubscriptions describes the readers currently matched with w.
func (w *Writer) MatchedSubscriptions() ([]Endpoint, error) {
	if w.closed.Load() {
		return nil, fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	eps, err := matchedEndpoints(w.handle, true)
	if err != nil {
		return nil, fmt.Errorf("writer on %q: %w", w.topic, err)
	}
	return eps, nil
}

// Close deletes the writer. Closing twice is a no-op.
func (w *Writer) Close() error {
	if w.closed.Swap(true) {
		return nil
	}
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if w.p.closed {
		return nil // deleted with the participant
	}
	delete(w.p.writers, w)
	drainAfterClose()
	if rc := C.dds_delete(w.handle); rc < 0 {
		return retcode(fmt.Sprintf("delete writer on %q", w.topic), rc) // the listener may still run: stay pinned
	}
	w.release()
	return nil
}

// release frees what the writer's listener used, once the writer is deleted and the
// listener runs no more: its pinned statuses and MatchChanges' eventfd (whose
// goroutine then ends).
func (w *Writer) release() {
	w.pin.Unpin()
	w.notifyMu.Lock()
	defer w.notifyMu.Unlock()
	w.released = true
	if w.notify != nil {
		w.notify.Close()
	}
}

// MatchChanges returns a channel that receives a value after each change of the
// number of readers matched with w, as Cyclone's publication-matched listener reports
// it (one value waits at most: changes coalesce). A receiver reads Unread or
// MatchedCount for the count now. Changes before the first call are not signalled, so
// a caller reads the count after it. The first call makes an eventfd that the listener
// signals and a goroutine that waits for it in Go's netpoller, so a process that
// watches its audience sleeps until it changes; both end when the writer is deleted.
func (w *Writer) MatchChanges() (<-chan struct{}, error) {
	w.notifyMu.Lock()
	defer w.notifyMu.Unlock()
	if w.released || w.closed.Load() {
		return nil, fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	if w.changes != nil {
		return w.changes, nil
	}
	f, rc, fd, err := polledEventfd("dds-writer-" + w.topic)
	if err != nil {
		return nil, fmt.Errorf("dds: writer on %q: %w", w.topic, err)
	}
	w.notify, w.changes, w.notified = f, make(chan struct{}, 1), make(chan struct{})
	atomic.StoreInt32((*int32)(unsafe.Pointer(&w.status.notify_fd)), fd)
	go forwardSignals(rc, w.changes, w.notified, &w.signals)
	return w.changes, nil
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
