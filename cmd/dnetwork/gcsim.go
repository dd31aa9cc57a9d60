package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/english"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

func init() {
	register(&command{
		name:    "gc-sim",
		summary: "simulate a GameController: play a scripted game, show the robots heard",
		run:     runGCSim,
	})
}

// gcSimUpTimeout bounds the wait for the sockets to open (a variable for tests).
var gcSimUpTimeout = 5 * time.Second

// syncWriter serialises writes of several goroutines to one writer.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func layoutNames() []string {
	var names []string
	for _, l := range gcproto.Layouts() {
		names = append(names, l.String())
	}
	return names
}

func parseLayout(s string) (gcproto.Layout, error) {
	for _, l := range gcproto.Layouts() {
		if l.String() == s {
			return l, nil
		}
	}
	return gcproto.LayoutInvalid, fmt.Errorf("unknown layout %q (one of %s)", s, strings.Join(layoutNames(), ", "))
}

func parseTeams(s string) ([2]uint8, error) {
	a, b, ok := strings.Cut(s, ",")
	var t [2]uint8
	for i, f := range []string{a, b} {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 8)
		if !ok || err != nil || n == 0 || n == gcproto.DropBall {
			return t, fmt.Errorf("--teams %q: want two team numbers 1..254, e.g. 17,5", s)
		}
		t[i] = uint8(n)
	}
	if t[0] == t[1] {
		return t, fmt.Errorf("--teams %q: the teams need different numbers", s)
	}
	return t, nil
}

// gcSimOptions are the parsed flags of gc-sim.
type gcSimOptions struct {
	setup       gcsim.Setup
	script      gcsim.Script
	scriptName  string
	dest        gcsim.Destination
	returnPort  uint16
	speed       float64
	duration    time.Duration
	loop        bool
	keys        bool
	teamMsgs    bool
	budget      int
	table       time.Duration
	ttl         int
	printScript bool
}

// defaultGCSimTeams are the teams of the simulated game without --teams: side A is the
// team of the shipped parameter files (params/robot*.yaml and sim_robot.yaml,
// team_number 17), so that a robot started with them plays in it; side B an opponent.
const defaultGCSimTeams = "17,5"

func parseGCSimFlags(args []string, stderr io.Writer) (*gcSimOptions, int) {
	fs := flag.NewFlagSet("gc-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		layout   = fs.String("layout", "hsl20", "protocol layout: "+strings.Join(layoutNames(), ", "))
		teams    = fs.String("teams", defaultGCSimTeams, "team numbers of side A and side B; the default's side A is the team of the\nshipped parameter files (params/*.yaml)")
		players  = fs.Int("players", 0, "players per team (0: 5, or the layout's maximum if smaller)")
		dest     = fs.String("dest", "broadcast", "where control packets go: broadcast[:IFACE], multicast:GROUP[:PORT][@IFACE], or ADDR[:PORT[-LAST]][,...] (unicast)")
		port     = fs.Uint("port", gcsim.ControlPort, "control port: destination port where --dest names none")
		retPort  = fs.Uint("return-port", gcsim.ReturnPort, "port to receive return packets on (0: any free port)")
		script   = fs.String("script", "default", "the built-in game (default), none (only --keys), or a script file")
		half     = fs.Duration("half", 0, "length of a half (0: the script's; the built-in game uses 1m)")
		speed    = fs.Float64("speed", 1, "game seconds per real second")
		duration = fs.Duration("duration", 0, "stop after this long (0: run until Ctrl-C)")
		loop     = fs.Bool("loop", false, "restart the game 5 s after it ends")
		keys     = fs.Bool("keys", false, "read actions from stdin, one per line (q quits)")
		teamMsgs = fs.Bool("team-messages", false, "listen on 10000+team and count team messages against the budget")
		budget   = fs.Int("budget", 0, "message budget per team (0: the league's, SPL 1200, HSL 12000)")
		table    = fs.Duration("table", 2*time.Second, "interval of the table of robots heard (0: off)")
		ttl      = fs.Int("ttl", 1, "TTL of multicast control packets (0: this host only)")
		print    = fs.Bool("print-script", false, "print the script in the file format and exit")
	)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: dnetwork gc-sim [flags]")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Simulates a GameController: plays a scripted game, sends its control packets at 2 Hz")
		fmt.Fprintln(w, "(HSL layouts also at 5 Hz after every change) and listens for the robots' return")
		fmt.Fprintln(w, "packets. Prints a line for every change of the game and a table of the robots heard,")
		fmt.Fprintln(w, "rated good (heard within 2 s), bad (4 s) or offline. Stops on Ctrl-C or after")
		fmt.Fprintln(w, "--duration. Robots on this host: loopback cannot broadcast, so list their control")
		fmt.Fprintln(w, "ports, e.g. --dest 127.0.0.1:3838-3842.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, gcsim.ScriptHelp)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "With --keys, stdin takes the same actions, one per line, and shortcuts:")
		fmt.Fprintln(w, gcsim.KeysHelp)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Example script (dnetwork gc-sim --print-script shows the built-in one):")
		fmt.Fprintln(w, "  half 5m")
		fmt.Fprintln(w, "  0     initial")
		fmt.Fprintln(w, "  +5s   ready A")
		fmt.Fprintln(w, "  +10s  set")
		fmt.Fprintln(w, "  +5s   playing")
		fmt.Fprintln(w, "  +30s  penalise B 3 pushing 30s")
		fmt.Fprintln(w, "  +20s  goal A")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "flags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	fail := func(format string, a ...any) (*gcSimOptions, int) {
		fmt.Fprintf(stderr, "dnetwork gc-sim: "+format+"\n", a...)
		return nil, 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments %q", fs.Args())
	}
	o := &gcSimOptions{speed: *speed, duration: *duration, loop: *loop, keys: *keys, teamMsgs: *teamMsgs,
		budget: *budget, table: *table, ttl: *ttl, printScript: *print}
	var err error
	if o.setup.Layout, err = parseLayout(*layout); err != nil {
		return fail("%v", err)
	}
	if o.setup.Teams, err = parseTeams(*teams); err != nil {
		return fail("%v", err)
	}
	o.setup.Players = *players
	if err := o.setup.Validate(); err != nil {
		return fail("%v", err)
	}
	if *port == 0 || *port > 65535 || *retPort > 65535 {
		return fail("ports must be 1..65535 (--return-port may be 0)")
	}
	o.returnPort = uint16(*retPort)
	if o.dest, err = gcsim.ParseDestination(*dest, uint16(*port)); err != nil {
		return fail("--dest: %v", err)
	}
	if !(o.speed > 0 && o.speed <= 1000) {
		return fail("--speed %v outside (0, 1000]", o.speed)
	}
	if *half < 0 || o.duration < 0 || o.table < 0 || o.budget < 0 || o.ttl < 0 || o.ttl > 255 {
		return fail("--half, --duration, --table, --budget must not be negative, --ttl is 0..255")
	}
	o.scriptName = *script
	switch *script {
	case "default":
		o.script = gcsim.DefaultScript(o.setup.Layout, *half)
	case "none":
		o.script = gcsim.Script{Half: *half}
	default:
		f, err := os.Open(*script)
		if err != nil {
			return fail("--script: %v", err)
		}
		o.script, err = gcsim.ParseScript(f, o.setup)
		f.Close()
		if err != nil {
			return fail("--script %s: %v", *script, err)
		}
		if *half > 0 {
			o.script.Half = *half
		}
	}
	return o, -1
}

func runGCSim(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code := parseGCSimFlags(args, stderr)
	if o == nil {
		return code
	}
	if o.printScript {
		if err := o.script.Format(stdout); err != nil {
			fmt.Fprintf(stderr, "dnetwork gc-sim: %v\n", err)
			return 1
		}
		return 0
	}
	out := &syncWriter{w: stdout}
	logger := slog.New(slog.NewTextHandler(&syncWriter{w: stderr}, &slog.HandlerOptions{Level: slog.LevelWarn}))

	ttl := o.ttl
	if ttl == 0 {
		ttl = transport.HostOnlyTTL
	}
	u, err := gcsim.NewUDP(gcsim.UDPConfig{Dest: o.dest, ReturnPort: o.returnPort, TeamPorts: o.teamMsgs,
		Teams: o.setup.Teams, MulticastTTL: ttl, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork gc-sim: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.duration > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.duration)
		defer cancel()
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return u.Run(gctx) })
	upCtx, upCancel := context.WithTimeout(gctx, gcSimUpTimeout)
	err = u.WaitUp(upCtx)
	upCancel()
	if err != nil {
		stopped := ctx.Err() != nil
		why := fmt.Sprintf("control socket: %v; return socket: %v", errText(u.Control.Status().Err), errText(u.Return.Status().Err))
		cancel()
		_ = g.Wait()
		if stopped {
			return 0 // stopped before the sockets were open
		}
		fmt.Fprintf(stderr, "dnetwork gc-sim: sockets did not open within %v: %s\n", gcSimUpTimeout, why)
		return 1
	}

	cfg := gcsim.Config{Setup: o.setup, Script: o.script, Speed: o.speed, Budget: o.budget, Loop: o.loop,
		Dest: o.dest, Logger: logger}
	u.Attach(&cfg)
	cfg.OnChange = func(c gcsim.Change) {
		if c.Err != nil {
			fmt.Fprintf(out, "[%7.1fs] %s: %v\n", c.At.Seconds(), c.What, c.Err)
			return
		}
		fmt.Fprintf(out, "[%7.1fs] %s  | %s\n", c.At.Seconds(), c.Game.Summary(), c.What)
	}
	sim, err := gcsim.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork gc-sim: %v\n", err)
		cancel()
		_ = g.Wait()
		return 2
	}
	setup := sim.Setup()
	via := ""
	if o.dest.Kind != gcsim.DestUnicast {
		via = " via " + u.Control.Interface().String()
	}
	fmt.Fprintf(out, "gc-sim: %s, team %d (A) and %d (B), %d players; control packets to %s%s; return packets on %v\n",
		setup.Layout, setup.Teams[0], setup.Teams[1], setup.Players, o.dest, via, u.Return.LocalAddr())
	fmt.Fprintf(out, "gc-sim: script %s: %d steps, half %v, speed %g\n", o.scriptName, len(o.script.Steps),
		cmpOr(o.script.Half, gcsim.DefaultTiming().Half), o.speed)
	fmt.Fprintf(out, "[%7.1fs] %s  | start\n", 0.0, sim.State().Summary())
	start := time.Now()
	g.Go(func() error { return sim.Run(gctx) })
	if o.table > 0 {
		g.Go(func() error { return printRobotTables(gctx, sim, o.table, out, start) })
	}
	if o.keys {
		// The reader is not waited for: a read from a terminal cannot be interrupted.
		go readKeys(gctx, cancel, sim, setup, stdin, out, stderr)
	}
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "dnetwork gc-sim: %v\n", err)
		return 1
	}
	st := sim.Stats()
	fmt.Fprintf(out, "gc-sim: stopped after %.1fs: %d control packets (%d send errors); %d return packets (%d malformed, %d from other teams); %s heard\n",
		time.Since(start).Seconds(), st.Packets, st.SendErrors, st.Returns, st.Malformed, st.Foreign, english.Count(len(sim.Robots()), "robot"))
	fmt.Fprintf(out, "gc-sim: final state: %s\n", sim.State().Summary())
	return 0
}

func cmpOr(d, def time.Duration) time.Duration {
	if d != 0 {
		return d
	}
	return def
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// readKeys applies one action per line of stdin until EOF, "q" or ctx ends.
func readKeys(ctx context.Context, quit context.CancelFunc, sim *gcsim.Simulator, setup gcsim.Setup, stdin io.Reader, out, stderr io.Writer) {
	sn := bufio.NewScanner(stdin)
	for sn.Scan() && ctx.Err() == nil {
		line := strings.TrimSpace(sn.Text())
		switch line {
		case "":
			continue
		case "q", "quit":
			quit()
			return
		}
		a, err := gcsim.ParseAction(line, setup)
		if err == nil {
			err = sim.Apply(ctx, a)
		}
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "dnetwork gc-sim: %q: %v\n", line, err)
		}
	}
}

// printRobotTables prints the robots heard every interval until ctx is done.
func printRobotTables(ctx context.Context, sim *gcsim.Simulator, every time.Duration, out io.Writer, start time.Time) error {
	tk := clock.Wall.NewTicker(every)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tk.C():
			writeRobotTable(out, sim.Robots(), sim.Stats(), time.Since(start))
		}
	}
}

func writeRobotTable(out io.Writer, robots []gcsim.RobotView, st gcsim.Stats, since time.Duration) {
	var n [3]int
	for _, r := range robots {
		n[r.Status]++
	}
	var b strings.Builder
	if len(robots) == 0 {
		fmt.Fprintf(&b, "robots at %.1fs: none heard (return packets %d, malformed %d)\n", since.Seconds(), st.Returns, st.Malformed)
		_, _ = io.WriteString(out, b.String())
		return
	}
	fmt.Fprintf(&b, "robots at %.1fs: %d good, %d bad, %d offline (return packets %d, malformed %d)\n",
		since.Seconds(), n[gcsim.Good], n[gcsim.Bad], n[gcsim.Offline], st.Returns, st.Malformed)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  TEAM\tPLAYER\tSTATUS\tAGE\tPACKETS\tVER\tFROM\tDETAIL")
	for _, r := range robots {
		team := strconv.Itoa(int(r.Team))
		if !r.InGame {
			team += "?"
		}
		var detail string
		switch {
		case r.Version == gcproto.ReturnVersion:
			detail = fmt.Sprintf("pose %.0f,%.0f,%.2f", r.Pose[0], r.Pose[1], r.Pose[2])
			if r.BallAge >= 0 {
				detail += fmt.Sprintf(" ball %.0f,%.0f (%.1fs)", r.Ball[0], r.Ball[1], r.BallAge)
			} else {
				detail += " ball never seen"
			}
			if r.Fallen {
				detail += " FALLEN"
			}
		default:
			detail = r.MessageName
		}
		if r.AddrChanges > 0 {
			detail += fmt.Sprintf(" (address changed %d times)", r.AddrChanges)
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%.1fs\t%d\tv%d\t%v\t%s\n", team, r.Player, r.Status, r.Age.Seconds(), r.Packets, r.Version, r.Addr, detail)
	}
	_ = tw.Flush()
	_, _ = io.WriteString(out, b.String())
}
