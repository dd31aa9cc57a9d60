package gamecontroller

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/idletick"
)

// Idle ticks. While no GameController is connected, a return tick has nobody to
// answer, and while nobody is subscribed to GCInfo either, a GCInfo tick only counts a
// publication nobody receives. Run then stops those tickers (idletick), so a robot
// without a GameController and without a behaviour node listening is not woken for
// them, and starts them again (on the wall clock on the same grid; a ticker on
// simulation time ticks a period after it starts) when a packet is accepted or GCInfo's
// audience changes (bus.AudienceChanges; a publisher that cannot signal a change keeps
// its ticker running). GCInfoPublished counts the ticks missed meanwhile as
// publications for nobody, as the ticks would have: the counters stay those of tickers
// that never stopped.

// ticks are Run's tickers and GCInfo's audience signal; owned by the Run goroutine.
type ticks struct {
	pub, ret *idletick.Ticker
	audience <-chan struct{} // nil: the GCInfo publisher cannot signal its audience
}

// onPublishTick publishes GCInfo for the tick received at t, then stops the ticker
// if nobody can receive GCInfo and no GameController is connected (publishTick has
// just noted whether one is: wasConnected).
func (c *Component) onPublishTick(t time.Time) {
	c.publishTick(t)
	if c.tk.audience == nil || c.wasConnected || bus.Listened(c.infoPub) {
		return
	}
	since := c.tk.pub.Idle(t)
	c.mu.Lock()
	c.s.infoIdle, c.s.infoIdleSince = true, since
	c.mu.Unlock()
}

// tickEarly does the GCInfo and return ticks at now when they are due within half a
// period, before their instants or, while their timers wait for a packet, after them
// (idletick.Ticker.Early): handle calls it for every packet accepted, so that with a
// GameController sending at the ticks' rate (2 Hz) the ticks ride on its packets'
// wake-ups and their timers wake nobody.
// Outside Run there are no tickers.
func (c *Component) tickEarly(now time.Time) {
	if c.tk.pub == nil {
		return
	}
	if c.tk.pub.Early(now) {
		c.onPublishTick(now)
	}
	if c.tk.ret.Early(now) {
		c.onReturnTick(now)
	}
}

// onReturnTick sends the return packet of the tick received at t, or stops the
// ticker while no GameController is connected.
func (c *Component) onReturnTick(t time.Time) {
	if !c.returnTick(t) {
		c.tk.ret.Idle(t)
	}
}

// onAudience starts the GCInfo ticker again once somebody subscribes.
func (c *Component) onAudience() {
	if bus.Listened(c.infoPub) {
		c.wakePublish(c.clk.Now())
	}
}

// wakeTicks starts both tickers again after a packet was accepted at now. handle
// calls it; outside Run (benchmarks call handle alone) there are no tickers.
func (c *Component) wakeTicks(now time.Time) {
	if c.tk.pub == nil {
		return
	}
	c.wakePublish(now)
	c.tk.ret.Wake(now)
}

// wakePublish starts a stopped GCInfo ticker and counts the ticks it missed.
func (c *Component) wakePublish(now time.Time) {
	if c.tk.pub.Running() {
		return
	}
	missed := c.tk.pub.Wake(now)
	c.mu.Lock()
	c.s.infoPublished += missed
	c.s.infoIdle = false
	c.mu.Unlock()
}

// infoPublishedLocked is GCInfoPublished at now: the publications counted, plus the
// ticks missed so far while the ticker is stopped. The caller holds c.mu.
func (c *Component) infoPublishedLocked(now time.Time) uint64 {
	n := c.s.infoPublished
	if c.s.infoIdle {
		n += idletick.Missed(c.s.infoIdleSince, now, c.pubPeriod)
	}
	return n
}
