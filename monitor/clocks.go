package monitor

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock/offset"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// The monitor is passive, so it cannot measure a robot's clock against its own. It can
// compare two robots of a team from what their packets carry: when robot b answers a
// packet of robot a (dnet version 2), the echo says when b received it on b's clock, so
// clock_b - clock_a <= (b's stamp - hold + 1 ms) - a's stamp; b's packets answered by a
// bound it from the other side. Each pair of teammates gets an offset.Estimator, kept
// by the lower-numbered robot, aged on the monitor's clock.

// EchoView is the clock echo a robot's last team packet carried: the teammate whose
// packet it answered and how long the robot held that packet.
type EchoView struct {
	Player uint8   `json:"player"`
	HoldMs float64 `json:"hold_ms"`
}

// ClockView is a robot's clock measured against the clock of its team's reference robot
// (the lowest player number the monitor knows in that team), from the echoes the two
// exchanged: Offset is this robot's clock minus the reference's, the true offset lies
// within Offset ± Bound.
type ClockView struct {
	Ref      uint8   `json:"ref"`
	OffsetMs float64 `json:"offset_ms"`
	BoundMs  float64 `json:"bound_ms"`
}

// observeEcho records the echo of s, the packet robot r just sent, received at now.
// m.mu is held.
func (m *Monitor) observeEcho(r *robot, s *teaminfo.State, now time.Time) {
	e := s.Echo
	if e.Player == 0 || e.Player == s.Player {
		return
	}
	q := m.robots[robotKey{s.Team, e.Player}]
	if q == nil || !q.hasInfo {
		return // the answered packet's sender was never heard: its full stamp is unknown
	}
	t1 := unwrapMs(q.info.Stamp, e.StampMs)
	// clock_r - clock_q <= v
	v := e.OffsetBound(s.Stamp, t1)
	if r.key.player < q.key.player {
		r.pair(q.key.player).Lower(-v, now) // kept by r: clock_q - clock_r >= -v
	} else {
		q.pair(r.key.player).Upper(v, now) // kept by q: clock_r - clock_q <= v
	}
}

// pair returns the estimator of clock_other - clock_r.
func (r *robot) pair(other uint8) *offset.Estimator {
	if r.clocks == nil {
		r.clocks = map[uint8]*offset.Estimator{}
	}
	e := r.clocks[other]
	if e == nil {
		e = &offset.Estimator{}
		r.clocks[other] = e
	}
	return e
}

// unwrapMs returns the stamp whose low 32 bits of milliseconds are low, nearest to
// latest (the latest stamp heard from its sender).
func unwrapMs(latest time.Duration, low uint32) time.Duration {
	l := int64(latest / time.Millisecond)
	back := int64(int32(uint32(l) - low)) // how far low lies before latest, wrapped
	return time.Duration(l-back) * time.Millisecond
}

// echoView returns what r's last packet echoed, or nil.
func echoView(r *robot) *EchoView {
	if !r.hasInfo || r.info.Echo.Player == 0 {
		return nil
	}
	return &EchoView{Player: r.info.Echo.Player, HoldMs: float64(r.info.Echo.Hold / time.Millisecond)}
}

// clockView returns r's clock against its team's reference robot at now, or nil when r
// is the reference or the two have not bounded each other from both sides. m.mu is held.
func (m *Monitor) clockView(r *robot, now time.Time) *ClockView {
	ref := r.key.player
	for k := range m.robots {
		if k.team == r.key.team && k.player < ref {
			ref = k.player
		}
	}
	if ref == r.key.player {
		return nil
	}
	e := m.robots[robotKey{r.key.team, ref}].clocks[r.key.player]
	if e == nil {
		return nil
	}
	est := e.Estimate(now)
	if !est.Known {
		return nil
	}
	// Tenths of a millisecond; the bound rounded up, so that the interval shown still
	// holds the true offset.
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return &ClockView{Ref: ref, OffsetMs: round(ms(est.Offset), 1), BoundMs: math.Ceil(ms(est.Bound)*10-1e-9) / 10}
}
