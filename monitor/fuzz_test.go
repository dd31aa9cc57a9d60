package monitor

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// malformedTotal sums the malformed counts of every robot, source and the GameController.
func malformedTotal(s Snapshot) uint64 {
	n := s.GameController.Faults.Malformed()
	for _, r := range s.Robots {
		n += r.Faults.Malformed()
	}
	for _, src := range s.Sources {
		n += src.Faults.Malformed()
	}
	return n
}

// FuzzObserve feeds any datagram to any kind of port. Properties: no panic; a datagram
// reported undecodable is counted as exactly one malformed packet, a decodable one as
// none, and shows up (a control packet, or a robot); the snapshot always encodes as JSON.
func FuzzObserve(f *testing.F) {
	seedGame := game{state: gcproto.StatePlaying, firstHalf: true, secs: 100, teams: [2]uint8{5, 6}, penalised: [2]uint8{2, 0}}
	f.Add(uint8(KindGameController), seedGame.packet(f))
	f.Add(uint8(KindReturn), returnV4(f, 5, 1, 100, 200, 1, &[2]float32{300, 400}, true))
	f.Add(uint8(KindTeam), mate{team: 5, player: 2, ball: &[2]float64{1, 2}}.dnet(f, nil))
	f.Add(uint8(KindTeam), mate{team: 5, player: 3}.zju())
	f.Add(uint8(KindTeam), []byte("DNt\x01\x00"))
	f.Add(uint8(KindReturn), []byte("RGrt\x02\x05\x01\x02"))
	f.Add(uint8(0), []byte{})
	f.Add(uint8(KindGameController), trueGame(f, seedGame))
	f.Add(uint8(KindForward), gcproto.AppendForward(nil, robotSrc.Addr(), returnV4(f, 5, 1, 100, 200, 1, nil, false)))
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		m, _ := newTest(t, Config{})
		p := Port{Kind: Kind(kind%4 + 1), Port: 1000}
		if p.Kind == KindTeam {
			p.Team = 5
		}
		ok := m.Observe(p, dg(b, robotSrc, t0))
		s := m.State()
		bad := malformedTotal(s)
		switch {
		case !ok && bad != 1:
			t.Fatalf("undecodable datagram counted %d times as malformed", bad)
		case ok && bad != 0:
			t.Fatalf("decodable datagram counted %d times as malformed", bad)
		case ok && p.Kind == KindGameController && string(b[:4]) == gcproto.MagicMonitor &&
			(s.GameController.TrueData == nil || s.GameController.TrueData.Packets != 1 || s.GameController.TrueData.Game == nil):
			t.Fatalf("true data accepted but not shown: %+v", s.GameController.TrueData)
		case ok && p.Kind == KindGameController && string(b[:4]) != gcproto.MagicMonitor &&
			(s.GameController.Packets != 1 || s.GameController.Game == nil):
			t.Fatalf("control packet accepted but not shown: %+v", s.GameController)
		case ok && p.Kind != KindGameController && len(s.Robots) != 1:
			t.Fatalf("packet accepted but %d robots shown", len(s.Robots))
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("state does not encode: %v", err)
		}
	})
}

// benchMonitor returns a monitor that knows a game and ten robots.
func benchMonitor(b *testing.B) *Monitor {
	m, clk := newTest(b, Config{})
	g := game{state: gcproto.StatePlaying, firstHalf: true, secs: 300, teams: [2]uint8{5, 12}, budgets: [2]uint16{9000, 9000}}
	m.Observe(gcPort, dg(g.packet(b), gcSrc, t0))
	for i := range 10 {
		tm := uint8(5)
		if i >= 5 {
			tm = 12
		}
		st := mate{team: tm, player: uint8(i%5 + 1), x: float64(i) - 4, y: 1, role: teaminfo.RoleStriker, ball: &[2]float64{1, 0}}
		m.Observe(TeamPort(tm), dg(st.dnet(b, nil), robotSrc, t0))
		m.Observe(retPort, dg(returnV4(b, tm, uint8(i%5+1), 1000, 0, 0, nil, false), robotSrc, t0))
	}
	clk.Set(t0.Add(time.Second))
	return m
}

func BenchmarkObserveTeamDNet(b *testing.B) {
	m := benchMonitor(b)
	pkt := mate{team: 5, player: 1, x: 1, y: 2, role: teaminfo.RoleStriker, ball: &[2]float64{1, 0}}.dnet(b, nil)
	d := dg(pkt, robotSrc, t0)
	b.ReportAllocs()
	b.SetBytes(int64(len(pkt)))
	for i := 0; b.Loop(); i++ {
		d.Time = t0.Add(time.Duration(i) * time.Millisecond)
		if !m.Observe(team5, d) {
			b.Fatal("rejected")
		}
	}
}

func BenchmarkObserveGameController(b *testing.B) {
	m := benchMonitor(b)
	pkt := game{state: gcproto.StatePlaying, firstHalf: true, secs: 300, teams: [2]uint8{5, 12}}.packet(b)
	d := dg(pkt, gcSrc, t0)
	b.ReportAllocs()
	for b.Loop() {
		if !m.Observe(gcPort, d) {
			b.Fatal("rejected")
		}
	}
}

func BenchmarkState(b *testing.B) {
	m := benchMonitor(b)
	b.ReportAllocs()
	for b.Loop() {
		if s := m.State(); len(s.Robots) != 10 {
			b.Fatalf("%d robots", len(s.Robots))
		}
	}
}

// BenchmarkAPIState is one GET /api/state: snapshot and JSON.
func BenchmarkAPIState(b *testing.B) {
	h := benchMonitor(b).Handler()
	req := httptest.NewRequest("GET", "/api/state", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
