package gcsim

import (
	"errors"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// step is one thing a budget case does to the game: an action (which must be taken,
// or refused with ErrState when refused is set), team messages, or time passing.
type step struct {
	do      Action
	refused bool
	msgs    int  // team messages of side from
	from    Side // sender of msgs
	size    int  // payload size of msgs (0: 100 bytes)
	wait    time.Duration
}

func act(a Action) step                  { return step{do: a} }
func refuse(a Action) step               { return step{do: a, refused: true} }
func send(s Side, n int) step            { return step{msgs: n, from: s} }
func sendSized(s Side, n, size int) step { return step{msgs: n, from: s, size: size} }
func wait(d time.Duration) step          { return step{wait: d} }

// play runs steps on g and fails the test at the first step that goes otherwise.
func play(t *testing.T, g *game, steps []step) {
	t.Helper()
	for i, st := range steps {
		switch {
		case st.do != nil:
			_, err := st.do.apply(g)
			if st.refused != errors.Is(err, ErrState) || !st.refused && err != nil {
				t.Fatalf("step %d %s: err %v, refused want %v", i, st.do, err, st.refused)
			}
		case st.msgs > 0:
			for range st.msgs {
				g.teamMessage(st.from, max(st.size, 100))
			}
		default:
			g.advance(st.wait, func(string) {})
		}
	}
}

// fullGame plays two drawn halves up to FINISHED of the second half.
var fullGame = []step{
	act(Ready{KickOff: SideA}), act(StateChange{To: gcproto.StateSet}), act(StateChange{To: gcproto.StatePlaying}),
	act(StateChange{To: gcproto.StateFinished}), act(SecondHalf{}),
	act(Ready{}), act(StateChange{To: gcproto.StateSet}), act(StateChange{To: gcproto.StatePlaying}),
	act(StateChange{To: gcproto.StateFinished}),
}

// TestBudgetRules checks the HSL 7 budget rules of the GameController's actions
// (team_message.rs, add_additional_time.rs, start_extra_time.rs, params.yaml): 12000 per
// team, +600 per additional minute and +6000 at extra time for teams whose communication
// is legal; only READY, SET and PLAYING count, never the penalty shoot-out; a message
// at budget 0 or over 512 bytes makes the communication illegal and the score 0.
func TestBudgetRules(t *testing.T) {
	playing := []step{act(Ready{KickOff: SideA}), act(StateChange{To: gcproto.StateSet}), act(StateChange{To: gcproto.StatePlaying})}
	cat := func(parts ...[]step) []step {
		var all []step
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	for _, tc := range []struct {
		name    string
		steps   []step
		budget  [2]int
		illegal [2]bool
		score   [2]int
		phase   gcproto.GamePhase
	}{
		{name: "INITIAL does not count", steps: []step{send(SideA, 5)}, budget: [2]int{12000, 12000}},
		{name: "READY SET PLAYING count", steps: []step{
			act(Ready{KickOff: SideA}), send(SideA, 1), act(StateChange{To: gcproto.StateSet}), send(SideA, 2),
			act(StateChange{To: gcproto.StatePlaying}), send(SideA, 3), send(SideB, 4),
		}, budget: [2]int{11994, 11996}},
		{name: "FINISHED does not count", steps: cat(playing, []step{act(StateChange{To: gcproto.StateFinished}), send(SideA, 7)}),
			budget: [2]int{12000, 12000}},
		{name: "additional minute", steps: cat(playing, []step{wait(70 * time.Second), act(Goal{Team: SideA}), act(AdditionalTime{})}),
			budget: [2]int{12600, 12600}, score: [2]int{1, 0}},
		{name: "additional minute refused in PLAYING", steps: cat(playing, []step{wait(70 * time.Second), refuse(AdditionalTime{})}),
			budget: [2]int{12000, 12000}},
		{name: "additional minute refused beyond the half", steps: []step{act(Ready{KickOff: SideA}), refuse(AdditionalTime{})},
			budget: [2]int{12000, 12000}},
		{name: "no addition for an illegal team", steps: cat([]step{act(Budget{Team: SideB, N: 0})}, playing, []step{
			send(SideB, 1), wait(70 * time.Second), act(Goal{Team: SideB}), act(AdditionalTime{}),
		}), budget: [2]int{12600, 0}, illegal: [2]bool{false, true}},
		{name: "sending at 0: illegal, score 0, goals lost", steps: cat(playing, []step{
			act(Goal{Team: SideB}), act(StateChange{To: gcproto.StateSet}), act(StateChange{To: gcproto.StatePlaying}),
			act(Budget{Team: SideB, N: 1}), send(SideB, 1), act(Goal{Team: SideA}), act(StateChange{To: gcproto.StateSet}),
			act(StateChange{To: gcproto.StatePlaying}), send(SideB, 1), act(Goal{Team: SideB}),
		}), budget: [2]int{12000, 0}, illegal: [2]bool{false, true}, score: [2]int{1, 0}},
		{name: "over 512 bytes: illegal, still counted", steps: cat(playing, []step{sendSized(SideA, 1, 513), sendSized(SideB, 1, 512)}),
			budget: [2]int{11999, 11999}, illegal: [2]bool{true, false}},
		{name: "extra time", steps: cat(fullGame, []step{send(SideA, 3), act(ExtraTime{})}),
			budget: [2]int{18000, 18000}, phase: gcproto.GamePhaseOvertime},
		{name: "extra time: no addition for an illegal team", steps: cat([]step{act(Budget{Team: SideA, N: 0})}, fullGame[:3],
			[]step{send(SideA, 1)}, fullGame[3:], []step{act(ExtraTime{})}),
			budget: [2]int{0, 18000}, illegal: [2]bool{true, false}, phase: gcproto.GamePhaseOvertime},
		{name: "extra time refused without a draw", steps: cat(fullGame[:3], []step{act(Goal{Team: SideA})}, fullGame[3:],
			[]step{refuse(ExtraTime{})}), budget: [2]int{12000, 12000}, score: [2]int{1, 0}},
		{name: "extra time counts", steps: cat(fullGame, []step{act(ExtraTime{}), act(Ready{}), send(SideB, 2)}),
			budget: [2]int{18000, 17998}, phase: gcproto.GamePhaseOvertime},
		{name: "penalty shoot-out never counts", steps: cat(fullGame, []step{
			act(ExtraTime{}), act(Ready{}), act(StateChange{To: gcproto.StatePlaying}), act(StateChange{To: gcproto.StateFinished}),
			act(SecondHalf{}), act(Ready{}), act(StateChange{To: gcproto.StatePlaying}), act(StateChange{To: gcproto.StateFinished}),
			act(Budget{Team: SideA, N: 0}), act(Shootout{}), act(StateChange{To: gcproto.StateSet}), send(SideA, 3),
			act(StateChange{To: gcproto.StatePlaying}), send(SideB, 3),
		}), budget: [2]int{0, 18000}, phase: gcproto.GamePhasePenaltyShoot},
		{name: "budget field clamps at 65535", steps: cat([]step{act(Budget{Team: SideA, N: 65000})}, playing,
			[]step{wait(70 * time.Second), act(Goal{Team: SideA}), act(AdditionalTime{})}),
			budget: [2]int{65535, 12600}, score: [2]int{1, 0}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			g := newGame(gcproto.LayoutHSL20, [2]uint8{teamA, teamB}, 7, DefaultTiming().withDefaults(), BudgetHSL)
			play(t, g, tc.steps)
			for s := range g.team {
				tm := g.team[s]
				if tm.budget != tc.budget[s] || tm.illegal != tc.illegal[s] || tm.score != tc.score[s] {
					t.Errorf("team %s: budget %d illegal %v score %d, want %d %v %d",
						Side(s), tm.budget, tm.illegal, tm.score, tc.budget[s], tc.illegal[s], tc.score[s])
				}
			}
			if g.phase != tc.phase {
				t.Errorf("phase %v, want %v", g.phase, tc.phase)
			}
			var p gcproto.Packet
			g.packet(&p, 0)
			for i, side := range g.wireOrder() {
				if got := int(p.Teams[i].MessageBudget); got != tc.budget[side] {
					t.Errorf("packet: team %s messageBudget %d, want %d", side, got, tc.budget[side])
				}
			}
			if p.GamePhase != tc.phase {
				t.Errorf("packet: gamePhase %v, want %v", p.GamePhase, tc.phase)
			}
		})
	}
}

// TestExtraTimeAndShootout checks the state the two new phases start in.
func TestExtraTimeAndShootout(t *testing.T) {
	g := newGame(gcproto.LayoutHSL20, [2]uint8{teamA, teamB}, 7, DefaultTiming().withDefaults(), BudgetHSL)
	play(t, g, append(append([]step{}, fullGame...), act(ExtraTime{})))
	var p gcproto.Packet
	g.packet(&p, 0)
	if p.State != gcproto.StateInitial || !p.FirstHalf || p.KickingTeam != teamA || p.SecsRemaining != 300 ||
		p.Teams[0].TeamNumber != teamA || p.GamePhase != gcproto.GamePhaseOvertime {
		t.Errorf("extra time: %v firstHalf %v kicking %d secs %d first team %d phase %v",
			p.State, p.FirstHalf, p.KickingTeam, p.SecsRemaining, p.Teams[0].TeamNumber, p.GamePhase)
	}
	play(t, g, []step{act(Ready{}), act(StateChange{To: gcproto.StateFinished}), act(SecondHalf{})})
	g.packet(&p, 0)
	if p.FirstHalf || p.KickingTeam != teamB || p.SecsRemaining != 300 || p.Teams[0].TeamNumber != teamB {
		t.Errorf("second half of extra time: firstHalf %v kicking %d secs %d first team %d",
			p.FirstHalf, p.KickingTeam, p.SecsRemaining, p.Teams[0].TeamNumber)
	}
	play(t, g, []step{act(Ready{}), act(StateChange{To: gcproto.StateFinished}), refuse(ExtraTime{}), act(Shootout{}), refuse(AdditionalTime{})})
	g.packet(&p, 0)
	if p.GamePhase != gcproto.GamePhasePenaltyShoot || p.State != gcproto.StateInitial || p.KickingTeam != teamA ||
		p.SecsRemaining != 0 || p.Teams[0].Goalkeeper != 0 || p.Teams[0].Players[0].Penalty != substitute(gcproto.LayoutHSL20) {
		t.Errorf("shoot-out: phase %v %v kicking %d secs %d keeper %d player 1 penalty %d",
			p.GamePhase, p.State, p.KickingTeam, p.SecsRemaining, p.Teams[0].Goalkeeper, p.Teams[0].Players[0].Penalty)
	}
}

func TestParseBudgetActions(t *testing.T) {
	for text, want := range map[string]Action{"additional-time": AdditionalTime{}, "extra_time": ExtraTime{},
		"shootout": Shootout{}, "penalty-shootout": Shootout{}} {
		a, err := ParseAction(text, setupHSL)
		if err != nil || a != want {
			t.Errorf("%q: %v %v, want %v", text, a, err, want)
		}
	}
	if _, err := ParseAction("extra-time", Setup{Layout: gcproto.LayoutSPL18, Teams: [2]uint8{1, 2}}); !errors.Is(err, ErrAction) {
		t.Errorf("extra-time in SPL: %v, want ErrAction", err)
	}
}

// TestStoppedClock: stopped play halts the kick-off's time in both HSL versions, the
// game clock only in v19 (GameController 7 lets it run on).
func TestStoppedClock(t *testing.T) {
	for _, tc := range []struct {
		l                 gcproto.Layout
		secs, kickOffSecs int32
	}{{gcproto.LayoutHSL19, 598, 8}, {gcproto.LayoutHSL20, 593, 8}} {
		g := newGame(tc.l, [2]uint8{teamA, teamB}, 5, DefaultTiming().withDefaults(), BudgetHSL)
		play(t, g, []step{act(Ready{KickOff: SideA}), act(StateChange{To: gcproto.StateSet}), act(StateChange{To: gcproto.StatePlaying}),
			wait(2 * time.Second), act(Stop{}), wait(5 * time.Second)})
		var p gcproto.Packet
		g.packet(&p, 0)
		if !p.Stopped || p.SecsRemaining != tc.secs || p.SecondaryTime != tc.kickOffSecs {
			t.Errorf("%v: stopped %v secs %d kick-off %d, want true %d %d", tc.l, p.Stopped, p.SecsRemaining, p.SecondaryTime, tc.secs, tc.kickOffSecs)
		}
	}
}
