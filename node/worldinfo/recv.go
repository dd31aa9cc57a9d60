package worldinfo

import (
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"net/netip"
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

// receive turns one datagram into one published WorldInfo, or counts its drop.
func (c *Component) receive(d transport.Datagram) {
	c.received.Add(1)
	src := d.Src.Addr().Unmap()
	c.msg = dmsgs.WorldInfo{}
	c.col.start(&c.msg)
	err := c.rx.Receive(src, d.Payload)
	c.col.m = nil
	if err != nil {
		if undecodable(err) {
			c.conn.ReportMalformed()
		}
		c.smu.Lock()
		if e := c.senders[src]; e != nil {
			e.Dropped++
		}
		c.smu.Unlock()
		c.dropLog(src, err)
		return
	}
	// The node's clock, not d.Time: a socket given in Deps may stamp with another clock.
	now := c.clk.Now()
	// The datagram was accepted, so it is a positive multiple of the block size and its
	// first block (ECB) holds the header.
	c.hdr.Decrypt(c.blk[:], d.Payload[:len(c.blk)])
	seq := binary.BigEndian.Uint32(c.blk[4:wi.HeaderSize])

	c.smu.Lock()
	e := c.senders[src]
	if e == nil {
		e = &senderEntry{name: src.String(), SenderStatus: SenderStatus{Addr: src, FirstSeen: now}}
		c.senders[src] = e
		c.sendersSeen++
	}
	e.Datagrams++
	e.Records += uint64(c.col.records)
	e.LastSeq, e.LastSeen = seq, now
	name := e.name
	c.smu.Unlock()

	// The lists were gathered in reused buffers; the message gets its own copies, sized
	// exactly, so that a publisher may keep it.
	c.msg.Opponents = cloneOrNil(c.col.opponents)
	c.msg.DisappearedOpponents = cloneOrNil(c.col.disappeared)
	c.msg.Penalties = cloneOrNil(c.col.penalties)
	c.msg.Header.Stamp = builtin_interfaces.NewTime(now)
	c.msg.Sender = name
	c.msg.Sequence = seq
	if err := c.pub.Publish(&c.msg); err != nil {
		c.publishErrors.Add(1)
		c.warn("publish", "worldinfo: publish failed", "from", name, "err", err)
		return
	}
	c.published.Add(1)
}

// undecodable reports whether a drop means the bytes were bad (the socket counts those
// as malformed) rather than a receive rule (loopback, replay, sender table full).
func undecodable(err error) bool {
	return !errors.Is(err, wit.ErrLoopback) && !errors.Is(err, wit.ErrStale) &&
		!errors.Is(err, wit.ErrTooManySenders)
}

// dropLog logs a drop at most once per cause every warnEvery; loopback and stale drops
// are normal with multicast loopback on and are logged at debug level.
func (c *Component) dropLog(src netip.Addr, err error) {
	cause := "drop other"
	for _, k := range [...]struct {
		name string
		err  error
	}{
		{"drop loopback", wit.ErrLoopback}, {"drop stale", wit.ErrStale},
		{"drop senders", wit.ErrTooManySenders}, {"drop oversize", wit.ErrOversize},
		{"drop cipher", wi.ErrCipherLength}, {"drop padding", wi.ErrPadding},
		{"drop long", wi.ErrTooLong}, {"drop short", wi.ErrShort},
		{"drop magic", wi.ErrMagic}, {"drop version", wi.ErrVersion},
	} {
		if errors.Is(err, k.err) {
			cause = k.name
			break
		}
	}
	if !c.allow(cause) {
		return
	}
	level := slog.LevelWarn
	if errors.Is(err, wit.ErrLoopback) || errors.Is(err, wit.ErrStale) {
		level = slog.LevelDebug
	}
	c.log.Log(context.Background(), level, "worldinfo: datagram dropped", "from", src, "err", err)
}

// forgetSenders drops senders silent for longer than FlushAfter at now (a cycle's
// time) from the table. A sender last seen after the clock's time read under smu was
// seen before the clock went back (a simulation reset): its silence counts from then, as
// the GameController's connection does, so it is forgotten FlushAfter after the reset
// rather than FlushAfter after the clock has caught up. A sender stamped since the
// cycle read now (a few microseconds later, on the receive goroutine) is not taken for
// one: every stamp in the table was read from the clock before that read.
func (c *Component) forgetSenders(now time.Time) {
	if c.cfg.FlushAfter < 0 {
		return
	}
	c.smu.Lock()
	defer c.smu.Unlock()
	cur := c.clk.Now()
	for a, e := range c.senders {
		if e.LastSeen.After(cur) {
			e.LastSeen = cur // the clock went back
		}
		if now.Sub(e.LastSeen) > c.cfg.FlushAfter {
			delete(c.senders, a)
			c.forgotten++
		}
	}
}

func sortSenders(s []SenderStatus) {
	slices.SortFunc(s, func(a, b SenderStatus) int { return a.Addr.Compare(b.Addr) })
}

// collector is the Receiver's handler: it writes the records of the datagram being
// received into m, and its lists into reused buffers.
type collector struct {
	m           *dmsgs.WorldInfo
	records     int
	opponents   []dmsgs.WorldInfoOpponent
	disappeared []uint32
	penalties   []dmsgs.WorldInfoPenalty
}

func (c *collector) start(m *dmsgs.WorldInfo) {
	c.m, c.records = m, 0
	c.opponents, c.disappeared, c.penalties = c.opponents[:0], c.disappeared[:0], c.penalties[:0]
}

// cloneOrNil returns a copy of s with its exact length, or nil if s is empty.
func cloneOrNil[E any](s []E) []E {
	if len(s) == 0 {
		return nil
	}
	return append(make([]E, 0, len(s)), s...)
}

var _ wit.Handler = (*collector)(nil)

// Pose implements wit.Handler.
func (c *collector) Pose(_ netip.Addr, p wi.Pose) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.HasPose = true
	c.m.Pose = geometry_msgs.Pose2D{X: float64(p.X), Y: float64(p.Y), Theta: float64(p.Theta)}
	c.m.PoseCovariance = p.Covariance
}

// Velocity implements wit.Handler.
func (c *collector) Velocity(_ netip.Addr, v wi.Velocity) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.HasVelocity = true
	c.m.Velocity = geometry_msgs.Pose2D{X: float64(v.VelX), Y: float64(v.VelY), Theta: float64(v.VelTheta)}
	c.m.VelocityCovariance = v.Covariance
}

// RelBall implements wit.Handler.
func (c *collector) RelBall(_ netip.Addr, b wi.RelBall) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.RelativeBall = dmsgs.WorldInfoRelativeBall{
		Valid: true, Visible: b.Visible, VisibilityHistory: b.History,
		Bearing: b.Bearing, Distance: b.Dist, Slope: b.Slope, Covariance: b.Covariance,
	}
}

// GlobalBall implements wit.Handler.
func (c *collector) GlobalBall(_ netip.Addr, b wi.GlobalBall) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.GlobalBall = dmsgs.WorldInfoGlobalBall{
		Valid: true, Visible: b.Visible, VisibilityHistory: b.History,
		Position:   geometry_msgs.Point{X: float64(b.X), Y: float64(b.Y), Z: float64(b.Z)},
		Covariance: b.Covariance,
	}
}

// RelBallVelocity implements wit.Handler.
func (c *collector) RelBallVelocity(_ netip.Addr, v wi.RelBallVelocity) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.HasRelativeBallVelocity = true
	c.m.RelativeBallVelocity = geometry_msgs.Vector3{X: float64(v.VelX), Y: float64(v.VelY), Z: float64(v.VelZ)}
	c.m.RelativeBallVelocityCovariance = v.Covariance
}

// GlobalBallVelocity implements wit.Handler.
func (c *collector) GlobalBallVelocity(_ netip.Addr, v wi.GlobalBallVelocity) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.HasGlobalBallVelocity = true
	c.m.GlobalBallVelocity = geometry_msgs.Vector3{X: float64(v.VelX), Y: float64(v.VelY), Z: float64(v.VelZ)}
	c.m.GlobalBallVelocityCovariance = v.Covariance
}

// Opponent implements wit.Handler.
func (c *collector) Opponent(_ netip.Addr, o wi.Opponent) {
	if c.m == nil {
		return
	}
	c.records++
	c.opponents = append(c.opponents, dmsgs.WorldInfoOpponent{
		UID: o.UID, Distance: o.Dist, Bearing: o.Bearing, Covariance: o.Covariance,
	})
}

// OpponentDisappeared implements wit.Handler.
func (c *collector) OpponentDisappeared(_ netip.Addr, uid uint32) {
	if c.m == nil {
		return
	}
	c.records++
	c.disappeared = append(c.disappeared, uid)
}

// GameState implements wit.Handler.
func (c *collector) GameState(_ netip.Addr, g wi.GameState) {
	if c.m == nil {
		return
	}
	c.records++
	c.m.HasGameState = true
	c.m.GameState = dmsgs.WorldInfoGameState{
		State: g.State, StateTeam: uint8(g.StateTeam), ScoreCyan: g.ScoreCyan,
		ScoreMagenta: g.ScoreMagenta, OurTeam: uint8(g.OurTeam),
		OurGoalColor: uint8(g.OurGoalColor), Half: uint8(g.Half),
	}
}

// Penalty implements wit.Handler.
func (c *collector) Penalty(_ netip.Addr, p wi.Penalty) {
	if c.m == nil {
		return
	}
	c.records++
	c.penalties = append(c.penalties, dmsgs.WorldInfoPenalty{
		Player: p.Player, Penalty: uint8(p.Code), SecondsRemaining: p.SecondsRemaining,
	})
}
