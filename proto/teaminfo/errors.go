package teaminfo

import "errors"

// Sentinel errors. Decoders and encoders wrap them with %w and a message that names the
// offending field or size; callers branch with errors.Is.
var (
	// ErrLength reports a packet whose size does not match its format (and, for dnet, its
	// tag flag).
	ErrLength = errors.New("teaminfo: bad packet length")
	// ErrBool reports a zju bool byte that is neither 0 nor 1.
	ErrBool = errors.New("teaminfo: bool byte is not 0 or 1")
	// ErrMagic reports a dnet packet that does not start with [DNetMagic].
	ErrMagic = errors.New("teaminfo: bad dnet magic")
	// ErrVersion reports a dnet packet of a version this package does not speak.
	ErrVersion = errors.New("teaminfo: unsupported dnet version")
	// ErrReserved reports a reserved dnet bit that is set.
	ErrReserved = errors.New("teaminfo: reserved bit set")
	// ErrRange reports a value the format cannot carry: on encode, and on decode a count,
	// role or play state out of its range.
	ErrRange = errors.New("teaminfo: value out of range")
	// ErrAuth reports a dnet packet that failed authentication: its tag does not match the
	// key, or it carries no tag although a key is required. The message gives no detail
	// about the expected tag.
	ErrAuth = errors.New("teaminfo: authentication failed")
	// ErrChecksum reports an unsigned dnet packet whose CRC-32C does not match its bytes:
	// it was corrupted on the way.
	ErrChecksum = errors.New("teaminfo: dnet checksum mismatch")
	// ErrKey reports an unusable authentication key.
	ErrKey = errors.New("teaminfo: bad key")
)
