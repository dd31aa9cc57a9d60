package worldinfo

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Protocol constants.
const (
	Magic   = 0xBEEF // first two header bytes, big-endian
	Version = 2      // the only version Fawkes accepts

	HeaderSize       = 8    // sizeof(worldinfo_header_t)
	RecordHeaderSize = 4    // sizeof(worldinfo_message_header_t)
	MTU              = 1400 // largest plaintext datagram, header included (WORLDINFO_MTU)
	BlockSize        = 16   // AES block size
	// MaxCiphertext is the largest ciphertext of a valid datagram: 1400 bytes padded.
	MaxCiphertext = (MTU/BlockSize + 1) * BlockSize // 1408
	// RecvBufferSize is the receive size Fawkes uses (MTU + one block); longer datagrams
	// arrive truncated there.
	RecvBufferSize = MTU + BlockSize // 1416

	FatOpponents = 10 // opponent slots in a fat record (WORLDINFO_FATMSG_NUMOPPS)
	Cov3Len      = 9  // floats in a 3x3 covariance
	Cov2Len      = 4  // floats in a 2x2 covariance

	DefaultKey  = "AllemaniACsX0rz" // Fawkes' default key string (worldmodel.yaml)
	DefaultIV   = "DoesAnyOneCare"  // Fawkes' default IV string; unused by ECB
	DefaultPort = 2806              // Fawkes' default UDP port
	// DefaultGroup is Fawkes' default multicast group.
	DefaultGroup = "224.16.0.1"
)

// Header offsets.
const (
	offMagic    = 0
	offVersion  = 2
	offReserved = 3
	offSeq      = 4
)

// Sentinel errors. Decoding errors wrap one of them with details.
var (
	ErrShort        = errors.New("worldinfo: datagram too short")
	ErrMagic        = errors.New("worldinfo: bad magic")
	ErrVersion      = errors.New("worldinfo: unsupported version")
	ErrTooLong      = errors.New("worldinfo: datagram exceeds 1400 bytes")
	ErrTruncated    = errors.New("worldinfo: truncated record")
	ErrUnknownType  = errors.New("worldinfo: unknown record type")
	ErrSize         = errors.New("worldinfo: record size does not match its type")
	ErrCipherLength = errors.New("worldinfo: ciphertext length is not a positive multiple of 16")
	ErrPadding      = errors.New("worldinfo: bad padding (wrong key?)")
	ErrCovariance   = errors.New("worldinfo: covariance has the wrong number of values")
)

// RangeError reports a field value that does not fit its bit-field.
type RangeError struct {
	Field    string
	Value    int64
	Min, Max int64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("worldinfo: %s %d out of range [%d, %d]", e.Field, e.Value, e.Min, e.Max)
}

func checkRange(field string, v, lo, hi int64) error {
	if v < lo || v > hi {
		return &RangeError{Field: field, Value: v, Min: lo, Max: hi}
	}
	return nil
}

// Header is the 8-byte datagram header. Magic and version are implied.
type Header struct {
	// Reserved is header byte 3. Fawkes never initialises it, so decoders accept any value;
	// encoders write what is given (0 by default).
	Reserved uint8
	// Seq is the sender's sequence number.
	Seq uint32
}

// AppendBinary appends the 8 header bytes to b.
func (h *Header) AppendBinary(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, Magic)
	b = append(b, Version, h.Reserved)
	return binary.BigEndian.AppendUint32(b, h.Seq), nil
}

// MarshalBinary returns the 8 header bytes.
func (h *Header) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, HeaderSize))
}

// UnmarshalBinary decodes the header from the first 8 bytes of b; the rest of b (the
// records) is ignored. It checks magic and version.
func (h *Header) UnmarshalBinary(b []byte) error {
	if len(b) < HeaderSize {
		return fmt.Errorf("%w: header needs %d bytes, got %d", ErrShort, HeaderSize, len(b))
	}
	if m := binary.BigEndian.Uint16(b[offMagic:]); m != Magic {
		return fmt.Errorf("%w: %#04x, want %#04x", ErrMagic, m, Magic)
	}
	if v := b[offVersion]; v != Version {
		return fmt.Errorf("%w: %d, want %d", ErrVersion, v, Version)
	}
	*h = Header{Reserved: b[offReserved], Seq: binary.BigEndian.Uint32(b[offSeq:])}
	return nil
}

// RecordType is the type of a record.
type RecordType uint16

// Record types (worldinfo_msgid_t).
const (
	TypePose               RecordType = 1
	TypeVelocity           RecordType = 2
	TypeRelBall            RecordType = 3
	TypeRelBallVelocity    RecordType = 4
	TypeOpponent           RecordType = 5
	TypeOpponentDisapp     RecordType = 6
	TypeFat                RecordType = 7
	TypeGameState          RecordType = 8
	TypePenalty            RecordType = 9
	TypeGlobalBall         RecordType = 10
	TypeGlobalBallVelocity RecordType = 11
)

var typeNames = [...]string{
	TypePose:               "pose",
	TypeVelocity:           "velocity",
	TypeRelBall:            "relative_ball",
	TypeRelBallVelocity:    "relative_ball_velocity",
	TypeOpponent:           "opponent",
	TypeOpponentDisapp:     "opponent_disappeared",
	TypeFat:                "fat",
	TypeGameState:          "game_state",
	TypePenalty:            "penalty",
	TypeGlobalBall:         "global_ball",
	TypeGlobalBallVelocity: "global_ball_velocity",
}

var bodySizes = [...]int{
	TypePose:               PoseSize,
	TypeVelocity:           VelocitySize,
	TypeRelBall:            BallSize,
	TypeRelBallVelocity:    VelocitySize,
	TypeOpponent:           OpponentSize,
	TypeOpponentDisapp:     OpponentDisappSize,
	TypeFat:                FatSize,
	TypeGameState:          WordSize,
	TypePenalty:            WordSize,
	TypeGlobalBall:         BallSize,
	TypeGlobalBallVelocity: VelocitySize,
}

// Known reports whether t is one of the eleven record types.
func (t RecordType) Known() bool { return t >= TypePose && t <= TypeGlobalBallVelocity }

// String returns the snake_case name of t, or "type_N" for unknown types.
func (t RecordType) String() string {
	if t.Known() {
		return typeNames[t]
	}
	return fmt.Sprintf("type_%d", uint16(t))
}

// BodySize returns the body size of a record of type t, and false for unknown types.
func BodySize(t RecordType) (int, bool) {
	if !t.Known() {
		return 0, false
	}
	return bodySizes[t], true
}
