package monitor

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
)

// readGameLog reads a log the headless v20 GameController wrote while a dnetwork node
// (robot 17/2) played (proto/gclog/testdata/README.md).
func readGameLog(t *testing.T) []gclog.Entry {
	t.Helper()
	f, err := os.Open("../proto/gclog/testdata/hsl20.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := gclog.NewReader(f)
	var es []gclog.Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return es
		}
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
}

// TestLogPlayer replays a real GameController log: its messages are the robot's
// datagrams, its actions the timeline's events, and the game state shown at a position
// is the log's latest one before it, forwards and backwards.
func TestLogPlayer(t *testing.T) {
	es := readGameLog(t)
	cfg := DefaultConfig()
	cfg.Logger = quiet
	p, err := NewLogPlayer(cfg, es)
	if err != nil {
		t.Fatal(err)
	}
	var actions, msgs int
	var penalize, last *gclog.Entry
	for i, e := range es {
		switch {
		case e.Action != nil:
			actions++
			if e.Action.Type == "penalize" {
				penalize = &es[i]
			}
		case e.Message != nil:
			msgs++
		case e.GameState != nil:
			last = &es[i]
		}
	}
	r := p.State().Replay
	if !near(r.DurationS, es[len(es)-1].Time.Seconds()) || r.Packets != msgs || len(r.Events) != actions || r.GameState != nil {
		t.Fatalf("replay view: %.3f s, %d packets, %d events, state %v; want %.3f s, %d, %d, none yet",
			r.DurationS, r.Packets, len(r.Events), r.GameState, es[len(es)-1].Time.Seconds(), msgs, actions)
	}
	if penalize == nil || !strings.Contains(actionText(penalize.Action), "player=2") {
		t.Fatalf("no penalize action of player 2 in the log: %v", penalize)
	}
	for i, ev := range r.Events {
		if i > 0 && ev.AtS < r.Events[i-1].AtS {
			t.Errorf("event %d at %v before %v", i, ev.AtS, r.Events[i-1].AtS)
		}
	}
	// The state the GameController logged right after the penalty (the log writes the
	// action, then the state it made).
	var after *gclog.GameState
	for _, e := range es[penalize.Index:] {
		if e.GameState != nil {
			after = e.GameState
			break
		}
	}
	for _, c := range []struct {
		at   time.Duration
		want *gclog.GameState
	}{
		{penalize.Time + 50*time.Millisecond, after},
		{time.Hour, last.GameState},
		{time.Second, nil}, // back: before the first state
	} {
		if err := p.Seek(c.at); err != nil {
			t.Fatal(err)
		}
		s := p.State()
		if s.Replay.GameState != c.want {
			t.Errorf("at %v: game state %+v, want %+v", c.at, s.Replay.GameState, c.want)
		}
		if c.at > 2*time.Second && (len(s.Robots) != 1 || s.Robots[0].Team != 17 || s.Robots[0].Player != 2) {
			t.Errorf("at %v: robots %+v, want 17/2 from its messages", c.at, s.Robots)
		}
	}
	if after.Teams[0].Players[1].Penalty != "pushing" || last.GameState.Teams[0].Score != 1 {
		t.Errorf("states: after the penalty %+v, last %+v", after.Teams[0].Players[1], last.GameState.Teams[0])
	}
	if _, err := NewLogPlayer(cfg, es[:1]); !errors.Is(err, ErrNoPackets) {
		t.Errorf("metadata only: %v, want ErrNoPackets", err)
	}
}

// TestBrowserLogReplay loads a GameController log's replay in headless Chromium at a
// moment after the penalty: the replay bar shows the log's state and latest action,
// and the slider carries one mark per action.
func TestBrowserLogReplay(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	cfg := DefaultConfig()
	cfg.Logger = quiet
	p, err := NewLogPlayer(cfg, readGameLog(t))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, p.Handler()) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	dom := runChromium(t, bin, "http://"+ln.Addr().String()+"/#t=14.5", "--dump-dom")
	for _, want := range []string{`data-replay-position="14.5"`, `<span id="replay-log-state">firstHalf · playing · kickOff · kicking home · 0:0</span>`,
		`penalize call=pushing player=2 side=home (user)</span>`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page does not hold %s:\n%.3000s", want, dom[strings.Index(dom, `<div id="replay"`):])
		}
	}
	if n := strings.Count(dom, "<option value=") - 6; n != len(p.State().Replay.Events) { // 6 speeds
		t.Errorf("%d marks on the slider, want %d", n, len(p.State().Replay.Events))
	}
}
