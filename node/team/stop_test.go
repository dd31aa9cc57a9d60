package team

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
)

// closedWarning is the warning of a team socket that closes while the node runs.
const closedWarning = "team socket closed"

// runStopped runs a component (timed: the timed Run) until it is ready, then stops it
// as the node does: ctx ends, and the socket's worker, run on the same ctx, closes its
// queue; stop does that. It returns the component's log.
func runStopped(t *testing.T, timed bool, stop func(*bus.FakeConn, context.CancelFunc, *syncbuf.Buffer)) string {
	t.Helper()
	var logs syncbuf.Buffer
	cfg := testConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	conn := bus.NewFakeConn(4)
	g := &fakeGame{s: NoGame}
	var view GameView = g // not a GameNotifier: the Run that wakes on every tick
	if timed {
		g.changed = make(chan struct{})
		view = notifyingGame{g}
	}
	c, err := New(cfg, Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.TeamInfo]{}, Clock: clock.NewManual(harnessStart), Game: view})
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	c.hook = func(e event) {
		if e == eventReady {
			close(ready)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	<-ready
	stop(conn, cancel, &logs)
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	return logs.String()
}

// TestNoWarningOnStop: on a normal stop the component may see the closed queue before
// the end of ctx (a select between two ready cases, or the timed Run's poke that comes
// from another goroutine); either way it stops without the warning. Each Run is
// repeated so that both orders occur.
func TestNoWarningOnStop(t *testing.T) {
	stop := func(conn *bus.FakeConn, cancel context.CancelFunc, _ *syncbuf.Buffer) {
		cancel()
		conn.Close()
	}
	for _, timed := range []bool{false, true} {
		for i := range 100 {
			if log := runStopped(t, timed, stop); strings.Contains(log, closedWarning) {
				t.Fatalf("timed %v, stop %d: %q on a normal stop:\n%s", timed, i, closedWarning, log)
			}
		}
	}
}

// TestWarningOnSocketClosed: a queue that closes while ctx is alive (the worker failed)
// is warned about.
func TestWarningOnSocketClosed(t *testing.T) {
	for _, timed := range []bool{false, true} {
		runStopped(t, timed, func(conn *bus.FakeConn, cancel context.CancelFunc, logs *syncbuf.Buffer) {
			conn.Close()
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(logs.String(), closedWarning) {
				if time.Now().After(deadline) {
					t.Errorf("timed %v: no %q within 5 s of the queue closing:\n%s", timed, closedWarning, logs.String())
					break
				}
				time.Sleep(time.Millisecond)
			}
			cancel()
		})
	}
}
