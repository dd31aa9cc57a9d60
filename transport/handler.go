package transport

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Handlers: a consumer that does its work on the worker's goroutine (doc.go). The
// worker calls it with each read's accepted datagrams, and with none after Wake, while
// the socket is up (Wake ends the read: its deadline moves to now) and while it is
// down (waitDown).

// Handler takes the accepted datagrams of one read at once, on the worker's goroutine
// (Worker.SetHandler), in the order read, and is called with none soon after every
// Worker.Wake. The datagrams alias the worker's read buffers and are valid only until
// the call returns: a handler that keeps any of a Payload must copy it. A Handler must
// return soon: the socket is not read while it runs.
type Handler func(ds []Datagram)

// SetHandler makes h take every datagram the worker accepts from then on, on the
// worker's goroutine, in place of the queue: no copy, no hand-off to another goroutine,
// and Delivered counts them as it would queued ones. h is called once soon after (as
// after Wake), with none. nil goes back to the queue.
// When SetHandler returns, no call of the handler it replaced is running or will start;
// it must therefore not be called from the handler, nor by a goroutine holding a lock
// the handler takes. Datagrams queued before stay in the queue.
func (w *Worker) SetHandler(h Handler) {
	w.hmu.Lock()
	w.handler = h
	w.hasHandler.Store(h != nil)
	w.hmu.Unlock()
	if h != nil {
		w.Wake()
	}
}

// Wake makes the worker call its handler soon, with the datagrams of a read or with
// none, whether the socket is up or down. It never blocks and takes no lock, so it may
// be called from anywhere, also from the handler; wake-ups asked for before a call
// starts are merged into it. It does nothing without a handler or while Run is not
// running.
func (w *Worker) Wake() {
	w.woken.Store(true)
	if s := w.sock.Load(); s != nil {
		_ = s.conn.SetReadDeadline(time.Now())
	}
	select {
	case w.wakeCh <- struct{}{}:
	default:
	}
}

// Done returns a channel that is closed when Run has returned.
func (w *Worker) Done() <-chan struct{} { return w.done }

// waitDown waits wait between open attempts, or less if an interface event comes (the
// link may be back), calling the handler meanwhile after every Wake; false: ctx ended.
func (w *Worker) waitDown(ctx context.Context, wait time.Duration, wt *watcher) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case <-wt.events():
			return true
		case <-w.wakeCh:
			w.callHandler(nil)
		}
	}
}

// setDeadline sets the read deadline to next (the interface check; zero: none), or to
// now when an interface event or a wake-up is pending: an event that set its flag
// before this call, whose own move of the deadline this one may have undone, still
// ends the next wait.
func (w *Worker) setDeadline(s *socket, poked *atomic.Bool, next time.Time) error {
	if err := s.conn.SetReadDeadline(next); err != nil {
		return fmt.Errorf("transport: %s: %w", w.cfg.Name, err)
	}
	if poked.Load() || w.woken.Load() {
		_ = s.conn.SetReadDeadline(time.Now())
	}
	return nil
}

// handOverBatch gives the accepted datagrams of the read to the handler, or queues
// them if the handler is gone. Their payloads are still the read's buffers: the next
// read has not started.
func (w *Worker) handOverBatch() {
	if len(w.hbatch) == 0 {
		return
	}
	if !w.callHandler(w.hbatch) {
		for _, d := range w.hbatch {
			w.enqueue(d)
		}
	}
	clear(w.hbatch) // drop the references to the buffers and addresses
	w.hbatch = w.hbatch[:0]
}

// callHandler gives ds to the handler, if there still is one, and reports whether it
// did. The datagrams are counted before the call: a handler that reports one malformed
// finds it delivered. A wake-up asked for before the call is merged into it.
func (w *Worker) callHandler(ds []Datagram) bool {
	w.hmu.Lock()
	defer w.hmu.Unlock()
	w.woken.Store(false)
	if w.handler == nil {
		return false
	}
	for range ds {
		w.c.count(&w.c.queued)
	}
	w.handler(ds)
	return true
}
