package team

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock/offset"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// clocks estimates every teammate's clock offset from the team packets (package
// clock/offset) and chooses which teammate packet our next dnet packet answers.
//
// Every accepted packet bounds the sender's offset from below (its stamp minus our
// receive time). A dnet version 2 packet that echoes one of our packets bounds it from
// above: the echoed stamp is ours (T1), the sender's stamp minus the hold is when it
// received it (T2, whole milliseconds), so offset <= T2 + 1 ms - T1. Our packets answer
// the teammates' latest packets in turn: each teammate whose latest packet has not
// been answered yet, the one answered longest ago first.
type clocks struct {
	mates [256]mateClock
}

type mateClock struct {
	est      offset.Estimator
	stamp    time.Duration // its latest packet's stamp, its clock
	recv     time.Time     // our clock when that packet arrived
	pending  bool          // that packet has not been answered yet
	answered time.Time     // when we last answered this teammate
	delay    time.Duration // one-way delay of its latest packet, when the offset is known
}

// ms truncates a duration to whole milliseconds, as packet stamps are.
func ms(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }

// heard records an accepted packet of player stamped stamp (its clock) that arrived at
// now (ours) with its echo e; answerable says our format can echo it (dnet). The packet
// bounds player's offset from below, and from above if e answers one of our recent
// packets (our player number, a stamp among recent, ours); the estimator counts what it
// rejects.
func (k *clocks) heard(player, us uint8, stamp time.Duration, e teaminfo.Echo, now time.Time, answerable bool, recent []time.Duration) {
	m := &k.mates[player]
	s := offset.Sample{Lower: stamp - time.Duration(now.UnixNano()), HasLower: true}
	if e.Player == us && e.Player != 0 {
		for _, t1 := range recent {
			if uint32(t1/time.Millisecond) == e.StampMs {
				s.Upper, s.HasUpper = e.OffsetBound(stamp, ms(t1)), true
				break
			}
		}
	}
	m.est.Observe(s, now)
	if answerable {
		m.stamp, m.recv, m.pending = stamp, now, true
	}
}

// estimate returns player's offset estimate at now and stores the one-way delay of a
// packet stamped stamp that arrived at now.
func (k *clocks) estimate(player uint8, stamp time.Duration, now time.Time) offset.Estimate {
	m := &k.mates[player]
	e := m.est.Estimate(now)
	m.delay = 0
	if e.Known {
		m.delay = time.Duration(now.UnixNano()) - (stamp - e.Offset)
	}
	return e
}

// pick chooses the teammate packet our packet stamped at now answers: the latest packet
// of a teammate heard within timeout that has not been answered yet, the teammate
// answered longest ago first. It returns no echo when there is none.
func (k *clocks) pick(now time.Time, timeout time.Duration) teaminfo.Echo {
	best := -1
	for p := range k.mates {
		m := &k.mates[p]
		if !m.pending {
			continue
		}
		if now.Sub(m.recv) >= timeout || now.Before(m.recv) {
			m.pending = false
			continue
		}
		if best < 0 || m.answered.Before(k.mates[best].answered) {
			best = p
		}
	}
	if best < 0 {
		return teaminfo.Echo{}
	}
	m := &k.mates[best]
	m.pending, m.answered = false, now
	hold := ms(time.Duration(now.UnixNano())) - ms(time.Duration(m.recv.UnixNano()))
	if hold > teaminfo.MaxEchoHoldMs*time.Millisecond {
		return teaminfo.Echo{}
	}
	return teaminfo.Echo{Player: uint8(best), StampMs: uint32(m.stamp / time.Millisecond), Hold: hold}
}

// MateClock is what Status reports about a teammate's clock.
type MateClock struct {
	// Estimate is the teammate's clock minus ours (offset.Estimate.Known says whether
	// both sides are bounded yet).
	offset.Estimate
	// Delay is the one-way delay of its latest packet (valid when Known; the error is at
	// most Bound).
	Delay time.Duration
}

// clockSnap is a copy of a teammate's estimator for Status, which ages it to its time.
type clockSnap struct {
	est   offset.Estimator
	delay time.Duration
}

func (k *clocks) snap(player uint8) clockSnap {
	m := &k.mates[player]
	return clockSnap{est: m.est, delay: m.delay}
}

func (s *clockSnap) at(now time.Time) MateClock {
	return MateClock{Estimate: s.est.Estimate(now), Delay: s.delay}
}
