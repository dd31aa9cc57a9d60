package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
)

// runMonitorLogReplay serves the web page for a GameController log's entries (those
// before a bad entry, which is reported; a log of an unknown version is refused).
func runMonitorLogReplay(ctx context.Context, o *monitorOptions, entries []gclog.Entry, err error, stdout, stderr io.Writer) int {
	if err != nil {
		if len(entries) == 0 || errors.Is(err, gclog.ErrVersion) {
			fmt.Fprintf(stderr, "dnetwork monitor: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "dnetwork monitor: %v (replaying the %d entries before it)\n", err, len(entries))
	}
	if !o.leagueSet {
		fmt.Fprintf(stdout, "dnetwork monitor: league %s, the default: a GameController log holds no control packets; --league sets another\n", o.cfg.League)
	}
	p, err := monitor.NewLogPlayer(o.cfg, entries)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork monitor: %s: %v\n", o.replay, err)
		return 2
	}
	return serveReplay(ctx, o, p, "GameController log messages", stdout, stderr)
}
