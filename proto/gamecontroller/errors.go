package gamecontroller

import (
	"errors"
	"fmt"
	"math"
)

// Sentinel errors. Every error returned by this package wraps exactly one of them, so
// callers branch with errors.Is; the message says what exactly was wrong.
var (
	// ErrLength reports a packet whose length does not match its header and version.
	ErrLength = errors.New("gamecontroller: bad length")
	// ErrHeader reports a packet that does not start with "RGme", "RGTD" or "RGrt".
	ErrHeader = errors.New("gamecontroller: bad header")
	// ErrVersion reports an unknown version number or an unset Layout.
	ErrVersion = errors.New("gamecontroller: unknown version")
	// ErrRange reports a field whose value the packet's version does not define.
	// The error is a *RangeError that names the field.
	ErrRange = errors.New("gamecontroller: value out of range")
	// ErrNotOurTeam reports a control packet whose two teams are both not our team.
	ErrNotOurTeam = errors.New("gamecontroller: packet is not for our team")
)

// RangeError reports a field whose value is outside the range its version defines.
// errors.Is(err, ErrRange) is true for every *RangeError.
type RangeError struct {
	// Field names the field the way the C header does, with indices where needed,
	// e.g. "state" or "teams[1].players[3].penalty".
	Field string
	// Value is the offending value (integers are exact; floats may be NaN or ±Inf).
	Value float64
	// Want describes the accepted values and the layout, e.g. "0..4 in spl16".
	Want string
}

func (e *RangeError) Error() string {
	v := fmt.Sprint(e.Value)
	if e.Value == math.Trunc(e.Value) && !math.IsInf(e.Value, 0) {
		v = fmt.Sprintf("%d", int64(e.Value))
	}
	return fmt.Sprintf("gamecontroller: %s = %s out of range, want %s", e.Field, v, e.Want)
}

// Is makes errors.Is(err, ErrRange) true.
func (e *RangeError) Is(target error) bool { return target == ErrRange }

func rangeErr(field string, v float64, want string) error {
	return &RangeError{Field: field, Value: v, Want: want}
}

// detailError carries a sentinel and a message that says exactly what was wrong.
type detailError struct {
	kind error
	msg  string
}

func (e *detailError) Error() string { return "gamecontroller: " + e.msg }
func (e *detailError) Unwrap() error { return e.kind }

func errorf(kind error, format string, args ...any) error {
	return &detailError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
