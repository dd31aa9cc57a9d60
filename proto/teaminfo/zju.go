package teaminfo

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ZJUSize is sizeof(dmsgs::TeamInfo) for the HighTorque dmsgs revision on a little-endian
// 64-bit target: the only length a zju packet can have.
const ZJUSize = 296

// ZJURevision names the dmsgs revision whose memory image [ZJUPacket] reads and writes.
const ZJURevision = "hightorque-296"

// Byte offsets of the zju fields (see the package documentation for the table).
const (
	zjuOffTxpTimestamp     = 0
	zjuOffRecvTimestamp    = 8
	zjuOffPlayerNumber     = 16
	zjuOffTeamNumber       = 17
	zjuOffTest             = 18
	zjuOffIncapacitated    = 19
	zjuOffRole             = 20
	zjuOffAttackRight      = 21
	zjuOffPad0             = 22 // 2 bytes of padding before dest
	zjuOffDest             = 24
	zjuOffFinalDest        = 48
	zjuOffAttackTarget     = 72
	zjuOffTimeSinceKick    = 96
	zjuOffState            = 100
	zjuOffPriority         = 101
	zjuOffKickerID         = 102
	zjuOffMatesOnline      = 103 // 6 bytes
	zjuOffSeeBall          = 109
	zjuOffSeeCircle        = 110
	zjuOffSeeGoal          = 111
	zjuOffRobotPos         = 112
	zjuOffBallField        = 136
	zjuOffBallGlobal       = 160
	zjuOffCircleField      = 184
	zjuOffCircleGlobal     = 208
	zjuOffGoalField        = 232
	zjuOffGoalGlobal       = 256
	zjuOffBallQuality      = 280
	zjuOffFieldQuality     = 284
	zjuOffFieldConsistency = 288
	zjuOffGCConnected      = 292
	zjuOffGCState          = 293
	zjuOffGCState2         = 294
	zjuOffPad1             = 295 // tail padding

	vector3Size = 24
)

// MaxMates is the number of entries of mates_online (NUM_ROBOT in dconstant.hpp).
const MaxMates = 6

// RosTime is a ROS 1 time stamp as the zju struct holds it: two uint32.
type RosTime struct {
	Sec  uint32 `json:"sec"`
	Nsec uint32 `json:"nsec"`
}

// Vector3 is geometry_msgs/Vector3: three float64. ZJUDancer stores x and y in cm and,
// in poses, the heading in degrees in z.
type Vector3 struct {
	X, Y, Z float64
}

// ZJUPacket mirrors dmsgs::TeamInfo (HighTorque revision) field by field. Values are kept
// exactly as on the wire: floats keep NaN and infinities, enums are not range-checked
// (ZJUDancer robots check nothing either).
type ZJUPacket struct {
	TxpTimestamp      RosTime // set by the sender just before sending
	RecvTimestamp     RosTime // receiver-local; senders leave it zero
	PlayerNumber      uint8
	TeamNumber        uint8
	Test              uint8 // never assigned by ZJUDancer senders
	Incapacitated     bool
	Role              uint8 // Role values
	AttackRight       bool
	Dest              Vector3 // cm, cm, deg
	FinalDest         Vector3 // cm, cm, deg
	AttackTarget      Vector3 // cm
	TimeSinceLastKick float32 // s
	State             uint8   // PlayState values
	Priority          bool
	KickerID          uint8
	MatesOnline       [MaxMates]bool
	SeeBall           bool
	SeeCircle         bool
	SeeGoal           bool
	RobotPos          Vector3 // cm, cm, deg
	BallField         Vector3 // cm, relative to the robot
	BallGlobal        Vector3 // cm
	CircleField       Vector3 // cm
	CircleGlobal      Vector3 // cm
	GoalField         Vector3 // cm
	GoalGlobal        Vector3 // cm
	BallQuality       float32
	FieldQuality      float32
	FieldConsistency  float32
	GCConnected       bool
	GCState           uint8
	GCState2          uint8 // GameController secondary state
}

// MarshalBinary returns the 296-byte memory image of p.
func (p *ZJUPacket) MarshalBinary() ([]byte, error) {
	return p.AppendBinary(make([]byte, 0, ZJUSize))
}

// AppendBinary appends the 296-byte memory image of p to b. Padding bytes are written as
// zero and bools as 0 or 1. A role or state the format does not define fails with
// ErrRange (receivers reject it), and b is returned unchanged.
func (p *ZJUPacket) AppendBinary(b []byte) ([]byte, error) {
	if err := zjuCheckEnums(p.Role, p.State); err != nil {
		return b, err
	}
	n := len(b)
	b = append(b, make([]byte, ZJUSize)...) // zeroed; allocates only when b lacks room
	w := b[n : n+ZJUSize]
	le := binary.LittleEndian
	le.PutUint32(w[zjuOffTxpTimestamp:], p.TxpTimestamp.Sec)
	le.PutUint32(w[zjuOffTxpTimestamp+4:], p.TxpTimestamp.Nsec)
	le.PutUint32(w[zjuOffRecvTimestamp:], p.RecvTimestamp.Sec)
	le.PutUint32(w[zjuOffRecvTimestamp+4:], p.RecvTimestamp.Nsec)
	w[zjuOffPlayerNumber] = p.PlayerNumber
	w[zjuOffTeamNumber] = p.TeamNumber
	w[zjuOffTest] = p.Test
	w[zjuOffIncapacitated] = boolByte(p.Incapacitated)
	w[zjuOffRole] = p.Role
	w[zjuOffAttackRight] = boolByte(p.AttackRight)
	putVector3(w[zjuOffDest:], p.Dest)
	putVector3(w[zjuOffFinalDest:], p.FinalDest)
	putVector3(w[zjuOffAttackTarget:], p.AttackTarget)
	le.PutUint32(w[zjuOffTimeSinceKick:], math.Float32bits(p.TimeSinceLastKick))
	w[zjuOffState] = p.State
	w[zjuOffPriority] = boolByte(p.Priority)
	w[zjuOffKickerID] = p.KickerID
	for i, m := range p.MatesOnline {
		w[zjuOffMatesOnline+i] = boolByte(m)
	}
	w[zjuOffSeeBall] = boolByte(p.SeeBall)
	w[zjuOffSeeCircle] = boolByte(p.SeeCircle)
	w[zjuOffSeeGoal] = boolByte(p.SeeGoal)
	putVector3(w[zjuOffRobotPos:], p.RobotPos)
	putVector3(w[zjuOffBallField:], p.BallField)
	putVector3(w[zjuOffBallGlobal:], p.BallGlobal)
	putVector3(w[zjuOffCircleField:], p.CircleField)
	putVector3(w[zjuOffCircleGlobal:], p.CircleGlobal)
	putVector3(w[zjuOffGoalField:], p.GoalField)
	putVector3(w[zjuOffGoalGlobal:], p.GoalGlobal)
	le.PutUint32(w[zjuOffBallQuality:], math.Float32bits(p.BallQuality))
	le.PutUint32(w[zjuOffFieldQuality:], math.Float32bits(p.FieldQuality))
	le.PutUint32(w[zjuOffFieldConsistency:], math.Float32bits(p.FieldConsistency))
	w[zjuOffGCConnected] = boolByte(p.GCConnected)
	w[zjuOffGCState] = p.GCState
	w[zjuOffGCState2] = p.GCState2
	return b, nil
}

// UnmarshalBinary decodes a zju packet into p, overwriting every field. b must be exactly
// [ZJUSize] bytes. Padding bytes are ignored. Every bool byte must be 0 or 1: a C++ bool
// holds nothing else, so another value means the datagram is not a TeamInfo of this
// revision (auto-detection has only the length to go on) and it is rejected with
// [ErrBool]; a role or state the format does not define is rejected with [ErrRange].
// On error p is left unchanged.
func (p *ZJUPacket) UnmarshalBinary(b []byte) error {
	if len(b) != ZJUSize {
		return fmt.Errorf("%w: zju packet needs %d bytes, got %d", ErrLength, ZJUSize, len(b))
	}
	b = b[:ZJUSize]
	var bad error
	rb := func(off int, name string) bool {
		v := b[off]
		if v > 1 && bad == nil {
			bad = fmt.Errorf("%w: zju %s (offset %d) is %d", ErrBool, name, off, v)
		}
		return v != 0
	}
	le := binary.LittleEndian
	q := ZJUPacket{
		TxpTimestamp:      RosTime{le.Uint32(b[zjuOffTxpTimestamp:]), le.Uint32(b[zjuOffTxpTimestamp+4:])},
		RecvTimestamp:     RosTime{le.Uint32(b[zjuOffRecvTimestamp:]), le.Uint32(b[zjuOffRecvTimestamp+4:])},
		PlayerNumber:      b[zjuOffPlayerNumber],
		TeamNumber:        b[zjuOffTeamNumber],
		Test:              b[zjuOffTest],
		Incapacitated:     rb(zjuOffIncapacitated, "incapacitated"),
		Role:              b[zjuOffRole],
		AttackRight:       rb(zjuOffAttackRight, "attack_right"),
		Dest:              getVector3(b[zjuOffDest:]),
		FinalDest:         getVector3(b[zjuOffFinalDest:]),
		AttackTarget:      getVector3(b[zjuOffAttackTarget:]),
		TimeSinceLastKick: math.Float32frombits(le.Uint32(b[zjuOffTimeSinceKick:])),
		State:             b[zjuOffState],
		Priority:          rb(zjuOffPriority, "priority"),
		KickerID:          b[zjuOffKickerID],
		SeeBall:           rb(zjuOffSeeBall, "see_ball"),
		SeeCircle:         rb(zjuOffSeeCircle, "see_circle"),
		SeeGoal:           rb(zjuOffSeeGoal, "see_goal"),
		RobotPos:          getVector3(b[zjuOffRobotPos:]),
		BallField:         getVector3(b[zjuOffBallField:]),
		BallGlobal:        getVector3(b[zjuOffBallGlobal:]),
		CircleField:       getVector3(b[zjuOffCircleField:]),
		CircleGlobal:      getVector3(b[zjuOffCircleGlobal:]),
		GoalField:         getVector3(b[zjuOffGoalField:]),
		GoalGlobal:        getVector3(b[zjuOffGoalGlobal:]),
		BallQuality:       math.Float32frombits(le.Uint32(b[zjuOffBallQuality:])),
		FieldQuality:      math.Float32frombits(le.Uint32(b[zjuOffFieldQuality:])),
		FieldConsistency:  math.Float32frombits(le.Uint32(b[zjuOffFieldConsistency:])),
		GCConnected:       rb(zjuOffGCConnected, "gc_connected"),
		GCState:           b[zjuOffGCState],
		GCState2:          b[zjuOffGCState2],
	}
	for i := range q.MatesOnline {
		off := zjuOffMatesOnline + i
		if v := b[off]; v > 1 && bad == nil {
			bad = fmt.Errorf("%w: zju mates_online[%d] (offset %d) is %d", ErrBool, i, off, v)
		}
		q.MatesOnline[i] = b[off] != 0
	}
	if bad != nil {
		return bad
	}
	if err := zjuCheckEnums(q.Role, q.State); err != nil {
		return err
	}
	*p = q
	return nil
}

// zjuCheckEnums fails with ErrRange for a role or state the format does not define.
func zjuCheckEnums(role, state uint8) error {
	if !Role(role).Valid() {
		return fmt.Errorf("%w: zju role %d > %d", ErrRange, role, RoleOther)
	}
	if !PlayState(state).Valid() {
		return fmt.Errorf("%w: zju state %d > %d", ErrRange, state, PlayAssisting)
	}
	return nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func putVector3(b []byte, v Vector3) {
	_ = b[vector3Size-1]
	binary.LittleEndian.PutUint64(b[0:], math.Float64bits(v.X))
	binary.LittleEndian.PutUint64(b[8:], math.Float64bits(v.Y))
	binary.LittleEndian.PutUint64(b[16:], math.Float64bits(v.Z))
}

func getVector3(b []byte) Vector3 {
	_ = b[vector3Size-1]
	return Vector3{
		X: math.Float64frombits(binary.LittleEndian.Uint64(b[0:])),
		Y: math.Float64frombits(binary.LittleEndian.Uint64(b[8:])),
		Z: math.Float64frombits(binary.LittleEndian.Uint64(b[16:])),
	}
}
