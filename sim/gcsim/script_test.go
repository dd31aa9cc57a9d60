package gcsim

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

var setupHSL = Setup{Layout: gcproto.LayoutHSL20, Teams: [2]uint8{teamA, teamB}}

func TestParseScript(t *testing.T) {
	const text = `# a test game
half 2m            # two-minute halves
break 30s
0      initial
+3     ready 17    # kick-off for team 17 (A)
8.5    set
+1.5s  playing
1m     setplay THROW-IN b
+0s    setplay end
70     penalise 5 2 ball_holding 20s
70     penalise A 1 10
71     unpenalise b 2
72     stop
73     resume
74     goal B
75     dropball
76     budget A 100
2m30s  finish
+1m    second-half
`
	sc, err := ParseScript(strings.NewReader(text), setupHSL)
	if err != nil {
		t.Fatal(err)
	}
	s := time.Second
	want := Script{Half: 2 * time.Minute, Break: 30 * s, Steps: []Step{
		{0, StateChange{To: gcproto.StateInitial}, 4},
		{3 * s, Ready{KickOff: SideA}, 5},
		{8500 * ms, StateChange{To: gcproto.StateSet}, 6},
		{10 * s, StateChange{To: gcproto.StatePlaying}, 7},
		{60 * s, StartSetPlay{SetPlay: gcproto.SetPlayThrowIn, Team: SideB}, 8},
		{60 * s, EndSetPlay{}, 9},
		{70 * s, Penalise{Team: SideB, Player: 2, Penalty: 7, Duration: 20 * s}, 10},
		{70 * s, Penalise{Team: SideA, Player: 1, Penalty: 10}, 11},
		{71 * s, Unpenalise{Team: SideB, Player: 2}, 12},
		{72 * s, Stop{}, 13},
		{73 * s, Resume{}, 14},
		{74 * s, Goal{Team: SideB}, 15},
		{75 * s, DropBall{}, 16},
		{76 * s, Budget{Team: SideA, N: 100}, 17},
		{150 * s, StateChange{To: gcproto.StateFinished}, 18},
		{210 * s, SecondHalf{}, 19},
	}}
	if !reflect.DeepEqual(sc, want) {
		t.Errorf("got\n%+v\nwant\n%+v", sc, want)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for _, tc := range []struct {
		setup Setup
		text  string
		want  error
		msg   string
	}{
		{setupHSL, "0 initial\nfoo", ErrScript, "line 2"},
		{setupHSL, "0 initial\n1 jump", ErrAction, `unknown action "jump"`},
		{setupHSL, "5 ready\n4 set", ErrScript, "before the previous step"},
		{setupHSL, "x ready", ErrScript, `bad time "x"`},
		{setupHSL, "-1 ready", ErrScript, "outside"},
		{setupHSL, "-1s ready", ErrScript, "bad time"},
		{setupHSL, "1e9 ready", ErrScript, "outside"},
		{setupHSL, "half", ErrScript, "half wants one duration"},
		{setupHSL, "break -3s", ErrScript, "positive duration"},
		{setupHSL, "0 ready C", ErrAction, `team "C" is not A, B, 17 or 5`},
		{setupHSL, "0 ready 4", ErrAction, "team"},
		{setupHSL, "0 ready A B", ErrAction, "ready [TEAM]"},
		{setupHSL, "0 goal", ErrAction, "goal TEAM"},
		{setupHSL, "0 penalise A 6", ErrAction, "player 6 outside 1..5"},
		{setupHSL, "0 penalise A 0", ErrAction, "player 0"},
		{setupHSL, "0 penalise A x", ErrAction, `player "x"`},
		{setupHSL, "0 penalise A 1 spl_player_pushing", ErrAction, `hsl20 has no penalty "spl_player_pushing"`},
		{setupHSL, "0 penalise A 1 14", ErrAction, "hsl20 has no penalty 14"},
		{setupHSL, "0 penalise A 1 300s", ErrAction, "penalty time 5m0s"},
		{setupHSL, "0 setplay pushing_free_kick A", ErrAction, `hsl20 has no set play "pushing_free_kick"`},
		{setupHSL, "0 setplay corner_kick", ErrAction, "setplay KIND TEAM"},
		{setupHSL, "0 budget A lots", ErrAction, "not a number"},
		{setupHSL, "0 budget A 70000", ErrAction, "outside 0..65535"},
		{Setup{Layout: gcproto.LayoutSPL18, Teams: [2]uint8{1, 2}}, "0 stop", ErrAction, "stop needs an HSL layout"},
		{Setup{Layout: gcproto.LayoutSPL18, Teams: [2]uint8{1, 2}}, "0 setplay direct_free_kick A", ErrAction, "no set play"},
		{Setup{Layout: gcproto.LayoutSPL12, Teams: [2]uint8{1, 2}}, "0 setplay penalty_kick A", ErrAction, "spl12 has no set play"},
		{Setup{Layout: gcproto.LayoutHSL19, Teams: [2]uint8{1, 2}}, "0 standby", ErrAction, "hsl19 has no state 5"},
		{Setup{Layout: gcproto.LayoutHL688, Teams: [2]uint8{1, 2}}, "0 budget A 3", ErrAction, "no message budget"},
	} {
		_, err := ParseScript(strings.NewReader(tc.text), tc.setup)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q on %s: %v, want %v containing %q", tc.text, tc.setup.Layout, err, tc.want, tc.msg)
		}
	}
}

func TestParseActionNames(t *testing.T) {
	for _, tc := range []struct {
		l    gcproto.Layout
		text string
		want Action
	}{
		{gcproto.LayoutSPL18, "setplay kick_in A", StartSetPlay{SetPlay: gcproto.SetPlayThrowIn, Team: SideA}},
		{gcproto.LayoutSPL18, "setplay throw_in A", StartSetPlay{SetPlay: gcproto.SetPlayThrowIn, Team: SideA}},
		{gcproto.LayoutSPL12, "setplay goal_free_kick B", StartSetPlay{SetPlay: gcproto.SetPlayGoalKick, Team: SideB}},
		{gcproto.LayoutSPL16, "setplay pushing-free-kick B", StartSetPlay{SetPlay: gcproto.SetPlayPushingFreeKick, Team: SideB}},
		{gcproto.LayoutHL640, "setplay direct_freekick A", StartSetPlay{SetPlay: gcproto.SetPlayDirectFreeKick, Team: SideA}},
		{gcproto.LayoutHL640, "setplay penaltykick A", StartSetPlay{SetPlay: gcproto.SetPlayPenaltyKick, Team: SideA}},
		{gcproto.LayoutHL688, "penalize a 2 hl_physical_contact", Penalise{Team: SideA, Player: 2, Penalty: 31}},
		{gcproto.LayoutSPL18, "penalise B 1 spl_illegal_motion_in_standby", Penalise{Team: SideB, Player: 1, Penalty: 11}},
		{gcproto.LayoutHSL19, "PENALISE b 4 1m pushing", Penalise{Team: SideB, Player: 4, Penalty: 9, Duration: time.Minute}},
		{gcproto.LayoutSPL17, "standby", StateChange{To: gcproto.StateStandby}},
		{gcproto.LayoutHSL20, "finished", StateChange{To: gcproto.StateFinished}},
		{gcproto.LayoutHSL20, "Second-Half", SecondHalf{}},
		{gcproto.LayoutHSL20, "setplay none", EndSetPlay{}},
		{gcproto.LayoutHSL20, "drop-ball", DropBall{}},
		{gcproto.LayoutHSL20, "unpenalize A 5", Unpenalise{Team: SideA, Player: 5}},
		// Keys.
		{gcproto.LayoutHSL20, "r", Ready{KickOff: NoSide}},
		{gcproto.LayoutHSL20, " G ", Goal{Team: SideB}},
		{gcproto.LayoutHSL20, "K", StartSetPlay{SetPlay: gcproto.SetPlayGoalKick, Team: SideB}},
		{gcproto.LayoutHSL20, "x", Stop{}},
		{gcproto.LayoutHSL20, "3", Penalise{Team: SideA, Player: 3}},
		{gcproto.LayoutHSL20, "%", Penalise{Team: SideB, Player: 5}},
		{gcproto.LayoutHSL20, "#", Penalise{Team: SideB, Player: 3}}, // a key, not a comment
	} {
		a, err := ParseAction(tc.text, Setup{Layout: tc.l, Teams: [2]uint8{teamA, teamB}})
		if err != nil || !reflect.DeepEqual(a, tc.want) {
			t.Errorf("%s %q: %#v, %v; want %#v", tc.l, tc.text, a, err, tc.want)
		}
	}
	for _, text := range []string{"", "  # nothing", "6", "^", "x "} {
		_, err := ParseAction(text, Setup{Layout: gcproto.LayoutSPL18, Teams: [2]uint8{1, 2}})
		if !errors.Is(err, ErrAction) {
			t.Errorf("%q: %v, want ErrAction", text, err)
		}
	}
}

// TestFormatRoundTrip writes scripts and reads them back.
func TestFormatRoundTrip(t *testing.T) {
	for _, l := range gcproto.Layouts() {
		s := Setup{Layout: l, Teams: [2]uint8{teamA, teamB}}
		for _, half := range []time.Duration{0, 20 * time.Second, 10 * time.Minute} {
			sc := DefaultScript(l, half)
			if err := sc.Check(s); err != nil {
				t.Fatalf("%s: default script: %v", l, err)
			}
			var buf bytes.Buffer
			if err := sc.Format(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := ParseScript(&buf, s)
			if err != nil {
				t.Fatalf("%s: %v\n%s", l, err, buf.String())
			}
			if !sameSteps(sc, back) {
				t.Errorf("%s half %v: round trip differs\n%+v\n%+v", l, half, sc, back)
			}
		}
	}
}

// sameSteps compares two scripts ignoring line numbers.
func sameSteps(a, b Script) bool {
	if a.Half != b.Half || a.Break != b.Break || len(a.Steps) != len(b.Steps) {
		return false
	}
	for i := range a.Steps {
		if a.Steps[i].At != b.Steps[i].At || !reflect.DeepEqual(a.Steps[i].Do, b.Steps[i].Do) {
			return false
		}
	}
	return true
}

func TestDefaultScriptShape(t *testing.T) {
	sc := DefaultScript(gcproto.LayoutHSL20, 0)
	if sc.Half != DefaultHalf || sc.Break != 5*time.Second {
		t.Errorf("half %v break %v", sc.Half, sc.Break)
	}
	var acts []string
	for _, st := range sc.Steps {
		acts = append(acts, st.Do.String())
	}
	want := "initial|ready A|set|playing|setplay corner_kick B|setplay end|stop|penalise B 2 20s|resume|goal A|set|playing|" +
		"second-half|ready|set|playing|setplay goal_kick A|setplay end"
	if got := strings.Join(acts, "|"); got != want {
		t.Errorf("actions\n%s\nwant\n%s", got, want)
	}
	if last := sc.Steps[len(sc.Steps)-1].At; last != 121*time.Second {
		t.Errorf("last step at %v, want 2m1s", last)
	}
}

func FuzzParseScript(f *testing.F) {
	var def bytes.Buffer
	if err := DefaultScript(gcproto.LayoutHSL20, 0).Format(&def); err != nil {
		f.Fatal(err)
	}
	f.Add(def.String())
	f.Add("half 2m\n0 ready 17\n+1.5 set\n1m setplay throw-in b # x\n70 penalise 5 2 ball_holding 20s\n")
	f.Add("0 budget A 100\n1 stop\n2 resume\n3 dropball\n4 unpenalise B 1\n5 second-half\n")
	f.Add("0 r\n1 G\n")
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := ParseScript(strings.NewReader(text), setupHSL)
		if err != nil {
			if !errors.Is(err, ErrScript) {
				t.Fatalf("error %v does not wrap ErrScript", err)
			}
			return
		}
		if err := sc.Check(setupHSL); err != nil {
			t.Fatalf("parsed script fails Check: %v", err)
		}
		var buf bytes.Buffer
		if err := sc.Format(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ParseScript(&buf, setupHSL)
		if err != nil {
			t.Fatalf("formatted script does not parse: %v\n%s", err, buf.String())
		}
		if !sameSteps(sc, back) {
			t.Fatalf("round trip differs\n%+v\n%+v\n%s", sc, back, buf.String())
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"r", "penalise B 2 pushing 30s", "setplay corner_kick 5", "budget A 12", "%", "goal 17"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAction(text, setupHSL)
		if err != nil {
			if !errors.Is(err, ErrAction) {
				t.Fatalf("error %v does not wrap ErrAction", err)
			}
			return
		}
		back, err := ParseAction(a.String(), setupHSL)
		if err != nil || !reflect.DeepEqual(a, back) {
			t.Fatalf("%q -> %q -> %#v, %v; want %#v", text, a, back, err, a)
		}
	})
}
