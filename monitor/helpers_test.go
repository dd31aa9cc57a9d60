package monitor

import (
	"context"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"go.uber.org/goleak"
)

// TestMain fails the package when any test leaves a goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var (
	quiet = slog.New(slog.DiscardHandler)
	t0    = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
)

const waitLimit = 10 * time.Second

// game is a control packet built from the few fields the tests vary.
type game struct {
	layout    gcproto.Layout
	state     gcproto.State
	phase     gcproto.GamePhase
	setPlay   gcproto.SetPlay
	firstHalf bool
	kicking   uint8
	secs      int32
	secondary int32
	// setPlayTeam is HL secondaryStateInfo[0], the team taking the set play.
	setPlayTeam uint8
	teams       [2]uint8
	scores      [2]uint8
	budgets     [2]uint16
	penalised   [2]uint8        // player number with a penalty, 0 none
	penalty     gcproto.Penalty // the penalty code; 0 means HSL v20 pushing (10)
}

func (g game) packet(t testing.TB) []byte {
	t.Helper()
	l := g.layout
	if l == 0 {
		l = gcproto.LayoutHSL20
	}
	p := gcproto.Packet{
		Header: gcproto.HeaderRGme, Layout: l, PlayersPerTeam: 5,
		State: g.state, GamePhase: g.phase, SetPlay: g.setPlay, FirstHalf: g.firstHalf,
		KickingTeam: g.kicking, SecsRemaining: g.secs, SecondaryTime: g.secondary,
	}
	if l.Family() == gcproto.FamilyHL && g.setPlay != gcproto.SetPlayNone {
		p.SecondaryStateInfo = [4]uint8{g.setPlayTeam, 1, 0, 0}
	}
	colours := [2]gcproto.TeamColour{gcproto.ColourBlue, gcproto.ColourRed}
	for i := range p.Teams {
		p.Teams[i] = gcproto.TeamInfo{TeamNumber: g.teams[i], FieldPlayerColour: colours[i],
			GoalkeeperColour: gcproto.ColourYellow, Goalkeeper: 1, Score: g.scores[i], MessageBudget: g.budgets[i]}
		if n := g.penalised[i]; n != 0 {
			code := g.penalty
			if code == 0 {
				code = 10
			}
			p.Teams[i].Players[n-1] = gcproto.RobotInfo{Penalty: code, SecsTillUnpenalised: 25}
		}
	}
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatalf("control packet: %v", err)
	}
	return b
}

// mate is a teammate's state for a team message.
type mate struct {
	team, player uint8
	x, y, theta  float64
	role         teaminfo.Role
	play         teaminfo.PlayState
	ball         *[2]float64 // relative, metres; nil: not seen
	fallen       bool
	answers      uint8 // clock echo of this teammate's packet (stamped 1 s, held 0)
}

func (s mate) state() *teaminfo.State {
	st := &teaminfo.State{
		Team: s.team, Player: s.player, Seq: 1, Stamp: time.Second,
		Role: s.role, PlayState: s.play, Fallen: s.fallen, GCConnected: true,
		RobotPos:          teaminfo.Pose{X: s.x, Y: s.y, Theta: s.theta},
		TimeSinceLastKick: math.NaN(), TimeToReachBall: math.NaN(), BallAge: math.NaN(),
		BallQuality: 1, FieldQuality: 1, FieldConsistency: 1,
	}
	if s.answers != 0 {
		st.Echo = teaminfo.Echo{Player: s.answers, StampMs: uint32(st.Stamp / time.Millisecond)}
	}
	if s.ball != nil {
		st.SeeBall = true
		st.BallField = teaminfo.Point{X: s.ball[0], Y: s.ball[1]}
		st.BallAge = 0.2
	}
	return st
}

func (s mate) dnet(t testing.TB, k *teaminfo.Key) []byte {
	t.Helper()
	b, err := teaminfo.AppendDNet(nil, s.state(), k)
	if err != nil {
		t.Fatalf("dnet packet: %v", err)
	}
	return b
}

func (s mate) zju() []byte {
	b, err := teaminfo.AppendZJU(nil, s.state())
	if err != nil {
		panic(err)
	}
	return b
}

func returnV4(t testing.TB, team, player uint8, x, y, theta float32, ball *[2]float32, fallen bool) []byte {
	t.Helper()
	r := gcproto.NewAlive(team, player)
	r.Pose = [3]float32{x, y, theta}
	r.Fallen = fallen
	if ball != nil {
		r.Ball, r.BallAge = *ball, 0.5
	}
	b, err := r.MarshalBinary()
	if err != nil {
		t.Fatalf("return packet: %v", err)
	}
	return b
}

// newTest returns a monitor on a manual clock; cfg's zero fields take the defaults, and
// its Ports default to none (the tests feed it through Observe).
func newTest(t testing.TB, cfg Config) (*Monitor, *clock.Manual) {
	t.Helper()
	clk := clock.NewManual(t0)
	cfg.Clock = clk
	cfg.Logger = quiet
	if cfg.Ports == nil && !cfg.FollowGC {
		cfg.Ports = []Port{}
		cfg.FollowGC = true // New needs something to listen to; follow acts only while Run runs
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, clk
}

var (
	gcPort   = Port{Kind: KindGameController, Port: GameControllerPort}
	retPort  = Port{Kind: KindReturn, Port: ReturnPort}
	team5    = TeamPort(5)
	robotSrc = netip.MustParseAddrPort("10.0.5.11:40001")
	gcSrc    = netip.MustParseAddrPort("10.0.0.2:3838")
)

func dg(b []byte, src netip.AddrPort, at time.Time) transport.Datagram {
	return transport.Datagram{Payload: b, Src: src, Time: at}
}

func findRobot(s Snapshot, team, player uint8) *RobotView {
	for i := range s.Robots {
		if s.Robots[i].Team == team && s.Robots[i].Player == player {
			return &s.Robots[i]
		}
	}
	return nil
}

func findTeam(s Snapshot, t uint8) *TeamView {
	for i := range s.Teams {
		if s.Teams[i].Team == t {
			return &s.Teams[i]
		}
	}
	return nil
}

// runMonitor runs m until the test ends and waits until its sockets are open.
func runMonitor(t testing.TB, m *Monitor) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	wctx, wcancel := context.WithTimeout(ctx, waitLimit)
	defer wcancel()
	if err := m.WaitUp(wctx); err != nil {
		t.Fatal(err)
	}
}

// udpSender sends datagrams from one local socket to 127.0.0.1.
type udpSender struct {
	t    testing.TB
	conn *net.UDPConn
}

func newSender(t testing.TB) *udpSender {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &udpSender{t: t, conn: c}
}

func (s *udpSender) addr() netip.AddrPort { return s.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

func (s *udpSender) send(port uint16, b []byte) {
	s.t.Helper()
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	if _, err := s.conn.WriteToUDPAddrPort(b, dst); err != nil {
		s.t.Fatalf("send to %v: %v", dst, err)
	}
}

// eventually polls cond until it holds or waitLimit passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
