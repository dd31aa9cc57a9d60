package node

import (
	"log/slog"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
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
