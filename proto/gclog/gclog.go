package gclog

import (
	"errors"
	"fmt"
	"net/netip"
	"time"
)

// Version is the log version this package reads and writes (the metadata entry's
// version).
const Version = 1

// Errors. A Reader wraps them in an *Error that names the entry and its line.
var (
	// ErrMalformed: an entry is not valid YAML or lacks a member the format requires.
	ErrMalformed = errors.New("gclog: malformed entry")
	// ErrTruncated: the input ends inside an entry.
	ErrTruncated = errors.New("gclog: log truncated")
	// ErrVersion: the metadata names a log version other than Version.
	ErrVersion = errors.New("gclog: unknown log version")
	// ErrNotLog: the input does not start like a GameController log.
	ErrNotLog = errors.New("gclog: not a GameController log")
)

// Error is a problem with one entry of a log.
type Error struct {
	Entry int // entry number, from 1
	Line  int // line the entry starts on, from 1
	Err   error
}

func (e *Error) Error() string { return fmt.Sprintf("entry %d (line %d): %v", e.Entry, e.Line, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Kind is an entry's kind as the log names it.
type Kind string

// The entry kinds of log.rs's LogEntry.
const (
	KindMetadata       Kind = "metadata"
	KindAction         Kind = "action"
	KindGameState      Kind = "gameState"
	KindMonitorRequest Kind = "monitorRequest"
	KindStatusMessage  Kind = "statusMessage"
	KindTeamMessage    Kind = "teamMessage"
	KindEnd            Kind = "end"
)

// Form is the way an entry's kind is written.
type Form int

const (
	// FormTag is serde_yaml 0.9's (the upstream GameController's): `entry: !statusMessage`,
	// all entries in one sequence.
	FormTag Form = iota
	// FormKey is serde_yaml 0.8's (the Debian-built GameControllers'): `entry:` with the
	// kind as its only key, one `---` document per entry.
	FormKey
)

func (f Form) String() string {
	if f == FormKey {
		return "key"
	}
	return "tag"
}

// Entry is one timestamped entry of a log. Exactly one of Metadata, Action, GameState
// and Message is set, after Kind (none for KindEnd).
type Entry struct {
	Index int           // entry number, from 1 (set by the Reader)
	Line  int           // line the entry starts on, from 1 (set by the Reader)
	Time  time.Duration // since the game's start
	Kind  Kind
	Form  Form // how the entry was written (set by the Reader)

	Metadata  *Metadata
	Action    *Action
	GameState *GameState
	Message   *Message // monitorRequest, statusMessage, teamMessage
}

// Metadata is the entry that opens a log.
type Metadata struct {
	Creator   string    `json:"creator"`
	Version   uint32    `json:"version"`
	Timestamp time.Time `json:"timestamp"` // wall-clock time the log was created
}

// Action is an action applied to the game.
type Action struct {
	Source string         `json:"source"` // network, timer, user
	Type   string         `json:"type"`   // startSetPlay, penalize, goal, ...
	Args   map[string]any `json:"args,omitempty"`
}

// Message is a datagram the GameController received.
type Message struct {
	Host netip.Addr
	Team uint8 // the sending team (teamMessage only)
	Data []byte
}

// GameState is the game's dynamic state (log.rs's Game), the members a monitor shows.
type GameState struct {
	Sides          string  `json:"sides"`
	Stopped        bool    `json:"stopped"`
	Phase          string  `json:"phase"`
	State          string  `json:"state"`
	SetPlay        string  `json:"set_play"`
	KickingSide    string  `json:"kicking_side,omitempty"` // home, away; "" for none
	PrimaryTimer   Timer   `json:"primary_timer"`
	SecondaryTimer Timer   `json:"secondary_timer"`
	Teams          [2]Team `json:"teams"` // home, away
}

// Timer is one of the game's timers.
type Timer struct {
	Started   bool          `json:"started"`
	Remaining time.Duration `json:"remaining_ns"`
}

// Team is one team's part of a GameState.
type Team struct {
	Goalkeeper           uint8    `json:"goalkeeper"` // 0: none
	Score                uint8    `json:"score"`
	PenaltyCounter       uint32   `json:"penalty_counter"`
	TimeoutBudget        uint32   `json:"timeout_budget"`
	MessageBudget        uint32   `json:"message_budget"`
	IllegalCommunication bool     `json:"illegal_communication"`
	PenaltyShot          uint32   `json:"penalty_shot"`
	Players              []Player `json:"players"`
}

// Player is one player of a Team.
type Player struct {
	Penalty      string `json:"penalty"` // noPenalty, pushing, substitute, ...
	PenaltyTimer Timer  `json:"penalty_timer"`
	Cautions     uint8  `json:"cautions"`
}
