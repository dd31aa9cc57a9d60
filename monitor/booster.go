package monitor

import (
	"fmt"
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// BoosterPorts returns the Booster robots' own ports of team t: their discovery
// broadcast (booster.PortDiscovery + t) and their unicast team messages
// (booster.PortUnicast + t). Their 2026 revision broadcasts on the team port instead,
// which TeamPort covers.
func BoosterPorts(t uint8) []Port {
	return []Port{
		{Kind: KindBooster, Port: uint16(booster.PortDiscovery + int(t)), Team: t},
		{Kind: KindBooster, Port: uint16(booster.PortUnicast + int(t)), Team: t},
	}
}

// withBoosterPorts adds, when on, the Booster ports of every team a team port is
// counted for that ps does not hold yet.
func withBoosterPorts(ps []Port, on bool) []Port {
	if !on {
		return ps
	}
	out := slices.Clone(ps)
	for _, p := range ps {
		if p.Kind != KindTeam || p.Team == 0 {
			continue
		}
		for _, q := range BoosterPorts(p.Team) {
			if !slices.ContainsFunc(out, func(o Port) bool { return o.Port == q.Port }) {
				out = append(out, q)
			}
		}
	}
	return out
}

// isBoosterPort reports whether port is a Booster port of a team 1..254.
func isBoosterPort(port uint16) bool {
	for _, base := range []int{booster.PortDiscovery, booster.PortUnicast} {
		if int(port) > base && int(port) < base+255 {
			return true
		}
	}
	return false
}

// boosterPort returns the Port of a Booster port (isBoosterPort).
func boosterPort(port uint16) Port {
	t := int(port) - booster.PortDiscovery
	if int(port) > booster.PortUnicast {
		t = int(port) - booster.PortUnicast
	}
	return Port{Kind: KindBooster, Port: port, Team: uint8(t)}
}

// followBooster adds the Booster ports of team t when Config.Booster is on and no
// listener holds them. m.mu is held.
func (m *Monitor) followBooster(t uint8) {
	if !m.cfg.Booster {
		return
	}
	for _, p := range BoosterPorts(t) {
		if slices.ContainsFunc(m.listeners, func(l *listener) bool { return l.port.Port == p.Port }) {
			continue
		}
		l, err := m.newListener(p)
		if err != nil {
			m.cfg.Logger.Warn(m.cfg.Program+": cannot follow the Booster port", "team", t, "port", p.Port, "err", err)
			continue
		}
		m.listeners = append(m.listeners, l)
		m.spawn(l)
	}
}

// observeBooster handles a datagram on a Booster port: a team message as on a team
// port (flagged OffPort), a discovery packet as the presence of its robot (also
// OffPort), anything else as a malformed packet of the port.
func (m *Monitor) observeBooster(p Port, d transport.Datagram) bool {
	b := d.Payload
	if !booster.IsDiscovery(b) {
		return m.observeTeam(p, d)
	}
	disc, _ := booster.DecodeDiscovery(b) // IsDiscovery: size and magic are right
	m.mu.Lock()
	defer m.mu.Unlock()
	if disc.TeamID < 1 || disc.TeamID > 255 || disc.PlayerID < 1 || disc.PlayerID > 255 {
		var f Faults
		f.Undecodable = 1
		m.fault(KindBooster, p.Port, d, robotKey{}, f,
			fmt.Sprintf("booster discovery of team %d player %d: numbers are 1..255", disc.TeamID, disc.PlayerID))
		return false
	}
	r := m.robot(robotKey{uint8(disc.TeamID), uint8(disc.PlayerID)}, d.Time)
	if r == nil {
		return true
	}
	if r.format == "" {
		r.format = "booster"
	}
	r.faults.OffPort++
	r.lastErr = fmt.Sprintf("booster discovery broadcast on port %d, which the rules do not allow", p.Port)
	m.checkPort(p, d, uint8(disc.TeamID))
	return true
}

// boosterState decodes a Booster team message into s; it carries no time, so its
// stamp is the receive time.
func boosterState(b []byte, s *teaminfo.State, at time.Time) error {
	msg, err := booster.Decode(b)
	if err != nil {
		return err
	}
	if msg.TeamID < 1 || msg.TeamID > 255 || msg.PlayerID < 1 || msg.PlayerID > 255 {
		return fmt.Errorf("%w: booster team %d player %d: numbers are 1..255", teaminfo.ErrRange, msg.TeamID, msg.PlayerID)
	}
	msg.ToState(s)
	s.Stamp = time.Duration(at.UnixNano())
	return nil
}
