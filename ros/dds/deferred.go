//go:build cgo

package dds

/*
#include "rawcdr.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// monotonic reads CLOCK_MONOTONIC in ns, the clock of the listener's stamps (and of
// time.Now's monotonic part). A raw system call, as the transport's reads are: it
// never blocks, and the runtime's system-call path around an ordinary one would wake
// its monitor thread (sysmon) after an idle spell, at every drain.
func monotonic() int64 {
	clockReads.Add(1)
	var ts unix.Timespec
	if _, _, e := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}

// clockReads counts monotonic's system calls (for tests).
var clockReads atomic.Uint64

// arrivals turns the listener's CLOCK_MONOTONIC arrival stamps into time.Time values on
// time.Now's clock, for one drain: the monotonic part comes from the process's one
// pairing of the two clocks (clockPair), the wall part from a time.Now taken at the
// drain's first sample, so that a step of the system's clock since start-up is seen.
type arrivals struct {
	now     time.Time // zero until the first sample
	nowMono int64     // CLOCK_MONOTONIC at now
}

func (a *arrivals) at(mono int64) time.Time {
	if a.now.IsZero() {
		a.now = time.Now()
		a.nowMono = monoAt(a.now)
	}
	return a.now.Add(time.Duration(mono - a.nowMono))
}

var pair struct {
	once sync.Once
	base time.Time
	mono int64
}

// monoAt returns the CLOCK_MONOTONIC reading of t, a time with a monotonic reading
// (time.Now's), through the process's pairing of the two clocks (clockPair): exact,
// and no system call.
func monoAt(t time.Time) int64 {
	base, baseMono := clockPair()
	return baseMono + int64(t.Sub(base))
}

// clockPair returns a time.Now and the CLOCK_MONOTONIC reading of the same instant,
// taken once per process: time.Now's monotonic part is CLOCK_MONOTONIC less a constant,
// so one pairing holds for good. It is the middle of the tightest of a few monotonic
// readings taken around a time.Now, so that a preemption between two readings does not
// shift every arrival by its length; each reading is a system call (a microsecond or
// so in a virtual machine), which a drain (every delivery to a subscription, every
// input sync) and a lazy flush (Writer.FlushWithin) should not pay.
func clockPair() (time.Time, int64) {
	pair.once.Do(func() {
		best := int64(-1)
		for range 8 {
			m0 := monotonic()
			w := time.Now()
			m1 := monotonic()
			if d := m1 - m0; best < 0 || d < best {
				pair.base, pair.mono, best = w, m0+d/2, d
			}
		}
	})
	return pair.base, pair.mono
}

// cWake is rule (valid) as C's struct.
func cWake(rule WakeRule) C.struct_rawcdr_wake {
	var w C.struct_rawcdr_wake
	w.nsteps = C.uint32_t(len(rule))
	for i, s := range rule {
		w.step[i] = C.struct_rawcdr_wake_step{op: C.uint32_t(s.Op), n: C.uint32_t(s.N), div: C.double(s.Div),
			lim: [2]C.double{C.double(s.Limits[0]), C.double(s.Limits[1])}}
	}
	return w
}

// Defer switches r to deferred mode: a sample no longer wakes the reader's goroutine
// unless rule says it must (WakeRule), the ring is half full, or a sample waits for
// room; the others wait in the ring until Sync, or until the goroutine wakes for a
// later one. Each Sample carries the time it arrived. A nil rule has no keys: only a
// half-full ring or a sample that waits for room wakes the goroutine. Switching
// forgets the previous sample's key, so the next sample wakes the goroutine.
func (r *Reader) Defer(rule WakeRule) error {
	if err := rule.Validate(); err != nil {
		return err
	}
	w := cWake(rule)
	r.drainMu.Lock()
	defer r.drainMu.Unlock()
	if r.gone {
		return fmt.Errorf("%w: reader on %q", ErrClosed, r.topic)
	}
	C.rawcdr_ring_defer(r.ring, 1, &w)
	return nil
}

// Eager switches r back to waking its goroutine for every sample and hands what waits
// in the ring to the handler at once (as Sync).
func (r *Reader) Eager() error {
	r.drainMu.Lock()
	defer r.drainMu.Unlock()
	if r.gone {
		return nil
	}
	C.rawcdr_ring_defer(r.ring, 0, nil)
	return r.drain()
}

// Sync hands every sample that has arrived (and waits in the ring) to the handler,
// on the calling goroutine, in order, and returns once the handler has had them all:
// whatever the caller reads next reflects every sample that arrived before the call.
// It is cheap when the ring is empty (a lock and two atomic loads). It must not be
// called from the reader's own handler. An error is the reader's failure, which its goroutine
// reports too (Err).
func (r *Reader) Sync() error {
	r.drainMu.Lock()
	defer r.drainMu.Unlock()
	if r.gone || r.stopping.Load() {
		return nil
	}
	return r.drain()
}

// WakeNext makes the next sample wake the goroutine whatever its key: for a handler
// that rejected a sample, whose key the rule remembers although the handler's state
// did not change. Call it only from the reader's handler (where the ring is held).
func (r *Reader) WakeNext() {
	(*atomic.Uint32)(unsafe.Pointer(&r.ring.haskey)).Store(0)
}

// EvalWake evaluates rule on one serialised sample (encapsulation header and body) as
// a deferred reader's listener does: the sample's key, and whether the key is certain
// (false: the sample wakes the goroutine whatever the key).
func EvalWake(rule WakeRule, sample []byte) (key []byte, certain bool, err error) {
	if err := rule.Validate(); err != nil {
		return nil, false, err
	}
	w := cWake(rule)
	var k [MaxWakeKey]C.uchar
	var n C.uint32_t
	var p *C.uchar
	if len(sample) > 0 {
		p = (*C.uchar)(unsafe.Pointer(&sample[0]))
	}
	ok := C.rawcdr_wake_eval(&w, p, C.uint32_t(len(sample)), &k[0], &n)
	key = make([]byte, int(n))
	for i := range key {
		key[i] = byte(k[i])
	}
	return key, ok == 1, nil
}
