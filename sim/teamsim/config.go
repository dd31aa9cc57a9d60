package teamsim

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/sim/world"
)

// DefaultRobots is the size of the simulated team unless Config.Robots says otherwise.
const DefaultRobots = 5

// DefaultTick is the period of the world's steps and of the robots' inputs (10 Hz).
const DefaultTick = 100 * time.Millisecond

// CycloneConfig is the Cyclone DDS configuration of every ROS node of the simulation:
// the loopback interface only, no multicast (the loopback interface of most machines
// has none), and participant discovery by unicast to every participant index on
// 127.0.0.1 up to MaxAutoParticipantIndex 100 (one index per process; Cyclone's
// default of 9 would leave room for few ROS tools beside the simulation). ROS 2 tools started with the same configuration and domain
// (CYCLONEDDS_URI set to this text, RMW_IMPLEMENTATION=rmw_cyclonedds_cpp) see the
// simulated robots.
var CycloneConfig = ddsconfig.Loopback(100, false)

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("teamsim: bad config")

// ErrRunTwice reports a second call of Run.
var ErrRunTwice = errors.New("teamsim: Run called twice")

// Config configures a simulation. Start from DefaultConfig.
type Config struct {
	// Robots is the size of our team: players 1..Robots, each a dnetwork node. At most
	// node.MaxRobotID and the layout's players per team.
	Robots int
	// Team is our team's number, Opponent the other team's (1..254, distinct). The
	// opponent has no robots; the GameController names it and the world kicks the ball
	// back for it.
	Team, Opponent uint8
	// Layout is the GameController protocol version the simulated GameController sends;
	// it also selects the league's rules (message budget, size cap, field).
	Layout gcproto.Layout
	// Script is the game the GameController plays; no steps means Script(Layout, Half,
	// Robots).
	Script gcsim.Script
	// Half is the length of a half of the built-in script (0: gcsim.DefaultHalf).
	Half time.Duration
	// Speed is game seconds per real second, for the GameController and the world alike.
	Speed float64
	// Loop restarts the game when it is over.
	Loop bool

	// Format and AuthKey configure the robots' team packets (team.Format, dnet key).
	Format  team.Format
	AuthKey []byte

	// Domain is the ROS domain of every node of the simulation (0..dds.MaxDomainID);
	// Distro the ROS_DISTRO convention ("": the nodes follow the GID layout of the
	// participants already on the domain, else ros.DefaultDistro; see ros.NewNode).
	Domain int
	Distro string
	// LogLevel is the level of the nodes' console log; LogOutput receives it and the
	// warnings of the sockets, the GameController and the monitor (nil: io.Discard).
	LogLevel  ros.Level
	LogOutput io.Writer

	// Listener, if set, serves the monitor's web page and /api/state; Run closes it.
	Listener net.Listener

	// Tick is the period of the world's steps and of the robots' inputs.
	Tick time.Duration
	// World configures the synthetic robots; its Robots and Field are set by New.
	World world.Config

	// OnChange, if set, is called for every change of the game (see gcsim.Config).
	OnChange func(gcsim.Change)
}

// DefaultConfig returns a simulation of five robots of team 17 against team 5 in an
// HSL v20 game at normal speed, looping, with dnet team packets, on ROS domain 0.
func DefaultConfig() Config {
	return Config{
		Robots: DefaultRobots, Team: 17, Opponent: 5, Layout: gcproto.LayoutHSL20, Speed: 1, Loop: true,
		Format: team.FormatDNet, LogLevel: ros.LevelWarn, Tick: DefaultTick,
		World: world.DefaultConfig(DefaultRobots),
	}
}

// League returns the rules of a GameController layout: HSL for v19 and v20, SPL for
// the SPL versions, HL for version 12.
func League(l gcproto.Layout) team.League {
	switch l.Family() {
	case gcproto.FamilySPL:
		return team.LeagueSPL
	case gcproto.FamilyHL:
		return team.LeagueHL
	}
	return team.LeagueHSL
}

// Field returns the world's field for a league, as the monitor draws it.
func Field(l team.League) world.Field {
	f := monitor.LeagueField(l)
	return world.Field{Length: f.Length, Width: f.Width, GoalWidth: f.GoalWidth,
		GoalAreaLength: f.GoalAreaLength, PenaltyAreaLength: f.PenaltyAreaLength,
		PenaltyAreaWidth: f.PenaltyAreaWidth, PenaltyMarkDistance: f.PenaltyMarkDistance,
		CentreCircleDiameter: f.CentreCircleDiameter}
}

// Script returns the built-in game of the simulation: gcsim.DefaultScript, with the
// penalty given to our player 3 (or our last player in a smaller team) instead of the
// opponent's, so that the page and the teammates show a penalised robot.
func Script(l gcproto.Layout, half time.Duration, robots int) gcsim.Script {
	sc := gcsim.DefaultScript(l, half)
	for i, st := range sc.Steps {
		if p, ok := st.Do.(gcsim.Penalise); ok && p.Team == gcsim.SideB {
			p.Team, p.Player = gcsim.SideA, max(1, min(3, robots))
			sc.Steps[i].Do = p
		}
	}
	return sc
}

// GameSetup returns the game the simulated GameController runs, which a script for
// the simulation is written for: c's layout, our team as side A, the opponent as side
// B, and at least c.Robots players per team (gcsim's default of five, or the layout's
// maximum when that is smaller, for a smaller team).
func (c Config) GameSetup() gcsim.Setup {
	return gcsim.Setup{Layout: c.Layout, Teams: [2]uint8{c.Team, c.Opponent}, Players: max(c.Robots, min(DefaultRobots, c.Layout.MaxPlayers()))}
}

// Env returns the environment of the simulation's ROS nodes: the domain, the loopback
// configuration CycloneConfig and the distro. Every other ROS variable reads as unset,
// so ROS_LOCALHOST_ONLY or a CYCLONEDDS_URI of the caller's environment do not
// interfere. Another ROS node of the same process (a test, a tool) joins the
// simulation with the same environment.
func Env(domain int, distro string) func(string) string {
	env := map[string]string{
		"ROS_DOMAIN_ID":  strconv.Itoa(domain),
		"CYCLONEDDS_URI": CycloneConfig,
		"ROS_DISTRO":     distro,
	}
	return func(k string) string { return env[k] }
}

// Validate reports every problem of the configuration, as New would; errors wrap
// ErrConfig.
func (c Config) Validate() error {
	_, err := c.resolve()
	return err
}

// setup is the validated configuration with everything derived.
type setup struct {
	Config
	league team.League
	script gcsim.Script
	gc     gcsim.Setup
	logger *slog.Logger
}

// resolve checks c and derives the rest; errors wrap ErrConfig.
func (c Config) resolve() (*setup, error) {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...))
	}
	if !c.Layout.Valid() {
		bad("no GameController layout")
		return nil, errors.Join(errs...)
	}
	maxRobots := min(node.MaxRobotID, c.Layout.MaxPlayers())
	if c.Robots < 1 || c.Robots > maxRobots {
		bad("robots %d outside 1..%d (%s)", c.Robots, maxRobots, c.Layout)
	}
	if c.Team < node.MinTeamNumber || c.Team > node.MaxTeamNumber || c.Opponent < node.MinTeamNumber ||
		c.Opponent > node.MaxTeamNumber || c.Team == c.Opponent {
		bad("teams %d and %d: want two different numbers %d..%d", c.Team, c.Opponent, node.MinTeamNumber, node.MaxTeamNumber)
	}
	if !(c.Speed > 0 && c.Speed <= 1000) {
		bad("speed %v outside (0, 1000]", c.Speed)
	}
	if err := dds.ValidateDomainID(c.Domain); err != nil {
		bad("%v", err)
	}
	if _, err := ros.ParseDistro(c.Distro); err != nil {
		bad("%v", err)
	}
	if c.Tick < 10*time.Millisecond || c.Tick > time.Second {
		bad("tick %v outside 10ms..1s", c.Tick)
	}
	if c.Format.PacketSize(len(c.AuthKey) > 0) == 0 {
		bad("team packet format %v", c.Format)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s := &setup{Config: c, league: League(c.Layout)}
	s.World.Robots, s.World.Field = c.Robots, Field(s.league)
	if err := s.World.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.gc = c.GameSetup()
	if err := s.gc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.script = c.Script
	if len(s.script.Steps) == 0 {
		s.script = Script(c.Layout, c.Half, c.Robots)
	}
	if err := s.script.Check(s.gc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if s.LogOutput == nil {
		s.LogOutput = io.Discard
	}
	s.logger = slog.New(slog.NewTextHandler(s.LogOutput, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return s, nil
}
