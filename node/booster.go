package node

import (
	"log/slog"
	"strconv"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// boosterDiscovery reports whether the team configuration needs format booster's
// discovery: unicast mode with no fixed peers.
func boosterDiscovery(t *team.Config) bool {
	return t.Format == team.FormatBooster && t.BoosterMode == team.BoosterUnicast && len(t.Peers) == 0
}

// discoveryPort is the Booster discovery port of the team.
func discoveryPort(r *Config) uint16 { return uint16(booster.PortDiscovery + r.TeamNumber) }

// newDiscoverySocket opens the discovery socket on 20000 + team.
func newDiscoverySocket(r *Config, log *slog.Logger, tap func(string, uint16, string) transport.Tap) (*transport.Worker, error) {
	port := discoveryPort(r)
	return transport.New(transport.Config{
		Name: "booster-discovery", Interface: r.Interface, Port: port,
		MaxDatagram: TeamMaxDatagram, Logger: log,
		Tap: tap("booster-discovery", port, r.Interface),
	})
}

// newDiscovery returns the discovery on sock; the robots found receive on the team port.
func newDiscovery(r *Config, sock *transport.Worker, clk clock.Clock) (*team.Discovery, error) {
	return team.NewDiscovery(team.DiscoveryConfig{
		Team: r.Team.Team, Player: r.Team.Player, Port: discoveryPort(r), PeerPort: r.Team.TeamPort(),
		Logger: r.Team.Logger,
	}, sock, clk)
}

// boosterStatus adds format booster's figures to the team status: the sends that found
// no robot to go to and the discovery's counters (unicast mode).
func (n *Node) boosterStatus(s dm.DiagnosticStatus) dm.DiagnosticStatus {
	if n.cfg.Team.Format != team.FormatBooster {
		return s
	}
	add := func(k string, v uint64) {
		s.Values = append(s.Values, dm.KeyValue{Key: k, Value: strconv.FormatUint(v, 10)})
	}
	add("send_no_peers", n.team.Status().Send.NoPeers)
	if n.disc != nil {
		d := n.disc.Status()
		add("discovery_sent", d.Sent)
		add("discovery_send_errors", d.SendErrors)
		add("discovery_received", d.Received)
		add("discovery_accepted", d.Accepted)
		add("discovery_dropped_wrong_size", d.WrongSize)
		add("discovery_dropped_foreign_team", d.ForeignTeam)
		add("discovery_dropped_range", d.Range)
		add("discovery_dropped_own", d.Own)
		add("discovery_dropped_full", d.Full)
	}
	return s
}
