package transport

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// Limits and defaults of a worker.
const (
	// MaxUDPPayload is the largest IPv4 UDP payload: 65535 bytes of IP packet minus the
	// 20-byte IPv4 header and the 8-byte UDP header.
	MaxUDPPayload = 65535 - 20 - 8
	// DefaultQueueLen is the capacity of the hand-off queue.
	DefaultQueueLen = 256
	// DefaultRecheck is how often a worker verifies that its interface is still usable
	// when it cannot watch the kernel's interface events.
	DefaultRecheck = time.Second
	// DefaultBackoffMin and DefaultBackoffMax bound the wait between attempts to
	// (re)open the socket; the wait doubles after every failed attempt.
	DefaultBackoffMin = 250 * time.Millisecond
	DefaultBackoffMax = 8 * time.Second
	// DefaultMulticastTTL keeps multicast on the robot's own subnet.
	DefaultMulticastTTL = 1
	// HostOnlyTTL as Config.MulticastTTL sends multicast with TTL 0: it never leaves
	// this host, which is what several simulated robots on one machine want.
	HostOnlyTTL = -1
)

// Errors of the send path and of the worker's life cycle.
var (
	// ErrDown reports a send while the socket is not open: the worker has not opened
	// it yet, or the interface went away and the worker is retrying.
	ErrDown = errors.New("transport: socket not open")
	// ErrClosed reports a send after Run returned.
	ErrClosed = errors.New("transport: worker stopped")
	// ErrTooLarge reports a payload longer than the worker's MaxDatagram.
	ErrTooLarge = errors.New("transport: datagram too large")
	// ErrNoBroadcast reports a broadcast on a worker whose interface has no broadcast
	// address (any interface, point-to-point links).
	ErrNoBroadcast = errors.New("transport: interface has no broadcast address")
	// ErrNotMulticast reports a group that is not an IPv4 multicast address.
	ErrNotMulticast = errors.New("transport: not an IPv4 multicast group")
	// ErrRunTwice reports a second call of Run.
	ErrRunTwice = errors.New("transport: Run called twice")
	// ErrConfig reports an invalid Config.
	ErrConfig = errors.New("transport: bad config")
)

// Filter decides whether a received datagram is handed to the consumer. It runs on the
// worker's goroutine before the payload is copied, so it must be fast and must not keep
// d or d.Payload. Rejected datagrams are counted as Filtered.
type Filter func(d Datagram) bool

// Direction tells a Tap whether a datagram was received or sent.
type Direction uint8

const (
	// Received marks a datagram read from the socket.
	Received Direction = iota + 1
	// Sent marks a datagram the kernel accepted for sending.
	Sent
)

// String returns "received" or "sent".
func (d Direction) String() string {
	switch d {
	case Received:
		return "received"
	case Sent:
		return "sent"
	}
	return "direction(" + fmt.Sprint(uint8(d)) + ")"
}

// Tap observes every datagram a worker receives (before the Filter, oversize ones
// excepted) and every one it sends, for instance to record them. It runs on the
// goroutine that read or sent the datagram, so it must return at once; it must not keep
// d.Payload. A sent datagram has Src set to the worker's local address and Time to the
// send time.
type Tap func(dir Direction, d Datagram)

// AllowFrom returns a Filter that accepts datagrams whose source address lies in one of
// the prefixes (use a /32 for a single host, e.g. the GameController).
func AllowFrom(prefixes ...netip.Prefix) Filter {
	ps := slices.Clone(prefixes)
	return func(d Datagram) bool {
		a := d.Src.Addr()
		for _, p := range ps {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
}

// Config configures a Worker. The zero value of every field except Port selects a
// sensible default.
type Config struct {
	// Name labels the worker in logs and errors, e.g. "gamecontroller".
	Name string
	// Interface selects the interface (see ParseSelector): a name, a CIDR, an IPv4
	// address, "auto" (the default) or "any".
	Interface string
	// Port is the local UDP port. 0 lets the kernel pick one at the first open; the
	// worker keeps that port when it reopens the socket.
	Port uint16
	// Groups are IPv4 multicast groups joined on the interface whenever the socket opens.
	Groups []netip.Addr
	// MulticastTTL is the TTL of sent multicast datagrams: 0 means DefaultMulticastTTL,
	// HostOnlyTTL means TTL 0.
	MulticastTTL int
	// MulticastLoopback delivers sent multicast to sockets on this host as well.
	MulticastLoopback bool
	// MaxDatagram is the largest payload received or sent; larger received datagrams
	// are counted as Oversize, larger sends fail with ErrTooLarge. 0 means MaxUDPPayload.
	MaxDatagram int
	// QueueLen is the capacity of the hand-off queue; 0 means DefaultQueueLen.
	QueueLen int
	// ReadBuffer sets SO_RCVBUF in bytes; 0 keeps the system default.
	ReadBuffer int
	// Filter, if set, is asked about every datagram before it is queued.
	Filter Filter
	// Tap, if set, sees every datagram received and sent.
	Tap Tap
	// Recheck is how often the worker verifies its interface when it cannot watch the
	// kernel's interface events (it normally checks on every event); 0 means
	// DefaultRecheck.
	Recheck time.Duration
	// BackoffMin and BackoffMax bound the wait between open attempts; 0 means the
	// defaults.
	BackoffMin, BackoffMax time.Duration
	// OnStatus, if set, is called on the worker's goroutine whenever the state or the
	// error changes. It must not block.
	OnStatus func(Status)
	// Logger receives one line per state change; nil means slog.Default().
	Logger *slog.Logger
	// Now stamps received datagrams; nil means time.Now.
	Now func() time.Time
}

// State is the life-cycle state of a worker.
type State uint8

const (
	// StateStarting is the state before the first open attempt finished.
	StateStarting State = iota
	// StateUp means the socket is open on the chosen interface.
	StateUp
	// StateDown means the socket is closed and the worker is retrying.
	StateDown
	// StateStopped means Run has returned.
	StateStopped
)

// String returns the state's name.
func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateUp:
		return "up"
	case StateDown:
		return "down"
	case StateStopped:
		return "stopped"
	}
	return "state(" + fmt.Sprint(uint8(s)) + ")"
}

// Status describes a worker for logs and diagnostics.
type Status struct {
	State State
	// Interface is the interface in use while up, or the last one used.
	Interface Choice
	// Local is the bound address (0.0.0.0 and the port).
	Local netip.AddrPort
	// Err says why the worker is down; nil while up.
	Err error
	// RetryIn is the wait before the next open attempt while down.
	RetryIn time.Duration
	// Since is when the state last changed.
	Since time.Time
	// ReadBuffer is the socket's effective SO_RCVBUF in bytes while up (the kernel's
	// figure: twice the request, capped by net.core.rmem_max without privilege).
	ReadBuffer int
	// NoCarrier says, while up, that the interface has no carrier (carrier.go): the
	// socket stays open, but what it sends goes nowhere (Stats.SentNoCarrier).
	NoCarrier bool
}

// socket is one open socket and what it was opened for.
type socket struct {
	conn      *net.UDPConn
	pc        *ipv4.PacketConn
	out       *sender // raw sends to IPv4 destinations
	choice    Choice
	port      uint16
	drops     uint32 // the kernel's drop count as last reported (SO_RXQ_OVFL); Run's goroutine only
	allGroups bool   // IP_MULTICAST_ALL stayed on: the worker drops others' groups (otherGroup)
}

func (s *socket) join(g netip.Addr) error {
	if err := s.membership(unix.IP_ADD_MEMBERSHIP, g); err != nil {
		return fmt.Errorf("transport: join %v on %v: %w", g, s.choice, err)
	}
	return nil
}

func (s *socket) leave(g netip.Addr) error {
	if err := s.membership(unix.IP_DROP_MEMBERSHIP, g); err != nil {
		return fmt.Errorf("transport: leave %v on %v: %w", g, s.choice, err)
	}
	return nil
}

// Worker owns one UDP socket. Run opens it on the selected interface, reads datagrams
// into a bounded queue and reopens it when the interface goes away and comes back.
// Sends may be called from any goroutine.
type Worker struct {
	cfg   Config
	sel   Selector
	max   int
	log   *slog.Logger
	queue chan Datagram
	done  chan struct{}
	c     counters
	sock  atomic.Pointer[socket] // the open socket, nil while down
	began atomic.Bool
	// noCarrier mirrors Status.NoCarrier for the send path.
	noCarrier atomic.Bool

	mu      sync.Mutex // guards the fields below and the writes of sock
	stopped bool
	port    uint16
	groups  []netip.Addr
	status  Status
	up      chan struct{} // closed while a socket is open

	// ifaces caches interface names and broadcast addresses by index for sockets bound
	// to any interface; only Run's goroutine touches it.
	ifaces map[int]ifaceInfo
	// arena is the block queued payloads are cut from (copyPayload); Run's goroutine only.
	arena []byte

	// handler, if set (SetHandler), takes accepted datagrams instead of the queue; hmu is
	// held while it runs, so that SetHandler can wait for a call in progress. hasHandler
	// spares the other workers the lock.
	hmu        sync.Mutex
	handler    Handler
	hasHandler atomic.Bool
	// woken asks for a call of the handler (Wake), wakeCh wakes the wait between open
	// attempts for it (capacity 1).
	woken  atomic.Bool
	wakeCh chan struct{}
	// hbatch collects the accepted datagrams of the read in progress for the handler;
	// Run's goroutine only.
	hbatch []Datagram

	// setInt, if set, replaces unix.SetsockoptInt for the socket's options (tests play a
	// kernel lacking one); warnedMissing (noteMissing): Run's goroutine only.
	setInt        func(fd, level, opt, value int) error
	warnedMissing bool
}

type ifaceInfo struct {
	name  string
	bcast netip.Addr
}

// New validates cfg and returns a worker; nothing is opened before Run.
func New(cfg Config) (*Worker, error) {
	sel, err := ParseSelector(cfg.Interface)
	if err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = "udp"
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrConfig, cfg.Name, fmt.Sprintf(format, args...)))
	}
	if cfg.MaxDatagram < 0 || cfg.MaxDatagram > MaxUDPPayload {
		bad("MaxDatagram %d outside 0..%d", cfg.MaxDatagram, MaxUDPPayload)
	}
	if cfg.QueueLen < 0 {
		bad("QueueLen %d is negative", cfg.QueueLen)
	}
	if cfg.MulticastTTL < HostOnlyTTL || cfg.MulticastTTL > 255 {
		bad("MulticastTTL %d outside -1..255", cfg.MulticastTTL)
	}
	if cfg.Recheck < 0 || cfg.BackoffMin < 0 || cfg.BackoffMax < 0 {
		bad("negative Recheck or backoff")
	}
	for _, g := range cfg.Groups {
		if !g.Is4() || !g.IsMulticast() {
			bad("group %v is not an IPv4 multicast address", g)
		}
	}
	cfg.Recheck = cmp.Or(cfg.Recheck, DefaultRecheck)
	cfg.BackoffMin = cmp.Or(cfg.BackoffMin, DefaultBackoffMin)
	cfg.BackoffMax = max(cmp.Or(cfg.BackoffMax, DefaultBackoffMax), cfg.BackoffMin)
	cfg.QueueLen = cmp.Or(cfg.QueueLen, DefaultQueueLen)
	cfg.MaxDatagram = cmp.Or(cfg.MaxDatagram, MaxUDPPayload)
	cfg.MulticastTTL = cmp.Or(cfg.MulticastTTL, DefaultMulticastTTL)
	if cfg.MulticastTTL == HostOnlyTTL {
		cfg.MulticastTTL = 0
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	w := &Worker{
		cfg:    cfg,
		sel:    sel,
		max:    cfg.MaxDatagram,
		log:    log.With("worker", cfg.Name, "interface", sel.String()),
		queue:  make(chan Datagram, cfg.QueueLen),
		done:   make(chan struct{}),
		port:   cfg.Port,
		groups: slices.Clone(cfg.Groups),
		up:     make(chan struct{}),
		status: Status{State: StateStarting},
		ifaces: map[int]ifaceInfo{},
		wakeCh: make(chan struct{}, 1),
	}
	return w, nil
}

// Name returns the worker's label.
func (w *Worker) Name() string { return w.cfg.Name }

// Datagrams returns the hand-off queue. It is closed when Run returns.
func (w *Worker) Datagrams() <-chan Datagram { return w.queue }

// ReportMalformed tells the worker that the consumer could not decode a delivered
// datagram, so the counters keep Received == Delivered + Dropped. Call it at most once
// per datagram taken from the queue or given to the handler.
func (w *Worker) ReportMalformed() { w.c.malformed.Add(1) }

// Stats returns a snapshot of the counters.
func (w *Worker) Stats() Stats { return w.c.snapshot() }

// Status returns the current state, interface and error.
func (w *Worker) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status
}

// Interface returns the interface in use (or last used), for logs and diagnostics.
func (w *Worker) Interface() Choice { return w.Status().Interface }

// LocalAddr returns the address other hosts reach this socket at: the interface
// address and the bound port, or 0.0.0.0 and the port for any interface. Before the
// first open the port is Config.Port.
func (w *Worker) LocalAddr() netip.AddrPort {
	w.mu.Lock()
	defer w.mu.Unlock()
	a := netip.IPv4Unspecified()
	if c := w.status.Interface; !c.IsAny() {
		a = c.Addr.Addr()
	}
	return netip.AddrPortFrom(a, w.port)
}

// WaitUp blocks until the socket is open, ctx is done or Run has returned.
func (w *Worker) WaitUp(ctx context.Context) error {
	w.mu.Lock()
	up := w.up
	w.mu.Unlock()
	select {
	case <-up:
		return nil
	case <-w.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run opens the socket and reads datagrams until ctx is done; then it closes the socket
// and the queue and returns nil. A bad datagram never ends it: it is counted and
// skipped. When the interface goes down, loses its address or the socket fails, Run
// reports the error (Status, OnStatus, one log line), closes the socket and reopens it
// with exponential backoff. All socket and interface work happens on the calling
// goroutine, so a caller may pin it to an OS thread (for instance one inside a network
// namespace).
func (w *Worker) Run(ctx context.Context) error {
	if !w.began.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	defer close(w.done)
	defer close(w.queue)
	defer w.setStatus(func(s *Status) { s.State, s.Err, s.RetryIn = StateStopped, nil, 0 })
	defer w.stop()
	stop := context.AfterFunc(ctx, w.stop)
	defer stop()

	bt := newBatch(w.max)
	// One watch of the kernel's interface events for the whole Run (opened here, on the
	// goroutine that opens the sockets, so in their network namespace): while up every
	// event checks the interface, while down every event tries to reopen at once, so a
	// socket comes back with its link rather than with the backoff timer.
	var wt *watcher
	if w.sel.kind != selAny {
		wt = w.startWatch()
		defer wt.stop()
	}
	backoff := w.cfg.BackoffMin
	for {
		s, err := w.open(ctx)
		if err == nil {
			w.report(w.Status())
			backoff = w.cfg.BackoffMin
			err = w.serve(ctx, s, bt, wt)
			w.detach(s)
		}
		if ctx.Err() != nil {
			return nil
		}
		wait := backoff
		backoff = min(2*backoff, w.cfg.BackoffMax)
		w.noCarrier.Store(false)
		w.setStatus(func(st *Status) { st.State, st.Err, st.RetryIn, st.NoCarrier = StateDown, err, wait, false })
		if !w.waitDown(ctx, wait, wt) {
			return nil
		}
	}
}

// stop marks the worker stopped and closes the open socket, which ends the read.
func (w *Worker) stop() {
	w.mu.Lock()
	w.stopped = true
	s := w.sock.Load()
	w.mu.Unlock()
	if s != nil {
		s.conn.Close()
	}
}

// open resolves the interface, opens and configures the socket, and publishes it with
// the Up status; the caller reports that status.
func (w *Worker) open(ctx context.Context) (_ *socket, err error) {
	choice, err := w.sel.Resolve()
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	port := w.port
	w.mu.Unlock()
	conn, missing, err := listen(ctx, port, sockOpts{device: choice.Name, readBuffer: w.cfg.ReadBuffer, setInt: w.setInt})
	if err != nil {
		return nil, fmt.Errorf("transport: %s: open port %d on %v: %w", w.cfg.Name, port, choice, err)
	}
	defer func() {
		if err != nil {
			conn.Close()
		}
	}()
	rc, err := conn.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("transport: %s: %w", w.cfg.Name, err)
	}
	s := &socket{conn: conn, pc: ipv4.NewPacketConn(conn), out: newSender(rc), choice: choice, allGroups: missing.allGroups != nil}
	s.port = conn.LocalAddr().(*net.UDPAddr).AddrPort().Port()
	if !choice.IsAny() {
		// Optional: the device binding alone sends multicast through choice.
		missing.mcastIf = s.pc.SetMulticastInterface(choice.iface())
	}
	if err := s.pc.SetMulticastTTL(w.cfg.MulticastTTL); err != nil {
		return nil, fmt.Errorf("transport: %s: multicast TTL: %w", w.cfg.Name, err)
	}
	if err := s.pc.SetMulticastLoopback(w.cfg.MulticastLoopback); err != nil {
		return nil, fmt.Errorf("transport: %s: multicast loopback: %w", w.cfg.Name, err)
	}
	w.noteMissing(missing)

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return nil, ErrClosed
	}
	for _, g := range w.groups {
		if err := s.join(g); err != nil {
			return nil, err
		}
	}
	w.port = s.port
	w.sock.Store(s)
	w.noCarrier.Store(false)          // serve reads the carrier
	rcvbuf, _ := readBufferSize(conn) // 0 when unknown; only reported
	w.status = Status{
		State:      StateUp,
		Interface:  choice,
		Local:      netip.AddrPortFrom(netip.IPv4Unspecified(), s.port),
		Since:      time.Now(),
		ReadBuffer: rcvbuf,
	}
	close(w.up)
	clear(w.ifaces)
	w.c.opens.Add(1)
	return s, nil
}

// detach unpublishes and closes s.
func (w *Worker) detach(s *socket) {
	w.mu.Lock()
	if w.sock.Load() == s {
		w.sock.Store(nil)
		w.up = make(chan struct{})
	}
	w.mu.Unlock()
	s.conn.Close()
}

// serve reads from s until ctx is done, the socket fails or the interface check fails.
// Each read takes every datagram already queued, up to the batch's size (recvmmsg);
// each is handled with its own control messages and stamped with the time of the read.
func (w *Worker) serve(ctx context.Context, s *socket, bt *batch, wt *watcher) error {
	rc, err := s.conn.SyscallConn()
	if err != nil {
		return fmt.Errorf("transport: %s: %w", w.cfg.Name, err)
	}
	// The interface check runs on every interface event (ifwatch_linux.go), or every
	// Recheck when the events cannot be watched; a worker on any interface has nothing to
	// check. A watch event moves the read deadline to now, which ends the read; it also
	// sets poked, which a read that keeps finding full batches (a flood, which never
	// waits) looks at after each delivery.
	var poked *atomic.Bool
	watching := false
	if !s.choice.IsAny() && wt.watching() {
		watching, poked = true, &wt.poked
		wt.sock.Store(s)
		defer wt.sock.Store(nil)
		// Events while down woke the retry; from now on the deadline is how they wake.
		wt.drain()
	} else {
		poked = new(atomic.Bool)
	}
	var next time.Time // the next periodic check; zero: none
	if !s.choice.IsAny() && !watching {
		next = time.Now().Add(w.cfg.Recheck)
	}
	if watching {
		poked.Store(true) // check once now: an event may have come before the deadline was set
	}
	if err := w.setDeadline(s, poked, next); err != nil {
		return err
	}
	w.noteCarrier(s)
	// Each read's datagrams are handled as they come, stamped with the time of the read;
	// the read ends when a check is due (periodic or an interface event), the handler
	// is to be called (Wake) or the worker stops.
	bt.deliver = func(n int) bool {
		now := time.Now()
		stamp := now
		if w.cfg.Now != nil {
			stamp = w.cfg.Now()
		}
		for i := range n {
			buf, size, oob, flags, src := bt.message(i)
			w.handle(s, buf, size, oob, flags, src, stamp)
		}
		w.handOverBatch()
		return ctx.Err() != nil || poked.Load() || w.woken.Load() ||
			!next.IsZero() && !now.Before(next)
	}
	for {
		err := bt.read(rc)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("transport: %s: read: %w", w.cfg.Name, err)
		}
		now := time.Now()
		if w.woken.Load() {
			w.callHandler(nil)
		}
		due := poked.Swap(false) || !next.IsZero() && !now.Before(next)
		if due {
			if watching && !wt.watching() {
				watching = false
			}
			next = time.Time{}
			if !watching {
				next = now.Add(w.cfg.Recheck)
			}
		}
		// The deadline moves before the check, and a wake-up asked for meanwhile moves it
		// to now again, so that no event during the check or the handler's call is lost.
		if err := w.setDeadline(s, poked, next); err != nil {
			return err
		}
		if !due {
			continue
		}
		if err := s.choice.check(); err != nil {
			return err
		}
		w.noteCarrier(s)
	}
}

// handle counts one datagram and queues a copy (or, with a handler, holds it back for
// the handler: handOverPending), or counts why it was dropped. The
// datagram is counted as received together with its outcome (counters.count), so a
// snapshot never sees it between the two.
func (w *Worker) handle(s *socket, buf []byte, n int, oob []byte, flags int, src netip.AddrPort, now time.Time) {
	c := parseControl(oob)
	if c.hasDrops && c.drops != s.drops {
		// The count is cumulative per socket and wraps at 2^32.
		w.c.kernelDrops.Add(uint64(c.drops - s.drops))
		s.drops = c.drops
	}
	if s.allGroups && c.pktinfo && w.otherGroup(c.dst) {
		w.c.otherGroups.Add(1) // the kernel would not have delivered it: not Received
		return
	}
	if n > w.max || flags&unix.MSG_TRUNC != 0 {
		w.c.count(&w.c.oversize)
		return
	}
	d := Datagram{
		Payload: buf[:n],
		Src:     netip.AddrPortFrom(src.Addr().Unmap(), src.Port()),
		Time:    now,
	}
	if c.pktinfo {
		info := w.ifaceInfo(s, c.ifindex)
		d.IfIndex, d.Interface = c.ifindex, info.name
		d.Dst = netip.AddrPortFrom(c.dst, s.port)
		d.Cast = classify(c.dst, info.bcast)
	}
	if w.cfg.Tap != nil {
		w.cfg.Tap(Received, d)
	}
	if w.cfg.Filter != nil && !w.cfg.Filter(d) {
		w.c.count(&w.c.filtered)
		return
	}
	if w.hasHandler.Load() {
		w.hbatch = append(w.hbatch, d) // handed over at the read's end (handOverBatch)
		return
	}
	w.enqueue(d)
}

// enqueue queues a copy of d, or counts it dropped when the queue is full.
func (w *Worker) enqueue(d Datagram) {
	// Run's goroutine is the only sender on the queue, so a free slot now is still free
	// when the send below happens: the send never blocks, and a full queue costs no copy.
	if len(w.queue) == cap(w.queue) {
		w.c.count(&w.c.queueFull)
		return
	}
	d.Payload = w.copyPayload(d.Payload)
	// Counted before the send: a consumer holding the datagram finds it delivered.
	w.c.count(&w.c.queued)
	w.queue <- d
}

// ifaceInfo returns the name and broadcast address of interface idx.
func (w *Worker) ifaceInfo(s *socket, idx int) ifaceInfo {
	if !s.choice.IsAny() && idx == s.choice.Index {
		return ifaceInfo{name: s.choice.Name, bcast: s.choice.Broadcast}
	}
	if info, ok := w.ifaces[idx]; ok {
		return info
	}
	var info ifaceInfo
	if n, err := net.InterfaceByIndex(idx); err == nil {
		if ifi, err := fromNet(*n); err == nil {
			info.name = ifi.Name
			if c, ok := firstIPv4(ifi); ok {
				info.bcast = c.Broadcast
			}
		}
	}
	w.ifaces[idx] = info // failures are cached too, until the next open
	return info
}

// setStatus applies f to the status, then reports the change when the state or the
// error text changed.
func (w *Worker) setStatus(f func(*Status)) {
	w.mu.Lock()
	old := w.status
	f(&w.status)
	changed := w.status.State != old.State || errText(w.status.Err) != errText(old.Err) ||
		w.status.NoCarrier != old.NoCarrier
	if changed {
		w.status.Since = time.Now()
	} else {
		w.status.Since = old.Since
	}
	st := w.status
	w.mu.Unlock()
	if changed {
		w.report(st)
	}
}

// report logs a state change and passes it to OnStatus.
func (w *Worker) report(st Status) {
	switch st.State {
	case StateUp:
		if st.NoCarrier {
			w.log.Warn("transport: no carrier: sends are lost until the link returns", "on", st.Interface, "port", st.Local.Port())
			break
		}
		w.log.Info("transport: socket up", "on", st.Interface, "port", st.Local.Port())
	case StateDown:
		w.log.Warn("transport: socket down, retrying", "err", st.Err, "retry_in", st.RetryIn)
	case StateStopped:
		w.log.Debug("transport: stopped")
	}
	if w.cfg.OnStatus != nil {
		w.cfg.OnStatus(st)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
