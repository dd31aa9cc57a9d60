package ros

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// Services in rmw_cyclonedds framing
//
// A service /ns/srv is a request topic rq/ns/srvRequest and a reply topic
// rr/ns/srvReply. Every request and reply sample carries, between the encapsulation
// header and the ROS message, a 16-byte header (so the body keeps its alignment):
//
//	offset  size  field
//	0       8     guid  uint64: the client's request-writer instance handle
//	8       8     seq   int64: request number, counted per client process
//	16      ...   the request or response message
//
// The server copies both fields into the reply; a client keeps the replies whose
// guid is its own writer's handle and matches them to requests by seq. Before
// replying, the server waits up to ReplyMatchTimeout until its reply writer has
// matched the client's reply reader (found through the clientid in the USER_DATA of
// the client's request writer), so the first reply to a fresh client is not lost.
// Clients on rmw_fastrtps (Fast DDS) frame requests differently and cannot take these
// replies (that limit exists between ROS's own RMWs too): their requests are
// recognised by the writer's GUID and USER_DATA, dropped, counted (Foreign) and logged
// once per client with the fix (peers.go); they are never read as this framing.

// RequestHeaderSize is the size of rmw_cyclonedds' request header.
const RequestHeaderSize = 16

// ReplyMatchTimeout is how long a service waits for the client's reply reader.
const ReplyMatchTimeout = 100 * time.Millisecond

// RequestHeader is rmw_cyclonedds' in-band header of service requests and replies.
type RequestHeader struct {
	GUID uint64 // the client's request-writer instance handle
	Seq  int64  // request number
}

// appendFramed appends a complete sample to dst: the encapsulation header, h and
// m's body. It reports a bound violation of m (cdr.ErrBound).
func appendFramed(e *cdr.Encoder, dst []byte, h RequestHeader, m cdr.Message) ([]byte, error) {
	e.Reset(dst)
	e.Uint64(h.GUID)
	e.Int64(h.Seq)
	m.MarshalCDR(e)
	return e.Finish(), e.Err()
}

// decodeFramed decodes a request or reply sample into its header and m.
func decodeFramed(sample []byte, m cdr.Message) (RequestHeader, error) {
	var d cdr.Decoder
	if err := d.Reset(sample); err != nil {
		return RequestHeader{}, err
	}
	h := RequestHeader{GUID: d.Uint64(), Seq: d.Int64()}
	if err := d.Err(); err != nil {
		return RequestHeader{}, fmt.Errorf("request header: %w", err)
	}
	return h, m.UnmarshalCDR(&d)
}

// Errors of service clients.
var (
	// ErrNoService reports that no server of the service has been found.
	ErrNoService = errors.New("ros: service not available")
)

// Service answers requests of one service with a handler. Create it with NewService.
type Service[Req, Resp any, PReq cdr.PtrMessage[Req], PResp cdr.PtrMessage[Resp]] struct {
	node    *Node
	name    string
	r       *dds.Reader
	w       *dds.Writer
	handler func(*Req) *Resp

	enc cdr.Encoder // used by the reader goroutine only
	buf []byte

	requests, replies, dropped, unanswered, foreign atomic.Uint64
}

// NewService serves the service name (resolved for the node) with handler, which
// runs on the service's goroutine, one request at a time. A nil response sends no
// reply. Requests that do not decode are dropped, counted and reported as a
// rate-limited warning.
func NewService[Req, Resp any, PReq cdr.PtrMessage[Req], PResp cdr.PtrMessage[Resp]](n *Node, name string, qos QoS, handler func(*Req) *Resp) (*Service[Req, Resp, PReq, PResp], error) {
	if handler == nil {
		return nil, fmt.Errorf("ros: service %q needs a handler", name)
	}
	fqn, err := n.ResolveService(name)
	if err != nil {
		return nil, fmt.Errorf("ros: service: %w", err)
	}
	var req Req
	var resp Resp
	reqTopic, replyTopic := ServiceDDSNames(fqn)
	id := "serviceid=" + n.newCSID() + ";"
	s := &Service[Req, Resp, PReq, PResp]{node: n, name: fqn, handler: handler}
	wq := qos
	wq.UserData = n.typeHashUserData(id, PResp(&resp).TypeHash())
	if s.w, err = n.participant.NewWriter(replyTopic, PResp(&resp).DDSTypeName(), wq); err != nil {
		return nil, fmt.Errorf("ros: service %s: %w", fqn, closedErr(err))
	}
	rq := qos
	rq.UserData = n.typeHashUserData(id, PReq(&req).TypeHash())
	if s.r, err = n.participant.NewReader(reqTopic, PReq(&req).DDSTypeName(), rq, s.receive); err != nil {
		_ = s.w.Close()
		return nil, fmt.Errorf("ros: service %s: %w", fqn, closedErr(err))
	}
	if err := n.register(s, []dds.GUID{s.r.GUID()}, []dds.GUID{s.w.GUID()}); err != nil {
		return nil, fmt.Errorf("ros: service %s: %w", fqn, err)
	}
	return s, nil
}

// Name returns the fully qualified service name.
func (s *Service[Req, Resp, PReq, PResp]) Name() string { return s.name }

// ServiceStats counts what a service did.
type ServiceStats struct {
	Requests   uint64 // samples received
	Replies    uint64 // replies written
	Dropped    uint64 // requests that did not decode, or whose reply could not be encoded or written
	Unanswered uint64 // nil responses, clients gone, or reply readers that never matched
	Foreign    uint64 // requests from clients on rmw_fastrtps, which cannot take this node's replies (peers.go)
}

// Stats returns the service's counters.
func (s *Service[Req, Resp, PReq, PResp]) Stats() ServiceStats {
	return ServiceStats{s.requests.Load(), s.replies.Load(), s.dropped.Load(), s.unanswered.Load(), s.foreign.Load()}
}

func (s *Service[Req, Resp, PReq, PResp]) receive(sample dds.Sample) {
	s.requests.Add(1)
	log := s.node.log
	if ep, ok := s.r.MatchedPublication(sample.Publication); ok && s.node.foreignRequest(s.name, ep) {
		s.foreign.Add(1) // never decoded as rmw_cyclonedds framing: it has none
		return
	}
	req := new(Req)
	h, err := decodeFramed(sample.Data, PReq(req))
	if err != nil {
		s.dropped.Add(1)
		log.WarnEvery("request "+s.name, 5*time.Second, "service %s: dropped a request: %v", s.name, err)
		return
	}
	resp := s.handler(req)
	if resp == nil {
		s.unanswered.Add(1)
		return
	}
	b, err := appendFramed(&s.enc, s.buf[:0], h, PResp(resp))
	s.buf = b
	seq := h.Seq
	if err != nil {
		s.dropped.Add(1)
		log.WarnEvery("reply "+s.name, 5*time.Second, "service %s: reply to request %d not sent: %v", s.name, seq, err)
		return
	}
	switch waitForReplyReader(s.r, s.w, sample.Publication, ReplyMatchTimeout) {
	case clientGone:
		s.unanswered.Add(1)
		return
	case clientNotMatched:
		s.unanswered.Add(1)
		log.WarnEvery("match "+s.name, 5*time.Second, "service %s: client's reply reader not matched within %v, reply to request %d not sent", s.name, ReplyMatchTimeout, seq)
		return
	}
	if err := s.w.Write(b); err != nil {
		s.dropped.Add(1)
		log.WarnEvery("reply "+s.name, 5*time.Second, "service %s: %v", s.name, err)
		return
	}
	s.replies.Add(1)
}

type clientState uint8

const (
	clientMatched    clientState = iota // the client's reply reader is matched: reply
	clientNotMatched                    // request writer known, reply reader not matched yet
	clientGone                          // the request writer is gone: nobody to reply to
)

// waitForReplyReader waits up to timeout until the reply writer w has matched the
// reply reader of the client whose request writer has instance handle ih (as seen
// by the request reader r), as rmw_cyclonedds' rmw_send_response does.
func waitForReplyReader(r *dds.Reader, w *dds.Writer, ih dds.InstanceHandle, timeout time.Duration) clientState {
	deadline := time.Now().Add(timeout)
	for {
		st := replyReaderState(r, w, ih)
		if st != clientNotMatched || !time.Now().Before(deadline) {
			return st
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func replyReaderState(r *dds.Reader, w *dds.Writer, ih dds.InstanceHandle) clientState {
	ep, ok := r.MatchedPublication(ih)
	if !ok {
		return clientGone
	}
	id, ok := userDataValue(ep.QoS.UserData, "clientid")
	if !ok {
		return clientMatched // a client without an id: assume its reader is there
	}
	subs, err := w.MatchedSubscriptions()
	if err != nil {
		return clientGone
	}
	for _, sub := range subs {
		if v, ok := userDataValue(sub.QoS.UserData, "clientid"); ok && v == id {
			return clientMatched
		}
	}
	return clientNotMatched
}

// Close removes the service; a request being handled is finished.
func (s *Service[Req, Resp, PReq, PResp]) Close() error {
	if !s.node.unregister(s, []dds.GUID{s.r.GUID()}, []dds.GUID{s.w.GUID()}) {
		return nil
	}
	s.shutdown()
	return nil
}

func (s *Service[Req, Resp, PReq, PResp]) shutdown() {
	s.r.Stop()
	go func() { // the writer must outlive a reply in progress
		<-s.r.Done()
		_ = s.w.Close()
	}()
}

// requestSeq numbers requests of all clients of the process, as rmw_cyclonedds does.
var requestSeq atomic.Int64

// Client calls a service in rmw_cyclonedds framing. Create it with NewClient; its
// methods are safe for concurrent use.
type Client[Req, Resp any, PReq cdr.PtrMessage[Req], PResp cdr.PtrMessage[Resp]] struct {
	node *Node
	name string
	w    *dds.Writer
	r    *dds.Reader
	// guid is the request writer's instance handle; the reply reader's callback reads it
	// from the moment the reader exists, before the writer does (0: no reply is ours).
	guid atomic.Uint64

	mu      sync.Mutex
	enc     cdr.Encoder
	buf     []byte
	pending map[int64]chan *Resp
	dropped atomic.Uint64

	// closed is closed when the client is closed or its node shuts down: the calls
	// waiting then end with ErrClosed, since no reply can reach them any more.
	closed    chan struct{}
	closeOnce sync.Once
}

// NewClient creates a client of the service name (resolved for the node).
func NewClient[Req, Resp any, PReq cdr.PtrMessage[Req], PResp cdr.PtrMessage[Resp]](n *Node, name string, qos QoS) (*Client[Req, Resp, PReq, PResp], error) {
	fqn, err := n.ResolveService(name)
	if err != nil {
		return nil, fmt.Errorf("ros: client: %w", err)
	}
	var req Req
	var resp Resp
	reqTopic, replyTopic := ServiceDDSNames(fqn)
	id := "clientid=" + n.newCSID() + ";"
	c := &Client[Req, Resp, PReq, PResp]{node: n, name: fqn, pending: map[int64]chan *Resp{}, closed: make(chan struct{})}
	rq := qos
	rq.UserData = n.typeHashUserData(id, PResp(&resp).TypeHash())
	if c.r, err = n.participant.NewReader(replyTopic, PResp(&resp).DDSTypeName(), rq, c.receive); err != nil {
		return nil, fmt.Errorf("ros: client of %s: %w", fqn, closedErr(err))
	}
	wq := qos
	wq.UserData = n.typeHashUserData(id, PReq(&req).TypeHash())
	if c.w, err = n.participant.NewWriter(reqTopic, PReq(&req).DDSTypeName(), wq); err != nil {
		c.r.Stop()
		return nil, fmt.Errorf("ros: client of %s: %w", fqn, closedErr(err))
	}
	c.guid.Store(uint64(c.w.InstanceHandle()))
	if err := n.register(c, []dds.GUID{c.r.GUID()}, []dds.GUID{c.w.GUID()}); err != nil {
		return nil, fmt.Errorf("ros: client of %s: %w", fqn, err)
	}
	return c, nil
}

// Name returns the fully qualified service name.
func (c *Client[Req, Resp, PReq, PResp]) Name() string { return c.name }

// Ready reports whether a server is available: the request writer has matched a
// request reader, and the reply reader a reply writer with the same serviceid
// (rmw_service_server_is_available).
func (c *Client[Req, Resp, PReq, PResp]) Ready() bool {
	subs, err := c.w.MatchedSubscriptions()
	if err != nil {
		return false
	}
	pubs, err := c.r.MatchedPublications()
	if err != nil {
		return false
	}
	for _, s := range subs {
		sid, ok := userDataValue(s.QoS.UserData, "serviceid")
		if !ok {
			return len(pubs) > 0
		}
		for _, p := range pubs {
			if pid, ok := userDataValue(p.QoS.UserData, "serviceid"); ok && pid == sid {
				return true
			}
		}
	}
	return false
}

// WaitForService waits until Ready, ctx ends or the client is closed (ErrClosed).
func (c *Client[Req, Resp, PReq, PResp]) WaitForService(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for !c.Ready() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %s: %w", ErrNoService, c.name, ctx.Err())
		case <-c.closed:
			return fmt.Errorf("%w: waiting for service %s: the client was closed", ErrClosed, c.name)
		case <-t.C:
		}
	}
	return nil
}

// Call sends req and waits for the response, the end of ctx, or the client's closing
// (ErrClosed: by Close or the node's shutdown).
func (c *Client[Req, Resp, PReq, PResp]) Call(ctx context.Context, req *Req) (*Resp, error) {
	seq := requestSeq.Add(1)
	ch := make(chan *Resp, 1)
	c.mu.Lock()
	b, err := appendFramed(&c.enc, c.buf[:0], RequestHeader{GUID: c.guid.Load(), Seq: seq}, PReq(req))
	c.buf = b
	if err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("ros: call %s: %w", c.name, err)
	}
	c.pending[seq] = ch
	err = c.w.Write(b)
	c.mu.Unlock()
	if err != nil {
		c.forget(seq)
		return nil, fmt.Errorf("ros: call %s: %w", c.name, closedErr(err))
	}
	select {
	case resp := <-ch:
		return resp, nil
	case <-ctx.Done():
		c.forget(seq)
		return nil, fmt.Errorf("ros: call %s (request %d): %w", c.name, seq, ctx.Err())
	case <-c.closed:
		c.forget(seq)
		return nil, fmt.Errorf("%w: call %s (request %d): the client was closed", ErrClosed, c.name, seq)
	}
}

func (c *Client[Req, Resp, PReq, PResp]) forget(seq int64) {
	c.mu.Lock()
	delete(c.pending, seq)
	c.mu.Unlock()
}

func (c *Client[Req, Resp, PReq, PResp]) receive(sample dds.Sample) {
	resp := new(Resp)
	h, err := decodeFramed(sample.Data, PResp(resp))
	if err == nil && h.GUID != c.guid.Load() {
		return // a reply to another client of the same service
	}
	seq := h.Seq
	if err != nil {
		c.dropped.Add(1)
		c.node.log.WarnEvery("reply "+c.name, 5*time.Second, "client of %s: dropped a reply: %v", c.name, err)
		return
	}
	c.mu.Lock()
	ch := c.pending[seq]
	delete(c.pending, seq)
	c.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
}

// Close removes the client.
func (c *Client[Req, Resp, PReq, PResp]) Close() error {
	if !c.node.unregister(c, []dds.GUID{c.r.GUID()}, []dds.GUID{c.w.GUID()}) {
		return nil
	}
	c.shutdown()
	return nil
}

func (c *Client[Req, Resp, PReq, PResp]) shutdown() {
	c.closeOnce.Do(func() { close(c.closed) })
	c.r.Stop()
	_ = c.w.Close()
}
