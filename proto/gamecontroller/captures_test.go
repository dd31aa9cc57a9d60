package gamecontroller_test

import (
	"fmt"
	"math"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/pcaptest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Captures of the official GameControllers talking to dnetwork robots
// (testdata/captures/README.md tells what happened when).

// robot is one of our robots in a capture: its address, team and player.
type robot struct {
	addr         netip.Addr
	team, player uint8
}

// event is one step of a capture's timeline: the first control packet for which ok
// holds, at (seconds after the first READY; negative: not timed) ± 1.5 s.
type event struct {
	what string
	at   float64
	ok   func(p *gcproto.Packet) bool
}

var (
	gcAddr = netip.MustParseAddr("10.201.0.1")
	robotA = netip.MustParseAddr("10.201.0.11")
	robotB = netip.MustParseAddr("10.201.0.12")
)

func state(s gcproto.State) func(p *gcproto.Packet) bool {
	return func(p *gcproto.Packet) bool { return p.State == s }
}

// penalty reports whether player n of team (by number) has penalty code pen.
func penalty(team uint8, n int, pen gcproto.Penalty) func(p *gcproto.Packet) bool {
	return func(p *gcproto.Packet) bool {
		for i := range p.Teams {
			if p.Teams[i].TeamNumber == team {
				return p.Player(i, n).Penalty == pen
			}
		}
		return false
	}
}

func score(team, goals uint8) func(p *gcproto.Packet) bool {
	return func(p *gcproto.Packet) bool {
		for i := range p.Teams {
			if p.Teams[i].TeamNumber == team {
				return p.Teams[i].Score == goals
			}
		}
		return false
	}
}

func setPlay(s gcproto.SetPlay, team uint8) func(p *gcproto.Packet) bool {
	return func(p *gcproto.Packet) bool { return p.SetPlay == s && p.SetPlayTeam() == team }
}

// splTimeline is what the operator did in spl14 and spl15: README times minus the READY
// at 6 s; PLAYING and the goal reach the wire 15 s after the click.
var splTimeline = []event{
	{"INITIAL", -1, state(gcproto.StateInitial)},
	{"READY", 0, state(gcproto.StateReady)},
	{"SET", 13 - 6, state(gcproto.StateSet)},
	{"PLAYING (clicked at 17 s, on the wire 15 s later)", 17 + 15 - 6, state(gcproto.StatePlaying)},
	{"pushing on Black 2", 37.5 - 6, penalty(5, 2, 2)}, // PENALTY_SPL_PLAYER_PUSHING
	{"goal kick for team 5", 44 - 6, setPlay(gcproto.SetPlayGoalKick, 5)},
	{"kick-in for team 18", 80 - 6, setPlay(gcproto.SetPlayThrowIn, 18)}, // SPL KICK_IN
	{"Black 2 unpenalised", 86 - 6, penalty(5, 2, gcproto.PenaltyNone)},
	{"goal for team 5 (on the wire 15 s later)", 88 + 15 - 6, score(5, 1)},
	{"READY, kick-off for team 18", 88 + 15 - 6, func(p *gcproto.Packet) bool {
		return p.State == gcproto.StateReady && p.KickingTeamNumber() == 18
	}},
}

var captures = []struct {
	file    string
	layout  gcproto.Layout
	retVer  uint8
	robots  []robot
	events  []event
	budgets bool // every team packet counts against the budget (SPL v15 on)
}{
	{"hl12-gui.pcap", gcproto.LayoutHL688, gcproto.ReturnVersionHL, []robot{{robotA, 1, 3}, {robotB, 2, 1}}, []event{
		{"INITIAL", -1, state(gcproto.StateInitial)},
		{"READY", -1, state(gcproto.StateReady)},
		{"SET", -1, state(gcproto.StateSet)},
		{"PLAYING", -1, state(gcproto.StatePlaying)},
		{"pushing on red 3 (physical contact)", -1, penalty(1, 3, 31)},
		{"goal for blue", -1, score(2, 1)},
	}, false},
	{"spl14.pcap", gcproto.LayoutSPL14, gcproto.ReturnVersion, []robot{{robotA, 5, 2}, {robotB, 5, 3}}, splTimeline, false},
	{"spl15.pcap", gcproto.LayoutSPL15, gcproto.ReturnVersion, []robot{{robotA, 5, 2}, {robotB, 5, 3}}, splTimeline, true},
}

func TestCaptures(t *testing.T) {
	for _, c := range captures {
		t.Run(c.file, func(t *testing.T) {
			ds := pcaptest.ReadUDP(t, filepath.Join("..", "..", "testdata", "captures", c.file))
			byAddr := map[netip.Addr]robot{}
			for _, r := range c.robots {
				byAddr[r.addr] = r
			}
			var (
				control, returns, team int
				next                   int            // next timeline event
				readyAt                time.Duration  // first READY
				last                   gcproto.Packet // last control packet
				counted                map[uint8]int  // team messages counted per team
				budget0                map[uint8]int  // budget of the first control packet
			)
			counted, budget0 = map[uint8]int{}, map[uint8]int{}
			for _, d := range ds {
				switch {
				case d.Dst.Port() == gcproto.ControlPort:
					control++
					var p gcproto.Packet
					if err := p.UnmarshalBinary(d.Payload); err != nil {
						t.Fatalf("control packet %d at %v: %v", control, d.At, err)
					}
					if d.Src.Addr() != gcAddr || p.Layout != c.layout || p.Header != gcproto.HeaderRGme {
						t.Fatalf("control packet %d: from %v, %v %v; want %v from %v", control, d.Src, p.Header, p.Layout, c.layout, gcAddr)
					}
					if out, err := p.MarshalBinary(); err != nil || string(out) != string(d.Payload) {
						t.Fatalf("control packet %d does not re-encode: %v", control, err)
					}
					for _, r := range c.robots {
						if _, err := gcproto.Derive(&p, int(r.team), int(r.player)); err != nil {
							t.Fatalf("control packet %d: GCInfo of %d/%d: %v", control, r.team, r.player, err)
						}
					}
					if c.budgets {
						checkBudget(t, control, &p, budget0, counted)
					}
					if next < len(c.events) && c.events[next].ok(&p) {
						e := c.events[next]
						if p.State == gcproto.StateReady && readyAt == 0 {
							readyAt = d.At
						}
						if rel := (d.At - readyAt).Seconds(); e.at >= 0 && math.Abs(rel-e.at) > 1.5 {
							t.Errorf("%s at %.1f s after READY, want %.1f s", e.what, rel, e.at)
						}
						next++
					}
					last = p

				case d.Dst.Port() == gcproto.ReturnPort:
					returns++
					var rp gcproto.ReturnPacket
					if err := rp.UnmarshalBinary(d.Payload); err != nil {
						t.Fatalf("return packet %d from %v: %v", returns, d.Src, err)
					}
					r, ok := byAddr[d.Src.Addr()]
					if !ok || d.Dst.Addr() != gcAddr || rp.Version != c.retVer || rp.Team != r.team || rp.Player != r.player {
						t.Fatalf("return packet %d from %v to %v: %+v; want version %d from one of %v, unicast to %v",
							returns, d.Src, d.Dst, rp, c.retVer, c.robots, gcAddr)
					}
					if rp.Version == gcproto.ReturnVersionHL && rp.Message != gcproto.MsgAlive {
						t.Errorf("return packet %d: message %d, want ALIVE", returns, rp.Message)
					}

				case d.Dst.Port() > gcproto.TeamPortBase:
					team++
					var s teaminfo.State
					if _, err := teaminfo.DecodeDNet(d.Payload, &s, nil); err != nil {
						t.Fatalf("team packet %d from %v: %v", team, d.Src, err)
					}
					r, ok := byAddr[d.Src.Addr()]
					if !ok || s.Team != r.team || s.Player != r.player || d.Dst.Port() != league.TeamPort(r.team) {
						t.Fatalf("team packet %d from %v to %v: team %d player %d", team, d.Src, d.Dst, s.Team, s.Player)
					}
					if last.Layout.Valid() && league.SPL.Counted(uint8(last.State), uint8(last.GamePhase)) {
						counted[s.Team]++
					}
				default:
					t.Errorf("unexpected datagram %v -> %v (%d bytes)", d.Src, d.Dst, len(d.Payload))
				}
			}
			if next < len(c.events) {
				t.Errorf("timeline stops before %q (%d of %d events seen)", c.events[next].what, next, len(c.events))
			}
			if control < 50 || returns < 50 || team < 50 {
				t.Errorf("%d control, %d return, %d team packets; the capture holds more", control, returns, team)
			}
			if !c.budgets {
				for _, tm := range last.Teams {
					if c.layout.HasMessageBudget() && tm.MessageBudget != 1200 {
						t.Errorf("team %d budget %d, want 1200 throughout (v14 counts SPL standard messages only)", tm.TeamNumber, tm.MessageBudget)
					}
				}
			}
			t.Logf("%d control, %d return, %d team packets; counted %v", control, returns, team, counted)
		})
	}
}

// checkBudget: the SPL v15 GameController counts every team message heard in READY, SET
// and PLAYING, so a team's budget is its first value minus the messages counted before
// the control packet was sent (allowing for one message in flight).
func checkBudget(t *testing.T, n int, p *gcproto.Packet, budget0, counted map[uint8]int) {
	t.Helper()
	for _, tm := range p.Teams {
		b0, ok := budget0[tm.TeamNumber]
		if !ok {
			budget0[tm.TeamNumber], b0 = int(tm.MessageBudget), int(tm.MessageBudget)
		}
		used, want := b0-int(tm.MessageBudget), counted[tm.TeamNumber]
		if d := used - want; d < -1 || d > 1 {
			t.Errorf("control packet %d: team %d used %d of its budget, %d messages counted", n, tm.TeamNumber, used, want)
		}
	}
}

// ExampleFormatSecs shows the clock as the GameControllers show it.
func ExampleFormatSecs() {
	fmt.Println(gcproto.FormatSecs(600), gcproto.FormatSecs(35), gcproto.FormatSecs(-35))
	// Output: 10:00 00:35 -00:35
}
