package bus

import (
	"errors"
	"net/netip"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Conn is one UDP socket as a component sees it. *transport.Worker implements it.
type Conn interface {
	// Datagrams returns the queue of received datagrams; it is closed when the socket's
	// worker stops.
	Datagrams() <-chan transport.Datagram
	// SendTo sends one datagram to a unicast or multicast destination.
	SendTo(b []byte, dst netip.AddrPort) error
	// SendToEach sends the datagram to every destination, as SendTo to each would (every
	// one may fail alone), in as few system calls as it can; it returns how many were
	// sent and the error of the last that was not.
	SendToEach(b []byte, dsts []netip.AddrPort) (int, error)
	// Broadcast sends one datagram to the directed broadcast address of the socket's
	// interface.
	Broadcast(b []byte, port uint16) error
	// ReportMalformed counts the last delivered datagram as malformed instead.
	ReportMalformed()
	// Stats returns the socket's counters.
	Stats() transport.Stats
	// Interface reports the interface the socket uses.
	Interface() transport.Choice
}

var _ Conn = (*transport.Worker)(nil)

// HandlerConn is a Conn that can give its datagrams to a function on the socket's own
// goroutine instead of its queue (transport.Worker.SetHandler), a read's at once, and
// call that function with none when asked to (Wake), so that a component can let the
// socket's goroutine own its state. It clears the handler, not holding a
// lock the handler takes, before it stops; Done is closed when the socket's worker has
// stopped (after which the handler is never called).
type HandlerConn interface {
	Conn
	SetHandler(h transport.Handler)
	Wake()
	Done() <-chan struct{}
}

var _ HandlerConn = (*transport.Worker)(nil)

// Publisher publishes messages of one type on one topic.
type Publisher[T any] interface {
	Publish(m *T) error
}

// HeldPublisher is a Publisher that can hold messages and send them together
// (ros.Publisher does: Cyclone packs them into as few datagrams as they fit). A
// component that publishes one message per packet of a burst holds them and flushes
// once, before it waits for anything: held messages wait with it.
type HeldPublisher[T any] interface {
	Publisher[T]
	// PublishHeld publishes m like Publish but holds it, with the others held, until
	// Flush or the next Publish.
	PublishHeld(m *T) error
	// Flush sends the held messages.
	Flush()
	// FlushWithin sends the held messages with the next flush of any publisher of the
	// process, or within d at the latest.
	FlushWithin(d time.Duration)
}

// PublishQueued publishes m held and flushes it within within when p is a
// HeldPublisher (a plain Publish otherwise). For a periodic message whose latency does
// not matter: it may wait up to within for the next flush of anything else. A
// ros.Publisher then hands it to the DDS send queue's thread without waking it (it
// rides the thread's next pass, which the next burst brings), instead of writing it on
// the caller's goroutine by a cgo call, which wakes the Go runtime's monitor thread
// when the process was idle. It flushes after an error too: ros.Publisher holds m all
// the same when its error reports earlier writes.
func PublishQueued[T any](p Publisher[T], m *T, within time.Duration) error {
	h, ok := p.(HeldPublisher[T])
	if !ok {
		return p.Publish(m)
	}
	err := h.PublishHeld(m)
	h.FlushWithin(within)
	return err
}

// Audience is implemented by publishers that know whether anything published now
// can reach a subscriber (ros.Publisher does: not while DDS has matched no reader of
// a volatile topic). A component may skip building a message nobody can receive.
type Audience interface {
	Listened() bool
}

// Listened reports whether a message published on p now may reach a subscriber: false
// only when p is an Audience that says none can.
func Listened[T any](p Publisher[T]) bool {
	a, ok := p.(Audience)
	return !ok || a.Listened()
}

// AudienceWatcher is an Audience that also signals when its audience may have
// changed (ros.Publisher: after the number of matched subscriptions changes).
type AudienceWatcher interface {
	Audience
	AudienceChanges() <-chan struct{}
}

// AudienceChanges returns p's channel of audience changes, nil when p cannot signal
// them. Periodic work for nobody may stop only while there is such a channel to wake
// it when somebody subscribes; a receiver reads Listened after each value.
func AudienceChanges[T any](p Publisher[T]) <-chan struct{} {
	if a, ok := p.(AudienceWatcher); ok {
		return a.AudienceChanges()
	}
	return nil
}

// PublisherFunc adapts a function to Publisher.
type PublisherFunc[T any] func(m *T) error

// Publish calls f(m).
func (f PublisherFunc[T]) Publish(m *T) error { return f(m) }

// Recorder is a Publisher that keeps copies of everything published. It is safe for
// concurrent use.
type Recorder[T any] struct {
	mu      sync.Mutex
	msgs    []T
	held    []T           // PublishHeld's, not flushed yet: not in msgs
	flushes int           // Flush and FlushWithin calls that sent held messages
	within  time.Duration // the last flush's FlushWithin d, 0 after Flush
	ch      chan struct{}
}

var _ HeldPublisher[int] = (*Recorder[int])(nil)

// Publish records a copy of *m, after the held messages (which it sends, as
// ros.Publisher does).
func (r *Recorder[T]) Publish(m *T) error {
	r.mu.Lock()
	r.msgs = append(append(r.msgs, r.held...), *m)
	r.held = r.held[:0]
	ch := r.ch
	r.ch = nil
	r.mu.Unlock()
	if ch != nil {
		close(ch)
	}
	return nil
}

// PublishHeld keeps a copy of *m, recorded only once flushed.
func (r *Recorder[T]) PublishHeld(m *T) error {
	r.mu.Lock()
	r.held = append(r.held, *m)
	r.mu.Unlock()
	return nil
}

// Flush records the held messages.
func (r *Recorder[T]) Flush() { r.flush(0) }

// FlushWithin records the held messages at once, as Flush does, and remembers d
// (LastWithin).
func (r *Recorder[T]) FlushWithin(d time.Duration) { r.flush(d) }

func (r *Recorder[T]) flush(within time.Duration) {
	r.mu.Lock()
	r.within = within
	if len(r.held) == 0 {
		r.mu.Unlock()
		return
	}
	r.msgs = append(r.msgs, r.held...)
	r.held = r.held[:0]
	r.flushes++
	ch := r.ch
	r.ch = nil
	r.mu.Unlock()
	if ch != nil {
		close(ch)
	}
}

// LastWithin returns the d of the last flush: FlushWithin's, 0 after Flush.
func (r *Recorder[T]) LastWithin() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.within
}

// Held returns how many messages are held, not flushed.
func (r *Recorder[T]) Held() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.held)
}

// Flushes returns how many Flush and FlushWithin calls sent held messages.
func (r *Recorder[T]) Flushes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushes
}

// Messages returns a copy of the messages published so far.
func (r *Recorder[T]) Messages() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]T(nil), r.msgs...)
}

// Len returns how many messages were published.
func (r *Recorder[T]) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs)
}

// Last returns the latest message and whether there is one.
func (r *Recorder[T]) Last() (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var zero T
	if len(r.msgs) == 0 {
		return zero, false
	}
	return r.msgs[len(r.msgs)-1], true
}

// Reset forgets the recorded messages.
func (r *Recorder[T]) Reset() {
	r.mu.Lock()
	r.msgs = nil
	r.mu.Unlock()
}

// WaitLen waits until at least n messages were published or the timeout passes, and
// reports whether they were.
func (r *Recorder[T]) WaitLen(n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		r.mu.Lock()
		if len(r.msgs) >= n {
			r.mu.Unlock()
			return true
		}
		if r.ch == nil {
			r.ch = make(chan struct{})
		}
		ch := r.ch
		r.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		select {
		case <-ch:
		case <-time.After(left):
		}
	}
}

// Sent is one datagram a FakeConn was asked to send.
type Sent struct {
	Payload   []byte
	Dst       netip.AddrPort // unicast or multicast destination; invalid for broadcasts
	Broadcast bool
	Port      uint16 // destination port of a broadcast
}

// ErrFakeClosed is returned by FakeConn sends after Close.
var ErrFakeClosed = errors.New("bus: fake connection closed")

// FakeConn is an in-memory Conn. Deliver queues a received datagram; what the
// component sends is recorded. Counters follow the transport's rules so tests can check
// received = delivered + dropped.
type FakeConn struct {
	mu     sync.Mutex
	ch     chan transport.Datagram
	sent   []Sent
	stats  transport.Stats
	choice transport.Choice
	closed bool
	// SendErr, if set, is returned by every send (and counted as a send error).
	SendErr error
}

// NewFakeConn returns a FakeConn whose receive queue holds up to queue datagrams.
func NewFakeConn(queue int) *FakeConn {
	return &FakeConn{ch: make(chan transport.Datagram, queue),
		choice: transport.Choice{Name: "fake0"}}
}

// Deliver queues a received datagram, or counts it as QueueFull if the queue is full.
// It reports whether the datagram was queued.
func (f *FakeConn) Deliver(d transport.Datagram) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.stats.Received++
	select {
	case f.ch <- d:
		f.stats.Delivered++
		return true
	default:
		f.stats.QueueFull++
		return false
	}
}

// Close closes the receive queue, as a worker does when it stops.
func (f *FakeConn) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.ch)
	}
}

// Datagrams implements Conn.
func (f *FakeConn) Datagrams() <-chan transport.Datagram { return f.ch }

func (f *FakeConn) send(s Sent) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		f.stats.SendErrors++
		return ErrFakeClosed
	}
	if f.SendErr != nil {
		f.stats.SendErrors++
		return f.SendErr
	}
	s.Payload = append([]byte(nil), s.Payload...)
	f.sent = append(f.sent, s)
	f.stats.Sent++
	return nil
}

// SendTo implements Conn.
func (f *FakeConn) SendTo(b []byte, dst netip.AddrPort) error {
	return f.send(Sent{Payload: b, Dst: dst})
}

// SendToEach implements Conn: SendTo to each destination in turn.
func (f *FakeConn) SendToEach(b []byte, dsts []netip.AddrPort) (int, error) {
	n := 0
	var last error
	for _, d := range dsts {
		if err := f.SendTo(b, d); err != nil {
			last = err
		} else {
			n++
		}
	}
	return n, last
}

// Broadcast implements Conn.
func (f *FakeConn) Broadcast(b []byte, port uint16) error {
	return f.send(Sent{Payload: b, Broadcast: true, Port: port})
}

// ReportMalformed implements Conn.
func (f *FakeConn) ReportMalformed() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stats.Delivered > 0 {
		f.stats.Delivered--
		f.stats.Malformed++
	}
}

// Stats implements Conn.
func (f *FakeConn) Stats() transport.Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// Interface implements Conn.
func (f *FakeConn) Interface() transport.Choice { return f.choice }

// Sent returns copies of the datagrams sent so far.
func (f *FakeConn) Sent() []Sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Sent(nil), f.sent...)
}

// ResetSent forgets the datagrams sent so far.
func (f *FakeConn) ResetSent() {
	f.mu.Lock()
	f.sent = nil
	f.mu.Unlock()
}

// InputSync is a component's hook for inputs held back elsewhere (the node's deferred
// input subscriptions): the component calls Sync before it reads what its input setters
// wrote, and the hook hands the held-back inputs over through those setters. The zero
// value does nothing.
type InputSync func()

// Sync calls s, if set. The caller holds no lock that the component's setters take.
func (s InputSync) Sync() {
	if s != nil {
		s()
	}
}
