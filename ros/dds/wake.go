package dds

import (
	"errors"
	"fmt"
	"math"
)

// WakeOp is one step of a WakeRule.
type WakeOp uint32

// The steps of a WakeRule. They walk a sample's CDR body (little-endian XCDR1; offsets
// and alignment count from the end of the 4-byte encapsulation header) and append
// bytes to the sample's key.
const (
	WakeSkip   WakeOp = 1 + iota // skip N bytes
	WakeAlign                    // align to N bytes (1, 2, 4 or 8)
	WakeString                   // skip a string: align 4, a uint32 length, that many bytes
	WakeByte                     // append the byte here to the key and skip it
	// WakeClass2 aligns to 8, reads two float64 x and y and skips 16 bytes. It appends
	// 0 when the key's last byte is 0 (the class counts only while that flag is set),
	// else the class of v = hypot(x, y) / Div: 1 below Limits[0], 2 below Limits[1],
	// 3 otherwise (NaN included). A v within a rounding error of a limit makes the
	// sample wake whatever the key.
	WakeClass2
)

// WakeStep is one step of a WakeRule.
type WakeStep struct {
	Op     WakeOp
	N      uint32     // WakeSkip, WakeAlign
	Div    float64    // WakeClass2
	Limits [2]float64 // WakeClass2, Limits[0] <= Limits[1]
}

// WakeRule says which samples of a deferred reader (Reader.Defer) wake its goroutine
// at once: a sample whose key (the bytes the steps append) differs from the previous
// sample's, the first sample, and every sample the rule cannot walk or is unsure of.
// The other samples wait in the ring until Reader.Sync, or until a sample that wakes
// the goroutine, or until the ring is half full. A rule is evaluated in C on
// Cyclone's receive thread, so it is data, not code: the handler's own decision (say,
// "this input changes the send rate") must be a function of the key for deferral to
// change nothing.
type WakeRule []WakeStep

// Limits of a WakeRule.
const (
	MaxWakeSteps = 16 // steps in a rule
	MaxWakeKey   = 16 // bytes in a key
)

// ErrWakeRule reports a WakeRule that cannot be evaluated.
var ErrWakeRule = errors.New("dds: bad wake rule")

// Validate reports whether the rule can be evaluated: at most MaxWakeSteps steps,
// known operations, alignments of 1, 2, 4 or 8, at most MaxWakeKey key bytes, a
// WakeClass2 after a WakeByte with a positive finite Div and ordered limits.
func (w WakeRule) Validate() error {
	if len(w) > MaxWakeSteps {
		return fmt.Errorf("%w: %d steps (at most %d)", ErrWakeRule, len(w), MaxWakeSteps)
	}
	key := 0
	for i, s := range w {
		switch s.Op {
		case WakeSkip, WakeString:
		case WakeAlign:
			if s.N != 1 && s.N != 2 && s.N != 4 && s.N != 8 {
				return fmt.Errorf("%w: step %d aligns to %d", ErrWakeRule, i, s.N)
			}
		case WakeByte:
			key++
		case WakeClass2:
			if key == 0 {
				return fmt.Errorf("%w: step %d classifies without a flag byte before it", ErrWakeRule, i)
			}
			if !(s.Div > 0) || math.IsInf(s.Div, 0) || !(s.Limits[0] <= s.Limits[1]) {
				return fmt.Errorf("%w: step %d: divisor %v, limits %v", ErrWakeRule, i, s.Div, s.Limits)
			}
			key++
		default:
			return fmt.Errorf("%w: step %d has operation %d", ErrWakeRule, i, s.Op)
		}
	}
	if key > MaxWakeKey {
		return fmt.Errorf("%w: %d key bytes (at most %d)", ErrWakeRule, key, MaxWakeKey)
	}
	return nil
}
