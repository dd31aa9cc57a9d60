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
	boosterToState(&m, &c.rx, time.Duration(max(now.UnixNano(), 0)))
	if c.rx.Player == c.cfg.Player {
		if c.sentByUs(time.Duration(m.CommunicationID)) {
			return dropOwn
		}
		return dropConflict
	}
	return accepted
}

// boosterToState converts a booster message to the model. It carries no time, sequence
// number, dest or qualities but the ball's: those are NaN or zero. isAlive false (off
// the field or penalised) is penalised; isLead is ball handling.
func boosterToState(m *booster.Message, s *teaminfo.State, stamp time.Duration) {
	nan := math.NaN()
	unknownPose := teaminfo.Pose{X: nan, Y: nan, Theta: nan}
	unknown := teaminfo.Point{X: nan, Y: nan, Z: nan}
	*s = teaminfo.State{
		Team:              uint8(m.TeamID),
		Player:            uint8(m.PlayerID),
		Stamp:             stamp,
		Penalised:         !m.IsAlive,
		SeeBall:           m.BallDetected,
		Role:              boosterRole(m.Revision, m.PlayerRole),
		PlayState:         teaminfo.PlayPlaying,
		RobotPos:          teaminfo.Pose{X: m.RobotPose.X, Y: m.RobotPose.Y, Theta: m.RobotPose.Theta},
		Dest:              unknownPose,
		FinalDest:         unknownPose,
		AttackTarget:      unknown,
		BallField:         unknown,
		BallGlobal:        unknown,
		TeamBallGlobal:    unknown,
		CircleField:       unknown,
		CircleGlobal:      unknown,
		GoalField:         unknown,
		GoalGlobal:        unknown,
		TimeSinceLastKick: nan,
		TimeToReachBall:   nan,
		BallAge:           nan,
		BallQuality:       m.BallConfidence,
		FieldQuality:      nan,
		FieldConsistency:  nan,
	}
	switch {
	case !m.IsAlive:
		s.PlayState = teaminfo.PlayInactive
	case m.IsLead:
		s.PlayState = teaminfo.PlayBallHandling
	}
	if m.BallDetected || m.BallLocationKnown {
		s.BallGlobal = teaminfo.Point{X: m.BallPos.X, Y: m.BallPos.Y, Z: m.BallPos.Z}
		// Relative to the robot: the field offset turned by -theta.
		dx, dy := m.BallPos.X-m.RobotPose.X, m.BallPos.Y-m.RobotPose.Y
		sin, cos := math.Sincos(m.RobotPose.Theta)
		s.BallField = teaminfo.Point{X: cos*dx + sin*dy, Y: -sin*dx + cos*dy}
	}
}

// boosterRole maps a booster role to ours: striker, goal keeper, defender (2026); an
// unknown or undefined role is RoleNone.
func boosterRole(r booster.Revision, role int32) teaminfo.Role {
	switch booster.RoleName(r, role) {
	case "striker":
		return teaminfo.RoleStriker
	case "goal_keeper":
		return teaminfo.RoleGoalie
	case "defender":
		return teaminfo.RoleDefender
	}
	return teaminfo.RoleNone
}

// roleToBooster maps our role to revision r's: a role r does not have is unknown.
func roleToBooster(r booster.Revision, role teaminfo.Role) int32 {
	switch {
	case role == teaminfo.RoleStriker:
		return booster.RoleStriker
	case role == teaminfo.RoleGoalie:
		return booster.RoleGoalKeeper
	case role == teaminfo.RoleDefender && r == booster.Revision2026:
		return booster.RoleDefender2026
	case r == booster.Revision2026:
		return booster.RoleUnknown2026
	}
	return booster.RoleUnknownMain
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
		PlayerRole:        roleToBooster(rev, teaminfo.Role(in.role)),
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
