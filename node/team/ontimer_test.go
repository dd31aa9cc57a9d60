package team

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// funcClock is a manual clock whose timer calls a function (clock.FuncTimerClock); the
// test fires it itself.
type funcClock struct {
	*clock.Manual
	mu     sync.Mutex
	fn     func(time.Time)
	at     time.Time // the instant the timer is armed for
	resets int
}

func (f *funcClock) NewTimerFunc(fn func(time.Time)) clock.Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fn = fn
	return funcTimer{f}
}

func (f *funcClock) resetCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resets
}

func (f *funcClock) armed() (func(time.Time), time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fn, f.at
}

type funcTimer struct{ f *funcClock }

func (t funcTimer) C() <-chan time.Time { return nil }
func (t funcTimer) Reset(at time.Time) {
	t.f.mu.Lock()
	t.f.at = at
	t.f.resets++
	t.f.mu.Unlock()
}
func (t funcTimer) Stop() {}

// handlerConn is a FakeConn that can hand its datagrams over (bus.HandlerConn); the
// test plays the socket's goroutine and calls the handler itself.
type handlerConn struct {
	*bus.FakeConn
	mu    sync.Mutex
	h     transport.Handler
	sets  int
	wakes chan struct{}
	done  chan struct{}
}

func (h *handlerConn) SetHandler(f transport.Handler) {
	h.mu.Lock()
	h.h = f
	h.sets++
	h.mu.Unlock()
}

func (h *handlerConn) handler() (transport.Handler, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.h, h.sets
}

func (h *handlerConn) Wake() {
	select {
	case h.wakes <- struct{}{}:
	default:
	}
}

func (h *handlerConn) Done() <-chan struct{} { return h.done }

// funcGame is a notifyingGame that calls a function at every change (GameFuncNotifier);
// the test calls it itself.
type funcGame struct {
	notifyingGame
	mu sync.Mutex
	f  func()
}

func (g *funcGame) OnChange(f func()) {
	g.mu.Lock()
	g.f = f
	g.mu.Unlock()
}

func (g *funcGame) onChange() func() {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.f
}

// TestOwnerOnSocket: with a socket that hands its datagrams over, the socket's goroutine
// owns the state: the handler takes the due tick (our packet is sent) and the datagrams,
// a handler call before the planned tick ticks nothing, the clock's timer, a poke and
// a GameController change only wake the socket, the timer is armed again after the
// clock went back, and once Run has returned the handler and the change function are cleared.
func TestOwnerOnSocket(t *testing.T) {
	clk := &funcClock{Manual: clock.NewManual(harnessStart)}
	conn := &handlerConn{FakeConn: bus.NewFakeConn(8), wakes: make(chan struct{}, 1), done: make(chan struct{})}
	game := &funcGame{notifyingGame: notifyingGame{&fakeGame{s: NoGame, changed: make(chan struct{}, 1)}}}
	c, err := New(testConfig(), Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.TeamInfo]{}, Clock: clk, Game: game})
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan event, 64)
	c.hook = func(e event) { events <- e }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer cancel()
	if e := <-events; e != eventReady {
		t.Fatalf("first event %v, want ready", e)
	}
	h, _ := conn.handler()
	if h == nil {
		t.Fatal("no handler set")
	}
	h(nil) // the first call, as SetHandler's wake-up makes it: it arms the timer
	fire, at := clk.armed()
	if fire == nil || !at.After(harnessStart) {
		t.Fatalf("timer made with NewTimerFunc armed for %v (start %v)", at, harnessStart)
	}
	event := func() (event, bool) {
		select {
		case e := <-events:
			return e, true
		default: // the hook runs on this goroutine, inside h
			return 0, false
		}
	}

	fire(at)
	select {
	case <-conn.wakes:
	default:
		t.Fatal("the timer's firing did not wake the socket")
	}
	early := at.Add(-time.Millisecond)
	clk.Set(early)
	h(nil)
	if e, ok := event(); ok || len(conn.Sent()) != 0 {
		t.Fatalf("a call before the planned tick: event %v, sent %d", e, len(conn.Sent()))
	}
	clk.Set(at)
	h(nil)
	if e, ok := event(); !ok || e != eventTick || len(conn.Sent()) != 1 {
		t.Fatalf("the call at the planned tick: event %v (%v), sent %d, want a tick and 1", e, ok, len(conn.Sent()))
	}
	if _, next := clk.armed(); !next.After(at) {
		t.Fatalf("re-armed for %v, not after %v", next, at)
	}
	h([]transport.Datagram{{Payload: []byte("junk"), Time: at}})
	if e, ok := event(); !ok || e != eventDatagram || c.Status().Receive.Received != 1 {
		t.Fatalf("a datagram: event %v (%v), received %d", e, ok, c.Status().Receive.Received)
	}
	c.SetVision(&dmsgs.VisionInfo{SeeBall: true}) // changes the rate row: a poke
	select {
	case <-conn.wakes:
	default:
		t.Fatal("a poke did not wake the socket")
	}
	h(nil)
	if e, ok := event(); !ok || e != eventPlan {
		t.Fatalf("the call after a poke: event %v (%v), want a plan", e, ok)
	}
	// The clock goes back (not past the start): its timers fire, and the timer is armed
	// again for the same instant.
	n := clk.resetCount()
	clk.Set(early)
	h(nil)
	if clk.resetCount() != n+1 {
		t.Fatalf("after the clock went back: %d arming(s), want 1", clk.resetCount()-n)
	}
	clk.Set(at)

	changed := game.onChange()
	if changed == nil {
		t.Fatal("no GameController change function set")
	}
	changed()
	select {
	case <-conn.wakes:
	default:
		t.Fatal("a GameController change did not wake the socket")
	}
	h(nil)
	if e, ok := event(); !ok || e != eventPlan {
		t.Fatalf("the call after a GameController change: event %v (%v), want a plan", e, ok)
	}
	st := c.Status().Send
	if st.Ticks == 0 || st.Ticks != st.Decisions() || st.Sent != 1 {
		t.Fatalf("send counters %+v", st)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if h, sets := conn.handler(); h != nil || sets != 2 || game.onChange() != nil {
		t.Fatalf("after Run returned: handler set %d times, still set %v; change function set %v", sets, h != nil, game.onChange() != nil)
	}
}
