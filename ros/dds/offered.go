//go:build cgo

package dds

/*
#include "rawcdr.h"
*/
import "C"

import (
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"unsafe"
)

// offeredWatch is a participant's watch over the readers its writers refuse for
// incompatible QoS (DDS OFFERED_INCOMPATIBLE_QOS). Each writer's listener stores its
// refusals in the writer's status block and adds 1 to one eventfd of the participant;
// one goroutine waits for it in Go's netpoller and calls the callback for each writer
// whose refusals have grown. Guarded by the participant's mu, except seen (owned by the
// goroutine).
type offeredWatch struct {
	file *os.File // the eventfd; nil until OnOfferedIncompatibleQoS
	fn   func(w *Writer, total uint32, policy string)
	seen map[*Writer]uint32
}

// fdLocked returns the eventfd new writers signal, or -1. The participant's mu is held.
func (o *offeredWatch) fdLocked() int32 {
	if o.file == nil {
		return -1
	}
	return int32(o.file.Fd())
}

// stop closes the eventfd, ending the goroutine, once no listener can signal it: the
// participant is deleted with its writers.
func (o *offeredWatch) stop() {
	if o.file != nil {
		o.file.Close()
	}
}

// OnOfferedIncompatibleQoS has fn called, on a goroutine of the participant, whenever
// the number of readers that one of its writers refused to match because their QoS
// asks for more than the writer offers (a transient-local reader of a volatile writer,
// a reliable reader of a best-effort one; see Writer.IncompatibleQoS) has grown since
// fn last saw that writer, refusals before the call included. DDS does not say which
// reader was refused: Incompatibilities applied to the topic's discovered readers
// (DiscoveredSubscriptions) tells. Writers' listeners signal refusals through one
// eventfd, so nothing polls. It may be called once per participant; fn must not close
// the participant.
func (p *Participant) OnOfferedIncompatibleQoS(fn func(w *Writer, total uint32, policy string)) error {
	if fn == nil {
		return fmt.Errorf("dds: OnOfferedIncompatibleQoS needs a function")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return fmt.Errorf("%w: participant", ErrClosed)
	}
	if p.offered.file != nil {
		return fmt.Errorf("dds: the participant's writers are watched already")
	}
	f, rc, fd, err := polledEventfd("dds-offered-incompatible-qos")
	if err != nil {
		return fmt.Errorf("dds: %w", err)
	}
	p.offered.file, p.offered.fn, p.offered.seen = f, fn, map[*Writer]uint32{}
	for w := range p.writers {
		atomic.StoreInt32((*int32)(unsafe.Pointer(&w.status.incompatible_fd)), fd)
	}
	go func() {
		ew := newEventWait(func() bool {
			p.reportOffered()
			return false
		})
		p.reportOffered()  // refusals before the call
		_ = rc.Read(ew.fn) // ends when stop closes the descriptor
	}()
	return nil
}

// reportOffered calls the callback for each writer whose refusals have grown.
func (p *Participant) reportOffered() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	writers := make([]*Writer, 0, len(p.writers))
	for w := range p.writers {
		writers = append(writers, w)
	}
	fn, seen := p.offered.fn, p.offered.seen
	p.mu.Unlock()
	for w := range seen {
		if w.closed.Load() {
			delete(seen, w)
		}
	}
	for _, w := range writers {
		total, policy, err := w.IncompatibleQoS()
		if err != nil || total <= seen[w] {
			continue
		}
		seen[w] = total
		fn(w, total, policy)
	}
}

// IncompatibleQoS returns how many readers Cyclone has refused to match with w
// because they ask for more than w offers (DDS OFFERED_INCOMPATIBLE_QOS), and the
// policy of the last refusal ("DURABILITY", "RELIABILITY", ...). It loads what the
// writer's listener stored: no cgo call.
func (w *Writer) IncompatibleQoS() (uint32, string, error) {
	if w.closed.Load() {
		return 0, "", fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	total := atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.status.incompatible)))
	policy := atomic.LoadInt32((*int32)(unsafe.Pointer(&w.status.incompatible_policy)))
	if total == 0 {
		return 0, "", nil
	}
	return total, policyName(C.dds_qos_policy_id_t(policy)), nil
}

// TypeName returns the writer's DDS type name.
func (w *Writer) TypeName() string { return w.typeName }

// QoS returns the QoS the writer was created with.
func (w *Writer) QoS() QoS {
	q := w.qos
	q.UserData = slices.Clone(q.UserData)
	return q
}
