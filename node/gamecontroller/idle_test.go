package gamecontroller

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// infoAudience is a GCInfo recorder whose Listened answer the test sets; with changes
// non-nil it also signals each change, as ros.Publisher does (bus.AudienceWatcher).
type infoAudience struct {
	bus.Recorder[dmsgs.GCInfo]
	listened atomic.Bool
	changes  chan struct{}
}

func (a *infoAudience) Listened() bool                   { return a.listened.Load() }
func (a *infoAudience) AudienceChanges() <-chan struct{} { return a.changes }

// set changes the answer and signals the change.
func (a *infoAudience) set(listened bool) {
	a.listened.Store(listened)
	select {
	case a.changes <- struct{}{}:
	default:
	}
}

// TestIdleTicks: with nobody subscribed to GCInfo and no GameController connected the
// component stops its tickers (the tick that finds so still publishes), keeps counting
// GCInfoPublished as a ticker that never stopped would, and ticks again on the same
// grid when somebody subscribes or a packet is accepted; a connected GameController
// keeps both tickers running until it is lost.
func TestIdleTicks(t *testing.T) {
	info := &infoAudience{changes: make(chan struct{}, 1)}
	h := newHarnessPubs(t, nil, info, nil)
	const onChange = 1 // the packet below publishes GCInfo at once (PublishOnChange)
	published := func(changes int) uint64 {
		// A ticker that never stopped: one publication per half second since t0.
		return uint64(h.clk.Now().Sub(t0)/(500*time.Millisecond)) + uint64(changes)
	}
	check := func(when string, msgs int, changes int) {
		t.Helper()
		if n := info.Len(); n != msgs {
			t.Errorf("%s: %d GCInfo published, want %d", when, n, msgs)
		}
		if got, want := h.c.Status().GCInfoPublished, published(changes); got != want {
			t.Errorf("%s: GCInfoPublished %d, want %d", when, got, want)
		}
	}

	h.advance(500 * time.Millisecond) // the first tick publishes and finds nobody
	for range 20 {
		h.advance(250 * time.Millisecond)
	}
	check("nobody listening, 5 s later", 1, 0)

	info.set(true)
	h.flush()
	h.advance(500 * time.Millisecond)
	check("subscribed", 2, 0)
	info.set(false)
	h.flush()
	h.advance(500 * time.Millisecond) // publishes, then stops
	h.advance(time.Second)
	check("unsubscribed", 3, 0)

	p := basePacket(gcproto.LayoutHSL20)
	h.send(gcA, &p) // publishes at once and starts both tickers
	at := h.clk.Now()
	// 1.3 s: the tick of 8.5 s waits a quarter of a second for another packet.
	for range 13 {
		h.advance(100 * time.Millisecond)
	}
	check("connected, nobody listening", 4+2, onChange)
	if n := len(h.returns()); n != 1 {
		t.Errorf("%d return packets in the connected second, want 1", n)
	}
	// Lost at the tick 3 s after the packet: it still publishes (connected false).
	for h.clk.Now().Before(at.Add(3 * time.Second)) {
		h.advance(100 * time.Millisecond)
	}
	msgs := info.Len()
	if m := info.Messages()[msgs-1]; m.Connected {
		t.Error("the tick at the timeout published connected")
	}
	if n := len(h.logs.lines("GameController lost")); n != 1 {
		t.Errorf("%d lost lines, want 1", n)
	}
	for range 4 {
		h.advance(500 * time.Millisecond)
	}
	check("lost", msgs, onChange)
	// One per whole second while connected (8, 9 and 10 s after t0): the packet at
	// 7.5 s takes the one of 8 s at once, the one of 9 s waits half a second for
	// another packet, and the one of 10 s is on the grid again.
	if n := len(h.returns()); n != 3 {
		t.Errorf("%d return packets, want 3 (one per second while connected)", n)
	}
	h.checkInvariant()
}

// TestTicksWithoutAudienceSignal: a GCInfo publisher that says nobody listens but
// cannot signal when somebody does keeps its ticker running, or a subscriber would
// never get GCInfo.
func TestTicksWithoutAudienceSignal(t *testing.T) {
	info := &infoAudience{} // no changes channel
	h := newHarnessPubs(t, nil, info, nil)
	for range 10 {
		h.advance(500 * time.Millisecond)
	}
	if n := info.Len(); n != 10 {
		t.Errorf("%d GCInfo published in 5 s, want 10", n)
	}
	if st := h.c.Status(); st.GCInfoPublished != 10 {
		t.Errorf("GCInfoPublished %d, want 10", st.GCInfoPublished)
	}
}

// TestIdleTicksFirstSimTime: on simulation time the clock reads the zero time until
// the first /clock message. The first tick then comes at that message's time and
// stands for it, so GCInfoPublished counts from there: not the ticks of the two
// thousand years since the grid instant the ticker was armed for before.
func TestIdleTicksFirstSimTime(t *testing.T) {
	info := &infoAudience{changes: make(chan struct{}, 1)}
	sim := &clock.Manual{} // no time yet
	h := startHarness(t, nil, info, nil, func(c *Component) { c.clk = sim })
	h.clk = sim
	sim.Set(t0) // the first /clock message
	h.flush()   // the first tick publishes and finds nobody
	h.advance(2 * time.Second)
	if n := info.Len(); n != 1 {
		t.Errorf("%d GCInfo published, want 1", n)
	}
	if got := h.c.Status().GCInfoPublished; got > 5 {
		t.Errorf("GCInfoPublished %d 2 s after the first /clock message, want at most 5", got)
	}
}
