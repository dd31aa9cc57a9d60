package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/english"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/sim/teamsim"
)

func init() {
	register(&command{
		name:    "sim",
		summary: "simulate a team on this host: robot nodes, GameController and web monitor",
		run:     runSim,
	})
}

// simUpTimeout bounds the start of the simulation.
var simUpTimeout = 30 * time.Second

// simOptions are the parsed flags of "dnetwork sim".
type simOptions struct {
	cfg        teamsim.Config
	scriptName string
	http       string
	duration   time.Duration
	every      time.Duration // 0: by terminal
}

const simHelp = `usage: dnetwork sim [flags]

Runs a simulated team on this host, everything on loopback: --robots dnetwork nodes
(real ROS 2 nodes on Cyclone DDS, each with its own GameController and team ports,
sending team packets to each other by unicast), fed with synthetic MotionInfo,
BehaviorInfo and VisionInfo (robots walking to their role's target, a ball that is
kicked, an occasional fall), a GameController playing a scripted game (initial, ready,
set, playing, set plays, a penalty of our player 3, a goal, half time) and the web
monitor, which hears every control, return and team packet. A progress line shows the
game, the robots online, the teammates each robot hears and the packets sent. Stops
on Ctrl-C or after --duration.

The nodes use ROS domain --domain with a loopback-only Cyclone configuration; the
line printed at the start tells how ROS 2 tools on this host can join.

flags:
`

func parseSimFlags(args []string, stderr io.Writer) (*simOptions, int) {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := teamsim.DefaultConfig()
	domain := 0
	if d, err := strconv.Atoi(strings.TrimSpace(nodeEnv("ROS_DOMAIN_ID"))); err == nil {
		domain = d
	}
	var (
		robots   = fs.Int("robots", def.Robots, "number of robots of our team")
		teams    = fs.String("teams", fmt.Sprintf("%d,%d", def.Team, def.Opponent), "team numbers of our team and of the opponent (which has no robots)")
		layout   = fs.String("layout", def.Layout.String(), "GameController protocol: "+strings.Join(layoutNames(), ", "))
		script   = fs.String("script", "default", "the built-in game (default) or a script file (see dnetwork gc-sim -h)")
		half     = fs.Duration("half", 0, "length of a half (0: the script's; the built-in game uses 1m)")
		speed    = fs.Float64("speed", def.Speed, "game seconds per real second (GameController and robots)")
		loop     = fs.Bool("loop", def.Loop, "restart the game 5 s after it ends")
		duration = fs.Duration("duration", 0, "stop this long after the game started (0: run until Ctrl-C)")
		httpAddr = fs.String("http", "127.0.0.1:8080", "address of the web page and /api/state (\"\": none, port 0: any free port)")
		dom      = fs.Int("domain", domain, "ROS domain of the nodes (default: $ROS_DOMAIN_ID or 0)")
		format   = fs.String("format", def.Format.String(), "team packet format: dnet, zju or robocup")
		authKey  = fs.String("auth-key", "", "sign the dnet team packets with this key (the monitor checks them)")
		seed     = fs.Uint64("seed", def.World.Seed, "seed of the robots' random moves, kicks and falls")
		logLevel = fs.String("log-level", "warn", "log level of the nodes: debug, info, warn, error or fatal")
		every    = fs.Duration("progress", 0, "interval of the progress line (0: 0.5 s on a terminal, 5 s otherwise)")
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), simHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	fail := func(format string, a ...any) (*simOptions, int) {
		fmt.Fprintf(stderr, "dnetwork sim: "+format+"\n", a...)
		return nil, 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments %q", fs.Args())
	}
	o := &simOptions{cfg: def, scriptName: *script, http: *httpAddr, duration: *duration, every: *every}
	c := &o.cfg
	var err error
	if c.Layout, err = parseLayout(*layout); err != nil {
		return fail("%v", err)
	}
	tt, err := parseTeams(*teams)
	if err != nil {
		return fail("%v", err)
	}
	c.Team, c.Opponent = tt[0], tt[1]
	c.Robots, c.Speed, c.Loop, c.Half = *robots, *speed, *loop, *half
	if c.Format, err = team.ParseFormat(*format); err != nil {
		return fail("--format: %v", err)
	}
	c.AuthKey = []byte(*authKey)
	if err := dds.ValidateDomainID(*dom); err != nil {
		return fail("--domain: %v", err)
	}
	c.Domain, c.Distro = *dom, nodeEnv("ROS_DISTRO")
	c.World.Seed = *seed
	if c.LogLevel, err = rosargs.ParseLogLevel(*logLevel); err != nil {
		return fail("--log-level: %v", err)
	}
	if *half < 0 || o.duration < 0 || o.every < 0 {
		return fail("--half, --duration and --progress must not be negative")
	}
	if *script != "default" {
		f, err := os.Open(*script)
		if err != nil {
			return fail("--script: %v", err)
		}
		c.Script, err = gcsim.ParseScript(f, c.GameSetup())
		f.Close()
		if err != nil {
			return fail("--script %s: %v", *script, err)
		}
		if *half > 0 {
			c.Script.Half = *half
		}
	}
	return o, -1
}

func runSim(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	o, code := parseSimFlags(args, stderr)
	if o == nil {
		return code
	}
	p := newProgress(stdout, stderr)
	c := &o.cfg
	c.LogOutput = p
	c.OnChange = func(ch gcsim.Change) {
		if ch.Err != nil {
			p.event(fmt.Sprintf("[%7.1fs] %s: %v", ch.At.Seconds(), ch.What, ch.Err))
			return
		}
		p.event(fmt.Sprintf("[%7.1fs] %s  | %s", ch.At.Seconds(), ch.Game.Summary(), ch.What))
	}
	if err := c.Validate(); err != nil {
		fmt.Fprintf(stderr, "dnetwork sim: %v\n", err)
		return 2
	}
	if o.http != "" {
		ln, err := net.Listen("tcp", o.http)
		if err != nil {
			fmt.Fprintf(stderr, "dnetwork sim: web page: %v\n", err)
			return 1
		}
		c.Listener = ln
	}
	sim, err := teamsim.New(*c)
	if err != nil {
		if c.Listener != nil {
			c.Listener.Close()
		}
		fmt.Fprintf(stderr, "dnetwork sim: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()

	fmt.Fprintf(stdout, "dnetwork sim: %s of team %d against team %d, GameController %s, script %s, speed %g; ROS domain %d; Go on %d processor(s) (GOMAXPROCS)\n",
		english.Count(c.Robots, "robot"), c.Team, c.Opponent, c.Layout, o.scriptName, c.Speed, c.Domain, runtime.GOMAXPROCS(0))
	up, upCancel := context.WithTimeout(ctx, simUpTimeout)
	err = sim.WaitUp(up)
	upCancel()
	if err != nil {
		cancel()
		runErr := <-done
		if ctx.Err() != nil && runErr == nil {
			return 0 // stopped before it was up
		}
		fmt.Fprintf(stderr, "dnetwork sim: %v\n", errors.Join(runErr, err))
		return 1
	}
	if o.duration > 0 {
		// --duration (the demo's DEMO_DURATION) counts from the game's start, not from
		// the start-up before it.
		stop := time.AfterFunc(o.duration, cancel)
		defer stop.Stop()
	}
	if c.Listener != nil {
		fmt.Fprintf(stdout, "dnetwork sim: web page http://%s/ (state at /api/state)\n", c.Listener.Addr())
	}
	fmt.Fprintf(stdout, "dnetwork sim: ROS 2 tools on this host join from a shell with ROS 2 and the dmsgs messages sourced\n"+
		"  (source /opt/ros/<distro>/setup.bash; source <colcon workspace of this repository>/install/setup.bash; see docs/install.md):\n"+
		"  unset ROS_LOCALHOST_ONLY; export ROS_DOMAIN_ID=%d RMW_IMPLEMENTATION=rmw_cyclonedds_cpp CYCLONEDDS_URI='%s'\n  ros2 topic echo %s\n",
		c.Domain, teamsim.CycloneConfig, teamsim.TopicOf(1, node.TopicTeamInfo))

	p.event(fmt.Sprintf("[%7.1fs] %s  | start", 0.0, sim.Status().Game.Summary()))

	every := o.every
	if every == 0 {
		every = 5 * time.Second
		if p.tty {
			every = 500 * time.Millisecond
		}
	}
	tk := clock.Wall.NewTicker(every)
	defer tk.Stop()
	for {
		select {
		case err := <-done:
			p.finish()
			st := sim.Status()
			if err != nil {
				fmt.Fprintf(stderr, "dnetwork sim: %v\n", err)
				return 1
			}
			writeSimSummary(stdout, st)
			return 0
		case <-tk.C():
			p.update(sim.Status().Line())
		}
	}
}

// writeSimSummary prints the last status after the simulation stopped.
func writeSimSummary(w io.Writer, st teamsim.Status) {
	fmt.Fprintf(w, "dnetwork sim: stopped after %.1fs: %s\n", st.Elapsed.Seconds(), st.Game.Summary())
	fmt.Fprintf(w, "dnetwork sim: %d team messages, %d control packets (%d send errors), %d return packets (%d malformed); %d inputs published (%d failed)\n",
		st.TeamMessages, st.GC.Packets, st.GC.SendErrors, st.GC.Returns, st.GC.Malformed, st.Inputs, st.InputErrors)
	fmt.Fprintf(w, "dnetwork sim: %d kicks, %d kicked back, %d falls\n", st.World.Kicks, st.World.OpponentKicks, st.World.Falls)
	for _, r := range st.Robots {
		role := teamsim.RoleName(r.Role)
		if r.Penalised {
			role += " (penalised)"
		}
		fmt.Fprintf(w, "  robot %d: %-21s GCInfo %d (connected %v), TeamInfo %d, hears %v\n",
			r.ID, role, r.GCInfos, r.GCConnected, r.TeamInfos, r.Mates)
	}
}

// progress shows the progress line: rewritten in place on a terminal, one line per
// update otherwise. Log lines and events go above it.
type progress struct {
	mu   sync.Mutex
	out  io.Writer // the progress line and events
	log  io.Writer // log lines
	fd   int       // of out when it is a terminal
	tty  bool
	line string // shown on the terminal now
}

func newProgress(out, log io.Writer) *progress {
	p := &progress{out: out, log: log}
	if f, ok := out.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.fd = true, int(f.Fd())
		}
	}
	return p
}

// clearLocked removes the progress line from the terminal.
func (p *progress) clearLocked() {
	if p.tty && p.line != "" {
		_, _ = io.WriteString(p.out, "\r\033[K")
	}
}

// drawLocked writes the progress line again.
func (p *progress) drawLocked() {
	if p.tty && p.line != "" {
		_, _ = io.WriteString(p.out, p.line)
	}
}

// Write prints log lines above the progress line.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	n, err := p.log.Write(b)
	p.drawLocked()
	return n, err
}

// event prints a line above the progress line.
func (p *progress) event(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	_, _ = io.WriteString(p.out, s+"\n")
	p.drawLocked()
}

// update shows a new progress line.
func (p *progress) update(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		_, _ = io.WriteString(p.out, s+"\n")
		return
	}
	p.clearLocked()
	p.line = truncate(s, p.width()-1)
	p.drawLocked()
}

// finish ends the progress line, leaving it on the terminal.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.line != "" {
		_, _ = io.WriteString(p.out, "\n")
	}
	p.line = ""
}

// width returns the terminal's width in columns (80 if unknown).
func (p *progress) width() int {
	if ws, err := unix.IoctlGetWinsize(p.fd, unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
		return int(ws.Col)
	}
	return 80
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if n < 1 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
