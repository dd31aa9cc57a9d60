package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
	"github.com/robocup-dnetwork/dnetwork/transport/replay"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "send a recording's datagrams again, at the recorded pace, to mapped addresses",
		run:     runReplay,
	})
}

// mappingFlag collects --to PORT=ADDR:PORT flags.
type mappingFlag map[uint16]netip.AddrPort

func (m mappingFlag) String() string {
	var s []string
	for _, p := range slices.Sorted(maps.Keys(m)) {
		s = append(s, fmt.Sprintf("%d=%v", p, m[p]))
	}
	return strings.Join(s, ",")
}

func (m mappingFlag) Set(v string) error {
	for f := range strings.FieldsFuncSeq(v, isListSep) {
		if err := replay.ParseMapping(f, m); err != nil {
			return err
		}
	}
	return nil
}

func runReplay(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := mappingFlag{}
	fs.Var(to, "to", "PORT=ADDRESS:PORT: send datagrams recorded to PORT to ADDRESS:PORT (repeat or comma-separate)")
	var (
		speed = fs.Float64("speed", 1, "pace: 1 as recorded, 4 four times faster, 0 as fast as possible")
		dir   = fs.String("dir", "all", "datagrams the recording host received, sent, or all")
		iface = fs.String("interface", "any", "interface of the sending socket")
	)
	if code := parseFlags(fs, args,
		"usage: dnetwork replay --to PORT=ADDRESS:PORT [flags] FILE ...",
		"",
		"Sends the UDP datagrams of pcap/pcapng recordings (a node's record.*, dnetwork record,",
		"tcpdump) or the status and team messages of GameController logs (to ports 3939 and",
		"10000 + team; a bad entry ends the log and the exit status is 2) again, in file",
		"order and at the recorded pace, each to the address its recorded destination port",
		"is mapped to; unmapped datagrams are skipped. Point it at loopback or a test",
		"network only: it sends real GameController and team packets.",
		"  dnetwork replay --to 3838=127.0.0.1:3838 robot3.pcapng   # drive a node on this host",
		"  dnetwork replay --to 10017=127.0.0.1:10017 log_*.yaml   # a game's team messages",
	); code >= 0 {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "dnetwork replay: %v\n", err)
		return 2
	}
	if fs.NArg() == 0 {
		return fail(errors.New("no recording given"))
	}
	if len(to) == 0 {
		return fail(errors.New("no --to mapping: nothing would be sent"))
	}
	cfg := replay.Config{To: to, Speed: *speed, Interface: *iface,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	switch *dir {
	case "all":
	case "received":
		cfg.Dir = transport.Received
	case "sent":
		cfg.Dir = transport.Sent
	default:
		return fail(fmt.Errorf("--dir %q: want received, sent or all", *dir))
	}
	if *speed < 0 {
		return fail(fmt.Errorf("--speed %v is negative", *speed))
	}
	var pkts []capture.Packet
	badLog := false
	for _, f := range fs.Args() {
		es, isLog, err := readGameLogFile(f)
		if isLog {
			p := capture.GameLogPackets(es)
			if err != nil {
				if errors.Is(err, gclog.ErrVersion) {
					return fail(err)
				}
				badLog = true
				fmt.Fprintf(stderr, "dnetwork replay: %v (replaying the %d messages before it)\n", err, len(p))
			}
			pkts = append(pkts, p...)
			continue
		}
		p, err := capture.ReadFile(f)
		if err != nil {
			if len(p) == 0 {
				return fail(err)
			}
			fmt.Fprintf(stderr, "dnetwork replay: %v (replaying the %d datagrams before it)\n", err, len(p))
		}
		pkts = append(pkts, p...)
	}
	fmt.Fprintf(stdout, "dnetwork replay: %d datagrams from %d file(s), to %s, speed %g\n", len(pkts), fs.NArg(), to, *speed)
	st, err := replay.Play(ctx, pkts, cfg)
	fmt.Fprintf(stdout, "dnetwork replay: %d sent, %d unmapped, %d of the other direction, %d send errors\n",
		st.Sent, st.Unmapped, st.OtherDir, st.SendErrors)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "dnetwork replay: %v\n", err)
		return 1
	}
	if st.SendErrors > 0 {
		return 1
	}
	if badLog {
		return 2
	}
	return 0
}
