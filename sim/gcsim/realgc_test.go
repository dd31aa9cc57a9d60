package gcsim

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/gcapi"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// twin is one step of a game played on the simulator and on the GameController's own
// logic: time passes, then the referee's action on each (sim, real), then team messages.
type twin struct {
	wait time.Duration
	sim  Action
	real []gcapi.Action
	// msgs are team messages of A (home) and B (away); drain makes B send its whole
	// remaining budget and one more.
	msgs  [2]int
	drain bool
	// skip names packet fields the simulator does not model at this step.
	skip []string
}

// TestAgainstGameController plays one scripted game, with extra time, additional time,
// team messages in every state, a team that sends past its budget and the penalty
// shoot-out, on gc-sim and on the GameController's game logic (game_controller_api,
// loaded at run time; see package gcapi), and compares their control packets field by
// field after every step.
func TestAgainstGameController(t *testing.T) {
	lib, params, err := gcapi.Locate(".")
	if err != nil {
		t.Skipf("the GameController's game logic is not available (%v): %s", err, gcapi.Where)
	}
	l, err := gcapi.Open(lib)
	if errors.Is(err, gcapi.ErrNoCgo) {
		t.Skip("loading the GameController's library needs cgo")
	}
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(params)
	if err != nil {
		t.Fatal(err)
	}
	// Team 17 (home, A) and 5 (away, B) in the simulator's colours; 7 players (small).
	real, err := l.NewGame(y, [2]gcapi.Team{
		{Number: teamA, FieldPlayerColor: gcapi.Color(fieldColours[SideA]), GoalkeeperColor: gcapi.Color(keeperColours[SideA])},
		{Number: teamB, FieldPlayerColor: gcapi.Color(fieldColours[SideB]), GoalkeeperColor: gcapi.Color(keeperColours[SideB])},
	}, gcapi.Home, gcapi.HomeDefendsLeftGoal, true)
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	sim := newGame(gcproto.LayoutHSL20, [2]uint8{teamA, teamB}, 7, DefaultTiming().withDefaults(), BudgetHSL)

	home, away := gcapi.Home, gcapi.Away
	a := func(x ...gcapi.Action) []gcapi.Action { return x }
	set, playing, finish := StateChange{To: gcproto.StateSet}, StateChange{To: gcproto.StatePlaying}, StateChange{To: gcproto.StateFinished}
	steps := []twin{
		{msgs: [2]int{3, 1}}, // INITIAL: not counted
		{sim: Ready{KickOff: SideA}, real: a(gcapi.StartSetPlay(&home, gcapi.KickOff)), msgs: [2]int{5, 2}},
		{wait: 10 * time.Second, msgs: [2]int{1, 1}},
		{sim: set, real: a(gcapi.WaitForSetPlay), msgs: [2]int{2, 0}},
		{sim: playing, real: a(gcapi.FreeSetPlay), msgs: [2]int{4, 4}},
		{wait: 4 * time.Second, msgs: [2]int{1, 2}},
		{sim: Stop{}, real: a(gcapi.StopPlay(false))},
		{wait: 3 * time.Second, sim: Resume{}, real: a(gcapi.StopPlay(true))}, // the kick-off's time halts
		{wait: 80 * time.Second, msgs: [2]int{100, 50}},                       // kick-off over
		{sim: Stop{}, real: a(gcapi.StopPlay(false)), msgs: [2]int{1, 1}},
		{wait: 5 * time.Second, sim: Resume{}, real: a(gcapi.StopPlay(true))},
		{sim: Goal{Team: SideB}, real: a(gcapi.Goal(away)), msgs: [2]int{1, 1}},
		{wait: 5 * time.Second, sim: AdditionalTime{}, real: a(gcapi.AddAdditionalTime)}, // READY: the clock runs
		{sim: set, real: a(gcapi.WaitForSetPlay)},
		{sim: playing, real: a(gcapi.FreeSetPlay)},
		{wait: 3 * time.Second, sim: finish, real: a(gcapi.FinishHalf), msgs: [2]int{9, 9}}, // FINISHED: not counted
		{wait: 30 * time.Second, sim: SecondHalf{}, real: a(gcapi.SwitchHalf), msgs: [2]int{2, 2}},
		{wait: 2 * time.Second, sim: Ready{KickOff: NoSide}, real: a(gcapi.StartSetPlay(&away, gcapi.KickOff)), msgs: [2]int{3, 3}},
		{sim: set, real: a(gcapi.WaitForSetPlay)},
		{sim: playing, real: a(gcapi.FreeSetPlay), drain: true}, // B: illegal communication, score 0
		{wait: 20 * time.Second, msgs: [2]int{10, 10}},
		{sim: Goal{Team: SideB}, real: a(gcapi.Goal(away))}, // not counted: 0:0
		{sim: finish, real: a(gcapi.FinishHalf)},
		{sim: ExtraTime{}, real: a(gcapi.StartExtraTime), msgs: [2]int{1, 1}}, // A +6000, B nothing
		{sim: Ready{KickOff: NoSide}, real: a(gcapi.StartSetPlay(&home, gcapi.KickOff)), msgs: [2]int{6, 6}},
		{sim: set, real: a(gcapi.WaitForSetPlay)},
		{sim: playing, real: a(gcapi.FreeSetPlay)},
		{wait: 70 * time.Second, sim: finish, real: a(gcapi.FinishHalf)},
		{sim: AdditionalTime{}, real: a(gcapi.AddAdditionalTime)}, // FINISHED, 230 s left: +60 s
		{wait: 10 * time.Second, sim: SecondHalf{}, real: a(gcapi.SwitchHalf)},
		{sim: Ready{KickOff: NoSide}, real: a(gcapi.StartSetPlay(&away, gcapi.KickOff)), msgs: [2]int{7, 7}},
		{sim: set, real: a(gcapi.WaitForSetPlay)},
		{sim: playing, real: a(gcapi.FreeSetPlay), msgs: [2]int{8, 0}},
		{wait: 30 * time.Second, sim: finish, real: a(gcapi.FinishHalf)},
		{sim: Shootout{}, real: a(gcapi.StartPenaltyShootout(gcapi.HomeDefendsRightGoal)), msgs: [2]int{5, 5}},
		// The shoot-out's SET: the GameController starts the shot's clock and counts the
		// shot, which the simulator does not model; messages do not count.
		{sim: set, real: a(gcapi.WaitForPenaltyShot), msgs: [2]int{5, 5},
			skip: []string{"SecsRemaining", "Teams[0].PenaltyShot", "Teams[1].PenaltyShot"}},
	}
	for i, st := range steps {
		what := fmt.Sprintf("step %d (%v)", i, st.sim)
		if st.wait > 0 {
			real.Seek(st.wait)
			sim.advance(st.wait, func(string) {})
		}
		if st.sim != nil {
			_, simErr := st.sim.apply(sim)
			for _, ra := range st.real {
				if ok := real.Apply(ra); ok != (simErr == nil) {
					t.Fatalf("%s: the GameController took %v: %v; the simulator: %v", what, ra, ok, simErr)
				}
			}
		}
		n := st.msgs
		if st.drain {
			n[SideB] = sim.team[SideB].budget + 1
		}
		for s, side := range []gcapi.Side{home, away} {
			for range n[s] {
				real.Apply(gcapi.TeamMessage(side, false))
				sim.teamMessage(Side(s), 100)
			}
		}
		var want, got, simWire gcproto.Packet
		if err := gcproto.Decode(real.Read(uint8(i), false), &want); err != nil {
			t.Fatalf("%s: the GameController's packet: %v", what, err)
		}
		sim.packet(&simWire, uint8(i))
		b, err := simWire.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := gcproto.Decode(b, &got); err != nil {
			t.Fatalf("%s: the simulator's packet: %v", what, err)
		}
		for _, d := range diffFields(reflect.ValueOf(got), reflect.ValueOf(want), "", st.skip) {
			t.Errorf("%s: %s", what, d)
		}
	}
	// The game the script means to play: B illegal with no extra budget, A with 12000
	// + 600 + 6000 minus what it sent in counted states.
	if !sim.team[SideB].illegal || sim.team[SideB].budget != 0 || sim.team[SideA].illegal || sim.phase != gcproto.GamePhasePenaltyShoot {
		t.Errorf("end: B illegal %v budget %d, A illegal %v, phase %v", sim.team[SideB].illegal, sim.team[SideB].budget, sim.team[SideA].illegal, sim.phase)
	}
	t.Logf("end: A budget %d, B budget %d", sim.team[SideA].budget, sim.team[SideB].budget)
}

// diffFields lists the fields of two values of the same type that differ, by path.
func diffFields(got, want reflect.Value, path string, skip []string) []string {
	for _, s := range skip {
		if s == path {
			return nil
		}
	}
	switch got.Kind() {
	case reflect.Struct:
		var out []string
		for i := range got.NumField() {
			name := got.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			out = append(out, diffFields(got.Field(i), want.Field(i), name, skip)...)
		}
		return out
	case reflect.Array:
		var out []string
		for i := range got.Len() {
			out = append(out, diffFields(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i), skip)...)
		}
		return out
	}
	if !reflect.DeepEqual(got.Interface(), want.Interface()) {
		return []string{fmt.Sprintf("%s = %v, the GameController has %v", path, got.Interface(), want.Interface())}
	}
	return nil
}
