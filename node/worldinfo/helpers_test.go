package worldinfo

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var (
	quiet = slog.New(slog.DiscardHandler)
	t0    = time.Unix(1_700_000_000, 0)
	peerA = netip.MustParseAddr("10.0.1.11")
	peerB = netip.MustParseAddr("10.0.1.12")
)

// harness runs a component on a manual clock with a FakeConn and a Recorder.
type harness struct {
	t    *testing.T
	c    *Component
	clk  *clock.Manual
	conn *bus.FakeConn
	rec  *bus.Recorder[dmsgs.WorldInfo]
	game *gameBox
	stop func() error
}

// gameBox is a GameSource a test can change.
type gameBox struct {
	mu sync.Mutex
	g  Game
	ok bool
}

func (b *gameBox) WorldInfoGame() (Game, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.g, b.ok
}

func (b *gameBox) set(g Game, ok bool) {
	b.mu.Lock()
	b.g, b.ok = g, ok
	b.mu.Unlock()
}

func testConfig() Config {
	c := DefaultConfig()
	c.Enabled = true
	c.Logger = quiet
	return c
}

// start builds and runs a component; the test stops it in cleanup (or earlier with
// h.stop) and checks that Run returned nil.
func start(t *testing.T, cfg Config) *harness {
	t.Helper()
	return startWith(t, cfg, nil)
}

// startWith is start with prepare (may be nil) called on the component before Run.
func startWith(t *testing.T, cfg Config, prepare func(*Component)) *harness {
	t.Helper()
	h := &harness{t: t, clk: clock.NewManual(t0), conn: bus.NewFakeConn(64),
		rec: &bus.Recorder[dmsgs.WorldInfo]{}, game: &gameBox{}}
	c, err := New(cfg, Deps{Clock: h.clk, Conn: h.conn, Publisher: h.rec, Game: h.game})
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
	var once sync.Once
	var runErr error
	h.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-done:
			case <-time.After(5 * time.Second):
				runErr = errors.New("Run did not return within 5 s of cancel")
			}
		})
		return runErr
	}
	t.Cleanup(func() {
		if err := h.stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	select {
	case <-c.ready:
	case <-time.After(5 * time.Second):
		t.Fatal("component loop did not start")
	}
	return h
}

// waitFor polls cond until it holds or 5 s pass.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// tick advances the clock by one interval and waits for the cycle to finish.
func (h *harness) tick() {
	h.t.Helper()
	want := h.c.cycles.Load() + 1
	h.clk.Advance(h.c.cfg.Interval)
	waitFor(h.t, "a send cycle", func() bool { return h.c.cycles.Load() == want })
}

// sent returns the datagrams sent so far and forgets them.
func (h *harness) sent() []bus.Sent {
	s := h.conn.Sent()
	h.conn.ResetSent()
	return s
}

// deliver hands a datagram to the component and waits until it is processed.
func (h *harness) deliver(src netip.Addr, payload []byte) {
	h.t.Helper()
	want := h.c.received.Load() + 1
	if !h.conn.Deliver(transport.Datagram{Payload: payload, Src: netip.AddrPortFrom(src, wi.DefaultPort),
		Time: h.clk.Now()}) {
		h.t.Fatal("fake queue full")
	}
	waitFor(h.t, "a datagram to be processed", func() bool {
		return h.c.received.Load() == want && h.c.published.Load()+h.c.publishErrors.Load()+h.c.rx.Stats().Dropped() == want
	})
}

// record is a decoded record of a sent datagram.
type record struct {
	typ wi.RecordType
	msg wi.Message
}

// decode decrypts and parses a datagram the component sent.
func decode(t testing.TB, key string, b []byte) (wi.Header, []record) {
	t.Helper()
	plain, err := wi.NewCipher(key).Open(nil, b)
	if err != nil {
		t.Fatalf("decrypt: %v", err)
	}
	h, r, err := wi.Parse(plain)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var recs []record
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		m, err := rec.Message()
		if err != nil {
			t.Fatalf("record %v at %d: %v", rec.Type, rec.Offset, err)
		}
		recs = append(recs, record{rec.Type, m})
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return h, recs
}

func types(recs []record) []wi.RecordType {
	var ts []wi.RecordType
	for _, r := range recs {
		ts = append(ts, r.typ)
	}
	return ts
}

func near32(a float32, b float64) bool { return math.Abs(float64(a)-b) <= 1e-5 }

// peer is another world info robot: a Sender whose datagrams tests feed to the component.
type peer struct {
	t *testing.T
	s *wit.Sender
}

func newPeer(t *testing.T, cfg wit.Config) *peer {
	s, err := wit.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &peer{t: t, s: s}
}

// send returns the datagrams of one Send.
func (p *peer) send() [][]byte {
	p.t.Helper()
	var out [][]byte
	if err := p.s.Send(func(d []byte) error { out = append(out, append([]byte(nil), d...)); return nil }); err != nil {
		p.t.Fatal(err)
	}
	return out
}

func must(t testing.TB, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
