package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

func init() {
	register(&command{
		name:    "monitor",
		summary: "watch a game's network and serve it as a web page and JSON",
		run:     runMonitor,
	})
}

// monitorOptions are the parsed flags of "dnetwork monitor".
type monitorOptions struct {
	http     string
	cfg      monitor.Config
	duration time.Duration
	replay   string // a recording to replay instead of listening
	// leagueSet: --league was given; otherwise a replay takes the recording's league.
	leagueSet bool
}

func parseMonitorFlags(args []string, stderr io.Writer) (*monitorOptions, int) {
	fs := flag.NewFlagSet("monitor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "127.0.0.1:8080", "address of the web page and /api/state (port 0: any free port)")
	duration := fs.Duration("duration", 0, "stop after this long (0: run until Ctrl-C)")
	replayFile := fs.String("replay", "", "replay this recording (pcap/pcapng, or a GameController log) on the page instead of listening:\nplay/pause, speed and a time slider over the whole game")
	listen, display := addListenFlags(fs), addDisplayFlags(fs)
	if code := parseFlags(fs, args,
		"usage: dnetwork monitor [flags]",
		"",
		"Listens to the GameController (3838) and the team ports, and serves a web page with",
		"the field, every robot's pose, ball and role, the game state and clock, message rates,",
		"budget use and bad packets; GET /api/state returns the same as JSON. Robots are offline",
		"after 5 s of silence. Like the TeamCommunicationMonitor it asks each GameController it",
		"hears for its monitor channel (RGTr to UDP 3636, renewed periodically): the true data",
		"(RGTD: the state hidden from the robots, penalty timers) and the robots' return packets,",
		"which the GameController forwards to port 3940, so they are seen from any host, the",
		"GameController's included. A GameController refuses a host that has sent return packets",
		"(a robot's); the page and the log say so. The sockets share their ports (SO_REUSEADDR).",
		"",
		"--passive sends nothing and listens to the return port 3939 instead; a unicast datagram",
		"reaches only one socket, normally the one bound last, so on the GameController's host",
		"the monitor closes the return port 3939 when it hears the GameController from one of",
		"this host's addresses and says so (--keep-return-port: it only warns).",
		"",
		"With --replay FILE nothing is opened but the web page: it shows the recording (a",
		"node's record.* file or dnetwork record's) as the monitor would have shown it live,",
		"with the league of the recording's GameController packets unless --league is given.",
		"A GameController YAML log is replayed too: its status and team messages, its actions",
		"as events on the timeline and its game states beside the slider.",
	); code >= 0 {
		return nil, code
	}
	fail := func(err error) (*monitorOptions, int) {
		fmt.Fprintf(stderr, "dnetwork monitor: %v\n", err)
		return nil, 2
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	cfg, err := listen()
	if err == nil {
		err = display(&cfg)
	}
	if err != nil {
		return fail(err)
	}
	if *duration < 0 {
		return fail(fmt.Errorf("--duration %v is negative", *duration))
	}
	o := &monitorOptions{http: *httpAddr, cfg: cfg, duration: *duration, replay: *replayFile}
	fs.Visit(func(f *flag.Flag) { o.leagueSet = o.leagueSet || f.Name == "league" })
	return o, -1
}

// addListenFlags declares the flags that choose what the monitor's sockets listen to
// (shared by monitor and record) and returns the function that builds the monitor's
// configuration from them after parsing.
func addListenFlags(fs *flag.FlagSet) func() (monitor.Config, error) {
	var (
		iface     = fs.String("interface", "any", "interface of the sockets: any, auto, a name, an IPv4 address or a CIDR")
		teams     = fs.String("teams", "", "team numbers to watch, e.g. 5,12 (each on port 10000+team)")
		teamPorts = fs.String("team-ports", "", "team ports: TEAM=PORT replaces 10000+TEAM, a bare PORT is a port\nseveral teams share (team from each packet), e.g. 5=10005,57335")
		gcPort    = fs.Uint("gc-port", monitor.GameControllerPort, "GameController port (0: off)")
		retPort   = fs.Uint("return-port", monitor.ReturnPort, "return packet port with --passive (0: off; on the GameController's host see\n--keep-return-port); without --passive opened only when given")
		keepRet   = fs.Bool("keep-return-port", false, "keep the return port open when the GameController runs on this host")
		passive   = fs.Bool("passive", false, "send nothing: do not ask the GameController for its monitor channel (true data\nand forwarded return packets)")
		fwdPort   = fs.Uint("forward-port", monitor.ForwardPort, "port the GameController forwards the return packets to (0: off)")
		follow    = fs.Bool("follow-gc", true, "also watch the team ports of the teams the GameController names")
		groups    = fs.String("group", "", "multicast groups to join on the team ports (host-only simulations), e.g. 239.0.0.1")
		boosterOn = fs.Bool("booster", true, "also watch the Booster robots' own ports of each team: discovery 20000+team and\nunicast 30000+team (their 2026 revision broadcasts on the team port)")
	)
	return func() (monitor.Config, error) {
		cfg := monitor.DefaultConfig()
		cfg.Interface = *iface
		cfg.FollowGC = *follow
		cfg.Booster = *boosterOn
		cfg.KeepReturnPort = *keepRet
		for _, p := range []struct {
			name string
			v    uint
		}{{"gc-port", *gcPort}, {"return-port", *retPort}, {"forward-port", *fwdPort}} {
			if p.v > 65535 {
				return cfg, fmt.Errorf("--%s %d is not a port", p.name, p.v)
			}
		}
		// With the monitor channel the GameController forwards the return packets, so the
		// return port (which on its host would take them from it) is opened only when asked.
		cfg.TrueData = !*passive && *gcPort != 0
		ret := uint16(*retPort)
		if cfg.TrueData {
			ret = 0
			fs.Visit(func(f *flag.Flag) {
				if f.Name == "return-port" {
					ret = uint16(*retPort)
				}
			})
		}
		ports, err := monitorPorts(uint16(*gcPort), ret, *teams, *teamPorts)
		if err != nil {
			return cfg, err
		}
		if cfg.TrueData && *fwdPort != 0 {
			ports = append(ports, monitor.Port{Kind: monitor.KindForward, Port: uint16(*fwdPort)})
		}
		cfg.Ports = ports
		for f := range strings.FieldsFuncSeq(*groups, isListSep) {
			g, err := netip.ParseAddr(f)
			if err != nil {
				return cfg, fmt.Errorf("--group %q: %v", f, err)
			}
			cfg.Groups = append(cfg.Groups, g)
		}
		return cfg, nil
	}
}

// addDisplayFlags declares the flags of what the monitor shows and counts (monitor
// only: record writes every datagram whatever they say) and returns the function that
// applies them to a configuration after parsing.
func addDisplayFlags(fs *flag.FlagSet) func(*monitor.Config) error {
	var (
		authKey   = fs.String("auth-key", "", "the teams' shared dnet key: check tags and count bad ones")
		leagueArg = fs.String("league", "hsl", "rules for size cap, budget counting and the field: hsl, spl or hl;\nwith --replay and no --league: the league of the recording's GameController")
		offline   = fs.Duration("offline", monitor.DefaultOfflineAfter, "silence after which a robot is shown offline")
		remove    = fs.Duration("remove", monitor.DefaultRemoveAfter, "silence after which a robot is forgotten")
		window    = fs.Duration("window", monitor.DefaultRateWindow, "window of the message rates")
	)
	return func(cfg *monitor.Config) error {
		cfg.AuthKey = []byte(*authKey)
		cfg.OfflineAfter, cfg.RemoveAfter, cfg.RateWindow = *offline, *remove, *window
		l, err := league.Parse(*leagueArg)
		if err != nil {
			return err
		}
		cfg.League = l
		cfg.Field = monitor.LeagueField(l)
		return nil
	}
}

func isListSep(r rune) bool { return r == ',' || r == ' ' }

// monitorPorts builds the port list from the flags: the GameController and return ports
// unless 0, every team's port (10000 + team, or TEAM=PORT from teamPorts) and the shared
// ports (bare PORT entries of teamPorts).
func monitorPorts(gcPort, retPort uint16, teams, teamPorts string) ([]monitor.Port, error) {
	var ps []monitor.Port
	if gcPort != 0 {
		ps = append(ps, monitor.Port{Kind: monitor.KindGameController, Port: gcPort})
	}
	if retPort != 0 {
		ps = append(ps, monitor.Port{Kind: monitor.KindReturn, Port: retPort})
	}
	own := map[uint8]uint16{}
	var shared []uint16
	for f := range strings.FieldsFuncSeq(teamPorts, isListSep) {
		t, p, isTeam := strings.Cut(f, "=")
		if !isTeam {
			p = t
		}
		port, err := strconv.ParseUint(p, 10, 16)
		if err != nil || port == 0 {
			return nil, fmt.Errorf("--team-ports %q: %q is not a port 1..65535", teamPorts, p)
		}
		if !isTeam {
			shared = append(shared, uint16(port))
			continue
		}
		n, err := parseTeamNumber(t)
		if err != nil {
			return nil, fmt.Errorf("--team-ports %q: %v", teamPorts, err)
		}
		if _, dup := own[n]; dup {
			return nil, fmt.Errorf("--team-ports %q: team %d is listed twice", teamPorts, n)
		}
		own[n] = uint16(port)
	}
	var order []uint8
	for f := range strings.FieldsFuncSeq(teams, isListSep) {
		n, err := parseTeamNumber(f)
		if err != nil {
			return nil, fmt.Errorf("--teams %q: %v", teams, err)
		}
		if slices.Contains(order, n) {
			return nil, fmt.Errorf("--teams %q: team %d is listed twice", teams, n)
		}
		order = append(order, n)
	}
	for _, n := range slices.Sorted(maps.Keys(own)) { // teams given only in --team-ports
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	for _, n := range order {
		p := monitor.TeamPort(n)
		if q, ok := own[n]; ok {
			p.Port = q
		}
		ps = append(ps, p)
	}
	for _, port := range shared {
		ps = append(ps, monitor.Port{Kind: monitor.KindTeam, Port: port})
	}
	return ps, nil
}

func parseTeamNumber(s string) (uint8, error) {
	n, err := strconv.ParseUint(s, 10, 8)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a team number 1..255", s)
	}
	return uint8(n), nil
}

func runMonitor(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	o, code := parseMonitorFlags(args, stderr)
	if o == nil {
		return code
	}
	errw := &syncWriter{w: stderr}
	o.cfg.Logger = slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if o.replay != "" {
		return runMonitorReplay(ctx, o, stdout, errw)
	}
	m, err := monitor.New(o.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork monitor: %v\n", err)
		return 2
	}
	g, gctx, ln, stop, code := startPage(ctx, o, m.Run, m.Handler(), stderr)
	if g == nil {
		return code
	}
	defer stop()

	upCtx, cancelUp := context.WithTimeout(gctx, 5*time.Second)
	upErr := m.WaitUp(upCtx)
	cancelUp()
	if upErr != nil && gctx.Err() == nil {
		fmt.Fprintf(errw, "dnetwork monitor: %v (retrying in the background)\n", upErr)
	}
	var names []string
	for _, p := range m.Ports() {
		names = append(names, fmt.Sprintf("%s :%d", p.Name(), p.Port))
	}
	if o.cfg.FollowGC {
		names = append(names, "the teams the GameController names")
	}
	fmt.Fprintf(stdout, "dnetwork monitor: listening (interface %s) on %s\n", o.cfg.Interface, strings.Join(names, ", "))
	for _, p := range o.cfg.Ports {
		if p.Kind == monitor.KindReturn {
			fmt.Fprintln(stdout, "dnetwork monitor: return packets are unicast to the GameController's host; if the GameController"+
				" runs on this host, the monitor closes the return port when it hears it (--keep-return-port: it only warns)")
		}
	}
	fmt.Fprintf(stdout, "dnetwork monitor: web page http://%s/ (state at /api/state)\n", ln.Addr())

	if err := g.Wait(); err != nil {
		fmt.Fprintf(errw, "dnetwork monitor: %v\n", err)
		return 1
	}
	return 0
}

// runMonitorReplay serves the web page for a recording.
func runMonitorReplay(ctx context.Context, o *monitorOptions, stdout, stderr io.Writer) int {
	if entries, isLog, err := readGameLogFile(o.replay); isLog {
		return runMonitorLogReplay(ctx, o, entries, err, stdout, stderr)
	}
	pkts, err := capture.ReadFile(o.replay)
	if err != nil {
		if len(pkts) == 0 {
			fmt.Fprintf(stderr, "dnetwork monitor: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "dnetwork monitor: %v (replaying the %d datagrams before it)\n", err, len(pkts))
	}
	if !o.leagueSet {
		gcPort := uint16(monitor.GameControllerPort)
		for _, p := range o.cfg.Ports {
			if p.Kind == monitor.KindGameController {
				gcPort = p.Port
			}
		}
		if l, why, ok := monitor.RecordingLeague(pkts, gcPort); ok {
			o.cfg.League, o.cfg.Field = l, monitor.LeagueField(l)
			fmt.Fprintf(stdout, "dnetwork monitor: league %s, from the recording (%s); --league sets another\n", l, why)
		} else {
			fmt.Fprintf(stdout, "dnetwork monitor: league %s, the default: %s; --league sets another\n", o.cfg.League, why)
		}
	}
	p, err := monitor.NewPlayer(o.cfg, pkts)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork monitor: %s: %v\n", o.replay, err)
		return 2
	}
	return serveReplay(ctx, o, p, "datagrams", stdout, stderr)
}

// serveReplay serves p's page until ctx ends or o.duration passes.
func serveReplay(ctx context.Context, o *monitorOptions, p *monitor.Player, what string, stdout, stderr io.Writer) int {
	g, _, ln, stop, code := startPage(ctx, o, p.Run, p.Handler(), stderr)
	if g == nil {
		return code
	}
	defer stop()
	r := p.State().Replay
	fmt.Fprintf(stdout, "dnetwork monitor: replaying %s: %d %s over %v from %s\n", o.replay, r.Packets, what,
		time.Duration(r.DurationS*float64(time.Second)).Round(time.Second), r.Start.Local().Format(time.DateTime))
	fmt.Fprintf(stdout, "dnetwork monitor: web page http://%s/ (state at /api/state)\n", ln.Addr())
	if err := g.Wait(); err != nil {
		fmt.Fprintf(stderr, "dnetwork monitor: %v\n", err)
		return 1
	}
	return 0
}

// startPage listens on o.http and runs run and the web page h under one errgroup, for
// o.duration if set. On failure g is nil and code the exit status; otherwise stop
// releases the duration's timer once g is waited for.
func startPage(ctx context.Context, o *monitorOptions, run func(context.Context) error, h http.Handler, stderr io.Writer) (
	g *errgroup.Group, gctx context.Context, ln net.Listener, stop func(), code int) {
	ln, err := net.Listen("tcp", o.http)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork monitor: web page: %v\n", err)
		return nil, nil, nil, nil, 1
	}
	stop = func() {}
	if o.duration > 0 {
		ctx, stop = context.WithTimeout(ctx, o.duration)
	}
	g, gctx = errgroup.WithContext(ctx)
	g.Go(func() error { return run(gctx) })
	g.Go(func() error { return monitor.Serve(gctx, ln, h) })
	return g, gctx, ln, stop, -1
}
