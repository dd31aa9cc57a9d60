package gamecontroller

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestPublishRate checks GCInfo at PublishRate on the clock, also before the first
// packet (connected false, empty version, budget -1), each tick's flushed within a
// fifth of the period, and the on-change publications.
func TestPublishRate(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.PublishOnChange = false })
	for range 20 { // 2 s in 100 ms steps
		h.advance(100 * time.Millisecond)
	}
	msgs := h.info.Messages()
	if len(msgs) != 4 {
		t.Fatalf("%d GCInfo in 2 s at 2 Hz, want 4", len(msgs))
	}
	if got := h.info.LastWithin(); got != 100*time.Millisecond {
		t.Fatalf("a tick's GCInfo flushed within %v, want a fifth of the 500 ms period", got)
	}
	for i, m := range msgs {
		want := dmsgs.GCInfo{Stamp: rosTime(t0.Add(time.Duration(i+1) * 500 * time.Millisecond)), MessageBudget: -1}
		if m != want {
			t.Errorf("GCInfo %d before any packet: %+v, want %+v", i, m, want)
		}
	}
	// Without PublishOnChange a packet waits for the next tick.
	p := basePacket(gcproto.LayoutSPL18)
	h.send(gcA, &p)
	if h.info.Len() != 4 {
		t.Fatalf("GCInfo published on a packet although PublishOnChange is off")
	}
	h.advance(500 * time.Millisecond)
	if m := h.lastInfo(); !m.Connected || m.GCVersion != "SPL18" || h.info.Len() != 5 {
		t.Fatalf("after the tick: %d messages, last %+v", h.info.Len(), m)
	}

	// With PublishOnChange: a new state is published at once, a clock change is not.
	h2 := newHarness(t, nil)
	p = basePacket(gcproto.LayoutHSL20)
	h2.send(gcA, &p)
	if h2.info.Len() != 1 {
		t.Fatalf("%d GCInfo after the first packet, want 1", h2.info.Len())
	}
	p.SecsRemaining--
	p.PacketNumber++
	h2.send(gcA, &p)
	if h2.info.Len() != 1 {
		t.Fatalf("clock-only change published GCInfo at once")
	}
	p.State = gcproto.StateFinished
	h2.send(gcA, &p)
	if m := h2.lastInfo(); h2.info.Len() != 2 || m.State != dmsgs.GCInfoStateFinished || m.SecsRemaining != 299 {
		t.Fatalf("state change: %d messages, last %+v", h2.info.Len(), m)
	}
	if st := h2.c.Status(); st.GCInfoPublished != 2 || st.DataPublished != 3 {
		t.Errorf("published counters %d GCInfo, %d data; want 2, 3", st.GCInfoPublished, st.DataPublished)
	}
}

// TestTimeoutAndReturn: connected until 3 s after the last packet, then false with the
// last state kept, and true again with the next packet.
func TestTimeoutAndReturn(t *testing.T) {
	h := newHarness(t, nil)
	p := basePacket(gcproto.LayoutHL688)
	p.State = gcproto.StateSet
	h.send(gcA, &p)
	if h.data.Len() != 1 {
		t.Fatalf("%d GameControlData, want 1", h.data.Len())
	}
	for i := 1; i <= 29; i++ {
		h.advance(100 * time.Millisecond)
		if !h.c.Snapshot().Connected {
			t.Fatalf("disconnected after %v", time.Duration(i)*100*time.Millisecond)
		}
	}
	if m := h.lastInfo(); !m.Connected {
		t.Fatalf("GCInfo at 2.5 s: %+v", m)
	}
	h.advance(100 * time.Millisecond) // 3.0 s: a publish tick
	snap := h.c.Snapshot()
	m := h.lastInfo()
	if snap.Connected || m.Connected || m.Stamp != rosTime(t0.Add(3*time.Second)) {
		t.Fatalf("at 3 s: snapshot connected %v, GCInfo %+v", snap.Connected, m)
	}
	if m.State != dmsgs.GCInfoStateSet || m.GCVersion != "HL688" || !snap.Valid || snap.State != gcproto.StateSet {
		t.Errorf("last state not kept while disconnected: %+v", m)
	}
	if st := h.c.Status(); st.Connected || st.LastPacketAge != 3*time.Second || st.GameController != gcA {
		t.Errorf("status %+v", st)
	}
	if len(h.logs.lines("GameController lost")) != 1 {
		t.Errorf("no 'GameController lost' log line:\n%s", h.logs)
	}
	sentBefore := len(h.returns())
	for range 30 {
		h.advance(100 * time.Millisecond)
	}
	if len(h.returns()) != sentBefore {
		t.Errorf("return packets sent while disconnected")
	}

	// The same packet again: connected at once, GCInfo and GameControlData republished.
	infos, datas := h.info.Len(), h.data.Len()
	p.PacketNumber++
	h.send(gcA, &p)
	if m := h.lastInfo(); !m.Connected || h.info.Len() != infos+1 || h.data.Len() != datas+1 {
		t.Fatalf("reconnect: GCInfo %+v (%d -> %d), data %d -> %d", m, infos, h.info.Len(), datas, h.data.Len())
	}
	if len(h.logs.lines("GameController connected")) != 2 {
		t.Errorf("want two 'connected' log lines:\n%s", h.logs)
	}
	h.checkInvariant()
}

// TestGameControlDataOnChange: published on any change but the packet number, with the
// whole packet.
func TestGameControlDataOnChange(t *testing.T) {
	h := newHarness(t, nil)
	p := basePacket(gcproto.LayoutHL688)
	p.Teams[0].CoachSequence = 7
	p.Teams[0].CoachMessage[0], p.Teams[0].CoachMessage[252] = 'h', 'i'
	p.Teams[0].Coach = gcproto.RobotInfo{Penalty: 15, SecsTillUnpenalised: 1, Warnings: 2, YellowCards: 1, RedCards: 1}
	p.Teams[1].Players[10] = gcproto.RobotInfo{Penalty: 31, SecsTillUnpenalised: 12, Warnings: 1, YellowCards: 2, RedCards: 1, Goalkeeper: true}
	p.GamePhase, p.SetPlay, p.SecondaryStateInfo = gcproto.GamePhaseNormal, gcproto.SetPlayGoalKick, [4]uint8{otherTeam, 2, 0, 0}
	p.DropInTeam, p.DropInTime = otherTeam, 33
	for n := range 5 {
		p.PacketNumber = uint8(250 + n) // wraps
		h.send(gcA, &p)
	}
	if h.data.Len() != 1 {
		t.Fatalf("%d GameControlData for packets differing only in number, want 1", h.data.Len())
	}
	d, _ := h.data.Last()
	if d.PacketNumber != 250 || d.GameType != 1 || d.SetPlay != 5 || d.SetPlayRaw != 8 ||
		d.SecondaryStateInfo != [4]uint8{otherTeam, 2, 0, 0} || d.DropInTeam != otherTeam || d.DropInTime != 33 ||
		d.Header.Stamp != rosTime(t0) {
		t.Errorf("header fields %+v", d)
	}
	team0, team1 := d.Teams[0], d.Teams[1]
	if team0.CoachSequence != 7 || team0.CoachMessage[0] != 'h' || team0.CoachMessage[252] != 'i' ||
		team0.Coach != (dmsgs.GCPlayer{Penalty: 15, SecsTillUnpenalised: 1, Warnings: 2, YellowCards: 1, RedCards: 1}) {
		t.Errorf("coach %+v", team0)
	}
	if got := team1.Players[10]; got != (dmsgs.GCPlayer{Penalty: 31, SecsTillUnpenalised: 12, Warnings: 1, YellowCards: 2, RedCards: 1, Goalkeeper: true}) {
		t.Errorf("team 1 player 11: %+v", got)
	}

	p.Teams[1].Score++
	h.send(gcA, &p)
	p.PacketNumber++
	h.send(gcA, &p)
	if h.data.Len() != 2 {
		t.Fatalf("%d GameControlData after a score change, want 2", h.data.Len())
	}
	if d, _ := h.data.Last(); d.Teams[1].Score != 2 {
		t.Errorf("score %d, want 2", d.Teams[1].Score)
	}
	// The first message's slices are not overwritten by the second.
	if first := h.data.Messages()[0]; first.Teams[1].Score != 1 || first.Teams[0].CoachMessage[0] != 'h' {
		t.Errorf("first message changed: %+v", first.Teams[1])
	}

	// HSL v19: cautions and warnings, goalkeeper number and colour.
	p = basePacket(gcproto.LayoutHSL19)
	p.Teams[0].GoalkeeperColour, p.Teams[0].Goalkeeper = gcproto.ColourYellow, 1
	p.Teams[0].Players[19] = gcproto.RobotInfo{Penalty: 10, SecsTillUnpenalised: 0, Warnings: 3, YellowCards: 1}
	p.CompetitionType, p.Stopped = 2, true
	h.send(gcA, &p)
	d, _ = h.data.Last()
	if h.data.Len() != 3 || d.Layout != "HSL19" || d.CompetitionType != 2 || !d.Stopped || d.Teams[0].Goalkeeper != 1 ||
		d.Teams[0].GoalkeeperColour != 2 || d.Teams[0].CoachMessage != nil ||
		d.Teams[0].Players[19] != (dmsgs.GCPlayer{Penalty: 10, Warnings: 3, Cautions: 1}) {
		t.Errorf("HSL19 message %+v", d.Teams[0])
	}
	h.checkInvariant()
}

// TestDrops feeds every kind of bad datagram and checks each cause's counter, the
// malformed reports to the socket and the invariant.
func TestDrops(t *testing.T) {
	h := newHarness(t, nil)
	good := encode(t, ptr(basePacket(gcproto.LayoutSPL18)))
	monitor := append([]byte("RGTD"), good[4:]...)
	badHeader := append([]byte("RGmX"), good[4:]...)
	badVersion := bytes.Clone(good)
	badVersion[4] = 99
	badState := bytes.Clone(good)
	badState[10] = 9
	hl := encode(t, ptr(basePacket(gcproto.LayoutHL688)))
	cases := []struct {
		name string
		b    []byte
		want func(n Counters) uint64
	}{
		{"monitor", monitor, func(n Counters) uint64 { return n.Monitor }},
		{"header", badHeader, func(n Counters) uint64 { return n.Header }},
		{"junk", []byte("hello"), func(n Counters) uint64 { return n.Length + n.Header }},
		{"empty", nil, func(n Counters) uint64 { return n.Length + n.Header }},
		{"truncated", good[:100], func(n Counters) uint64 { return n.Length }},
		{"trailing", append(bytes.Clone(good), 0), func(n Counters) uint64 { return n.Length }},
		{"hl-truncated", hl[:640+1], func(n Counters) uint64 { return n.Length }},
		{"version", badVersion, func(n Counters) uint64 { return n.Version }},
		{"range", badState, func(n Counters) uint64 { return n.Range }},
	}
	for _, c := range cases {
		before := c.want(h.c.Status().Counters)
		h.deliver(gcA, c.b)
		if got := c.want(h.c.Status().Counters); got != before+1 {
			t.Errorf("%s: counter %d -> %d (%+v)", c.name, before, got, h.c.Status().Counters)
		}
	}
	if st := h.c.Status(); st.Connected || st.Counters.Accepted != 0 || h.data.Len() != 0 {
		t.Fatalf("a bad packet was accepted: %+v", st)
	}
	// Player 7 in SPL v13 (6 players).
	h2 := newHarness(t, func(c *Config) { c.Player = 7 })
	h2.send(gcA, ptr(basePacket(gcproto.LayoutSPL13)))
	h2.send(gcA, ptr(basePacket(gcproto.LayoutSPL18)))
	if st := h2.c.Status(); st.Counters.PlayerOutOfRange != 1 || st.Counters.Accepted != 1 {
		t.Errorf("player out of range: %+v", st.Counters)
	}
	if len(h2.logs.lines("our player number does not exist", "spl13")) != 1 {
		t.Errorf("no warning about the player number:\n%s", h2.logs)
	}
	h.checkInvariant()
	h2.checkInvariant()
}

func ptr[T any](v T) *T { return &v }

// TestForeignTeam: packets without our team are counted, change nothing and are
// reported by a rate-limited warning naming the teams.
func TestForeignTeam(t *testing.T) {
	h := newHarness(t, nil)
	foreign := basePacket(gcproto.LayoutHSL20)
	foreign.Teams[0].TeamNumber, foreign.Teams[1].TeamNumber = 3, 4
	for range 10 {
		h.send(gcA, &foreign)
		h.advance(200 * time.Millisecond)
	}
	st := h.c.Status()
	if st.Connected || st.Counters.NotOurTeam != 10 || st.Counters.Accepted != 0 || h.data.Len() != 0 ||
		len(h.returns()) != 0 || len(st.GameControllers) != 0 {
		t.Fatalf("foreign packets changed the state: %+v", st)
	}
	if m := h.lastInfo(); m.Connected || m.GCVersion != "" {
		t.Errorf("GCInfo %+v", m)
	}
	if got := h.logs.lines("packets for other teams"); len(got) != 1 || !strings.Contains(got[0], "teams_seen=3,4") ||
		!strings.Contains(got[0], "our_team=17") {
		t.Fatalf("warnings %q", got)
	}
	foreign.Teams[1].TeamNumber = 200
	for range 41 { // to 10 s after the first warning
		h.send(gcA, &foreign)
		h.advance(200 * time.Millisecond)
	}
	got := h.logs.lines("packets for other teams")
	if len(got) != 2 || !strings.Contains(got[1], "teams_seen=3,4,200") || !strings.Contains(got[1], "suppressed=49") {
		t.Fatalf("second warning %q", got)
	}
	// Our packet is still accepted afterwards.
	h.send(gcA, ptr(basePacket(gcproto.LayoutHSL20)))
	if !h.c.Snapshot().Connected {
		t.Error("not connected after a packet for our team")
	}
	h.checkInvariant()
}

// TestAllowList: packets from sources outside the allow-list are counted as filtered.
func TestAllowList(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.AllowFrom = []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32"), netip.MustParsePrefix("192.168.7.0/24")}
	})
	p := basePacket(gcproto.LayoutSPL18)
	h.send(gcB, &p)
	h.send(netip.MustParseAddrPort("192.168.8.1:3838"), &p)
	if st := h.c.Status(); st.Connected || st.Counters.Filtered != 2 || len(st.GameControllers) != 0 {
		t.Fatalf("filtered packets accepted: %+v", st)
	}
	if got := h.logs.lines("outside the allow-list"); len(got) != 1 {
		t.Errorf("want one rate-limited warning, got %q", got)
	}
	mapped := netip.AddrPortFrom(netip.AddrFrom16(gcA.Addr().As16()), gcA.Port())
	h.send(mapped, &p)
	if st := h.c.Status(); !st.Connected || st.GameController != gcA || st.Counters.Accepted != 1 {
		t.Fatalf("allowed (IPv4-mapped) source not accepted: %+v", st)
	}
	h.send(netip.MustParseAddrPort("192.168.7.9:1"), ptr(basePacket(gcproto.LayoutHL640)))
	if st := h.c.Status(); st.Counters.OtherGameController != 1 || !st.MultipleGameControllers {
		t.Errorf("second allowed GameController: %+v", st)
	}
	h.checkInvariant()
}

// TestTwoGameControllers: the first GameController is followed, the second reported
// and ignored until the first falls silent.
func TestTwoGameControllers(t *testing.T) {
	h := newHarness(t, nil)
	a := basePacket(gcproto.LayoutHSL20)
	b := basePacket(gcproto.LayoutHSL20)
	b.State = gcproto.StateReady
	// 2 s of both at 5 Hz.
	for range 10 {
		h.send(gcA, &a)
		h.send(gcB, &b)
		h.advance(200 * time.Millisecond)
	}
	st := h.c.Status()
	if !st.MultipleGameControllers || len(st.GameControllers) != 2 || st.GameController != gcA ||
		st.Counters.Accepted != 10 || st.Counters.OtherGameController != 10 {
		t.Fatalf("status %+v", st)
	}
	if s := st.GameControllers; s[0].Addr != gcA.Addr() || !s[0].Followed || s[1].Addr != gcB.Addr() || s[1].Followed ||
		s[1].Packets != 10 || s[1].First != t0 {
		t.Errorf("sources %+v", s)
	}
	if m := h.lastInfo(); m.State != dmsgs.GCInfoStatePlaying {
		t.Errorf("GCInfo follows the second GameController: %+v", m)
	}
	for _, s := range h.returns() {
		if s.Dst != netip.AddrPortFrom(gcA.Addr(), DefaultReturnPort) {
			t.Errorf("return packet to %v", s.Dst)
		}
	}
	if len(h.returns()) != 2 {
		t.Errorf("%d return packets in 2 s, want 2", len(h.returns()))
	}
	if w := h.logs.lines("more than one GameController", "addresses=10.0.0.1,10.0.0.2", "following=10.0.0.1:50000"); len(w) != 1 {
		t.Errorf("multiple-GameController warnings %q", h.logs.lines("more than one"))
	}

	// A falls silent: B takes over once A timed out.
	for i := 0; ; i++ {
		h.send(gcB, &b)
		if h.c.Status().GameController == gcB {
			if at, want := h.clk.Now(), t0.Add(1800*time.Millisecond+3*time.Second); !at.Equal(want) {
				t.Errorf("B followed from %v, want %v (3 s after A's last packet)", at.Sub(t0), want.Sub(t0))
			}
			break
		}
		if i > 30 {
			t.Fatal("B never followed")
		}
		h.advance(200 * time.Millisecond)
	}
	if m := h.lastInfo(); !m.Connected || m.State != dmsgs.GCInfoStateReady {
		t.Errorf("GCInfo after the switch: %+v", m)
	}
	h.conn.ResetSent()
	for range 10 {
		h.advance(200 * time.Millisecond)
		h.send(gcB, &b)
	}
	if s := h.returns(); len(s) != 2 || s[0].Dst != netip.AddrPortFrom(gcB.Addr(), DefaultReturnPort) {
		t.Errorf("returns after the switch: %+v", s)
	}
	// A was last heard more than 5 s ago: one GameController again.
	if st := h.c.Status(); st.MultipleGameControllers || len(st.GameControllers) != 1 || !st.GameControllers[0].Followed {
		t.Errorf("status after A's window: %+v", st.GameControllers)
	}
	h.checkInvariant()
}

// TestPublishErrors: failed publications are counted and warned about, rate-limited.
func TestPublishErrors(t *testing.T) {
	conn := bus.NewFakeConn(8)
	clk := clock.NewManual(t0)
	fail := bus.PublisherFunc[dmsgs.GCInfo](func(*dmsgs.GCInfo) error { return errors.New("writer gone") })
	data := &bus.Recorder[dmsgs.GameControlData]{}
	logs := &syncBuffer{}
	cfg := testConfig()
	cfg.Logger = newTestLogger(logs)
	c, err := New(cfg, conn, clk, fail, data)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		c.publishTick(c.clk.Now())
	}
	if st := c.Status(); st.PublishErrors != 5 || st.GCInfoPublished != 0 {
		t.Errorf("status %+v", st)
	}
	if got := logs.lines("publishing failed", "writer gone"); len(got) != 1 {
		t.Errorf("warnings %q", got)
	}
}

// TestRunLifecycle: Run returns nil on cancel, refuses a second call and reports a
// closed socket queue.
func TestRunLifecycle(t *testing.T) {
	conn := bus.NewFakeConn(1)
	cfg := testConfig()
	cfg.Logger = newTestLogger(&syncBuffer{})
	c, err := New(cfg, conn, clock.NewManual(t0), &bus.Recorder[dmsgs.GCInfo]{}, &bus.Recorder[dmsgs.GameControlData]{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	// Wait for the loop.
	ch := make(chan struct{})
	c.flushc <- ch
	<-ch
	if err := c.Run(ctx); !errors.Is(err, ErrRunTwice) {
		t.Errorf("second Run: %v", err)
	}
	conn.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrQueueClosed) {
			t.Errorf("Run after the queue closed: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the queue closed")
	}
	cancel()

	c2, _ := New(cfg, bus.NewFakeConn(1), clock.NewManual(t0), &bus.Recorder[dmsgs.GCInfo]{}, &bus.Recorder[dmsgs.GameControlData]{})
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() { done <- c2.Run(ctx2) }()
	cancel2()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestConfigValidate(t *testing.T) {
	if err := testConfig().Validate(); err != nil {
		t.Fatalf("test config: %v", err)
	}
	if err := DefaultConfig().Validate(); err == nil {
		t.Error("default config without team and player validated")
	}
	cases := []struct {
		name string
		mod  func(c *Config)
		msg  string
	}{
		{"team0", func(c *Config) { c.Team = 0 }, "team number 0"},
		{"team255", func(c *Config) { c.Team = 255 }, "team number 255"},
		{"player0", func(c *Config) { c.Player = 0 }, "player number 0"},
		{"player21", func(c *Config) { c.Player = 21 }, "player number 21"},
		{"timeout", func(c *Config) { c.Timeout = 0 }, "timeout"},
		{"publish", func(c *Config) { c.PublishRate = 0 }, "publish rate"},
		{"publishNaN", func(c *Config) { c.PublishRate = math.NaN() }, "publish rate"},
		{"returnSlow", func(c *Config) { c.ReturnRate = 0.4 }, "return rate 0.4 Hz is outside 0.5..2 Hz"},
		{"returnFast", func(c *Config) { c.ReturnRate = 5 }, "return rate 5 Hz"},
		{"returnNaN", func(c *Config) { c.ReturnRate = math.NaN() }, "return rate NaN"},
		{"port", func(c *Config) { c.ReturnPort = 0 }, "return port"},
		{"version", func(c *Config) { c.ReturnVersion = 1 }, "return version 1"},
		{"prefix", func(c *Config) { c.AllowFrom = []netip.Prefix{{}} }, "allow-list entry 0"},
		{"window", func(c *Config) { c.MultiWindow = 0 }, "window"},
		{"warn", func(c *Config) { c.WarnInterval = -1 }, "warning interval"},
	}
	for _, c := range cases {
		cfg := testConfig()
		c.mod(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want ErrConfig mentioning %q", c.name, err, c.msg)
		}
		if _, err := New(cfg, bus.NewFakeConn(1), clock.NewManual(t0), &bus.Recorder[dmsgs.GCInfo]{},
			&bus.Recorder[dmsgs.GameControlData]{}); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: New accepted the config", c.name)
		}
	}
	// Several problems are reported together.
	cfg := testConfig()
	cfg.Team, cfg.ReturnRate = 0, 3
	if err := cfg.Validate(); !strings.Contains(err.Error(), "team number") || !strings.Contains(err.Error(), "return rate") {
		t.Errorf("joined errors: %v", err)
	}
	if _, err := New(testConfig(), nil, clock.NewManual(t0), nil, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("New without conn and publishers: %v", err)
	}
}

func TestLayoutNames(t *testing.T) {
	for _, lc := range layoutCases {
		if got := LayoutName(lc.layout); got != lc.name {
			t.Errorf("LayoutName(%s) = %q, want %q", lc.layout, got, lc.name)
		}
		if got := ReturnVersionFor(lc.layout); got != lc.retVer {
			t.Errorf("ReturnVersionFor(%s) = %d, want %d", lc.layout, got, lc.retVer)
		}
	}
	if LayoutName(gcproto.LayoutInvalid) != "" {
		t.Error("name for the invalid layout")
	}
}

func TestRosTime(t *testing.T) {
	cases := []struct {
		in   time.Time
		want builtin_interfaces.Time
	}{
		{time.Time{}, builtin_interfaces.Time{}},
		{time.Unix(12, 345), builtin_interfaces.Time{Sec: 12, Nanosec: 345}},
		{time.Unix(-1, 500), builtin_interfaces.Time{Sec: -1, Nanosec: 500}},
		{time.Unix(0, -1), builtin_interfaces.Time{Sec: -1, Nanosec: 999999999}},
	}
	for _, c := range cases {
		if got := rosTime(c.in); got != c.want {
			t.Errorf("rosTime(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// TestClockReset: a simulation reset moves the clock back; the GameController's last
// packet counts as received at the new time, so the robot is neither lost until the
// next packet nor connected until the clock has caught up with the old packet: it is
// lost after Timeout of the new time without packets, and the next packet connects it.
func TestClockReset(t *testing.T) {
	h := newHarness(t, nil)
	timeout := h.c.cfg.Timeout
	p := basePacket(gcproto.LayoutSPL18)
	h.send(gcA, &p)
	before := len(h.returns())
	back := t0.Add(-time.Hour)
	h.clk.Set(back) // fires the armed timers: the ticks run at the new time
	h.flush()
	if s := h.c.Snapshot(); !s.Connected || s.Received != back {
		t.Fatalf("right after the reset: %+v, want connected, received at the new time", s)
	}
	if info := h.lastInfo(); !info.Connected {
		t.Fatalf("GCInfo after the reset reads lost: %+v", info)
	}
	for range 10 {
		h.advance(100 * time.Millisecond)
	}
	if n := len(h.returns()) - before; n != 1 {
		t.Errorf("%d return packets in the first second after the reset, want 1", n)
	}
	h.advance(timeout - time.Second - time.Millisecond)
	if !h.c.Snapshot().Connected || len(h.logs.lines("GameController lost")) != 0 {
		t.Fatalf("lost before Timeout of the new time:\n%s", h.logs)
	}
	h.advance(2 * time.Second)
	if h.c.Snapshot().Connected || h.lastInfo().Connected || len(h.logs.lines("GameController lost")) != 1 {
		t.Fatalf("silent for Timeout after the reset and still connected: %+v\n%s", h.c.Snapshot(), h.logs)
	}
	now := h.clk.Now()
	h.send(gcA, &p)
	if s := h.c.Snapshot(); !s.Connected || s.Received != now {
		t.Fatalf("the next packet: %+v", s)
	}
	h.checkInvariant()
}

// TestClockResetSnapshot: right after a simulation reset, before Run's goroutine has
// ticked or handled a packet at the new time, Snapshot (what the team and world info
// components read) already counts the last packet as received at the new time, as
// GCInfo does: connected, not lost until the next packet.
func TestClockResetSnapshot(t *testing.T) {
	clk := clock.NewManual(t0)
	c, err := New(testConfig(), bus.NewFakeConn(4), clk, &bus.Recorder[dmsgs.GCInfo]{}, &bus.Recorder[dmsgs.GameControlData]{})
	if err != nil {
		t.Fatal(err)
	}
	p := basePacket(gcproto.LayoutSPL18)
	c.handle(transport.Datagram{Payload: encode(t, &p), Src: gcA, Time: t0}) // as Run does
	if s := c.Snapshot(); !s.Connected || s.Received != t0 {
		t.Fatalf("after the packet: %+v", s)
	}
	back := t0.Add(-time.Hour)
	clk.Set(back)
	if s := c.Snapshot(); !s.Connected || s.Received != back {
		t.Fatalf("right after the reset: %+v, want connected, received at the new time", s)
	}
	clk.Advance(c.cfg.Timeout)
	if s := c.Snapshot(); s.Connected {
		t.Fatalf("Timeout after the reset: %+v, want lost", s)
	}
}

// audience is a GameControlData recorder whose Listened answer the test sets.
type audience struct {
	bus.Recorder[dmsgs.GameControlData]
	listened atomic.Bool
}

func (a *audience) Listened() bool { return a.listened.Load() }

// TestDataWithoutAudience: while nobody subscribes to GameControlData the component
// does not build it, but counts it as published, as ros.Publisher counts a message for
// nobody; GCInfo is unaffected, and a subscriber gets the next changed packet.
func TestDataWithoutAudience(t *testing.T) {
	data := &audience{}
	h := newHarnessData(t, nil, data)
	p := basePacket(gcproto.LayoutHSL20)
	h.send(gcA, &p)
	p.SecsRemaining--
	p.PacketNumber++
	h.send(gcA, &p)
	if st := h.c.Status(); data.Len() != 0 || st.DataPublished != 2 || st.GCInfoPublished != 1 {
		t.Fatalf("nobody listening: %d built, counters %d data, %d GCInfo; want 0, 2, 1", data.Len(), st.DataPublished, st.GCInfoPublished)
	}
	data.listened.Store(true)
	p.SecsRemaining--
	p.PacketNumber++
	h.send(gcA, &p)
	if st := h.c.Status(); data.Len() != 1 || st.DataPublished != 3 {
		t.Fatalf("listening: %d built, %d counted; want 1, 3", data.Len(), st.DataPublished)
	}
	if m := data.Messages()[0]; m.Teams[0].TeamNumber != uint8(ourTeam) && m.Teams[1].TeamNumber != uint8(ourTeam) {
		t.Errorf("published data %+v", m.Teams)
	}
}

// TestOnChange: the OnChange function is called once per accepted packet, as Changed
// receives a value, never for a dropped one, and no more once cleared.
func TestOnChange(t *testing.T) {
	h := newHarness(t, nil)
	var calls atomic.Int32
	h.c.OnChange(func() { calls.Add(1) })
	foreign := basePacket(gcproto.LayoutHSL20)
	foreign.Teams[0].TeamNumber, foreign.Teams[1].TeamNumber = 3, 4
	h.send(gcA, &foreign)
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d calls for a packet for other teams", n)
	}
	h.send(gcA, ptr(basePacket(gcproto.LayoutHSL20)))
	h.send(gcA, ptr(basePacket(gcproto.LayoutHSL20)))
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d calls for two accepted packets, want 2", n)
	}
	select {
	case <-h.c.Changed():
	default:
		t.Fatal("Changed received nothing")
	}
	h.c.OnChange(nil)
	h.send(gcA, ptr(basePacket(gcproto.LayoutHSL20)))
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d calls after OnChange(nil), want 2", n)
	}
}
