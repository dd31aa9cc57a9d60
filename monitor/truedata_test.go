package monitor

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

var fwdPort = Port{Kind: KindForward, Port: ForwardPort}

// trueGame returns g's packet with the true-data header.
func trueGame(t testing.TB, g game) []byte {
	b := g.packet(t)
	copy(b, gcproto.MagicMonitor)
	return b
}

// TestTrueData: true data is shown beside the robots' view without replacing it, the
// robots' penalties come from it, and forwarded status messages count as return packets
// from the address in their prefix.
func TestTrueData(t *testing.T) {
	m, _ := newTest(t, Config{Ports: []Port{gcPort, fwdPort}, TrueData: true})
	set := game{state: gcproto.StateSet, firstHalf: true, teams: [2]uint8{5, 12}, kicking: 5, budgets: [2]uint16{1200, 1200}}
	if !m.Observe(gcPort, dg(set.packet(t), gcSrc, t0)) {
		t.Fatal("control packet rejected")
	}
	gcHost := []netip.Addr{gcSrc.Addr()}
	if got := m.trueRequests(t0); !slices.Equal(got, gcHost) {
		t.Fatalf("requests at start %v, want %v", got, gcHost)
	}
	if got := m.trueRequests(t0.Add(500 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("requests after 0.5 s %v, want none", got)
	}
	if got := m.trueRequests(t0.Add(trueRequestInterval)); !slices.Equal(got, gcHost) {
		t.Fatalf("requests after %v without true data %v, want %v", trueRequestInterval, got, gcHost)
	}
	playing := set
	playing.state = gcproto.StatePlaying
	playing.penalised = [2]uint8{3, 0}
	at := t0.Add(1200 * time.Millisecond)
	if !m.Observe(gcPort, dg(trueGame(t, playing), gcSrc, at)) {
		t.Fatal("true data rejected")
	}
	fwd := gcproto.AppendForward(nil, netip.MustParseAddr("10.0.5.13"), returnV4(t, 5, 3, 1000, 0, 0, nil, false))
	if !m.Observe(fwdPort, dg(fwd, gcSrc, at)) {
		t.Fatal("forwarded status message rejected")
	}
	if m.Observe(fwdPort, dg(fwd[:3], gcSrc, at)) {
		t.Fatal("a 3-byte forward was accepted")
	}
	// Answered: the registration is renewed only every trueRefresh.
	if got := m.trueRequests(at.Add(time.Second)); len(got) != 0 {
		t.Fatalf("requests while answered %v, want none", got)
	}
	renew := t0.Add(trueRequestInterval + trueRefresh)
	m.Observe(gcPort, dg(set.packet(t), gcSrc, renew.Add(-100*time.Millisecond)))
	m.Observe(gcPort, dg(trueGame(t, playing), gcSrc, renew.Add(-100*time.Millisecond)))
	if got := m.trueRequests(renew); !slices.Equal(got, gcHost) {
		t.Fatalf("requests after %v %v, want a renewal", trueRefresh, got)
	}
	s := m.State()
	gv := s.GameController
	if gv.Game == nil || gv.Game.State != "set" || gv.Game.Header != "RGme" {
		t.Fatalf("robots' view %+v, want the RGme packet in set", gv.Game)
	}
	td := gv.TrueData
	if td == nil || !td.Requested || td.Packets != 2 || td.Forwarded != 1 || td.Refused || td.Game == nil ||
		td.Game.State != "playing" || td.Game.Header != "RGTD" || td.Source != gcSrc.String() {
		t.Fatalf("true data %+v", td)
	}
	r := findRobot(s, 5, 3)
	if r == nil || r.ReturnMsgs.Count != 1 || r.ReturnMsgs.Source != "10.0.5.13:0" || !r.Penalised ||
		r.Penalty != "pushing" || r.SecsTillUnpenalised != 25 {
		t.Fatalf("robot 5/3 %+v: want one forwarded status message from 10.0.5.13 and the true data's penalty", r)
	}
	if len(s.Sources) != 1 || s.Sources[0].Faults.WrongSize != 1 {
		t.Fatalf("sources %+v, want the 3-byte forward as wrong_size", s.Sources)
	}
}

// TestTrueDataRefused: control packets keep arriving but requests stay unanswered (the
// GameController refuses a host that sent status messages): the monitor says so after
// trueRefusedAfter, and takes it back when true data arrives.
func TestTrueDataRefused(t *testing.T) {
	m, _ := newTest(t, Config{Ports: []Port{gcPort, fwdPort}, TrueData: true})
	g := game{state: gcproto.StatePlaying, firstHalf: true, teams: [2]uint8{5, 12}}
	var now time.Time
	for i := 0; now.Before(t0.Add(trueRefusedAfter + time.Second)); i++ {
		now = t0.Add(time.Duration(i) * 500 * time.Millisecond)
		m.Observe(gcPort, dg(g.packet(t), gcSrc, now))
		if i%2 == 0 {
			m.trueRequests(now)
		}
		if td := m.State().GameController.TrueData; now.Sub(t0) < trueRefusedAfter && td.Refused {
			t.Fatalf("refused after %v", now.Sub(t0))
		}
	}
	td := m.State().GameController.TrueData
	if !td.Refused || !strings.Contains(td.Warning, "status messages") || !strings.Contains(td.Warning, gcSrc.Addr().String()) {
		t.Fatalf("true data %+v, want refused with a warning naming the host", td)
	}
	m.Observe(gcPort, dg(trueGame(t, g), gcSrc, now))
	if td := m.State().GameController.TrueData; td.Refused || td.Warning != "" {
		t.Fatalf("true data %+v after an answer, want not refused", td)
	}
}

// TestTrueDataNotHL: the HL GameController has no monitor channel; it is not asked.
func TestTrueDataNotHL(t *testing.T) {
	m, _ := newTest(t, Config{Ports: []Port{gcPort, fwdPort}, TrueData: true})
	g := game{layout: gcproto.LayoutHL688, state: gcproto.StatePlaying, firstHalf: true, teams: [2]uint8{5, 12}}
	for i := range 10 {
		now := t0.Add(time.Duration(i) * time.Second)
		m.Observe(gcPort, dg(g.packet(t), gcSrc, now))
		if got := m.trueRequests(now); len(got) != 0 {
			t.Fatalf("requests to an HL GameController: %v", got)
		}
	}
	if td := m.State().GameController.TrueData; td.Refused || td.Warning != "" {
		t.Fatalf("true data %+v", td)
	}
}

// TestTrueDataNeedsGCPort: requests go out from the GameController port's socket.
func TestTrueDataNeedsGCPort(t *testing.T) {
	if _, err := New(Config{Ports: []Port{fwdPort}, TrueData: true, Logger: quiet}); err == nil ||
		!strings.Contains(err.Error(), "GameController port") {
		t.Fatalf("New without a GameController port: %v", err)
	}
}
