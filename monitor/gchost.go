package monitor

import (
	"fmt"
	"net"
	"net/netip"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// A monitor on the GameController's own host and the return port.
//
// The robots send their return packets by unicast to the GameController's host, port
// gamecontroller.ReturnPort (3939), and a unicast datagram reaches only one of the sockets
// sharing a port, normally the one bound last. A monitor listening on that port on the
// GameController's host therefore takes the return packets away from a GameController
// started earlier, which then shows every robot offline. The monitor can tell: the
// GameController's control packets come from one of this host's own addresses. It then
// closes its socket on the return port (unless Config.KeepReturnPort), so the
// GameController receives them again, and says so in the log and in the state
// (GCView.Local, GCView.Warning).

// localAddrs returns the addresses of this host's interfaces (in the network namespace
// of the calling thread).
func localAddrs() ([]netip.Addr, error) {
	as, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	out := make([]netip.Addr, 0, len(as))
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out, nil
}

// isLocal reports whether a is one of this host's addresses. Loopback addresses always
// are.
func (m *Monitor) isLocal(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return true
	}
	as, err := m.localAddrs()
	if err != nil {
		m.cfg.Logger.Warn(m.cfg.Program+": cannot list this host's addresses", "err", err)
		return false
	}
	for _, b := range as {
		if b == a {
			return true
		}
	}
	return false
}

// checkGCHost is called for a control packet from a GameController address not heard
// before. When that address is this host's, it releases (or, with KeepReturnPort, warns
// about) every socket on the GameController's return port. m.mu is held.
func (m *Monitor) checkGCHost(a netip.Addr) {
	if !m.isLocal(a) {
		return
	}
	m.gc.local = true
	for _, l := range m.listeners {
		if l.port.Kind != KindReturn || l.released ||
			(l.port.Port != gcproto.ReturnPort && l.w.LocalAddr().Port() != gcproto.ReturnPort) {
			continue
		}
		if m.cfg.KeepReturnPort {
			m.gc.warning = fmt.Sprintf("the GameController at %s runs on this host and dnetwork %s holds its return "+
				"port %d: unicast return packets reach only one socket, so the GameController may show the robots "+
				"offline. Restart dnetwork %[2]s without keeping the return port (or run it on another host).",
				a, m.cfg.Program, gcproto.ReturnPort)
			m.cfg.Logger.Warn(m.cfg.Program+": "+m.gc.warning, "gamecontroller", a)
			continue
		}
		l.released = true
		if l.stop != nil {
			l.stop()
		}
		m.gc.warning = fmt.Sprintf("the GameController at %s runs on this host: dnetwork %s closed its return port "+
			"%d so that the GameController receives the robots' return packets (unicast reaches only one socket). "+
			"Return packets are not received here; run dnetwork %[2]s on another host to get them.", a, m.cfg.Program, gcproto.ReturnPort)
		m.cfg.Logger.Warn(m.cfg.Program+": "+m.gc.warning, "gamecontroller", a)
	}
}
