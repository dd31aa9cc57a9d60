package monitor

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// ReplayEvent is an action of a GameController log on the replay's timeline.
type ReplayEvent struct {
	AtS    float64 `json:"at_s"`   // since the replay's start
	Source string  `json:"source"` // user, network, timer
	Action string  `json:"action"` // startSetPlay, penalize, goal, ...
	Text   string  `json:"text"`   // the action and its arguments, e.g. "penalize player=2 side=home call=pushing"
}

// logTimeline is what a GameController log holds beside its messages.
type logTimeline struct {
	events []ReplayEvent
	states []logState // in time order
}

type logState struct {
	at time.Time
	g  *gclog.GameState
}

// NewLogPlayer prepares a replay of a GameController log's entries (a whole log, or
// the entries before a bad one) as NewPlayer does for a recording: its status and
// team messages are the datagrams the GameController received (capture.GameLogPackets),
// its actions are events on the timeline (ReplayView.Events) and its game states are
// shown as the log's state at the replay position (ReplayView.GameState). The replay
// spans the log's entries.
func NewLogPlayer(cfg Config, entries []gclog.Entry) (*Player, error) {
	pl := buildPlayer(cfg, capture.GameLogPackets(entries))
	start := capture.GameLogStart(entries)
	tl := &logTimeline{}
	var first, last time.Duration
	for i, e := range entries {
		if i == 0 || e.Time < first {
			first = e.Time
		}
		last = max(last, e.Time)
		switch {
		case e.Action != nil:
			tl.events = append(tl.events, ReplayEvent{AtS: e.Time.Seconds(), Source: e.Action.Source, Action: e.Action.Type,
				Text: actionText(e.Action)})
		case e.GameState != nil:
			tl.states = append(tl.states, logState{at: start.Add(e.Time), g: e.GameState})
		}
	}
	if len(pl.pkts) == 0 && len(tl.states) == 0 && len(tl.events) == 0 {
		return nil, ErrNoPackets
	}
	slices.SortStableFunc(tl.states, func(a, b logState) int { return a.at.Compare(b.at) })
	pl.from, pl.to, pl.log = start.Add(first), start.Add(last), tl
	for i := range tl.events {
		tl.events[i].AtS -= first.Seconds()
	}
	return pl, pl.begin()
}

// actionText writes an action and its arguments in one line, the arguments by name.
func actionText(a *gclog.Action) string {
	var b strings.Builder
	b.WriteString(a.Type)
	for _, k := range slices.Sorted(maps.Keys(a.Args)) {
		fmt.Fprintf(&b, " %s=%v", k, a.Args[k])
	}
	return b.String()
}

// view fills a ReplayView with the timeline at pos.
func (tl *logTimeline) view(v *ReplayView, pos time.Time) {
	v.Events = tl.events
	i, _ := slices.BinarySearchFunc(tl.states, pos, func(s logState, t time.Time) int {
		if s.at.After(t) {
			return 1
		}
		return -1
	})
	if i > 0 {
		v.GameState = tl.states[i-1].g
	}
}
