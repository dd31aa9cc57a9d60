package team

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
)

// Defaults of a DiscoveryConfig: the vendor's (brain_communication.h).
const (
	DefaultDiscoveryInterval = time.Second
	DefaultDiscoveryExpiry   = 20 * time.Second
	// maxDiscovered bounds the robots remembered, so that forged discovery packets
	// cannot grow the table without limit.
	maxDiscovered = 32
)

// DiscoveryConfig configures a Discovery.
type DiscoveryConfig struct {
	// Team and Player are ours.
	Team, Player uint8
	// Port is the discovery port we send to; 0 means booster.PortDiscovery + Team. The
	// socket is bound to it by the wiring.
	Port uint16
	// PeerPort is the port the discovered robots receive the team message on; 0 means
	// booster.PortUnicast + Team (the team component's port in unicast mode).
	PeerPort uint16
	// Peers, when not empty, replaces the broadcast of our discovery packet (several
	// robots on one host, as Config.Peers).
	Peers []netip.AddrPort
	// Interval is the period of our discovery packet; 0 means 1 s.
	Interval time.Duration
	// Expiry is how long a robot stays a destination after its last discovery packet;
	// 0 means 20 s.
	Expiry time.Duration
	// Logger receives warnings; nil means slog.Default().
	Logger *slog.Logger
}

// DiscoveryCounters count the discovery socket's traffic: every datagram received ends
// in Accepted or in one drop cause, as for the team socket.
type DiscoveryCounters struct {
	Received, Accepted uint64
	// WrongSize: not a discovery packet by size or magic. ForeignTeam: another team.
	// Range: a player number outside 1..255. Own: our player number (our own broadcast
	// coming back, or another robot using our number).
	// Full: a new robot while maxDiscovered (32) are remembered.
	WrongSize, ForeignTeam, Range, Own, Full uint64
	// Sent and SendErrors count our discovery packets.
	Sent, SendErrors uint64
}

// Discovery finds the Booster teammates of format booster's unicast mode, as the vendor
// stack does: it broadcasts our TeamDiscoveryMsg every Interval on the discovery port
// and remembers the address of every robot of our team whose discovery packet arrives,
// for Expiry. It is the team component's PeerSource. Invariant: Run's goroutine owns the
// socket; the table is guarded by mu, for AppendPeers and Status.
type Discovery struct {
	cfg  DiscoveryConfig
	conn bus.Conn
	clk  clock.Clock
	log  *slog.Logger
	id   int32 // communicationId of our next packet

	mu    sync.Mutex
	peers map[netip.Addr]discovered
	cnt   DiscoveryCounters
}

type discovered struct {
	player uint8
	last   time.Time
}

// NewDiscovery returns a Discovery on conn (the socket bound to the discovery port); clk
// nil means clock.Wall.
func NewDiscovery(cfg DiscoveryConfig, conn bus.Conn, clk clock.Clock) (*Discovery, error) {
	if cfg.Team == 0 || cfg.Player == 0 || conn == nil {
		return nil, fmt.Errorf("%w: discovery needs a team, a player and a socket", ErrConfig)
	}
	if cfg.Interval < 0 || cfg.Expiry < 0 {
		return nil, fmt.Errorf("%w: discovery interval and expiry must not be negative", ErrConfig)
	}
	cfg.Port = cmpOr(cfg.Port, boosterPort(booster.PortDiscovery, cfg.Team))
	cfg.PeerPort = cmpOr(cfg.PeerPort, boosterPort(booster.PortUnicast, cfg.Team))
	if cfg.Interval == 0 {
		cfg.Interval = DefaultDiscoveryInterval
	}
	if cfg.Expiry == 0 {
		cfg.Expiry = DefaultDiscoveryExpiry
	}
	if clk == nil {
		clk = clock.Wall
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	cfg.Peers = slices.Clone(cfg.Peers)
	return &Discovery{cfg: cfg, conn: conn, clk: clk, log: log.With("component", "booster-discovery"),
		peers: map[netip.Addr]discovered{}}, nil
}

func cmpOr(v, def uint16) uint16 {
	if v != 0 {
		return v
	}
	return def
}

// Run sends our discovery packet at once and every Interval, and takes the socket's
// datagrams, until ctx is done; then it returns nil.
func (d *Discovery) Run(ctx context.Context) error {
	tk := d.clk.NewTicker(d.cfg.Interval)
	defer tk.Stop()
	dg := d.conn.Datagrams()
	d.announce()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tk.C():
			d.announce()
		case p, ok := <-dg:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				d.log.Warn("discovery socket closed")
				dg = nil
				continue
			}
			if _, malformed := d.receive(p.Payload, p.Src, d.clk.Now()); malformed {
				d.conn.ReportMalformed()
			}
		}
	}
}

// announce sends our discovery packet.
func (d *Discovery) announce() {
	pkt := booster.Discovery{CommunicationID: d.id, TeamID: int32(d.cfg.Team), PlayerID: int32(d.cfg.Player)}.Append(nil)
	d.id++
	var err error
	if len(d.cfg.Peers) > 0 {
		var n int
		if n, err = d.conn.SendToEach(pkt, d.cfg.Peers); n > 0 {
			err = nil
		}
	} else {
		err = d.conn.Broadcast(pkt, d.cfg.Port)
	}
	d.mu.Lock()
	if err != nil {
		d.cnt.SendErrors++
	} else {
		d.cnt.Sent++
	}
	d.mu.Unlock()
	if err != nil {
		d.log.Debug("cannot send the discovery packet", "err", err)
	}
}

// Receive handles one discovery datagram from src received at now and reports whether
// its sender was remembered (Run calls it for every datagram of the socket).
func (d *Discovery) Receive(b []byte, src netip.AddrPort, now time.Time) bool {
	ok, _ := d.receive(b, src, now)
	return ok
}

// receive is Receive that also reports whether the datagram was malformed (no discovery
// packet, or a player number outside 1..255), which Run reports to the socket; our own
// broadcast coming back, another team and a full table are not.
func (d *Discovery) receive(b []byte, src netip.AddrPort, now time.Time) (remembered, malformed bool) {
	m, err := booster.DecodeDiscovery(b)
	d.mu.Lock()
	defer d.mu.Unlock()
	c := &d.cnt
	c.Received++
	switch {
	case err != nil:
		c.WrongSize++
		return false, true
	case m.TeamID != int32(d.cfg.Team):
		c.ForeignTeam++
	case m.PlayerID < 1 || m.PlayerID > 255:
		c.Range++
		return false, true
	case m.PlayerID == int32(d.cfg.Player):
		c.Own++
	default:
		a := src.Addr().Unmap()
		if _, known := d.peers[a]; !known && len(d.peers) >= maxDiscovered {
			d.expire(now)
			if len(d.peers) >= maxDiscovered {
				c.Full++
				return false, false
			}
		}
		d.peers[a] = discovered{player: uint8(m.PlayerID), last: now}
		c.Accepted++
		return true, false
	}
	return false, false
}

// expire forgets the robots silent for longer than Expiry at now. d.mu is held.
func (d *Discovery) expire(now time.Time) {
	for a, p := range d.peers {
		if now.Sub(p.last) > d.cfg.Expiry {
			delete(d.peers, a)
		}
	}
}

// AppendPeers appends the team-message address (PeerPort) of every robot heard within
// Expiry of now to dst, in address order.
func (d *Discovery) AppendPeers(dst []netip.AddrPort, now time.Time) []netip.AddrPort {
	d.mu.Lock()
	d.expire(now)
	n := len(dst)
	for a := range d.peers {
		dst = append(dst, netip.AddrPortFrom(a, d.cfg.PeerPort))
	}
	d.mu.Unlock()
	slices.SortFunc(dst[n:], func(x, y netip.AddrPort) int { return x.Compare(y) })
	return dst
}

// Status returns the counters.
func (d *Discovery) Status() DiscoveryCounters {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cnt
}
