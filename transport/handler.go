package transport

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Handlers: a consumer that does its work on the worker's goroutine (doc.go). The
// worker calls it with each read's accepted datagrams, and with none at the instant it
// asked for or after Wake, while the socket is up (the read deadline) and while it is
// down (waitDown).

// Handler takes the accepted datagrams of one read at once, on the worker's goroutine
// (Worker.SetHandler), in the order read. It is also called with none when it asked
// for it: at the instant it last returned (system time; zero: none), and soon after
// every Worker.Wake. The datagrams alias the worker's read buffers and are valid only
// until the call returns: a handler that keeps any of a Payload must copy it. A Handler
// must return soon: the socket is not read while it runs.
type Handler func(ds []Datagram) (wake time.Time)

// SetHandler makes h take every datagram the worker accepts from then on, on the
// worker's goroutine, in place of the queue: no copy, no hand-off to another goroutine,
// and Delivered counts them as it would queued ones. h is called once soon after (as
// after Wake), so that it can ask for its first wake-up. nil goes back to the queue.
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
// link may be back), calling the handler meanwhile when it asks (Wake, its wake-up
// instant); false: ctx ended.
func (w *Worker) waitDown(ctx context.Context, wait time.Duration, wt *watcher) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	var ht *time.Timer
	defer func() {
		if ht != nil {
			ht.Stop()
		}
	}()
	for {
		var hc <-chan time.Time
		if !w.hwake.IsZero() && w.hasHandler.Load() {
			if ht == nil {
				ht = time.NewTimer(time.Until(w.hwake))
			} else {
				ht.Reset(time.Until(w.hwake))
			}
			hc = ht.C
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case <-wt.events():
			return true
		case <-hc:
			w.wakeHandler()
		case <-w.wakeCh:
			w.wakeHandler()
		}
	}
}

// setDeadline sets the read deadline to the earlier of next (the interface check) and
// the handler's wake-up instant, or to now when an event or a wake-up is pending.
// Unless forced it does nothing while that deadline is the one set last (dl): the
// read's deadline follows each of the handler's answers, also while it waits.
func (w *Worker) setDeadline(s *socket, poked *atomic.Bool, next time.Time, force bool) error {
	d := next
	if h := w.hwake; !h.IsZero() && w.hasHandler.Load() && (d.IsZero() || h.Before(d)) {
		d = h
	}
	if !force && d.Equal(w.dl) {
		return nil
	}
	w.dl = d
	if err := s.conn.SetReadDeadline(d); err != nil {
		return fmt.Errorf("transport: %s: %w", w.cfg.Name, err)
	}
	if poked.Load() || w.woken.Load() {
		_ = s.conn.SetReadDeadline(time.Now())
	}
	return nil
}

// handlerDue reports whether the handler's wake-up instant has come at now.
func (w *Worker) handlerDue(now time.Time) bool {
	return !w.hwake.IsZero() && !now.Before(w.hwake) && w.hasHandler.Load()
}

// handOverBatch gives the accepted datagrams of the read to the handler, or queues
// them if the handler is gone, and reports whether the handler took them. Their
// payloads are still the read's buffers: the next read has not started.
func (w *Worker) handOverBatch() bool {
	if len(w.hbatch) == 0 {
		return false
	}
	took := w.callHandler(w.hbatch)
	if !took {
		for _, d := range w.hbatch {
			w.enqueue(d)
		}
	}
	clear(w.hbatch) // drop the references to the buffers and addresses
	w.hbatch = w.hbatch[:0]
	return took
}

// wakeHandler calls the handler with no datagrams: it asked to be called.
func (w *Worker) wakeHandler() { w.callHandler(nil) }

// callHandler gives ds to the handler, if there still is one, takes its next wake-up
// instant and reports whether it did. The datagrams are counted before the call: a
// handler that reports one malformed finds it delivered. A wake-up asked for before
// the call is merged into it.
func (w *Worker) callHandler(ds []Datagram) bool {
	w.hmu.Lock()
	defer w.hmu.Unlock()
	w.woken.Store(false)
	if w.handler == nil {
		w.hwake = time.Time{}
		return false
	}
	for range ds {
		w.c.count(&w.c.queued)
	}
	w.hwake = w.handler(ds)
	return true
}
