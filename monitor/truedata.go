package monitor

import (
	"fmt"
	"net/netip"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// The GameController's monitor channel (Config.TrueData).
//
// The monitor asks every GameController it hears for its monitor channel with a monitor
// request ("RGTr", UDP 3636), sent from its GameController socket. The GameController
// registers the requesting host until it stops, or until that host sends a status
// message of its own; a new request restarts the host's senders (which end when sending
// fails, e.g. while the host was unreachable). So the monitor asks every
// trueRequestInterval while no true data came within trueSilence, and renews the
// registration every trueRefresh while it does. The GameController answers with
// true-data control packets ("RGTD", unicast to the host's control port) and forwards
// every status message it receives to the host's port 3940 (KindForward), so the monitor
// sees the return packets from any host without a socket on the return port.
//
// A GameController ignores requests from a host it has received status messages from (a
// robot's host). When its control packets keep arriving but no true data came within
// trueRefusedAfter of the first unanswered request, the monitor says so in the log and in
// gamecontroller.true_data.warning.
const (
	trueRequestInterval = time.Second
	trueSilence         = 2 * time.Second
	trueRefresh         = 10 * time.Second
	trueRefusedAfter    = 3 * time.Second
)

// trueState is the monitor channel: the last true-data packet and the requests per
// GameController host.
type trueState struct {
	has       bool
	pkt       gcproto.Packet
	src       netip.AddrPort
	last      time.Time
	count     uint64
	forwarded uint64 // status messages forwarded by the GameController
	requests  uint64
	hosts     map[netip.Addr]*trueHost
	warning   string
}

// trueHost is one GameController host asked for true data.
type trueHost struct {
	lastReq  time.Time
	pending  time.Time // the first request not answered yet; zero when answered
	lastTrue time.Time
	refused  bool
}

// TrueDataView is the GameController's monitor channel (Config.TrueData).
type TrueDataView struct {
	// Requested: the monitor asks the GameControllers for true data.
	Requested bool `json:"requested"`
	// Requests is the number of monitor requests sent.
	Requests uint64 `json:"requests"`
	// Packets is the number of true-data packets ("RGTD") received.
	Packets uint64 `json:"packets"`
	// Online: a true-data packet within offline_after_s.
	Online bool     `json:"online"`
	AgeS   *float64 `json:"age_s"`
	Source string   `json:"source"`
	// Forwarded is the number of status messages the GameController forwarded.
	Forwarded uint64 `json:"forwarded"`
	// Refused: a GameController sends control packets but does not answer the requests.
	Refused bool   `json:"refused"`
	Warning string `json:"warning"`
	// Game is the last true-data packet (the state the GameController may hide from the
	// robots, e.g. PLAYING during the delay in which the robots still see SET).
	Game *Game `json:"game"`
}

// observeTrue keeps a true-data packet. m.mu is held.
func (m *Monitor) observeTrue(p *gcproto.Packet, d transport.Datagram) {
	t := &m.truth
	t.has = true
	t.pkt = *p
	t.src = d.Src
	t.last = d.Time
	t.count++
	if h := t.hosts[d.Src.Addr()]; h != nil {
		h.lastTrue = d.Time
		h.pending = time.Time{}
		if h.refused {
			h.refused = false
			t.warning = ""
			m.cfg.Logger.Info("monitor: the GameController answers monitor requests now", "gamecontroller", d.Src.Addr())
		}
	}
}

// observeForward processes a status message the GameController forwarded: a return
// packet from the address in its prefix.
func (m *Monitor) observeForward(p Port, d transport.Datagram) bool {
	src, msg, err := gcproto.DecodeForward(d.Payload)
	if err != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		f, msg := sizeFault(err, gcproto.ErrLength)
		m.fault(KindReturn, p.Port, d, robotKey{}, f, msg)
		return false
	}
	m.mu.Lock()
	m.truth.forwarded++
	m.mu.Unlock()
	d.Payload = msg
	d.Src = netip.AddrPortFrom(src, 0)
	return m.observeReturn(p, d)
}

// trueRequests returns the GameController hosts to send a monitor request to now, and
// marks a host that does not answer as refusing. m.mu is held.
func (m *Monitor) trueRequests(now time.Time) []netip.Addr {
	// The HL GameController (protocol v12) has no monitor channel.
	if !m.cfg.TrueData || (m.gc.has && m.gc.pkt.Layout.Family() == gcproto.FamilyHL) {
		return nil
	}
	t := &m.truth
	if t.hosts == nil {
		t.hosts = map[netip.Addr]*trueHost{}
	}
	var out []netip.Addr
	for a, heard := range m.gc.sources {
		if now.Sub(heard) > m.cfg.OfflineAfter {
			continue
		}
		h := t.hosts[a]
		if h == nil {
			h = &trueHost{}
			t.hosts[a] = h
		}
		if !h.pending.IsZero() && !h.refused && now.Sub(h.pending) >= trueRefusedAfter && now.Sub(heard) <= trueSilence {
			h.refused = true
			t.warning = fmt.Sprintf("the GameController at %s sends control packets but does not answer monitor requests: "+
				"it refuses a host it has received status messages from (a robot's host, or a node on this host), and "+
				"gc-sim has no monitor channel. Run the monitor on a host no robot software runs on.", a)
			m.cfg.Logger.Warn("monitor: "+t.warning, "gamecontroller", a)
		}
		silent := now.Sub(h.lastTrue) > trueSilence
		if (silent && now.Sub(h.lastReq) >= trueRequestInterval) || now.Sub(h.lastReq) >= trueRefresh {
			h.lastReq = now
			if h.pending.IsZero() {
				h.pending = now
			}
			out = append(out, a)
		}
	}
	for a := range t.hosts {
		if _, ok := m.gc.sources[a]; !ok {
			delete(t.hosts, a)
		}
	}
	return out
}

// sendTrueRequests sends a monitor request to each host from the GameController socket.
// m.mu is not held.
func (m *Monitor) sendTrueRequests(hosts []netip.Addr) {
	if len(hosts) == 0 {
		return
	}
	m.mu.Lock()
	var w *transport.Worker
	for _, l := range m.listeners {
		if l.port.Kind == KindGameController {
			w = l.w
			break
		}
	}
	m.mu.Unlock()
	if w == nil {
		return
	}
	req := gcproto.AppendMonitorRequest(nil)
	for _, a := range hosts {
		if err := w.SendTo(req, netip.AddrPortFrom(a, gcproto.MonitorRequestPort)); err != nil {
			m.cfg.Logger.Debug("monitor: monitor request", "gamecontroller", a, "err", err)
			continue
		}
		m.mu.Lock()
		m.truth.requests++
		m.mu.Unlock()
	}
}

// trueView returns the monitor channel's view at now. m.mu is held.
func (m *Monitor) trueView(now time.Time) *TrueDataView {
	t := &m.truth
	if !m.cfg.TrueData && !t.has && t.forwarded == 0 {
		return nil
	}
	v := &TrueDataView{Requested: m.cfg.TrueData, Requests: t.requests, Packets: t.count, Forwarded: t.forwarded,
		Warning: t.warning}
	for _, h := range t.hosts {
		v.Refused = v.Refused || h.refused
	}
	if !t.has {
		return v
	}
	age := now.Sub(t.last)
	v.Online = age <= m.cfg.OfflineAfter
	v.AgeS = ptr(round(age.Seconds(), 2))
	v.Source = t.src.String()
	v.Game = m.gameView(&t.pkt)
	return v
}

// shownPacket is the packet whose penalties the robots' rows show: the true data while
// it is fresh, else the last control packet. m.mu is held.
func (m *Monitor) shownPacket(now time.Time) *gcproto.Packet {
	if m.truth.has && now.Sub(m.truth.last) <= m.cfg.OfflineAfter {
		return &m.truth.pkt
	}
	return &m.gc.pkt
}
