package gcsim

import (
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// AdditionalTime adds a minute of additional time to the half (HSL): secsRemaining grows
// by 60 s and every team whose communication is still legal gets
// messagesPerTeamPerAdditionalMinute (600) more messages. As in the GameController it is
// refused in PLAYING, in the penalty shoot-out and when the clock would exceed the
// half's length.
type AdditionalTime struct{}

func (AdditionalTime) String() string      { return "additional-time" }
func (AdditionalTime) check(s Setup) error { return checkHSL(s, "additional-time") }
func (AdditionalTime) apply(g *game) (bool, error) {
	switch {
	case g.state == gcproto.StatePlaying:
		return false, stateErr("additional time not in PLAYING")
	case g.phase == gcproto.GamePhasePenaltyShoot:
		return false, stateErr("additional time not in the penalty shoot-out")
	case g.secs+time.Minute >= g.halfLength():
		return false, stateErr("additional time would exceed the half's %v", g.halfLength())
	}
	g.secs += time.Minute
	g.addBudget(BudgetHSLMinute)
	return true, nil
}

// ExtraTime starts extra time (HSL) after a drawn second half: INITIAL of the first half
// of extra time (gamePhase 2), a clock of Timing.ExtraHalf, the kick-off for the team
// that kicked off the game, teams on their first-half sides, penalties lifted, and
// messagesPerTeamPerExtraTime (6000) more messages for every team whose communication is
// still legal.
type ExtraTime struct{}

func (ExtraTime) String() string      { return "extra-time" }
func (ExtraTime) check(s Setup) error { return checkHSL(s, "extra-time") }
func (ExtraTime) apply(g *game) (bool, error) {
	switch {
	case g.phase != gcproto.GamePhaseNormal || g.firstHalf || g.state != gcproto.StateFinished:
		return false, stateErr("extra time needs the second half FINISHED")
	case g.team[SideA].score != g.team[SideB].score:
		return false, stateErr("extra time needs a draw, score is %d:%d", g.team[SideA].score, g.team[SideB].score)
	}
	g.liftPenalties()
	g.addBudget(BudgetHSLExtra)
	g.phase = gcproto.GamePhaseOvertime
	g.firstHalf = true
	g.state = gcproto.StateInitial
	g.kick, g.kickSide = kickTeam, g.firstKickOff
	g.secs = g.timing.ExtraHalf
	return true, nil
}

// Shootout starts the penalty shoot-out (HSL) after a drawn last half: gamePhase 1,
// INITIAL, the kick for team A, no clock, no goalkeepers and every player a
// substitute (but those sent off). Team messages never count in the shoot-out.
type Shootout struct{}

func (Shootout) String() string      { return "shootout" }
func (Shootout) check(s Setup) error { return checkHSL(s, "shootout") }
func (Shootout) apply(g *game) (bool, error) {
	switch {
	case g.phase == gcproto.GamePhasePenaltyShoot || g.firstHalf || g.state != gcproto.StateFinished:
		return false, stateErr("the penalty shoot-out needs a second half FINISHED")
	case g.team[SideA].score != g.team[SideB].score:
		return false, stateErr("the penalty shoot-out needs a draw, score is %d:%d", g.team[SideA].score, g.team[SideB].score)
	}
	sub, sentOff := substitute(g.layout), sentOff(g.layout)
	for s := range g.team {
		for n := range g.team[s].players {
			if p := &g.team[s].players[n]; p.penalty != sentOff {
				*p = playerState{penalty: sub}
			}
		}
	}
	g.phase = gcproto.GamePhasePenaltyShoot
	g.state = gcproto.StateInitial
	g.setPlay = gcproto.SetPlayNone
	g.kick, g.kickSide = kickTeam, SideA
	g.secs = 0
	g.second, g.secondFor = 0, timerNone
	return true, nil
}

// liftPenalties ends every penalty but substitute and sent off.
func (g *game) liftPenalties() {
	sub, sentOff := substitute(g.layout), sentOff(g.layout)
	for s := range g.team {
		for n := range g.team[s].players {
			if p := &g.team[s].players[n]; p.penalty != sub && p.penalty != sentOff {
				*p = playerState{}
			}
		}
	}
}

// sentOff returns the layout's PENALTY_SENT_OFF code (0 when it has none).
func sentOff(l gcproto.Layout) gcproto.Penalty {
	p, _ := penaltyByName(l, "sent_off")
	return p
}
