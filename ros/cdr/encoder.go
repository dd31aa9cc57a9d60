package cdr

import (
	"encoding/binary"
	"fmt"
	"math"
)

// HeaderSize is the size of the encapsulation header in front of every sample.
const HeaderSize = 4

// Encapsulation representation identifiers (first two header bytes, big-endian).
const (
	ReprCDRBE = 0x0000 // plain CDR, big-endian
	ReprCDRLE = 0x0001 // plain CDR, little-endian
)

// An Encoder appends a CDR_LE sample to a byte slice. Alignment is counted from the
// first byte after the encapsulation header. The zero Encoder is not usable; call
// [NewEncoder] or [Encoder.Reset].
type Encoder struct {
	buf    []byte
	origin int // index in buf of the first body byte
	err    error
}

// NewEncoder returns an Encoder that writes the encapsulation header 00 01 00 00
// into buf[:0] and appends the body after it, reusing buf's capacity.
func NewEncoder(buf []byte) *Encoder {
	e := new(Encoder)
	e.Reset(buf[:0])
	return e
}

// Reset makes e append a new sample (header and body) to dst, keeping dst[:len(dst)]
// untouched, and clears any recorded error.
func (e *Encoder) Reset(dst []byte) {
	e.buf = append(dst, 0x00, ReprCDRLE, 0x00, 0x00)
	e.origin = len(e.buf)
	e.err = nil
}

// Bytes returns everything written so far, header included, without trailing padding.
func (e *Encoder) Bytes() []byte { return e.buf }

// Finish pads the sample with zero bytes to a multiple of 4 bytes, counted from the
// start of the header, as rmw_cyclonedds does (the option bytes stay 00 00), and
// returns it.
func (e *Encoder) Finish() []byte {
	e.align(4)
	return e.buf
}

// Len returns the number of body bytes written so far.
func (e *Encoder) Len() int { return len(e.buf) - e.origin }

// Err returns the first bound violation recorded, or nil.
func (e *Encoder) Err() error { return e.err }

var zeros [8]byte

func (e *Encoder) align(n int) {
	if pad := -(len(e.buf) - e.origin) & (n - 1); pad != 0 {
		e.buf = append(e.buf, zeros[:pad]...)
	}
}

// Bool writes b as one byte, 0 or 1.
func (e *Encoder) Bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// Int8 writes v as one byte.
func (e *Encoder) Int8(v int8) { e.buf = append(e.buf, byte(v)) }

// Uint8 writes v as one byte; ROS byte and char use it too.
func (e *Encoder) Uint8(v uint8) { e.buf = append(e.buf, v) }

// Int16 writes v aligned to 2.
func (e *Encoder) Int16(v int16) { e.Uint16(uint16(v)) }

// Uint16 writes v aligned to 2.
func (e *Encoder) Uint16(v uint16) {
	e.align(2)
	e.buf = binary.LittleEndian.AppendUint16(e.buf, v)
}

// Int32 writes v aligned to 4.
func (e *Encoder) Int32(v int32) { e.Uint32(uint32(v)) }

// Uint32 writes v aligned to 4.
func (e *Encoder) Uint32(v uint32) {
	e.align(4)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
}

// Int64 writes v aligned to 8.
func (e *Encoder) Int64(v int64) { e.Uint64(uint64(v)) }

// Uint64 writes v aligned to 8.
func (e *Encoder) Uint64(v uint64) {
	e.align(8)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
}

// Float32 writes v as IEEE-754 binary32 aligned to 4.
func (e *Encoder) Float32(v float32) { e.Uint32(math.Float32bits(v)) }

// Float64 writes v as IEEE-754 binary64 aligned to 8.
func (e *Encoder) Float64(v float64) { e.Uint64(math.Float64bits(v)) }

// String writes s as a uint32 length that counts the terminating NUL, the bytes of s
// and a NUL.
func (e *Encoder) String(s string) {
	e.length(len(s)+1, "string")
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
}

// BoundedString writes s like String and records ErrBound if s is longer than bound
// bytes (string<=bound).
func (e *Encoder) BoundedString(s string, bound int) {
	if len(s) > bound {
		e.fail(fmt.Errorf("%w: string of %d bytes, bound %d", ErrBound, len(s), bound))
	}
	e.String(s)
}

// SequenceLength writes the element count n of a sequence (T[]).
func (e *Encoder) SequenceLength(n int) { e.length(n, "sequence") }

// BoundedSequenceLength writes n like SequenceLength and records ErrBound if n is
// larger than bound (T[<=bound]).
func (e *Encoder) BoundedSequenceLength(n, bound int) {
	if n > bound {
		e.fail(fmt.Errorf("%w: sequence of %d elements, bound %d", ErrBound, n, bound))
	}
	e.length(n, "sequence")
}

// Octets writes p as raw bytes, without a length: the body of byte, char and uint8
// arrays and sequences.
func (e *Encoder) Octets(p []byte) { e.buf = append(e.buf, p...) }

func (e *Encoder) length(n int, what string) {
	if uint64(n) > math.MaxUint32 {
		e.fail(fmt.Errorf("%w: %s length %d does not fit in 32 bits", ErrBound, what, n))
	}
	e.Uint32(uint32(n))
}

func (e *Encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}
