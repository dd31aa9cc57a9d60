package gamecontroller

import (
	"context"
	"encoding/binary"
	"log/slog"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

const (
	ourTeam   = 17
	otherTeam = 5
	ourPlayer = 3
)

var (
	t0  = time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC)
	gcA = netip.MustParseAddrPort("10.0.0.1:50000")
	gcB = netip.MustParseAddrPort("10.0.0.2:41000")
)

// syncBuffer is a log sink the component writes from its goroutine.
type syncBuffer struct{ syncbuf.Buffer }

// lines returns the log lines that contain every one of the substrings.
func (b *syncBuffer) lines(subs ...string) []string {
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		ok := l != ""
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

func newTestLogger(b *syncBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// harness runs a component on a manual clock, a fake socket and recording publishers.
type harness struct {
	t    *testing.T
	c    *Component
	conn *bus.FakeConn
	clk  *clock.Manual
	info *bus.Recorder[dmsgs.GCInfo]
	data *bus.Recorder[dmsgs.GameControlData]
	logs *syncBuffer
}

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Team = ourTeam
	cfg.Player = ourPlayer
	return cfg
}

// newHarness starts a component with testConfig changed by mod (may be nil). The clock
// reads t0; the component's tickers start there.
func newHarness(t *testing.T, mod func(*Config)) *harness {
	t.Helper()
	return newHarnessPubs(t, mod, nil, nil)
}

// newHarnessData is newHarness with data as the GameControlData publisher (nil: the
// recorder h.data).
func newHarnessData(t *testing.T, mod func(*Config), data bus.Publisher[dmsgs.GameControlData]) *harness {
	t.Helper()
	return newHarnessPubs(t, mod, nil, data)
}

// newHarnessPubs is newHarness with info as the GCInfo publisher and data as the
// GameControlData publisher (nil: the recorders h.info and h.data).
func newHarnessPubs(t *testing.T, mod func(*Config), info bus.Publisher[dmsgs.GCInfo], data bus.Publisher[dmsgs.GameControlData]) *harness {
	t.Helper()
	return startHarness(t, mod, info, data, nil)
}

// startHarness is newHarnessPubs with prepare (may be nil) called on the component
// before Run starts.
func startHarness(t *testing.T, mod func(*Config), info bus.Publisher[dmsgs.GCInfo],
	data bus.Publisher[dmsgs.GameControlData], prepare func(*Component)) *harness {
	t.Helper()
	h := &harness{
		t:    t,
		conn: bus.NewFakeConn(64),
		clk:  clock.NewManual(t0),
		info: &bus.Recorder[dmsgs.GCInfo]{},
		data: &bus.Recorder[dmsgs.GameControlData]{},
		logs: &syncBuffer{},
	}
	cfg := testConfig()
	cfg.Logger = newTestLogger(h.logs)
	if mod != nil {
		mod(&cfg)
	}
	if data == nil {
		data = h.data
	}
	if info == nil {
		info = h.info
	}
	c, err := New(cfg, h.conn, h.clk, info, data)
	if err != nil {
		t.Fatal(err)
	}
	h.c = c
	if prepare != nil {
		prepare(c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	h.flush() // Run has created its tickers
	return h
}

// flush waits until the component has processed everything queued so far.
func (h *harness) flush() {
	h.t.Helper()
	done := make(chan struct{})
	select {
	case h.c.flushc <- done:
	case <-time.After(5 * time.Second):
		h.t.Fatal("component does not run")
	}
	<-done
}

// deliver hands a datagram from src to the component and waits until it is processed.
func (h *harness) deliver(src netip.AddrPort, b []byte) {
	h.t.Helper()
	if !h.conn.Deliver(transport.Datagram{Payload: b, Src: src, Time: h.clk.Now()}) {
		h.t.Fatal("fake queue full")
	}
	h.flush()
}

// send encodes p and delivers it from src.
func (h *harness) send(src netip.AddrPort, p *gcproto.Packet) {
	h.t.Helper()
	h.deliver(src, encode(h.t, p))
}

// advance moves the clock by d and waits until the component handled the ticks.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	h.clk.Advance(d)
	h.flush()
}

// lastInfo returns the latest GCInfo published.
func (h *harness) lastInfo() dmsgs.GCInfo {
	h.t.Helper()
	m, ok := h.info.Last()
	if !ok {
		h.t.Fatal("no GCInfo published")
	}
	return m
}

// returns lists the return packets sent so far.
func (h *harness) returns() []bus.Sent { return h.conn.Sent() }

// checkInvariant verifies that every datagram is counted once, in the component and
// in the socket.
func (h *harness) checkInvariant() {
	h.t.Helper()
	st := h.c.Status()
	n := st.Counters
	if n.Received != n.Accepted+n.Dropped() {
		h.t.Errorf("counters %+v: received %d != accepted %d + dropped %d", n, n.Received, n.Accepted, n.Dropped())
	}
	cs := h.conn.Stats()
	if cs.Received != cs.Delivered+cs.Dropped() {
		h.t.Errorf("socket stats %+v do not add up", cs)
	}
	if cs.Malformed != n.Malformed() {
		h.t.Errorf("socket malformed %d, component header+length+version+range %d", cs.Malformed, n.Malformed())
	}
	if cs.Delivered+cs.Malformed != n.Received {
		h.t.Errorf("socket delivered %d + malformed %d != component received %d", cs.Delivered, cs.Malformed, n.Received)
	}
}

// basePacket is a PLAYING packet of layout l: our team 17 first (red, score 2, budget
// 1000), team 5 second (blue, score 1, budget 900), our kick-off, 300 s left.
func basePacket(l gcproto.Layout) gcproto.Packet {
	p := gcproto.Packet{
		Layout:          l,
		PacketNumber:    1,
		PlayersPerTeam:  5,
		GameType:        1,
		CompetitionType: 1,
		State:           gcproto.StatePlaying,
		FirstHalf:       true,
		KickingTeam:     ourTeam,
		SecsRemaining:   300,
		DropInTime:      -1,
	}
	if l.Family() != gcproto.FamilyHL {
		p.GameType = 0
	} else {
		p.CompetitionType = 0
	}
	p.Teams[0] = gcproto.TeamInfo{TeamNumber: ourTeam, FieldPlayerColour: gcproto.ColourRed, Score: 2}
	p.Teams[1] = gcproto.TeamInfo{TeamNumber: otherTeam, FieldPlayerColour: gcproto.ColourBlue, Score: 1}
	if l.HasMessageBudget() {
		p.Teams[0].MessageBudget = 1000
		p.Teams[1].MessageBudget = 900
	}
	return p
}

func encode(t testing.TB, p *gcproto.Packet) []byte {
	t.Helper()
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatalf("encode %s: %v", p.Layout, err)
	}
	return b
}

// wantBaseInfo is the GCInfo of basePacket(l), written out by hand.
func wantBaseInfo(name string, budget int32) dmsgs.GCInfo {
	return dmsgs.GCInfo{
		Connected:     true,
		GCVersion:     name,
		GameType:      1,
		State:         dmsgs.GCInfoStatePlaying,
		Kickoff:       true,
		FirstHalf:     true,
		SecsRemaining: 300,
		OurScore:      2,
		EnemyScore:    1,
		TeamColour:    dmsgs.GCInfoTeamRed,
		EnemyColour:   dmsgs.GCInfoTeamBlue,
		MessageBudget: budget,
	}
}

// layoutCase describes each layout as the ROS messages and the return path see it.
type layoutCase struct {
	layout  gcproto.Layout
	name    string
	version uint8
	players int
	budget  int32 // -1: no budget in the layout
	retVer  uint8
	penalty gcproto.Penalty // some valid non-zero penalty code of the layout
}

var layoutCases = []layoutCase{
	{gcproto.LayoutHL640, "HL640", 12, 11, -1, 2, 34},
	{gcproto.LayoutHL664, "HL664", 12, 11, -1, 2, 34},
	{gcproto.LayoutHL688, "HL688", 12, 11, -1, 2, 34},
	{gcproto.LayoutSPL12, "SPL12", 12, 6, -1, 3, 2},
	{gcproto.LayoutSPL13, "SPL13", 13, 6, -1, 3, 2},
	{gcproto.LayoutSPL14, "SPL14", 14, 7, 1000, 4, 2},
	{gcproto.LayoutSPL15, "SPL15", 15, 20, 1000, 4, 2},
	{gcproto.LayoutSPL16, "SPL16", 16, 20, 1000, 4, 2},
	{gcproto.LayoutSPL17, "SPL17", 17, 20, 1000, 4, 2},
	{gcproto.LayoutSPL18, "SPL18", 18, 20, 1000, 4, 2},
	{gcproto.LayoutHSL19, "HSL19", 19, 20, 1000, 4, 5},
	{gcproto.LayoutHSL20, "HSL20", 20, 20, 1000, 4, 6},
}

// Hand-built return packets.

func returnV2(team, player, msg byte) []byte { return []byte{'R', 'G', 'r', 't', 2, team, player, msg} }

func returnV3(team, player byte) []byte { return []byte{'R', 'G', 'r', 't', 3, team, player, 0} }

func returnV4(player, team, fallen byte, pose [3]float32, ballAge float32, ball [2]float32) []byte {
	b := []byte{'R', 'G', 'r', 't', 4, player, team, fallen}
	for _, f := range []float32{pose[0], pose[1], pose[2], ballAge, ball[0], ball[1]} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}
