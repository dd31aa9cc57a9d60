package node

import (
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/worldinfo"
)

// snapshotter is what the game views read: the GameController component's Snapshot.
type snapshotter interface {
	Snapshot() gamecontroller.Snapshot
}

// gameView adapts the GameController component to the team component's GameView and
// the world info component's GameSource. Both read the component's state at call time
// (no copy is kept here), so they see a packet as soon as the GameController component
// has accepted it.
type gameView struct{ gc snapshotter }

// Snapshot implements team.GameView.
func (v gameView) Snapshot() team.GameSnapshot { return TeamGame(v.gc.Snapshot()) }

// Changed implements team.GameNotifier: the GameController component's change signal,
// or nil (the view never changes) for a snapshotter without one.
func (v gameView) Changed() <-chan struct{} {
	if n, ok := v.gc.(interface{ Changed() <-chan struct{} }); ok {
		return n.Changed()
	}
	return nil
}

// OnChange implements team.GameFuncNotifier: the GameController component's change
// calls, or none for a snapshotter without them.
func (v gameView) OnChange(f func()) {
	if n, ok := v.gc.(interface{ OnChange(func()) }); ok {
		n.OnChange(f)
	}
}

// WorldInfoGame implements worldinfo.GameSource.
func (v gameView) WorldInfoGame() (worldinfo.Game, bool) { return WorldInfoGame(v.gc.Snapshot()) }

// TeamGame converts a GameController snapshot into the team component's view. Before the
// first packet it is team.NoGame (no budget); afterwards the last derived state, with
// Connected telling whether it is current. The values are those of the GCInfo message.
func TeamGame(s gamecontroller.Snapshot) team.GameSnapshot {
	if !s.Valid {
		return team.NoGame
	}
	g := &s.GCInfo
	return team.GameSnapshot{
		Connected:      s.Connected,
		State:          uint8(g.State),
		GamePhase:      uint8(g.GamePhase),
		SetPlay:        uint8(g.SetPlay),
		SecondaryState: g.SecondaryState,
		Penalised:      g.Penalised,
		Stopped:        g.Stopped,
		FirstHalf:      g.FirstHalf,
		SecsRemaining:  int(g.SecsRemaining),
		MessageBudget:  g.MessageBudget,
		Colour:         uint8(g.OurColour),
	}
}

// WorldInfoGame converts a GameController snapshot into the world info component's view;
// ok is false while no GameController is connected, so no game state is sent then.
func WorldInfoGame(s gamecontroller.Snapshot) (g worldinfo.Game, ok bool) {
	if !s.Valid {
		return worldinfo.Game{}, false
	}
	i := &s.GCInfo
	return worldinfo.Game{
		State:               uint8(i.State),
		TeamColour:          uint8(i.OurColour),
		EnemyColour:         uint8(i.EnemyColour),
		OurScore:            i.OurScore,
		EnemyScore:          i.EnemyScore,
		FirstHalf:           i.FirstHalf,
		Kickoff:             i.Kickoff,
		DropBall:            i.DropBall,
		Penalised:           i.Penalised,
		SecsTillUnpenalised: i.SecsTillUnpenalised,
	}, s.Connected
}
