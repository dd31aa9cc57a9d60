package worldinfo

import (
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Game is what the component needs to know about the game from the GameController.
// State and colours use the dmsgs.GCInfo constants.
type Game struct {
	State       uint8 // dmsgs.GCInfoState*
	TeamColour  uint8 // our colour, dmsgs.GCInfoTeam*
	EnemyColour uint8 // the opponent's colour
	OurScore    uint8
	EnemyScore  uint8
	FirstHalf   bool
	// Kickoff is true when our team has the kick-off (or the current kick); DropBall when
	// the kick-off is a drop ball.
	Kickoff  bool
	DropBall bool
	// Penalised is true while this robot is penalised, with the seconds left.
	Penalised           bool
	SecsTillUnpenalised uint8
}

// GameSource gives the component the GameController's view once per send cycle.
// ok is false while no GameController is heard; then no game state and no penalty are
// sent. It is called from the component's goroutine and must be safe for concurrent use
// with whatever updates it.
type GameSource interface {
	WorldInfoGame() (g Game, ok bool)
}

// GameFunc adapts a function to a GameSource.
type GameFunc func() (Game, bool)

// WorldInfoGame calls f.
func (f GameFunc) WorldInfoGame() (Game, bool) { return f() }

// GameFromGCInfo returns the Game view of a GCInfo message; ok is its connected flag.
func GameFromGCInfo(g *dmsgs.GCInfo) (Game, bool) {
	if g == nil {
		return Game{}, false
	}
	return Game{
		State:               g.State,
		TeamColour:          g.TeamColour,
		EnemyColour:         g.EnemyColour,
		OurScore:            g.OurScore,
		EnemyScore:          g.EnemyScore,
		FirstHalf:           g.FirstHalf,
		Kickoff:             g.Kickoff,
		DropBall:            g.DropBall,
		Penalised:           g.Penalised,
		SecsTillUnpenalised: g.SecsTillUnpenalised,
	}, g.Connected
}

// fawkesGame is a Game in Fawkes' terms.
type fawkesGame struct {
	state         int
	stateTeam     wi.Team
	ourTeam       wi.Team
	goal          wi.GoalColor
	cyan, magenta int
	half          wi.Half
	penalty       wi.PenaltyCode
	secs          int
}

// toFawkes maps a Game onto the game state record and our penalty (see the package
// documentation); ok is false for a GameController state it does not know.
func toFawkes(g Game) (f fawkesGame, ok bool) {
	switch g.State {
	case dmsgs.GCInfoStateInitial, dmsgs.GCInfoStateStandby:
		f.state = wi.SPLInitial
	case dmsgs.GCInfoStateReady:
		f.state = wi.SPLReady
	case dmsgs.GCInfoStateSet:
		f.state = wi.SPLSet
	case dmsgs.GCInfoStatePlaying:
		f.state = wi.SPLPlay
	case dmsgs.GCInfoStateFinished:
		f.state = wi.SPLFinished
	default:
		return f, false
	}
	them := wi.TeamMagenta
	f.ourTeam, f.goal, f.cyan, f.magenta = wi.TeamCyan, wi.GoalBlue, int(g.OurScore), int(g.EnemyScore)
	if g.TeamColour > g.EnemyColour {
		them = wi.TeamCyan
		f.ourTeam, f.goal, f.cyan, f.magenta = wi.TeamMagenta, wi.GoalYellow, int(g.EnemyScore), int(g.OurScore)
	}
	switch {
	case g.DropBall:
		f.stateTeam = wi.TeamBoth
	case g.Kickoff:
		f.stateTeam = f.ourTeam
	default:
		f.stateTeam = them
	}
	f.half = wi.HalfFirst
	if !g.FirstHalf {
		f.half = wi.HalfSecond
	}
	f.penalty = wi.PenaltyNone
	if g.Penalised {
		f.penalty, f.secs = wi.PenaltyManual, int(g.SecsTillUnpenalised)
	}
	return f, true
}
