package node

import (
	"bytes"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/worldinfo"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/udpstat"
)

func TestSlogLogger(t *testing.T) {
	var out bytes.Buffer
	rl := ros.NewLogger("dnetwork_3", ros.LevelInfo, &out, clock.NewManual(time.Unix(100, 0)))
	l := SlogLogger(rl)
	l.With("component", "team").Warn("teammate lost", "player", 4, "note", "two words")
	l.Debug("hidden")
	l.With("component", "socket").WithGroup("peer").Info("up", slog.Group("addr", "ip", "10.0.0.2"), "port", 3838)
	l.Error("failed", "err", "x=y")
	rl.SetLevel(ros.LevelDebug)
	l.Debug("shown")
	want := []string{
		`[WARN] [100.000000000] [dnetwork_3.team]: teammate lost player=4 note="two words"`,
		`[INFO] [100.000000000] [dnetwork_3.socket]: up peer.addr.ip=10.0.0.2 peer.port=3838`,
		`[ERROR] [100.000000000] [dnetwork_3]: failed err="x=y"`,
		`[DEBUG] [100.000000000] [dnetwork_3]: shown`,
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != len(want) {
		t.Fatalf("log:\n%s", out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// snapshotOf builds a GameController snapshot from a packet of layout l.
func snapshotOf(t *testing.T, l gcproto.Layout, mod func(*gcproto.Packet)) gamecontroller.Snapshot {
	t.Helper()
	p := gcproto.Packet{Layout: l, PlayersPerTeam: 5, State: gcproto.StatePlaying, FirstHalf: true,
		KickingTeam: 17, SecsRemaining: 321, DropInTime: -1}
	p.Teams[0] = gcproto.TeamInfo{TeamNumber: 17, FieldPlayerColour: gcproto.ColourRed, Score: 3, MessageBudget: 1234}
	p.Teams[1] = gcproto.TeamInfo{TeamNumber: 5, FieldPlayerColour: gcproto.ColourBlue, Score: 1, MessageBudget: 999}
	if mod != nil {
		mod(&p)
	}
	g, err := gcproto.Derive(&p, 17, 2)
	if err != nil {
		t.Fatal(err)
	}
	return gamecontroller.Snapshot{Connected: true, Valid: true, GCInfo: g}
}

func TestGameViews(t *testing.T) {
	if got := TeamGame(gamecontroller.Snapshot{}); got != team.NoGame {
		t.Errorf("before the first packet: %+v, want NoGame", got)
	}
	if _, ok := WorldInfoGame(gamecontroller.Snapshot{}); ok {
		t.Error("world info game before the first packet")
	}
	s := snapshotOf(t, gcproto.LayoutHSL20, func(p *gcproto.Packet) {
		p.Teams[0].Players[1] = gcproto.RobotInfo{Penalty: 1, SecsTillUnpenalised: 20}
		p.Stopped = true
	})
	tg := TeamGame(s)
	want := team.GameSnapshot{Connected: true, State: team.StatePlaying, Penalised: true, Stopped: true,
		FirstHalf: true, SecsRemaining: 321, MessageBudget: 1234, Colour: dmsgs.GCInfoTeamRed}
	if tg != want {
		t.Errorf("team view %+v, want %+v", tg, want)
	}
	wg, ok := WorldInfoGame(s)
	wantW := worldinfo.Game{State: 3, TeamColour: 1, EnemyColour: 0, OurScore: 3, EnemyScore: 1, FirstHalf: true,
		Kickoff: true, Penalised: true, SecsTillUnpenalised: 20}
	if !ok || wg != wantW {
		t.Errorf("world info view %+v %v, want %+v", wg, ok, wantW)
	}
	// Disconnected: the last state is kept, marked as not connected.
	s.Connected = false
	if tg := TeamGame(s); tg.Connected || tg.MessageBudget != 1234 {
		t.Errorf("disconnected team view %+v", tg)
	}
	if _, ok := WorldInfoGame(s); ok {
		t.Error("disconnected world info view reports a GameController")
	}
	// A layout without a budget.
	if tg := TeamGame(snapshotOf(t, gcproto.LayoutSPL13, nil)); tg.MessageBudget != -1 {
		t.Errorf("SPL v13 budget %d, want -1", tg.MessageBudget)
	}
	var v gameView = gameView{gc: fixedSnapshot(s)}
	if v.Snapshot() != TeamGame(s) {
		t.Error("gameView.Snapshot")
	}
}

type fixedSnapshot gamecontroller.Snapshot

func (f fixedSnapshot) Snapshot() gamecontroller.Snapshot { return gamecontroller.Snapshot(f) }

func TestGameControllerStatus(t *testing.T) {
	level := func(s dm.DiagnosticStatus) byte { return s.Level }
	if s := gameControllerStatus(gamecontroller.Status{LastPacketAge: -1}, gamecontroller.Snapshot{}); level(s) != diagnostics.Warn || s.Message != "no GameController heard" {
		t.Errorf("no GameController: %d %q", s.Level, s.Message)
	}
	gc := netip.MustParseAddrPort("10.0.0.2:3838")
	ok := gamecontroller.Status{Connected: true, Layout: gcproto.LayoutHSL20, GameController: gc,
		LastPacket: time.Unix(10, 0), LastPacketAge: 100 * time.Millisecond,
		GameControllers: []gamecontroller.Source{{Addr: gc.Addr(), Followed: true}}}
	s := gameControllerStatus(ok, snapshotOf(t, gcproto.LayoutHSL20, nil))
	if s.Level != diagnostics.OK || s.Message != "connected to 10.0.0.2 (HSL20)" {
		t.Errorf("connected: %d %q", s.Level, s.Message)
	}
	values := map[string]string{}
	for _, kv := range s.Values {
		values[kv.Key] = kv.Value
	}
	for k, v := range map[string]string{"version": "HSL20", "more_than_one": "false", "state": "playing",
		"message_budget": "1234", "score": "3:1", "game_controller": "10.0.0.2:3838"} {
		if values[k] != v {
			t.Errorf("%s = %q, want %q", k, values[k], v)
		}
	}
	ok.MultipleGameControllers = true
	ok.GameControllers = append(ok.GameControllers, gamecontroller.Source{Addr: netip.MustParseAddr("10.0.0.9")})
	if s := gameControllerStatus(ok, gamecontroller.Snapshot{}); s.Level != diagnostics.Warn || s.Message != "more than one GameController: 10.0.0.2, 10.0.0.9" {
		t.Errorf("two GameControllers: %d %q", s.Level, s.Message)
	}
	lost := gamecontroller.Status{LastPacket: time.Unix(10, 0), LastPacketAge: 12 * time.Second}
	if s := gameControllerStatus(lost, gamecontroller.Snapshot{}); s.Level != diagnostics.Warn || s.Message != "GameController lost 12s ago" {
		t.Errorf("lost: %d %q", s.Level, s.Message)
	}
}

func TestTeamStatus(t *testing.T) {
	known := team.MateClock{Delay: 4200 * time.Microsecond}
	known.Known, known.Offset, known.Bound = true, -2501340*time.Microsecond, 2800*time.Microsecond
	st := team.Status{Player: 3, Teammates: []team.Mate{{Player: 1}, {Player: 4, Clock: known}}, LastDecision: team.DecisionSent,
		BudgetKnown: true, BudgetLeft: 900}
	s := teamStatus(st)
	if s.Level != diagnostics.OK || s.Message != "2 teammates online, sent" {
		t.Errorf("ok: %d %q", s.Level, s.Message)
	}
	one := st
	one.Teammates = one.Teammates[:1]
	if s := teamStatus(one); s.Message != "1 teammate online, sent" {
		t.Errorf("one teammate: %q", s.Message)
	}
	values := map[string]string{}
	for _, kv := range s.Values {
		values[kv.Key] = kv.Value
	}
	for k, v := range map[string]string{"clock_offset_1": "unknown", "clock_offset_4": "-2501.3 ms ± 2.8 ms", "delay_4": "4.2 ms"} {
		if values[k] != v {
			t.Errorf("%s = %q, want %q", k, values[k], v)
		}
	}
	if _, ok := values["delay_1"]; ok {
		t.Error("delay of a teammate whose clock is unknown")
	}
	st.Receive.Conflict = 2
	if s := teamStatus(st); s.Level != diagnostics.Warn || !strings.Contains(s.Message, "our player number 3") {
		t.Errorf("conflict: %d %q", s.Level, s.Message)
	}
	st.Receive.Conflict = 0
	st.LastDecision = team.DecisionSilentBudget
	if s := teamStatus(st); s.Level != diagnostics.Warn || !strings.HasPrefix(s.Message, "silent: ") {
		t.Errorf("budget: %d %q", s.Level, s.Message)
	}
	// Exhausted: the budget read from the GameController is spent down to the reserve.
	st.BudgetLeft, st.BudgetReserve = 0, 0
	st.Budget = team.Verdict{Silent: true, Cause: team.BudgetReserve}
	s = teamStatus(st)
	values = map[string]string{}
	for _, kv := range s.Values {
		values[kv.Key] = kv.Value
	}
	if s.Level != diagnostics.Warn || !strings.HasPrefix(s.Message, "silent: budget exhausted (0 left, reserve 0)") ||
		values["budget_exhausted"] != "true" || values["budget_left"] != "0" || values["budget_reserve"] != "0" {
		t.Errorf("exhausted: %d %q, values %v", s.Level, s.Message, values)
	}
}

// BenchmarkStatuses measures building the statuses one /diagnostics array holds for a
// node with team communication on: node-independent parts only (GameController, team
// and two sockets), from counters in the thousands as in a game.
func BenchmarkStatuses(b *testing.B) {
	gc := netip.MustParseAddrPort("10.0.0.2:3838")
	gst := gamecontroller.Status{Connected: true, Layout: gcproto.LayoutHSL20, GameController: gc,
		LastPacket: time.Unix(10, 0), LastPacketAge: 100 * time.Millisecond, ReturnsSent: 1234, GCInfoPublished: 2345,
		GameControllers: []gamecontroller.Source{{Addr: gc.Addr(), Followed: true}}}
	gst.Counters.Received, gst.Counters.Accepted = 4321, 4300
	snap := gamecontroller.Snapshot{}
	tst := team.Status{Player: 3, Teammates: []team.Mate{{Player: 1}, {Player: 4}}, LastDecision: team.DecisionSent,
		BudgetKnown: true, BudgetLeft: 900}
	tst.Send.Ticks, tst.Send.Sent, tst.Receive.Received, tst.Receive.Accepted = 54321, 5432, 12345, 12000
	sst := transport.Stats{Received: 12345, Delivered: 12000, Sent: 5432, Opens: 1}
	sock := transport.Status{State: transport.StateUp, Local: netip.MustParseAddrPort("0.0.0.0:10020"), ReadBuffer: 4 << 20}
	b.ReportAllocs()
	for b.Loop() {
		_ = gameControllerStatus(gst, snap)
		_ = teamStatus(tst)
		_ = socketStatus("team", sst, sock)
		_ = socketStatus("gamecontroller", sst, sock)
	}
}

// TestKernelUDPStatus: the kernel udp status says what the counters say: no errors,
// errors since the start (old ones: OK), errors that grew since the last report (a
// warning naming the cause).
func TestKernelUDPStatus(t *testing.T) {
	for _, c := range []struct {
		name    string
		d, grew udpstat.Counters
		level   byte
		msg     string
	}{
		{"none", udpstat.Counters{InDatagrams: 100}, udpstat.Counters{}, diagnostics.OK, "no receive errors"},
		{"old", udpstat.Counters{InErrors: 5, RcvbufErrors: 5}, udpstat.Counters{}, diagnostics.OK, "5 receive errors since start"},
		{"new", udpstat.Counters{InErrors: 7, RcvbufErrors: 7}, udpstat.Counters{InErrors: 2, RcvbufErrors: 2}, diagnostics.Warn,
			"2 datagrams dropped for a full receive buffer since the last report: raise receive_buffer, or a process reads too slowly"},
	} {
		if s := kernelUDPStatus(c.d, c.grew); s.Level != c.level || s.Message != c.msg {
			t.Errorf("%s: %d %q, want %d %q", c.name, s.Level, s.Message, c.level, c.msg)
		}
	}
}

// TestKernelUDPConcurrent: Diagnostics may be called while Run's diagnostics goroutine
// reports (the end-to-end tests do): kernelUDP's last-report counters are shared.
func TestKernelUDPConcurrent(t *testing.T) {
	if _, err := udpstat.Read(); err != nil {
		t.Skipf("no kernel UDP counters here: %v", err)
	}
	n := &Node{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			n.kernelUDP(time.Now())
		}
	}()
	for range 50 {
		n.kernelUDP(time.Now())
	}
	<-done
}
