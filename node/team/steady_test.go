package team

import (
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// burstClock is a manual clock whose every reading is a microsecond later than the one
// before, as a real clock's readings around some work are, but never runs ahead of the
// manual time by more than the readings since it last moved: over a long run its
// readings stay with the timers, which fire at the manual time. Its timers count what
// the component asks of them (armCounter).
type burstClock struct {
	*clock.Manual
	mu   sync.Mutex
	last time.Time
	tm   []*armCounter
}

func (c *burstClock) Now() time.Time {
	m := c.Manual.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.After(c.last) {
		c.last = m
	}
	c.last = c.last.Add(time.Microsecond)
	return c.last
}

func (c *burstClock) NewTimer() clock.Timer {
	t := &armCounter{Timer: c.Manual.NewTimer(), clk: c.Manual}
	c.mu.Lock()
	c.tm = append(c.tm, t)
	c.mu.Unlock()
	return t
}

// counts returns the Resets and the arms of the clock's timers so far.
func (c *burstClock) counts() (resets, arms int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.tm {
		r, a := t.counts()
		resets += r
		arms += a
	}
	return resets, arms
}

// armCounter is a manual timer that counts its Resets and, of those, the arms: the
// Resets the fd timer makes a timerfd_settime for, those to another instant than the
// one it is armed for or after it fired (clock.fdTimer.Reset).
type armCounter struct {
	clock.Timer
	clk *clock.Manual

	mu     sync.Mutex
	armed  time.Time
	resets int
	arms   int
}

func (t *armCounter) Reset(at time.Time) {
	t.mu.Lock()
	t.resets++
	// A manual timer fires once the manual time reaches its instant.
	if t.armed.IsZero() || !at.Equal(t.armed) || !t.clk.Now().Before(t.armed) {
		t.arms++
	}
	t.armed = at
	t.mu.Unlock()
	t.Timer.Reset(at)
}

func (t *armCounter) counts() (resets, arms int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resets, t.arms
}

// countingGame is a notifying GameView that counts its snapshots.
type countingGame struct {
	notifyingGame
	n atomic.Int64
}

func (g *countingGame) Snapshot() GameSnapshot {
	g.n.Add(1)
	return g.notifyingGame.Snapshot()
}

// steadyWork counts what a timed component did up to some instant.
type steadyWork struct {
	arms, plans, ticks, snapshots, sent, published, logged int
}

// TestSteadyTeamOfSix runs a timed component as one robot of a six-robot team in steady
// traffic for 20 simulated seconds: five teammates whose packets come as a burst every
// 1/15 s, a few hundred microseconds apart, a GameController in PLAYING with a budget,
// inputs unchanged, on a clock whose every reading moves. After a warm-up its work per
// second must stay at what it is now: the timer armed once per tick it runs, a plan per
// burst and per tick, no tick but those that send, nothing logged, the same
// mates_online, rate tier and interval throughout, every teammate packet published
// once. The burst comes in one read (queued together: one plan) or, as packets a few
// hundred microseconds apart mostly do on an idle robot, one read per packet (a plan
// each). aded341's state (isOnline refusing a teammate heard after now, and take and
// receive each reading the clock: a teammate counted offline for the plan after its
// packet, online again at the next tick) logs "teammate offline" and "teammate online"
// here 15 (one read per burst) to 150 (one read per packet) times a second.
func TestSteadyTeamOfSix(t *testing.T) {
	t.Run("burst in one read", func(t *testing.T) { steadyTeamOfSix(t, true) })
	t.Run("one read per packet", func(t *testing.T) { steadyTeamOfSix(t, false) })
}

func steadyTeamOfSix(t *testing.T, together bool) {
	const (
		mates   = 5
		seconds = 20
		warm    = 5 // seconds: the teammates come online, the budget estimate settles
		gap     = 300 * time.Microsecond
	)
	cfg := testConfig()
	logs := &logRecorder{}
	cfg.Logger = slog.New(logs)
	var clk *burstClock
	var syncs atomic.Int64
	gate, gateDone := make(chan struct{}), make(chan struct{})
	prepare := func(c *Component) {
		clk = &burstClock{Manual: c.clk.(*clock.Manual)}
		c.clk = clk
		// Every tick hands the held-back inputs over, and so does Status.
		c.SetInputSync(func() { syncs.Add(1) })
		// After each report the component waits until the test lets it go on: the
		// test moves the clock and queues datagrams while it waits, so that it finds
		// the clock's time and the queue as the test set them.
		report := c.hook
		c.hook = func(e event) {
			report(e)
			if e == eventReady {
				return
			}
			select {
			case <-gate:
			case <-gateDone:
			}
		}
	}
	g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
	view := &countingGame{notifyingGame: notifyingGame{g}}
	h := startHarness(t, cfg, harnessStart, prepare, g, view)
	t.Cleanup(func() { close(gateDone) }) // before the harness stops Run
	h.c.mu.Lock()
	timed, origin := h.c.st.timed, h.c.st.origin
	h.c.mu.Unlock()
	if !timed {
		t.Fatal("the component ticks although its clock makes timers and its game view notifies")
	}

	waiting := false // the component waits at the gate
	// next lets the component go on and waits for its next report, kind.
	next := func(kind event) {
		t.Helper()
		if waiting {
			gate <- struct{}{}
		}
		h.expect(kind)
		waiting = true
	}
	// input sets an input; one that changes the rate row makes the component plan.
	input := func(set func(*Component)) {
		t.Helper()
		h.c.mu.Lock()
		before := h.c.rateKey(&h.c.in)
		h.c.mu.Unlock()
		set(h.c)
		h.c.mu.Lock()
		after := h.c.rateKey(&h.c.in)
		h.c.mu.Unlock()
		if after != before {
			next(eventPlan)
		}
	}
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	input(func(c *Component) {
		c.SetBehavior(&dmsgs.BehaviorInfo{TeamPlayState: dmsgs.BehaviorInfoStateBallHandling})
	})
	input(func(c *Component) {
		c.SetVision(&dmsgs.VisionInfo{SeeBall: true, BallField: geometry_msgs.Vector3{X: 60, Y: 80}})
	})
	// A budget that lasts the game at the budget-bound rate: 60000 messages for the
	// 1200 s left, a sixth of them ours, gives a packet every 4 ticks (133 ms).
	g.set(func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 60000}
	})
	next(eventPlan)

	// until runs every tick the timer is armed for up to at.
	until := func(at time.Time) {
		t.Helper()
		for {
			h.c.mu.Lock()
			w := h.c.st.origin.Add(time.Duration(h.c.st.wakeK) * cfg.Tick)
			h.c.mu.Unlock()
			if w.After(at) {
				return
			}
			h.clk.Set(w) // fires the timer while the component waits
			next(eventTick)
		}
	}
	var statuses int64 // the test's Status calls, which hand the inputs over too
	var sts []Status
	status := func() {
		statuses++
		sts = append(sts, h.c.Status())
	}
	snap := func() steadyWork {
		resets, arms := clk.counts()
		return steadyWork{
			arms:      arms,
			plans:     resets, // every plan of Run's goroutine arms the timer for its wake
			ticks:     int(syncs.Load() - statuses),
			snapshots: int(view.n.Load()), // one per plan and one per tick
			sent:      len(h.broadcasts()),
			published: h.rec.Len(),
			logged:    logs.len(),
		}
	}

	// The bursts come 10 ms after a tick of the grid: each ends well before the next.
	period, offset := time.Second/15, 10*time.Millisecond
	players := [mates]uint8{1, 3, 4, 5, 6} // and ours, 2
	var seq [mates]uint32
	want := map[[2]uint32]int{} // the packets of the measured seconds: how often published
	var work [2]steadyWork
	bursts := seconds * 15
	for b := range bursts {
		start := origin.Add(time.Duration(b)*period + offset)
		until(start.Add(mates * gap))
		if b == warm*15 {
			work[0] = snap()
		}
		if b >= warm*15 && b%15 == 0 {
			status()
		}
		for m := range mates {
			seq[m]++
			when := start.Add(time.Duration(m) * gap)
			if b >= warm*15 {
				want[[2]uint32{uint32(players[m]), seq[m]}] = 0
			}
			if !together {
				h.clk.Set(when)
			}
			p := dnetFrom(t, 17, players[m], seq[m], stampAt(when), nil)
			if !h.conn.Deliver(transport.Datagram{Payload: p, Src: netip.MustParseAddrPort("10.0.0.9:10017"), Time: when}) {
				t.Fatal("fake socket queue full")
			}
			if !together {
				next(eventDatagram)
			}
		}
		if together {
			// All queued while the component waits, each taken a few hundred
			// microseconds after the one before; the last finds the queue empty.
			for m := range mates {
				h.clk.Set(start.Add(time.Duration(m) * gap))
				next(eventDatagram)
			}
		}
	}
	until(origin.Add(seconds*time.Second + offset))
	status()
	work[1] = snap()

	secs := float64(seconds - warm)
	d := func(f func(w *steadyWork) int) int { return f(&work[1]) - f(&work[0]) }
	arms := float64(d(func(w *steadyWork) int { return w.arms })) / secs
	plans := float64(d(func(w *steadyWork) int { return w.plans })) / secs
	ticks := float64(d(func(w *steadyWork) int { return w.ticks })) / secs
	t.Logf("per second over %v s: %.2f timer arms, %.2f plans, %.2f ticks; interval %v, tier %v",
		secs, arms, plans, ticks, sts[0].Interval, sts[0].Tier)

	// The bounds are what the component does now, a little above. Ticks: one per send
	// interval (4 ticks, 7.5 a second; 7.47 in the 15 s measured). Arms: one per tick
	// (the timer fired; the next due tick is another instant); the plans after a burst
	// keep the instant the timer is armed for. Plans: one per tick and one per read
	// that brought teammate packets, 15 or 75 a second.
	const maxTicks, maxArms = 7.6, 7.6
	maxPlans := 15 + maxTicks
	if !together {
		maxPlans = 75 + maxTicks
	}
	if ticks > maxTicks || arms > maxArms || plans > maxPlans {
		t.Errorf("per second: %.2f ticks, %.2f timer arms, %.2f plans; want at most %v, %v and %v",
			ticks, arms, plans, maxTicks, maxArms, maxPlans)
	}
	if ticks < 7 {
		t.Errorf("%.2f ticks a second, want a packet every 133 ms", ticks)
	}
	if n, want := d(func(w *steadyWork) int { return w.snapshots }), d(func(w *steadyWork) int { return w.plans + w.ticks }); n != want {
		t.Errorf("%d GameController snapshots taken, want one per plan and tick (%d): a plan that arms no timer?", n, want)
	}
	if n := d(func(w *steadyWork) int { return w.sent }); n != d(func(w *steadyWork) int { return w.ticks }) {
		t.Errorf("%d packets sent in %d ticks run, want every tick run to send", n, d(func(w *steadyWork) int { return w.ticks }))
	}
	if on := logs.count("teammate online"); on != mates {
		t.Errorf("logged \"teammate online\" %d times, want %d", on, mates)
	}
	if all := logs.all(); work[1].logged != work[0].logged {
		t.Errorf("logged %d lines in the steady state: %q", work[1].logged-work[0].logged, all[work[0].logged:])
	}
	for i, st := range sts {
		// The allowance runs down a little as the team's packets are counted: its
		// cause stays, and the interval it bounds.
		if st.Tier != sts[0].Tier || st.Interval != sts[0].Interval || st.Budget.Cause != sts[0].Budget.Cause {
			t.Errorf("second %d: tier %v, interval %v, budget %v; at first %v, %v, %v",
				warm+i, st.Tier, st.Interval, st.Budget.Reason(), sts[0].Tier, sts[0].Interval, sts[0].Budget.Reason())
		}
		if len(st.Teammates) != mates {
			t.Errorf("second %d: teammates %+v, want %d", warm+i, st.Teammates, mates)
		}
	}
	for i, b := range h.broadcasts()[work[0].sent:] {
		var s teaminfo.State
		if _, err := teaminfo.DecodeDNet(b, &s, nil); err != nil {
			t.Fatal(err)
		}
		if s.MatesOnline != [teaminfo.MaxMates]bool{true, true, true, true, true, true} {
			t.Errorf("packet %d of the steady state: mates_online %v, want all six", i, s.MatesOnline)
		}
	}

	extra := 0
	for _, m := range h.rec.Messages()[work[0].published:] {
		k := [2]uint32{uint32(m.PlayerNumber), m.Sequence}
		if _, ok := want[k]; ok {
			want[k]++
		} else {
			extra++
		}
	}
	for k, n := range want {
		if n != 1 {
			t.Errorf("player %d's packet %d published %d times, want once", k[0], k[1], n)
		}
	}
	if extra > 0 {
		t.Errorf("%d messages published for no packet of the steady state", extra)
	}
	h.checkInvariants()
}

func (l *logRecorder) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.msgs)
}

func (l *logRecorder) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.msgs...)
}
