package team

import (
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// BoosterMode is how format booster sends our packet.
type BoosterMode uint8

const (
	// BoosterUnicast is the vendor's main branch: the 120-byte message by unicast to each
	// robot found by discovery (Deps.Peers, a Discovery on booster.PortDiscovery + team),
	// on booster.PortUnicast + team, which is also the port we receive on.
	BoosterUnicast BoosterMode = iota
	// BoosterBroadcast is the vendor's 2026 branch: the 128-byte message broadcast on the
	// team port, 10000 + team.
	BoosterBroadcast
)

// ParseBoosterMode parses "unicast" or "broadcast".
func ParseBoosterMode(s string) (BoosterMode, error) {
	switch s {
	case "unicast":
		return BoosterUnicast, nil
	case "broadcast":
		return BoosterBroadcast, nil
	}
	return 0, fmt.Errorf("team: unknown booster mode %q (want unicast or broadcast)", s)
}

func (m BoosterMode) String() string {
	switch m {
	case BoosterUnicast:
		return "unicast"
	case BoosterBroadcast:
		return "broadcast"
	}
	return "booster_mode(" + strconv.Itoa(int(m)) + ")"
}

// revision is the layout our packets have in mode m.
func (m BoosterMode) revision() booster.Revision {
	if m == BoosterBroadcast {
		return booster.Revision2026
	}
	return booster.RevisionMain
}

// boosterPort returns base + team.
func boosterPort(base int, team uint8) uint16 { return uint16(base + int(team)) }

// PeerSource gives the unicast destinations of format booster's unicast mode: the
// teammates found by discovery (Discovery).
type PeerSource interface {
	// AppendPeers appends the destinations current at now to dst.
	AppendPeers(dst []netip.AddrPort, now time.Time) []netip.AddrPort
}

// headerVerdictBooster is headerVerdict for format booster: size and magic of either
// revision, then the team number.
func (c *Component) headerVerdictBooster(b []byte) verdict {
	team, _, ok := booster.Peek(b)
	switch {
	case !ok && (teaminfo.IsDNet(b) || len(b) == teaminfo.ZJUSize):
		return dropWrongFormat
	case !ok || booster.IsDiscovery(b):
		return dropWrongSize
	case team != int32(c.cfg.Team):
		return dropForeign
	}
	return accepted
}

// decodeBooster decodes a booster packet into c.rbst and c.rx, received at now. A
// booster packet carries no time: its stamp is its receive time, and our own packets are
// told by their communication id (build keeps those in c.recent).
func (c *Component) decodeBooster(b []byte, now time.Time) verdict {
	m, err := booster.Decode(b)
	if err != nil {
		return dropMalformed
	}
	if m.PlayerID < 1 || m.PlayerID > math.MaxUint8 {
		return dropRange
	}
	c.rbst = m
	m.ToState(&c.rx)
	c.rx.Stamp = time.Duration(max(now.UnixNano(), 0))
	if c.rx.Player == c.cfg.Player {
		if c.sentByUs(time.Duration(m.CommunicationID)) {
			return dropOwn
		}
		return dropConflict
	}
	return accepted
}

// buildBooster fills c.bst from the inputs (cm and degrees, converted to the vendor's
// metres and radians) and returns its stamp for c.recent: the communication id, which
// advances with every packet for the team (answer set). kickDir is the direction from
// the ball to our attack target; thetaRb from the robot to the ball; cost is our time
// to reach the ball; cmd and cmdId stay 0 (no vendor command).
func (c *Component) buildBooster(in *inputs, snap *GameSnapshot, answer bool) time.Duration {
	rev := c.cfg.BoosterMode.revision()
	robot, ball, target := pose(in.robotPos), point(in.ballGlobal), point(in.target)
	rel := point(in.ballField)
	if answer {
		c.bstID++
	}
	c.bst = booster.Message{
		Revision:          rev,
		CommunicationID:   c.bstID,
		TeamID:            int32(c.cfg.Team),
		PlayerID:          int32(c.cfg.Player),
		PlayerRole:        booster.RoleFromState(rev, teaminfo.Role(in.role)),
		IsAlive:           !snap.Penalised && !in.motionAt.IsZero() && in.stable,
		IsLead:            teaminfo.PlayState(in.playState) == teaminfo.PlayBallHandling,
		BallDetected:      in.seeBall,
		BallLocationKnown: in.seeBall,
		BallConfidence:    float64(in.ballQ),
		BallRange:         math.Hypot(rel.X, rel.Y),
		Cost:              float64(in.toBall),
		BallPos:           booster.Point{X: ball.X, Y: ball.Y},
		RobotPose:         booster.Pose{X: robot.X, Y: robot.Y, Theta: robot.Theta},
		KickDir:           math.Atan2(target.Y-ball.Y, target.X-ball.X),
		ThetaRb:           math.Atan2(ball.Y-robot.Y, ball.X-robot.X),
	}
	return time.Duration(c.bstID)
}

// boosterPeers returns the destinations of a booster packet in unicast mode at now; ok
// is false in every other case (the usual broadcast or Config.Peers apply).
func (c *Component) boosterPeers(now time.Time) ([]netip.AddrPort, bool) {
	if c.cfg.Format != FormatBooster || c.cfg.BoosterMode != BoosterUnicast || len(c.cfg.Peers) > 0 || c.peers == nil {
		return nil, false
	}
	c.peerBuf = c.peers.AppendPeers(c.peerBuf[:0], now)
	return c.peerBuf, true
}
