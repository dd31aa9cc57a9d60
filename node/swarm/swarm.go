package swarm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/warnlimit"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/transport"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// Errors of Send. ErrTooLarge and ErrUnknownAddress are those of package transport/swarm.
var (
	// ErrDisabled reports a send to a disabled component.
	ErrDisabled = errors.New("swarm: component disabled")
	// ErrSource reports a message whose src is neither empty nor this robot's name.
	ErrSource = errors.New("swarm: message source is not this robot")
	// ErrPort reports a port above 65535.
	ErrPort = errors.New("swarm: port outside 1..65535")
	// ErrTooLarge reports a payload over tswarm.MaxPayload (1500) bytes.
	ErrTooLarge = tswarm.ErrTooLarge
	// ErrUnknownAddress reports a destination that is neither a host name, a usable IPv4
	// address, "broadcast" nor "multicast".
	ErrUnknownAddress = tswarm.ErrUnknownAddress
)

// Point is a robot position in metres, for the communication range.
type Point = tswarm.Point

// Counters count what the component did; see the package comment for how they add up.
type Counters struct {
	// SendRequests counts Send calls.
	SendRequests uint64
	// SendAccepted counts messages handed to the socket, or addressed to this robot
	// itself (accepted, never delivered).
	SendAccepted uint64
	// Disabled counts sends to a disabled component.
	Disabled uint64
	// Oversize counts messages with more than 1500 bytes of data.
	Oversize uint64
	// BadPort counts messages with a port above 65535.
	BadPort uint64
	// BadSource counts messages whose src is not this robot.
	BadSource uint64
	// BadDestination counts messages to an unknown or ambiguous destination.
	BadDestination uint64
	// SendErrors counts messages the socket failed to send (not open yet, interface
	// gone, kernel error).
	SendErrors uint64

	// Received counts frames delivered to the component's bound ports.
	Received uint64
	// Published counts received messages published.
	Published uint64
	// PublishErrors counts received messages the publisher refused.
	PublishErrors uint64

	// NeighborsPublished and NeighborsPublishErrors count Neighbors publications.
	NeighborsPublished     uint64
	NeighborsPublishErrors uint64
}

// SendRejected returns the sends refused before reaching the socket.
func (c Counters) SendRejected() uint64 {
	return c.Disabled + c.Oversize + c.BadPort + c.BadSource + c.BadDestination
}

// Status is a snapshot of the component for diagnostics.
type Status struct {
	Enabled        bool
	Name           string
	Mode           tswarm.Mode
	Ports          []uint16
	MulticastPorts []uint16
	// Socket is the UDP socket's state and interface.
	Socket transport.Status
	// Neighbors are the robots currently in reach, sorted.
	Neighbors []string
	// LastReceived is the clock time of the last received message; zero if none.
	LastReceived time.Time
	Counters     Counters
	// Swarm holds the frame and socket counters of the swarm layer.
	Swarm tswarm.Stats
}

// Component is the swarm component. Send, SetPosition, ForgetPosition, WaitUp and Status
// may be called from any goroutine.
type Component struct {
	cfg       Config
	clk       clock.Clock
	received  bus.Publisher[dmsgs.SwarmMessage]
	neighbors bus.Publisher[dmsgs.Neighbors]
	node      *tswarm.Node      // nil when disabled
	addrs     map[string]string // host name -> address string of Neighbors messages
	warn      *warner

	posMu     sync.RWMutex
	pos       map[string]Point
	inputSync bus.InputSync // hands held-back inputs over (SetInputSync)

	msg dmsgs.SwarmMessage // reused by onFrame, which runs on one goroutine

	lastMu   sync.Mutex
	lastRecv time.Time

	sendRequests, sendAccepted, disabled, oversize, badPort, badSource, badDestination, sendErrors atomic.Uint64
	nReceived, published, publishErrors, neighborsPublished, neighborsPublishErrors                atomic.Uint64
}

// New validates cfg and returns a component that publishes received messages on
// received and the neighbour list on neighbors, on clk's time (nil means clock.Wall).
// Nothing is opened before Run. A disabled cfg gives a component that does nothing; its
// publishers may be nil.
//
// The SwarmMessage passed to received.Publish is reused after Publish returns, but its
// Data is fresh for every message, so a publisher may keep a shallow copy; Neighbors
// messages are fresh every time.
func New(cfg Config, clk clock.Clock, received bus.Publisher[dmsgs.SwarmMessage], neighbors bus.Publisher[dmsgs.Neighbors]) (*Component, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if clk == nil {
		clk = clock.Wall
	}
	c := &Component{cfg: cfg, clk: clk, received: received, neighbors: neighbors, pos: map[string]Point{}}
	if !cfg.Enabled {
		return c, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if received == nil || neighbors == nil {
		return nil, fmt.Errorf("%w: New needs both publishers", ErrConfig)
	}
	hosts, _ := ParseHosts(cfg.Hosts) // checked by Validate
	c.addrs = make(map[string]string, len(hosts))
	for name, a := range hosts {
		c.addrs[name] = hostAddress(a)
	}
	c.warn = newWarner(clk, cfg.WarnInterval, cfg.Logger)
	nc := tswarm.Config{
		Name:           cfg.Name,
		Peers:          hosts,
		Mode:           cfg.Mode,
		Interface:      cfg.Interface,
		UDPPort:        cfg.UDPPort,
		Group:          cfg.Group,
		NeighborWindow: cfg.NeighborWindow,
		Range:          cfg.Range,
		QueueLen:       cfg.QueueLen,
		Logger:         cfg.Logger,
		Tap:            cfg.Tap,
		Now:            clk.Now,
	}
	if cfg.Range > 0 {
		nc.Position = c.position
	}
	n, err := tswarm.New(nc)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	for _, p := range cfg.Ports {
		if err := n.Bind(cfg.Name, p, c.onFrame); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	for _, p := range cfg.MulticastPorts {
		if err := n.Bind(tswarm.Multicast, p, c.onFrame); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	c.node = n
	return c, nil
}

// Run opens the socket, publishes received messages and the neighbour list until ctx is
// done, then closes the socket and returns. A disabled component only waits for ctx.
// Call it once.
func (c *Component) Run(ctx context.Context) error {
	if c.node == nil {
		<-ctx.Done()
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- c.node.Run(ctx)
		cancel()
	}()
	t := c.clk.NewTicker(time.Duration(float64(time.Second) / c.cfg.NeighborsRate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return <-errc
		case <-t.C():
			c.publishNeighbors()
		}
	}
}

// WaitUp waits until the socket is open, for tests and start-up logs.
func (c *Component) WaitUp(ctx context.Context) error {
	if c.node == nil {
		return ErrDisabled
	}
	return c.node.Transport().WaitUp(ctx)
}

// Send sends one message (see the package comment for its fields). The error says why
// a message was refused or not sent; every call is counted under one cause.
func (c *Component) Send(m *dmsgs.SwarmMessage) error {
	c.sendRequests.Add(1)
	if c.node == nil {
		c.disabled.Add(1)
		return ErrDisabled
	}
	if m == nil {
		m = &dmsgs.SwarmMessage{}
	}
	err := c.send(m)
	if err != nil {
		c.warn.warn(sendCause(err), "swarm: message not sent", "dst", m.Dst, "port", m.Port, "bytes", len(m.Data), "err", err)
	}
	return err
}

func (c *Component) send(m *dmsgs.SwarmMessage) error {
	if m.Src != "" && m.Src != c.cfg.Name {
		c.badSource.Add(1)
		return fmt.Errorf("%w: %q (this robot is %q)", ErrSource, m.Src, c.cfg.Name)
	}
	port := m.Port
	if port == 0 {
		port = tswarm.DefaultPort
	}
	if port > math.MaxUint16 {
		c.badPort.Add(1)
		return fmt.Errorf("%w: %d", ErrPort, m.Port)
	}
	if len(m.Data) > tswarm.MaxPayload {
		c.oversize.Add(1)
		return fmt.Errorf("%w: %d bytes to %s:%d, limit %d", ErrTooLarge, len(m.Data), m.Dst, port, tswarm.MaxPayload)
	}
	if err := c.node.SendTo(m.Data, m.Dst, uint16(port)); err != nil {
		if errors.Is(err, ErrUnknownAddress) {
			c.badDestination.Add(1)
		} else {
			c.sendErrors.Add(1)
		}
		return err
	}
	c.sendAccepted.Add(1)
	return nil
}

// sendCause names the warning cause of a send error.
func sendCause(err error) string {
	switch {
	case errors.Is(err, ErrSource):
		return "bad source"
	case errors.Is(err, ErrPort):
		return "bad port"
	case errors.Is(err, ErrTooLarge):
		return "oversize"
	case errors.Is(err, ErrUnknownAddress):
		return "bad destination"
	}
	return "send error"
}

// onFrame publishes one received frame; the swarm layer calls it on its dispatch
// goroutine, one frame at a time, and gives it ownership of data.
func (c *Component) onFrame(src, dst string, port uint16, data []byte) {
	c.nReceived.Add(1)
	now := c.clk.Now()
	c.lastMu.Lock()
	c.lastRecv = now
	c.lastMu.Unlock()
	c.msg = dmsgs.SwarmMessage{Stamp: builtin_interfaces.NewTime(now), Src: src, Dst: dst, Port: uint32(port), Data: data}
	if err := c.received.Publish(&c.msg); err != nil {
		c.publishErrors.Add(1)
		c.warn.warn("publish", "swarm: received message not published", "src", src, "port", port, "err", err)
		return
	}
	c.published.Add(1)
}

// publishNeighbors publishes the current neighbour list, stamped with the clock's time,
// and how long ago each neighbour was last heard.
func (c *Component) publishNeighbors() {
	heard := c.node.NeighborsHeard()
	now := c.clk.Now()
	m := dmsgs.Neighbors{
		Stamp:     builtin_interfaces.NewTime(now),
		Names:     make([]string, len(heard)),
		Addresses: make([]string, len(heard)),
		Ages:      make([]builtin_interfaces.Duration, len(heard)),
	}
	for i, nb := range heard {
		m.Names[i] = nb.Name
		m.Addresses[i] = c.address(nb.Name)
		// A clock that jumped back (a restarted simulation) gives age 0, not a negative one.
		m.Ages[i] = builtin_interfaces.NewDuration(max(now.Sub(nb.LastHeard), 0))
	}
	if err := c.neighbors.Publish(&m); err != nil {
		c.neighborsPublishErrors.Add(1)
		c.warn.warn("publish neighbours", "swarm: neighbours not published", "err", err)
		return
	}
	c.neighborsPublished.Add(1)
}

// address returns where a neighbour is reached: its Hosts entry, the name itself for an
// IPv4 literal, else "".
func (c *Component) address(name string) string {
	if a, ok := c.addrs[name]; ok {
		return a
	}
	if ip, err := netip.ParseAddr(name); err == nil && ip.Is4() {
		return name
	}
	return ""
}

// SetPosition records a robot's position (this robot's own under Config.Name) for the
// communication range. Positions are only used when Config.Range is positive.
func (c *Component) SetPosition(name string, p Point) {
	c.posMu.Lock()
	c.pos[name] = p
	c.posMu.Unlock()
}

// SetInputSync sets f, which the component calls before every range check reads this
// robot's own position, so that inputs held back elsewhere (the VisionInfo that
// SetPosition is fed from) can be handed over first. f is called without any lock of the
// component's held, from the receiving goroutine, Run's and Status's callers, possibly at
// once; nil means none. Call it before Run: it is not safe concurrently with Run.
func (c *Component) SetInputSync(f func()) { c.inputSync = f }

// ForgetPosition removes a robot's position: it is then always in range.
func (c *Component) ForgetPosition(name string) {
	c.posMu.Lock()
	delete(c.pos, name)
	c.posMu.Unlock()
}

// position returns a robot's position for the range checks of the swarm layer (on
// receive, and in its neighbour list). Before it reads this robot's own position, the
// one VisionInfo gives, the held-back inputs are handed over (SetInputSync); no lock of
// the component's is held then.
func (c *Component) position(name string) (Point, bool) {
	if name == c.cfg.Name {
		c.inputSync.Sync()
	}
	c.posMu.RLock()
	defer c.posMu.RUnlock()
	p, ok := c.pos[name]
	return p, ok
}

// Counters returns a snapshot of the component's counters.
func (c *Component) Counters() Counters {
	return Counters{
		SendRequests:           c.sendRequests.Load(),
		SendAccepted:           c.sendAccepted.Load(),
		Disabled:               c.disabled.Load(),
		Oversize:               c.oversize.Load(),
		BadPort:                c.badPort.Load(),
		BadSource:              c.badSource.Load(),
		BadDestination:         c.badDestination.Load(),
		SendErrors:             c.sendErrors.Load(),
		Received:               c.nReceived.Load(),
		Published:              c.published.Load(),
		PublishErrors:          c.publishErrors.Load(),
		NeighborsPublished:     c.neighborsPublished.Load(),
		NeighborsPublishErrors: c.neighborsPublishErrors.Load(),
	}
}

// Status returns a snapshot of the component for diagnostics.
func (c *Component) Status() Status {
	s := Status{
		Enabled:        c.node != nil,
		Name:           c.cfg.Name,
		Mode:           c.cfg.Mode,
		Ports:          append([]uint16(nil), c.cfg.Ports...),
		MulticastPorts: append([]uint16(nil), c.cfg.MulticastPorts...),
		Counters:       c.Counters(),
	}
	if c.node == nil {
		return s
	}
	s.Socket = c.node.Transport().Status()
	s.Neighbors = c.node.Neighbors()
	s.Swarm = c.node.Stats()
	c.lastMu.Lock()
	s.LastReceived = c.lastRecv
	c.lastMu.Unlock()
	return s
}

// warner logs at most one warning per cause per interval of the clock, and says how many
// were suppressed in between.
type warner struct {
	clk clock.Clock
	log *slog.Logger

	mu  sync.Mutex
	lim warnlimit.Limiter[string]
}

func newWarner(clk clock.Clock, every time.Duration, log *slog.Logger) *warner {
	return &warner{clk: clk, log: log, lim: warnlimit.Limiter[string]{Every: every}}
}

func (w *warner) warn(cause, msg string, args ...any) {
	now := w.clk.Now()
	w.mu.Lock()
	ok, n := w.lim.Allow(cause, now)
	w.mu.Unlock()
	if !ok {
		return
	}
	args = append(args, "cause", cause)
	if n > 0 {
		args = append(args, "suppressed", n)
	}
	w.log.Warn(msg, args...)
}
