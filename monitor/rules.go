package monitor

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// portFlag is traffic from one host on one port the rules do not allow.
type portFlag struct {
	name        string // the port's name (Port.Name)
	first, last time.Time
	count       uint64
	team        uint8 // the team number its last message carried, 0 unknown
	reason      string
}

type flagKey struct {
	host netip.Addr
	port uint16
}

// PortFlagView is one source host heard on a port the rules (HSL and SPL alike) do not
// allow: team messages only on 10000 + team number of the two teams playing. Traffic on
// the GameController's ports (3838, 3939, 3636, 3940) is always allowed.
type PortFlagView struct {
	Host     string  `json:"host"`
	Port     uint16  `json:"port"`
	PortName string  `json:"port_name"`
	Packets  uint64  `json:"packets"`
	AgeS     float64 `json:"age_s"`
	// Team is the team number the host's last message carried; 0 when it could not be
	// decoded or carries none.
	Team   uint8  `json:"team"`
	Reason string `json:"reason"`
}

// portRule returns why a message of team msgTeam (0 unknown) on port p breaks the
// rules, or "" when it does not. A team port of a team the GameController does not name
// is judged only while a GameController is heard. m.mu is held.
func (m *Monitor) portRule(p Port, msgTeam uint8) string {
	if p.Kind == KindBooster {
		return "a Booster robots' port (discovery 20000 + team, unicast 30000 + team): the rules allow team messages only on 10000 + team number"
	}
	if p.Kind != KindTeam {
		return ""
	}
	switch {
	case p.Team == 0:
		return "no team's port: the rules allow team messages only on 10000 + team number"
	case m.gc.has && m.gcTeam(p.Team) == nil:
		return fmt.Sprintf("port of team %d, which is not playing (the GameController names teams %d and %d)",
			p.Team, m.gc.pkt.Teams[0].TeamNumber, m.gc.pkt.Teams[1].TeamNumber)
	case msgTeam != 0 && msgTeam != p.Team:
		return fmt.Sprintf("team %d sends on the port of team %d", msgTeam, p.Team)
	}
	return ""
}

// checkPort flags d, a datagram on port p carrying team msgTeam (0 unknown), when the
// rules do not allow it there. m.mu is held.
func (m *Monitor) checkPort(p Port, d transport.Datagram, msgTeam uint8) {
	reason := m.portRule(p, msgTeam)
	if reason == "" {
		return
	}
	k := flagKey{d.Src.Addr(), cmp.Or(d.Dst.Port(), p.Port)}
	f := m.flags[k]
	if f == nil {
		if len(m.flags) >= m.cfg.MaxSources {
			evictOldest(m.flags, func(f *portFlag) time.Time { return f.last })
		}
		f = &portFlag{name: p.Name(), first: d.Time}
		m.flags[k] = f
	}
	f.count++
	f.last = d.Time
	f.team = msgTeam
	f.reason = reason
}

// flagViews lists the flags by host and port. m.mu is held.
func (m *Monitor) flagViews(now time.Time) []PortFlagView {
	vs := make([]PortFlagView, 0, len(m.flags))
	for k, f := range m.flags {
		vs = append(vs, PortFlagView{Host: k.host.String(), Port: k.port, PortName: f.name, Packets: f.count,
			AgeS: round(now.Sub(f.last).Seconds(), 2), Team: f.team, Reason: f.reason})
	}
	slices.SortFunc(vs, func(a, b PortFlagView) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Port, b.Port))
	})
	return vs
}
