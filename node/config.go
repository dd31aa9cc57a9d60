package node

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"

	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/node/record"
	"github.com/robocup-dnetwork/dnetwork/node/sim3d"
	"github.com/robocup-dnetwork/dnetwork/node/swarm"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/transport"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// Limits of the node-level parameters.
const (
	MinRobotID    = 1
	MaxRobotID    = 20 // the most players a GameController packet carries (SPL v15+, HSL)
	MinTeamNumber = 1
	MaxTeamNumber = 254 // 255 marks a dropped ball in the GameController packets
)

// MinWorldInfoKey is the shortest worldinfo.key: Fawkes reads KeySize bytes of its key
// string, the terminating NUL included, so a shorter key gives it bytes past the string.
const MinWorldInfoKey = wi.KeySize - 1

// ErrConfig is wrapped by every error Validate reports.
var ErrConfig = errors.New("node: bad config")

// Config is the whole configuration of a dnetwork node. Every field is a ROS parameter
// (see Declare and the table in the package documentation); DefaultConfig holds the
// defaults.
//
// RobotID, TeamNumber, League and Interface are the node's identity and are copied into
// the component configurations by Resolve: the Team, Player, League, PlayerNumber and
// Interface fields of the component configurations are overwritten there.
type Config struct {
	// RobotID is this robot's player number, 1..20 (parameter robot_id). Required. It
	// names the node (dnetwork_<id>) and its topics (/dnetwork_<id>/...).
	RobotID int
	// TeamNumber is our team number, 1..254 (team_number). Required.
	TeamNumber int
	// League selects the message budget and size rules (league: hsl, spl or hl).
	League team.League
	// Interface selects the network interface of every socket (interface: a name, a
	// CIDR, an IPv4 address, "auto" or "any"; see package transport).
	Interface string
	// ReceiveBuffer is the SO_RCVBUF of the GameController and team sockets in bytes
	// (receive_buffer, default DefaultReceiveBuffer; 0 keeps the system default), so a
	// burst of junk does not push teammate and GameController packets out of the queue
	// before the socket's worker reads them.
	ReceiveBuffer int
	// InputsReliable subscribes MotionInfo, BehaviorInfo and VisionInfo with reliable
	// QoS (inputs.reliable). Off by default: a best-effort subscription matches
	// publishers of either reliability, so a vision node that publishes with the
	// sensor-data profile is heard too.
	InputsReliable bool

	// TeamEnabled runs the UDP team component (team.enabled). Default true; switch it
	// off for the 3D simulator, where the sim3d component carries team talk.
	TeamEnabled bool
	// Team configures the team component (team.*).
	Team team.Config

	// GameControllerPort is the port the GameController socket binds
	// (gamecontroller.port, default 3838).
	GameControllerPort uint16
	// GameController configures the GameController client (gamecontroller.*).
	GameController gamecontroller.Config

	// WorldInfo configures the Fawkes world info component (worldinfo.*); off by default.
	// An empty WorldInfo.Interface means Interface.
	WorldInfo worldinfo.Config
	// Swarm configures the swarm component (swarm.*); off by default. An empty
	// Swarm.Name means "robot<id>"; an empty Swarm.Interface means Interface in the
	// network mode and the loopback interface in the one-host modes.
	Swarm swarm.Config

	// Sim3DEnabled runs the 3D simulator team channel (sim3d.enabled); off by default.
	Sim3DEnabled bool
	// Sim3D configures it (sim3d.*).
	Sim3D sim3d.Config

	// Record configures the recording of the node's traffic (record.*); off by default.
	Record record.Config

	// Diagnostics configures /diagnostics (diagnostics.*). An empty Prefix means the node's
	// name, an empty HardwareID "robot<id>".
	Diagnostics diagnostics.Config
}

// DefaultReceiveBuffer is the default receive_buffer (4 MiB: at 150,000 junk datagrams/s a
// socket rides out a stall of its reader of about 50 ms); MaxReceiveBuffer its limit.
const (
	DefaultReceiveBuffer = 4 << 20
	MaxReceiveBuffer     = 64 << 20
)

// DefaultConfig returns the defaults of every parameter. RobotID and TeamNumber are 0
// and must be set.
func DefaultConfig() Config {
	c := Config{
		League:             team.LeagueHSL,
		Interface:          "auto",
		ReceiveBuffer:      DefaultReceiveBuffer,
		TeamEnabled:        true,
		Team:               team.DefaultConfig(),
		GameControllerPort: gamecontroller.ControlPort,
		GameController:     gamecontroller.DefaultConfig(),
		WorldInfo:          worldinfo.DefaultConfig(),
		Swarm:              swarm.DefaultConfig(),
		Sim3D:              sim3d.DefaultConfig(),
		Record:             record.DefaultConfig(),
		Diagnostics:        diagnostics.DefaultConfig(),
	}
	c.WorldInfo.Interface = "" // the node's interface
	c.Swarm.Mode = tswarm.ModeNetwork
	c.Diagnostics.Prefix = "" // the node's name
	return c
}

// NodeName is the node's default name, dnetwork_<id>.
func NodeName(robotID int) string { return "dnetwork_" + strconv.Itoa(robotID) }

// TopicPrefix is the namespace of the node's own topics, /dnetwork_<id>.
func (c Config) TopicPrefix() string { return "/" + NodeName(c.RobotID) }

// Resolve returns c with the derived fields filled in: the node's identity copied into
// every component configuration and the empty defaults replaced (see Config).
func (c Config) Resolve() Config {
	c.Team.Team, c.Team.Player = clampByte(c.TeamNumber), clampByte(c.RobotID)
	c.Team.League = c.League

	c.GameController.Team, c.GameController.Player = c.TeamNumber, c.RobotID

	c.WorldInfo.PlayerNumber = 0
	if c.RobotID >= 1 && c.RobotID <= worldinfo.MaxPlayerNumber {
		c.WorldInfo.PlayerNumber = c.RobotID
	}
	if c.WorldInfo.Interface == "" {
		c.WorldInfo.Interface = c.Interface
	}

	if c.Swarm.Name == "" {
		c.Swarm.Name = "robot" + strconv.Itoa(c.RobotID)
	}
	if c.Swarm.Interface == "" && c.Swarm.Mode == tswarm.ModeNetwork {
		c.Swarm.Interface = c.Interface
	}

	c.Sim3D.Player, c.Sim3D.TeamNumber = c.RobotID, clampByte(c.TeamNumber)

	if c.Diagnostics.Prefix == "" {
		c.Diagnostics.Prefix = NodeName(c.RobotID)
	}
	if c.Diagnostics.HardwareID == "" {
		c.Diagnostics.HardwareID = "robot" + strconv.Itoa(c.RobotID)
	}
	return c
}

// clampByte converts an identity number for a uint8 field; values out of range become
// 0, which every component's Validate rejects.
func clampByte(v int) uint8 {
	if v < 0 || v > 255 {
		return 0
	}
	return uint8(v)
}

// Validate reports every problem of the resolved configuration at once: the node's own
// fields and those of every enabled component. Each error wraps ErrConfig.
func (c Config) Validate() error {
	r := c.Resolve()
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %w", ErrConfig, err))
		}
	}
	if r.RobotID < MinRobotID || r.RobotID > MaxRobotID {
		add(fmt.Errorf("robot_id %d is outside %d..%d", r.RobotID, MinRobotID, MaxRobotID))
	}
	if r.TeamNumber < MinTeamNumber || r.TeamNumber > MaxTeamNumber {
		add(fmt.Errorf("team_number %d is outside %d..%d", r.TeamNumber, MinTeamNumber, MaxTeamNumber))
	}
	if r.GameControllerPort == 0 {
		add(errors.New("gamecontroller.port must not be 0"))
	}
	if r.TeamEnabled {
		add(r.Team.Validate())
	}
	add(r.portClash())
	add(r.GameController.Validate())
	if r.WorldInfo.Enabled {
		add(r.WorldInfo.Validate())
		if n := len(r.WorldInfo.Key); n > 0 && n < MinWorldInfoKey {
			add(fmt.Errorf("worldinfo.key has %d bytes; Fawkes peers agree only on keys of at least %d", n, MinWorldInfoKey))
		}
	}
	add(r.Swarm.Validate())
	if r.Sim3DEnabled {
		add(r.Sim3D.Validate())
	}
	add(r.Record.Validate())
	add(r.Diagnostics.Validate())
	return errors.Join(errs...)
}

// boundPort is a UDP port one of the node's sockets binds, on the interface selector
// iface.
type boundPort struct {
	what  string
	port  uint16
	iface string
}

// portClash reports two sockets of the resolved configuration that bind the same port
// on interfaces that may be one (mayShareInterface). They would open without an error (SO_REUSEADDR): each would
// receive the other's broadcasts, counted as malformed, and unicast would reach only one.
func (r Config) portClash() error {
	ps := []boundPort{{"GameController port", r.GameControllerPort, r.Interface}}
	if r.TeamEnabled {
		ps = append(ps, boundPort{"team port", r.Team.TeamPort(), r.Interface})
		if boosterDiscovery(&r.Team) {
			ps = append(ps, boundPort{"Booster discovery port", discoveryPort(&r), r.Interface})
		}
	}
	if r.WorldInfo.Enabled {
		ps = append(ps, boundPort{"world info port (worldinfo.port)", r.WorldInfo.Group.Port(), r.WorldInfo.Interface})
	}
	if r.Swarm.Enabled {
		if r.Swarm.Mode == tswarm.ModePorts {
			// This robot's own entry of swarm.hosts is its socket (Validate reports a
			// missing one).
			if hosts, err := swarm.ParseHosts(r.Swarm.Hosts); err == nil {
				if own, ok := hosts[r.Swarm.Name]; ok {
					ps = append(ps, boundPort{"swarm port (this robot's entry of swarm.hosts)", own.Port(), cmp.Or(r.Swarm.Interface, "lo")})
				}
			}
		} else {
			ps = append(ps, boundPort{"swarm port (swarm.udp_port)", r.Swarm.UDPPort, cmp.Or(r.Swarm.Interface, "lo")})
		}
	}
	var errs []error
	for i, b := range ps {
		for _, a := range ps[:i] {
			if a.port == b.port && a.port != 0 && mayShareInterface(a.iface, b.iface) {
				errs = append(errs, fmt.Errorf("%s %d is the %s; two sockets of the node cannot share a port", b.what, b.port, a.what))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// hostInterfaces lists this machine's interfaces for monitorCounted (a test replaces
// it).
var hostInterfaces = transport.Interfaces

// monitorCounted reports why the GameController would count the monitor copy
// (team.monitor_address) as one of our team messages, or nil; ifs are this machine's
// interfaces. The copy leaves whatever the game state, also while the robot is silent
// for the budget, and the GameController counts every message that reaches a team
// port of its host, broadcast or not: a copy at budget 0 is illegal communication,
// which sets the team's score to 0. So the copy may go neither to a broadcast address
// (255.255.255.255, the broadcast address of the interface selector's CIDR or of any
// interface here) nor to the team port, on whatever host.
func (r Config) monitorCounted(ifs []transport.Interface) error {
	dst := r.Team.Monitor
	if !dst.IsValid() {
		return nil
	}
	const why = "the GameController counts the copy as our team message, also while the robot is silent (at budget 0: illegal communication)"
	a := dst.Addr().Unmap()
	if a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return fmt.Errorf("%v is the broadcast address: %s; send it by unicast to the team computer", a, why)
	}
	if p, err := netip.ParsePrefix(r.Interface); err == nil && a == transport.DirectedBroadcast(p.Masked()) {
		return fmt.Errorf("%v is the broadcast address of interface %v: %s; send it by unicast to the team computer", a, p.Masked(), why)
	}
	for _, ifi := range ifs {
		if ifi.Flags&(net.FlagBroadcast|net.FlagLoopback) == 0 {
			continue
		}
		for _, p := range ifi.Addrs {
			if a == transport.DirectedBroadcast(p) {
				return fmt.Errorf("%v is the broadcast address of %s (%v): %s; send it by unicast to the team computer", a, ifi.Name, p, why)
			}
		}
	}
	for _, port := range []uint16{r.Team.TeamPort(), league.TeamPort(r.Team.Team)} {
		if dst.Port() == port {
			return fmt.Errorf("port %d is a team port of team %d: on the GameController's host %s; use another port", port, r.Team.Team, why)
		}
	}
	return nil
}

// mayShareInterface reports whether sockets on the interface selectors a and b may be
// on one interface: the same selector, "any", or "auto" and a selector that is not
// loopback ("auto" chooses the one usable non-loopback interface, so a socket on
// wlan0 or 10.0.1.0/24 is on it whenever both open).
func mayShareInterface(a, b string) bool {
	a, b = cmp.Or(a, "auto"), cmp.Or(b, "auto")
	switch {
	case a == b || a == "any" || b == "any":
		return true
	case a == "auto":
		return !isLoopbackSelector(b)
	case b == "auto":
		return !isLoopbackSelector(a)
	}
	return false
}

// isLoopbackSelector reports whether an interface selector names the loopback
// interface: "lo", or an address or CIDR inside 127.0.0.0/8.
func isLoopbackSelector(s string) bool {
	if s == "lo" {
		return true
	}
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Addr().IsLoopback() && p.Bits() >= 8
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.IsLoopback()
}

// inputQoS is the QoS of the MotionInfo, BehaviorInfo and VisionInfo subscriptions.
func (c Config) inputQoS() ros.QoS {
	q := ros.QoSDefault
	if !c.InputsReliable {
		q.Reliability = ros.BestEffort
	}
	return q
}

// parseAddrPort reads "host:port" with a numeric IPv4 or IPv6 address.
func parseAddrPort(s string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%q is not an address:port (e.g. 127.0.0.1:10101)", s)
	}
	if ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("%q has port 0", s)
	}
	return ap, nil
}

// parsePrefix reads a CIDR ("10.0.0.0/24") or a single address ("10.0.0.2", taken as
// /32 or /128).
func parsePrefix(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is neither an address nor a CIDR", s)
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}
