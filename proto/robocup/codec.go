package robocup

import (
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// ErrMalformed is wrapped by every error Decode returns.
var ErrMalformed = errors.New("robocup: malformed message")

// ErrProfile reports an unknown extension profile name.
var ErrProfile = errors.New("robocup: unknown extension profile")

// Extension is an extension profile: which team's fields above 100 a sender writes.
type Extension uint8

// Extension profiles.
const (
	// ExtNone writes the standard fields only, and a colour into current_pose.team.
	ExtNone Extension = iota
	// ExtBitBots writes the Hamburg Bit-Bots' fields 101 and 104–108.
	ExtBitBots
	// ExtNUbots writes NUbots' field 101, the robots' purposes.
	ExtNUbots
)

// ParseExtension parses a profile name: "none", "bitbots" or "nubots".
func ParseExtension(s string) (Extension, error) {
	switch s {
	case "none", "":
		return ExtNone, nil
	case "bitbots":
		return ExtBitBots, nil
	case "nubots":
		return ExtNUbots, nil
	}
	return 0, fmt.Errorf("%w %q (want none, bitbots or nubots)", ErrProfile, s)
}

func (e Extension) String() string {
	switch e {
	case ExtNone:
		return "none"
	case ExtBitBots:
		return "bitbots"
	case ExtNUbots:
		return "nubots"
	}
	return fmt.Sprintf("extension(%d)", uint8(e))
}

// Extension field numbers.
const (
	FieldMaxWalkingSpeed      protowire.Number = 101 // Bit-Bots: float
	FieldPurposes             protowire.Number = 101 // NUbots: message Purposes
	FieldTimeToBall           protowire.Number = 104 // Bit-Bots: float, seconds
	FieldRole                 protowire.Number = 105 // Bit-Bots: enum Role
	FieldAction               protowire.Number = 106 // Bit-Bots: enum Action
	FieldOffensiveSide        protowire.Number = 107 // Bit-Bots: enum OffensiveSide
	FieldOtherRobotConfidence protowire.Number = 108 // Bit-Bots: repeated float
)

// TimeToBallUnknown is the time_to_ball Bit-Bots robots send when they cannot tell.
const TimeToBallUnknown = 9999

// Bit-Bots roles (field 105, enum Role of their robocup_extension.proto).
const (
	RoleUndefined uint32 = iota
	RoleIdling
	RoleOther
	RoleStriker
	RoleSupporter
	RoleDefender
	RoleGoalie
)

// Bit-Bots actions (field 106, enum Action).
const (
	ActionUndefined uint32 = iota
	ActionPositioning
	ActionGoingToBall
	ActionTryingToScore
	ActionWaiting
	ActionKicking
	ActionSearching
	ActionLocalizing
	ActionPassive
)

// NUbots purposes (enum SoccerPosition of their Purposes.proto).
const (
	PurposeDefender uint32 = 0
	PurposeStriker  uint32 = 1
)

// BitBots holds the Bit-Bots extension fields. A proto3 field at its zero value is not
// on the wire, so zero means absent.
type BitBots struct {
	MaxWalkingSpeed      float32 // m/s (field 101, wire type 5)
	TimeToBall           float32 // s; TimeToBallUnknown when unknown
	Role                 uint32
	Action               uint32
	OffensiveSide        uint32
	OtherRobotConfidence []float32 // one per entry of others
}

// Purpose is one entry of NUbots' purposes: a player and its position.
type Purpose struct {
	PlayerID uint32
	Purpose  uint32 // PurposeDefender or PurposeStriker
}

// Packet is one message: the standard fields and the extensions.
type Packet struct {
	Msg *Message
	// BitBots holds fields 101 (as a float) and 104–108; HasBitBots reports whether any
	// of them was on the wire.
	BitBots    BitBots
	HasBitBots bool
	// Purposes is field 101 as NUbots' message; HasPurposes reports it was on the wire.
	Purposes    []Purpose
	HasPurposes bool
}

// TeamField returns what a sender with profile ext writes into current_pose.team: the
// colour for ExtNone (the standard's reading), the team number for the Bit-Bots and
// NUbots profiles (what their robots write).
func TeamField(ext Extension, team uint8, colour Team) Team {
	if ext == ExtNone {
		return colour
	}
	return Team(team)
}

// TeamNumber returns current_pose.team read as a team number (Bit-Bots' and NUbots'
// reading); 0 when it is absent.
func (p *Packet) TeamNumber() uint32 {
	return uint32(p.Msg.GetCurrentPose().GetTeam())
}

// Colour returns current_pose.team read as the colour the standard declares, or
// Team_UNKNOWN_TEAM when the value is no colour (a team number above 2).
func (p *Packet) Colour() Team {
	if t := p.Msg.GetCurrentPose().GetTeam(); t == Team_BLUE || t == Team_RED {
		return t
	}
	return Team_UNKNOWN_TEAM
}

// standardWire gives the wire type of each standard field of Message (1..8).
var standardWire = [9]protowire.Type{
	1: protowire.BytesType, 2: protowire.VarintType, 3: protowire.BytesType, 4: protowire.BytesType,
	5: protowire.BytesType, 6: protowire.BytesType, 7: protowire.BytesType, 8: protowire.BytesType,
}

// Looks reports whether b reads as a standard message: a non-empty sequence of fields
// whose numbers are the standard's (with their wire types) or above 100, that decodes.
// It is how tools recognise the format by content; other formats' packets (a magic at
// the start, a fixed binary image) fail it.
func Looks(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for rest := b; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return false
		}
		switch {
		case num <= 8 && standardWire[num] != typ:
			return false
		case num > 8 && num <= StandardFieldMax:
			return false
		}
		m := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if m < 0 {
			return false
		}
		rest = rest[n+m:]
	}
	var p Packet
	return Decode(b, &p) == nil
}

// Decode parses b into p, reusing p.Msg when it is set. Fields above 100 are read as
// the Bit-Bots or NUbots extension where their wire type fits, and all of them stay in
// the message's unknown fields.
func Decode(b []byte, p *Packet) error {
	msg := p.Msg
	if msg == nil {
		msg = new(Message)
	}
	*p = Packet{Msg: msg}
	if err := (proto.UnmarshalOptions{}).Unmarshal(b, msg); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	for rest := msg.ProtoReflect().GetUnknown(); len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if m < 0 {
			return fmt.Errorf("%w: field %d: %v", ErrMalformed, num, protowire.ParseError(m))
		}
		if err := p.readExtension(num, typ, rest[n:n+m]); err != nil {
			return err
		}
		rest = rest[n+m:]
	}
	return nil
}

// readExtension reads one field above the standard's whose value (tag removed) is v.
// Fields of unknown numbers, or of a wire type no profile gives them, are left alone.
func (p *Packet) readExtension(num protowire.Number, typ protowire.Type, v []byte) error {
	x := &p.BitBots
	switch {
	case num == FieldMaxWalkingSpeed && typ == protowire.Fixed32Type:
		x.MaxWalkingSpeed, p.HasBitBots = fixed32Float(v), true
	case num == FieldPurposes && typ == protowire.BytesType:
		b, _ := protowire.ConsumeBytes(v)
		return p.readPurposes(b)
	case num == FieldTimeToBall && typ == protowire.Fixed32Type:
		x.TimeToBall, p.HasBitBots = fixed32Float(v), true
	case (num == FieldRole || num == FieldAction || num == FieldOffensiveSide) && typ == protowire.VarintType:
		u, _ := protowire.ConsumeVarint(v)
		e := uint32(u) // a proto3 enum is an int32 on the wire
		switch num {
		case FieldRole:
			x.Role = e
		case FieldAction:
			x.Action = e
		default:
			x.OffensiveSide = e
		}
		p.HasBitBots = true
	case num == FieldOtherRobotConfidence && typ == protowire.Fixed32Type:
		x.OtherRobotConfidence, p.HasBitBots = append(x.OtherRobotConfidence, fixed32Float(v)), true
	case num == FieldOtherRobotConfidence && typ == protowire.BytesType: // packed
		b, _ := protowire.ConsumeBytes(v)
		if len(b)%4 != 0 {
			return fmt.Errorf("%w: field 108: packed floats of %d bytes", ErrMalformed, len(b))
		}
		for ; len(b) > 0; b = b[4:] {
			x.OtherRobotConfidence = append(x.OtherRobotConfidence, fixed32Float(b))
		}
		p.HasBitBots = true
	}
	return nil
}

// readPurposes reads NUbots' Purposes message b (several occurrences of field 101
// merge, as protobuf merges them).
func (p *Packet) readPurposes(b []byte) error {
	p.HasPurposes = true
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%w: purposes: %v", ErrMalformed, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return fmt.Errorf("%w: purposes: %v", ErrMalformed, protowire.ParseError(m))
		}
		if num == 1 && typ == protowire.BytesType {
			e, _ := protowire.ConsumeBytes(b[n : n+m])
			pu, err := readPurpose(e)
			if err != nil {
				return err
			}
			p.Purposes = append(p.Purposes, pu)
		}
		b = b[n+m:]
	}
	return nil
}

// readPurpose reads one Purposes.Purpose message.
func readPurpose(b []byte) (Purpose, error) {
	var pu Purpose
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return pu, fmt.Errorf("%w: purpose: %v", ErrMalformed, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return pu, fmt.Errorf("%w: purpose: %v", ErrMalformed, protowire.ParseError(m))
		}
		if (num == 1 || num == 2) && typ == protowire.VarintType {
			u, _ := protowire.ConsumeVarint(b[n : n+m])
			if num == 1 {
				pu.PlayerID = uint32(u)
			} else {
				pu.Purpose = uint32(u)
			}
		}
		b = b[n+m:]
	}
	return pu, nil
}

func fixed32Float(v []byte) float32 {
	u, _ := protowire.ConsumeFixed32(v)
	return math.Float32frombits(u)
}

// Append appends the message p to b: the standard fields of p.Msg (deterministically,
// without its unknown fields), then the extension fields of profile ext taken from p
// (none for ExtNone). Zero values are not written, as protobuf writes proto3 fields.
func Append(b []byte, p *Packet, ext Extension) ([]byte, error) {
	r := p.Msg.ProtoReflect()
	unknown := r.GetUnknown()
	if len(unknown) > 0 {
		r.SetUnknown(nil)
		defer r.SetUnknown(unknown)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.MarshalAppend(b, p.Msg)
	if err != nil {
		return b, err
	}
	switch ext {
	case ExtBitBots:
		x := &p.BitBots
		b = appendFloat(b, FieldMaxWalkingSpeed, x.MaxWalkingSpeed)
		b = appendFloat(b, FieldTimeToBall, x.TimeToBall)
		b = appendEnum(b, FieldRole, x.Role)
		b = appendEnum(b, FieldAction, x.Action)
		b = appendEnum(b, FieldOffensiveSide, x.OffensiveSide)
		if n := len(x.OtherRobotConfidence); n > 0 {
			b = protowire.AppendTag(b, FieldOtherRobotConfidence, protowire.BytesType)
			b = protowire.AppendVarint(b, uint64(4*n))
			for _, f := range x.OtherRobotConfidence {
				b = protowire.AppendFixed32(b, math.Float32bits(f))
			}
		}
	case ExtNUbots:
		if len(p.Purposes) > 0 {
			var inner []byte
			for _, pu := range p.Purposes {
				var e []byte
				if pu.PlayerID != 0 {
					e = protowire.AppendTag(e, 1, protowire.VarintType)
					e = protowire.AppendVarint(e, uint64(pu.PlayerID))
				}
				if pu.Purpose != 0 {
					e = protowire.AppendTag(e, 2, protowire.VarintType)
					e = protowire.AppendVarint(e, uint64(pu.Purpose))
				}
				inner = protowire.AppendTag(inner, 1, protowire.BytesType)
				inner = protowire.AppendBytes(inner, e)
			}
			b = protowire.AppendTag(b, FieldPurposes, protowire.BytesType)
			b = protowire.AppendBytes(b, inner)
		}
	case ExtNone:
	default:
		return b, fmt.Errorf("%w: %v", ErrProfile, ext)
	}
	return b, nil
}

func appendFloat(b []byte, num protowire.Number, f float32) []byte {
	if f == 0 && !math.Signbit(float64(f)) {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, math.Float32bits(f))
}

func appendEnum(b []byte, num protowire.Number, v uint32) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(int64(int32(v))))
}
