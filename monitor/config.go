package monitor

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Well-known ports.
const (
	// GameControllerPort is where the GameController broadcasts its control packets.
	GameControllerPort = gcproto.ControlPort
	// ReturnPort is where the robots send their return (status) packets, by unicast to
	// the GameController's host.
	ReturnPort = gcproto.ReturnPort
	// TeamBasePort plus the team number is a team's port for team messages.
	TeamBasePort = gcproto.TeamPortBase
	// ForwardPort is where a GameController forwards the status messages it receives
	// to the monitors that asked for its monitor channel (Config.TrueData).
	ForwardPort = gcproto.StatusForwardPort
	// ZJUPort is the port ZJUDancer robots used for the team messages of every team.
	ZJUPort = 57335
)

// Defaults of Config.
const (
	DefaultOfflineAfter = 5 * time.Second
	DefaultRemoveAfter  = 60 * time.Second
	DefaultRateWindow   = 10 * time.Second
	// DefaultMaxRobots bounds the robots tracked at once, so that forged packets with
	// ever new team and player numbers cannot grow the state without limit.
	DefaultMaxRobots = 256
	// DefaultMaxSources bounds the unattributed sources tracked at once.
	DefaultMaxSources = 64
	// rateResolution is the width of one bucket of the rate window.
	rateResolution = 100 * time.Millisecond
	// pruneInterval is how often Run forgets robots and sources that went silent.
	pruneInterval = time.Second
)

// ErrConfig reports an invalid Config; the message lists every problem.
var ErrConfig = errors.New("monitor: bad config")

// ErrRunTwice reports a second call of Monitor.Run.
var ErrRunTwice = errors.New("monitor: Run called twice")

// Kind says what a port carries.
type Kind uint8

// Port kinds.
const (
	// KindGameController: control packets ("RGme", "RGTD") from the GameController.
	KindGameController Kind = iota + 1
	// KindReturn: return packets ("RGrt") from the robots to the GameController.
	KindReturn
	// KindTeam: team messages (zju or dnet TeamInfo, the HL standard protobuf) between the
	// robots of a team.
	KindTeam
	// KindForward: status messages the GameController forwards to a monitor, each after
	// the robot's IPv4 address (see Config.TrueData).
	KindForward
	// KindBooster: the Booster robots' own ports (BoosterPorts): their discovery
	// broadcast and their unicast team messages, which the league's rules do not allow.
	KindBooster
)

func (k Kind) String() string {
	switch k {
	case KindGameController:
		return "gamecontroller"
	case KindReturn:
		return "return"
	case KindTeam:
		return "team"
	case KindForward:
		return "forward"
	case KindBooster:
		return "booster"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Port is one UDP port the monitor listens on.
type Port struct {
	Kind Kind
	// Port is the UDP port. 0 lets the kernel pick one (for tests; Monitor.Ports tells
	// which one it picked).
	Port uint16
	// Team is the team whose port this is (KindTeam only): every datagram arriving here
	// counts as one message of that team, as the GameController counts them. 0 marks a
	// port several teams share (such as ZJUPort): a message counts for the team number
	// it carries, when it can be decoded.
	Team uint8
}

// Name labels the port in logs and in the state, e.g. "gamecontroller", "team 5" or
// "team port 57335".
func (p Port) Name() string {
	switch {
	case p.Kind == KindTeam && p.Team != 0:
		return fmt.Sprintf("team %d", p.Team)
	case p.Kind == KindTeam:
		return fmt.Sprintf("team port %d", p.Port)
	case p.Kind == KindBooster:
		return fmt.Sprintf("booster %d port %d", p.Team, p.Port)
	}
	return p.Kind.String()
}

// TeamPort returns the team port of team t (league.TeamPort), counted for t.
func TeamPort(t uint8) Port {
	return Port{Kind: KindTeam, Port: league.TeamPort(t), Team: t}
}

// DefaultPorts returns the ports of a monitor for teams: the GameController port, the
// return port and the team port of every team.
func DefaultPorts(teams ...uint8) []Port {
	ps := []Port{{Kind: KindGameController, Port: GameControllerPort}, {Kind: KindReturn, Port: ReturnPort}}
	for _, t := range teams {
		ps = append(ps, TeamPort(t))
	}
	return ps
}

// Config configures a Monitor. Start from DefaultConfig.
type Config struct {
	// Interface selects the interface of every socket (transport.ParseSelector).
	// Default "any": every interface, loopback included, no device binding.
	Interface string
	// Ports are the ports to listen on (see DefaultPorts).
	Ports []Port
	// FollowGC adds the team port (TeamBasePort + team) of every team the GameController
	// names that no port in Ports is counted for yet.
	FollowGC bool
	// Booster adds the Booster robots' own ports (BoosterPorts) of every team a team port
	// is counted for, and of every team FollowGC follows.
	Booster bool
	// Groups are IPv4 multicast groups joined on every team port, for teams that talk over
	// host-only multicast (several simulated robots on one host). The interface must
	// have the MULTICAST flag.
	Groups []netip.Addr

	// League gives the size cap of team messages (larger ones are counted as oversize)
	// and the game states in which messages count against the budget. Default HSL.
	League league.League
	// AuthKey, when set, checks the tags of dnet packets; a packet without a valid tag
	// is counted as an authentication fault and not shown. Empty: tags are not checked.
	AuthKey []byte
	// Field is the field drawn by the web page; the zero value means the league's field.
	Field Field
	// KeepReturnPort keeps a socket on the GameController's return port (3939) open when
	// the GameController runs on this host. By default the monitor closes it as soon as it
	// hears a GameController from one of this host's addresses, since it would take the
	// robots' unicast return packets away from the GameController; with KeepReturnPort it
	// only warns.
	KeepReturnPort bool
	// TrueData asks every GameController heard for its monitor channel: monitor requests
	// (UDP 3636) from the GameController port's socket, answered with true-data packets
	// ("RGTD") on that port and the robots' status messages forwarded to a KindForward
	// port (ForwardPort), which Ports should then hold. See truedata.go.
	TrueData bool

	// OfflineAfter is the silence after which a robot (or the GameController) is shown
	// offline. Default 5 s.
	OfflineAfter time.Duration
	// RemoveAfter is the silence after which a robot or an unattributed source is
	// forgotten. Default 60 s. It must not be shorter than OfflineAfter.
	RemoveAfter time.Duration
	// RateWindow is the window message rates are averaged over. Default 10 s; it is
	// used in whole steps of 100 ms.
	RateWindow time.Duration
	// MaxRobots bounds the robots tracked at once; packets of further robots are counted
	// in Snapshot.DroppedRobots. Default DefaultMaxRobots.
	MaxRobots int
	// MaxSources bounds the unattributed sources tracked at once. Default
	// DefaultMaxSources.
	MaxSources int

	// Clock tells the time: the receive time of every datagram and the "now" of every
	// snapshot. Default clock.Wall.
	Clock clock.Clock
	// Logger receives the socket state changes; nil means slog.Default().
	Logger *slog.Logger
	// Tap, if set, gives the transport.Tap of each port's socket when it is created
	// (dnetwork record writes what the sockets hear to a file with it).
	Tap func(Port) transport.Tap
	// Program names the command in log lines and errors: "monitor" by default,
	// "record" for dnetwork record, which listens the same way.
	Program string
}

// DefaultConfig returns a configuration for the GameController and return ports, following
// the teams the GameController names, on any interface, HSL rules.
func DefaultConfig() Config {
	return Config{
		Interface:    "any",
		Ports:        DefaultPorts(),
		FollowGC:     true,
		League:       league.HSL,
		OfflineAfter: DefaultOfflineAfter,
		RemoveAfter:  DefaultRemoveAfter,
		RateWindow:   DefaultRateWindow,
		MaxRobots:    DefaultMaxRobots,
		MaxSources:   DefaultMaxSources,
		Clock:        clock.Wall,
	}
}

// withDefaults fills the zero fields that have a default.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.Interface = cmp.Or(c.Interface, d.Interface)
	c.OfflineAfter = cmp.Or(c.OfflineAfter, d.OfflineAfter)
	c.RemoveAfter = cmp.Or(c.RemoveAfter, d.RemoveAfter)
	c.RateWindow = cmp.Or(c.RateWindow, d.RateWindow)
	c.MaxRobots = cmp.Or(c.MaxRobots, d.MaxRobots)
	c.MaxSources = cmp.Or(c.MaxSources, d.MaxSources)
	c.Clock = cmp.Or(c.Clock, d.Clock)
	c.Logger = cmp.Or(c.Logger, slog.Default())
	c.Program = cmp.Or(c.Program, "monitor")
	c.Field = cmp.Or(c.Field, LeagueField(c.League))
	return c
}

// validate reports every problem of a configuration with defaults applied.
func (c *Config) validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...)))
	}
	switch c.League {
	case league.HSL, league.SPL, league.HL:
	default:
		bad("unknown league %d", int(c.League))
	}
	if len(c.Ports) == 0 && !c.FollowGC {
		bad("no ports to listen on")
	}
	if c.TrueData && !slices.ContainsFunc(c.Ports, func(p Port) bool { return p.Kind == KindGameController }) {
		bad("true data needs a GameController port to ask from")
	}
	seen := map[uint16]bool{}
	teams := map[uint8]uint16{}
	for _, p := range c.Ports {
		switch p.Kind {
		case KindGameController, KindReturn, KindTeam, KindForward, KindBooster:
		default:
			bad("port %d has unknown kind %d", p.Port, uint8(p.Kind))
			continue
		}
		if p.Kind != KindTeam && p.Kind != KindBooster && p.Team != 0 {
			bad("%s port %d names team %d; only team ports belong to a team", p.Kind, p.Port, p.Team)
		}
		if p.Port != 0 {
			if seen[p.Port] {
				bad("port %d listed twice", p.Port)
			}
			seen[p.Port] = true
		}
		if p.Kind == KindTeam && p.Team != 0 {
			if q, dup := teams[p.Team]; dup {
				bad("team %d has two ports, %d and %d", p.Team, q, p.Port)
			}
			teams[p.Team] = p.Port
		}
	}
	for _, g := range c.Groups {
		if !g.Is4() || !g.IsMulticast() {
			bad("group %s is not an IPv4 multicast address", g)
		}
	}
	if len(c.AuthKey) > 0 {
		if _, err := teaminfo.NewKey(c.AuthKey); err != nil {
			bad("auth key: %v", err)
		}
	}
	if c.OfflineAfter < 0 || c.RateWindow < rateResolution {
		bad("OfflineAfter %v must not be negative and RateWindow %v must be at least %v",
			c.OfflineAfter, c.RateWindow, rateResolution)
	}
	if c.RemoveAfter < c.OfflineAfter {
		bad("RemoveAfter %v is shorter than OfflineAfter %v", c.RemoveAfter, c.OfflineAfter)
	}
	if c.MaxRobots < 1 || c.MaxSources < 1 {
		bad("MaxRobots %d and MaxSources %d must be positive", c.MaxRobots, c.MaxSources)
	}
	if !(c.Field.Length > 0 && c.Field.Width > 0) {
		bad("field %g x %g m is not a field", c.Field.Length, c.Field.Width)
	}
	return errors.Join(errs...)
}

// Field is the geometry the web page draws, in metres: a rectangle of Length × Width
// centred on the origin, +x towards the goal the first team attacks.
type Field struct {
	Length               float64 `json:"length"`
	Width                float64 `json:"width"`
	Border               float64 `json:"border"`
	GoalWidth            float64 `json:"goal_width"`
	GoalDepth            float64 `json:"goal_depth"`
	GoalAreaLength       float64 `json:"goal_area_length"`
	GoalAreaWidth        float64 `json:"goal_area_width"`
	PenaltyAreaLength    float64 `json:"penalty_area_length"`
	PenaltyAreaWidth     float64 `json:"penalty_area_width"`
	PenaltyMarkDistance  float64 `json:"penalty_mark_distance"`
	CentreCircleDiameter float64 `json:"centre_circle_diameter"`
}

// LeagueField returns the field of a league: the SPL field (9 × 6 m, 1.5 m goals) or the
// humanoid kid-size field (9 × 6 m, 2.6 m goals) for HSL and HL.
func LeagueField(l league.League) Field {
	if l == league.SPL {
		return Field{Length: 9, Width: 6, Border: 0.7, GoalWidth: 1.5, GoalDepth: 0.5,
			GoalAreaLength: 0.6, GoalAreaWidth: 2.2, PenaltyAreaLength: 1.65, PenaltyAreaWidth: 4,
			PenaltyMarkDistance: 1.3, CentreCircleDiameter: 1.5}
	}
	return Field{Length: 9, Width: 6, Border: 1, GoalWidth: 2.6, GoalDepth: 0.6,
		GoalAreaLength: 1, GoalAreaWidth: 3, PenaltyAreaLength: 2, PenaltyAreaWidth: 5,
		PenaltyMarkDistance: 1.5, CentreCircleDiameter: 1.5}
}
