package team

import (
	"errors"
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock/offset"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/linkq"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Offsets of the team number, read before the packet is decoded (cheap checks first).
const (
	zjuTeamOffset  = 17
	dnetTeamOffset = 5
	dnetVerOffset  = 3
)

// verdict is the fate of one received datagram.
type verdict uint8

const (
	accepted verdict = iota
	dropWrongSize
	dropWrongFormat
	dropMalformed
	dropChecksum
	dropRange
	dropUnchecked
	dropForeign
	dropOwn
	dropConflict
	dropAuth
	dropDuplicate
	dropReplay
	dropStale
	dropUnconfirmed
	dropLate
)

// receive handles one datagram at now: validate, filter, publish, count. It reports
// whether the packet was accepted. The caller's now is the one it plans with, so a
// teammate heard is never heard after it.
func (c *Component) receive(d transport.Datagram, now time.Time) bool {
	v, auth := c.decode(d.Payload, now)
	fv := teaminfo.VerdictNew
	if v == accepted && c.cfg.Format == FormatDNet {
		// Drops by the replay filter come after every other check, so that foreign,
		// own and forged packets never touch a sender's history.
		fv = c.replay.Check(c.rx.Team, c.rx.Player, c.rx.Seq, c.rx.Stamp, now)
		switch fv {
		case teaminfo.VerdictDuplicate:
			v = dropDuplicate
		case teaminfo.VerdictReplay:
			v = dropReplay
		case teaminfo.VerdictUnconfirmed:
			v = dropUnconfirmed
		case teaminfo.VerdictLate:
			v = dropLate // reordered: not published as the teammate's latest state
		}
	}
	switch v {
	case dropWrongSize, dropWrongFormat, dropMalformed, dropChecksum, dropRange, dropUnchecked, dropAuth:
		c.conn.ReportMalformed()
	}
	c.warnDrop(v, d, now)

	// A late packet is the teammate's as much as an accepted one: it bounds its clock,
	// shows its link and counts against the budget; only its state is not published.
	var pubErr error
	var snap clockSnap
	var est offset.Estimate
	mate := v == accepted || v == dropLate
	if mate {
		est = c.noteClock(now)
		snap = c.clocks.snap(c.rx.Player)
		if v == accepted {
			c.fillMsg(now, auth, est)
			pubErr = c.publish()
			if pubErr != nil && c.warnAllowed(causePublish, now) {
				c.log.Warn("cannot publish TeamInfo", "err", pubErr)
			}
			c.tellMate(d.Src)
		}
		if c.policy.League.Counted(c.snap.State, c.snap.GamePhase) {
			c.budget.Spend(1)
		}
	}

	remaining, known := c.budget.Remaining()
	c.mu.Lock()
	r := &c.st.recv
	r.Received++
	if mate || v == dropDuplicate {
		c.observeLink(fv, now)
	}
	if mate {
		if p := c.rx.Player; !c.st.listed[p] {
			c.st.listed[p] = true
			c.st.mates[c.st.nMates] = p
			c.st.nMates++
		}
		c.st.heard[c.rx.Player] = now
		c.st.clock[c.rx.Player] = snap
		c.st.budget, c.st.known = remaining, known
	}
	switch v {
	case accepted:
		r.Accepted++
		if pubErr != nil {
			r.PublishErrors++
		}
	case dropWrongSize:
		r.WrongSize++
	case dropWrongFormat:
		r.WrongFormat++
	case dropMalformed:
		r.Malformed++
	case dropChecksum:
		r.Checksum++
	case dropRange:
		r.Range++
	case dropUnchecked:
		r.Unchecked++
	case dropForeign:
		r.ForeignTeam++
	case dropOwn:
		r.Own++
	case dropConflict:
		r.Conflict++
	case dropAuth:
		r.Auth++
	case dropDuplicate:
		r.Duplicate++
	case dropReplay:
		r.Replay++
	case dropStale:
		r.Stale++
	case dropUnconfirmed:
		r.Unconfirmed++
	case dropLate:
		r.Late++
	}
	c.mu.Unlock()
	return v == accepted
}

// publish publishes c.msg, held when the publisher can hold it (flushIfIdle sends it).
func (c *Component) publish() error {
	if c.held == nil {
		return c.pub.Publish(&c.msg)
	}
	c.nHeld++
	return c.held.PublishHeld(&c.msg)
}

// flushIfIdle sends the held TeamInfo messages once no datagram waits in the queue
// (queued: how many do), or maxUnplanned of them are held: the messages of a burst
// travel together, and none waits while the component does.
func (c *Component) flushIfIdle(queued int) {
	if c.nHeld > 0 && (queued == 0 || c.nHeld >= maxUnplanned) {
		c.flush()
	}
}

// flush sends the held TeamInfo messages.
func (c *Component) flush() {
	if c.nHeld > 0 {
		c.held.Flush()
		c.nHeld = 0
	}
}

// observeLink feeds the packet in c.rx, received at now with the replay filter's
// verdict fv, to its sender's link figures; the caller holds c.mu.
func (c *Component) observeLink(fv teaminfo.Verdict, now time.Time) {
	s := &c.rx
	lt := c.st.links[s.Player]
	if lt == nil {
		lt = &linkq.Tracker{Window: c.cfg.LinkWindow}
		c.st.links[s.Player] = lt
	}
	dnet := c.cfg.Format == FormatDNet
	restart := fv == teaminfo.VerdictNew || fv == teaminfo.VerdictRestart
	lt.Observe(s.Seq, dnet, dnet && restart, time.Duration(now.UnixNano())-s.Stamp, now)
}

// decode checks and decodes b into c.rx (and c.rzju for zju packets); the replay filter
// is left to the caller.
func (c *Component) decode(b []byte, now time.Time) (verdict, teaminfo.Auth) {
	auth := teaminfo.AuthNone
	if v := c.headerVerdict(b); v != accepted {
		return v, auth
	}
	switch c.cfg.Format {
	case FormatBooster:
		return c.decodeBooster(b, now), auth
	case FormatZJU:
		err := c.rzju.UnmarshalBinary(b)
		switch {
		case errors.Is(err, teaminfo.ErrRange):
			return dropRange, auth
		case err != nil:
			return dropMalformed, auth
		}
		c.rzju.ToState(&c.rx)
	case FormatRobocup:
		if v := c.decodeRobocup(b); v != accepted {
			return v, auth
		}
	default:
		a, err := c.rdnet.Decode(b, c.key)
		switch {
		case errors.Is(err, teaminfo.ErrAuth):
			return dropAuth, auth
		case errors.Is(err, teaminfo.ErrVersion):
			return dropWrongFormat, auth
		case errors.Is(err, teaminfo.ErrLength):
			return dropWrongSize, auth
		case errors.Is(err, teaminfo.ErrChecksum):
			return dropChecksum, auth
		case errors.Is(err, teaminfo.ErrRange):
			return dropRange, auth
		case err != nil:
			return dropMalformed, auth
		case c.rdnet.Unchecked && c.key == nil:
			// A node before the checksum: nothing tells its packet from a corrupted one.
			return dropUnchecked, auth
		}
		auth = a
		c.rdnet.ToState(&c.rx)
	}
	if c.rx.Player == 0 {
		return dropMalformed, auth // player numbers start at 1 in every league
	}
	if c.rx.Player == c.cfg.Player {
		if c.sentByUs(c.rx.Stamp) {
			return dropOwn, auth
		}
		return dropConflict, auth
	}
	if c.cfg.MaxAge > 0 {
		if d := now.Sub(time.Unix(0, 0).Add(c.rx.Stamp)); d > c.cfg.MaxAge || d < -c.cfg.MaxAge {
			return dropStale, auth
		}
	}
	return accepted, auth
}

// knownDNetVersion reports whether v is a dnet version whose team number sits at
// dnetTeamOffset (every version teaminfo reads).
func knownDNetVersion(v uint8) bool {
	_, ok := teaminfo.DNetVersionSize(v, false)
	return ok
}

// noteClock feeds the accepted packet in c.rx, received at now, to the sender's clock
// estimate and returns the estimate.
func (c *Component) noteClock(now time.Time) offset.Estimate {
	s := &c.rx
	dnet := c.cfg.Format == FormatDNet
	var e teaminfo.Echo
	if dnet {
		e = s.Echo
	}
	c.clocks.heard(s.Player, c.cfg.Player, s.Stamp, e, now, dnet, c.recent[:min(c.recentN, len(c.recent))])
	return c.clocks.estimate(s.Player, s.Stamp, now)
}

// warnDrop logs drops that point at a problem an operator can fix, at most once per
// cause every warnEvery.
func (c *Component) warnDrop(v verdict, d transport.Datagram, now time.Time) {
	k, msg := dropWarning(v)
	if msg != "" && c.warnAllowed(k, now) {
		c.log.Warn(msg, "from", d.Src, "bytes", len(d.Payload), "format", c.cfg.Format)
	}
}

// dropWarning returns the warning cause and text of a drop verdict; "" for drops that
// are not worth a warning.
func dropWarning(v verdict) (cause, string) {
	switch v {
	case dropWrongSize:
		return causeWrongSize, "team packet of unknown size dropped"
	case dropWrongFormat:
		return causeWrongFormat, "team packet of another format dropped: is a teammate configured with another format?"
	case dropMalformed:
		return causeMalformed, "malformed team packet dropped"
	case dropRange:
		return causeRange, "team packet with a value its format does not define dropped (corrupted, or a teammate sends a role or state this node does not know)"
	case dropUnchecked:
		return causeUnchecked, "team packet without checksum or tag dropped: a teammate runs a dnetwork from before the checksum; update it, or give the team a key"
	case dropForeign:
		return causeForeign, "another team's packet dropped"
	case dropConflict:
		return causeConflict, "a packet with our player number that we did not send: another robot uses our number"
	case dropAuth:
		return causeAuth, "team packet failed authentication"
	case dropReplay:
		return causeReplay, "replayed team packet dropped"
	case dropStale:
		return causeStale, "team packet with a sender time too far from our clock dropped"
	}
	return 0, ""
}

// durationMsg converts a duration to builtin_interfaces/Duration (sec rounded down,
// nanosec in [0, 1e9)), saturating at the int32 range of seconds.
func durationMsg(d time.Duration) builtin_interfaces.Duration {
	sec := d / time.Second
	ns := d % time.Second
	if ns < 0 {
		sec--
		ns += time.Second
	}
	switch {
	case sec > math.MaxInt32:
		return builtin_interfaces.Duration{Sec: math.MaxInt32, Nanosec: uint32(time.Second - 1)}
	case sec < math.MinInt32:
		return builtin_interfaces.Duration{Sec: math.MinInt32}
	}
	return builtin_interfaces.Duration{Sec: int32(sec), Nanosec: uint32(ns)}
}

// timeMsg converts a time since the epoch to builtin_interfaces/Time.
func timeMsg(d time.Duration) builtin_interfaces.Time {
	return builtin_interfaces.Time(durationMsg(d))
}

func vec3(v teaminfo.Vector3) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: v.X, Y: v.Y, Z: v.Z}
}

func poseMsg(p teaminfo.Pose) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: units.Centimetres(p.X), Y: units.Centimetres(p.Y), Z: units.Degrees(p.Theta)}
}

func pointMsg(p teaminfo.Point) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: units.Centimetres(p.X), Y: units.Centimetres(p.Y), Z: units.Centimetres(p.Z)}
}

// fillMsg fills c.msg from the accepted packet. The message keeps the ZJUDancer units
// (cm; z of a pose is the heading in degrees): zju packets are copied as they are, dnet
// values are converted from the model. Unknown dnet values stay NaN; zju packets carry
// no time_to_reach_ball and ball_age, which are published as 0.
func (c *Component) fillMsg(now time.Time, auth teaminfo.Auth, est offset.Estimate) {
	s := &c.rx
	recv := time.Duration(now.UnixNano())
	c.msg = dmsgs.TeamInfo{
		SenderTime:    timeMsg(s.Stamp),
		ReceiveTime:   timeMsg(recv),
		Age:           durationMsg(recv - s.Stamp),
		Sequence:      s.Seq,
		Format:        uint8(c.cfg.Format),
		Authenticated: auth == teaminfo.AuthVerified,
		PlayerNumber:  s.Player,
		TeamNumber:    s.Team,
		Test:          s.Test,
		Incapacitated: s.Incapacitated,
		Role:          uint8(s.Role),
		AttackRight:   s.AttackRight,
		State:         uint8(s.PlayState),
		Priority:      s.Priority,
		KickerID:      s.KickerID,
		MatesOnline:   s.MatesOnline,
		SeeBall:       s.SeeBall,
		SeeCircle:     s.SeeCircle,
		SeeGoal:       s.SeeGoal,
		GCConnected:   s.GCConnected,
		GCState:       s.GCState,
		GCState2:      s.GCSecondaryState,
		Fallen:        s.Fallen,
		Penalised:     s.Penalised,
		GCStopped:     s.GCStopped,
		GamePhase:     s.GamePhase,
		SetPlay:       s.SetPlay,
	}
	m := &c.msg
	if est.Known {
		local := s.Stamp - est.Offset
		m.ClockOffsetKnown = true
		m.ClockOffset, m.ClockOffsetBound = durationMsg(est.Offset), durationMsg(est.Bound)
		m.SenderTimeLocal, m.Delay = timeMsg(local), durationMsg(recv-local)
	}
	if c.cfg.Format == FormatZJU {
		p := &c.rzju
		m.Dest, m.FinalDest, m.AttackTarget = vec3(p.Dest), vec3(p.FinalDest), vec3(p.AttackTarget)
		m.RobotPos, m.BallField, m.BallGlobal = vec3(p.RobotPos), vec3(p.BallField), vec3(p.BallGlobal)
		m.CircleField, m.CircleGlobal = vec3(p.CircleField), vec3(p.CircleGlobal)
		m.GoalField, m.GoalGlobal = vec3(p.GoalField), vec3(p.GoalGlobal)
		m.TimeSinceLastKick = p.TimeSinceLastKick
		m.BallQuality, m.FieldQuality, m.FieldConsistency = p.BallQuality, p.FieldQuality, p.FieldConsistency
		return
	}
	m.Dest, m.FinalDest, m.AttackTarget = poseMsg(s.Dest), poseMsg(s.FinalDest), pointMsg(s.AttackTarget)
	m.RobotPos, m.BallField, m.BallGlobal = poseMsg(s.RobotPos), pointMsg(s.BallField), pointMsg(s.BallGlobal)
	m.CircleField, m.CircleGlobal = pointMsg(s.CircleField), pointMsg(s.CircleGlobal)
	m.GoalField, m.GoalGlobal = pointMsg(s.GoalField), pointMsg(s.GoalGlobal)
	m.TeamBallGlobal = pointMsg(s.TeamBallGlobal)
	m.TimeSinceLastKick = float32(s.TimeSinceLastKick)
	m.TimeToReachBall = float32(s.TimeToReachBall)
	m.BallAge = float32(s.BallAge)
	m.BallQuality, m.FieldQuality, m.FieldConsistency = float32(s.BallQuality), float32(s.FieldQuality), float32(s.FieldConsistency)
	if n := s.VoronoiLen; n > 0 {
		// A fresh slice: a publisher may keep the message's slices (bus.Recorder does).
		m.VoronoiList = make([]geometry_msgs.Vector3, n)
		for i, p := range s.VoronoiPoints() {
			m.VoronoiList[i] = pointMsg(p)
		}
	}
}
