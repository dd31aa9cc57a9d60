package gcsim

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

const (
	teamA = 17
	teamB = 5
)

var (
	t0       = time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC)
	robotSrc = netip.MustParseAddrPort("127.0.0.1:40001")
	dstOne   = Destination{Kind: DestUnicast, Addrs: []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:3838")}}
)

// sent is one control packet the fake sender was given.
type sent struct {
	At      time.Duration // since t0
	Payload []byte
	Dst     netip.AddrPort
	Bcast   bool
	Port    uint16
}

// fakeSender records sends with the manual clock's time.
type fakeSender struct {
	clk *clock.Manual
	mu  sync.Mutex
	out []sent
	err error
}

func (f *fakeSender) rec(s sent) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s.At = f.clk.Now().Sub(t0)
	s.Payload = append([]byte(nil), s.Payload...)
	f.out = append(f.out, s)
	return f.err
}

func (f *fakeSender) SendTo(b []byte, dst netip.AddrPort) error {
	return f.rec(sent{Payload: b, Dst: dst})
}

func (f *fakeSender) Broadcast(b []byte, port uint16) error {
	return f.rec(sent{Payload: b, Bcast: true, Port: port})
}

func (f *fakeSender) all() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sent(nil), f.out...)
}

// harness runs a Simulator on a manual clock inside a synctest bubble.
type harness struct {
	t    *testing.T
	clk  *clock.Manual
	sim  *Simulator
	out  *fakeSender
	ret  *bus.FakeConn
	team [2]*bus.FakeConn

	mu      sync.Mutex
	changes []Change
}

// quiet is a logger that discards everything.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// simulate builds a simulator from cfg (Control, Return, TeamConns, Clock and OnChange
// are filled in), runs it and calls fn; the simulator stops when fn returns.
func simulate(t *testing.T, cfg Config, fn func(t *testing.T, h *harness)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		h := &harness{t: t, clk: clock.NewManual(t0), ret: bus.NewFakeConn(64)}
		h.out = &fakeSender{clk: h.clk}
		for i := range h.team {
			h.team[i] = bus.NewFakeConn(64)
			cfg.TeamConns[i] = h.team[i]
		}
		if cfg.Teams == [2]uint8{} {
			cfg.Teams = [2]uint8{teamA, teamB}
		}
		if cfg.Dest.Kind == 0 {
			cfg.Dest = dstOne
		}
		cfg.Clock, cfg.Control, cfg.Return = h.clk, h.out, h.ret
		cfg.Logger = quiet
		cfg.OnChange = func(c Change) {
			h.mu.Lock()
			h.changes = append(h.changes, c)
			h.mu.Unlock()
		}
		sim, err := New(cfg)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		h.sim = sim
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- sim.Run(ctx) }()
		synctest.Wait()
		fn(t, h)
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// advance moves the clock forward by d in ticks, letting the simulator catch up
// after each.
func (h *harness) advance(d time.Duration) {
	for ; d > 0; d -= Tick {
		h.clk.Advance(min(d, Tick))
		synctest.Wait()
	}
}

// until advances the clock to t0+at.
func (h *harness) until(at time.Duration) { h.advance(at - h.clk.Now().Sub(t0)) }

// packets decodes every control packet sent so far.
func (h *harness) packets() []decoded {
	h.t.Helper()
	var out []decoded
	for _, s := range h.out.all() {
		var p gcproto.Packet
		if err := p.UnmarshalBinary(s.Payload); err != nil {
			h.t.Fatalf("packet at %v does not decode: %v\n% x", s.At, err, s.Payload)
		}
		out = append(out, decoded{At: s.At, P: p})
	}
	return out
}

type decoded struct {
	At time.Duration
	P  gcproto.Packet
}

// at returns the last packet sent at or before t0+at.
func (h *harness) at(at time.Duration) gcproto.Packet {
	h.t.Helper()
	var last *gcproto.Packet
	ps := h.packets()
	for i := range ps {
		if ps[i].At <= at {
			last = &ps[i].P
		}
	}
	if last == nil {
		h.t.Fatalf("no packet sent by %v", at)
	}
	return *last
}

// team returns the TeamInfo of team number n in p.
func team(t *testing.T, p gcproto.Packet, n uint8) *gcproto.TeamInfo {
	t.Helper()
	for i := range p.Teams {
		if p.Teams[i].TeamNumber == n {
			return &p.Teams[i]
		}
	}
	t.Fatalf("team %d not in packet (%d, %d)", n, p.Teams[0].TeamNumber, p.Teams[1].TeamNumber)
	return nil
}

func (h *harness) changeList() []Change {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Change(nil), h.changes...)
}

// whats returns the What of every change.
func (h *harness) whats() string {
	var s []string
	for _, c := range h.changeList() {
		s = append(s, c.What)
	}
	return strings.Join(s, "; ")
}

// deliver hands the simulator a datagram on conn at the current time.
func (h *harness) deliver(conn *bus.FakeConn, payload []byte, src netip.AddrPort) {
	h.t.Helper()
	if !conn.Deliver(transport.Datagram{Payload: payload, Src: src, Time: h.clk.Now()}) {
		h.t.Fatal("fake queue full")
	}
	synctest.Wait()
}

// script parses a script for the setup or fails.
func script(t *testing.T, s Setup, text string) Script {
	t.Helper()
	if s.Teams == [2]uint8{} {
		s.Teams = [2]uint8{teamA, teamB}
	}
	sc, err := ParseScript(strings.NewReader(text), s)
	if err != nil {
		t.Fatalf("ParseScript: %v", err)
	}
	return sc
}
