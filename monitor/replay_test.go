package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// recordedGame is a 30-second recording as a robot of team 5 makes it: the
// GameController twice a second with its clock counting down from 600, robot 5/1
// walking 0.25 m/s from x = -4 and sending once a second, and robot 5/2 joining at
// 10 s. Robot 5/1 is the recording host: its own broadcasts are in the file twice,
// as sent and as received.
func recordedGame(t testing.TB) []capture.Packet {
	t.Helper()
	gcAddr := netip.MustParseAddrPort("10.0.0.254:3838")
	bcast := func(port uint16) netip.AddrPort { return netip.AddrPortFrom(netip.MustParseAddr("10.0.0.255"), port) }
	r1, r2 := netip.MustParseAddrPort("10.0.0.1:10005"), netip.MustParseAddrPort("10.0.0.2:10005")
	var pkts []capture.Packet
	for ms := 0; ms <= 30000; ms += 500 {
		at := t0.Add(time.Duration(ms) * time.Millisecond)
		sec := ms / 1000
		g := game{state: gcproto.StatePlaying, firstHalf: true, kicking: 5, secs: int32(600 - sec),
			teams: [2]uint8{5, 12}, scores: [2]uint8{uint8(sec / 15), 0}}
		pkts = append(pkts, capture.Packet{Time: at, Src: gcAddr, Dst: bcast(3838), Payload: g.packet(t), Dir: transport.Received})
		if ms%1000 != 0 {
			continue
		}
		own := mate{team: 5, player: 1, x: -4 + 0.25*float64(sec), role: teaminfo.RoleStriker, play: teaminfo.PlayPlaying}.dnet(t, nil)
		pkts = append(pkts,
			capture.Packet{Time: at, Src: r1, Dst: bcast(10005), Payload: own, Dir: transport.Sent},
			capture.Packet{Time: at.Add(time.Millisecond), Src: r1, Dst: bcast(10005), Payload: own, Dir: transport.Received})
		if sec >= 10 {
			other := mate{team: 5, player: 2, x: 1, y: float64(sec) / 10, role: teaminfo.RoleDefender, play: teaminfo.PlayPlaying}.dnet(t, nil)
			pkts = append(pkts, capture.Packet{Time: at.Add(2 * time.Millisecond), Src: r2, Dst: bcast(10005), Payload: other, Dir: transport.Received})
		}
	}
	// Traffic the monitor does not show: world info multicast.
	pkts = append(pkts, capture.Packet{Time: t0, Src: r1, Dst: netip.MustParseAddrPort("224.16.0.1:2806"), Payload: []byte("x")})
	return pkts
}

func newPlayer(t testing.TB) *Player {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Logger = quiet
	p, err := NewPlayer(cfg, recordedGame(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlayerSeek: the state at a position is the state a live monitor had at that
// moment, forwards and backwards.
func TestPlayerSeek(t *testing.T) {
	p := newPlayer(t)
	s := p.State()
	if r := s.Replay; r == nil || !near(r.DurationS, 30.002) || r.PositionS != 0 || r.Playing || r.Packets != 61+31+21 || r.Played != 1 {
		t.Fatalf("replay view %+v", s.Replay)
	}
	for _, c := range []struct {
		at     time.Duration
		robots int
		x      float64
		secs   int32
	}{
		{20500 * time.Millisecond, 2, 1, 580},
		{5500 * time.Millisecond, 1, -2.75, 595}, // back: rebuilt from the start
		{5900 * time.Millisecond, 1, -2.75, 595},
		{time.Hour, 2, 3.5, 570}, // clamped to the end
	} {
		if err := p.Seek(c.at); err != nil {
			t.Fatal(err)
		}
		s := p.State()
		r := findRobot(s, 5, 1)
		if len(s.Robots) != c.robots || r == nil || r.Pose == nil || !near(r.Pose.X, c.x) {
			t.Errorf("at %v: %d robots, 5/1 %+v; want %d robots, x %g", c.at, len(s.Robots), r, c.robots, c.x)
		}
		if g := s.GameController.Game; g == nil || g.SecsRemaining != c.secs {
			t.Errorf("at %v: game %+v, want %d s remaining", c.at, g, c.secs)
		}
		// The robot's own broadcast counts once: one message a second.
		if r != nil && r.TeamMsgs.Count != uint64(min(c.at, 30500*time.Millisecond)/time.Second)+1 {
			t.Errorf("at %v: robot 5/1 counted %d team messages", c.at, r.TeamMsgs.Count)
		}
	}
	if ps := p.State().Ports; len(ps) != 2 || ps[0].Name != "gamecontroller" || ps[0].Received != 61 || ps[1].Name != "team 5" || ps[1].Received != 52 {
		t.Errorf("ports %+v", ps)
	}
}

// TestPlayerPlays: a playing replay follows the wall clock at its speed and stops at
// the end; the HTTP controls drive it.
func TestPlayerPlays(t *testing.T) {
	p := newPlayer(t)
	srv := httptest.NewServer(p.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	defer func() { cancel(); <-done }()

	post := func(body string) (int, Snapshot) {
		t.Helper()
		res, err := http.Post(srv.URL+"/api/replay", "application/json", bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var s Snapshot
		if res.StatusCode == http.StatusOK {
			if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
				t.Fatal(err)
			}
		}
		return res.StatusCode, s
	}
	if code, s := post(`{"position_s": 25, "speed": 16, "playing": true}`); code != 200 || !s.Replay.Playing || s.Replay.Speed != 16 || s.Replay.PositionS < 25 {
		t.Fatalf("play: %d %+v", code, s.Replay)
	}
	eventually(t, "the end of the recording", func() bool {
		r := p.State().Replay
		return !r.Playing && r.PositionS == r.DurationS && r.Played == r.Packets
	})
	// Play at the end starts again from the beginning.
	if code, s := post(`{"playing": true, "speed": 0.5}`); code != 200 || !s.Replay.Playing || s.Replay.PositionS > 1 {
		t.Fatalf("replay again: %d %+v", code, s.Replay)
	}
	if code, s := post(`{"playing": false, "position_s": 12.5}`); code != 200 || s.Replay.Playing || len(s.Robots) != 2 {
		t.Fatalf("pause: %d %+v", code, s.Replay)
	}
	for _, bad := range []string{`{"speed": 0}`, `{"speed": 1000}`, `{"jump": 1}`, `not json`} {
		if code, _ := post(bad); code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad, code)
		}
	}
	res, err := http.Get(srv.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	err = json.NewDecoder(res.Body).Decode(&s)
	res.Body.Close()
	if err != nil || s.Replay == nil || len(s.Robots) == 0 {
		t.Fatalf("GET /api/state: %v %+v", err, s.Replay)
	}
}

func TestPlayerNeedsPackets(t *testing.T) {
	_, err := NewPlayer(DefaultConfig(), []capture.Packet{{Time: t0, Dst: netip.MustParseAddrPort("224.16.0.1:2806"), Payload: []byte("x")}})
	if err != ErrNoPackets {
		t.Fatalf("err %v, want ErrNoPackets", err)
	}
}

// TestPlayerPortStates: in a replay a port's state says whether the recording carries
// datagrams on it at the replay position: heard within OfflineAfter before it, silent
// before the port's first datagram and once it has fallen silent.
func TestPlayerPortStates(t *testing.T) {
	var pkts []capture.Packet
	for _, p := range recordedGame(t) {
		if p.Dst.Port() == GameControllerPort && p.Time.Sub(t0) > 10*time.Second {
			continue // the GameController falls silent at 10 s
		}
		pkts = append(pkts, p)
	}
	cfg := DefaultConfig()
	cfg.Logger = quiet
	p, err := NewPlayer(cfg, pkts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at       time.Duration
		gc, team string
	}{
		{0, PortHeard, PortSilent}, // the team's first datagram comes 1 ms later
		{3 * time.Second, PortHeard, PortHeard},
		{15 * time.Second, PortHeard, PortHeard}, // 5 s after the last control packet
		{15500 * time.Millisecond, PortSilent, PortHeard},
		{3 * time.Second, PortHeard, PortHeard}, // back again
	} {
		if err := p.Seek(c.at); err != nil {
			t.Fatal(err)
		}
		ps := p.State().Ports
		if len(ps) != 2 || ps[0].State != c.gc || ps[1].State != c.team {
			t.Errorf("at %v: ports %s %s, %s %s; want %s, %s", c.at, ps[0].Name, ps[0].State, ps[1].Name, ps[1].State, c.gc, c.team)
		}
	}
}

// TestRecordingLeague: the league of a recording is its GameController's.
func TestRecordingLeague(t *testing.T) {
	hsl := recordedGame(t)
	var spl []capture.Packet
	for i, p := range hsl {
		if p.Dst.Port() == GameControllerPort && i%3 != 0 { // mostly SPL, some HSL packets among them
			p.Payload = game{layout: gcproto.LayoutSPL15, state: gcproto.StatePlaying, teams: [2]uint8{5, 12}}.packet(t)
		}
		spl = append(spl, p)
	}
	var teamOnly, bigTeam []capture.Packet
	for _, p := range hsl {
		if p.Dst.Port() != GameControllerPort {
			teamOnly = append(teamOnly, p)
		}
	}
	bigTeam = append(append(bigTeam, teamOnly...), capture.Packet{Time: t0, Src: robotSrc,
		Dst: netip.MustParseAddrPort("10.0.0.255:10005"), Payload: make([]byte, 200)})
	for _, c := range []struct {
		name string
		pkts []capture.Packet
		want league.League
		ok   bool
		why  string
	}{
		{"hsl", hsl, league.HSL, true, "61 GameController packets, hsl20"},
		{"spl", spl, league.SPL, true, "61 GameController packets, spl15"},
		{"no GameController", teamOnly, league.HSL, false, "the recording holds no GameController packet"},
		{"long team messages", bigTeam, league.HSL, false, "the recording holds no GameController packet (team messages up to 200 bytes: not SPL)"},
	} {
		l, why, ok := RecordingLeague(c.pkts, GameControllerPort)
		if l != c.want || ok != c.ok || why != c.why {
			t.Errorf("%s: %v, %q, %v; want %v, %q, %v", c.name, l, why, ok, c.want, c.why, c.ok)
		}
	}
	if l, _, ok := RecordingLeague(spl, 3939); ok || l != league.HSL {
		t.Errorf("GameController on another port: %v, %v", l, ok)
	}
}

// TestPlayerForwardedStatus: a recording made with the monitor channel (dnetwork record
// by default) holds the robots' return packets only as the GameController forwarded
// them to port 3940. A replay with a configuration that lists no forward port (the
// defaults, or dnetwork monitor --passive) still shows them, as it shows the control
// packets on the default GameController port.
func TestPlayerForwardedStatus(t *testing.T) {
	gc := netip.MustParseAddrPort("10.0.0.254:3838")
	monitorHost := netip.MustParseAddr("10.0.0.9")
	g := game{state: gcproto.StatePlaying, firstHalf: true, secs: 600, teams: [2]uint8{5, 12}}
	fwd := gcproto.AppendForward(nil, netip.MustParseAddr("10.0.0.1"), returnV4(t, 5, 1, 1000, -500, 0, nil, false))
	pkts := []capture.Packet{
		{Time: t0, Src: gc, Dst: netip.AddrPortFrom(monitorHost, GameControllerPort), Payload: g.packet(t), Dir: transport.Received},
		{Time: t0.Add(100 * time.Millisecond), Src: gc, Dst: netip.AddrPortFrom(monitorHost, ForwardPort), Payload: fwd, Dir: transport.Received},
	}
	for _, ports := range [][]Port{DefaultPorts(), {{Kind: KindGameController, Port: GameControllerPort}}} {
		cfg := DefaultConfig()
		cfg.Logger, cfg.Ports = quiet, ports
		p, err := NewPlayer(cfg, pkts)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Seek(time.Second); err != nil {
			t.Fatal(err)
		}
		s := p.State()
		if r := findRobot(s, 5, 1); r == nil || r.ReturnMsgs.Count != 1 || r.Pose == nil || !near(r.Pose.X, 1) {
			t.Errorf("ports %v: robot 5/1 %+v; want it from its forwarded return packet", ports, r)
		}
		if s.Replay.Packets != 2 {
			t.Errorf("ports %v: %d packets replayed, want 2", ports, s.Replay.Packets)
		}
	}
}
