package gamecontroller

import (
	"bytes"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

// TestEveryLayout runs a scripted GameController through every layout: the packet is
// accepted, GCInfo and GameControlData describe it, and the return packet has the
// version the layout's GameController expects.
func TestEveryLayout(t *testing.T) {
	if got, want := len(layoutCases), len(gcproto.Layouts()); got != want {
		t.Fatalf("%d layout cases for %d layouts", got, want)
	}
	for _, lc := range layoutCases {
		t.Run(lc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			p := basePacket(lc.layout)
			h.send(gcA, &p)

			got := h.lastInfo()
			want := wantBaseInfo(lc.name, lc.budget)
			want.Stamp = rosTime(t0)
			if got != want {
				t.Errorf("GCInfo\n got %+v\nwant %+v", got, want)
			}
			d, ok := h.data.Last()
			if !ok {
				t.Fatal("no GameControlData")
			}
			if d.Layout != lc.name || d.Version != lc.version || d.Magic != "RGme" || d.Source != gcA.String() ||
				d.State != 3 || d.KickingTeam != ourTeam || d.SecsRemaining != 300 || !d.FirstHalf {
				t.Errorf("GameControlData header %+v", d)
			}
			for i, team := range []uint8{ourTeam, otherTeam} {
				if d.Teams[i].TeamNumber != team || len(d.Teams[i].Players) != lc.players ||
					d.Teams[i].MessageBudget != uint16(max(lc.budget, 0)*(10-int32(i))/10) {
					t.Errorf("team %d: number %d, %d players, budget %d; want %d, %d players",
						i, d.Teams[i].TeamNumber, len(d.Teams[i].Players), d.Teams[i].MessageBudget, team, lc.players)
				}
				if hasCoach := len(d.Teams[i].CoachMessage) == gcproto.CoachMsgSize; hasCoach != lc.layout.HasCoach() {
					t.Errorf("team %d coach message of %d bytes", i, len(d.Teams[i].CoachMessage))
				}
			}
			if st := h.c.Status(); !st.Connected || st.Layout != lc.layout || st.Version != int(lc.version) ||
				st.GameController != gcA || st.Counters.Accepted != 1 {
				t.Errorf("status %+v", st)
			}

			h.advance(time.Second) // the first return tick
			sent := h.returns()
			if len(sent) != 1 {
				t.Fatalf("%d return packets after 1 s, want 1", len(sent))
			}
			var want4 []byte
			switch lc.retVer {
			case 2:
				want4 = returnV2(ourTeam, ourPlayer, 2)
			case 3:
				want4 = returnV3(ourTeam, ourPlayer)
			case 4:
				want4 = returnV4(ourPlayer, ourTeam, 0, [3]float32{}, -1, [2]float32{})
			}
			if !bytes.Equal(sent[0].Payload, want4) || sent[0].Dst != netip.MustParseAddrPort("10.0.0.1:3939") || sent[0].Broadcast {
				t.Errorf("return packet % x to %v (broadcast %v), want % x to 10.0.0.1:3939",
					sent[0].Payload, sent[0].Dst, sent[0].Broadcast, want4)
			}
			h.checkInvariant()
		})
	}
}

// TestGCInfoDerivation checks the published GCInfo for each state, set play (ours and
// theirs), game phase, penalty, ready/freeze and the special kicking teams.
func TestGCInfoDerivation(t *testing.T) {
	type tc struct {
		name   string
		layout gcproto.Layout
		mod    func(p *gcproto.Packet)
		want   func(m *dmsgs.GCInfo)
	}
	var cases []tc
	for _, l := range []gcproto.Layout{gcproto.LayoutHL688, gcproto.LayoutSPL18, gcproto.LayoutHSL20} {
		states := []gcproto.State{gcproto.StateInitial, gcproto.StateReady, gcproto.StateSet, gcproto.StatePlaying, gcproto.StateFinished}
		if l == gcproto.LayoutSPL18 {
			states = append(states, gcproto.StateStandby)
		}
		for _, s := range states {
			cases = append(cases, tc{fmt.Sprintf("%s/state%d", l, s), l,
				func(p *gcproto.Packet) { p.State = s },
				func(m *dmsgs.GCInfo) { m.State = uint8(s) }})
		}
	}
	hl, spl, hsl := gcproto.LayoutHL688, gcproto.LayoutSPL18, gcproto.LayoutHSL20
	cases = append(cases,
		// HL: set play team in secondaryStateInfo[0], sub-mode in [1].
		tc{"hl/our-corner-ready", hl,
			func(p *gcproto.Packet) {
				p.SetPlay = gcproto.SetPlayCornerKick
				p.SecondaryStateInfo = [4]uint8{ourTeam, 1, 0, 0}
			},
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 6, 7, ourTeam
				m.OurCornerKick, m.Ready = true, true
			}},
		tc{"hl/enemy-freekick-freeze", hl,
			func(p *gcproto.Packet) {
				p.SetPlay = gcproto.SetPlayDirectFreeKick
				p.SecondaryStateInfo = [4]uint8{otherTeam, 0, 0, 0}
			},
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 1, 4, otherTeam
				m.EnemyDirectFreeKick, m.Freeze = true, true
			}},
		tc{"hl/enemy-throwin-checking", hl,
			func(p *gcproto.Packet) {
				p.SetPlay = gcproto.SetPlayThrowIn
				p.SecondaryStateInfo = [4]uint8{otherTeam, 2, 0, 0}
			},
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 4, 9, otherTeam
				m.EnemyThrowIn, m.Freeze = true, true
			}},
		tc{"hl/our-penaltykick", hl,
			func(p *gcproto.Packet) {
				p.SetPlay = gcproto.SetPlayPenaltyKick
				p.SecondaryStateInfo = [4]uint8{ourTeam, 1, 0, 0}
			},
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 3, 6, ourTeam
				m.OurPenaltyKick, m.Ready = true, true
			}},
		tc{"hl/penalty-shoot-no-freeze", hl,
			func(p *gcproto.Packet) { p.GamePhase = gcproto.GamePhasePenaltyShoot },
			func(m *dmsgs.GCInfo) { m.GamePhase, m.SecondaryState = 1, 1 }},
		tc{"hl/penalised", hl,
			func(p *gcproto.Packet) {
				p.Teams[0].Players[ourPlayer-1] = gcproto.RobotInfo{Penalty: 34, SecsTillUnpenalised: 25}
			},
			func(m *dmsgs.GCInfo) { m.Penalised, m.Penalty, m.SecsTillUnpenalised = true, 34, 25 }},
		tc{"hl/teammate-penalised", hl,
			func(p *gcproto.Packet) {
				p.Teams[0].Players[ourPlayer] = gcproto.RobotInfo{Penalty: 34, SecsTillUnpenalised: 25}
			},
			func(m *dmsgs.GCInfo) {}},
		tc{"hl/dropball-java", hl,
			func(p *gcproto.Packet) { p.KickingTeam = gcproto.DropBallJava },
			func(m *dmsgs.GCInfo) { m.Kickoff, m.DropBall = false, true }},
		tc{"hl/negative-time", hl,
			func(p *gcproto.Packet) { p.SecsRemaining, p.SecondaryTime = -35, 45 },
			func(m *dmsgs.GCInfo) { m.SecsRemaining, m.SecondaryTime = 0, 45 }},

		// SPL: kickingTeam is the set play team; freeze in SET, ready in PLAYING.
		tc{"spl/enemy-pushing-ready", spl,
			func(p *gcproto.Packet) { p.SetPlay, p.KickingTeam = gcproto.SetPlayPushingFreeKick, otherTeam },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 7, 4, otherTeam
				m.EnemyDirectFreeKick, m.Ready, m.Kickoff = true, true, false
			}},
		tc{"spl/our-goalkick-set-freeze", spl,
			func(p *gcproto.Packet) { p.State, p.SetPlay = gcproto.StateSet, gcproto.SetPlayGoalKick },
			func(m *dmsgs.GCInfo) {
				m.State, m.SetPlay, m.SecondaryState, m.SetPlayTeam = 2, 5, 8, ourTeam
				m.OurGoalKick, m.Freeze = true, true
			}},
		tc{"spl/our-kickin", spl,
			func(p *gcproto.Packet) { p.SetPlay = gcproto.SetPlayThrowIn },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 4, 9, ourTeam
				m.OurThrowIn, m.Ready = true, true
			}},
		tc{"spl/timeout", spl,
			func(p *gcproto.Packet) { p.GamePhase, p.State = gcproto.GamePhaseTimeout, gcproto.StateInitial },
			func(m *dmsgs.GCInfo) { m.GamePhase, m.SecondaryState, m.State = 3, 3, 0 }},
		tc{"spl/penalised", spl,
			func(p *gcproto.Packet) {
				p.Teams[0].Players[ourPlayer-1] = gcproto.RobotInfo{Penalty: 2, SecsTillUnpenalised: 45}
			},
			func(m *dmsgs.GCInfo) { m.Penalised, m.Penalty, m.SecsTillUnpenalised = true, 2, 45 }},
		tc{"spl/negative-time-second-half", spl,
			func(p *gcproto.Packet) { p.SecsRemaining, p.FirstHalf = -12, false },
			func(m *dmsgs.GCInfo) { m.SecsRemaining, m.FirstHalf = 0, false }},
		tc{"spl/budget", spl,
			func(p *gcproto.Packet) { p.Teams[0].MessageBudget = 17 },
			func(m *dmsgs.GCInfo) { m.MessageBudget = 17 }},

		// HSL: stopped freezes even while PLAYING.
		tc{"hsl/our-throwin-stopped", hsl,
			func(p *gcproto.Packet) { p.SetPlay, p.Stopped = gcproto.SetPlayThrowIn, true },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 4, 9, ourTeam
				m.OurThrowIn, m.Freeze, m.Stopped = true, true, true
			}},
		tc{"hsl/enemy-indirect-ready", hsl,
			func(p *gcproto.Packet) { p.SetPlay, p.KickingTeam = gcproto.SetPlayIndirectFreeKick, otherTeam },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 2, 5, otherTeam
				m.EnemyIndirectFreeKick, m.Ready, m.Kickoff = true, true, false
			}},
		tc{"hsl/enemy-penaltykick-set", hsl,
			func(p *gcproto.Packet) {
				p.State, p.SetPlay, p.KickingTeam = gcproto.StateSet, gcproto.SetPlayPenaltyKick, otherTeam
			},
			func(m *dmsgs.GCInfo) {
				m.State, m.SetPlay, m.SecondaryState, m.SetPlayTeam = 2, 3, 6, otherTeam
				m.EnemyPenaltyKick, m.Freeze, m.Kickoff = true, true, false
			}},
		tc{"hsl/enemy-corner", hsl,
			func(p *gcproto.Packet) { p.SetPlay, p.KickingTeam = gcproto.SetPlayCornerKick, otherTeam },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 6, 7, otherTeam
				m.EnemyCornerKick, m.Ready, m.Kickoff = true, true, false
			}},
		tc{"hsl/our-direct", hsl,
			func(p *gcproto.Packet) { p.SetPlay = gcproto.SetPlayDirectFreeKick },
			func(m *dmsgs.GCInfo) {
				m.SetPlay, m.SecondaryState, m.SetPlayTeam = 1, 4, ourTeam
				m.OurDirectFreeKick, m.Ready = true, true
			}},
		tc{"hsl/extra-time", hsl,
			func(p *gcproto.Packet) { p.GamePhase = gcproto.GamePhaseOvertime },
			func(m *dmsgs.GCInfo) { m.GamePhase, m.SecondaryState = 2, 2 }},
		tc{"hsl/penalised-pickup", hsl,
			func(p *gcproto.Packet) {
				p.Teams[0].Players[ourPlayer-1] = gcproto.RobotInfo{Penalty: 6, SecsTillUnpenalised: 30}
			},
			func(m *dmsgs.GCInfo) { m.Penalised, m.Penalty, m.SecsTillUnpenalised = true, 6, 30 }},
		// HSL: no kicking team is ordinary play in PLAYING, a dropped ball in READY/SET.
		tc{"hsl/no-kicking-team", hsl,
			func(p *gcproto.Packet) { p.KickingTeam = gcproto.KickingTeamNone },
			func(m *dmsgs.GCInfo) { m.Kickoff, m.DropBall = false, false }},
		tc{"hsl/dropball", hsl,
			func(p *gcproto.Packet) { p.KickingTeam, p.State = gcproto.KickingTeamNone, gcproto.StateSet },
			func(m *dmsgs.GCInfo) { m.Kickoff, m.DropBall, m.State = false, true, dmsgs.GCInfoStateSet }},
		tc{"hsl/our-team-second", hsl,
			func(p *gcproto.Packet) {
				p.Teams[0], p.Teams[1] = p.Teams[1], p.Teams[0]
				p.Teams[1].Players[ourPlayer-1] = gcproto.RobotInfo{Penalty: 2, SecsTillUnpenalised: 9}
			},
			func(m *dmsgs.GCInfo) { m.Penalised, m.Penalty, m.SecsTillUnpenalised = true, 2, 9 }},
	)
	names := map[gcproto.Layout]string{hl: "HL688", spl: "SPL18", hsl: "HSL20"}
	budgets := map[gcproto.Layout]int32{hl: -1, spl: 1000, hsl: 1000}

	// One GameController and one component run through every case in turn, as a game
	// would; a fresh component per case would hide state carried between packets. Each
	// packet is sent twice, as a GameController repeats it: the cases jump between
	// layouts and situations as no GameController does in one packet, and such a jump
	// waits for the packet after it (TestConfirm).
	h := newHarness(t, nil)
	for i, c := range cases {
		p := basePacket(c.layout)
		p.PacketNumber = uint8(2 * i)
		c.mod(&p)
		h.send(gcA, &p)
		p.PacketNumber++
		h.send(gcA, &p)
		h.advance(100 * time.Millisecond)
		// The latest publication may be periodic or on change; either must be current.
		got := h.lastInfo()
		got.Stamp = builtin_interfaces.Time{}
		want := wantBaseInfo(names[c.layout], budgets[c.layout])
		c.want(&want)
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, want)
		}
		snap := h.c.Snapshot()
		if !snap.Connected || !snap.Valid || uint8(snap.State) != want.State || snap.Penalised != want.Penalised ||
			snap.Kickoff != want.Kickoff || int32(snap.MessageBudget) != want.MessageBudget || snap.Layout != c.layout ||
			uint8(snap.SetPlay) != want.SetPlay || uint8(snap.GamePhase) != want.GamePhase ||
			snap.SecsRemaining != want.SecsRemaining || snap.FirstHalf != want.FirstHalf || snap.Source != gcA {
			t.Errorf("%s: snapshot %+v disagrees with %+v", c.name, snap, want)
		}
	}
	h.checkInvariant()
}
