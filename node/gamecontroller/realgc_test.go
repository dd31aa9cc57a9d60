package gamecontroller

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/gcapi"
	"github.com/robocup-dnetwork/dnetwork/internal/pcaptest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// realStep is one step of a game on the GameController's own logic: the referee's
// actions, then packets every half second for wait, with team messages of both teams.
type realStep struct {
	acts []gcapi.Action
	wait time.Duration
}

// realGame plays a game with goals, penalties, set plays, stopped play, a global game
// stuck, half time, extra time and a penalty shoot-out's first shot on the GameController's game logic
// (game_controller_api, package gcapi) and returns the control packets it sends at
// 2 Hz, numbered one after another, as raw bytes. It skips when the library is absent.
func realGame(t *testing.T) [][]byte {
	t.Helper()
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
	g, err := l.NewGame(y, [2]gcapi.Team{
		{Number: ourTeam, FieldPlayerColor: gcapi.Color(gcproto.ColourRed), GoalkeeperColor: gcapi.Color(gcproto.ColourBlack)},
		{Number: otherTeam, FieldPlayerColor: gcapi.Color(gcproto.ColourBlue), GoalkeeperColor: gcapi.Color(gcproto.ColourYellow)},
	}, gcapi.Home, gcapi.HomeDefendsLeftGoal, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	home, away := gcapi.Home, gcapi.Away
	a := func(x ...gcapi.Action) []gcapi.Action { return x }
	s := time.Second
	steps := []realStep{
		{nil, 2 * s},
		{a(gcapi.StartSetPlay(&home, gcapi.KickOff)), 5 * s},
		{a(gcapi.WaitForSetPlay), 3 * s},
		{a(gcapi.FreeSetPlay), 12 * s}, // the kick-off runs out after 10 s
		{a(gcapi.Penalize(away, 3, gcapi.CallPushing)), 3 * s},
		{a(gcapi.StartSetPlay(&away, gcapi.DirectFreeKick)), 4 * s}, // play stops for it
		{a(gcapi.StopPlay(true)), 35 * s},                           // its timer runs out
		{a(gcapi.StopPlay(false)), 3 * s},
		{a(gcapi.StopPlay(true)), 3 * s},
		{a(gcapi.StartSetPlay(&home, gcapi.CornerKick)), 3 * s},
		{a(gcapi.StopPlay(true)), 5 * s},
		{a(gcapi.Goal(home)), 5 * s},
		{a(gcapi.WaitForSetPlay), 2 * s},
		{a(gcapi.FreeSetPlay), 5 * s},
		{a(gcapi.GlobalGameStuck), 3 * s},
		{a(gcapi.WaitForSetPlay), 2 * s},
		{a(gcapi.FreeSetPlay), 50 * s}, // the penalty runs out
		{a(gcapi.FinishHalf), 5 * s},
		{a(gcapi.SwitchHalf), 3 * s},
		{a(gcapi.StartSetPlay(&away, gcapi.KickOff)), 3 * s},
		{a(gcapi.WaitForSetPlay), 2 * s},
		{a(gcapi.FreeSetPlay), 5 * s},
		{a(gcapi.Goal(away)), 3 * s},
		{a(gcapi.FinishHalf), 3 * s},
		{a(gcapi.StartExtraTime), 2 * s},
		{a(gcapi.StartSetPlay(&home, gcapi.KickOff)), 2 * s},
		{a(gcapi.WaitForSetPlay), 2 * s},
		{a(gcapi.FreeSetPlay), 3 * s},
		{a(gcapi.FinishHalf), 2 * s},
		{a(gcapi.SwitchHalf), 2 * s},
		{a(gcapi.StartSetPlay(&away, gcapi.KickOff)), 2 * s},
		{a(gcapi.WaitForSetPlay), 2 * s},
		{a(gcapi.FreeSetPlay), 3 * s},
		{a(gcapi.FinishHalf), 3 * s},
		{a(gcapi.StartPenaltyShootout(gcapi.HomeDefendsRightGoal)), 2 * s},
		{a(gcapi.WaitForPenaltyShot), 3 * s},
	}
	var out [][]byte
	var n uint8
	for i, st := range steps {
		for _, act := range st.acts {
			if !g.Apply(act) {
				var q gcproto.Packet
				_ = q.UnmarshalBinary(g.Read(0, false))
				t.Fatalf("step %d: the GameController did not take %v in %v, set play %v, stopped %v", i, act, q.State, q.SetPlay, q.Stopped)
			}
		}
		for range st.wait / (sendInterval) {
			g.Apply(gcapi.TeamMessage(home, false))
			g.Apply(gcapi.TeamMessage(away, false))
			out = append(out, g.Read(n, false))
			n++
			g.Seek(sendInterval)
		}
	}
	return out
}

// TestRealGameNeedsNoConfirmation: every control packet of a game played on the
// GameController's own logic follows the one before it as a GameController changes a
// game: none would wait for confirmation, but for the one that starts an untimed
// penalty (pushing: this GameController times only motion in set), which nothing tells
// from a corrupted byte.
func TestRealGameNeedsNoConfirmation(t *testing.T) {
	pkts := realGame(t)
	var prev gcproto.Packet
	states := map[gcproto.State]bool{}
	goals := 0
	for i, b := range pkts {
		var p gcproto.Packet
		if err := p.UnmarshalBinary(b); err != nil {
			t.Fatalf("packet %d: %v", i, err)
		}
		if i > 0 {
			if why := Doubt(&prev, &p, sendInterval); why != "" && (why != "penalty" || !untimedPenaltyStarts(&prev, &p)) {
				t.Errorf("packet %d: %v → %v: %s\n%+v\n%+v", i, prev.State, p.State, why, prev, p)
			}
			if p.Teams[0].Score+p.Teams[1].Score != prev.Teams[0].Score+prev.Teams[1].Score {
				goals++
			}
		}
		states[p.State] = true
		prev = p
	}
	if goals != 2 || len(states) < 5 {
		t.Errorf("the game had %d goals and states %v; the script wants 2 and every state", goals, states)
	}
	t.Logf("%d control packets", len(pkts))
}

// untimedPenaltyStarts reports whether a robot without a penalty in prev has one
// without a timer in next.
func untimedPenaltyStarts(prev, next *gcproto.Packet) bool {
	for t := range next.Teams {
		for i := range next.Layout.MaxPlayers() {
			a, b := &prev.Teams[t].Players[i], &next.Teams[t].Players[i]
			if a.Penalty == gcproto.PenaltyNone && b.Penalty != gcproto.PenaltyNone && b.SecsTillUnpenalised == 0 {
				return true
			}
		}
	}
	return false
}

// realPacket is a control packet of a real GameController as it came, and when.
type realPacket struct {
	src string // the capture, or "game"
	b   []byte
	at  time.Duration
}

// realPackets returns the control packets of the captures of real GameControllers (one
// sequence per capture and sender) and of a game on the GameController's own logic
// (when it can be loaded: without cgo, the captures alone).
func realPackets(t *testing.T) [][]realPacket {
	var seqs [][]realPacket
	for _, f := range captureFiles(t) {
		bySrc := map[string]int{}
		for _, d := range pcaptest.ReadUDP(t, f) {
			var p gcproto.Packet
			if d.Dst.Port() != gcproto.ControlPort || p.UnmarshalBinary(d.Payload) != nil || p.Header != gcproto.HeaderRGme {
				continue
			}
			i, ok := bySrc[d.Src.Addr().String()]
			if !ok {
				i = len(seqs)
				bySrc[d.Src.Addr().String()] = i
				seqs = append(seqs, nil)
			}
			seqs[i] = append(seqs[i], realPacket{filepath.Base(f), slices.Clone(d.Payload), d.At})
		}
	}
	if lib, _, err := gcapi.Locate("."); err == nil && lib != "" && !errors.Is(opened(lib), gcapi.ErrNoCgo) {
		var seq []realPacket
		for i, b := range realGame(t) {
			seq = append(seq, realPacket{"game", b, time.Duration(i) * sendInterval})
		}
		seqs = append(seqs, seq)
	}
	return seqs
}

// opened returns the error of opening the library at lib.
func opened(lib string) error {
	_, err := gcapi.Open(lib)
	return err
}

// changedFields names the fields in which a and b differ, as the corruption test
// classes them.
func changedFields(a, b *gcproto.Packet) []string {
	var f []string
	add := func(c bool, name string) {
		if c {
			f = append(f, name)
		}
	}
	add(a.PacketNumber != b.PacketNumber, "packet_number")
	add(a.State != b.State, "state")
	add(a.GamePhase != b.GamePhase, "phase")
	add(a.SetPlay != b.SetPlay || a.SetPlayRaw != b.SetPlayRaw, "set_play")
	add(a.KickingTeam != b.KickingTeam, "kicking_team")
	add(a.Stopped != b.Stopped, "stopped")
	add(a.FirstHalf != b.FirstHalf || a.GameType != b.GameType || a.CompetitionType != b.CompetitionType ||
		a.CompetitionPhase != b.CompetitionPhase || a.PlayersPerTeam != b.PlayersPerTeam, "game")
	add(a.SecsRemaining != b.SecsRemaining, "secs_remaining")
	add(a.SecondaryTime != b.SecondaryTime, "secondary_time")
	var score, teams, budget, penalty, timer, cards bool
	for t := range a.Teams {
		x, y := &a.Teams[t], &b.Teams[t]
		score = score || x.Score != y.Score
		teams = teams || x.TeamNumber != y.TeamNumber || x.FieldPlayerColour != y.FieldPlayerColour || x.GoalkeeperColour != y.GoalkeeperColour
		budget = budget || x.MessageBudget != y.MessageBudget
		for i := range x.Players {
			p, q := &x.Players[i], &y.Players[i]
			penalty = penalty || p.Penalty != q.Penalty
			timer = timer || p.SecsTillUnpenalised != q.SecsTillUnpenalised
			cards = cards || p.YellowCards != q.YellowCards || p.RedCards != q.RedCards || p.Warnings != q.Warnings
		}
	}
	add(score, "score")
	add(teams, "teams")
	add(budget, "budget")
	add(penalty, "penalty")
	add(timer, "secs_till_unpenalised")
	add(cards, "cards")
	if len(f) == 0 && *a != *b {
		f = append(f, "other")
	}
	return f
}

// TestCorruptionsWithinSlack flips every bit, one at a time, of every control packet of
// real GameControllers (the captures and a game on the GameController's own logic), as
// a link that corrupts a datagram and fixes its UDP checksum does (internal/linkemu),
// and checks what would be published: when nothing but the clocks ran from the packet
// before (a steady packet, most of a game), no corruption of a score, a team, a colour
// or the half is, and no clock or penalty timer moved by two seconds or more (three
// in INITIAL and FINISHED, where a clock may rise by one). It logs
// how many corruptions of each field would be published, steady or not.
func TestCorruptionsWithinSlack(t *testing.T) {
	published, publishedSteady := map[string]int{}, map[string]int{}
	tried, failed := 0, 0
	for _, seq := range realPackets(t) {
		for i := 1; i < len(seq); i++ {
			var prev, next gcproto.Packet
			if prev.UnmarshalBinary(seq[i-1].b) != nil || next.UnmarshalBinary(seq[i].b) != nil {
				t.Fatal("a real packet does not decode")
			}
			elapsed := seq[i].at - seq[i-1].at
			if Doubt(&prev, &next, elapsed) != "" {
				continue // the real packet is held itself (an untimed penalty)
			}
			steady := changedFields(&prev, &next)
			steady = slices.DeleteFunc(steady, func(f string) bool {
				return f == "packet_number" || f == "secs_remaining" || f == "secondary_time" || f == "budget" ||
					f == "secs_till_unpenalised"
			})
			b := slices.Clone(seq[i].b)
			for bit := range len(b) * 8 {
				b[bit/8] ^= 1 << (bit % 8)
				var c gcproto.Packet
				err := c.UnmarshalBinary(b)
				b[bit/8] ^= 1 << (bit % 8)
				if err != nil || c == next {
					continue // dropped as malformed, or a byte no field holds
				}
				tried++
				if Doubt(&prev, &c, elapsed) != "" {
					continue
				}
				fields := changedFields(&next, &c)
				for _, f := range fields {
					published[f]++
				}
				if len(steady) > 0 {
					continue
				}
				for _, f := range fields {
					publishedSteady[f]++
				}
				bad := slices.ContainsFunc(fields, func(f string) bool {
					return f == "score" || f == "teams" || f == "game"
				})
				slack := int32(1)
				if next.State == gcproto.StateInitial || next.State == gcproto.StateFinished {
					slack = 2 // a clock may rise by one there (confirm.go), a tick may fall by one
				}
				for _, d := range []int32{c.SecsRemaining - next.SecsRemaining, c.SecondaryTime - next.SecondaryTime} {
					bad = bad || d > slack || d < -slack
				}
				for t := range c.Teams {
					for j := range c.Teams[t].Players {
						r := &c.Teams[t].Players[j]
						d := int32(r.SecsTillUnpenalised) - int32(next.Teams[t].Players[j].SecsTillUnpenalised)
						bad = bad || r.Penalty != gcproto.PenaltyNone && (d > 1 || d < -1)
					}
				}
				if bad {
					if failed++; failed <= 5 {
						t.Errorf("%s, packet %d, bit %d: corrupted %v published (%v, clocks %d, %d)",
							seq[i].src, i, bit, fields, next.State, next.SecsRemaining, next.SecondaryTime)
					}
				}
			}
		}
	}
	if failed > 5 {
		t.Errorf("... %d in all", failed)
	}
	t.Logf("%d decodable single-bit corruptions; published, by field changed: %v; of them after a steady packet: %v",
		tried, published, publishedSteady)
}

// corruptWithin returns the datagram b of packet p with one bit flipped so that it
// decodes to a change of kind alone ("score", "team", "clock": secs_remaining or
// secondary_time by two seconds or more, up or down), or nil when no single bit does.
func corruptWithin(b []byte, p *gcproto.Packet, kind string) []byte {
	c := slices.Clone(b)
	for bit := range len(c) * 8 {
		c[bit/8] ^= 1 << (bit % 8)
		var q gcproto.Packet
		if q.UnmarshalBinary(c) == nil {
			f := changedFields(p, &q)
			ds, dt := q.SecsRemaining-p.SecsRemaining, q.SecondaryTime-p.SecondaryTime
			switch {
			case kind == "score" && slices.Equal(f, []string{"score"}),
				kind == "team" && slices.Equal(f, []string{"teams"}),
				kind == "clock" && slices.Equal(f, []string{"secs_remaining"}) && (ds > 1 || ds < -1),
				kind == "clock" && slices.Equal(f, []string{"secondary_time"}) && (dt > 1 || dt < -1):
				return c
			}
		}
		c[bit/8] ^= 1 << (bit % 8)
	}
	return nil
}

// TestCorruptedCaptureHeld replays a capture of a real GameController (SPL v15, our
// robot team 5 player 2) on a manual clock with every fourth packet of steady play
// replaced by a copy with one bit flipped within a field's slack (a score moving by
// one, a team number, a clock moving by two seconds or more), as a corrupting link with
// a valid UDP checksum delivers it: the view (Snapshot, GCInfo) never changes with the
// corrupted packet, which is counted as unconfirmed (or as another team's, when the
// bit made our team number another), and the true packet after it is published at
// once.
func TestCorruptedCaptureHeld(t *testing.T) {
	f := filepath.Join("..", "..", "testdata", "captures", "spl15.pcap")
	h := newHarness(t, func(c *Config) { c.Team, c.Player = 5, 2 })
	var prev gcproto.Packet
	var prevAt time.Duration
	n, kinds := 0, []string{"score", "team", "clock"}
	corrupted := map[string]int{}
	for _, d := range pcaptest.ReadUDP(t, f) {
		var p gcproto.Packet
		if d.Dst.Port() != gcproto.ControlPort || p.UnmarshalBinary(d.Payload) != nil || p.Header != gcproto.HeaderRGme {
			continue
		}
		if n > 0 {
			h.advance(d.At - prevAt)
		}
		prevAt = d.At
		steady := n > 0 && p.State == prev.State && p.SetPlay == prev.SetPlay && p.KickingTeam == prev.KickingTeam
		src := netip.AddrPortFrom(d.Src.Addr(), d.Src.Port())
		if steady && n%4 == 0 {
			kind := kinds[(n/4)%len(kinds)]
			if c := corruptWithin(d.Payload, &p, kind); c != nil {
				before, cs := h.c.Snapshot(), h.c.Status().Counters
				infos := len(h.info.Messages())
				h.deliver(src, c)
				after := h.c.Snapshot()
				if after.GCInfo != before.GCInfo || len(h.info.Messages()) != infos {
					t.Fatalf("packet %d: a corrupted %s published: %+v after %+v", n, kind, after.GCInfo, before.GCInfo)
				}
				// Held, or dropped as another team's when it was our team number.
				if got := h.c.Status().Counters; got.Accepted != cs.Accepted || got.Dropped() != cs.Dropped()+1 ||
					got.Unconfirmed.Total()+got.NotOurTeam != cs.Unconfirmed.Total()+cs.NotOurTeam+1 {
					t.Fatalf("packet %d: corrupted %s not dropped as unconfirmed: %+v", n, kind, got)
				}
				corrupted[kind]++
			}
		}
		h.deliver(src, d.Payload)
		s := h.c.Snapshot()
		if s.State != p.State || int32(s.SecsRemaining) != p.SecsRemaining || int32(s.SecondaryTime) != p.SecondaryTime ||
			s.OurScore != p.Teams[0].Score || s.EnemyScore != p.Teams[1].Score {
			t.Fatalf("packet %d: the true packet not published: %+v, want %+v", n, s.GCInfo, p)
		}
		prev = p
		n++
	}
	if corrupted["score"] == 0 || corrupted["team"] == 0 || corrupted["clock"] == 0 {
		t.Fatalf("corruptions delivered: %v", corrupted)
	}
	t.Logf("%d packets, corrupted %v", n, corrupted)
	h.checkInvariant()
}
