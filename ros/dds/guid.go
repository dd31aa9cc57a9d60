package dds

import (
	"encoding/hex"
	"strings"
)

// GUID is an RTPS GUID in network byte order: the 12-byte participant prefix followed
// by the 4-byte entity id. ROS uses these 16 bytes as the GID of a participant, reader
// or writer (zero-padded to 24 bytes on Humble).
type GUID [16]byte

// GUIDSize is the size of a GUID on the wire.
const GUIDSize = 16

// RTPS entity kinds (the last byte of the entity id) that ROS endpoints use.
const (
	EntityKindParticipant   = 0xc1 // built-in participant
	EntityKindWriterNoKey   = 0x03 // user writer of a key-less topic
	EntityKindReaderNoKey   = 0x04 // user reader of a key-less topic
	EntityKindWriterWithKey = 0x02
	EntityKindReaderWithKey = 0x07
)

// Prefix returns the participant part of g.
func (g GUID) Prefix() [12]byte { return [12]byte(g[:12]) }

// EntityKind returns the RTPS entity kind byte of g.
func (g GUID) EntityKind() byte { return g[15] }

// ParticipantGUID returns the GUID of the participant that owns the entity g.
func (g GUID) ParticipantGUID() GUID {
	var p GUID
	copy(p[:12], g[:12])
	p[12], p[13], p[14], p[15] = 0, 0, 1, EntityKindParticipant
	return p
}

// IsZero reports whether g is all zeros.
func (g GUID) IsZero() bool { return g == GUID{} }

// String formats g as four colon-separated groups of 8 hex digits: the three
// words of the prefix and the entity id, e.g. "01103f2a:9c1d0000:01000000:000001c1".
func (g GUID) String() string {
	var sb strings.Builder
	sb.Grow(35)
	for i := 0; i < 16; i += 4 {
		if i > 0 {
			sb.WriteByte(':')
		}
		sb.WriteString(hex.EncodeToString(g[i : i+4]))
	}
	return sb.String()
}

// InstanceHandle is Cyclone's process-local 64-bit handle of an entity or of a
// discovered remote entity. rmw_cyclonedds puts the request writer's handle into the
// request header of every service call.
type InstanceHandle uint64
