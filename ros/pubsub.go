package ros

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// Publisher publishes messages of type T on one topic. Create it with NewPublisher;
// its methods are safe for concurrent use.
type Publisher[T any, P cdr.PtrMessage[T]] struct {
	node  *Node
	topic string // fully qualified ROS name
	w     *dds.Writer

	mu     sync.Mutex
	enc    cdr.Encoder
	buf    []byte
	closed bool
	held   bool // PublishHeld wrote a message that no Publish or Flush has sent yet
	sent   atomic.Uint64
	unread atomic.Uint64
}

// NewPublisher creates a publisher of T on topic, which is resolved for the node
// (relative and ~ names, remap rules). T is a generated message type, e.g.
// ros.NewPublisher[std_msgs.String](node, "chatter", ros.QoSDefault).
func NewPublisher[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS) (*Publisher[T, P], error) {
	fqn, err := n.ResolveTopic(topic)
	if err != nil {
		return nil, fmt.Errorf("ros: publisher: %w", err)
	}
	var zero T
	m := P(&zero)
	qos.UserData = n.typeHashUserData("", m.TypeHash())
	w, err := n.participant.NewWriter(TopicDDSName(fqn), m.DDSTypeName(), qos)
	if err != nil {
		return nil, fmt.Errorf("ros: publisher on %s: %w", fqn, closedErr(err))
	}
	p := &Publisher[T, P]{node: n, topic: fqn, w: w}
	if err := n.register(p, nil, []dds.GUID{w.GUID()}); err != nil {
		return nil, fmt.Errorf("ros: publisher on %s: %w", fqn, err)
	}
	return p, nil
}

// Topic returns the fully qualified topic name.
func (p *Publisher[T, P]) Topic() string { return p.topic }

// GUID returns the DDS writer's GUID, the publisher's GID in the ROS graph.
func (p *Publisher[T, P]) GUID() dds.GUID { return p.w.GUID() }

// SubscriptionCount returns the number of subscriptions (DDS readers) matched. It is
// the count Publish goes by: once it is above zero, what is published is written.
func (p *Publisher[T, P]) SubscriptionCount() (int, error) {
	if n, ok := p.w.MatchedCount(); ok {
		return n, nil
	}
	subs, err := p.w.MatchedSubscriptions()
	return len(subs), err
}

// Sent returns the number of messages published.
func (p *Publisher[T, P]) Sent() uint64 { return p.sent.Load() }

// Unread returns how many of the messages published went to no subscription: the
// publisher is volatile and DDS had matched no reader, so the message was serialised
// but not written.
func (p *Publisher[T, P]) Unread() uint64 { return p.unread.Load() }

// Listened reports whether a message published now can reach a subscription: false
// while DDS has matched no reader and the publisher is volatile, so a caller may skip
// building a message nobody receives.
func (p *Publisher[T, P]) Listened() bool { return !p.w.Unread() }

// AudienceChanges returns a channel that receives a value after the number of
// subscriptions matched changes (changes coalesce: one value waits at most), so a
// component that skips work while Listened is false can sleep until somebody
// subscribes instead of checking. Changes before the first call are not signalled. It
// returns nil when DDS cannot signal them; the caller then cannot rely on a signal.
func (p *Publisher[T, P]) AudienceChanges() <-chan struct{} {
	ch, err := p.w.MatchChanges()
	if err != nil {
		return nil
	}
	return ch
}

// Publish serialises msg and writes it. A message whose bounded string or sequence
// is too long is not sent (cdr.ErrBound). When no subscription is matched and the
// publisher is volatile, nobody can ever receive the message: it is serialised (so
// errors are the same) but not written, which saves the call into DDS (see
// dds.Writer.Unread).
func (p *Publisher[T, P]) Publish(msg *T) error { return p.publish(msg, false) }

// PublishHeld is Publish but for the sending: the message is written and held with
// the publisher's other unsent ones until Flush or the next Publish sends them all,
// packed into as few datagrams as they fit (dds.Writer.WriteHeld). For messages
// published back to back, such as one per teammate packet of a burst; the caller
// flushes before it waits for anything.
func (p *Publisher[T, P]) PublishHeld(msg *T) error { return p.publish(msg, true) }

// Flush sends the messages PublishHeld left unsent; it does nothing when there are none.
func (p *Publisher[T, P]) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held && !p.closed {
		p.w.Flush()
	}
	p.held = false
}

// FlushWithin is Flush for messages whose latency does not matter, such as periodic
// ones: they wait up to d for the next flush of any publisher of the process instead
// of waking the DDS send queue's thread themselves (dds.Writer.FlushWithin).
func (p *Publisher[T, P]) FlushWithin(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held && !p.closed {
		p.w.FlushWithin(d)
	}
	p.held = false
}

func (p *Publisher[T, P]) publish(msg *T, hold bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return fmt.Errorf("%w: publisher on %s", ErrClosed, p.topic)
	}
	p.enc.Reset(p.buf[:0])
	P(msg).MarshalCDR(&p.enc)
	b := p.enc.Finish()
	p.buf = b
	if err := p.enc.Err(); err != nil {
		return fmt.Errorf("ros: publish on %s: %w", p.topic, err)
	}
	var err error
	switch {
	case p.w.Unread():
		p.unread.Add(1)
		p.sent.Add(1)
		return nil
	case hold:
		err = p.w.WriteHeld(b)
	default:
		err = p.w.Write(b)
	}
	// dds.ErrQueuedWrite reports earlier writes: this message was written all the same.
	if err == nil || errors.Is(err, dds.ErrQueuedWrite) {
		p.held = hold // Write sent the held ones too
		p.sent.Add(1)
	}
	if err != nil {
		return fmt.Errorf("ros: publish on %s: %w", p.topic, err)
	}
	return nil
}

// Close removes the publisher.
func (p *Publisher[T, P]) Close() error {
	if !p.node.unregister(p, nil, []dds.GUID{p.w.GUID()}) {
		return nil
	}
	p.shutdown()
	return nil
}

func (p *Publisher[T, P]) shutdown() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	_ = p.w.Close()
}

// Subscription receives messages of type T from one topic; its goroutine decodes
// each sample into a new *T (or the reused one) and calls the handler, one message at
// a time.
type Subscription[T any, P cdr.PtrMessage[T]] struct {
	node    *Node
	topic   string
	r       *dds.Reader
	qos     QoS
	handler func(*T)
	reuse   *T // the message every sample is decoded into (NewSubscriptionReused); nil: a new one each
	// dec decodes the samples: receive runs for one sample at a time (on the reader's
	// goroutine, or Sync's caller under the reader's lock), and a Decoder passed on
	// from a local variable would escape to the heap, one allocation per sample.
	dec cdr.Decoder
	// handlerAt replaces handler in a deferred subscription (NewSubscriptionDeferred),
	// whose samples wait in the reader's ring until Sync unless its wake rule says not.
	handlerAt func(*T, time.Time)
	unswitch  func()                     // stops the clock's switch calls (deferred subscriptions)
	deferred  atomic.Pointer[dds.Reader] // s.r once it is deferred (the goroutine may run before s.r is set)

	incompatible atomic.Uint32 // the last number of refused publishers reported (qoswatch.go)
	received     atomic.Uint64
	dropped      atomic.Uint64
}

// NewSubscription subscribes handler to topic (resolved for the node). The handler
// runs on the subscription's own goroutine and owns the *T it gets. Samples that do
// not decode as T are dropped, counted (Dropped) and reported as a rate-limited
// warning. The subscription ends with Close or when the node shuts down.
func NewSubscription[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS, handler func(*T)) (*Subscription[T, P], error) {
	return newSubscription[T, P](n, topic, qos, handler, nil)
}

// NewSubscriptionReused is NewSubscription for a handler that keeps nothing of the
// message after it returns (it copies what it needs): every sample is decoded into the
// same *T, whose slices keep their room, so receiving allocates nothing for the
// message. The handler must not keep m, its slices or pointers into it.
func NewSubscriptionReused[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS, handler func(m *T)) (*Subscription[T, P], error) {
	return newSubscription[T, P](n, topic, qos, handler, new(T))
}

// newSubscription starts a subscription calling handler with reuse, or with a new *T
// for every sample when reuse is nil.
func newSubscription[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS, handler func(*T), reuse *T) (*Subscription[T, P], error) {
	if handler == nil {
		return nil, fmt.Errorf("ros: subscription on %q needs a handler", topic)
	}
	s := &Subscription[T, P]{node: n, handler: handler, reuse: reuse}
	if err := s.start(topic, qos); err != nil {
		return nil, err
	}
	return s, nil
}

// NewSubscriptionDeferred is NewSubscriptionReused for an input that may wait until
// somebody needs it: a sample wakes the subscription's goroutine at once only when
// rule says so (dds.WakeRule: its key differs from the previous sample's, the rule
// cannot tell, the ring is half full); the others wait in the reader's ring until
// Sync, which hands them to the handler on the caller's goroutine. The handler gets
// each message with the ROS time it arrived (Cyclone's listener took it), so a sample
// handled late carries the time it would have carried handled at once. While
// simulation time is active the subscription is eager, like the others (its samples
// then carry the simulation time at which they are handled).
//
// Whoever reads state that the handler writes must call Sync first, and not from the
// handler itself.
func NewSubscriptionDeferred[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS, handler func(m *T, at time.Time), rule dds.WakeRule) (*Subscription[T, P], error) {
	if handler == nil {
		return nil, fmt.Errorf("ros: subscription on %q needs a handler", topic)
	}
	if err := rule.Validate(); err != nil {
		return nil, fmt.Errorf("ros: subscription on %q: %w", topic, err)
	}
	s := &Subscription[T, P]{node: n, handlerAt: handler, reuse: new(T)}
	if err := s.start(topic, qos); err != nil {
		return nil, err
	}
	apply := func(sim bool) {
		if sim {
			_ = s.r.Eager()
		} else {
			_ = s.r.Defer(rule)
		}
	}
	// A switch that runs while the subscription starts wins over the state read here:
	// both happen under mu, and the start does not apply once a switch has.
	var mu sync.Mutex
	switched := false
	s.unswitch = n.clock.onSwitch(func(sim bool) {
		mu.Lock()
		defer mu.Unlock()
		switched = true
		apply(sim)
	})
	mu.Lock()
	if !switched {
		apply(n.clock.SimActive())
	}
	mu.Unlock()
	s.deferred.Store(s.r)
	return s, nil
}

// Sync hands every message that arrived on a deferred subscription (and waits) to the
// handler before it returns, on the calling goroutine. It does nothing for other
// subscriptions, and must not be called from the subscription's own handler.
func (s *Subscription[T, P]) Sync() {
	if s.handlerAt != nil {
		_ = s.r.Sync() // a failure ends the reader, whose goroutine reports it (Err)
	}
}

// NewSubscriptionChan subscribes to topic and delivers the messages on a channel
// with the given buffer. When the buffer is full, new messages are dropped and
// counted (Dropped), so a slow consumer never stalls DDS. The channel is closed when
// the subscription has ended.
func NewSubscriptionChan[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos QoS, buffer int) (*Subscription[T, P], <-chan *T, error) {
	ch := make(chan *T, buffer)
	s := &Subscription[T, P]{node: n}
	s.handler = func(m *T) {
		select {
		case ch <- m:
		default:
			s.dropped.Add(1)
		}
	}
	if err := s.start(topic, qos); err != nil {
		return nil, nil, err
	}
	go func() {
		<-s.r.Done()
		close(ch)
	}()
	return s, ch, nil
}

func (s *Subscription[T, P]) start(topic string, qos QoS) error {
	n := s.node
	fqn, err := n.ResolveTopic(topic)
	if err != nil {
		return fmt.Errorf("ros: subscription: %w", err)
	}
	s.topic = fqn
	s.qos = qos
	var zero T
	m := P(&zero)
	qos.UserData = n.typeHashUserData("", m.TypeHash())
	// receive decodes each sample and keeps none of its bytes (cdr decoders copy strings
	// and octets), so the bytes can stay in the reader's ring.
	if s.r, err = n.participant.NewReaderLent(TopicDDSName(fqn), m.DDSTypeName(), qos, s.receive); err != nil {
		return fmt.Errorf("ros: subscription on %s: %w", fqn, closedErr(err))
	}
	if err := n.register(s, []dds.GUID{s.r.GUID()}, nil); err != nil {
		return fmt.Errorf("ros: subscription on %s: %w", fqn, err)
	}
	s.watchQoS()
	return nil
}

func (s *Subscription[T, P]) receive(sample dds.Sample) {
	s.received.Add(1)
	msg := s.reuse
	if msg == nil {
		msg = new(T)
	}
	err := s.dec.Reset(sample.Data)
	if err == nil {
		err = P(msg).UnmarshalCDR(&s.dec)
	}
	if err != nil {
		s.dropped.Add(1)
		s.node.log.WarnEvery("decode "+s.topic, 5*time.Second, "dropped a message on %s: %v", s.topic, err)
		if r := s.deferred.Load(); r != nil {
			// The wake rule remembers this sample's key, the handler's state does not.
			r.WakeNext()
		}
		return
	}
	if s.handlerAt != nil {
		s.handlerAt(msg, s.node.clock.arrival(sample.Arrival))
		return
	}
	s.handler(msg)
}

// Topic returns the fully qualified topic name.
func (s *Subscription[T, P]) Topic() string { return s.topic }

// GUID returns the DDS reader's GUID, the subscription's GID in the ROS graph.
func (s *Subscription[T, P]) GUID() dds.GUID { return s.r.GUID() }

// PublisherCount returns the number of publishers (DDS writers) matched.
func (s *Subscription[T, P]) PublisherCount() (int, error) {
	if n, ok := s.r.MatchedCount(); ok {
		return n, nil
	}
	pubs, err := s.r.MatchedPublications()
	return len(pubs), err
}

// Received returns the number of samples received, dropped ones included.
func (s *Subscription[T, P]) Received() uint64 { return s.received.Load() }

// Dropped returns the number of samples that did not decode or did not fit the channel.
func (s *Subscription[T, P]) Dropped() uint64 { return s.dropped.Load() }

// Done is closed when the subscription has ended.
func (s *Subscription[T, P]) Done() <-chan struct{} { return s.r.Done() }

// Close ends the subscription: no handler call starts after it returns, but one in
// progress runs to its end (wait for Done if needed). It may be called from the handler.
func (s *Subscription[T, P]) Close() error {
	if !s.node.unregister(s, []dds.GUID{s.r.GUID()}, nil) {
		return nil
	}
	if s.unswitch != nil {
		s.unswitch()
	}
	s.shutdown()
	return nil
}

func (s *Subscription[T, P]) shutdown() { s.r.Stop() }
