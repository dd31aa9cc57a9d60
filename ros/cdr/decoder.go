package cdr

import (
	"encoding/binary"
	"fmt"
	"math"
)

// A Decoder reads a CDR sample (CDR_LE or CDR_BE) field by field. It keeps the first
// error it meets (sticky error): every later read returns a zero value, and
// [Decoder.Err] reports the failure. Alignment is counted from the first byte after
// the encapsulation header. Bytes after the last field (rmw padding) are ignored.
type Decoder struct {
	b      []byte
	off    int  // index in b of the next byte to read
	origin int  // index in b of the first body byte
	be     bool // CDR_BE sample
	err    error
}

// NewDecoder checks the encapsulation header of b and returns a Decoder positioned at
// the first body byte. It accepts representation ids 00 01 (CDR_LE) and 00 00
// (CDR_BE); the option bytes are ignored. The Decoder reads b in place and does not
// keep it beyond the values it returns (strings and slices are copied).
func NewDecoder(b []byte) (*Decoder, error) {
	d := new(Decoder)
	if err := d.Reset(b); err != nil {
		return nil, err
	}
	return d, nil
}

// Reset points d at a new sample, as NewDecoder does.
func (d *Decoder) Reset(b []byte) error {
	*d = Decoder{b: b, off: HeaderSize, origin: HeaderSize}
	if len(b) < HeaderSize {
		d.err = fmt.Errorf("%w: sample of %d bytes is shorter than the %d-byte header", ErrHeader, len(b), HeaderSize)
		return d.err
	}
	switch repr := binary.BigEndian.Uint16(b); repr {
	case ReprCDRLE:
	case ReprCDRBE:
		d.be = true
	default:
		d.err = fmt.Errorf("%w: representation id %#04x is not plain CDR (want 0x0000 or 0x0001)", ErrHeader, repr)
		return d.err
	}
	return nil
}

// Err returns the first decoding error, or nil.
func (d *Decoder) Err() error { return d.err }

// Offset returns the body offset of the next byte to read.
func (d *Decoder) Offset() int { return d.off - d.origin }

// Remaining returns the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.b) - d.off }

func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// take aligns to align (a power of two) and returns the next n bytes, or nil after
// recording an error.
func (d *Decoder) take(n, align int, what string) []byte {
	if d.err != nil {
		return nil
	}
	off := d.off + (-(d.off - d.origin) & (align - 1))
	if off > len(d.b) || n > len(d.b)-off {
		d.truncated(n, off, what)
		return nil
	}
	d.off = off + n
	return d.b[off : off+n : off+n]
}

func (d *Decoder) truncated(n, off int, what string) {
	d.fail(fmt.Errorf("%w: %s needs %d bytes at offset %d, %d left", ErrTruncated, what, n, off-d.origin, max(len(d.b)-off, 0)))
}

// Bool reads one byte that must be 0 or 1.
func (d *Decoder) Bool() bool {
	p := d.take(1, 1, "bool")
	if p == nil {
		return false
	}
	if p[0] > 1 {
		d.fail(fmt.Errorf("%w: byte %#02x at offset %d", ErrBool, p[0], d.Offset()-1))
		return false
	}
	return p[0] == 1
}

// Int8 reads one byte.
func (d *Decoder) Int8() int8 { return int8(d.Uint8()) }

// Uint8 reads one byte.
func (d *Decoder) Uint8() uint8 {
	p := d.take(1, 1, "uint8")
	if p == nil {
		return 0
	}
	return p[0]
}

// Int16 reads an int16 aligned to 2.
func (d *Decoder) Int16() int16 { return int16(d.Uint16()) }

// Uint16 reads a uint16 aligned to 2.
func (d *Decoder) Uint16() uint16 {
	p := d.take(2, 2, "uint16")
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint16(p)
	}
	return binary.LittleEndian.Uint16(p)
}

// Int32 reads an int32 aligned to 4.
func (d *Decoder) Int32() int32 { return int32(d.Uint32()) }

// Uint32 reads a uint32 aligned to 4.
func (d *Decoder) Uint32() uint32 {
	p := d.take(4, 4, "uint32")
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint32(p)
	}
	return binary.LittleEndian.Uint32(p)
}

// Int64 reads an int64 aligned to 8.
func (d *Decoder) Int64() int64 { return int64(d.Uint64()) }

// Uint64 reads a uint64 aligned to 8.
func (d *Decoder) Uint64() uint64 {
	p := d.take(8, 8, "uint64")
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint64(p)
	}
	return binary.LittleEndian.Uint64(p)
}

// Float32 reads an IEEE-754 binary32 aligned to 4.
func (d *Decoder) Float32() float32 { return math.Float32frombits(d.Uint32()) }

// Float64 reads an IEEE-754 binary64 aligned to 8.
func (d *Decoder) Float64() float64 { return math.Float64frombits(d.Uint64()) }

// ReadString reads a uint32 length (counting the terminating NUL), the bytes and the
// NUL. A length of 0 is accepted as the empty string. (It is not called String, which
// would make a Decoder a fmt.Stringer that consumes input when printed.)
func (d *Decoder) ReadString() string {
	n := d.Uint32()
	if d.err != nil || n == 0 {
		return ""
	}
	if uint64(n) > uint64(d.Remaining()) {
		d.fail(fmt.Errorf("%w: string of %d bytes at offset %d, %d left", ErrLength, n, d.Offset()-4, d.Remaining()))
		return ""
	}
	p := d.take(int(n), 1, "string")
	if p[n-1] != 0 {
		d.fail(fmt.Errorf("%w: string of %d bytes ending at offset %d", ErrString, n, d.Offset()))
		return ""
	}
	return string(p[:n-1])
}

// BoundedString reads a string and fails with ErrBound if it is longer than bound
// bytes (string<=bound).
func (d *Decoder) BoundedString(bound int) string {
	s := d.ReadString()
	if len(s) > bound {
		d.fail(fmt.Errorf("%w: string of %d bytes, bound %d", ErrBound, len(s), bound))
		return ""
	}
	return s
}

// SequenceLength reads the element count of a sequence and checks that count
// elements of at least minElemSize bytes each fit in the bytes left, so the caller
// may allocate count elements safely. minElemSize below 1 counts as 1.
func (d *Decoder) SequenceLength(minElemSize int) int {
	n := d.Uint32()
	if d.err != nil {
		return 0
	}
	if minElemSize < 1 {
		minElemSize = 1
	}
	if uint64(n)*uint64(minElemSize) > uint64(d.Remaining()) {
		d.fail(fmt.Errorf("%w: sequence of %d elements (at least %d bytes each) at offset %d, %d bytes left",
			ErrLength, n, minElemSize, d.Offset()-4, d.Remaining()))
		return 0
	}
	return int(n)
}

// BoundedSequenceLength reads a sequence count like SequenceLength and fails with
// ErrBound if it is larger than bound (T[<=bound]).
func (d *Decoder) BoundedSequenceLength(bound, minElemSize int) int {
	n := d.SequenceLength(minElemSize)
	if n > bound {
		d.fail(fmt.Errorf("%w: sequence of %d elements, bound %d", ErrBound, n, bound))
		return 0
	}
	return n
}

// Octets fills dst with the next len(dst) raw bytes; on failure dst is zeroed.
func (d *Decoder) Octets(dst []byte) {
	p := d.take(len(dst), 1, "octets")
	if p == nil {
		clear(dst)
		return
	}
	copy(dst, p)
}

// Resize returns s with length n, reusing its capacity when it is large enough
// (existing elements are kept for the caller to overwrite). It returns s[:0] for
// n == 0, so a nil s stays nil.
func Resize[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	return make([]T, n)
}
