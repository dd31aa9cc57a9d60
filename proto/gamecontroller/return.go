package gamecontroller

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// Return packet versions and sizes.
const (
	ReturnVersionHL   = 2 // HL: 8 bytes, team before player, messages 0..4
	ReturnVersionSPL3 = 3 // old SPL (2018 … 2021): 8 bytes, message ALIVE 0 only
	ReturnVersion     = 4 // SPL 2022 on and HSL: 32 bytes, player before team, pose and ball

	ReturnSizeV2 = 8
	ReturnSizeV3 = 8
	ReturnSizeV4 = 32

	// MaxReturnPlayer is the highest player number the GameControllers accept (1-based).
	MaxReturnPlayer = 20
)

// Return packet offsets.
const (
	retOffTeamV2    = 5
	retOffPlayerV2  = 6
	retOffMessageV2 = 7
	retOffPlayerV4  = 5
	retOffTeamV4    = 6
	retOffFallen    = 7
	retOffPose      = 8
	retOffBallAge   = 20
	retOffBall      = 24
)

// ReturnPacket is RoboCupGameControlReturnData ("RGrt") of version 2, 3 or 4.
type ReturnPacket struct {
	Version uint8 // ReturnVersionHL, ReturnVersionSPL3 or ReturnVersion
	Team    uint8 // team number
	Player  uint8 // player number, 1..MaxReturnPlayer
	Message ReturnMessage

	// Version 4 only.
	Fallen  bool
	Pose    [3]float32 // x, y in mm, θ in rad; origin at the field centre, +x towards the opponent goal
	BallAge float32    // seconds since the ball was last seen, −1 if never
	Ball    [2]float32 // ball relative to the robot in mm
}

// NewAlive returns the 32-byte version 4 packet a robot sends when it has nothing to
// report: not fallen, pose and ball zero, ball never seen.
func NewAlive(team, player uint8) ReturnPacket {
	return ReturnPacket{Version: ReturnVersion, Team: team, Player: player, BallAge: -1}
}

// Size returns the wire size of the packet's version, or 0 for an unknown version.
func (r *ReturnPacket) Size() int {
	switch r.Version {
	case ReturnVersionHL:
		return ReturnSizeV2
	case ReturnVersionSPL3:
		return ReturnSizeV3
	case ReturnVersion:
		return ReturnSizeV4
	}
	return 0
}

// DecodeReturn decodes b into r; see ReturnPacket.UnmarshalBinary.
func DecodeReturn(b []byte, r *ReturnPacket) error { return r.UnmarshalBinary(b) }

// UnmarshalBinary decodes a return packet with the GameControllers' acceptance rules:
// header "RGrt", a known version, exactly the version's length, 1 ≤ player ≤ 20; v2
// message 0..4, v3 message 0; v4 fallen 0 or 1 and every float finite (the GameController
// itself rejects only NaN; ±Inf is rejected here too). On error r is zeroed.
func (r *ReturnPacket) UnmarshalBinary(b []byte) error {
	*r = ReturnPacket{}
	if len(b) < offVersion+1 {
		return errorf(ErrLength, "%d bytes are too short for a return packet header and version", len(b))
	}
	if string(b[:4]) != MagicReturn {
		return errorf(ErrHeader, "return packet header %q, want %q", b[:4], MagicReturn)
	}
	v := ReturnPacket{Version: b[offVersion]}
	want := v.Size()
	if want == 0 {
		return errorf(ErrVersion, "unknown return packet version %d (%d bytes)", v.Version, len(b))
	}
	if len(b) != want {
		return errorf(ErrLength, "return packet version %d needs %d bytes, got %d", v.Version, want, len(b))
	}
	if v.Version == ReturnVersion {
		v.Player = b[retOffPlayerV4]
		v.Team = b[retOffTeamV4]
		switch b[retOffFallen] {
		case 0:
		case 1:
			v.Fallen = true
		default:
			return rangeErr("fallen", float64(b[retOffFallen]), "0 or 1 in return packet v4")
		}
		for i := range v.Pose {
			v.Pose[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[retOffPose+4*i:]))
		}
		v.BallAge = math.Float32frombits(binary.LittleEndian.Uint32(b[retOffBallAge:]))
		for i := range v.Ball {
			v.Ball[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[retOffBall+4*i:]))
		}
	} else {
		v.Team = b[retOffTeamV2]
		v.Player = b[retOffPlayerV2]
		v.Message = ReturnMessage(b[retOffMessageV2])
	}
	if err := v.check(); err != nil {
		return err
	}
	*r = v
	return nil
}

func (r *ReturnPacket) check() error {
	switch r.Version {
	case ReturnVersionHL, ReturnVersionSPL3, ReturnVersion:
	default:
		return errorf(ErrVersion, "unknown return packet version %d", r.Version)
	}
	if r.Player < 1 || r.Player > MaxReturnPlayer {
		field := "player"
		if r.Version == ReturnVersion {
			field = "playerNum"
		}
		return rangeErr(field, float64(r.Player), fmt.Sprintf("1..%d", MaxReturnPlayer))
	}
	switch r.Version {
	case ReturnVersionHL:
		if r.Message > MsgGameInterruptionReady {
			return rangeErr("message", float64(r.Message), "0..4 in return packet v2")
		}
	case ReturnVersionSPL3:
		if r.Message != MsgAliveV3 {
			return rangeErr("message", float64(r.Message), "0 (ALIVE) in return packet v3")
		}
	case ReturnVersion:
		for i, f := range r.Pose {
			if !finite(f) {
				return rangeErr(fmt.Sprintf("pose[%d]", i), float64(f), "a finite number")
			}
		}
		if !finite(r.BallAge) {
			return rangeErr("ballAge", float64(r.BallAge), "a finite number")
		}
		for i, f := range r.Ball {
			if !finite(f) {
				return rangeErr(fmt.Sprintf("ball[%d]", i), float64(f), "a finite number")
			}
		}
	}
	return nil
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

// MarshalBinary encodes r.
func (r *ReturnPacket) MarshalBinary() ([]byte, error) {
	return r.AppendBinary(make([]byte, 0, ReturnSizeV4))
}

// AppendBinary appends the encoding of r to b after applying the decoder's checks, so a
// packet that encodes is one the GameController accepts. Fields the version does not
// carry are ignored. It does not allocate when b has room.
func (r *ReturnPacket) AppendBinary(b []byte) ([]byte, error) {
	if err := r.check(); err != nil {
		return b, err
	}
	size := r.Size()
	n := len(b)
	b = slices.Grow(b, size)[:n+size]
	out := b[n:]
	copy(out, MagicReturn)
	out[offVersion] = r.Version
	if r.Version == ReturnVersion {
		out[retOffPlayerV4] = r.Player
		out[retOffTeamV4] = r.Team
		out[retOffFallen] = boolByte(r.Fallen)
		for i, f := range r.Pose {
			binary.LittleEndian.PutUint32(out[retOffPose+4*i:], math.Float32bits(f))
		}
		binary.LittleEndian.PutUint32(out[retOffBallAge:], math.Float32bits(r.BallAge))
		for i, f := range r.Ball {
			binary.LittleEndian.PutUint32(out[retOffBall+4*i:], math.Float32bits(f))
		}
		return b, nil
	}
	out[retOffTeamV2] = r.Team
	out[retOffPlayerV2] = r.Player
	out[retOffMessageV2] = uint8(r.Message)
	return b, nil
}
