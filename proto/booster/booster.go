package booster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Magic values: the first int of every packet (VALIDATION_COMMUNICATION and
// VALIDATION_DISCOVERY of team_communication_msg.h).
const (
	Magic          = 31202
	DiscoveryMagic = 41203
)

// Sizes of the packets: the only lengths a receiver accepts.
const (
	Size          = 120 // TeamCommunicationMsg, vendor main (fa4f31c)
	Size2026      = 128 // TeamCommunicationMsg, 2026 GameController branch (aac541d)
	DiscoverySize = 16  // TeamDiscoveryMsg, both revisions
)

// Base ports: the team number is added to each.
const (
	PortUnicast   = 30000 // main: TeamCommunicationMsg by unicast to each discovered teammate
	PortDiscovery = 20000 // main: TeamDiscoveryMsg broadcast every second
	PortBroadcast = 10000 // 2026 branch: TeamCommunicationMsg broadcast (the league's team port)
)

// Sentinel errors. Decoders wrap them with %w and a message that names the offending
// field or size; callers branch with errors.Is.
var (
	// ErrLength reports a packet whose size is none of the format's.
	ErrLength = errors.New("booster: bad packet length")
	// ErrMagic reports a packet whose first int is not the format's validation value.
	ErrMagic = errors.New("booster: bad validation magic")
	// ErrBool reports a bool byte that is neither 0 nor 1.
	ErrBool = errors.New("booster: bool byte is not 0 or 1")
	// ErrRevision reports a Message of no known revision on encode.
	ErrRevision = errors.New("booster: unknown revision")
)

// Revision names the layout of a TeamCommunicationMsg.
type Revision uint8

const (
	// RevisionMain is the vendor's main branch (fa4f31c): 120 bytes.
	RevisionMain Revision = 1
	// Revision2026 is the 2026 GameController branch (aac541d): isInVisualKick after
	// isLead, so 128 bytes.
	Revision2026 Revision = 2
)

// String returns "main", "2026" or "unknown".
func (r Revision) String() string {
	switch r {
	case RevisionMain:
		return "main"
	case Revision2026:
		return "2026"
	}
	return "unknown"
}

// Size returns the packet size of revision r, 0 for an unknown one.
func (r Revision) Size() int {
	switch r {
	case RevisionMain:
		return Size
	case Revision2026:
		return Size2026
	}
	return 0
}

// Byte offsets common to both revisions (see the package documentation for the table).
const (
	offValidation      = 0
	offCommunicationID = 4
	offTeamID          = 8
	offPlayerID        = 12
	offPlayerRole      = 16
	offIsAlive         = 20
	offIsLead          = 21
)

// Byte offsets of the main revision.
const (
	offBallDetected      = 22
	offBallLocationKnown = 23
	offDoubles           = 24 // ballConfidence, the first of 11 doubles
)

// Byte offsets of the 2026 revision.
const (
	off2026IsInVisualKick    = 22
	off2026BallDetected      = 23
	off2026BallLocationKnown = 24
	off2026Doubles           = 32 // after 7 bytes of padding
)

// Offsets from the first double, the same in both revisions.
const (
	relBallConfidence = 0
	relBallRange      = 8
	relCost           = 16
	relBallPos        = 24 // Point: x, y, z
	relRobotPose      = 48 // Pose2D: x, y, theta
	relKickDir        = 72
	relThetaRb        = 80
	relCmdID          = 88
	relCmd            = 92
)

// Discovery offsets.
const (
	offDiscValidation      = 0
	offDiscCommunicationID = 4
	offDiscTeamID          = 8
	offDiscPlayerID        = 12
)

// layout holds the revision-dependent offsets; visualKick is -1 where the field is absent.
type layout struct {
	visualKick, ballDetected, ballKnown, doubles, size int
}

func layoutOf(r Revision) (layout, bool) {
	switch r {
	case RevisionMain:
		return layout{-1, offBallDetected, offBallLocationKnown, offDoubles, Size}, true
	case Revision2026:
		return layout{off2026IsInVisualKick, off2026BallDetected, off2026BallLocationKnown, off2026Doubles, Size2026}, true
	}
	return layout{}, false
}

// Player roles (playerRole). Main has 1, 2 and 3 (unknown); the 2026 branch adds defender
// as 3 and moves unknown to 4.
const (
	RoleStriker      = 1
	RoleGoalKeeper   = 2
	RoleUnknownMain  = 3
	RoleDefender2026 = 3
	RoleUnknown2026  = 4
)

// The vendor's role names (brain_communication.cpp).
const (
	roleNameUnknown   = "unknown"
	roleNameStriker   = "striker"
	roleNameKeeper    = "goal_keeper"
	roleNameDefender  = "defender"
	roleNameUndefined = "undefined"
)

// RoleName returns the vendor's name of role in revision r ("striker", "goal_keeper",
// "defender", "unknown"), or "undefined" for a value its sender never writes.
func RoleName(r Revision, role int32) string {
	switch {
	case role == RoleStriker:
		return roleNameStriker
	case role == RoleGoalKeeper:
		return roleNameKeeper
	case r == Revision2026 && role == RoleDefender2026:
		return roleNameDefender
	case r == RevisionMain && role == RoleUnknownMain, r == Revision2026 && role == RoleUnknown2026:
		return roleNameUnknown
	}
	return roleNameUndefined
}

// Point is the vendor's Point: metres in the field frame.
type Point struct {
	X, Y, Z float64
}

// Pose is the vendor's Pose2D: metres, and theta in radians counter-clockwise from +x.
type Pose struct {
	X, Y, Theta float64
}

// Message mirrors TeamCommunicationMsg field by field, values as on the wire (metres,
// radians). IsInVisualKick exists in Revision2026 only; encoding a RevisionMain
// message ignores it.
type Message struct {
	Revision          Revision
	CommunicationID   int32 // per-sender counter, from 0 at start
	TeamID            int32
	PlayerID          int32 // 1-based
	PlayerRole        int32 // Role* values of the revision
	IsAlive           bool  // on the field and not penalised
	IsLead            bool  // in ball control
	IsInVisualKick    bool  // 2026 only
	BallDetected      bool
	BallLocationKnown bool
	BallConfidence    float64
	BallRange         float64 // m
	Cost              float64 // estimated cost to reach the ball
	BallPos           Point   // m, field frame
	RobotPose         Pose    // m, m, rad, field frame
	KickDir           float64 // rad
	ThetaRb           float64 // rad, robot-to-ball angle in the field frame
	CmdID             int32
	Cmd               int32
}

// Discovery mirrors TeamDiscoveryMsg: a robot announcing its address to its team.
type Discovery struct {
	CommunicationID int32
	TeamID          int32
	PlayerID        int32
}

// IsMessage reports whether b has a TeamCommunicationMsg's size and magic.
func IsMessage(b []byte) bool {
	return (len(b) == Size || len(b) == Size2026) && magicOf(b) == Magic
}

// IsDiscovery reports whether b has a TeamDiscoveryMsg's size and magic.
func IsDiscovery(b []byte) bool {
	return len(b) == DiscoverySize && magicOf(b) == DiscoveryMagic
}

func magicOf(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b[offValidation:])) }

// Peek returns the team and player numbers of a packet of either kind that has the
// right size and magic, without decoding the rest; ok is false for anything else.
func Peek(b []byte) (team, player int32, ok bool) {
	if !IsMessage(b) && !IsDiscovery(b) {
		return 0, 0, false
	}
	le := binary.LittleEndian
	return int32(le.Uint32(b[offTeamID:])), int32(le.Uint32(b[offPlayerID:])), true
}

// Decode decodes a TeamCommunicationMsg of either revision, told apart by its size.
// Padding bytes are ignored; every bool byte must be 0 or 1 ([ErrBool]: a C++ bool holds
// nothing else). Floats keep NaN and infinities; numbers are not range-checked.
func Decode(b []byte) (Message, error) {
	var r Revision
	switch len(b) {
	case Size:
		r = RevisionMain
	case Size2026:
		r = Revision2026
	default:
		return Message{}, fmt.Errorf("%w: message needs %d or %d bytes, got %d", ErrLength, Size, Size2026, len(b))
	}
	if v := magicOf(b); v != Magic {
		return Message{}, fmt.Errorf("%w: message validation is %d, not %d", ErrMagic, v, Magic)
	}
	l, _ := layoutOf(r)
	var bad error
	rb := func(off int, name string) bool {
		if v := b[off]; v > 1 && bad == nil {
			bad = fmt.Errorf("%w: %s (offset %d) is %d", ErrBool, name, off, v)
		}
		return b[off] != 0
	}
	le := binary.LittleEndian
	i32 := func(off int) int32 { return int32(le.Uint32(b[off:])) }
	f64 := func(rel int) float64 { return math.Float64frombits(le.Uint64(b[l.doubles+rel:])) }
	m := Message{
		Revision:          r,
		CommunicationID:   i32(offCommunicationID),
		TeamID:            i32(offTeamID),
		PlayerID:          i32(offPlayerID),
		PlayerRole:        i32(offPlayerRole),
		IsAlive:           rb(offIsAlive, "isAlive"),
		IsLead:            rb(offIsLead, "isLead"),
		BallDetected:      rb(l.ballDetected, "ballDetected"),
		BallLocationKnown: rb(l.ballKnown, "ballLocationKnown"),
		BallConfidence:    f64(relBallConfidence),
		BallRange:         f64(relBallRange),
		Cost:              f64(relCost),
		BallPos:           Point{f64(relBallPos), f64(relBallPos + 8), f64(relBallPos + 16)},
		RobotPose:         Pose{f64(relRobotPose), f64(relRobotPose + 8), f64(relRobotPose + 16)},
		KickDir:           f64(relKickDir),
		ThetaRb:           f64(relThetaRb),
		CmdID:             i32(l.doubles + relCmdID),
		Cmd:               i32(l.doubles + relCmd),
	}
	if l.visualKick >= 0 {
		m.IsInVisualKick = rb(l.visualKick, "isInVisualKick")
	}
	if bad != nil {
		return Message{}, bad
	}
	return m, nil
}

// Append appends the memory image of m in its revision to b, padding as zero and bools
// as 0 or 1. A message of no known revision fails with [ErrRevision] and b is returned
// unchanged.
func (m *Message) Append(b []byte) ([]byte, error) {
	l, ok := layoutOf(m.Revision)
	if !ok {
		return b, fmt.Errorf("%w: %d", ErrRevision, m.Revision)
	}
	n := len(b)
	b = append(b, make([]byte, l.size)...) // zeroed; allocates only when b lacks room
	w := b[n : n+l.size]
	le := binary.LittleEndian
	p32 := func(off int, v int32) { le.PutUint32(w[off:], uint32(v)) }
	pf := func(rel int, v float64) { le.PutUint64(w[l.doubles+rel:], math.Float64bits(v)) }
	p32(offValidation, Magic)
	p32(offCommunicationID, m.CommunicationID)
	p32(offTeamID, m.TeamID)
	p32(offPlayerID, m.PlayerID)
	p32(offPlayerRole, m.PlayerRole)
	w[offIsAlive] = boolByte(m.IsAlive)
	w[offIsLead] = boolByte(m.IsLead)
	if l.visualKick >= 0 {
		w[l.visualKick] = boolByte(m.IsInVisualKick)
	}
	w[l.ballDetected] = boolByte(m.BallDetected)
	w[l.ballKnown] = boolByte(m.BallLocationKnown)
	pf(relBallConfidence, m.BallConfidence)
	pf(relBallRange, m.BallRange)
	pf(relCost, m.Cost)
	pf(relBallPos, m.BallPos.X)
	pf(relBallPos+8, m.BallPos.Y)
	pf(relBallPos+16, m.BallPos.Z)
	pf(relRobotPose, m.RobotPose.X)
	pf(relRobotPose+8, m.RobotPose.Y)
	pf(relRobotPose+16, m.RobotPose.Theta)
	pf(relKickDir, m.KickDir)
	pf(relThetaRb, m.ThetaRb)
	p32(l.doubles+relCmdID, m.CmdID)
	p32(l.doubles+relCmd, m.Cmd)
	return b, nil
}

// DecodeDiscovery decodes a TeamDiscoveryMsg.
func DecodeDiscovery(b []byte) (Discovery, error) {
	if len(b) != DiscoverySize {
		return Discovery{}, fmt.Errorf("%w: discovery needs %d bytes, got %d", ErrLength, DiscoverySize, len(b))
	}
	if v := magicOf(b); v != DiscoveryMagic {
		return Discovery{}, fmt.Errorf("%w: discovery validation is %d, not %d", ErrMagic, v, DiscoveryMagic)
	}
	le := binary.LittleEndian
	return Discovery{
		CommunicationID: int32(le.Uint32(b[offDiscCommunicationID:])),
		TeamID:          int32(le.Uint32(b[offDiscTeamID:])),
		PlayerID:        int32(le.Uint32(b[offDiscPlayerID:])),
	}, nil
}

// Append appends the 16-byte memory image of d to b.
func (d Discovery) Append(b []byte) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, DiscoveryMagic)
	b = le.AppendUint32(b, uint32(d.CommunicationID))
	b = le.AppendUint32(b, uint32(d.TeamID))
	return le.AppendUint32(b, uint32(d.PlayerID))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
