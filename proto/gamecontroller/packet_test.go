package gamecontroller

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// validPenalties lists the penalty codes each layout defines (from the C headers).
func validPenalties(l Layout) []int {
	span := func(lo, hi int, extra ...int) []int {
		var s []int
		for i := lo; i <= hi; i++ {
			s = append(s, i)
		}
		return append(s, extra...)
	}
	switch l {
	case LayoutHL640, LayoutHL664, LayoutHL688:
		return append(span(0, 9, 14, 15), 30, 31, 32, 33, 34, 35, 255)
	case LayoutSPL12, LayoutSPL15:
		return span(0, 10, 14, 15)
	case LayoutSPL13, LayoutSPL14:
		return span(0, 9, 14, 15)
	case LayoutSPL16, LayoutSPL17, LayoutSPL18:
		return span(0, 11, 14, 15)
	case LayoutHSL19:
		return span(0, 11)
	case LayoutHSL20:
		return span(0, 13)
	}
	return nil
}

// wantSetPlays lists, per wire value, the unified set play of each layout's setPlay
// (HL secondaryState) byte.
func wantSetPlays(l Layout) []SetPlay {
	switch l.Family() {
	case FamilyHL:
		return []SetPlay{SetPlayNone, SetPlayNone, SetPlayNone, SetPlayNone, SetPlayDirectFreeKick,
			SetPlayIndirectFreeKick, SetPlayPenaltyKick, SetPlayCornerKick, SetPlayGoalKick, SetPlayThrowIn}
	case FamilyHSL:
		return []SetPlay{SetPlayNone, SetPlayDirectFreeKick, SetPlayIndirectFreeKick, SetPlayPenaltyKick,
			SetPlayThrowIn, SetPlayGoalKick, SetPlayCornerKick}
	}
	s := []SetPlay{SetPlayNone, SetPlayGoalKick, SetPlayPushingFreeKick, SetPlayCornerKick, SetPlayThrowIn}
	if l != LayoutSPL12 {
		s = append(s, SetPlayPenaltyKick)
	}
	return s
}

func maxStateOf(l Layout) int {
	if l == LayoutSPL17 || l == LayoutSPL18 {
		return 5
	}
	return 4
}

// golden offsets of single header bytes (test-local).
func (g goldenLayout) off(field string) int {
	hl := map[string]int{"state": 9, "firstHalf": 10, "kick": 11, "setPlay": 12, "secs": 20}
	spl := map[string]int{"stopped": 8, "gamePhase": 9, "state": 10, "setPlay": 11, "firstHalf": 12, "kick": 13, "secs": 14}
	if g.family == "hl" {
		return hl[field]
	}
	return spl[field]
}

func wantRange(t *testing.T, err error, field string) {
	t.Helper()
	var re *RangeError
	if !errors.Is(err, ErrRange) || !errors.As(err, &re) || re.Field != field {
		t.Errorf("got %v, want a RangeError for %s", err, field)
	}
}

func TestMutants(t *testing.T) {
	for _, g := range goldenLayouts {
		t.Run(g.file, func(t *testing.T) {
			base := g.build()
			decode := func(b []byte) error {
				p := g.want() // stale content must be cleared on error
				err := p.UnmarshalBinary(b)
				if err != nil && p != (Packet{}) {
					t.Errorf("packet not zeroed after error %v", err)
				}
				return err
			}
			for i := range 4 {
				b := bytes.Clone(base)
				b[i] ^= 0x20
				if err := decode(b); !errors.Is(err, ErrHeader) {
					t.Errorf("header byte %d flipped: %v", i, err)
				}
			}
			if err := decode(base[:len(base)-1]); !errors.Is(err, ErrLength) {
				t.Errorf("truncated: %v", err)
			}
			if err := decode(append(bytes.Clone(base), 0)); !errors.Is(err, ErrLength) {
				t.Errorf("one byte too long: %v", err)
			}
			sizes := map[uint8][]int{12: {54, 640, 664, 688}, 13: {54}, 14: {62}, 15: {118}, 16: {118},
				17: {118}, 18: {118}, 19: {198}, 20: {158}}
			for v := uint8(12); v <= 20; v++ {
				if slices.Contains(sizes[v], len(base)) {
					continue
				}
				b := bytes.Clone(base)
				b[4] = v
				if g.family == "hl" {
					b[5] = 0
				}
				if err := decode(b); !errors.Is(err, ErrLength) {
					t.Errorf("version %d with %d bytes: %v", v, len(b), err)
				}
			}
			for _, v := range []uint8{0, 11, 21, 255} {
				b := bytes.Clone(base)
				b[4] = v
				if err := decode(b); !errors.Is(err, ErrVersion) {
					t.Errorf("version %d: %v", v, err)
				}
			}
			b := bytes.Clone(base)
			copy(b, "RGTD")
			var p Packet
			if err := p.UnmarshalBinary(b); err != nil || p.Header != HeaderRGTD {
				t.Errorf("RGTD: %v %v", err, p.Header)
			} else if out, _ := p.MarshalBinary(); !bytes.Equal(out, b) {
				t.Errorf("RGTD round trip differs")
			}

			// Range-checked header fields.
			mut := func(field string, v uint8) error {
				b := bytes.Clone(base)
				b[g.off(field)] = v
				return decode(b)
			}
			for s := 0; s < 256; s++ {
				err := mut("state", uint8(s))
				if s <= maxStateOf(g.l) {
					if err != nil {
						t.Errorf("state %d: %v", s, err)
					}
				} else {
					wantRange(t, err, "state")
				}
			}
			sp := wantSetPlays(g.l)
			spField := "setPlay"
			if g.family == "hl" {
				spField = "secondaryState"
			}
			for v := 0; v < 256; v++ {
				var p Packet
				b := bytes.Clone(base)
				b[g.off("setPlay")] = uint8(v)
				err := p.UnmarshalBinary(b)
				if v < len(sp) {
					if err != nil || p.SetPlay != sp[v] || p.SetPlayRaw != uint8(v) {
						t.Errorf("set play %d: %v, %v, want %v", v, err, p.SetPlay, sp[v])
					}
					if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, b) {
						t.Errorf("set play %d round trip: %v", v, err)
					}
				} else {
					wantRange(t, err, spField)
				}
			}
			wantRange(t, mut("firstHalf", 2), "firstHalf")
			if g.family != "hl" {
				wantRange(t, mut("gamePhase", 4), "gamePhase")
				for ph := range 4 {
					if err := mut("gamePhase", uint8(ph)); err != nil {
						t.Errorf("gamePhase %d: %v", ph, err)
					}
				}
			}
			if g.family == "hsl" {
				wantRange(t, mut("stopped", 2), "stopped")
			}
			if g.goalie >= 0 {
				b := bytes.Clone(base)
				b[g.teams[0]+g.players+g.goalie] = 2
				name := "goalKeeper"
				if g.l == LayoutHL664 {
					name = "isGoalie"
				}
				wantRange(t, decode(b), "teams[0].players[0]."+name)
			}

			// Every penalty code, on team 1's last player (and the HL coach).
			valid := validPenalties(g.l)
			last := g.teams[1] + g.players + (g.n-1)*g.robot
			field := fmt.Sprintf("teams[1].players[%d].penalty", g.n-1)
			for c := 0; c < 256; c++ {
				b := bytes.Clone(base)
				b[last] = uint8(c)
				var p Packet
				err := p.UnmarshalBinary(b)
				if slices.Contains(valid, c) {
					if err != nil || p.Teams[1].Players[g.n-1].Penalty != Penalty(c) || !g.l.ValidPenalty(Penalty(c)) || g.l.PenaltyName(Penalty(c)) == "" {
						t.Errorf("penalty %d: %v", c, err)
					}
				} else {
					wantRange(t, err, field)
					if g.l.ValidPenalty(Penalty(c)) || g.l.PenaltyName(Penalty(c)) != "" {
						t.Errorf("penalty %d reported valid", c)
					}
				}
				if g.family == "hl" && !slices.Contains(valid, c) {
					b := bytes.Clone(base)
					b[g.teams[0]+260] = uint8(c)
					wantRange(t, decode(b), "teams[0].coach.penalty")
				}
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	var p Packet
	b := make([]byte, 161)
	copy(b, "RGme\x14")
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{b, "gamecontroller: version 20 needs 158 bytes, got 161"},
		{[]byte("RGm"), "gamecontroller: 3 bytes are too short for a header and version"},
		{[]byte("RGmX\x14"), `gamecontroller: header "RGmX" is neither "RGme" nor "RGTD"`},
		{append([]byte("RGme\x15"), make([]byte, 153)...), "gamecontroller: unknown version 21 (158 bytes)"},
		{append([]byte("RGme\x0c"), make([]byte, 100)...), "gamecontroller: version 12 needs 54 (SPL) or 640, 664 or 688 (HL) bytes, got 105"},
	} {
		if err := p.UnmarshalBinary(tc.b); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
	g := goldenLayouts[9] // spl18
	b = g.build()
	b[g.teams[1]+10+2*19] = 12
	want := "gamecontroller: teams[1].players[19].penalty = 12 out of range, want 0..11, 14 or 15 in spl18"
	if err := p.UnmarshalBinary(b); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestReuse decodes different layouts into one Packet: nothing of an earlier packet may
// survive.
func TestReuse(t *testing.T) {
	var p Packet
	for _, i := range []int{2, 9, 0, 11, 3, 10, 1} {
		g := goldenLayouts[i]
		if err := p.UnmarshalBinary(g.build()); err != nil {
			t.Fatal(err)
		}
		if p != g.want() {
			t.Errorf("%s after another layout: stale fields\n got %+v\nwant %+v", g.file, p, g.want())
		}
	}
}

// golden returns the decoded golden scenario of layout l.
func golden(l Layout) Packet {
	for _, g := range goldenLayouts {
		if g.l == l {
			return g.want()
		}
	}
	panic("no golden for " + l.String())
}

func TestEncodeRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		l     Layout
		mut   func(p *Packet)
		want  error
		field string
	}{
		{"no layout", LayoutSPL18, func(p *Packet) { p.Layout = 0 }, ErrVersion, ""},
		{"layout 200", LayoutSPL18, func(p *Packet) { p.Layout = 200 }, ErrVersion, ""},
		{"header kind 2", LayoutSPL18, func(p *Packet) { p.Header = 2 }, ErrRange, "header"},
		{"state 5 in spl16", LayoutSPL16, func(p *Packet) { p.State = StateStandby }, ErrRange, "state"},
		{"state 6 in spl18", LayoutSPL18, func(p *Packet) { p.State = 6 }, ErrRange, "state"},
		{"game phase 4", LayoutHSL20, func(p *Packet) { p.GamePhase = 4 }, ErrRange, "gamePhase"},
		{"penalty kick in spl12", LayoutSPL12, func(p *Packet) { p.SetPlay = SetPlayPenaltyKick }, ErrRange, "setPlay"},
		{"indirect in spl18", LayoutSPL18, func(p *Packet) { p.SetPlay = SetPlayIndirectFreeKick }, ErrRange, "setPlay"},
		{"pushing in hsl19", LayoutHSL19, func(p *Packet) { p.SetPlay = SetPlayPushingFreeKick }, ErrRange, "setPlay"},
		{"pushing in hl", LayoutHL688, func(p *Packet) { p.SetPlay = SetPlayPushingFreeKick }, ErrRange, "setPlay"},
		{"hl set play in overtime", LayoutHL640, func(p *Packet) {
			p.GamePhase, p.SetPlay = GamePhaseOvertime, SetPlayCornerKick
		}, ErrRange, "setPlay"},
		{"unknown set play", LayoutHSL20, func(p *Packet) { p.SetPlay = 8 }, ErrRange, "setPlay"},
		{"hl secs -32769", LayoutHL688, func(p *Packet) { p.SecsRemaining = -32769 }, ErrRange, "secsRemaining"},
		{"hl secs 32768", LayoutHL688, func(p *Packet) { p.SecsRemaining = 32768 }, ErrRange, "secsRemaining"},
		{"spl secs 32768", LayoutSPL18, func(p *Packet) { p.SecsRemaining = 32768 }, ErrRange, "secsRemaining"},
		{"spl secondary -32769", LayoutSPL14, func(p *Packet) { p.SecondaryTime = -32769 }, ErrRange, "secondaryTime"},
		{"penalty 12 in hsl19", LayoutHSL19, func(p *Packet) { p.Teams[1].Players[4].Penalty = 12 }, ErrRange, "teams[1].players[4].penalty"},
		{"hl coach penalty 16", LayoutHL664, func(p *Packet) { p.Teams[0].Coach.Penalty = 16 }, ErrRange, "teams[0].coach.penalty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := golden(tc.l)
			tc.mut(&p)
			prefix := []byte("keep")
			out, err := p.AppendBinary(prefix)
			if !errors.Is(err, tc.want) || !bytes.Equal(out, prefix) {
				t.Fatalf("got %v (% x), want %v and the prefix only", err, out, tc.want)
			}
			if tc.field != "" {
				wantRange(t, err, tc.field)
			}
		})
	}

	// Limits that are accepted.
	for _, tc := range []struct {
		l    Layout
		secs int32
	}{{LayoutHL640, 0}, {LayoutHL640, -35}, {LayoutHL688, -32768}, {LayoutHL664, 32767}, {LayoutSPL13, -32768}, {LayoutHSL20, 32767}} {
		p := golden(tc.l)
		p.SecsRemaining, p.SecondaryTime = tc.secs, tc.secs
		b, err := p.MarshalBinary()
		var q Packet
		if err != nil || q.UnmarshalBinary(b) != nil || q != p {
			t.Errorf("%v secs %d: %v", tc.l, tc.secs, err)
		}
	}

	// HL game phases without a set play are secondaryState 1..3.
	for ph, want := range map[GamePhase]uint8{GamePhaseNormal: 0, GamePhasePenaltyShoot: 1, GamePhaseOvertime: 2, GamePhaseTimeout: 3} {
		p := golden(LayoutHL688)
		p.GamePhase, p.SetPlay = ph, SetPlayNone
		b, err := p.MarshalBinary()
		if err != nil || b[12] != want {
			t.Errorf("HL phase %v: %v, secondaryState %d, want %d", ph, err, b[12], want)
		}
	}

	// Fields a layout does not carry are ignored.
	p := golden(LayoutSPL18)
	want, _ := p.MarshalBinary()
	p.Teams[0].Players[0].RedCards, p.Teams[1].CoachSequence, p.DropInTime, p.Stopped = 3, 4, 5, true
	p.SetPlayRaw = 99
	if got, err := p.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
		t.Errorf("fields outside the layout changed the encoding: %v", err)
	}
	p = golden(LayoutSPL12)
	p.Teams[0].Players[MaxPlayersSPL12].Penalty = 200 // player 7 does not exist in spl12
	if _, err := p.MarshalBinary(); err != nil {
		t.Errorf("player beyond MAX_NUM_PLAYERS checked: %v", err)
	}
}

func TestDropBall(t *testing.T) {
	const (
		initial, ready, set, playing, finished = 0, 1, 2, 3, 4
	)
	for _, tc := range []struct {
		g     int // index into goldenLayouts
		state uint8
		kick  uint8
		want  bool
	}{
		// HL: DROPBALL 255 or the Java GameController's 0x80, in any state.
		{0, playing, 255, true}, {0, ready, 0x80, true}, {2, playing, 0x80, true}, {2, set, 17, false},
		{2, initial, 255, true},
		// SPL v15+ and HSL: no kicking team is a dropped ball in READY and SET only.
		{9, ready, 255, true}, {9, set, 255, true}, {9, playing, 255, false}, {9, finished, 255, false},
		{9, playing, 0x80, false}, {9, set, 5, false},
		{10, ready, 255, true}, {10, set, 255, true}, {10, playing, 255, false}, {10, initial, 255, false},
		{11, set, 255, true}, {11, playing, 255, false}, {11, finished, 255, false}, {11, set, 5, false},
		{11, playing, 17, false},
	} {
		g := goldenLayouts[tc.g]
		b := g.build()
		b[g.off("kick")] = tc.kick
		stateOff := 10
		if g.family == "hl" {
			stateOff = 9
		}
		b[stateOff] = tc.state
		var p Packet
		if err := p.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		info, err := Derive(&p, 17, 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.DropBall() != tc.want || info.DropBall != tc.want || info.Kickoff != (tc.kick == 17) {
			t.Errorf("%s state %d kicking team %#x: DropBall %v/%v kickoff %v, want %v",
				g.file, tc.state, tc.kick, p.DropBall(), info.DropBall, info.Kickoff, tc.want)
		}
		wantNumber := tc.kick
		if tc.kick == 255 || (g.family == "hl" && tc.kick == 0x80) {
			wantNumber = 0
		}
		if n := p.KickingTeamNumber(); n != wantNumber {
			t.Errorf("%s kicking team %#x: KickingTeamNumber %d, want %d", g.file, tc.kick, n, wantNumber)
		}
		if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, b) {
			t.Errorf("%s kicking team %#x does not round trip", g.file, tc.kick)
		}
	}
}

// TestSetPlayTeam: HL names the set play's team in secondaryStateInfo[0], not in
// kickOffTeam (which stays the kick-off team); SPL and HSL in kickingTeam.
func TestSetPlayTeam(t *testing.T) {
	hl := golden(LayoutHL688)
	hl.SetPlay, hl.KickingTeam, hl.SecondaryStateInfo = SetPlayCornerKick, 17, [4]uint8{12, 1, 0, 0}
	hsl := golden(LayoutHSL20)
	hsl.SetPlay, hsl.KickingTeam = SetPlayCornerKick, 5
	none := golden(LayoutHSL20)
	none.SetPlay, none.KickingTeam = SetPlayGoalKick, KickingTeamNone
	idle := golden(LayoutHL688)
	idle.SetPlay, idle.SecondaryStateInfo = SetPlayNone, [4]uint8{12, 0, 0, 0}
	for _, tc := range []struct {
		name string
		p    Packet
		want uint8
	}{{"hl", hl, 12}, {"hsl", hsl, 5}, {"hsl none", none, 0}, {"hl no set play", idle, 0}} {
		if got := tc.p.SetPlayTeam(); got != tc.want {
			t.Errorf("%s: SetPlayTeam %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestNamesAndAccessors(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{LayoutHL688.String(), "hl12-688"},
		{LayoutSPL18.String(), "spl18"},
		{Layout(0).String(), "layout(0)"},
		{LayoutSPL17.StateName(StateStandby), "setup"},
		{LayoutSPL18.StateName(StateStandby), "standby"},
		{LayoutSPL16.StateName(StateStandby), ""},
		{LayoutHL640.StateName(StatePlaying), "playing"},
		{LayoutHSL20.GamePhaseName(GamePhaseOvertime), "extra_time"},
		{LayoutSPL15.GamePhaseName(GamePhasePenaltyShoot), "penalty_shoot"},
		{LayoutSPL15.GamePhaseName(4), ""},
		{LayoutHL640.SetPlayName(4), "direct_freekick"},
		{LayoutSPL12.SetPlayName(1), "goal_free_kick"},
		{LayoutSPL13.SetPlayName(1), "goal_kick"},
		{LayoutSPL18.SetPlayName(4), "kick_in"},
		{LayoutHSL19.SetPlayName(4), "throw_in"},
		{LayoutHSL19.SetPlayName(7), ""},
		{LayoutHL688.PenaltyName(255), "unknown"},
		{LayoutSPL18.PenaltyName(11), "spl_illegal_motion_in_standby"},
		{LayoutSPL16.PenaltyName(11), "spl_illegal_motion_in_initial"},
		{LayoutHSL20.PenaltyName(3), "motion_in_stop"},
		{LayoutHSL19.PenaltyName(3), "local_game_stuck"},
		{HeaderRGTD.String(), "RGTD"},
		{FamilyHSL.String(), "hsl"},
		{ColourGray.String(), "gray"},
		{TeamColour(10).String(), "colour(10)"},
		{SetPlayPushingFreeKick.String(), "pushing_free_kick"},
		{State(9).String(), "state(9)"},
		{MessageName(2, MsgGameInterruptionReady), "game_interruption_ready"},
		{MessageName(3, MsgAliveV3), "alive"},
		{MessageName(3, 1), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		l                                               Layout
		budget, gk, coach, warnings, cards, red, gkFlag bool
	}{
		{LayoutHL640, false, false, true, false, true, true, false},
		{LayoutHL664, false, false, true, false, true, true, true},
		{LayoutHL688, false, false, true, true, true, true, true},
		{LayoutSPL13, false, false, false, false, false, false, false},
		{LayoutSPL14, true, false, false, false, false, false, false},
		{LayoutSPL18, true, true, false, false, false, false, false},
		{LayoutHSL19, true, true, false, true, true, false, false},
		{LayoutHSL20, true, true, false, false, true, false, false},
		{LayoutInvalid, false, false, false, false, false, false, false},
	} {
		l := tc.l
		got := [7]bool{l.HasMessageBudget(), l.HasGoalkeeper(), l.HasCoach(), l.HasWarnings(), l.HasCards(), l.HasRedCards(), l.HasGoalkeeperFlag()}
		want := [7]bool{tc.budget, tc.gk, tc.coach, tc.warnings, tc.cards, tc.red, tc.gkFlag}
		if got != want {
			t.Errorf("%v capabilities %v, want %v", l, got, want)
		}
	}
	p := goldenLayouts[3].want() // spl12, 6 players
	if p.Player(0, 0) != nil || p.Player(0, 7) != nil || p.Player(2, 1) != nil || p.Player(0, 2) != &p.Teams[0].Players[1] {
		t.Error("Player bounds")
	}
}

// TestHLSignedTimes: the HL GameControllers write secsRemaining, secondaryTime and
// dropInTime as signed shorts; an overrun set play preparation is −35 (shown as -00:35),
// not 65501.
func TestHLSignedTimes(t *testing.T) {
	for _, g := range goldenLayouts[:3] {
		b := g.build()
		b[18], b[19] = 0xff, 0xff // dropInTime −1
		b[20], b[21] = 0xfe, 0xff // secsRemaining −2
		b[22], b[23] = 0xdd, 0xff // secondaryTime −35
		var p Packet
		if err := p.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if p.DropInTime != -1 || p.SecsRemaining != -2 || p.SecondaryTime != -35 {
			t.Errorf("%s: dropInTime %d secsRemaining %d secondaryTime %d, want -1 -2 -35",
				g.file, p.DropInTime, p.SecsRemaining, p.SecondaryTime)
		}
		if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, b) {
			t.Errorf("%s: negative times do not round trip: %v", g.file, err)
		}
	}
}
