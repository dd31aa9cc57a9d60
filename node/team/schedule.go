package team

import (
	"context"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Timed sending. With a clock.TimerClock and a GameNotifier (or no GameView) the
// component does not wake on every tick: ticks stay on the same grid (the k-th tick is
// k*Config.Tick after Run started), but a timer is armed only for the next tick on
// which something is due: our packet (Scheduler), the monitor copy, a teammate going
// offline (which changes the Alone rule and the budget's robot count), or the first tick
// after a GameController change (which takes the new view, as every tick does). Everything else
// that can change the decision wakes the component and re-plans: an input that changes
// the rate row (SetBehavior, SetVision), a new GameController view (Changed), an
// accepted teammate packet.
//
// Between two wakes the decision of every tick is the one planned at the first wake
// (a silent decision or not-due), so the ticks in between are counted in bulk when the
// component next wakes, and Status adds the ticks elapsed since then: SendCounters
// keep counting every tick of the grid, and Ticks still equals Decisions(). A clock that
// jumps forward (simulation time) counts every tick it jumped over; one that goes back,
// or had no time yet when Run started, starts the grid again, and one that goes back
// before the last packet sends the next one on the next tick (Scheduler.Due).

// noWake is how far ahead the timer is armed when nothing is due: a wake that only
// counts ticks.
const noWake = time.Hour

// maxUnplanned bounds the datagrams handled after one that asks for a plan before it is
// made (runTimed): a burst of a full team's packets is planned for once.
const maxUnplanned = 16

// runTimed is Run with a timer; changed is the GameNotifier's channel (nil: none).
//
// One goroutine owns the component's state at a time, and the state changes hands
// only as Run starts and ends. With a socket that can hand its datagrams over
// (bus.HandlerConn) the owner is the socket's goroutine (runOnSocket); otherwise, or
// once that socket's worker has stopped before ctx, it is Run's (runLoop).
func (c *Component) runTimed(ctx context.Context, tc clock.TimerClock, changed <-chan struct{}) error {
	now := c.clk.Now()
	c.startHold(now)
	c.mu.Lock()
	c.st.timed, c.st.origin, c.st.done = true, now, 0
	c.mu.Unlock()
	c.dg = c.conn.Datagrams()
	if hc, ok := c.conn.(bus.HandlerConn); ok {
		if !c.runOnSocket(ctx, tc, hc, changed) {
			return nil
		}
		// The socket's worker stopped while ctx lives: Run's goroutine takes over.
		return c.runLoop(ctx, tc, changed, false)
	}
	return c.runLoop(ctx, tc, changed, true)
}

// runOnSocket makes the socket's goroutine the owner until ctx ends (false) or the
// socket's worker stops (true); the state is Run's goroutine's again when it returns.
//
// The socket's goroutine takes each read's datagrams and every wake-up in serveSocket.
// When the next planned tick comes, the clock's timer wakes it (Wake: the socket's read
// deadline moves to now) from the timer's goroutine: on the wall and ROS clocks a
// timerfd in Go's netpoller (clock.FuncTimerClock), under simulation time the /clock
// subscription's. A socket read deadline at the tick itself would be a Go timer, which
// wakes the runtime's monitor thread and, rounded to whole milliseconds in epoll_wait,
// often the process twice (package clock). A poke wakes it from the setter's
// goroutine, a GameController change from the GameController's (GameFuncNotifier; from
// Run's, which does nothing else, for a plain GameNotifier). A burst of teammate
// packets, a tick, an input change, a GameController change: each wakes one thread.
func (c *Component) runOnSocket(ctx context.Context, tc clock.TimerClock, hc bus.HandlerConn, changed <-chan struct{}) bool {
	var fired <-chan time.Time
	if fc, ok := tc.(clock.FuncTimerClock); ok {
		c.wakeTm = fc.NewTimerFunc(func(time.Time) { hc.Wake() })
	} else {
		c.wakeTm = tc.NewTimer() // a test's manual clock: Run's goroutine forwards it
		fired = c.wakeTm.C()
	}
	defer c.wakeTm.Stop()
	c.plan(c.clk.Now())
	c.hc = hc
	c.onSocket.Store(true) // pokes go to the socket's goroutine from here
	if gn, ok := c.game.(GameFuncNotifier); ok {
		// A change wakes the socket's goroutine from the GameController's; the
		// channel's values, pending from the same changes, are dropped below.
		gn.OnChange(func() {
			c.gameChanges.Store(true)
			hc.Wake()
		})
		defer gn.OnChange(nil)
		changed = nil
	}
	hc.SetHandler(c.serveSocket)
	c.logRunning()
	if c.hook != nil {
		c.hook(eventReady)
	}
	leave := func() {
		c.onSocket.Store(false)
		hc.SetHandler(nil) // waits for a call in progress: the state is ours again
		c.wakeAt = time.Time{}
	}
	for {
		select {
		case <-ctx.Done():
			leave()
			c.flush()
			return false
		case <-hc.Done():
			leave()
			if ctx.Err() != nil {
				// A normal stop: the socket's worker ends with ctx.
				c.flush()
				return false
			}
			return true
		case <-changed:
			c.gameChanges.Store(true)
			hc.Wake()
		case <-fired:
			hc.Wake()
		}
	}
}

// serveSocket is the team socket's transport.Handler while runOnSocket runs: on the
// socket's goroutine it takes the datagrams queued before it was set, a poke or a
// GameController change, the datagrams of one read (ds) and the tick that is due, in
// that order, and arms the clock's timer for the next planned tick.
func (c *Component) serveSocket(ds []transport.Datagram) {
	for len(c.dg) > 0 {
		d, ok := <-c.dg
		if !ok {
			break
		}
		c.take(d, len(c.dg)+len(ds))
		if c.hook != nil {
			c.hook(eventDatagram)
		}
	}
	game := c.gameChanges.Swap(false)
	if c.poked.Swap(false) || game {
		c.wake(game)
		if c.hook != nil {
			c.hook(eventPlan)
		}
	}
	for i, d := range ds {
		c.take(d, len(ds)-1-i)
		if c.hook != nil {
			c.hook(eventDatagram)
		}
	}
	// The planned tick has come, or the clock went back past the grid's start (a
	// simulation reset, whose timers all fire): a wake-up at any other time (a firing
	// that raced with a re-arming, say) finds nothing due.
	now := c.clk.Now()
	if now.Before(c.seen) {
		c.wakeAt = time.Time{} // the clock went back: its timer fired, to be armed again
	}
	c.seen = now
	if !now.Before(c.armedAt) || now.Before(c.st.origin) {
		c.wakeAt = time.Time{}
		c.fired(now)
		if c.hook != nil {
			c.hook(eventTick)
		}
	}
	if !c.wakeAt.Equal(c.armedAt) {
		c.wakeAt = c.armedAt
		c.wakeTm.Reset(c.armedAt)
	}
}

// runLoop makes Run's goroutine the owner: it takes the timer's firings, pokes,
// GameController changes and the queued datagrams until ctx ends. first: Run has just
// started (not taken over from runOnSocket).
func (c *Component) runLoop(ctx context.Context, tc clock.TimerClock, changed <-chan struct{}, first bool) error {
	tm := tc.NewTimer()
	defer tm.Stop()
	c.tm = tm
	if first {
		c.plan(c.clk.Now())
		c.logRunning()
		if c.hook != nil {
			c.hook(eventReady)
		}
	} else {
		// A poke or change the socket's goroutine did not take comes from here on.
		c.wake(c.gameChanges.Swap(false))
	}
	dg := c.dg
	// The end of ctx comes as a poke (one channel fewer for every select to lock and
	// queue on); the poke's case tells the two apart.
	defer context.AfterFunc(ctx, c.pokeNow)()
	for {
		select {
		case now := <-tm.C():
			c.fired(now)
			if c.hook != nil {
				c.hook(eventTick)
			}
		case <-c.poke:
			if ctx.Err() != nil {
				c.flush()
				return nil
			}
			c.wake(false)
			if c.hook != nil {
				c.hook(eventPlan)
			}
		case <-changed:
			c.wake(true)
			if c.hook != nil {
				c.hook(eventPlan)
			}
		case d, ok := <-dg:
			if !ok {
				c.flush()
				if ctx.Err() != nil {
					// A normal stop: the socket's worker ends with ctx and closes its queue,
					// which may come before the poke (AfterFunc runs on its own goroutine).
					return nil
				}
				dg = nil
				c.log.Warn("team socket closed")
				if c.rp.pending {
					c.plan(c.clk.Now())
					c.rp.pending = false
				}
				continue
			}
			c.take(d, len(dg))
			if c.hook != nil {
				c.hook(eventDatagram)
			}
		}
	}
}

// replanState is a timed Run's pending plan: a datagram handled since the last plan
// asks for one. The datagrams of one burst (queued or read together) are handled back
// to back and planned for once, after the last; a stream that never lets the queue or
// the socket empty is planned for at least every maxUnplanned datagrams and every tick,
// so a plan is never put off longer.
type replanState struct {
	pending bool
	n       int       // datagrams handled since the request
	since   time.Time // when the request came
}

// take handles one datagram of a timed Run; queued is how many more wait right behind
// it (0: it is the last of its burst).
func (c *Component) take(d transport.Datagram, queued int) {
	now := c.clk.Now()
	ticked := c.advance(now, false)
	if (c.receive(d, now) || ticked) && !c.rp.pending {
		c.rp = replanState{pending: true, since: now}
	}
	c.flushIfIdle(queued)
	if c.rp.pending {
		c.rp.n++
		if queued == 0 || c.rp.n >= maxUnplanned || now.Sub(c.rp.since) >= c.cfg.Tick {
			c.plan(now)
			c.rp.pending = false
		}
	}
}

// fired takes the planned tick at now: the due tick, then the next plan.
func (c *Component) fired(now time.Time) {
	c.advance(now, true)
	c.plan(now)
	c.rp.pending = false
}

// wake re-plans at the clock's time after an input or (game) a GameController change.
func (c *Component) wake(game bool) {
	now := c.clk.Now()
	if game {
		// Every accepted GameController packet wakes: its budget figure is taken at the
		// next tick even when it is the last one again. Noted before the ticks that were
		// due run, which may take it already.
		c.budget.Packet()
	}
	c.advance(now, false)
	if game {
		// The tick after a change takes the new view (the budget figure, the snapshot
		// the receive side counts by), as a ticking Run's next tick would.
		c.gameChanged = true
	}
	c.plan(now)
	c.rp.pending = false
}

// tickIndex returns the number of the last grid tick at or before now.
func (c *Component) tickIndex(origin, now time.Time) int64 {
	return int64(now.Sub(origin) / c.cfg.Tick)
}

// tickAtOrAfter returns the number of the first grid tick at or after t.
func (c *Component) tickAtOrAfter(origin, t time.Time) int64 {
	d := t.Sub(origin)
	k := int64(d / c.cfg.Tick)
	if d > 0 && d%c.cfg.Tick != 0 {
		k++
	}
	return k
}

// advance brings the tick count to now: the ticks since the last wake are counted with
// the planned decision; if the timer fired (or its tick has passed while another event
// was handled first), the last of them is a real tick. It reports whether one ran.
func (c *Component) advance(now time.Time, fired bool) bool {
	c.mu.Lock()
	st := &c.st
	if now.Before(st.origin) || st.origin.IsZero() && !now.IsZero() {
		// The clock went back (a simulation reset), or it had no time yet when Run
		// started (simulation time before the first /clock): the grid starts from now.
		st.origin, st.done = now, 0
	}
	k := c.tickIndex(st.origin, now)
	run := (fired || st.wakeK <= k) && k > st.done
	skip := k - st.done
	if run {
		skip--
	}
	if skip > 0 {
		st.countPlanned(uint64(skip))
		st.lastTick = st.origin.Add(time.Duration(st.done+skip) * c.cfg.Tick)
	}
	if k > st.done {
		st.done = k
	}
	c.mu.Unlock()
	if run {
		c.gameChanged = false
		c.tick(now)
		return true
	}
	if skip > 0 {
		// Those ticks took the GameController's view, as the real ones do: the one
		// planned with, since every change of it wakes the component.
		c.gameChanged = false
		snap := c.planSnap
		c.snap = snap
		c.updateBudget(&snap)
		remaining, known := c.budget.Remaining()
		c.mu.Lock()
		c.st.budget, c.st.known = remaining, known
		c.mu.Unlock()
	}
	return false
}

// countPlanned counts n ticks with the planned decision; the caller holds c.mu.
func (s *shared) countPlanned(n uint64) {
	s.send.Ticks += n
	switch s.planned {
	case DecisionSilentStart:
		s.send.SilentStart += n
	case DecisionSilentPenalised:
		s.send.SilentPenalised += n
	case DecisionSilentStopped:
		s.send.SilentStopped += n
	case DecisionSilentBudget:
		s.send.SilentBudget += n
	default:
		s.send.NotDue += n
	}
	s.decision = s.planned
}

// plan works out the decision of the coming ticks and the next tick on which anything
// is due (armedAt), and arms Run's timer for it when Run's goroutine owns the state
// (serveSocket arms its timer once it is done).
//
// It does not hand the held-back inputs over (inputSync, as a tick does): of the
// inputs, a plan reads only the rate key, and an input whose key differs from the last
// one handed over is not held back (its reader's wake rule wakes the reader, whose
// handler pokes the component, which plans again). Every tick hands them over before
// it decides. So the inputs are decoded in the batches the ticks take, not once more
// for each burst of teammate packets.
func (c *Component) plan(now time.Time) {
	snap := c.game.Snapshot()
	c.planSnap = snap
	b, gc := c.budget, c.gcBudget
	applyBudget(&b, &gc, &snap)
	c.noteStart(now, &snap)
	r := c.read(now, &snap, b)
	c.noteOnline(&r)

	c.mu.Lock()
	st := &c.st
	origin, done := st.origin, st.done
	wake := done + int64(noWake/c.cfg.Tick)
	st.planned = DecisionNotDue
	if r.silent != DecisionNone {
		st.planned = r.silent
		if r.silent == DecisionSilentStart {
			// The wait ends on a tick of its own; a GameController heard before it
			// wakes the component as every change does.
			hold := done + 1
			if !c.holdUntil.IsZero() {
				hold = max(c.tickAtOrAfter(origin, c.holdUntil), done+1)
			}
			wake = min(wake, hold)
		}
	} else {
		wake = min(wake, c.dueTick(&c.sched, r.interval, origin, now, done))
	}
	if c.cfg.Monitor.IsValid() {
		wake = min(wake, c.dueTick(&c.monSched, c.cfg.MonitorInterval, origin, now, done))
	}
	if c.gameChanged {
		wake = done + 1
	}
	for _, p := range r.mates {
		if r.on[p] {
			wake = min(wake, max(c.tickAtOrAfter(origin, st.heard[p].Add(c.cfg.TeammateTimeout)), done+1))
		}
	}
	st.wakeK = wake
	st.interval, st.tier, st.verdict = r.interval, r.tier, r.verdict
	c.mu.Unlock()
	c.armedAt = origin.Add(time.Duration(wake) * c.cfg.Tick)
	if c.tm != nil {
		c.tm.Reset(c.armedAt)
	}
}

// dueTick returns the first tick after done on which s says a packet with the interval
// is due, planned at now (a clock gone back before the last send: the next tick, as
// Scheduler.Due has it).
func (c *Component) dueTick(s *Scheduler, interval time.Duration, origin, now time.Time, done int64) int64 {
	if !s.sent || now.Before(s.last) {
		return done + 1
	}
	return max(c.tickAtOrAfter(origin, s.last.Add(s.Effective(interval)-s.Tick/2)), done+1)
}

// pokeIfRate wakes a timed Run when the rate row's inputs in differ from those whose
// rateKey was was.
func (c *Component) pokeIfRate(was [2]uint8, in *inputs) {
	if c.rateKey(in) == was {
		return
	}
	c.pokeNow()
}

// pokeNow makes a timed Run wake (a poke already pending is enough): the socket's
// goroutine while it owns the state, else Run's.
func (c *Component) pokeNow() {
	if c.onSocket.Load() {
		c.poked.Store(true)
		c.hc.Wake()
		return
	}
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// rateKey is what the rate rule reads of the inputs (RateConfig.Key).
func (c *Component) rateKey(in *inputs) [2]uint8 {
	return c.cfg.Rate.Key(in.rateInput())
}

// rateInput is what the rate rule reads of the inputs (MatesOnline left 0).
func (in *inputs) rateInput() RateInput {
	return BallRateInput(in.playState, in.seeBall, in.ballField.X, in.ballField.Y)
}

// pendingTicks returns the ticks up to now that a timed Run has not counted yet (never
// the planned wake's own tick, which counts when it runs) and the last of them; the
// caller holds c.mu.
func (c *Component) pendingTicks(now time.Time) (uint64, time.Time) {
	st := &c.st
	if !st.timed || now.Before(st.origin) {
		return 0, time.Time{}
	}
	k := min(c.tickIndex(st.origin, now), st.wakeK-1)
	if k <= st.done {
		return 0, time.Time{}
	}
	return uint64(k - st.done), st.origin.Add(time.Duration(k) * c.cfg.Tick)
}
