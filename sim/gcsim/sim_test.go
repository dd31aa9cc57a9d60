package gcsim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

const ms = time.Millisecond

func times(ps []decoded) []time.Duration {
	out := make([]time.Duration, len(ps))
	for i, p := range ps {
		out[i] = p.At
	}
	return out
}

func TestRegularRate(t *testing.T) {
	simulate(t, Config{Setup: Setup{Layout: gcproto.LayoutSPL18}}, func(t *testing.T, h *harness) {
		h.until(10 * time.Second)
		ps := h.packets()
		if len(ps) != 21 {
			t.Fatalf("got %d packets in 10 s, want 21 (2 Hz from t=0): %v", len(ps), times(ps))
		}
		for i, p := range ps {
			if want := time.Duration(i) * SendInterval; p.At != want {
				t.Errorf("packet %d at %v, want %v", i, p.At, want)
			}
			if p.P.PacketNumber != uint8(i) {
				t.Errorf("packet %d has number %d", i, p.P.PacketNumber)
			}
			if p.P.State != gcproto.StateInitial || p.P.Layout != gcproto.LayoutSPL18 || !p.P.FirstHalf {
				t.Errorf("packet %d: state %v layout %v firstHalf %v, want INITIAL spl18 true", i, p.P.State, p.P.Layout, p.P.FirstHalf)
			}
		}
		if st := h.sim.Stats(); st.Packets != 21 || st.Burst != 0 {
			t.Errorf("stats %+v, want 21 packets, no burst", st)
		}
	})
}

func TestPacketNumberWraps(t *testing.T) {
	simulate(t, Config{Setup: Setup{Layout: gcproto.LayoutHL688}}, func(t *testing.T, h *harness) {
		h.until(130 * time.Second) // 261 packets
		ps := h.packets()
		if len(ps) != 261 {
			t.Fatalf("got %d packets, want 261", len(ps))
		}
		for i, p := range ps {
			if p.P.PacketNumber != uint8(i%256) {
				t.Fatalf("packet %d has number %d, want %d", i, p.P.PacketNumber, i%256)
			}
		}
	})
}

// TestBurst checks the HSL burst: a change at 1.1 s is sent at once and then at 5 Hz
// until five packets went out, beside the 2 Hz packets; other layouts only keep 2 Hz.
func TestBurst(t *testing.T) {
	for _, tc := range []struct {
		layout gcproto.Layout
		want   []time.Duration
	}{
		{gcproto.LayoutHSL20, []time.Duration{0, 500 * ms, 1000 * ms, 1100 * ms, 1300 * ms, 1500 * ms, 1700 * ms, 1900 * ms, 2000 * ms, 2500 * ms, 3000 * ms}},
		{gcproto.LayoutHSL19, []time.Duration{0, 500 * ms, 1000 * ms, 1100 * ms, 1300 * ms, 1500 * ms, 1700 * ms, 1900 * ms, 2000 * ms, 2500 * ms, 3000 * ms}},
		{gcproto.LayoutSPL18, []time.Duration{0, 500 * ms, 1000 * ms, 1500 * ms, 2000 * ms, 2500 * ms, 3000 * ms}},
		{gcproto.LayoutHL640, []time.Duration{0, 500 * ms, 1000 * ms, 1500 * ms, 2000 * ms, 2500 * ms, 3000 * ms}},
	} {
		t.Run(tc.layout.String(), func(t *testing.T) {
			s := Setup{Layout: tc.layout}
			simulate(t, Config{Setup: s, Script: script(t, s, "1.1 ready A")}, func(t *testing.T, h *harness) {
				h.until(3 * time.Second)
				ps := h.packets()
				if got := times(ps); !slices.Equal(got, tc.want) {
					t.Fatalf("packets at %v, want %v", got, tc.want)
				}
				for _, p := range ps {
					want := gcproto.StateInitial
					if p.At >= 1100*ms {
						want = gcproto.StateReady
					}
					if p.P.State != want {
						t.Errorf("packet at %v: state %v, want %v", p.At, p.P.State, want)
					}
				}
				wantBurst := uint64(0)
				if tc.layout.Family() == gcproto.FamilyHSL {
					wantBurst = BurstCount
				}
				if st := h.sim.Stats(); st.Burst != wantBurst {
					t.Errorf("Burst = %d, want %d", st.Burst, wantBurst)
				}
			})
		})
	}
}

// TestScriptedStates plays a script in every layout and checks that the packets decode
// to the scripted states at the scripted times.
func TestScriptedStates(t *testing.T) {
	const text = `
half 30s
0    initial
2    ready B
4    set
6    playing
8    setplay corner_kick A
9.5  setplay end
10   penalise B 2 20s
12   goal B
14   set
16   playing
`
	type want struct {
		at      time.Duration
		state   gcproto.State
		setPlay gcproto.SetPlay
		kicking uint8
		scoreB  uint8
	}
	wants := []want{
		{1 * time.Second, gcproto.StateInitial, gcproto.SetPlayNone, teamA, 0},
		{2 * time.Second, gcproto.StateReady, gcproto.SetPlayNone, teamB, 0},
		{4 * time.Second, gcproto.StateSet, gcproto.SetPlayNone, teamB, 0},
		{6 * time.Second, gcproto.StatePlaying, gcproto.SetPlayNone, teamB, 0},
		{8 * time.Second, gcproto.StatePlaying, gcproto.SetPlayCornerKick, teamA, 0},
		{12 * time.Second, gcproto.StateReady, gcproto.SetPlayNone, teamA, 1},
		{14 * time.Second, gcproto.StateSet, gcproto.SetPlayNone, teamA, 1},
		{16 * time.Second, gcproto.StatePlaying, gcproto.SetPlayNone, teamA, 1},
	}
	for _, l := range gcproto.Layouts() {
		t.Run(l.String(), func(t *testing.T) {
			s := Setup{Layout: l}
			simulate(t, Config{Setup: s, Script: script(t, s, text)}, func(t *testing.T, h *harness) {
				h.until(17 * time.Second)
				for _, w := range wants {
					p := h.at(w.at)
					if p.Layout != l || p.State != w.state || p.SetPlay != w.setPlay || p.KickingTeam != w.kicking {
						t.Errorf("at %v: %v state %v set play %v kicking %d, want %v %v %v %d",
							w.at, p.Layout, p.State, p.SetPlay, p.KickingTeam, l, w.state, w.setPlay, w.kicking)
					}
					if got := team(t, p, teamB).Score; got != w.scoreB {
						t.Errorf("at %v: score of B %d, want %d", w.at, got, w.scoreB)
					}
					if p.PlayersPerTeam != 5 {
						t.Errorf("playersPerTeam %d, want 5", p.PlayersPerTeam)
					}
				}
				// The set play ended at 9.5 s: SPL v18 and HSL send "no kicking team",
				// the others keep the team.
				p := h.at(9500 * ms)
				wantKick := uint8(teamA)
				if l == gcproto.LayoutSPL18 || l.Family() == gcproto.FamilyHSL {
					wantKick = gcproto.DropBall
				}
				if p.SetPlay != gcproto.SetPlayNone || p.KickingTeam != wantKick {
					t.Errorf("after the set play: %v kicking %d, want none %d", p.SetPlay, p.KickingTeam, wantKick)
				}
				if l.Family() == gcproto.FamilyHL {
					if got := h.at(8 * time.Second).SecondaryStateInfo; got != [4]uint8{teamA, 1, 0, 0} {
						t.Errorf("HL set play secondaryStateInfo %v, want [%d 1 0 0]", got, teamA)
					}
				}
				// Penalty: player 2 of B from 10 s, secsTillUnpenalised counting down.
				g, err := gcproto.Derive(ptr(h.at(11*time.Second)), teamB, 2)
				if err != nil {
					t.Fatal(err)
				}
				if !g.Penalised || g.SecsTillUnpenalised != 19 {
					t.Errorf("at 11 s: penalised %v secs %d, want true 19", g.Penalised, g.SecsTillUnpenalised)
				}
			})
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestSecsRemainingCountdown(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL18}
	sc := script(t, s, "half 20s\n0 ready A\n1 set\n2 playing\n")
	simulate(t, Config{Setup: s, Script: sc}, func(t *testing.T, h *harness) {
		h.until(25 * time.Second)
		for _, p := range h.packets() {
			var want int32
			switch {
			case p.At < 2*time.Second:
				want = 20
			case p.At < 22*time.Second:
				want = int32(ceilSecs(20*time.Second - (p.At - 2*time.Second)))
			default:
				want = 0
			}
			if p.P.SecsRemaining != want {
				t.Errorf("at %v: secsRemaining %d, want %d", p.At, p.P.SecsRemaining, want)
			}
			wantState := gcproto.StatePlaying
			switch {
			case p.At < 1*time.Second:
				wantState = gcproto.StateReady
			case p.At < 2*time.Second:
				wantState = gcproto.StateSet
			case p.At >= 22*time.Second:
				wantState = gcproto.StateFinished
			}
			if p.P.State != wantState {
				t.Errorf("at %v: state %v, want %v", p.At, p.P.State, wantState)
			}
		}
		// READY counts the ready time in secondaryTime; FINISHED of the first half the break.
		if got := h.at(500 * ms).SecondaryTime; got != 45 {
			t.Errorf("secondaryTime in READY at 0.5 s = %d, want 45 (ceil of 44.5)", got)
		}
		if got := h.at(2500 * ms).SecondaryTime; got != 10 {
			t.Errorf("secondaryTime at 0.5 s of the kick-off = %d, want 10", got)
		}
		if got := h.at(24 * time.Second).SecondaryTime; got != 598 {
			t.Errorf("secondaryTime 2 s into the break = %d, want 598", got)
		}
		if !strings.Contains(h.whats(), "first half over") {
			t.Errorf("changes %q lack the end of the half", h.whats())
		}
	})
}

func TestReadyTimesOut(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutHSL20}
	sim := Config{Setup: s, Script: script(t, s, "0 ready A"), Timing: Timing{Ready: 3 * time.Second}}
	simulate(t, sim, func(t *testing.T, h *harness) {
		h.until(4 * time.Second)
		if st := h.at(2900 * ms).State; st != gcproto.StateReady {
			t.Errorf("state at 2.9 s %v, want READY", st)
		}
		if st := h.at(3 * time.Second).State; st != gcproto.StateSet {
			t.Errorf("state at 3 s %v, want SET", st)
		}
		c := h.changeList()
		if last := c[len(c)-1]; last.What != "ready time over" || !last.Auto || last.At != 3*time.Second {
			t.Errorf("last change %+v, want automatic \"ready time over\" at 3 s", last)
		}
	})
}

func TestPenaltyCountdown(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutHSL20}
	sc := script(t, s, "0 penalise A 3 motion_in_set 5s\n2 ready\n3 set\n4 playing\n5 stop\n")
	simulate(t, Config{Setup: s, Script: sc}, func(t *testing.T, h *harness) {
		h.until(9 * time.Second)
		code, _ := penaltyByName(gcproto.LayoutHSL20, "motion_in_set")
		for _, p := range h.packets() {
			ri := team(t, p.P, teamA).Players[2]
			// The penalty timer waits in INITIAL (until 2 s) and keeps running while
			// play is stopped; it ends after 5 s of READY, SET and PLAYING, at 7 s.
			var want uint8
			switch {
			case p.At < 2*time.Second:
				want = 5
			case p.At < 7*time.Second:
				want = uint8(ceilSecs(5*time.Second - (p.At - 2*time.Second)))
			}
			wantPen := code
			if p.At >= 7*time.Second {
				wantPen = gcproto.PenaltyNone
			}
			if ri.Penalty != wantPen || ri.SecsTillUnpenalised != want {
				t.Errorf("at %v: penalty %d secs %d, want %d %d", p.At, ri.Penalty, ri.SecsTillUnpenalised, wantPen, want)
			}
		}
		if w := h.whats(); !strings.Contains(w, "penalty of A 3 over") {
			t.Errorf("changes %q lack the end of the penalty", w)
		}
		// Stopped at 5 s: the packet says stopped; the v20 game clock runs on.
		p := h.at(8 * time.Second)
		if !p.Stopped || p.SecsRemaining != 596 {
			t.Errorf("at 8 s: stopped %v secs %d, want true 596", p.Stopped, p.SecsRemaining)
		}
	})
}

func TestSpeed(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL15}
	sc := script(t, s, "half 100s\n10 ready A\n20 set\n30 playing\n")
	simulate(t, Config{Setup: s, Script: sc, Speed: 10}, func(t *testing.T, h *harness) {
		h.until(5 * time.Second) // 50 s of game time
		for _, w := range []struct {
			at    time.Duration
			state gcproto.State
		}{{900 * ms, gcproto.StateInitial}, {1 * time.Second, gcproto.StateReady}, {2 * time.Second, gcproto.StateSet}, {3 * time.Second, gcproto.StatePlaying}} {
			if got := h.at(w.at).State; got != w.state {
				t.Errorf("at %v: %v, want %v", w.at, got, w.state)
			}
		}
		// 2 s of wall time in PLAYING are 20 s of game time.
		if got := h.at(5 * time.Second).SecsRemaining; got != 80 {
			t.Errorf("secsRemaining %d, want 80", got)
		}
		if got := len(h.packets()); got != 11 {
			t.Errorf("%d packets in 5 s, want 11: the rate stays 2 Hz of clock time", got)
		}
		if v := h.sim.State(); v.Time != 50*time.Second {
			t.Errorf("game time %v, want 50s", v.Time)
		}
	})
}

func TestGoalAndSecondHalf(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL18}
	sc := script(t, s, "half 10s\nbreak 3s\n0 ready B\n1 set\n2 playing\n4 goal B\n5 set\n6 playing\n20 second-half\n21 ready\n")
	simulate(t, Config{Setup: s, Script: sc}, func(t *testing.T, h *harness) {
		h.until(22 * time.Second)
		p := h.at(4 * time.Second)
		if p.State != gcproto.StateReady || p.KickingTeam != teamA || team(t, p, teamB).Score != 1 || team(t, p, teamA).Score != 0 {
			t.Errorf("after the goal: %v kicking %d score B %d A %d, want READY %d 1 0",
				p.State, p.KickingTeam, team(t, p, teamB).Score, team(t, p, teamA).Score, teamA)
		}
		// 2 s played before the goal; the clock, once started, also runs in READY and
		// SET (the GameController's main timer): the half ends at 12 s.
		if p := h.at(11900 * ms); p.State != gcproto.StatePlaying {
			t.Errorf("at 11.9 s: %v, want PLAYING", p.State)
		}
		if p := h.at(12 * time.Second); p.State != gcproto.StateFinished || !p.FirstHalf || p.SecondaryTime != 3 {
			t.Errorf("at 12 s: %v firstHalf %v secondaryTime %d, want FINISHED true 3", p.State, p.FirstHalf, p.SecondaryTime)
		}
		p = h.at(20 * time.Second)
		if p.State != gcproto.StateInitial || p.FirstHalf || p.SecsRemaining != 10 {
			t.Errorf("second half: %v firstHalf %v secs %d, want INITIAL false 10", p.State, p.FirstHalf, p.SecsRemaining)
		}
		// Teams change sides: A is now second on the wire; B kicked off the first
		// half, so A kicks off the second.
		if p.Teams[0].TeamNumber != teamB || p.Teams[1].TeamNumber != teamA {
			t.Errorf("wire order %d, %d; want %d, %d", p.Teams[0].TeamNumber, p.Teams[1].TeamNumber, teamB, teamA)
		}
		if p.KickingTeam != teamA || team(t, p, teamB).Score != 1 {
			t.Errorf("second half kicking %d score B %d, want %d 1", p.KickingTeam, team(t, p, teamB).Score, teamA)
		}
		for _, tm := range []uint8{teamA, teamB} {
			g, err := gcproto.Derive(&p, int(tm), 1)
			if err != nil {
				t.Fatal(err)
			}
			if g.Kickoff != (tm == teamA) {
				t.Errorf("team %d: Kickoff %v", tm, g.Kickoff)
			}
		}
	})
}

func TestKickOffEnds(t *testing.T) {
	for _, tc := range []struct {
		l    gcproto.Layout
		want uint8
	}{{gcproto.LayoutSPL18, gcproto.DropBall}, {gcproto.LayoutHSL20, gcproto.DropBall}, {gcproto.LayoutSPL17, teamA}, {gcproto.LayoutHL688, teamA}} {
		t.Run(tc.l.String(), func(t *testing.T) {
			s := Setup{Layout: tc.l}
			simulate(t, Config{Setup: s, Script: script(t, s, "0 ready A\n1 set\n2 playing")}, func(t *testing.T, h *harness) {
				h.until(13 * time.Second)
				if got := h.at(11500 * ms).KickingTeam; got != teamA {
					t.Errorf("during the kick-off: kicking %d, want %d", got, teamA)
				}
				if got := h.at(12 * time.Second).KickingTeam; got != tc.want {
					t.Errorf("after the kick-off: kicking %d, want %d", got, tc.want)
				}
			})
		})
	}
}

func TestSubstitutesAndGoalkeeper(t *testing.T) {
	for _, l := range []gcproto.Layout{gcproto.LayoutHSL20, gcproto.LayoutSPL18, gcproto.LayoutHL688} {
		t.Run(l.String(), func(t *testing.T) {
			simulate(t, Config{Setup: Setup{Layout: l, Players: 3}}, func(t *testing.T, h *harness) {
				p := h.at(0)
				sub, _ := penaltyByName(l, "substitute")
				ti := team(t, p, teamA)
				for n := 1; n <= l.MaxPlayers(); n++ {
					want := gcproto.PenaltyNone
					if n > 3 {
						want = sub
					}
					if got := ti.Players[n-1].Penalty; got != want {
						t.Errorf("player %d penalty %d, want %d", n, got, want)
					}
				}
				if l.HasGoalkeeper() && (ti.Goalkeeper != 1 || ti.GoalkeeperColour != gcproto.ColourYellow) {
					t.Errorf("goalkeeper %d colour %v, want 1 yellow", ti.Goalkeeper, ti.GoalkeeperColour)
				}
				if l.HasGoalkeeperFlag() && !ti.Players[0].Goalkeeper {
					t.Error("player 1 lacks the HL goalkeeper flag")
				}
				if ti.FieldPlayerColour != gcproto.ColourBlue || team(t, p, teamB).FieldPlayerColour != gcproto.ColourRed {
					t.Error("colours are not blue and red")
				}
			})
		})
	}
}

func TestMessageBudget(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL18}
	simulate(t, Config{Setup: s, Script: script(t, s, "1 ready A\n2 set\n3 playing")}, func(t *testing.T, h *harness) {
		msg := make([]byte, 100)
		h.deliver(h.team[0], msg, robotSrc) // INITIAL: not counted
		h.until(1 * time.Second)
		for range 3 {
			h.deliver(h.team[0], msg, robotSrc)
		}
		h.deliver(h.team[1], msg, robotSrc)
		h.until(1500 * ms)
		p := h.at(1500 * ms)
		if a, b := team(t, p, teamA).MessageBudget, team(t, p, teamB).MessageBudget; a != BudgetSPL-3 || b != BudgetSPL-1 {
			t.Errorf("budgets %d, %d; want %d, %d", a, b, BudgetSPL-3, BudgetSPL-1)
		}
		h.until(4 * time.Second)
		// A scores, then sends an oversize message: illegal, score 0.
		if err := h.sim.Apply(t.Context(), Goal{Team: SideA}); err != nil {
			t.Fatal(err)
		}
		h.deliver(h.team[0], make([]byte, MaxTeamMessageSPL+1), robotSrc)
		h.until(5 * time.Second)
		v := h.sim.State()
		if ta := v.Teams[0]; !ta.Illegal || ta.Score != 0 || ta.Messages != 4 || ta.TooLong != 1 || ta.MessageBudget != BudgetSPL-4 {
			t.Errorf("team A %+v, want illegal, score 0, 4 messages, 1 too long, budget %d", ta, BudgetSPL-4)
		}
		if got := h.sim.Stats().TeamMessages; got != [2]uint64{5, 1} {
			t.Errorf("TeamMessages %v, want [5 1]", got)
		}
		if p := h.at(5 * time.Second); team(t, p, teamA).Score != 0 {
			t.Error("score not 0 on the wire")
		}
		if !strings.Contains(h.whats(), "illegal communication of A") {
			t.Errorf("changes %q lack the illegal communication", h.whats())
		}
	})
}

func TestBudgetSpent(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutHSL20}
	simulate(t, Config{Setup: s, Budget: 2, Script: script(t, s, "0 ready A")}, func(t *testing.T, h *harness) {
		for range 2 {
			h.deliver(h.team[1], []byte("x"), robotSrc)
		}
		if v := h.sim.State().Teams[1]; v.MessageBudget != 0 || v.Illegal {
			t.Errorf("after 2 messages: %+v, want budget 0, legal", v)
		}
		h.deliver(h.team[1], []byte("x"), robotSrc)
		if v := h.sim.State().Teams[1]; !v.Illegal || v.MessageBudget != 0 {
			t.Errorf("after 3 messages: %+v, want illegal, budget 0", v)
		}
	})
}

func TestNoBudgetLayout(t *testing.T) {
	simulate(t, Config{Setup: Setup{Layout: gcproto.LayoutSPL13}, Script: script(t, Setup{Layout: gcproto.LayoutSPL13}, "0 ready A")}, func(t *testing.T, h *harness) {
		h.deliver(h.team[0], make([]byte, 1000), robotSrc)
		if v := h.sim.State().Teams[0]; v.MessageBudget != -1 || v.Messages != 0 || v.Illegal {
			t.Errorf("%+v, want no budget and nothing counted", v)
		}
	})
}

func TestApply(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL16}
	simulate(t, Config{Setup: s}, func(t *testing.T, h *harness) {
		ctx := t.Context()
		if err := h.sim.Apply(ctx, Goal{Team: SideA}); !errors.Is(err, ErrState) {
			t.Errorf("goal in INITIAL: %v, want ErrState", err)
		}
		if err := h.sim.Apply(ctx, Stop{}); !errors.Is(err, ErrAction) {
			t.Errorf("stop in SPL: %v, want ErrAction", err)
		}
		for _, text := range []string{"r", "s", "p", "c"} {
			a, err := ParseAction(text, h.sim.Setup())
			if err != nil {
				t.Fatal(err)
			}
			if err := h.sim.Apply(ctx, a); err != nil {
				t.Fatalf("%s: %v", a, err)
			}
		}
		h.until(SendInterval) // no burst outside HSL: the change goes out with the next packet
		p := h.at(SendInterval)
		if p.State != gcproto.StatePlaying || p.SetPlay != gcproto.SetPlayCornerKick || p.KickingTeam != teamA {
			t.Errorf("after r s p c: %v %v %d, want PLAYING corner_kick %d", p.State, p.SetPlay, p.KickingTeam, teamA)
		}
		if got, want := h.whats(), "ready (by hand); set (by hand); playing (by hand); setplay corner_kick A (by hand)"; got != want {
			t.Errorf("changes %q, want %q", got, want)
		}
		// An action that changes nothing is no change.
		if err := h.sim.Apply(ctx, StateChange{To: gcproto.StatePlaying}); err != nil {
			t.Fatal(err)
		}
		if n := len(h.changeList()); n != 4 {
			t.Errorf("%d changes after a repeated action, want 4", n)
		}
	})
}

func TestApplyAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sim, err := New(Config{Setup: Setup{Teams: [2]uint8{1, 2}}, Control: &fakeSender{clk: clock.NewManual(t0)},
			Dest: dstOne, Clock: clock.NewManual(t0), Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- sim.Run(ctx) }()
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if err := sim.Apply(t.Context(), DropBall{}); !errors.Is(err, ErrStopped) {
			t.Errorf("Apply after Run: %v, want ErrStopped", err)
		}
		if err := sim.Run(t.Context()); !errors.Is(err, ErrRunTwice) {
			t.Errorf("second Run: %v, want ErrRunTwice", err)
		}
	})
}

func TestSkippedStep(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutHSL19}
	simulate(t, Config{Setup: s, Script: script(t, s, "1 goal A\n2 ready")}, func(t *testing.T, h *harness) {
		h.until(3 * time.Second)
		c := h.changeList()
		if len(c) != 2 || !errors.Is(c[0].Err, ErrState) || !strings.Contains(c[0].What, "step 1 (goal A) skipped") || c[1].What != "ready" {
			t.Fatalf("changes %+v, want the skipped goal then ready", c)
		}
		if st := h.sim.Stats(); st.Skipped != 1 {
			t.Errorf("Skipped = %d, want 1", st.Skipped)
		}
		// A skipped step does not start a burst: 2 Hz plus the burst of "ready" at 2 s.
		if got, want := times(h.packets()), []time.Duration{0, 500 * ms, 1000 * ms, 1500 * ms, 2000 * ms, 2200 * ms, 2400 * ms, 2500 * ms, 2600 * ms, 2800 * ms, 3000 * ms}; !slices.Equal(got, want) {
			t.Errorf("packets at %v, want %v", got, want)
		}
	})
}

func TestLoop(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutSPL14}
	sc := script(t, s, "half 2s\n0 ready A\n0.5 playing\n3 second-half\n3.5 playing\n")
	simulate(t, Config{Setup: s, Script: sc, Loop: true}, func(t *testing.T, h *harness) {
		// First half ends at 2.5 s, second at 5.5 s, restart at 10.5 s.
		h.until(11 * time.Second)
		if p := h.at(10400 * ms); p.State != gcproto.StateFinished || p.FirstHalf {
			t.Errorf("at 10.4 s: %v firstHalf %v, want FINISHED of the second half", p.State, p.FirstHalf)
		}
		p := h.at(10500 * ms)
		if p.State != gcproto.StateReady || !p.FirstHalf || p.SecsRemaining != 2 {
			t.Errorf("at 10.5 s: %v firstHalf %v secs %d, want READY true 2", p.State, p.FirstHalf, p.SecsRemaining)
		}
		if st := h.sim.Stats(); st.Restarts != 1 {
			t.Errorf("Restarts = %d, want 1", st.Restarts)
		}
		if v := h.sim.State(); v.Time != 500*ms || v.Step != 2 || v.State != gcproto.StatePlaying {
			t.Errorf("after the restart: time %v step %d %v, want 500ms 2 PLAYING", v.Time, v.Step, v.State)
		}
	})
}

// TestDefaultScript plays the built-in game in every layout and checks its course on
// the wire.
func TestDefaultScript(t *testing.T) {
	for _, l := range gcproto.Layouts() {
		t.Run(l.String(), func(t *testing.T) {
			s := Setup{Layout: l}
			sc := DefaultScript(l, 0)
			end := 155 * time.Second
			if l.Family() == gcproto.FamilyHSL {
				end += 2 * time.Second
			}
			// At speed 2 the shortest state (SET, 3 s) lasts 1.5 s: three packets.
			simulate(t, Config{Setup: s, Script: sc, Speed: 2}, func(t *testing.T, h *harness) {
				h.until(end/2 + time.Second)
				var states []string
				sawSetPlay := map[gcproto.SetPlay]uint8{}
				sawPenalty := false
				for _, p := range h.packets() {
					half := "1"
					if !p.P.FirstHalf {
						half = "2"
					}
					st := half + p.P.State.String()
					if len(states) == 0 || states[len(states)-1] != st {
						states = append(states, st)
					}
					if p.P.SetPlay != gcproto.SetPlayNone {
						sawSetPlay[p.P.SetPlay] = p.P.KickingTeam
					}
					if team(t, p.P, teamB).Players[1].Penalty != gcproto.PenaltyNone {
						sawPenalty = true
					}
				}
				want := []string{"1initial", "1ready", "1set", "1playing", "1ready", "1set", "1playing", "1finished",
					"2initial", "2ready", "2set", "2playing", "2finished"}
				if !slices.Equal(states, want) {
					t.Errorf("states %v\nwant   %v", states, want)
				}
				if sawSetPlay[gcproto.SetPlayCornerKick] != teamB || sawSetPlay[gcproto.SetPlayGoalKick] != teamA || len(sawSetPlay) != 2 {
					t.Errorf("set plays %v, want corner kick for %d and goal kick for %d", sawSetPlay, teamB, teamA)
				}
				if !sawPenalty {
					t.Error("B 2 never penalised")
				}
				v := h.sim.State()
				if v.Teams[0].Score != 1 || v.Teams[1].Score != 0 || v.State != gcproto.StateFinished || v.FirstHalf || v.Step != v.Steps {
					t.Errorf("end: %s step %d/%d", v.Summary(), v.Step, v.Steps)
				}
				if st := h.sim.Stats(); st.Skipped != 0 {
					t.Errorf("%d steps skipped: %s", st.Skipped, h.whats())
				}
				// The game ends by the clock exactly at the end of the script.
				c := h.changeList()
				if last := c[len(c)-1]; last.What != "game over" || last.At != end {
					t.Errorf("last change %q at %v, want \"game over\" at %v", last.What, last.At, end)
				}
			})
		})
	}
}

func TestNewErrors(t *testing.T) {
	ok := Config{Setup: Setup{Teams: [2]uint8{1, 2}}, Control: &fakeSender{}, Dest: dstOne}
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want error
	}{
		{"same teams", func(c *Config) { c.Teams = [2]uint8{3, 3} }, ErrConfig},
		{"team 0", func(c *Config) { c.Teams[0] = 0 }, ErrConfig},
		{"team 255", func(c *Config) { c.Teams[1] = 255 }, ErrConfig},
		{"too many players", func(c *Config) { c.Layout, c.Players = gcproto.LayoutSPL14, 8 }, ErrConfig},
		{"bad layout", func(c *Config) { c.Layout = 99 }, ErrConfig},
		{"negative speed", func(c *Config) { c.Speed = -1 }, ErrConfig},
		{"no sender", func(c *Config) { c.Control = nil }, ErrConfig},
		{"no destination", func(c *Config) { c.Dest = Destination{} }, ErrDest},
		{"budget", func(c *Config) { c.Budget = 70000 }, ErrConfig},
		{"script for another layout", func(c *Config) {
			c.Script = Script{Steps: []Step{{Do: Stop{}}}}
			c.Layout = gcproto.LayoutSPL18
		}, ErrAction},
		{"script out of order", func(c *Config) {
			c.Script = Script{Steps: []Step{{At: 2 * time.Second, Do: Stop{}}, {At: time.Second, Do: Stop{}}}}
			c.Layout = gcproto.LayoutHSL20
		}, ErrScript},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.mod(&c)
			_, err := New(c)
			if !errors.Is(err, tc.want) || strings.Count(fmt.Sprint(err), "bad config") > 1 {
				t.Errorf("New: %v, want %v (and ErrConfig at most once)", err, tc.want)
			}
		})
	}
	if _, err := New(ok); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

func TestSendErrorsCounted(t *testing.T) {
	simulate(t, Config{Dest: Destination{Kind: DestUnicast, Addrs: dstOne.Addrs[:1:1]}}, func(t *testing.T, h *harness) {
		h.out.mu.Lock()
		h.out.err = errors.New("socket down")
		h.out.mu.Unlock()
		h.until(time.Second)
		if st := h.sim.Stats(); st.SendErrors != 2 || st.Packets != 3 {
			t.Errorf("stats %+v, want 2 send errors of 3 packets", st)
		}
	})
}

func TestSummary(t *testing.T) {
	s := Setup{Layout: gcproto.LayoutHSL20}
	text := "half 20s\n0.5 ready A\n1 set\n2 playing\n3 setplay corner_kick B\n3 stop\n3 penalise A 2 pushing 30s\n" +
		"4 resume\n4 dropball\n4.5 set\n4.8 playing\n5 goal B\n6 set\n7 playing\n"
	simulate(t, Config{Setup: s, Script: script(t, s, text)}, func(t *testing.T, h *harness) {
		for _, w := range []struct {
			at   time.Duration
			want string
		}{
			{0, "INITIAL  1st half  17 0:0 5  00:20  kick-off 17"},
			{500 * ms, "READY    1st half  17 0:0 5  00:20  kick-off 17, ready 00:45"},
			{1 * time.Second, "SET      1st half  17 0:0 5  00:20  kick-off 17"},
			{2500 * ms, "PLAYING  1st half  17 0:0 5  00:20  kick-off 17 (00:10)"},
			{3 * time.Second, "PLAYING  1st half  17 0:0 5  00:19  corner_kick for 5 (00:30)  STOPPED  A2 pushing 30 s"},
			// HSL: a dropped ball is a global game stuck, READY without a kicking team.
			{4 * time.Second, "READY    1st half  17 0:0 5  00:18  dropped ball, ready 00:45  A2 pushing 29 s"},
			{4600 * ms, "SET      1st half  17 0:0 5  00:18  dropped ball  A2 pushing 29 s"},
			{4900 * ms, "PLAYING  1st half  17 0:0 5  00:18  A2 pushing 29 s"},
			// The clock runs in READY and SET once started (the GameController's main timer).
			{5 * time.Second, "READY    1st half  17 0:1 5  00:17  kick-off 17, ready 00:45  A2 pushing 28 s"},
		} {
			h.until(w.at)
			if got := h.sim.State().Summary(); got != w.want {
				t.Errorf("at %v: Summary\n got %q\nwant %q", w.at, got, w.want)
			}
		}
		h.until(27 * time.Second)
		want := "FINISHED 1st half  17 0:1 5  00:00, half-time 09:55  A2 pushing 11 s" // half over at 22 s; penalties wait in FINISHED
		if got := h.sim.State().Summary(); got != want {
			t.Errorf("at the half: Summary\n got %q\nwant %q", got, want)
		}
	})
}
