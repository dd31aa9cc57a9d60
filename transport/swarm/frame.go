package swarm

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Frame sizes.
const (
	// Magic starts every swarm frame.
	Magic = "SWRM"
	// Version is the frame version this package writes and accepts.
	Version = 1
	// HeaderSize is the fixed part of the header: magic 4, version 1, kind 1, port 2,
	// source name length 1, destination name length 1.
	HeaderSize = 4 + 1 + 1 + 2 + 1 + 1
	// MaxNameLen is the longest robot name (an IPv4 literal needs 15).
	MaxNameLen = 63
	// MaxPayload is the largest payload of one SendTo, the kMtu of osrf/swarm.
	MaxPayload = 1500
	// MaxFrameSize is the largest frame on the wire.
	MaxFrameSize = HeaderSize + 2*MaxNameLen + MaxPayload
)

// Header offsets.
const (
	offVersion = 4
	offKind    = 5
	offPort    = 6
	offSrcLen  = 8
	offDstLen  = 9
)

// Kind is the virtual destination kind of a frame.
type Kind uint8

const (
	// KindUnicast frames are for the robot named in the destination field.
	KindUnicast Kind = 1
	// KindBroadcast frames are for every robot bound to its own address on the port.
	KindBroadcast Kind = 2
	// KindMulticast frames are for every robot bound to "multicast" on the port.
	KindMulticast Kind = 3
)

// String returns "unicast", "broadcast" or "multicast".
func (k Kind) String() string {
	switch k {
	case KindUnicast:
		return "unicast"
	case KindBroadcast:
		return Broadcast
	case KindMulticast:
		return Multicast
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Errors of the frame codec.
var (
	ErrShort     = errors.New("swarm: frame too short")
	ErrMagic     = errors.New("swarm: bad magic")
	ErrVersion   = errors.New("swarm: unsupported version")
	ErrKind      = errors.New("swarm: bad destination kind")
	ErrName      = errors.New("swarm: bad robot name")
	ErrTooLarge  = errors.New("swarm: payload too large")
	ErrBadHeader = errors.New("swarm: inconsistent header")
)

// Frame is one swarm datagram. Its wire format (integers big-endian):
//
//	offset     size  field
//	0          4     magic "SWRM"
//	4          1     version, 1
//	5          1     destination kind: 1 unicast, 2 broadcast, 3 multicast
//	6          2     destination port (the virtual port, e.g. 4100)
//	8          1     source name length S, 1..63
//	9          1     destination name length D: 1..63 for unicast, 0 otherwise
//	10         S     source name: the sender's Host()
//	10+S       D     destination name: the address the sender used
//	10+S+D     ..    payload, 0..1500 bytes (the rest of the datagram)
//
// Names are robot names or IPv4 literals: 1..63 bytes of [A-Za-z0-9._-].
type Frame struct {
	Kind    Kind
	Port    uint16
	Src     string
	Dst     string // unicast only
	Payload []byte
}

// Size returns the frame's length on the wire.
func (f *Frame) Size() int { return HeaderSize + len(f.Src) + len(f.Dst) + len(f.Payload) }

// MarshalBinary returns the frame's wire bytes.
func (f *Frame) MarshalBinary() ([]byte, error) { return f.AppendBinary(make([]byte, 0, f.Size())) }

// AppendBinary appends the frame's wire bytes to b.
func (f *Frame) AppendBinary(b []byte) ([]byte, error) {
	if err := checkFrame(f.Kind, f.Src, f.Dst, len(f.Payload)); err != nil {
		return b, err
	}
	b = append(b, Magic...)
	b = append(b, Version, byte(f.Kind))
	b = binary.BigEndian.AppendUint16(b, f.Port)
	b = append(b, byte(len(f.Src)), byte(len(f.Dst)))
	b = append(b, f.Src...)
	b = append(b, f.Dst...)
	return append(b, f.Payload...), nil
}

// checkFrame validates the parts of a frame before it is written.
func checkFrame(k Kind, src, dst string, payload int) error {
	if err := CheckName(src); err != nil {
		return fmt.Errorf("source: %w", err)
	}
	switch k {
	case KindUnicast:
		if err := CheckName(dst); err != nil {
			return fmt.Errorf("destination: %w", err)
		}
	case KindBroadcast, KindMulticast:
		if dst != "" {
			return fmt.Errorf("%w: %v frame with destination name %q", ErrBadHeader, k, dst)
		}
	default:
		return fmt.Errorf("%w: %d", ErrKind, uint8(k))
	}
	if payload > MaxPayload {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, payload, MaxPayload)
	}
	return nil
}

// UnmarshalBinary decodes a frame; the Payload is a copy of b's bytes.
func (f *Frame) UnmarshalBinary(b []byte) error {
	h, err := parse(b)
	if err != nil {
		return err
	}
	*f = Frame{Kind: h.kind, Port: h.port, Src: string(h.src), Dst: string(h.dst), Payload: append([]byte(nil), h.payload...)}
	return nil
}

// header is a parsed frame whose byte fields alias the datagram.
type header struct {
	kind     Kind
	port     uint16
	src, dst []byte
	payload  []byte
}

// parse checks and splits a frame without copying.
func parse(b []byte) (header, error) {
	if len(b) < HeaderSize {
		return header{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrShort, len(b), HeaderSize)
	}
	if string(b[:len(Magic)]) != Magic {
		return header{}, fmt.Errorf("%w: % x", ErrMagic, b[:len(Magic)])
	}
	if b[offVersion] != Version {
		return header{}, fmt.Errorf("%w: %d, want %d", ErrVersion, b[offVersion], Version)
	}
	h := header{kind: Kind(b[offKind]), port: binary.BigEndian.Uint16(b[offPort:])}
	srcLen, dstLen := int(b[offSrcLen]), int(b[offDstLen])
	switch h.kind {
	case KindUnicast:
		if dstLen == 0 {
			return header{}, fmt.Errorf("%w: unicast frame without destination name", ErrBadHeader)
		}
	case KindBroadcast, KindMulticast:
		if dstLen != 0 {
			return header{}, fmt.Errorf("%w: %v frame with a %d-byte destination name", ErrBadHeader, h.kind, dstLen)
		}
	default:
		return header{}, fmt.Errorf("%w: %d", ErrKind, b[offKind])
	}
	if len(b) < HeaderSize+srcLen+dstLen {
		return header{}, fmt.Errorf("%w: %d bytes, header with names needs %d", ErrShort, len(b), HeaderSize+srcLen+dstLen)
	}
	h.src = b[HeaderSize : HeaderSize+srcLen]
	h.dst = b[HeaderSize+srcLen : HeaderSize+srcLen+dstLen]
	h.payload = b[HeaderSize+srcLen+dstLen:]
	if err := checkName(h.src); err != nil {
		return header{}, fmt.Errorf("source: %w", err)
	}
	if dstLen > 0 {
		if err := checkName(h.dst); err != nil {
			return header{}, fmt.Errorf("destination: %w", err)
		}
	}
	if len(h.payload) > MaxPayload {
		return header{}, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(h.payload), MaxPayload)
	}
	return h, nil
}

// CheckName reports whether s can be a robot name on the wire: 1..63 bytes of
// [A-Za-z0-9._-], and not one of the destination words "broadcast" and "multicast".
func CheckName(s string) error { return checkName(s) }

func checkName[T string | []byte](b T) error {
	if len(b) == 0 || len(b) > MaxNameLen {
		return fmt.Errorf("%w: length %d outside 1..%d", ErrName, len(b), MaxNameLen)
	}
	for i := range len(b) {
		if !nameByte(b[i]) {
			return fmt.Errorf("%w: byte %#02x in %q", ErrName, b[i], b)
		}
	}
	if string(b) == Broadcast || string(b) == Multicast {
		return fmt.Errorf("%w: %q is reserved", ErrName, b)
	}
	return nil
}

func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_'
}
