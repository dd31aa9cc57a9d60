package team

import "github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"

// GameView is the team component's view of the GameController: whatever keeps the
// referee state (the GameController component) implements it. Snapshot is called on
// every tick and wake of the component's goroutine, so it must be safe for concurrent use
// and fast (no I/O, no waiting).
type GameView interface {
	Snapshot() GameSnapshot
}

// GameNotifier is a GameView that says when its snapshot may have changed: at every
// GameController packet, also one that changes nothing (its budget figure is taken
// again, BudgetTracker). With one, and a clock that makes timers (clock.TimerClock), the
// component sleeps until its next due event instead of waking on every tick, and
// re-plans on every value of Changed. A nil channel means the snapshot never changes.
// Time alone must not change a snapshot's State, GamePhase, Penalised, Stopped,
// FirstHalf, SecsRemaining or MessageBudget.
type GameNotifier interface {
	GameView
	Changed() <-chan struct{}
}

// GameFuncNotifier is a GameNotifier that can also call a function at every change
// (when Changed receives a value), on the goroutine that changed the view, so that the
// component's owner is woken with no goroutine in between. f must return at once; nil
// stops the calls (one in progress may still finish).
type GameFuncNotifier interface {
	GameNotifier
	OnChange(f func())
}

// GameSnapshot is the referee state the team rules read. Values follow dmsgs GCInfo;
// SnapshotOf converts one.
//
// While no GameController is heard (Connected false) the view keeps the last values it
// had (a robot that lost the GameController in PLAYING is probably still playing, and the
// GameController still counts its messages) or, before the first packet, the zero value
// with MessageBudget -1.
type GameSnapshot struct {
	// Connected: a valid GameController packet for our team arrived recently. Goes into
	// the packet (gc_connected).
	Connected bool
	// State is the game state: StateInitial .. StateStandby (GCInfo.STATE_*).
	State uint8
	// GamePhase is GCInfo.GAME_PHASE_* (PhaseNormal ...).
	GamePhase uint8
	// SetPlay is GCInfo.SET_PLAY_*; it goes into dnet packets.
	SetPlay uint8
	// SecondaryState is the HL secondary state (GCInfo.STATE2_*); it goes into the
	// packets as gc_state2.
	SecondaryState uint8
	// Penalised: this robot is penalised. A penalised robot sends nothing (monitor copies
	// excepted).
	Penalised bool
	// Stopped: the GameController says play is stopped (HSL).
	Stopped bool
	// FirstHalf and SecsRemaining (in the current half) give the time the budget must last.
	FirstHalf     bool
	SecsRemaining int
	// MessageBudget is the number of team messages our team may still send this game,
	// as the GameController last said; -1 when unknown (no GameController, or a version
	// without budgets). The component takes it as truth at every packet (every value of
	// GameNotifier.Changed in a timed Run; otherwise whenever it changes) and counts
	// messages itself in between.
	MessageBudget int
	// Colour is our team's colour (GCInfo.TEAM_*), while Connected; it goes into robocup
	// packets of the profile none.
	Colour uint8
}

// NoGame is the snapshot used when no GameView is given: not connected, INITIAL, no
// budget.
var NoGame = GameSnapshot{MessageBudget: -1}

// GameFunc adapts a function to GameView.
type GameFunc func() GameSnapshot

// Snapshot calls f.
func (f GameFunc) Snapshot() GameSnapshot { return f() }

// SnapshotOf returns the snapshot of a GCInfo message.
func SnapshotOf(g *dmsgs.GCInfo) GameSnapshot {
	return GameSnapshot{
		Connected:      g.Connected,
		State:          g.State,
		GamePhase:      g.GamePhase,
		SetPlay:        g.SetPlay,
		SecondaryState: g.SecondaryState,
		Penalised:      g.Penalised,
		Stopped:        g.Stopped,
		FirstHalf:      g.FirstHalf,
		SecsRemaining:  int(g.SecsRemaining),
		MessageBudget:  int(g.MessageBudget),
	}
}
