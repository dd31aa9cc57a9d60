package team

import (
	"bytes"
	"context"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// newTimedHarness starts a component that sleeps until its next due tick: its
// GameView notifies changes and the manual clock makes timers.
func newTimedHarness(t *testing.T, cfg Config, start time.Time) *harness {
	t.Helper()
	g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
	h := startHarness(t, cfg, start, nil, g, notifyingGame{g})
	h.c.mu.Lock()
	timed := h.c.st.timed
	h.c.mu.Unlock()
	if !timed {
		t.Fatal("the component ticks although its clock makes timers and its game view notifies")
	}
	return h
}

// twin drives a ticking and a timed component through the same script.
type twin struct {
	ticked, timed *harness
	tick          time.Duration
}

// step advances both clocks by d (at most one tick) and waits until each component
// has handled what fell due: the ticking one every tick, the timed one its timer.
func (w *twin) step(d time.Duration) {
	w.ticked.t.Helper()
	for _, h := range []*harness{w.ticked, w.timed} {
		prev := h.clk.Now()
		// The timed component is idle: its timer's time is stable until it fires.
		h.c.mu.Lock()
		wake := h.c.st.origin.Add(time.Duration(h.c.st.wakeK) * w.tick)
		h.c.mu.Unlock()
		h.clk.Advance(d)
		now := h.clk.Now()
		due := !now.Before(wake)
		if h == w.ticked {
			due = now.Sub(harnessStart)/w.tick > prev.Sub(harnessStart)/w.tick
		}
		if due {
			h.expect(eventTick)
		}
	}
}

func (w *twin) ticks(n int) {
	w.ticked.t.Helper()
	for range n {
		w.step(w.tick)
	}
}

// vision and behavior hand both components the same input; the timed one re-plans
// when the rate row's inputs changed.
func (w *twin) vision(m *dmsgs.VisionInfo) {
	w.ticked.t.Helper()
	w.ticked.c.SetVision(m)
	w.input(func(c *Component) { c.SetVision(m) })
}

func (w *twin) behavior(m *dmsgs.BehaviorInfo) {
	w.ticked.t.Helper()
	w.ticked.c.SetBehavior(m)
	w.input(func(c *Component) { c.SetBehavior(m) })
}

func (w *twin) input(set func(*Component)) {
	w.timed.t.Helper()
	c := w.timed.c
	c.mu.Lock()
	before := c.rateKey(&c.in)
	c.mu.Unlock()
	set(c)
	c.mu.Lock()
	after := c.rateKey(&c.in)
	c.mu.Unlock()
	if after != before {
		w.timed.expect(eventPlan)
	}
}

func (w *twin) game(f func(*GameSnapshot)) {
	w.ticked.t.Helper()
	w.ticked.game.set(f)
	w.timed.game.set(f)
	w.timed.expect(eventPlan)
}

func (w *twin) deliver(b []byte) {
	w.ticked.t.Helper()
	w.ticked.deliver(b)
	w.timed.deliver(b)
}

// compare checks that both sent the same datagrams to the same places (the packets
// carry their send time, so equal bytes mean equal instants) and count the same.
func (w *twin) compare(when string) {
	t := w.ticked.t
	t.Helper()
	a, b := w.ticked.conn.Sent(), w.timed.conn.Sent()
	if len(a) != len(b) {
		t.Fatalf("%s: ticking sent %d datagrams, timed %d", when, len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].Payload, b[i].Payload) || a[i].Broadcast != b[i].Broadcast || a[i].Dst != b[i].Dst || a[i].Port != b[i].Port {
			t.Fatalf("%s: datagram %d differs: ticking %+v, timed %+v", when, i, a[i], b[i])
		}
	}
	sa, sb := w.ticked.checkInvariants(), w.timed.checkInvariants()
	if sa.Send != sb.Send || sa.Receive != sb.Receive {
		t.Fatalf("%s: counters differ:\nticking %+v %+v\ntimed   %+v %+v", when, sa.Send, sa.Receive, sb.Send, sb.Receive)
	}
	if sa.Interval != sb.Interval || sa.Tier != sb.Tier || sa.Budget != sb.Budget ||
		sa.BudgetLeft != sb.BudgetLeft || sa.BudgetKnown != sb.BudgetKnown ||
		sa.LastDecision != sb.LastDecision || !sa.LastTick.Equal(sb.LastTick) || !sa.LastSend.Equal(sb.LastSend) {
		t.Fatalf("%s: status differs:\nticking %v %v %+v %d %v %v %v %v\ntimed   %v %v %+v %d %v %v %v %v", when,
			sa.Interval, sa.Tier, sa.Budget, sa.BudgetLeft, sa.LastDecision, sa.LastTick, sa.LastSend, sa.BudgetKnown,
			sb.Interval, sb.Tier, sb.Budget, sb.BudgetLeft, sb.LastDecision, sb.LastTick, sb.LastSend, sb.BudgetKnown)
	}
}

// TestTimedMatchesTicking runs a ticking and a timed component through a game with
// changing inputs, GameController states, a budget and a teammate coming and going:
// both must send the same packets at the same instants and count the same.
func TestTimedMatchesTicking(t *testing.T) {
	t.Run("monitor", func(t *testing.T) { timedMatchesTicking(t, netip.MustParseAddrPort("10.0.0.50:3838")) })
	t.Run("no monitor", func(t *testing.T) { timedMatchesTicking(t, netip.AddrPort{}) })
}

func timedMatchesTicking(t *testing.T, monitor netip.AddrPort) {
	cfg := testConfig()
	cfg.Monitor = monitor
	cfg.Rate.Alone = 2 * time.Second
	cfg.SilentWhenStopped = true
	w := &twin{ticked: newHarness(t, cfg, harnessStart, nil), timed: newTimedHarness(t, cfg, harnessStart), tick: cfg.Tick}

	w.ticks(75) // blind, alone: every 2 s, monitor every 1 s
	w.compare("idle")
	if w.timed.c.Status().Send.Ticks != 75 {
		t.Fatalf("timed ticks %d, want 75", w.timed.c.Status().Send.Ticks)
	}

	ball := func(x float64) *dmsgs.VisionInfo {
		return &dmsgs.VisionInfo{SeeBall: true, BallField: geometry_msgs.Vector3{X: x}}
	}
	w.step(w.tick / 3)
	w.vision(ball(50)) // near (cm), between two ticks
	w.step(w.tick - w.tick/3)
	w.ticks(40)
	w.compare("ball near")
	w.vision(ball(60)) // same row: no re-plan
	w.ticks(7)
	w.behavior(&dmsgs.BehaviorInfo{TeamPlayState: uint8(3)}) // ball handling
	w.ticks(20)
	w.compare("ball handling")

	w.game(func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 1300}
	})
	w.ticks(60)
	w.compare("budget allowance")

	// A teammate: online until the timeout, which changes the allowance and Alone.
	for i := range 3 {
		w.step(w.tick / 2)
		w.deliver(dnetFrom(t, 17, 3, uint32(i+1), stampAt(w.ticked.clk.Now()), nil))
		w.step(w.tick - w.tick/2)
		w.ticks(10)
	}
	w.compare("teammate")
	w.ticks(int(cfg.TeammateTimeout/w.tick) + 5)
	w.compare("teammate gone")

	// Every change below brings a new budget figure: a packet that repeats the figure
	// wins over the messages counted since the last one in the timed component, which
	// is told of every packet, while the ticking one (a view that does not notify) can
	// take a figure only when it changes (TestBudgetFigureHeldByGameController).
	w.game(func(s *GameSnapshot) { s.Penalised = true; s.SecsRemaining = 560; s.MessageBudget = 1290 })
	w.ticks(40)
	w.game(func(s *GameSnapshot) { s.Penalised = false; s.MessageBudget = 1280 })
	w.ticks(13)
	w.compare("penalty")
	w.game(func(s *GameSnapshot) { s.Stopped = true; s.MessageBudget = 1270 })
	w.ticks(20)
	w.game(func(s *GameSnapshot) { s.Stopped = false; s.MessageBudget = 105 })
	w.ticks(1)
	w.compare("new budget figure") // the status shows it from the next tick on
	w.ticks(19)
	w.compare("stopped, budget at reserve")
	w.game(func(s *GameSnapshot) { s.MessageBudget = 101 }) // nothing falls due
	w.ticks(1)
	w.compare("budget figure while not due")
	w.game(func(s *GameSnapshot) { s.MessageBudget = -1; s.State = StateFinished })
	w.vision(&dmsgs.VisionInfo{})
	w.behavior(&dmsgs.BehaviorInfo{})
	w.ticks(100)
	w.compare("finished")

	// Between its wakes the timed component counts the ticks as they pass.
	w.timed.clk.Advance(10 * w.tick)
	st := w.timed.c.Status()
	if st.Send.Ticks != st.Send.Decisions() || st.LastDecision != DecisionNotDue {
		t.Fatalf("ticks between wakes: %+v, last %v", st.Send, st.LastDecision)
	}
}

// TestTimedClockWithoutTime: on simulation time before the first /clock (the zero
// time) the grid starts at the first time the clock gets, as a ticker's ticks do.
func TestTimedClockWithoutTime(t *testing.T) {
	g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
	h := startHarness(t, testConfig(), time.Time{}, nil, g, notifyingGame{g})
	h.clk.Set(harnessStart)
	h.expect(eventTick) // the timer armed for the zero time's first tick
	if st := h.c.Status(); st.Send.Ticks != 0 {
		t.Fatalf("%d ticks counted on the jump from the zero time", st.Send.Ticks)
	}
	h.clk.Advance(h.c.cfg.Tick)
	h.expect(eventTick)
	st := h.checkInvariants()
	if st.Send.Ticks != 1 || st.Send.Sent != 1 || len(h.broadcasts()) != 1 {
		t.Fatalf("first tick: %+v, %d broadcasts", st.Send, len(h.broadcasts()))
	}
}

// TestSendAfterClockWentBack: a clock that goes back (a simulation reset) must not
// silence the robot until it reaches the time of its last packet again; the next
// packet goes out within one interval of the new time, ticking or timed.
func TestSendAfterClockWentBack(t *testing.T) {
	runBoth(t, func(t *testing.T, timed bool) {
		cfg := testConfig()
		var h *harness
		if timed {
			h = newTimedHarness(t, cfg, harnessStart)
		} else {
			h = newHarness(t, cfg, harnessStart, nil)
		}
		step := func() { h.stepTick(timed) }
		for range 2 * int(time.Second/cfg.Tick) {
			step()
		}
		n := len(h.broadcasts())
		if n == 0 {
			t.Fatal("nothing sent before the clock went back")
		}
		h.clk.Set(h.clk.Now().Add(-10 * time.Second)) // a simulation reset
		if timed {
			h.expect(eventTick) // the manual clock fires its timers when it goes back
		}
		for range int(cfg.Rate.Blind/cfg.Tick) + 1 {
			step()
		}
		if got := len(h.broadcasts()); got == n {
			t.Fatalf("no packet within %v after the clock went back 10 s (%d before)", cfg.Rate.Blind+cfg.Tick, n)
		}
		h.checkInvariants()
	})
}

// TestTeammateOfflineAfterClockWentBack: a teammate heard before the clock went back (a
// simulation reset) and silent since is offline once the teammate timeout has passed on
// the new time, not only when the clock has caught up with its last packet again.
func TestTeammateOfflineAfterClockWentBack(t *testing.T) {
	cfg := testConfig()
	h := newHarness(t, cfg, harnessStart, nil)
	h.ticks(1)
	now := stampAt(h.clk.Now())
	h.introduce(17, 3, 1, now, nil)
	h.deliver(dnetFrom(t, 17, 3, 1, now, nil))
	if st := h.c.Status(); len(st.Teammates) != 1 {
		t.Fatalf("teammates %+v, want player 3", st.Teammates)
	}
	h.clk.Set(h.clk.Now().Add(-10 * time.Second)) // a simulation reset
	h.ticks(int(cfg.TeammateTimeout/cfg.Tick) + 2)
	if st := h.c.Status(); len(st.Teammates) != 0 {
		t.Fatalf("%v after the clock went back 10 s, silent teammates still online: %+v", cfg.TeammateTimeout, st.Teammates)
	}
	h.checkInvariants()
}

// steppingClock is a manual clock whose every reading is a microsecond later than the
// one before, as a real clock's two readings around some work are: its timers still
// fire at the manual time.
type steppingClock struct {
	*clock.Manual
	n atomic.Int64
}

func (s *steppingClock) Now() time.Time {
	return s.Manual.Now().Add(time.Duration(s.n.Add(1)) * time.Microsecond)
}

// logRecorder keeps the messages logged to it.
type logRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecorder) WithGroup(string) slog.Handler            { return l }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.msgs = append(l.msgs, r.Message)
	l.mu.Unlock()
	return nil
}

func (l *logRecorder) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.msgs {
		if m == msg {
			n++
		}
	}
	return n
}

// A teammate whose packets keep coming stays online although each packet is handled a
// moment after the instant the component plans for: one "teammate online", never
// "offline", and every packet sent carries it in mates_online. Ticking and timed.
func TestTeammateStaysOnlineWhileTimeMoves(t *testing.T) {
	runBoth(t, func(t *testing.T, timed bool) {
		cfg := testConfig()
		logs := &logRecorder{}
		cfg.Logger = slog.New(logs)
		var clk *steppingClock
		stepping := func(c *Component) {
			clk = &steppingClock{Manual: c.clk.(*clock.Manual)}
			c.clk = clk
		}
		g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
		var view GameView = g
		if timed {
			view = notifyingGame{g}
		}
		h := startHarness(t, cfg, harnessStart, stepping, g, view)
		step := func() { h.stepTick(timed) }
		step()
		stamp := func() time.Duration { return stampAt(clk.Now()) }
		h.introduce(17, 3, 1, stamp(), nil)
		h.deliver(dnetFrom(t, 17, 3, 1, stamp(), nil))
		before := len(h.broadcasts())
		for seq := uint32(2); seq <= 60; seq++ {
			step()
			h.deliver(dnetFrom(t, 17, 3, seq, stamp(), nil))
		}
		if on, off := logs.count("teammate online"), logs.count("teammate offline"); on != 1 || off != 0 {
			t.Errorf("logged %d \"teammate online\" and %d \"teammate offline\", want 1 and 0", on, off)
		}
		sent := h.broadcasts()[before:]
		if len(sent) == 0 {
			t.Fatal("no packet sent")
		}
		for i, b := range sent {
			var s teaminfo.State
			if _, err := teaminfo.DecodeDNet(b, &s, nil); err != nil {
				t.Fatal(err)
			}
			if !s.MatesOnline[2] {
				t.Errorf("packet %d: mates_online %v lacks player 3", i, s.MatesOnline)
			}
		}
		h.checkInvariants()
	})
}
