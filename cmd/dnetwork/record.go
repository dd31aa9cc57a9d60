package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

func init() {
	register(&command{
		name:    "record",
		summary: "record the GameController, return and team ports to a pcapng file",
		run:     runRecord,
	})
}

const mib = 1 << 20

func runRecord(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out      = fs.String("o", "", "file to write (default game-<UTC time>.pcapng); rotation adds _001, _002, ...")
		maxSize  = fs.Int("max-size", 0, "MiB at which the recording continues in a new file (0: no limit)")
		rotate   = fs.Int("rotate", 0, "most files kept, the oldest removed (0: all)")
		minFree  = fs.Int("min-free", 200, "MiB of free disk space below which nothing is written")
		flush    = fs.Duration("flush", time.Second, "longest time a datagram stays in memory")
		duration = fs.Duration("duration", 0, "stop after this long (0: run until Ctrl-C)")
	)
	listen := addListenFlags(fs)
	if code := parseFlags(fs, args,
		"usage: dnetwork record [flags]",
		"",
		"Listens to the GameController (3838), the team ports and the team ports of the teams",
		"the GameController names (with the Booster robots' own ports of each team, 20000+team and",
		"30000+team, unless --booster=false), and writes every datagram to a pcapng file, one interface per",
		"port, for Wireshark, dnetwork decode, dnetwork replay and dnetwork monitor --replay. It",
		"asks each SPL or HSL GameController it hears for its monitor channel (RGTr to UDP 3636):",
		"the true data (RGTD) and the robots' return packets, forwarded to port 3940, are recorded",
		"too, from any host. A GameController refuses a host that has sent return packets; the",
		"log says so. The sockets share their ports (SO_REUSEADDR) with a node or GameController",
		"on the same host.",
		"",
		"--passive sends nothing and listens to the return port 3939 instead; on the",
		"GameController's host that port is closed once the GameController is heard (unicast",
		"reaches only one socket; --keep-return-port: only a warning).",
	); code >= 0 {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "dnetwork record: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	cfg, err := listen()
	if err != nil {
		return fail(err)
	}
	if *duration < 0 || *maxSize < 0 || *rotate < 0 || *minFree < 0 || *flush <= 0 {
		return fail(errors.New("--duration, --max-size, --rotate and --min-free must not be negative, --flush must be positive"))
	}
	path := *out
	if path == "" {
		path = "game-" + time.Now().UTC().Format("20060102-150405") + ".pcapng"
	}
	w, err := capture.NewWriter(capture.Config{
		Path: path, MaxSize: int64(*maxSize) * mib, Rotate: *rotate, MinFree: int64(*minFree) * mib,
		FlushInterval: *flush, Application: "dnetwork record",
	})
	if err != nil {
		return fail(err)
	}
	errw := &syncWriter{w: stderr}
	cfg.Logger = slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.Program = "record"
	cfg.Tap = func(p monitor.Port) transport.Tap {
		return w.Tap(w.AddInterface(p.Name(), fmt.Sprintf("udp port %d on %s", p.Port, cfg.Interface)), cfg.Clock.Now)
	}
	m, err := monitor.New(cfg)
	if err != nil {
		return fail(err)
	}
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	// The writer outlives the sockets, so that nothing they hear while stopping is lost.
	wctx, stopWriter := context.WithCancel(context.Background())
	wdone := make(chan error, 1)
	go func() { wdone <- w.Run(wctx) }()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return m.Run(gctx) })
	upCtx, cancelUp := context.WithTimeout(gctx, 5*time.Second)
	if err := m.WaitUp(upCtx); err != nil && gctx.Err() == nil {
		fmt.Fprintf(errw, "dnetwork record: %v (retrying in the background)\n", err)
	}
	cancelUp()
	fmt.Fprintf(stdout, "dnetwork record: recording to %s (interface %s); Ctrl-C stops\n", path, cfg.Interface)
	err = g.Wait()
	stopWriter()
	<-wdone
	s := w.Stats()
	fmt.Fprintf(stdout, "dnetwork record: %d datagrams written to %d file(s), %d bytes; %d not written (queue full %d, disk floor %d, errors %d)\n",
		s.Written, s.Files, s.Bytes, s.Dropped(), s.QueueFull, s.NoSpace, s.Failed)
	if s.LastError != "" {
		fmt.Fprintf(errw, "dnetwork record: last error: %s\n", s.LastError)
	}
	if err != nil {
		fmt.Fprintf(errw, "dnetwork record: %v\n", err)
		return 1
	}
	return 0
}
