package team

import (
	"cmp"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/linkq"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Decision is what one tick decided about sending our packet. Every tick ends in exactly
// one decision, so SendCounters.Ticks is the sum of the per-decision counters.
type Decision uint8

// Decisions, in the order the tick checks them.
const (
	// DecisionNone: no tick yet.
	DecisionNone Decision = iota
	// DecisionSilentStart: the component started less than Config.GCWait ago and has
	// not heard the GameController yet, so it does not know whether its messages
	// count or whether the team's budget is spent.
	DecisionSilentStart
	// DecisionSilentPenalised: we are penalised.
	DecisionSilentPenalised
	// DecisionSilentStopped: play is stopped and Config.SilentWhenStopped is set.
	DecisionSilentStopped
	// DecisionSilentBudget: the budget policy says silence (reserve reached, or an
	// uncounted state with Config.SilentUncounted).
	DecisionSilentBudget
	// DecisionNotDue: the send interval has not passed yet.
	DecisionNotDue
	// DecisionEncodeError: the packet could not be encoded (a value the format cannot
	// carry); nothing was sent.
	DecisionEncodeError
	// DecisionTooLarge: the packet is larger than the league's size cap; nothing was sent.
	DecisionTooLarge
	// DecisionSendError: every send of the packet failed.
	DecisionSendError
	// DecisionSent: the packet left (to at least one destination).
	DecisionSent
)

func (d Decision) String() string {
	switch d {
	case DecisionNone:
		return "none"
	case DecisionSilentStart:
		return "silent-start"
	case DecisionSilentPenalised:
		return "silent-penalised"
	case DecisionSilentStopped:
		return "silent-stopped"
	case DecisionSilentBudget:
		return "silent-budget"
	case DecisionNotDue:
		return "not-due"
	case DecisionEncodeError:
		return "encode-error"
	case DecisionTooLarge:
		return "too-large"
	case DecisionSendError:
		return "send-error"
	case DecisionSent:
		return "sent"
	}
	return "decision(" + strconv.Itoa(int(d)) + ")"
}

// SendCounters count the send side. Ticks == SilentStart + SilentPenalised +
// SilentStopped + SilentBudget + NotDue + EncodeErrors + TooLarge + SendErrors + Sent. Ticks counts the
// ticks of the grid since Run started, whether the component woke for them or not (a
// timed Run counts the ticks between its wakes with the decision it planned); a Run
// that wakes on every tick counts the ticks it received, which a slow receiver can miss.
type SendCounters struct {
	Ticks uint64
	// One per tick, by decision.
	SilentStart, SilentPenalised, SilentStopped, SilentBudget, NotDue uint64
	EncodeErrors, TooLarge, SendErrors, Sent                          uint64
	// Datagrams and DatagramErrors count single sends: with Peers one packet is several
	// datagrams.
	Datagrams, DatagramErrors uint64
	// MonitorSent and MonitorErrors count the monitor copies.
	MonitorSent, MonitorErrors uint64
	// NoPeers counts the send errors of format booster's unicast mode with no teammate
	// discovered: nothing left.
	NoPeers uint64
}

// Decisions returns the sum of the per-decision counters (equal to Ticks).
func (s SendCounters) Decisions() uint64 {
	return s.SilentStart + s.SilentPenalised + s.SilentStopped + s.SilentBudget + s.NotDue +
		s.EncodeErrors + s.TooLarge + s.SendErrors + s.Sent
}

// ReceiveCounters count the receive side: every datagram taken from the socket is
// counted in Received and then in Accepted or in exactly one drop cause, so
// Received == Accepted + Dropped().
type ReceiveCounters struct {
	Received uint64
	// Accepted packets were published (PublishErrors counts those the publisher refused).
	Accepted uint64

	// WrongSize: neither format's size or magic (not a team packet, or a truncated one).
	WrongSize uint64
	// WrongFormat: a packet of the other format, or a dnet version we do not speak: a
	// teammate is configured differently.
	WrongFormat uint64
	// Malformed: the right format but undecodable (a zju bool byte not 0/1, dnet
	// reserved bits).
	Malformed uint64
	// Checksum: a dnet packet whose checksum does not match: corrupted on the way.
	Checksum uint64
	// Range: a value the format does not define (a role or play state out of its
	// enum): corrupted, or a teammate of a newer revision.
	Range uint64
	// Unchecked: without a key, a dnet packet with neither checksum nor tag (a node
	// from before the checksum): nothing tells it from a corrupted one.
	Unchecked uint64
	// ForeignTeam: another team's packet.
	ForeignTeam uint64
	// Own: our own packet, echoed back (broadcast or multicast loopback).
	Own uint64
	// Conflict: our player number in a packet we did not send: another robot is
	// configured with our number.
	Conflict uint64
	// Auth: a missing or wrong authentication tag while a key is configured.
	Auth uint64
	// Duplicate and Replay: dropped by the replay filter (dnet).
	Duplicate, Replay uint64
	// Unconfirmed: dropped by the replay filter until the sender's next packet confirms
	// it (dnet): a sender's first packet, or one whose number or stamp moves further
	// than plausible (a corrupted packet, a restart, a clock set).
	Unconfirmed uint64
	// Late: reordered (dnet): older than the sender's last published packet, so not
	// published as its latest state. Its clock sample, link figures and budget count.
	Late uint64
	// Stale: sender time further from our clock than Config.MaxAge.
	Stale uint64

	// PublishErrors counts accepted packets the publisher failed to publish.
	PublishErrors uint64
}

// Dropped returns the number of received datagrams that were dropped.
func (r ReceiveCounters) Dropped() uint64 {
	return r.WrongSize + r.WrongFormat + r.Malformed + r.Checksum + r.Range + r.Unchecked + r.ForeignTeam + r.Own + r.Conflict +
		r.Auth + r.Duplicate + r.Replay + r.Stale + r.Unconfirmed + r.Late
}

// Mate is a teammate that is online.
type Mate struct {
	Player uint8
	Age    time.Duration // since its last accepted packet
	// Clock is its clock measured against ours, aged to Status.Time.
	Clock MateClock
}

// LinksFor is how long after its last packet a teammate is still listed in
// Status.Links (and TeamLinks), so that a robot whose Wi-Fi died shows with its age.
const LinksFor = time.Minute

// MateLink is one teammate's link as we receive it (package proto/linkq), with its
// clock.
type MateLink struct {
	Player uint8
	linkq.Quality
	// Clock is its clock measured against ours, aged to Status.Time.
	Clock MateClock
}

// Status is a snapshot of the component for diagnostics.
type Status struct {
	Team, Player uint8
	Format       Format
	League       League
	Port         uint16
	// Time is the component's clock when the snapshot was taken.
	Time time.Time

	// Teammates online (heard within Config.TeammateTimeout), by player number.
	Teammates []Mate
	// Links holds the link of every teammate heard within LinksFor, by player number,
	// over the last LinkWindow.
	Links      []MateLink
	LinkWindow time.Duration

	// BudgetKnown says whether BudgetLeft is an estimate of the team's remaining budget
	// (the GameController's figure minus the messages counted since).
	BudgetKnown bool
	BudgetLeft  int
	// BudgetReserve is the policy's reserve: with BudgetLeft at or below it the robot
	// sends no counted message.
	BudgetReserve int

	// Interval is the send interval in force at the last tick (rounded to whole ticks),
	// Tier the rate row and Budget the budget verdict behind it.
	Interval time.Duration
	Tier     Tier
	Budget   Verdict
	// LastDecision is the last tick's decision; LastSend when a packet last left (zero:
	// never); LastTick the last tick.
	LastDecision Decision
	LastSend     time.Time
	LastTick     time.Time

	// When the last MotionInfo, BehaviorInfo and VisionInfo arrived (zero: none yet).
	LastMotion, LastBehavior, LastVision time.Time

	Send    SendCounters
	Receive ReceiveCounters
	// Transport holds the socket's own counters (queue overflows, oversize ...).
	Transport transport.Stats
}

// BudgetExhausted reports whether the team's budget, as the robot reads it from the
// GameController and counts it down, is spent down to the reserve: no counted message
// leaves then.
func (s Status) BudgetExhausted() bool { return s.BudgetKnown && s.BudgetLeft <= s.BudgetReserve }

// IntervalReason explains Interval, e.g. "ball near; allowance 1.98 msg/s per robot
// (11880 left, reserve 100)".
func (s Status) IntervalReason() string {
	return s.Tier.String() + "; " + s.Budget.Reason()
}

// Status returns a snapshot of the component, after the held-back inputs are handed
// over (SetInputSync). Safe for concurrent use.
func (c *Component) Status() Status {
	c.inputSync.Sync()
	now := c.clk.Now()
	tr := c.conn.Stats()
	c.mu.Lock()
	defer c.mu.Unlock()
	st := &c.st
	s := Status{
		Team: c.cfg.Team, Player: c.cfg.Player, Format: c.cfg.Format, League: c.cfg.League,
		Port: c.port, Time: now,
		BudgetKnown: st.known, BudgetLeft: st.budget, BudgetReserve: c.policy.Reserve,
		Interval: st.interval, Tier: st.tier, Budget: st.verdict,
		LastDecision: st.decision, LastSend: st.lastSend, LastTick: st.lastTick,
		LastMotion: c.in.motionAt, LastBehavior: c.in.behaviorAt, LastVision: c.in.visionAt,
		Send: st.send, Receive: st.recv, Transport: tr,
		LinkWindow: cmp.Or(c.cfg.LinkWindow, linkq.DefaultWindow),
	}
	if n, last := c.pendingTicks(now); n > 0 {
		// A timed Run counts the ticks between its wakes when it next wakes; their
		// decision is the planned one.
		p := *st
		p.countPlanned(n)
		s.Send, s.LastDecision, s.LastTick = p.send, p.decision, last
	}
	for p, t := range st.heard {
		if t.IsZero() {
			continue
		}
		var clk MateClock
		if c.isOnline(t, now) || st.links[p] != nil {
			clk = st.clock[p].at(now)
		}
		if c.isOnline(t, now) {
			s.Teammates = append(s.Teammates, Mate{Player: uint8(p), Age: max(now.Sub(t), 0), Clock: clk})
		}
		if lt := st.links[p]; lt != nil && now.Sub(t) < LinksFor {
			q := lt.Quality(now, clk.Offset, clk.Bound, clk.Known)
			s.Links = append(s.Links, MateLink{Player: uint8(p), Quality: q, Clock: clk})
		}
	}
	return s
}

// isOnline reports whether a teammate last heard at t counts as online at now: heard
// less than TeammateTimeout before now or after it. A packet handled a moment after the
// instant a plan or tick is made for (a tick acts for the instant its timer fired) is
// heard after now and online; one heard a whole timeout after now means the clock went
// back (a simulation reset), and its next packet brings the teammate back.
func (c *Component) isOnline(t, now time.Time) bool {
	d := now.Sub(t)
	return d > -c.cfg.TeammateTimeout && d < c.cfg.TeammateTimeout
}

// cause labels the rate-limited warnings.
type cause uint8

const (
	causeWrongSize cause = iota
	causeWrongFormat
	causeMalformed
	causeRange
	causeUnchecked
	causeForeign
	causeConflict
	causeAuth
	causeReplay
	causeStale
	causePublish
	causeSend
	causeMonitor
	causeEncode
	causeTooLarge
	numCauses
)
