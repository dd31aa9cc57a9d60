package sim3d

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
)

// start is the clock's start in tests: cycle 50000 at 20 ms.
var start = time.Unix(1000, 0)

const cycle = 20 * time.Millisecond

// rig is one Team on a manual clock with recording publishers.
type rig struct {
	t     *testing.T
	clk   *clock.Manual
	team  *Team
	says  *bus.Recorder[dmsgs.Sim3dSay]
	infos *bus.Recorder[dmsgs.TeamInfo]
	logs  *logRecorder
}

// newRig builds a Team for player 1 of 11 with key "TeamX" and two-cycle slots (the
// cycle numbers the tests spell out), modified by mod. clk may be
// shared between rigs; nil makes a new one at start.
func newRig(t *testing.T, clk *clock.Manual, mod func(*Config)) *rig {
	t.Helper()
	if clk == nil {
		clk = clock.NewManual(start)
	}
	r := &rig{t: t, clk: clk, says: &bus.Recorder[dmsgs.Sim3dSay]{},
		infos: &bus.Recorder[dmsgs.TeamInfo]{}, logs: &logRecorder{}}
	c := DefaultConfig()
	c.Player, c.Key, c.Logger, c.SlotCycles = 1, "TeamX", slog.New(r.logs), MinSlotCycles
	if mod != nil {
		mod(&c)
	}
	team, err := New(c, clk, r.says, r.infos)
	if err != nil {
		t.Fatal(err)
	}
	r.team = team
	return r
}

// run starts Run and waits until its ticker exists; the test's cleanup stops it and
// checks that it returned nil.
func (r *rig) run() {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.team.Run(ctx) }()
	r.t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				r.t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			r.t.Error("Run did not return after cancel")
		}
	})
	waitFor(r.t, "Run to start", func() bool { return r.team.Status().Running })
}

// waitEval waits until the team has made at least n evaluations.
func (r *rig) waitEval(n uint64) {
	r.t.Helper()
	waitFor(r.t, "evaluation", func() bool { return r.team.Status().Evaluations >= n })
}

// tick advances the clock by one cycle and waits for the ticker's evaluation (the
// ticker keeps the phase of one cycle from when Run started).
func (r *rig) tick() Status {
	r.t.Helper()
	n := r.team.Status().Evaluations
	r.clk.Advance(cycle)
	r.waitEval(n + 1)
	return r.team.Status()
}

// checkInvariants checks the counter identities of Status.
func checkInvariants(t *testing.T, st Status) {
	t.Helper()
	if got := st.Said + st.NotDue + st.EncodeErrors + st.SayPublishErrors; got != st.Evaluations {
		t.Errorf("said %d + not due %d + encode errors %d + publish errors %d = %d, want evaluations %d",
			st.Said, st.NotDue, st.EncodeErrors, st.SayPublishErrors, got, st.Evaluations)
	}
	if got := st.Accepted + st.Dropped.Total(); got != st.Heard {
		t.Errorf("accepted %d + dropped %d (%+v) = %d, want heard %d",
			st.Accepted, st.Dropped.Total(), st.Dropped, got, st.Heard)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// logRecorder is a slog.Handler that keeps every record.
type logRecorder struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }

func (h *logRecorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.recs = append(h.recs, r)
	h.mu.Unlock()
	return nil
}

func (h *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *logRecorder) WithGroup(string) slog.Handler      { return h }

// count returns how many records at level have msg.
func (h *logRecorder) count(level slog.Level, msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.recs {
		if r.Level == level && r.Message == msg {
			n++
		}
	}
	return n
}
