package team

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Format is the wire format of team packets (see package proto/teaminfo). Its values are
// those of dmsgs TeamInfo.format.
type Format uint8

// Wire formats.
const (
	// FormatZJU is the 296-byte memory image of the ZJUDancer/HighTorque dmsgs::TeamInfo:
	// what ZJUDancer robots send. It fits the HSL and HL caps (512 bytes), not the SPL's.
	FormatZJU Format = Format(dmsgs.TeamInfoFormatZju)
	// FormatDNet is dnetwork's own 102-byte format (118 bytes with an authentication
	// tag): sequence numbers, ages, fallen/penalised flags and voronoi points.
	FormatDNet Format = Format(dmsgs.TeamInfoFormatDnet)
	// FormatRobocup is the Humanoid League's standard protobuf message (package
	// proto/robocup), of variable size, with the extension fields of
	// Config.RobocupExtension.
	FormatRobocup Format = Format(dmsgs.TeamInfoFormatRobocup)
	// FormatBooster is the Booster robocup_demo TeamCommunicationMsg (package
	// proto/booster), for a team with robots on the vendor stack: 120 bytes in
	// BoosterUnicast mode, 128 in BoosterBroadcast mode (see booster.go).
	FormatBooster Format = Format(dmsgs.TeamInfoFormatBooster)
)

// ParseFormat parses a format name as used in the parameter files: "zju", "dnet" or
// "robocup".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "zju":
		return FormatZJU, nil
	case "dnet":
		return FormatDNet, nil
	case "robocup":
		return FormatRobocup, nil
	case "booster":
		return FormatBooster, nil
	}
	return 0, fmt.Errorf("team: unknown packet format %q (want zju, dnet, robocup or booster)", s)
}

func (f Format) String() string {
	switch f {
	case FormatZJU:
		return "zju"
	case FormatDNet:
		return "dnet"
	case FormatRobocup:
		return "robocup"
	case FormatBooster:
		return "booster"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// PacketSize returns the size of the packets the component sends in this format; signed
// says whether dnet packets carry an authentication tag. It is 0 for an unknown format
// and for robocup, whose size varies (the send rule checks each packet against the cap).
func (f Format) PacketSize(signed bool) int {
	switch f {
	case FormatZJU:
		return teaminfo.ZJUSize
	case FormatDNet:
		return teaminfo.DNetPacketSize(signed)
	case FormatBooster:
		return booster.Size2026 // the larger revision
	}
	return 0
}

// BasePort is added to the team number to get the default team port: the SPL rule
// (robot_players.tex, "port 10000 + team number"), which the HSL follows. ZJUDancer robots
// used the fixed port 57335 for every team (dconstant.hpp): set Config.Port to talk to them.
const BasePort = gcproto.TeamPortBase

// Defaults of a Config.
const (
	DefaultTick            = time.Second / 30 // 30 Hz, the ZJUDancer team tick
	DefaultMonitorInterval = time.Second
	DefaultTeammateTimeout = 3 * time.Second
	// DefaultGCWait is a little more than two GameController periods (2 Hz): a robot
	// that hears no GameController by then is most likely in a test without one.
	DefaultGCWait = 1200 * time.Millisecond
	// MaxGCWait bounds Config.GCWait.
	MaxGCWait = time.Minute
)

// Config configures the team component. Start from DefaultConfig, set Team and Player,
// and call Validate (New does).
type Config struct {
	// Team is our team number (1..255), Player our player number (1..255; mates_online
	// holds players 1..6).
	Team, Player uint8

	// League selects the size cap, the states in which messages count against the
	// budget, and the default reserve. Default LeagueHSL.
	League League
	// Format is the packet format we send and the only one we accept; packets of the
	// other format are dropped and counted as wrong-format. Default FormatDNet.
	Format Format
	// BoosterMode is how format booster sends (see booster.go): BoosterUnicast (the
	// vendor's main branch, the default) or BoosterBroadcast (its 2026 branch).
	BoosterMode BoosterMode
	// AuthKey is the team's shared secret (dnet only). When set, every packet we send is
	// signed, and packets without a valid tag are dropped as auth failures. Empty: no
	// signing, and tags of received packets are not checked.
	AuthKey []byte
	// RobocupExtension is the extension profile of format robocup: the fields above 100
	// we write, and what we write into current_pose.team (the colour for none, the team
	// number for bitbots and nubots). Received packets of either profile are read.
	RobocupExtension robocup.Extension

	// Port is the team port we send to; 0 means BasePort + Team. The socket (the Conn)
	// is bound to the same port by the wiring.
	Port uint16
	// Peers, when not empty, replaces the broadcast: every packet is sent with SendTo to
	// each of these addresses. This is the mode for several robots on one host (see the
	// package documentation): the other robots' 127.0.0.1:port, or one multicast group
	// that every robot's socket joins with TTL 0 (transport.HostOnlyTTL) and loopback on.
	Peers []netip.AddrPort

	// Monitor is where a copy of our packet goes every MonitorInterval by unicast (a team
	// computer); the zero AddrPort turns it off. Copies are sent whatever the game state
	// (penalised and budget silence included) and are not counted against the budget
	// (unless they reach the GameController: the node refuses a broadcast address and
	// the team port). A copy built for the monitor alone carries the sequence number of
	// our last team packet, so that the teammates' loss figures see no gap for it.
	Monitor netip.AddrPort
	// MonitorInterval is the period of the monitor copy. Default 1 s.
	MonitorInterval time.Duration

	// Tick is the period of the send loop. Default 1/30 s (30 Hz). Send intervals are
	// rounded to whole ticks (see Scheduler).
	Tick time.Duration
	// Rate is the dynamic send-rate table.
	Rate RateConfig
	// Reserve is the number of messages of the team's budget we never spend; -1 means
	// League.DefaultReserve().
	Reserve int
	// SilentUncounted keeps the robot silent in states whose messages do not count
	// (INITIAL, FINISHED, penalty shoot-out, timeout). Default false: talk there for free
	// while the team's budget is above the reserve (BudgetPolicy).
	SilentUncounted bool
	// SilentWhenStopped keeps the robot silent while the GameController says play is
	// stopped (HSL). Default false.
	SilentWhenStopped bool
	// GCWait holds our team packets after Run starts until the GameController is
	// heard, or for this long without one (then the robot talks as before; a clock gone
	// back during the wait restarts it from then). A robot rebooted during a game would
	// otherwise send messages the GameController counts before it knows the game state
	// and the team's budget (at budget 0: illegal communication). The monitor copy is
	// not held. 0: off. Default DefaultGCWait.
	GCWait time.Duration

	// TeammateTimeout is how long a teammate counts as online after its last accepted
	// packet. It must be longer than the longest send interval. Default 3 s.
	TeammateTimeout time.Duration
	// ReplaySilence is how long the replay filter remembers a silent sender (dnet).
	// 0 means teaminfo.DefaultSilence (5 s).
	ReplaySilence time.Duration
	// LinkWindow is how far back each teammate's link figures look (Status.Links,
	// TeamLinks). 0 means linkq.DefaultWindow (10 s).
	LinkWindow time.Duration
	// MaxAge, when positive, drops packets whose sender time is further than this from
	// our clock (in either direction). Use it only when the robots' clocks are
	// synchronised. Default 0: off.
	MaxAge time.Duration

	// Logger receives warnings (rate-limited per cause) and teammate changes; nil means
	// slog.Default().
	Logger *slog.Logger
}

// DefaultConfig returns the defaults: HSL, dnet without key, port 10000 + team, 30 Hz
// tick, the ZJUDancer rate table, the league's reserve, monitor off, teammates online for
// 3 s, packets held up to DefaultGCWait after start. Team and Player are 0 and must be set.
func DefaultConfig() Config {
	return Config{
		League:          LeagueHSL,
		Format:          FormatDNet,
		MonitorInterval: DefaultMonitorInterval,
		Tick:            DefaultTick,
		Rate:            DefaultRateConfig(),
		Reserve:         -1,
		TeammateTimeout: DefaultTeammateTimeout,
		ReplaySilence:   teaminfo.DefaultSilence,
		GCWait:          DefaultGCWait,
	}
}

// TeamPort returns the port packets are sent to: Port, or the team's (league.TeamPort;
// booster.PortUnicast + team in format booster's unicast mode).
func (c Config) TeamPort() uint16 {
	if c.Port != 0 {
		return c.Port
	}
	if c.Format == FormatBooster && c.BoosterMode == BoosterUnicast {
		return boosterPort(booster.PortUnicast, c.Team)
	}
	return league.TeamPort(c.Team)
}

// reserve returns the effective reserve.
func (c Config) reserve() int {
	if c.Reserve < 0 {
		return c.League.DefaultReserve()
	}
	return c.Reserve
}

// ErrConfig is wrapped by every error Validate reports.
var ErrConfig = errors.New("team: bad config")

// Validate reports every problem of the configuration at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if c.Team == 0 {
		bad("team number must be 1..255, got 0")
	}
	if c.Player == 0 {
		bad("player number must be 1..255, got 0")
	}
	if c.League != LeagueHSL && c.League != LeagueSPL && c.League != LeagueHL {
		bad("unknown league %v", c.League)
	}
	signed := len(c.AuthKey) > 0
	switch c.Format {
	case FormatZJU:
		if signed {
			bad("format zju cannot carry an authentication tag; clear the key or use format dnet")
		}
	case FormatDNet:
		if signed {
			if _, err := teaminfo.NewKey(c.AuthKey); err != nil {
				bad("authentication key: %v", err)
			}
		}
	case FormatRobocup:
		if signed {
			bad("format robocup has no room for an authentication tag; clear the key or use format dnet")
		}
		if c.RobocupExtension > robocup.ExtNUbots {
			bad("unknown robocup extension profile %v", c.RobocupExtension)
		}
	case FormatBooster:
		if signed {
			bad("format booster cannot carry an authentication tag; clear the key or use format dnet")
		}
		if c.BoosterMode != BoosterUnicast && c.BoosterMode != BoosterBroadcast {
			bad("unknown booster mode %v (want unicast or broadcast)", c.BoosterMode)
		}
	default:
		bad("unknown packet format %v (want zju, dnet, robocup or booster)", c.Format)
	}
	if size, limit := c.Format.PacketSize(signed), c.League.SizeCap(); size > limit {
		bad("format %v packets are %d bytes, above the %v league's cap of %d bytes; use format dnet",
			c.Format, size, c.League, limit)
	}
	if c.Tick <= 0 || c.Tick > time.Second {
		bad("tick must be in (0, 1s], got %v", c.Tick)
	}
	if err := c.Rate.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("%w: %w", ErrConfig, err))
	}
	if c.Reserve < -1 {
		bad("reserve must be -1 (league default) or >= 0, got %d", c.Reserve)
	}
	if longest := c.Rate.Longest(); c.TeammateTimeout <= longest {
		bad("teammate timeout %v must be longer than the longest send interval %v, or teammates flap offline",
			c.TeammateTimeout, longest)
	}
	if c.LinkWindow < 0 {
		bad("link window must not be negative, got %v", c.LinkWindow)
	}
	if c.ReplaySilence < 0 {
		bad("replay silence must not be negative, got %v", c.ReplaySilence)
	}
	if c.MaxAge < 0 {
		bad("max age must not be negative, got %v", c.MaxAge)
	}
	if c.GCWait < 0 || c.GCWait > MaxGCWait {
		bad("GameController wait must be 0 (off) .. %v, got %v", MaxGCWait, c.GCWait)
	}
	for i, p := range c.Peers {
		if !p.IsValid() || p.Port() == 0 || !p.Addr().Is4() {
			bad("peer %d (%v) must be an IPv4 address with a port", i, p)
		}
	}
	if c.Monitor.IsValid() {
		if c.Monitor.Port() == 0 || !c.Monitor.Addr().Is4() {
			bad("monitor %v must be an IPv4 address with a port", c.Monitor)
		}
		if c.MonitorInterval <= 0 {
			bad("monitor interval must be positive, got %v", c.MonitorInterval)
		}
	}
	return errors.Join(errs...)
}
