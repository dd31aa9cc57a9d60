package worldinfo

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

func TestToFawkes(t *testing.T) {
	blue, red := dmsgs.GCInfoTeamBlue, dmsgs.GCInfoTeamRed
	for _, tc := range []struct {
		name string
		g    Game
		want fawkesGame
		ok   bool
	}{
		{"blue against red, our kick-off, first half",
			Game{State: dmsgs.GCInfoStateReady, TeamColour: blue, EnemyColour: red, OurScore: 2, EnemyScore: 1,
				FirstHalf: true, Kickoff: true},
			fawkesGame{state: wi.SPLReady, stateTeam: wi.TeamCyan, ourTeam: wi.TeamCyan, goal: wi.GoalBlue,
				cyan: 2, magenta: 1, half: wi.HalfFirst, penalty: wi.PenaltyNone}, true},
		{"red against blue, their kick-off, second half",
			Game{State: dmsgs.GCInfoStateSet, TeamColour: red, EnemyColour: blue, OurScore: 2, EnemyScore: 1},
			fawkesGame{state: wi.SPLSet, stateTeam: wi.TeamCyan, ourTeam: wi.TeamMagenta, goal: wi.GoalYellow,
				cyan: 1, magenta: 2, half: wi.HalfSecond, penalty: wi.PenaltyNone}, true},
		{"red against blue, our kick-off",
			Game{State: dmsgs.GCInfoStatePlaying, TeamColour: red, EnemyColour: blue, Kickoff: true, FirstHalf: true},
			fawkesGame{state: wi.SPLPlay, stateTeam: wi.TeamMagenta, ourTeam: wi.TeamMagenta, goal: wi.GoalYellow,
				half: wi.HalfFirst, penalty: wi.PenaltyNone}, true},
		{"drop ball",
			Game{State: dmsgs.GCInfoStateReady, TeamColour: dmsgs.GCInfoTeamBlack, EnemyColour: dmsgs.GCInfoTeamWhite,
				Kickoff: true, DropBall: true, FirstHalf: true},
			fawkesGame{state: wi.SPLReady, stateTeam: wi.TeamBoth, ourTeam: wi.TeamCyan, goal: wi.GoalBlue,
				half: wi.HalfFirst, penalty: wi.PenaltyNone}, true},
		{"same colour: we are cyan",
			Game{State: dmsgs.GCInfoStateFinished, TeamColour: 5, EnemyColour: 5, FirstHalf: true},
			fawkesGame{state: wi.SPLFinished, stateTeam: wi.TeamMagenta, ourTeam: wi.TeamCyan, goal: wi.GoalBlue,
				half: wi.HalfFirst, penalty: wi.PenaltyNone}, true},
		{"standby is initial, penalised",
			Game{State: dmsgs.GCInfoStateStandby, FirstHalf: true, Penalised: true, SecsTillUnpenalised: 27},
			fawkesGame{state: wi.SPLInitial, stateTeam: wi.TeamMagenta, ourTeam: wi.TeamCyan, goal: wi.GoalBlue,
				half: wi.HalfFirst, penalty: wi.PenaltyManual, secs: 27}, true},
		{"initial", Game{State: dmsgs.GCInfoStateInitial, FirstHalf: true},
			fawkesGame{state: wi.SPLInitial, stateTeam: wi.TeamMagenta, ourTeam: wi.TeamCyan, goal: wi.GoalBlue,
				half: wi.HalfFirst, penalty: wi.PenaltyNone}, true},
		{"unknown state", Game{State: 6}, fawkesGame{}, false},
	} {
		got, ok := toFawkes(tc.g)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s: got %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestGameFromGCInfo(t *testing.T) {
	gc := &dmsgs.GCInfo{
		Connected: true, State: dmsgs.GCInfoStatePlaying, TeamColour: 3, EnemyColour: 4, OurScore: 5,
		EnemyScore: 6, FirstHalf: true, Kickoff: true, DropBall: true, Penalised: true, SecsTillUnpenalised: 9,
		SecsRemaining: 100, MessageBudget: 7,
	}
	want := Game{State: dmsgs.GCInfoStatePlaying, TeamColour: 3, EnemyColour: 4, OurScore: 5, EnemyScore: 6,
		FirstHalf: true, Kickoff: true, DropBall: true, Penalised: true, SecsTillUnpenalised: 9}
	if g, ok := GameFromGCInfo(gc); !ok || g != want {
		t.Errorf("got %+v %v, want %+v", g, ok, want)
	}
	gc.Connected = false
	if _, ok := GameFromGCInfo(gc); ok {
		t.Error("disconnected GCInfo reported as ok")
	}
	if _, ok := GameFromGCInfo(nil); ok {
		t.Error("nil GCInfo reported as ok")
	}
	var src GameSource = GameFunc(func() (Game, bool) { return want, true })
	if g, ok := src.WorldInfoGame(); !ok || g != want {
		t.Errorf("GameFunc: %+v %v", g, ok)
	}
}
