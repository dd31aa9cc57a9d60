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
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Reader receives samples of one topic in its own goroutine, which sleeps in Go's
// netpoller on an eventfd that Cyclone's data-available listener signals, and calls
// the handler for each sample, in order.
type Reader struct {
	p        *Participant
	handle   C.dds_entity_t
	wake     *os.File // nonblocking eventfd: the listener adds 1 per sample, Stop adds 1
	topic    string
	typeName string
	guid     GUID
	ih       InstanceHandle
	ring     *C.struct_rawcdr_ring  // C memory: the listener fills it, the goroutine empties it
	batch    *C.struct_rawcdr_batch // C memory, owned by the reader goroutine: a sample too big for the ring
	handler  func(Sample)
	lend     bool // the handler's Sample.Data is lent from the ring (NewReaderLent)
	// status holds what the listener stores: the count of matched writers (-1 while
	// unknown) and the refusals for incompatible QoS. Pinned while Cyclone may call the
	// listener (until the reader is deleted).
	status C.struct_rawcdr_status
	pin    runtime.Pinner
	// onIncompatible is called on the goroutine when the refusals have grown past
	// seenIncompatible (goroutine-owned).
	onIncompatible   atomic.Pointer[func(total uint32, policy string)]
	seenIncompatible uint32

	stopping atomic.Bool
	done     chan struct{}
	err      atomic.Pointer[error]
	received atomic.Uint64

	// drainMu serialises the emptying of the ring (and so the handler's calls): the
	// goroutine's, and Sync's from any goroutine. gone (under drainMu) is set before the
	// ring is freed.
	drainMu sync.Mutex
	gone    bool
}

// NewReader creates a reader on the key-less topic with DDS type typeName and starts
// its goroutine, which calls handler for every valid sample until the reader is
// stopped. handler must not call Close on this reader or its participant.
func (p *Participant) NewReader(topic, typeName string, qos QoS, handler func(Sample)) (*Reader, error) {
	return p.newReader(topic, typeName, qos, handler, false)
}

// NewReaderLent is NewReader for a handler that keeps nothing of Sample.Data once it
// returns (it decodes the sample, say): Data is then the sample's bytes in the reader's
// ring, lent for the call, whose room the ring gets back when the handler returns. It
// saves a copy and an allocation per sample.
func (p *Participant) NewReaderLent(topic, typeName string, qos QoS, handler func(Sample)) (*Reader, error) {
	return p.newReader(topic, typeName, qos, handler, true)
}

func (p *Participant) newReader(topic, typeName string, qos QoS, handler func(Sample), lend bool) (*Reader, error) {
	if handler == nil {
		return nil, fmt.Errorf("dds: reader on %q needs a handler", topic)
	}
	if err := qos.Validate(); err != nil {
		return nil, fmt.Errorf("reader on %q: %w", topic, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%w: participant (creating reader on %q)", ErrClosed, topic)
	}
	tp, err := p.topicLocked(topic, typeName)
	if err != nil {
		return nil, err
	}
	r := &Reader{p: p, topic: topic, typeName: typeName, handler: handler, lend: lend, done: make(chan struct{})}
	if err := r.create(tp, &qos); err != nil {
		r.destroy()
		return nil, err
	}
	p.readers[r] = struct{}{}
	go r.run()
	return r, nil
}

func (r *Reader) create(tp C.dds_entity_t, qos *QoS) error {
	fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return fmt.Errorf("dds: reader on %q: eventfd: %w", r.topic, err)
	}
	// A nonblocking descriptor: os.NewFile registers it with the netpoller.
	r.wake = os.NewFile(uintptr(fd), "dds-reader-"+r.topic)
	r.status.matched = -1
	r.pin.Pin(&r.status)
	if r.ring = C.rawcdr_ring_new(C.int(fd), &r.status); r.ring == nil {
		return fmt.Errorf("dds: reader on %q: cannot allocate its sample ring", r.topic)
	}
	l := C.rawcdr_ring_listener(r.ring)
	if l == nil {
		return fmt.Errorf("dds: reader on %q: cannot create listener", r.topic)
	}
	defer C.dds_delete_listener(l)
	cq := cQoS(qos)
	defer C.dds_delete_qos(cq)
	if r.handle = C.dds_create_reader(r.p.handle, tp, cq, l); r.handle < 0 {
		return retcode(fmt.Sprintf("create reader on %q (%s)", r.topic, qos), r.handle)
	}
	if r.guid, r.ih, err = identity(r.handle, "reader"); err != nil {
		return err
	}
	// As for writers: the count now, unless a callback has stored one already.
	var st C.dds_subscription_matched_status_t
	if C.dds_get_subscription_matched_status(r.handle, &st) == 0 {
		initMatched(&r.status, st.current_count)
	}
	r.batch = (*C.struct_rawcdr_batch)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_rawcdr_batch{}))))
	return nil
}

// destroy deletes what create made; a reader with a handle <= 0 was never created.
// The eventfd is closed only after the reader is deleted, so the listener never
// writes to a descriptor number that was reused.
func (r *Reader) destroy() {
	if r.handle <= 0 || C.dds_delete(r.handle) >= 0 {
		r.pin.Unpin() // no listener runs any more; after a failed delete the count stays pinned
	}
	if r.ring != nil {
		// The reader is deleted: no listener runs any more.
		C.rawcdr_ring_free(r.ring)
		r.ring = nil
	}
	if r.wake != nil {
		r.wake.Close()
	}
	if r.batch != nil {
		C.rawcdr_release(r.batch)
		C.free(unsafe.Pointer(r.batch))
		r.batch = nil
	}
}

func (r *Reader) run() {
	defer func() {
		r.drainMu.Lock()
		r.gone = true
		r.drainMu.Unlock()
		r.destroy()
		// Only a deleted reader leaves the participant's set, done: Close waits for
		// every reader in it, so the participant is never deleted while one of its
		// readers still is (a reader stopped by a service's shutdown, say), which can
		// hang Cyclone's deletion of both.
		r.p.mu.Lock()
		if !r.p.closed {
			delete(r.p.readers, r)
		}
		close(r.done)
		r.p.mu.Unlock()
	}()
	rc, err := r.wake.SyscallConn()
	if err != nil {
		r.fail(fmt.Errorf("dds: wait on reader of %q: %w", r.topic, err))
		return
	}
	// Each wake-up takes the pending signal (signalled back to 0) before it empties
	// the ring, so a sample put meanwhile signals again. The eventfd is never read:
	// the netpoller watches it edge-triggered, and every write the listener makes
	// after the last report is reported anew, whatever the counter holds (a counter
	// that only grows by one per signal cannot reach its limit of 2^64-2). A wake-up
	// thus costs no system call besides the netpoller's own.
	signalled := (*atomic.Uint32)(unsafe.Pointer(&r.ring.signalled))
	var drainErr error
	take := func() (leave bool) {
		signalled.Swap(0)
		r.drainMu.Lock()
		drainErr = r.drain()
		r.drainMu.Unlock()
		if drainErr != nil {
			return true
		}
		r.reportIncompatible()
		return r.stopping.Load()
	}
	// Drain before waiting too: samples that arrived between the reader's creation and
	// this goroutine's start may be waiting.
	if take() {
		if drainErr != nil {
			r.fail(drainErr)
		}
		return
	}
	// The goroutine stays in this one RawConn.Read call while it works (see eventWait
	// for why): take runs at each report and says whether to leave.
	err = rc.Read(func(uintptr) bool { return take() })
	switch {
	case drainErr != nil:
		r.fail(drainErr)
	case err != nil && !r.stopping.Load():
		r.fail(fmt.Errorf("dds: wait on reader of %q: %w", r.topic, err))
	}
}
func (r *Reader) fail(err error) { r.err.Store(&err) }

// eventWait is the body of a goroutine's wait on an eventfd (RawConn.Read(fn)): a
// read(2) of the counter without blocking (the descriptor is nonblocking), false to
// wait in the netpoller until a listener signals; after each read that reset the
// counter, then does the goroutine's work and says whether to leave the wait. The
// read is a raw system call, which does not tell Go's scheduler it is entering the
// kernel, so a wake-up costs no hand-off of the goroutine's processor and no wake-up
// of the scheduler's monitor thread.
//
// The goroutine stays in the one RawConn.Read call while it works. Leaving it after
// each wake-up, as a read loop would, makes the next call start with a read that finds
// nothing: Read forgets, on entry, a readiness the netpoller reported meanwhile, so it
// must look for itself before waiting. Inside one call no report is forgotten: the
// netpoller watches the eventfd edge-triggered, every signal after a read is reported,
// and one reported while then runs ends the next wait at once. A wake-up thus costs
// one read(2), not two. fn is made once, so a wait allocates nothing.
type eventWait struct {
	counter [8]byte
	err     unix.Errno // of a failed read; 0 while none failed
	then    func() (leave bool)
	fn      func(fd uintptr) bool
}

func newEventWait(then func() (leave bool)) *eventWait {
	w := &eventWait{then: then}
	w.fn = w.read
	return w
}

func (w *eventWait) read(fd uintptr) bool {
	for {
		_, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&w.counter[0])), uintptr(len(w.counter)))
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		case 0:
			return w.then()
		}
		w.err = e
		return true
	}
}

// drain hands every sample in the ring to the handler, in order, and resumes the
// listener's takes after a stall (the only cgo call on this path). The listener's
// release store of head orders its writes of the records before this goroutine's
// loads; this goroutine's store of tail frees their bytes for the listener. r.drainMu
// is held.
func (r *Reader) drain() error {
	var arr arrivals
	rg := r.ring
	head := (*atomic.Uint64)(unsafe.Pointer(&rg.head))
	tail := (*atomic.Uint64)(unsafe.Pointer(&rg.tail))
	stalled := (*atomic.Uint32)(unsafe.Pointer(&rg.stalled))
	failed := (*atomic.Int32)(unsafe.Pointer(&rg.err))
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&rg.buf[0])), ringBytes)
	for !r.stopping.Load() {
		if rc := failed.Load(); rc != 0 {
			return retcode(fmt.Sprintf("take from %q", r.topic), C.dds_return_t(rc))
		}
		t, h := tail.Load(), head.Load()
		if t < h {
			raceSync()
		}
		for t < h && !r.stopping.Load() {
			off := t % ringBytes
			if ringBytes-off < recHeader {
				t += ringBytes - off
				continue
			}
			rec := (*C.struct_rawcdr_rec)(unsafe.Pointer(&buf[off]))
			if rec.flags&C.RAWCDR_REC_WRAP != 0 {
				t += ringBytes - off
				continue
			}
			size := uint64(rec.size)
			start := off + recHeader
			s := Sample{Publication: InstanceHandle(rec.publication), SourceTime: time.Unix(0, int64(rec.source_time)),
				Arrival: arr.at(int64(rec.arrival))}
			t += recHeader + (size+7)&^7
			r.received.Add(1)
			if r.lend {
				// The listener does not write these bytes before tail has passed them.
				s.Data = buf[start : start+size : start+size]
				r.handler(s)
				tail.Store(t)
				continue
			}
			s.Data = append(make([]byte, 0, size), buf[start:start+size]...)
			tail.Store(t)
			r.handler(s)
		}
		tail.Store(t)
		if stalled.Load() == 0 || r.stopping.Load() {
			return nil
		}
		if rc := C.rawcdr_ring_resume(rg, r.handle, r.batch); rc < 0 {
			return retcode(fmt.Sprintf("take from %q", r.topic), rc)
		}
		switch {
		case r.batch.n == 0:
		case r.stopping.Load():
			C.rawcdr_release(r.batch)
		default:
			// A sample the empty ring could not take: it comes before everything the ring
			// holds now.
			s := Sample{Publication: InstanceHandle(r.batch.publication[0]), SourceTime: time.Unix(0, int64(r.batch.source_time[0])),
				Arrival: arr.at(int64(r.batch.arrival[0]))}
			data := make([]byte, int(r.batch.total))
			C.rawcdr_copyout(r.batch, unsafe.Pointer(&data[0]))
			s.Data = data
			r.received.Add(1)
			r.handler(s)
		}
	}
	return nil
}

// Topic returns the DDS topic name.
func (r *Reader) Topic() string { return r.topic }

// GUID returns the reader's GUID.
func (r *Reader) GUID() GUID { return r.guid }

// InstanceHandle returns the reader's local instance handle.
func (r *Reader) InstanceHandle() InstanceHandle { return r.ih }

// Signals returns how many times the reader's listener woke its goroutine (a write to
// its eventfd): once per batch of samples in an eager reader, once per sample that its
// wake rule says must wake (or a half-full ring) in a deferred one.
func (r *Reader) Signals() uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&r.status.signals)))
}

// Received returns the number of samples handed to the handler.
func (r *Reader) Received() uint64 { return r.received.Load() }

// Err returns the error that stopped the reader goroutine, or nil.
func (r *Reader) Err() error {
	if e := r.err.Load(); e != nil {
		return *e
	}
	return nil
}

// Done is closed when the reader goroutine has ended and the reader is deleted.
func (r *Reader) Done() <-chan struct{} { return r.done }

// Stop asks the reader goroutine to end and returns at once: no handler call starts
// after Stop, one in progress runs to its end, then the goroutine deletes the reader
// and closes Done. It may be called from the handler.
func (r *Reader) Stop() {
	if r.stopping.Swap(true) {
		return
	}
	one := [8]byte{1}
	_, _ = r.wake.Write(one[:]) // ErrClosed: the goroutine has ended already
}

// Close stops the reader and waits until its goroutine has ended. It must not be
// called from the reader's own handler (use Stop there).
func (r *Reader) Close() error {
	r.Stop()
	<-r.done
	return nil
}

// OnIncompatibleQoS has f called on the reader's goroutine whenever the number of
// writers refused for incompatible QoS (see IncompatibleQoS) has grown since f last
// saw it, refusals before the call included. The listener signals such a refusal
// like a sample, so nothing polls for it. nil stops the calls.
func (r *Reader) OnIncompatibleQoS(f func(total uint32, policy string)) {
	if f == nil {
		r.onIncompatible.Store(nil)
		return
	}
	r.onIncompatible.Store(&f)
	one := [8]byte{1}
	_, _ = r.wake.Write(one[:]) // the goroutine looks at once; ErrClosed: it has ended
}

// reportIncompatible calls onIncompatible if the refusals have grown. It runs after
// every wake-up, so it only loads the total unless that has grown.
func (r *Reader) reportIncompatible() {
	f := r.onIncompatible.Load()
	if f == nil || incompatibleTotal(&r.status) <= r.seenIncompatible {
		return
	}
	total, policy, err := r.IncompatibleQoS()
	if err != nil {
		return
	}
	r.seenIncompatible = total
	(*f)(total, policy)
}

// IncompatibleQoS returns how many writers Cyclone has refused to match with r
// because their QoS cannot serve r's (DDS REQUESTED_INCOMPATIBLE_QOS), and the
// policy of the last refusal ("RELIABILITY", "DURABILITY", ...).
func (r *Reader) IncompatibleQoS() (uint32, string, error) {
	if r.stopping.Load() {
		return 0, "", fmt.Errorf("%w: reader on %q", ErrClosed, r.topic)
	}
	// Kept by the listener (rawcdr.h): no cgo call. The total is stored after the policy.
	total := incompatibleTotal(&r.status)
	policy := atomic.LoadInt32((*int32)(unsafe.Pointer(&r.status.incompatible_policy)))
	return total, policyName(C.dds_qos_policy_id_t(policy)), nil
}

// policyName names a QoS policy as DDS does, without the _QOS_POLICY suffix.
func policyName(id C.dds_qos_policy_id_t) string {
	switch id {
	case C.DDS_RELIABILITY_QOS_POLICY_ID:
		return "RELIABILITY"
	case C.DDS_DURABILITY_QOS_POLICY_ID:
		return "DURABILITY"
	case C.DDS_DEADLINE_QOS_POLICY_ID:
		return "DEADLINE"
	case C.DDS_LIVELINESS_QOS_POLICY_ID:
		return "LIVELINESS"
	case C.DDS_OWNERSHIP_QOS_POLICY_ID:
		return "OWNERSHIP"
	case C.DDS_PRESENTATION_QOS_POLICY_ID:
		return "PRESENTATION"
	case C.DDS_DESTINATIONORDER_QOS_POLICY_ID:
		return "DESTINATION_ORDER"
	case C.DDS_LATENCYBUDGET_QOS_POLICY_ID:
		return "LATENCY_BUDGET"
	case C.DDS_PARTITION_QOS_POLICY_ID:
		return "PARTITION"
	case C.DDS_DATA_REPRESENTATION_QOS_POLICY_ID:
		return "DATA_REPRESENTATION"
	}
	return fmt.Sprintf("policy %d", int(id))
}

// MatchedCount returns the number of writers matched as Cyclone's last
// subscription-matched callback (or the count taken at creation) counted them, without
// a cgo call; ok is false only if neither is known.
func (r *Reader) MatchedCount() (n int, ok bool) { return matchedCount(&r.status) }

// MatchedPublications describes the writers currently matched with r.
func (r *Reader) MatchedPublications() ([]Endpoint, error) {
	if r.stopping.Load() {
		return nil, fmt.Errorf("%w: reader on %q", ErrClosed, r.topic)
	}
	eps, err := matchedEndpoints(r.handle, false)
	if err != nil {
		return nil, fmt.Errorf("reader on %q: %w", r.topic, err)
	}
	return eps, nil
}

// MatchedPublication describes the matched writer with instance handle ih (as in
// Sample.Publication); ok is false if no such writer is matched (any more).
func (r *Reader) MatchedPublication(ih InstanceHandle) (ep Endpoint, ok bool) {
	if r.stopping.Load() {
		return Endpoint{}, false
	}
	c := C.dds_get_matched_publication_data(r.handle, C.dds_instance_handle_t(ih))
	if c == nil {
		return Endpoint{}, false
	}
	defer C.dds_builtintopic_free_endpoint(c)
	return endpointFromC(c, ih), true
}
