package gamecontroller

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/pcaptest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// TestCapturesNeedNoConfirmation: every control packet of the captures of real
// GameControllers (testdata/captures, and ../shared/captures when present) follows the
// one before it from the same GameController as a GameController changes a game in
// one step: none would wait for confirmation.
func TestCapturesNeedNoConfirmation(t *testing.T) {
	for _, f := range captureFiles(t) {
		type last struct {
			p  gcproto.Packet
			at time.Duration
		}
		prev := map[string]*last{}
		n := 0
		for _, d := range pcaptest.ReadUDP(t, f) {
			var p gcproto.Packet
			if d.Dst.Port() != gcproto.ControlPort || p.UnmarshalBinary(d.Payload) != nil || p.Header != gcproto.HeaderRGme {
				continue
			}
			src := d.Src.Addr().String()
			if l := prev[src]; l != nil {
				if why := Doubt(&l.p, &p, d.At-l.at); why != "" {
					t.Errorf("%s at %v: %v → %v: %s", f, d.At, l.p.State, p.State, why)
				}
			}
			prev[src] = &last{p, d.At}
			n++
		}
		t.Logf("%s: %d control packets", f, n)
	}
}

// captureFiles returns the captures of real GameControllers: testdata/captures, and
// ../shared/captures when present.
func captureFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{filepath.Join("..", "..", "testdata", "captures"), filepath.Join("..", "..", "..", "shared", "captures")} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.pcap"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no captures")
	}
	return files
}

// confirmBase is an HSL v20 packet in PLAYING, teams 17 and 5.
func confirmBase() gcproto.Packet {
	p := basePacket(gcproto.LayoutHSL20)
	p.State = gcproto.StatePlaying
	return p
}

// TestDoubt pins the changes that wait for a second packet and those that do not.
func TestDoubt(t *testing.T) {
	base := confirmBase()
	half := time.Second / 2
	for _, tc := range []struct {
		name    string
		mod     func(p *gcproto.Packet)
		elapsed time.Duration
		want    string
	}{
		{"nothing", func(p *gcproto.Packet) {}, half, ""},
		{"a goal", func(p *gcproto.Packet) { p.Teams[0].Score++; p.State = gcproto.StateReady }, half, ""},
		{"a goal undone alone", func(p *gcproto.Packet) { p.Teams[1].Score-- }, half, "score"},
		{"a goal alone", func(p *gcproto.Packet) { p.Teams[1].Score++ }, half, "score"},
		{"a goal with the kicking team", func(p *gcproto.Packet) { p.Teams[1].Score++; p.KickingTeam = otherTeam }, half, ""},
		{"score +2", func(p *gcproto.Packet) { p.Teams[0].Score += 2 }, half, "score"},
		{"score 0:64", func(p *gcproto.Packet) { p.Teams[1].Score = 64 }, half, "score"},
		{"PLAYING to READY alone", func(p *gcproto.Packet) { p.State = gcproto.StateReady }, half, "state"},
		{"PLAYING to SET alone", func(p *gcproto.Packet) { p.State = gcproto.StateSet }, half, "state"},
		{"PLAYING to INITIAL", func(p *gcproto.Packet) { p.State = gcproto.StateInitial }, half, "state"},
		{"global game stuck", func(p *gcproto.Packet) { p.State, p.KickingTeam = gcproto.StateReady, gcproto.KickingTeamNone }, half, ""},
		{"PLAYING to FINISHED", func(p *gcproto.Packet) { p.State = gcproto.StateFinished }, half, ""},
		// What HSL's GameController (v19) sends in TestE2EHSLGameController.
		{"PLAYING to READY with its timer", func(p *gcproto.Packet) { p.State, p.SecondaryTime = gcproto.StateReady, 45 }, half, ""},
		{"PLAYING to INITIAL, the clock reset", func(p *gcproto.Packet) { p.State, p.SecsRemaining = gcproto.StateInitial, 600 }, half, ""},
		{"PLAYING to SET with a new kicking team", func(p *gcproto.Packet) { p.State, p.KickingTeam = gcproto.StateSet, otherTeam }, half, ""},
		{"phase in play", func(p *gcproto.Packet) { p.GamePhase = gcproto.GamePhaseTimeout }, half, "phase"},
		{"a set play with its timer", func(p *gcproto.Packet) { p.SetPlay, p.SecondaryTime = gcproto.SetPlayCornerKick, 30 }, half, ""},
		{"a set play without its timer", func(p *gcproto.Packet) { p.SetPlay = gcproto.SetPlayCornerKick }, half, "set_play"},
		{"other colours", func(p *gcproto.Packet) { p.Teams[1].FieldPlayerColour ^= 1 }, half, "game"},
		{"second half in play", func(p *gcproto.Packet) { p.FirstHalf = !p.FirstHalf }, half, "game"},
		{"kicking team 200", func(p *gcproto.Packet) { p.KickingTeam = 200 }, half, "game"},
		{"penalty with its timer", func(p *gcproto.Packet) {
			p.Teams[0].Players[1] = gcproto.RobotInfo{Penalty: 6, SecsTillUnpenalised: 30}
		}, half, ""},
		{"penalty without a timer", func(p *gcproto.Packet) { p.Teams[0].Players[1].Penalty = 6 }, half, "penalty"},
		{"clock ticks", func(p *gcproto.Packet) { p.SecsRemaining-- }, half, ""},
		{"clock after 10 s lost", func(p *gcproto.Packet) { p.SecsRemaining -= 10 }, 10 * time.Second, ""},
		{"clock jumps down", func(p *gcproto.Packet) { p.SecsRemaining -= 64 }, half, "clock"},
		// The next packet (number + 1): a clock ticks once at most; after a lost packet
		// (+ 2) twice; a packet number that stands leaves the bound by time.
		{"clock ticks, next packet", func(p *gcproto.Packet) { p.SecsRemaining--; p.PacketNumber++ }, half, ""},
		{"clock -2, next packet", func(p *gcproto.Packet) { p.SecsRemaining -= 2; p.PacketNumber++ }, half, "clock"},
		{"secondary -2, next packet", func(p *gcproto.Packet) { p.SecondaryTime -= 2; p.PacketNumber++ }, half, "clock"},
		{"clock -2, a packet lost", func(p *gcproto.Packet) { p.SecsRemaining -= 2; p.PacketNumber += 2 }, time.Second, ""},
		{"clock -3, a packet lost", func(p *gcproto.Packet) { p.SecsRemaining -= 3; p.PacketNumber += 2 }, time.Second, "clock"},
		{"clock -2, packet number stands", func(p *gcproto.Packet) { p.SecsRemaining -= 2 }, half, ""},
		{"clock -1, next packet, our clock slow", func(p *gcproto.Packet) { p.SecsRemaining--; p.PacketNumber++ }, 50 * time.Millisecond, ""},
		{"clock -3, 4 packets, our clock slow", func(p *gcproto.Packet) { p.SecsRemaining -= 3; p.PacketNumber += 4 }, half, ""},
		{"penalty timer -2, next packet", func(p *gcproto.Packet) {
			p.Teams[0].Players[1] = gcproto.RobotInfo{Penalty: 6, SecsTillUnpenalised: 28}
			p.PacketNumber++
		}, half, "penalty"},
		{"clock jumps up", func(p *gcproto.Packet) { p.SecsRemaining += 8 }, half, "clock"},
		{"budget spent", func(p *gcproto.Packet) { p.Teams[0].MessageBudget -= 20 }, half, ""},
		{"budget grows", func(p *gcproto.Packet) { p.Teams[0].MessageBudget++ }, half, "budget"},
		{"budget falls 4096", func(p *gcproto.Packet) { p.Teams[1].MessageBudget -= 4096 }, half, "budget"},
	} {
		prev := base
		if strings.HasPrefix(tc.name, "penalty timer") {
			prev.Teams[0].Players[1] = gcproto.RobotInfo{Penalty: 6, SecsTillUnpenalised: 30}
		}
		next := prev
		tc.mod(&next)
		if got := Doubt(&prev, &next, tc.elapsed); got != tc.want {
			t.Errorf("%s: doubt %q, want %q", tc.name, got, tc.want)
		}
	}
	// Between games and halves: teams, colours and halves change with the state, or
	// alone after a packet that confirms them.
	for _, tc := range []struct {
		name     string
		from, to gcproto.State
		mod      func(p *gcproto.Packet)
		want     string
	}{
		{"next half", gcproto.StateFinished, gcproto.StateInitial, func(p *gcproto.Packet) { p.FirstHalf = !p.FirstHalf }, ""},
		{"half alone in FINISHED", gcproto.StateFinished, gcproto.StateFinished, func(p *gcproto.Packet) { p.FirstHalf = !p.FirstHalf }, "game"},
		{"other team in INITIAL", gcproto.StateInitial, gcproto.StateInitial, func(p *gcproto.Packet) { p.Teams[1].TeamNumber ^= 4 }, "game"},
		{"other colour in INITIAL", gcproto.StateInitial, gcproto.StateInitial, func(p *gcproto.Packet) { p.Teams[0].GoalkeeperColour ^= 1 }, "game"},
		{"a new game", gcproto.StateFinished, gcproto.StateInitial, func(p *gcproto.Packet) { p.Teams[1].TeamNumber ^= 4 }, ""},
	} {
		prev := base
		prev.State = tc.from
		next := prev
		next.State = tc.to
		tc.mod(&next)
		if got := Doubt(&prev, &next, half); got != tc.want {
			t.Errorf("%s: doubt %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestConfirm: on a manual clock, a packet with a change no GameController makes in one
// step is held, counted by cause and never published; the next packet is published when
// it follows the held one (confirming it) or the last published one (the held one was
// corrupted); ordinary changes are published at once.
func TestConfirm(t *testing.T) {
	h := newHarness(t, nil)
	p := confirmBase()
	send := func(mod func(p *gcproto.Packet)) {
		q := p
		mod(&q)
		q.PacketNumber = p.PacketNumber + 1
		h.send(gcA, &q)
		p.PacketNumber++
		h.advance(500 * time.Millisecond)
	}
	same := func(*gcproto.Packet) {}
	send(same)
	base := h.data.Len()
	st := h.c.Status().Counters

	// A corrupted packet (score 0:64) between two good ones: never published.
	send(func(q *gcproto.Packet) { q.Teams[1].Score = 64 })
	if n := h.c.Status().Counters.Unconfirmed[doubtScore]; n != st.Unconfirmed[doubtScore]+1 {
		t.Fatalf("score 0:64: unconfirmed %d", n)
	}
	if info := h.lastInfo(); info.EnemyScore == 64 || h.c.Snapshot().EnemyScore == 64 {
		t.Fatal("score 0:64 published")
	}
	send(same)
	if info := h.lastInfo(); info.EnemyScore != p.Teams[1].Score || h.data.Len() != base {
		t.Fatalf("after the good packet: score %d, %d data messages", info.EnemyScore, h.data.Len()-base)
	}

	// A real change of that kind (an undo of two goals at once) repeated: the second
	// packet confirms it.
	p.Teams[0].Score += 2
	send(same)
	if info := h.lastInfo(); info.OurScore == p.Teams[0].Score {
		t.Fatal("score +2 published at once")
	}
	send(same)
	if info := h.lastInfo(); info.OurScore != p.Teams[0].Score || h.data.Len() != base+1 {
		t.Fatalf("score +2 confirmed: published %d, want %d", info.OurScore, p.Teams[0].Score)
	}

	// Ordinary changes are published with their packet: a goal, SET, PLAYING.
	p.Teams[1].Score++
	p.State = gcproto.StateReady
	send(same)
	if info := h.lastInfo(); info.EnemyScore != p.Teams[1].Score || info.State != uint8(gcproto.StateReady) {
		t.Fatalf("goal: %+v", info)
	}
	p.State = gcproto.StateSet
	send(same)
	p.State = gcproto.StatePlaying
	send(same)
	if info := h.lastInfo(); info.State != uint8(gcproto.StatePlaying) {
		t.Fatalf("playing: %+v", info)
	}

	// A corrupted state (PLAYING read as SET) is never published.
	send(func(q *gcproto.Packet) { q.State = gcproto.StateSet })
	if h.lastInfo().State != uint8(gcproto.StatePlaying) || h.c.Snapshot().State != gcproto.StatePlaying {
		t.Fatal("corrupted SET published")
	}
	send(same)
	c := h.c.Status().Counters
	if c.Unconfirmed[doubtState] != st.Unconfirmed[doubtState]+1 || c.Unconfirmed.Total() != st.Unconfirmed.Total()+3 {
		t.Fatalf("unconfirmed %v", c.Unconfirmed)
	}
	h.checkInvariant()
}

// TestCorruptedBudget feeds a game in PLAYING whose budgets fall every packet, with
// single packets whose budgets lost bit 8 (as a corrupted datagram does, within the
// slack of implausible): no published budget is ever below what the GameController
// sent, none ever grows, and no packet waits for confirmation. A budget set anew in
// FINISHED and INITIAL is published with its packet.
func TestCorruptedBudget(t *testing.T) {
	h := newHarness(t, nil)
	p := confirmBase()
	st := h.c.Status().Counters
	infoMark, dataMark := len(h.info.Messages()), len(h.data.Messages())
	var sent [][2]uint16 // the true budgets of each packet sent
	send := func(corrupt func(q *gcproto.Packet)) {
		q := p
		if corrupt != nil {
			corrupt(&q)
		} else {
			sent = append(sent, [2]uint16{p.Teams[0].MessageBudget, p.Teams[1].MessageBudget})
		}
		h.send(gcA, &q)
		p.PacketNumber++
		h.advance(500 * time.Millisecond)
	}
	for i := range 12 {
		switch i {
		case 3:
			send(func(q *gcproto.Packet) { q.Teams[0].MessageBudget &^= 256 })
		case 7:
			send(func(q *gcproto.Packet) { q.Teams[1].MessageBudget &^= 256 })
		}
		send(nil)
		p.Teams[0].MessageBudget -= 10
		p.Teams[1].MessageBudget -= 7
	}
	if c := h.c.Status().Counters; c.Unconfirmed.Total() != st.Unconfirmed.Total() || c.Accepted != st.Accepted+14 {
		t.Fatalf("counters %+v, want 14 more accepted and none held", c)
	}
	lowest := int32(sent[len(sent)-1][0])
	prev := int32(math.MaxInt32)
	for _, m := range h.info.Messages()[infoMark:] {
		if m.MessageBudget > prev || m.MessageBudget < lowest {
			t.Errorf("GCInfo budget %d after %d (the GameController sent down to %d)", m.MessageBudget, prev, lowest)
		}
		prev = m.MessageBudget
	}
	if want := int32(sent[len(sent)-2][0]); prev != want {
		t.Errorf("last GCInfo budget %d, want %d (the larger of the last two packets')", prev, want)
	}
	prevData := [2]uint16{math.MaxUint16, math.MaxUint16}
	for _, m := range h.data.Messages()[dataMark:] {
		for i, tm := range m.Teams {
			if tm.MessageBudget > prevData[i] || tm.MessageBudget < sent[len(sent)-1][i] {
				t.Errorf("GameControlData team %d budget %d after %d (the GameController sent down to %d)",
					tm.TeamNumber, tm.MessageBudget, prevData[i], sent[len(sent)-1][i])
			}
			prevData[i] = tm.MessageBudget
		}
	}

	// Between halves a GameController sets budgets anew: published with their packet.
	p.State = gcproto.StateFinished
	p.Teams[0].MessageBudget = 500
	send(nil)
	if got := h.lastInfo().MessageBudget; got != 500 {
		t.Errorf("budget %d in FINISHED, want 500", got)
	}
	p.State = gcproto.StateInitial
	p.Teams[0].MessageBudget = 1200
	send(nil)
	if got := h.lastInfo().MessageBudget; got != 1200 {
		t.Errorf("budget %d in INITIAL, want 1200", got)
	}
	h.checkInvariant()
}

// TestConfirmFastClock feeds GameControllers whose game clocks run faster than their
// packets go out (gc-sim --speed 10: five game seconds a packet at 2 Hz; --speed 3:
// one and two seconds in turn). The first packet that counts that fast waits for the
// next one, which confirms the pace; from then on every packet is published with its
// own arrival and the connection holds. A clock corrupted by 16 s (a flipped bit) is
// still held at that pace.
func TestConfirmFastClock(t *testing.T) {
	for _, steps := range [][]int32{{5}, {1, 2}} {
		t.Run(fmt.Sprint(steps), func(t *testing.T) {
			h := newHarness(t, nil)
			p := confirmBase()
			p.SecsRemaining, p.SecondaryTime = 600, 0
			i := 0
			send := func(mod func(q *gcproto.Packet)) {
				q := p
				mod(&q)
				h.send(gcA, &q)
				p.PacketNumber++
				p.SecsRemaining -= steps[i%len(steps)]
				i++
				h.advance(500 * time.Millisecond)
			}
			same := func(*gcproto.Packet) {}
			for range 40 {
				send(same)
			}
			c := h.c.Status().Counters
			if c.Unconfirmed.Total() > 1 || c.Accepted < 39 {
				t.Fatalf("clock at %v s a packet: %d accepted of 40, unconfirmed %v", steps, c.Accepted, c.Unconfirmed)
			}
			info := h.lastInfo()
			if !info.Connected || int32(info.SecsRemaining) <= p.SecsRemaining {
				t.Fatalf("last info: connected %v, secs %d, want above %d", info.Connected, info.SecsRemaining, p.SecsRemaining)
			}
			send(func(q *gcproto.Packet) { q.SecsRemaining -= 16 })
			if n := h.c.Status().Counters.Unconfirmed[doubtClock]; n != c.Unconfirmed[doubtClock]+1 {
				t.Fatalf("clock 16 s off at the fast pace: unconfirmed %d, want %d", n, c.Unconfirmed[doubtClock]+1)
			}
			send(same)
			if info := h.lastInfo(); int32(info.SecsRemaining) <= p.SecsRemaining || int32(info.SecsRemaining) < p.SecsRemaining+1 {
				t.Fatalf("after the corrupted clock: secs %d, want the last packet's", info.SecsRemaining)
			}
			h.checkInvariant()
		})
	}
}
