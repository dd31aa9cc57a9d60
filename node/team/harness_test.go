package team

import (
	"context"
	"log/slog"
	"net/netip"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// fakeGame is a GameView a test changes at will.
type fakeGame struct {
	mu      sync.Mutex
	s       GameSnapshot
	changed chan struct{} // notifyingGame's; nil for a plain fakeGame
}

func (g *fakeGame) Snapshot() GameSnapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.s
}

func (g *fakeGame) set(f func(s *GameSnapshot)) {
	g.mu.Lock()
	f(&g.s)
	g.mu.Unlock()
	if g.changed != nil {
		g.changed <- struct{}{}
	}
}

// notifyingGame is a fakeGame that says when it changes (GameNotifier).
type notifyingGame struct{ *fakeGame }

func (g notifyingGame) Changed() <-chan struct{} { return g.changed }

// harness runs a Component on a manual clock with a fake socket and a recorder, and
// steps it deterministically: every step waits until Run has handled it.
type harness struct {
	t      *testing.T
	c      *Component
	clk    *clock.Manual
	conn   *bus.FakeConn
	rec    *bus.Recorder[dmsgs.TeamInfo]
	game   *fakeGame
	events chan event
	stop   chan struct{}
	done   chan error
}

var harnessStart = time.Unix(1700000000, 0)

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Team, cfg.Player = 17, 2
	cfg.Logger = slog.New(slog.DiscardHandler)
	// Most tests start without a GameController and count packets from the first
	// tick; the hold after start has its own tests (start_test.go).
	cfg.GCWait = 0
	return cfg
}

// newHarness starts a component that wakes on every tick (its GameView does not
// notify); prepare, if not nil, runs before Run starts.
func newHarness(t *testing.T, cfg Config, start time.Time, prepare func(*Component)) *harness {
	t.Helper()
	g := &fakeGame{s: NoGame}
	return startHarness(t, cfg, start, prepare, g, g)
}

func startHarness(t *testing.T, cfg Config, start time.Time, prepare func(*Component), g *fakeGame, view GameView) *harness {
	t.Helper()
	h := &harness{
		t:      t,
		clk:    clock.NewManual(start),
		conn:   bus.NewFakeConn(64),
		rec:    &bus.Recorder[dmsgs.TeamInfo]{},
		game:   g,
		events: make(chan event),
		stop:   make(chan struct{}),
		done:   make(chan error, 1),
	}
	c, err := New(cfg, Deps{Conn: h.conn, Publisher: h.rec, Clock: h.clk, Game: view})
	if err != nil {
		t.Fatal(err)
	}
	h.c = c
	c.hook = func(e event) {
		select {
		case h.events <- e:
		case <-h.stop:
		}
	}
	if prepare != nil {
		prepare(c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { h.done <- c.Run(ctx) }()
	h.expect(eventReady)
	t.Cleanup(func() {
		close(h.stop)
		cancel()
		select {
		case err := <-h.done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	return h
}

func (h *harness) expect(want event) {
	h.t.Helper()
	select {
	case e := <-h.events:
		if e != want {
			h.t.Fatalf("component reported event %d, want %d", e, want)
		}
	case <-time.After(5 * time.Second):
		h.t.Fatalf("component did not report event %d", want)
	}
}

// ticks advances the clock by n tick periods, one tick at a time.
func (h *harness) ticks(n int) {
	h.t.Helper()
	for range n {
		h.clk.Advance(h.c.cfg.Tick)
		h.expect(eventTick)
	}
}

// runBoth runs f as the subtests "ticking" (a component that wakes on every tick) and
// "timed" (one that sleeps until its next due tick).
func runBoth(t *testing.T, f func(t *testing.T, timed bool)) {
	for _, timed := range []bool{false, true} {
		t.Run(map[bool]string{false: "ticking", true: "timed"}[timed], func(t *testing.T) { f(t, timed) })
	}
}

// stepTick advances the clock by one tick and waits for the tick if it falls due: every
// tick of a ticking component, a timed one's only when its timer fires.
func (h *harness) stepTick(timed bool) {
	h.t.Helper()
	h.c.mu.Lock()
	wake := h.c.st.origin.Add(time.Duration(h.c.st.wakeK) * h.c.cfg.Tick)
	h.c.mu.Unlock()
	h.clk.Advance(h.c.cfg.Tick)
	if !timed || !h.clk.Now().Before(wake) {
		h.expect(eventTick)
	}
}

// deliver hands one datagram to the component and waits until it is handled.
func (h *harness) deliver(payload []byte) {
	h.t.Helper()
	if !h.conn.Deliver(transport.Datagram{
		Payload: payload,
		Src:     netip.MustParseAddrPort("10.0.0.9:10017"),
		Time:    h.clk.Now(),
	}) {
		h.t.Fatal("fake socket queue full")
	}
	h.expect(eventDatagram)
}

// introduce delivers a packet of a new teammate numbered one before seq and stamped a
// millisecond before stamp: the replay filter holds a sender's first packet until its
// next one (seq, stamp) confirms it.
func (h *harness) introduce(team, player uint8, seq uint32, stamp time.Duration, k *teaminfo.Key) {
	h.t.Helper()
	h.deliver(dnetFrom(h.t, team, player, seq-1, stamp-time.Millisecond, k))
}

// broadcasts returns the payloads broadcast so far.
func (h *harness) broadcasts() [][]byte {
	var out [][]byte
	for _, s := range h.conn.Sent() {
		if s.Broadcast {
			out = append(out, s.Payload)
		}
	}
	return out
}

// checkInvariants checks that every tick and every datagram is counted once.
func (h *harness) checkInvariants() Status {
	h.t.Helper()
	st := h.c.Status()
	if st.Send.Ticks != st.Send.Decisions() {
		h.t.Errorf("ticks %d != sum of decisions %d (%+v)", st.Send.Ticks, st.Send.Decisions(), st.Send)
	}
	r := st.Receive
	if r.Received != r.Accepted+r.Dropped() {
		h.t.Errorf("received %d != accepted %d + dropped %d (%+v)", r.Received, r.Accepted, r.Dropped(), r)
	}
	if got := uint64(h.rec.Len()); got != r.Accepted {
		h.t.Errorf("published %d, accepted %d", got, r.Accepted)
	}
	undecodable := r.WrongSize + r.WrongFormat + r.Malformed + r.Checksum + r.Range + r.Unchecked + r.Auth
	if st.Transport.Malformed != undecodable {
		h.t.Errorf("socket counted %d malformed, component %d undecodable", st.Transport.Malformed, undecodable)
	}
	if st.Transport.Received != r.Received {
		h.t.Errorf("socket received %d, component %d", st.Transport.Received, r.Received)
	}
	return st
}

// dnetFrom returns a dnet packet from a teammate of team 17.
func dnetFrom(t testing.TB, team, player uint8, seq uint32, stamp time.Duration, k *teaminfo.Key) []byte {
	t.Helper()
	s := teaminfo.State{Team: team, Player: player, Seq: seq, Stamp: stamp,
		TimeSinceLastKick: 1, TimeToReachBall: 2, BallAge: 3}
	b, err := teaminfo.AppendDNet(nil, &s, k)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// zjuFrom returns a zju packet from a robot.
func zjuFrom(t testing.TB, team, player uint8) []byte {
	t.Helper()
	p := teaminfo.ZJUPacket{TeamNumber: team, PlayerNumber: player,
		TxpTimestamp: teaminfo.RosTime{Sec: 1700000000}}
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// stampAt is the stamp of a packet sent at t.
func stampAt(t time.Time) time.Duration { return time.Duration(t.UnixNano()) }

func builtinTime(sec int32, ns uint32) builtin_interfaces.Time {
	return builtin_interfaces.Time{Sec: sec, Nanosec: ns}
}

func builtinDuration(sec int32, ns uint32) builtin_interfaces.Duration {
	return builtin_interfaces.Duration{Sec: sec, Nanosec: ns}
}

func equalMsg(a, b dmsgs.TeamInfo) bool { return reflect.DeepEqual(a, b) }

// datagram wraps a payload as the socket would deliver it.
func datagram(b []byte) transport.Datagram {
	return transport.Datagram{Payload: b, Src: netip.MustParseAddrPort("10.0.0.9:10017")}
}

func dmsgsGCInfo() dmsgs.GCInfo {
	return dmsgs.GCInfo{Connected: true, State: dmsgs.GCInfoStateSet, GamePhase: dmsgs.GCInfoGamePhaseOvertime,
		SetPlay: 4, SecondaryState: 9, Penalised: true, Stopped: true, FirstHalf: true, SecsRemaining: 321,
		MessageBudget: -1, OurScore: 2}
}
