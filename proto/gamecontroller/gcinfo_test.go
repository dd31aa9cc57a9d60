package gamecontroller

import (
	"errors"
	"slices"
	"testing"
)

// wantKick lists, per wire set play value, which set play flag family GCInfo sets and the
// HL STATE2 code it reports (written out from the headers, independently of the package).
func wantKick(l Layout) (flags []string, state2 []uint8) {
	switch {
	case l.Family() == FamilyHL:
		return []string{"", "", "", "", "Direct", "Indirect", "Penalty", "Corner", "Goal", "ThrowIn"},
			[]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	case l.Family() == FamilyHSL:
		return []string{"", "Direct", "Indirect", "Penalty", "ThrowIn", "Goal", "Corner"},
			[]uint8{0, 4, 5, 6, 9, 8, 7}
	case l == LayoutSPL12:
		return []string{"", "Goal", "Direct", "Corner", "ThrowIn"}, []uint8{0, 8, 4, 7, 9}
	}
	return []string{"", "Goal", "Direct", "Corner", "ThrowIn", "Penalty"}, []uint8{0, 8, 4, 7, 9, 6}
}

// kickFlags names the set play flags that are set, e.g. ["OurCorner"].
func kickFlags(g GCInfo) []string {
	var s []string
	for _, f := range []struct {
		name string
		v    bool
	}{
		{"OurDirect", g.OurDirectFreeKick}, {"OurIndirect", g.OurIndirectFreeKick}, {"OurPenalty", g.OurPenaltyKick},
		{"OurCorner", g.OurCornerKick}, {"OurGoal", g.OurGoalKick}, {"OurThrowIn", g.OurThrowIn},
		{"EnemyDirect", g.EnemyDirectFreeKick}, {"EnemyIndirect", g.EnemyIndirectFreeKick}, {"EnemyPenalty", g.EnemyPenaltyKick},
		{"EnemyCorner", g.EnemyCornerKick}, {"EnemyGoal", g.EnemyGoalKick}, {"EnemyThrowIn", g.EnemyThrowIn},
	} {
		if f.v {
			s = append(s, f.name)
		}
	}
	return s
}

func TestDeriveStates(t *testing.T) {
	for _, g := range goldenLayouts {
		for s := 0; s <= maxStateOf(g.l); s++ {
			p := g.want()
			p.State = State(s)
			info, err := Derive(&p, 17, 2)
			if err != nil || info.State != State(s) {
				t.Errorf("%s state %d: %v %v", g.file, s, err, info.State)
			}
		}
	}
}

func TestDeriveSetPlays(t *testing.T) {
	for _, g := range goldenLayouts {
		flags, state2 := wantKick(g.l)
		if n := len(wantSetPlays(g.l)); len(flags) != n {
			t.Fatalf("%s: table has %d entries, want %d", g.file, len(flags), n)
		}
		for v := range flags {
			for _, kicker := range []uint8{17, 5} {
				b := g.build()
				b[g.off("setPlay")] = uint8(v)
				b[g.off("state")] = uint8(StatePlaying)
				if g.family == "hl" {
					b[13], b[14] = kicker, 1 // secondaryStateInfo: team, sub-mode "ready"
				} else {
					b[g.off("kick")] = kicker
					b[g.off("gamePhase")] = uint8(GamePhaseNormal)
					if g.family == "hsl" {
						b[g.off("stopped")] = 0
					}
				}
				var p Packet
				if err := p.UnmarshalBinary(b); err != nil {
					t.Fatalf("%s set play %d: %v", g.file, v, err)
				}
				info, err := Derive(&p, 17, 2)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				if flags[v] != "" {
					side := "Our"
					if kicker != 17 {
						side = "Enemy"
					}
					want = []string{side + flags[v]}
				}
				if got := kickFlags(info); !slices.Equal(got, want) {
					t.Errorf("%s set play %d by team %d: flags %v, want %v", g.file, v, kicker, got, want)
				}
				if info.SecondaryState != state2[v] {
					t.Errorf("%s set play %d: secondaryState %d, want %d", g.file, v, info.SecondaryState, state2[v])
				}
				active := flags[v] != ""
				if info.SetPlayReady != active || info.SetPlayFreeze {
					t.Errorf("%s set play %d while playing: ready %v freeze %v, want ready %v", g.file, v, info.SetPlayReady, info.SetPlayFreeze, active)
				}
				wantTeam := kicker
				if !active {
					wantTeam = 0
				}
				if info.SetPlayTeam != wantTeam {
					t.Errorf("%s set play %d: set play team %d, want %d", g.file, v, info.SetPlayTeam, wantTeam)
				}
				if g.family != "hl" && info.Kickoff != (kicker == 17) {
					t.Errorf("%s: kickoff %v with kicking team %d", g.file, info.Kickoff, kicker)
				}
			}
		}
	}
}

// TestDeriveReadyFreeze covers the ready/freeze rule of every family.
func TestDeriveReadyFreeze(t *testing.T) {
	type rf struct{ ready, freeze bool }
	// SPL/HSL: state × stopped, with and without a set play.
	for _, g := range goldenLayouts {
		if g.family == "hl" {
			continue
		}
		for _, st := range []State{StateInitial, StateReady, StateSet, StatePlaying, StateFinished} {
			for _, stopped := range []bool{false, true} {
				if stopped && g.family != "hsl" {
					continue
				}
				for _, sp := range []SetPlay{SetPlayNone, SetPlayCornerKick} {
					p := g.want()
					p.State, p.Stopped, p.SetPlay, p.GamePhase = st, stopped, sp, GamePhaseNormal
					info, err := Derive(&p, 17, 2)
					if err != nil {
						t.Fatal(err)
					}
					want := rf{}
					if sp != SetPlayNone {
						want = rf{ready: st == StatePlaying && !stopped, freeze: st == StateSet || stopped}
					}
					if got := (rf{info.SetPlayReady, info.SetPlayFreeze}); got != want {
						t.Errorf("%s %v stopped=%v %v: %+v, want %+v", g.file, st, stopped, sp, got, want)
					}
				}
			}
		}
	}
	// HL: sub-mode × secondary state.
	for _, g := range goldenLayouts[:3] {
		for ss := 0; ss <= 9; ss++ {
			for sub := 0; sub <= 3; sub++ {
				b := g.build()
				b[12], b[14] = uint8(ss), uint8(sub)
				var p Packet
				if err := p.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				info, err := Derive(&p, 17, 2)
				if err != nil {
					t.Fatal(err)
				}
				want := rf{}
				if ss >= 4 {
					want = rf{ready: sub == 1, freeze: sub == 0 || sub == 2}
				}
				if got := (rf{info.SetPlayReady, info.SetPlayFreeze}); got != want {
					t.Errorf("%s secondaryState %d sub-mode %d: %+v, want %+v", g.file, ss, sub, got, want)
				}
				wantPhase := GamePhaseNormal
				if ss >= 1 && ss <= 3 {
					wantPhase = GamePhase(ss)
				}
				if info.GamePhase != wantPhase {
					t.Errorf("%s secondaryState %d: phase %v, want %v", g.file, ss, info.GamePhase, wantPhase)
				}
			}
		}
	}
}

func TestDerivePenalties(t *testing.T) {
	for _, g := range goldenLayouts {
		for _, c := range validPenalties(g.l) {
			b := g.build()
			b[g.teams[0]+g.players+g.robot] = uint8(c) // player 2
			b[g.teams[0]+g.players+g.robot+1] = 33
			var p Packet
			if err := p.UnmarshalBinary(b); err != nil {
				t.Fatalf("%s penalty %d: %v", g.file, c, err)
			}
			info, err := Derive(&p, 17, 2)
			if err != nil {
				t.Fatal(err)
			}
			if info.Penalty != Penalty(c) || info.Penalised != (c != 0) || info.SecsTillUnpenalised != 33 {
				t.Errorf("%s penalty %d: %d penalised %v secs %d", g.file, c, info.Penalty, info.Penalised, info.SecsTillUnpenalised)
			}
		}
	}
}

func TestDeriveTeamsAndPlayers(t *testing.T) {
	for _, g := range goldenLayouts {
		p := g.want()
		before := p
		us, err := Derive(&p, 17, 1)
		if err != nil {
			t.Fatal(err)
		}
		them, err := Derive(&p, 5, g.n)
		if err != nil {
			t.Fatalf("%s: team 5, player %d: %v", g.file, g.n, err)
		}
		if p != before {
			t.Errorf("%s: Derive modified the packet", g.file)
		}
		budget0, budget1 := -1, -1
		if g.head == "spl14" || g.head == "spl15" {
			budget0, budget1 = 1200, 1150
		}
		if us.OurScore != 1 || us.EnemyScore != 2 || us.OurColour != ColourBlue || us.EnemyColour != ColourRed || us.MessageBudget != budget0 {
			t.Errorf("%s team 17: %+v", g.file, us)
		}
		if them.OurScore != 2 || them.EnemyScore != 1 || them.OurColour != ColourRed || them.EnemyColour != ColourBlue || them.MessageBudget != budget1 {
			t.Errorf("%s team 5: %+v", g.file, them)
		}
		if us.Penalised || !them.Penalised || them.Penalty != Penalty(g.sub) {
			t.Errorf("%s: player 1 of 17 penalised %v, player %d of 5 penalty %d", g.file, us.Penalised, g.n, them.Penalty)
		}
		wantType := uint8(1)
		if g.family == "hsl" {
			wantType = 2
		}
		if us.GameType != wantType || us.Stopped != (g.family == "hsl") || us.Layout != g.l {
			t.Errorf("%s: game type %d stopped %v layout %v", g.file, us.GameType, us.Stopped, us.Layout)
		}
		if g.family == "hl" {
			if us.SecsRemaining != 300 || !us.FirstHalf || !us.Kickoff {
				t.Errorf("%s: secs %d first half %v kickoff %v", g.file, us.SecsRemaining, us.FirstHalf, us.Kickoff)
			}
		} else if us.SecsRemaining != 0 || us.SecondaryTime != 25 || us.FirstHalf || us.Kickoff || !them.Kickoff {
			t.Errorf("%s: secs %d (of -5) secondary %d first half %v kickoff %v/%v", g.file, us.SecsRemaining, us.SecondaryTime, us.FirstHalf, us.Kickoff, them.Kickoff)
		}

		for _, pl := range []int{0, -1, g.n + 1, 256} {
			_, err := Derive(&p, 17, pl)
			wantRange(t, err, "player")
		}
		_, err = Derive(&p, 6, 1)
		if !errors.Is(err, ErrNotOurTeam) || err.Error() != "gamecontroller: packet names teams 17 and 5, not our team 6" {
			t.Errorf("%s: team 6: %v", g.file, err)
		}
	}
	if _, err := Derive(&Packet{}, 0, 1); !errors.Is(err, ErrVersion) {
		t.Errorf("zero packet: %v", err)
	}
}

func TestDeriveTimes(t *testing.T) {
	for _, tc := range []struct {
		l    Layout
		in   int32
		want uint16
	}{
		{LayoutHL688, 0, 0}, {LayoutHL688, 9999, 9999}, {LayoutHL688, 10000, 0}, {LayoutHL688, -35, 0}, {LayoutHL640, -1, 0},
		{LayoutSPL18, -1, 0}, {LayoutSPL18, -32768, 0}, {LayoutSPL18, 600, 600}, {LayoutHSL20, 32767, 0},
	} {
		p := Packet{Layout: tc.l, SecsRemaining: tc.in, SecondaryTime: tc.in}
		p.Teams[0].TeamNumber = 3
		g, err := Derive(&p, 3, 1)
		if err != nil || g.SecsRemaining != tc.want || g.SecondaryTime != tc.want {
			t.Errorf("%v %d: %v %d/%d, want %d", tc.l, tc.in, err, g.SecsRemaining, g.SecondaryTime, tc.want)
		}
	}
}
