//go:build cgo

package dds

/*
#include "rawcdr.h"
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sendQueue is the process's send queue (rawcdr.h): held writes that cannot block are
// copied into its ring with atomic stores alone and made by a C thread of the queue's
// own, so that they need no cgo call.
type sendQueue struct {
	q   *C.struct_rawcdr_sendq
	buf []byte // q.buf
	// mu makes one producer at a time; a writer's closing takes it after it marked the
	// writer closed, so no record of the writer is queued after its last drain.
	mu sync.Mutex
}

var (
	sendqOnce sync.Once
	sendq     atomic.Pointer[sendQueue] // nil until started, and if the thread cannot start
)

// theSendQueue returns the send queue, started at the first call (the first held
// write); nil if its thread cannot start (held writes are then cgo calls too).
func theSendQueue() *sendQueue {
	sendqOnce.Do(func() {
		q, _ := C.rawcdr_sendq_start()
		if q == nil {
			return
		}
		sendq.Store(&sendQueue{q: q, buf: unsafe.Slice((*byte)(unsafe.Pointer(&q.buf[0])), C.RAWCDR_SENDQ_BYTES)})
	})
	return sendq.Load()
}

const (
	sendRecHeader  = int(unsafe.Sizeof(C.struct_rawcdr_sendrec{}))
	sendQueueBytes = C.RAWCDR_SENDQ_BYTES
)

// push queues a record for w (sample nil: a flush only); false when it does not fit
// now. Called with s.mu held.
func (s *sendQueue) push(w *Writer, sample []byte, flags uint32) bool {
	size := len(sample)
	need := (sendRecHeader + size + 7) &^ 7
	capacity := len(s.buf)
	head := atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.head)))
	tail := atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.tail)))
	off := int(head & uint64(capacity-1))
	skip := 0
	if capacity-off < need {
		skip = capacity - off
	}
	if uint64(capacity)-(head-tail) < uint64(skip+need) {
		return false
	}
	if skip > 0 {
		if skip >= sendRecHeader {
			(*C.struct_rawcdr_sendrec)(unsafe.Pointer(&s.buf[off])).flags = C.RAWCDR_SEND_WRAP
		}
		head += uint64(skip)
		off = 0
	}
	r := (*C.struct_rawcdr_sendrec)(unsafe.Pointer(&s.buf[off]))
	r.size, r.flags, r.writer = C.uint32_t(size), C.uint32_t(flags), w.handle
	// The writer's status block is pinned until the writer is deleted, which its
	// closing does only after draining the queue (Writer.Close, Participant.Close).
	*(*uintptr)(unsafe.Pointer(&r.status)) = uintptr(unsafe.Pointer(&w.status))
	copy(s.buf[off+sendRecHeader:], sample)
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&s.q.head)), head+uint64(need))
	return true
}

// wake wakes the queue's thread if it waits: a raw write to its eventfd, which does
// not enter Go's system-call path.
func (s *sendQueue) wake() {
	if atomic.SwapUint32((*uint32)(unsafe.Pointer(&s.q.sleeping)), 0) != 1 {
		return
	}
	one := uint64(1)
	for {
		_, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(s.q.fd), uintptr(unsafe.Pointer(&one)), 8)
		if e != unix.EINTR {
			return // an eventfd write fails only on overflow (2^64-1 signals) or a bad descriptor
		}
	}
}

// passBy makes sure the queue's thread passes (makes what is queued) within d: unless
// a deadline no later than now+d is set already, it stores now+d as lazy_deadline and
// arms the timerfd for it, a raw timerfd_settime(2), which neither is a cgo call nor
// enters Go's system-call path. The deadline is on CLOCK_MONOTONIC (monoAt: no system
// call). Called with s.mu held, after the push (rawcdr.h tells why that order
// leaves no record behind).
func (s *sendQueue) passBy(d time.Duration) {
	now := monoAt(time.Now())
	at := now + int64(d)
	if at < now {
		at = math.MaxInt64
	}
	p := (*uint64)(unsafe.Pointer(&s.q.lazy_deadline))
	if cur := atomic.LoadUint64(p); cur != 0 && cur <= uint64(at) {
		return
	}
	atomic.StoreUint64(p, uint64(at))
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(at)}
	// Cannot fail: the descriptor lives as long as the process, the value is in range.
	_, _, _ = unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(s.q.tfd), unix.TFD_TIMER_ABSTIME, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
}

// drainAfterClose makes every write queued so far, on the calling thread (a cgo
// call), after writers marked closed: taking mu waits for a producer that saw one open,
// so no record of theirs is queued after the drain and they can be deleted.
func drainAfterClose() {
	s := sendq.Load()
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	C.rawcdr_sendq_drain(s.q)
}

// queuedWrites counts the writes queued (for tests).
var queuedWrites atomic.Uint64

// syncWrites counts the writes the queue could not take now (full), made by a cgo
// call after draining it (for tests).
var syncWrites atomic.Uint64

// holdSendQueue locks the queue's mutex, so that its thread makes no write until the
// returned function unlocks it; the calling goroutine stays on its thread meanwhile
// (tests).
func holdSendQueue(s *sendQueue) (release func()) {
	runtime.LockOSThread()
	C.pthread_mutex_lock(&s.q.mu)
	return func() {
		C.pthread_mutex_unlock(&s.q.mu)
		runtime.UnlockOSThread()
	}
}

// sendQueueState is a snapshot of the queue for tests: its thread's wake-ups by cause,
// whether it sleeps (or is about to), records pending, the lazy deadline, and the ns
// until its timerfd expires (0: disarmed).
type sendQueueState struct {
	wakesEvent, wakesTimer uint64
	sleeping, pending      bool
	lazyDeadline           uint64
	timerLeft              time.Duration
}

func (s *sendQueue) state() sendQueueState {
	return sendQueueState{
		wakesEvent:   atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.wakes_event))),
		wakesTimer:   atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.wakes_timer))),
		sleeping:     atomic.LoadUint32((*uint32)(unsafe.Pointer(&s.q.sleeping))) == 1,
		pending:      atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.head))) != atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.tail))),
		lazyDeadline: atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.q.lazy_deadline))),
		timerLeft:    time.Duration(C.rawcdr_sendq_timer_left(s.q)),
	}
}

// deleteHandle deletes w's entity behind the Writer's back, so that queued writes
// fail (tests).
func deleteHandle(w *Writer) { C.dds_delete(w.handle) }
