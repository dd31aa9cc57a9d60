package node

import (
	"fmt"
	"net/netip"

	"github.com/robocup-dnetwork/dnetwork/node/swarm"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// positioner is what swarmRange feeds: the swarm component's positions.
type positioner interface {
	SetPosition(name string, p swarm.Point)
	ForgetPosition(name string)
}

// swarmRange gives the swarm component the teammates' positions for swarm.range, in
// ModeNetwork (one robot per host): the robot_pos of each accepted team packet becomes
// the position of the swarm names swarm.hosts lists for the packet's source IP, and a
// teammate gone offline (its team.teammate_timeout) has its position forgotten, so that
// the range never drops frames on a stale position. Its onMate is the team component's
// mate hook: it runs on the goroutine that owns the team component's state, so from is
// that goroutine's alone.
type swarmRange struct {
	sw    positioner
	names map[netip.Addr][]string // swarm.hosts by IP, without this robot's own name
	from  [256]netip.Addr         // the source of each player's position fed; zero: none
}

// newSwarmRange returns the feed of positions for c, nil when c's range cannot use it:
// swarm off, no range, a one-host mode (several robots share an IP) or no hosts.
func newSwarmRange(c *swarm.Config, sw positioner) *swarmRange {
	if !c.Enabled || c.Range <= 0 || c.Mode != tswarm.ModeNetwork {
		return nil
	}
	hosts, err := swarm.ParseHosts(c.Hosts)
	if err != nil || len(hosts) == 0 {
		return nil
	}
	s := &swarmRange{sw: sw, names: map[netip.Addr][]string{}}
	for name, a := range hosts {
		if name != c.Name {
			s.names[a.Addr()] = append(s.names[a.Addr()], name)
		}
	}
	return s
}

// onMate feeds one teammate's news: its position on an accepted packet, forgotten when
// it went offline or now sends from another IP (unless another online teammate sends
// from that IP too: its next packet places those robots). The per-packet path
// allocates nothing.
func (s *swarmRange) onMate(e team.MateEvent) {
	prev := s.from[e.Player]
	if prev.IsValid() && (e.Offline || prev != e.Src) {
		s.from[e.Player] = netip.Addr{}
		if !s.fed(prev) {
			for _, name := range s.names[prev] {
				s.sw.ForgetPosition(name)
			}
		}
	}
	if e.Offline {
		return
	}
	names, ok := s.names[e.Src]
	if !ok {
		return // a teammate that is not in swarm.hosts: no swarm robot of ours
	}
	p := swarm.Point{X: units.Metres(e.RobotPos.X), Y: units.Metres(e.RobotPos.Y)}
	for _, name := range names {
		s.sw.SetPosition(name, p)
	}
	s.from[e.Player] = e.Src
}

// fed reports whether some player's position still comes from ip.
func (s *swarmRange) fed(ip netip.Addr) bool {
	for _, a := range s.from {
		if a == ip {
			return true
		}
	}
	return false
}

// swarmRangeWarning returns the start-up warning for a swarm.range that the node cannot
// apply, or "" when it can (or none is set).
func swarmRangeWarning(c *Config) string {
	sc := &c.Swarm
	if !sc.Enabled || sc.Range <= 0 {
		return ""
	}
	const ignored = "every robot counts as in range"
	switch {
	case sc.Mode != tswarm.ModeNetwork:
		return fmt.Sprintf("swarm.range %g m has no effect in mode %s: the teammates' positions come from their team packets, "+
			"matched to swarm.hosts by source IP, and robots sharing a host cannot be told apart; %s", sc.Range, sc.Mode, ignored)
	case !c.TeamEnabled:
		return fmt.Sprintf("swarm.range %g m has no effect: the teammates' positions come from their team packets "+
			"and team communication is off; %s", sc.Range, ignored)
	case len(sc.Hosts) == 0:
		return fmt.Sprintf("swarm.range %g m has no effect: the teammates' team packets are matched to swarm names "+
			"by source IP through swarm.hosts, which is empty; %s", sc.Range, ignored)
	}
	return ""
}
