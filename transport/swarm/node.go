package swarm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Addresses, ports and defaults, after osrf/swarm.
const (
	// Broadcast as a SendTo destination reaches every robot bound to its own address
	// on the port.
	Broadcast = "broadcast"
	// Multicast as a Bind address or SendTo destination is the one multicast group.
	Multicast = "multicast"
	// BaseStation is the conventional name of the base of operations ("boo").
	BaseStation = "boo"
	// DefaultPort is the default virtual port.
	DefaultPort = 4100
	// BasePort is the virtual port the base station binds.
	BasePort = 4200
	// DefaultUDPPort is the real UDP port that carries every virtual port.
	DefaultUDPPort = 4100
	// DefaultNeighborWindow is how long a robot stays a neighbour after it was heard.
	DefaultNeighborWindow = 3 * time.Second
	// maxHeard bounds the neighbour table when any source is accepted.
	maxHeard = 1024
)

// DefaultGroup is the multicast group of the "multicast" destination and of the
// host-only simulation mode.
var DefaultGroup = netip.MustParseAddr("239.255.41.0")

// Errors of the node API.
var (
	ErrBindAddress    = errors.New("swarm: can only bind the own address or \"multicast\"")
	ErrAlreadyBound   = errors.New("swarm: endpoint already bound")
	ErrUnknownAddress = errors.New("swarm: unknown destination address")
	ErrConfig         = errors.New("swarm: bad config")
)

// Mode says how virtual destinations map to real UDP traffic.
type Mode uint8

const (
	// ModeNetwork is for robots on a real network, one per host: unicast goes to the
	// peer's IP, broadcast to the interface's directed broadcast address, multicast to
	// Group, all on UDPPort.
	ModeNetwork Mode = iota
	// ModePorts is for several robots on one host with a port each (Peers holds
	// 127.0.0.1:port entries): unicast goes to the peer's port; broadcast and multicast
	// are sent as one copy to every other peer.
	ModePorts
	// ModeHostMulticast is for several robots on one host sharing UDPPort: every frame
	// goes to Group with TTL 0 and loopback on, and each robot keeps only the frames
	// addressed to it. Interface must have the MULTICAST flag.
	ModeHostMulticast
)

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeNetwork:
		return "network"
	case ModePorts:
		return "ports"
	case ModeHostMulticast:
		return "host-multicast"
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// Point is a robot position in metres.
type Point struct{ X, Y, Z float64 }

// Dist returns the Euclidean distance between p and q.
func (p Point) Dist(q Point) float64 { return math.Hypot(math.Hypot(p.X-q.X, p.Y-q.Y), p.Z-q.Z) }

// Callback receives one frame: the sender's address, the destination the sender used
// (this robot's address, "broadcast" or "multicast"), the virtual port and the payload,
// which the callback owns.
type Callback func(src, dst string, port uint16, data []byte)

// Config configures a Node.
type Config struct {
	// Name is this robot's address: a name from Peers or an IPv4 literal. Required.
	Name string
	// Peers maps robot names to addresses. In ModeNetwork a zero port means UDPPort;
	// in ModePorts every entry, this robot's included, needs its own port. When Peers
	// is not empty, frames from robots not in it are dropped (UnknownSource).
	Peers map[string]netip.AddrPort
	// Mode selects the mapping to UDP; the default is ModeNetwork.
	Mode Mode
	// Interface is the transport interface selector; "" means "auto" in ModeNetwork
	// and "lo" otherwise.
	Interface string
	// UDPPort is the shared real port (ModeNetwork, ModeHostMulticast); 0 means
	// DefaultUDPPort.
	UDPPort uint16
	// Group is the multicast group; the zero Addr means DefaultGroup.
	Group netip.Addr
	// NeighborWindow is how long a heard robot stays a neighbour; 0 means the default.
	NeighborWindow time.Duration
	// Range, when positive, is the communication range in metres: frames from robots
	// farther away are dropped (OutOfRange) and such robots are no neighbours. It
	// needs Position; when a position is unknown the range test passes.
	Range float64
	// Position returns a robot's position; it is called on the receiving goroutine
	// and by Neighbors, so it must be safe for concurrent use.
	Position func(name string) (Point, bool)
	// QueueLen is the transport queue length; 0 means the transport default.
	QueueLen int
	// OnStatus and Logger are passed to the transport worker.
	OnStatus func(transport.Status)
	// Tap, if set, is the transport worker's Tap: it sees every frame sent and received.
	Tap    transport.Tap
	Logger *slog.Logger
	// Now is the clock of the neighbour table; nil means time.Now.
	Now func() time.Time
}

// Stats counts frames at the swarm level. Transport holds the socket's counters; the
// swarm-level drops are the frames the transport delivered but no callback got, and
// the frames the swarm filter rejected (which the transport counts as Filtered):
//
//	Transport.Filtered  == OwnEcho + NotForUs
//	Transport.Delivered == Delivered + UnknownSource + OutOfRange + Unbound
type Stats struct {
	Transport transport.Stats
	// Delivered counts frames passed to a callback.
	Delivered uint64
	// OwnEcho counts this robot's own frames heard back (broadcast, multicast loopback).
	OwnEcho uint64
	// NotForUs counts unicast frames addressed to another robot.
	NotForUs uint64
	// UnknownSource counts frames from robots not in Peers.
	UnknownSource uint64
	// OutOfRange counts frames from robots beyond Range.
	OutOfRange uint64
	// Unbound counts frames for a port nobody bound.
	Unbound uint64
	// Sent counts frames sent (a fan-out to several peers counts once).
	Sent uint64
	// SendErrors counts SendTo calls that failed.
	SendErrors uint64
	// ToSelf counts frames addressed to this robot itself, which are never delivered.
	ToSelf uint64
}

type endpoint struct {
	addr string // Host() or Multicast
	port uint16
}

// Node is one robot's swarm endpoint: osrf/swarm's RobotPlugin API over a transport
// worker. Bind, SendTo, Neighbors and Stats may be called from any goroutine.
type Node struct {
	cfg    Config
	host   string
	group  netip.AddrPort
	self   []string          // names this robot answers to as a unicast destination
	others []netip.AddrPort  // ModePorts: the other peers in name order (broadcast fan-out)
	names  map[string]string // canonical strings of known names, for allocation-free lookups
	w      *transport.Worker
	now    func() time.Time

	binds atomic.Pointer[map[endpoint]Callback] // copy on write
	bindM sync.Mutex                            // serialises writers of binds

	heardM sync.Mutex
	heard  map[string]time.Time

	ifaceAddr atomic.Pointer[string] // the interface's IPv4 address in ModeNetwork

	delivered, ownEcho, notForUs, unknownSource, outOfRange, unbound atomic.Uint64
	sent, sendErrors, toSelf                                         atomic.Uint64

	bufs sync.Pool
}

// New validates cfg and returns a node; nothing is opened before Run.
func New(cfg Config) (*Node, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...)))
	}
	if err := CheckName(cfg.Name); err != nil {
		bad("name: %v", err)
	}
	for name, a := range cfg.Peers {
		if err := CheckName(name); err != nil {
			bad("peer: %v", err)
		}
		if !a.Addr().Unmap().Is4() {
			bad("peer %s: address %v is not IPv4", name, a)
		}
	}
	if cfg.UDPPort == 0 {
		cfg.UDPPort = DefaultUDPPort
	}
	if !cfg.Group.IsValid() {
		cfg.Group = DefaultGroup
	}
	if !cfg.Group.Is4() || !cfg.Group.IsMulticast() {
		bad("group %v is not an IPv4 multicast address", cfg.Group)
	}
	if cfg.NeighborWindow <= 0 {
		cfg.NeighborWindow = DefaultNeighborWindow
	}
	if cfg.Range < 0 || math.IsNaN(cfg.Range) {
		bad("range %v is negative", cfg.Range)
	}
	if cfg.Range > 0 && cfg.Position == nil {
		bad("range %v needs a Position function", cfg.Range)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tc := transport.Config{
		Name:              "swarm-" + cfg.Name,
		Interface:         cfg.Interface,
		Port:              cfg.UDPPort,
		Groups:            []netip.Addr{cfg.Group},
		MulticastLoopback: true,
		MaxDatagram:       MaxFrameSize,
		QueueLen:          cfg.QueueLen,
		OnStatus:          cfg.OnStatus,
		Tap:               cfg.Tap,
		Logger:            cfg.Logger,
	}
	switch cfg.Mode {
	case ModeNetwork:
	case ModePorts:
		own, ok := cfg.Peers[cfg.Name]
		if !ok || own.Port() == 0 {
			bad("ports mode needs this robot (%s) in Peers with a port", cfg.Name)
		}
		for name, a := range cfg.Peers {
			if a.Port() == 0 {
				bad("ports mode: peer %s has no port", name)
			}
		}
		tc.Port, tc.Groups = own.Port(), nil
		if tc.Interface == "" {
			tc.Interface = "lo"
		}
	case ModeHostMulticast:
		tc.MulticastTTL = transport.HostOnlyTTL
		if tc.Interface == "" {
			tc.Interface = "lo"
		}
	default:
		bad("unknown mode %d", cfg.Mode)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	n := &Node{
		cfg:   cfg,
		host:  cfg.Name,
		group: netip.AddrPortFrom(cfg.Group, cfg.UDPPort),
		self:  []string{cfg.Name},
		names: map[string]string{cfg.Name: cfg.Name},
		now:   cfg.Now,
		heard: map[string]time.Time{},
	}
	for name := range cfg.Peers {
		n.names[name] = name
	}
	if own, ok := cfg.Peers[cfg.Name]; ok && cfg.Mode == ModeNetwork {
		n.self = append(n.self, own.Addr().Unmap().String())
	}
	if cfg.Mode == ModePorts {
		for _, name := range slices.Sorted(maps.Keys(cfg.Peers)) {
			if name != cfg.Name {
				a := cfg.Peers[name]
				n.others = append(n.others, netip.AddrPortFrom(a.Addr().Unmap(), a.Port()))
			}
		}
	}
	n.binds.Store(&map[endpoint]Callback{})
	n.bufs.New = func() any { b := make([]byte, 0, MaxFrameSize); return &b }
	tc.Filter = n.filter
	if cfg.Mode == ModeNetwork {
		userStatus := cfg.OnStatus
		tc.OnStatus = func(s transport.Status) {
			if s.State == transport.StateUp {
				a := s.Interface.Addr.Addr().String()
				n.ifaceAddr.Store(&a)
			}
			if userStatus != nil {
				userStatus(s)
			}
		}
	}
	w, err := transport.New(tc)
	if err != nil {
		return nil, err
	}
	n.w = w
	return n, nil
}

// Host returns this robot's address.
func (n *Node) Host() string { return n.host }

// Transport returns the underlying worker, for diagnostics and WaitUp.
func (n *Node) Transport() *transport.Worker { return n.w }

// Run runs the transport worker on the calling goroutine and dispatches frames to the
// callbacks on a second goroutine, until ctx is done.
func (n *Node) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Go(n.dispatch)
	err := n.w.Run(ctx)
	wg.Wait()
	return err
}

// Bind registers cb for frames to (address, port). address must be Host() or
// "multicast"; binding Host() also receives broadcasts on that port. An endpoint can be
// bound once.
func (n *Node) Bind(address string, port uint16, cb Callback) error {
	if address != n.host && address != Multicast {
		return fmt.Errorf("%w: %q (this robot is %q)", ErrBindAddress, address, n.host)
	}
	if cb == nil {
		return fmt.Errorf("%w: nil callback for %s:%d", ErrConfig, address, port)
	}
	n.bindM.Lock()
	defer n.bindM.Unlock()
	old := *n.binds.Load()
	ep := endpoint{address, port}
	if _, dup := old[ep]; dup {
		return fmt.Errorf("%w: %s:%d", ErrAlreadyBound, address, port)
	}
	m := maps.Clone(old)
	m[ep] = cb
	n.binds.Store(&m)
	return nil
}

// SendTo sends data to a robot address, "broadcast" or "multicast" on a virtual port.
// Payloads over MaxPayload bytes are refused with ErrTooLarge, never truncated. A frame
// addressed to this robot itself is not delivered (as in osrf/swarm, where a robot is
// never its own neighbour); SendTo returns nil and counts it as ToSelf.
func (n *Node) SendTo(data []byte, dst string, port uint16) error {
	err := n.sendTo(data, dst, port)
	if err != nil {
		n.sendErrors.Add(1)
	}
	return err
}

func (n *Node) sendTo(data []byte, dst string, port uint16) error {
	if len(data) > MaxPayload {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxPayload)
	}
	f := Frame{Port: port, Src: n.host, Payload: data}
	var targets []netip.AddrPort
	bcast := false
	switch dst {
	case Broadcast, Multicast:
		f.Kind = KindBroadcast
		if dst == Multicast {
			f.Kind = KindMulticast
		}
		switch n.cfg.Mode {
		case ModeNetwork:
			if dst == Broadcast {
				bcast = true
			} else {
				targets = []netip.AddrPort{n.group}
			}
		case ModePorts:
			targets = n.others
		case ModeHostMulticast:
			targets = []netip.AddrPort{n.group}
		}
	default:
		if isSelf(n, dst) {
			n.toSelf.Add(1)
			return nil
		}
		name, addr, err := n.resolve(dst)
		if err != nil {
			return err
		}
		f.Kind, f.Dst = KindUnicast, name
		targets = []netip.AddrPort{addr}
		if n.cfg.Mode == ModeHostMulticast {
			targets[0] = n.group
		}
	}

	bp := n.bufs.Get().(*[]byte)
	defer n.bufs.Put(bp)
	b, err := f.AppendBinary((*bp)[:0])
	if err != nil {
		return err
	}
	*bp = b
	if bcast {
		if err := n.w.Broadcast(b, n.cfg.UDPPort); err != nil {
			return err
		}
	}
	var errs []error
	for _, t := range targets {
		if err := n.w.SendTo(b, t); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	n.sent.Add(1)
	return nil
}

// resolve maps a unicast destination to the name written into the frame and the UDP
// address it is sent to.
func (n *Node) resolve(dst string) (string, netip.AddrPort, error) {
	if a, ok := n.cfg.Peers[dst]; ok {
		if a.Port() == 0 {
			a = netip.AddrPortFrom(a.Addr(), n.cfg.UDPPort)
		}
		return dst, netip.AddrPortFrom(a.Addr().Unmap(), a.Port()), nil
	}
	ip, err := netip.ParseAddr(dst)
	if err != nil || !ip.Is4() {
		return "", netip.AddrPort{}, fmt.Errorf("%w: %q is neither a peer name nor an IPv4 address", ErrUnknownAddress, dst)
	}
	if n.cfg.Mode == ModeNetwork {
		return dst, netip.AddrPortFrom(ip, n.cfg.UDPPort), nil
	}
	// On one host an IP names no robot by itself: it must match exactly one peer.
	var found []string
	for name, a := range n.cfg.Peers {
		if a.Addr().Unmap() == ip {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		return "", netip.AddrPort{}, fmt.Errorf("%w: %s matches %d peers in %v mode; use a robot name", ErrUnknownAddress, dst, len(found), n.cfg.Mode)
	}
	return n.resolve(found[0])
}

// filter runs on the transport's read goroutine: it drops this robot's own frames and
// unicast frames for other robots before they are copied. Frames that do not parse are
// let through, so the dispatcher counts them as malformed.
func (n *Node) filter(d transport.Datagram) bool {
	h, err := parse(d.Payload)
	if err != nil {
		return true
	}
	if string(h.src) == n.host {
		n.ownEcho.Add(1)
		return false
	}
	if h.kind == KindUnicast && !isSelf(n, h.dst) {
		n.notForUs.Add(1)
		return false
	}
	return true
}

// isSelf reports whether a unicast destination names this robot: its name, its address
// in Peers or (in ModeNetwork) its interface address.
func isSelf[T string | []byte](n *Node, dst T) bool {
	for _, s := range n.self {
		if string(dst) == s {
			return true
		}
	}
	a := n.ifaceAddr.Load()
	return a != nil && string(dst) == *a
}

// dispatch delivers queued frames to the callbacks until the queue closes.
func (n *Node) dispatch() {
	for d := range n.w.Datagrams() {
		h, err := parse(d.Payload)
		if err != nil {
			n.w.ReportMalformed()
			continue
		}
		src, known := n.names[string(h.src)]
		if len(n.cfg.Peers) > 0 && !known {
			n.unknownSource.Add(1)
			continue
		}
		if !known {
			src = string(h.src)
		}
		if !n.inRange(src) {
			n.outOfRange.Add(1)
			continue
		}
		n.hear(src)
		addr, dst := n.host, n.host
		switch h.kind {
		case KindBroadcast:
			dst = Broadcast
		case KindMulticast:
			addr, dst = Multicast, Multicast
		case KindUnicast:
			if string(h.dst) != n.host {
				dst = string(h.dst)
			}
		}
		cb, ok := (*n.binds.Load())[endpoint{addr, h.port}]
		if !ok {
			n.unbound.Add(1)
			continue
		}
		n.delivered.Add(1)
		cb(src, dst, h.port, h.payload)
	}
}

// inRange applies the communication range to a sender.
func (n *Node) inRange(src string) bool {
	if n.cfg.Range <= 0 {
		return true
	}
	me, ok1 := n.cfg.Position(n.host)
	them, ok2 := n.cfg.Position(src)
	return !ok1 || !ok2 || me.Dist(them) <= n.cfg.Range
}

// hear records that src was heard now.
func (n *Node) hear(src string) {
	now := n.now()
	n.heardM.Lock()
	defer n.heardM.Unlock()
	if _, ok := n.heard[src]; !ok && len(n.heard) >= maxHeard {
		for name, t := range n.heard {
			if !clock.Within(now, t, n.cfg.NeighborWindow) {
				delete(n.heard, name)
			}
		}
		if len(n.heard) >= maxHeard {
			return
		}
	}
	n.heard[src] = now
}

// Neighbor is a robot in reach and when it was last heard.
type Neighbor struct {
	Name string
	// LastHeard is the time of the node's clock (Config.Now) at which the robot's
	// latest frame was dispatched.
	LastHeard time.Time
}

// Neighbors returns, sorted, the robots heard within the neighbour window (and within
// Range, when set). This robot is never its own neighbour. The window counts both ways:
// a robot last heard more than a window ahead of the clock (which went back since) is
// none.
func (n *Node) Neighbors() []string {
	var out []string
	for _, nb := range n.NeighborsHeard() {
		out = append(out, nb.Name)
	}
	return out
}

// NeighborsHeard returns the robots Neighbors returns, sorted by name, with the time
// each was last heard.
func (n *Node) NeighborsHeard() []Neighbor {
	now := n.now()
	n.heardM.Lock()
	var out []Neighbor
	for name, t := range n.heard {
		// A robot heard more than a window after now was heard before the clock went
		// back (a restarted simulation): no neighbour until it is heard again.
		if clock.Within(now, t, n.cfg.NeighborWindow) {
			out = append(out, Neighbor{Name: name, LastHeard: t})
		}
	}
	n.heardM.Unlock()
	out = slices.DeleteFunc(out, func(nb Neighbor) bool { return !n.inRange(nb.Name) })
	slices.SortFunc(out, func(a, b Neighbor) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Stats returns a snapshot of the swarm and transport counters.
func (n *Node) Stats() Stats {
	return Stats{
		Delivered:     n.delivered.Load(),
		OwnEcho:       n.ownEcho.Load(),
		NotForUs:      n.notForUs.Load(),
		UnknownSource: n.unknownSource.Load(),
		OutOfRange:    n.outOfRange.Load(),
		Unbound:       n.unbound.Load(),
		Sent:          n.sent.Load(),
		SendErrors:    n.sendErrors.Load(),
		ToSelf:        n.toSelf.Load(),
		Transport:     n.w.Stats(),
	}
}
