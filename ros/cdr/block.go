package cdr

import (
	"encoding/binary"
	"math"
)

// Blocks: fields read or written in one piece.
//
// A run of fixed-size fields (a geometry_msgs/Vector3, a float64[] sequence) has the
// same layout wherever it starts at a body offset that is a multiple of its largest
// alignment. Block and the typed slice methods check the alignment and the bounds
// once for the whole run instead of once per field, then move the bytes with plain
// loads and stores. Where the condition does not hold (the run starts elsewhere, or
// bytes are missing) they consume nothing and the caller goes field by field, so the
// values, the padding and every error are exactly those of the field-by-field path.

// Block aligns d to first (the alignment of the run's first field) and, if the body
// offset reached is a multiple of align and n bytes remain, consumes them and returns
// them; otherwise it returns nil and consumes nothing (the alignment padding
// included), as it does after an error.
func (d *Decoder) Block(n, first, align int) []byte {
	if d.err != nil {
		return nil
	}
	rel := d.off - d.origin
	rel += -rel & (first - 1)
	if rel&(align-1) != 0 || n > len(d.b)-d.origin-rel {
		return nil
	}
	off := d.origin + rel
	d.off = off + n
	return d.b[off : off+n : off+n]
}

// BigEndian reports whether the sample is CDR_BE: the byte order of what Block returns.
func (d *Decoder) BigEndian() bool { return d.be }

// Block aligns e to first (zero padding) and, if the body offset reached is a
// multiple of align, appends n zero bytes and returns them for the caller to fill in
// CDR_LE; otherwise it returns nil and appends nothing more.
func (e *Encoder) Block(n, first, align int) []byte {
	e.align(first)
	if e.Len()&(align-1) != 0 {
		return nil
	}
	at := len(e.buf)
	e.buf = append(e.buf, make([]byte, n)...)
	return e.buf[at : at+n : at+n]
}

// Load16 returns the 16-bit value at p[0:2] in the byte order be (BigEndian).
func Load16(p []byte, be bool) uint16 {
	if be {
		return binary.BigEndian.Uint16(p)
	}
	return binary.LittleEndian.Uint16(p)
}

// Load32 returns the 32-bit value at p[0:4] in the byte order be.
func Load32(p []byte, be bool) uint32 {
	if be {
		return binary.BigEndian.Uint32(p)
	}
	return binary.LittleEndian.Uint32(p)
}

// Load64 returns the 64-bit value at p[0:8] in the byte order be.
func Load64(p []byte, be bool) uint64 {
	if be {
		return binary.BigEndian.Uint64(p)
	}
	return binary.LittleEndian.Uint64(p)
}

// LoadFloat32 returns the binary32 at p[0:4] in the byte order be.
func LoadFloat32(p []byte, be bool) float32 { return math.Float32frombits(Load32(p, be)) }

// LoadFloat64 returns the binary64 at p[0:8] in the byte order be.
func LoadFloat64(p []byte, be bool) float64 { return math.Float64frombits(Load64(p, be)) }

// Store16 writes v to p[0:2] in CDR_LE.
func Store16(p []byte, v uint16) { binary.LittleEndian.PutUint16(p, v) }

// Store32 writes v to p[0:4] in CDR_LE.
func Store32(p []byte, v uint32) { binary.LittleEndian.PutUint32(p, v) }

// Store64 writes v to p[0:8] in CDR_LE.
func Store64(p []byte, v uint64) { binary.LittleEndian.PutUint64(p, v) }

// StoreFloat32 writes v to p[0:4] in CDR_LE.
func StoreFloat32(p []byte, v float32) { Store32(p, math.Float32bits(v)) }

// StoreFloat64 writes v to p[0:8] in CDR_LE.
func StoreFloat64(p []byte, v float64) { Store64(p, math.Float64bits(v)) }

// words are the fixed-size primitives of 2, 4 and 8 bytes.
type words interface {
	~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// readWords fills dst from one block of size-byte elements, or reports false (nothing
// consumed) for the caller to read them one by one.
func readWords[T words](d *Decoder, dst []T, size int, load func([]byte, bool) T) bool {
	if len(dst) == 0 {
		return true
	}
	p := d.Block(size*len(dst), size, size)
	if p == nil {
		return false
	}
	for i := range dst {
		dst[i] = load(p[size*i:], d.be)
	}
	return true
}

// writeWords appends src as one block of size-byte elements.
func writeWords[T words](e *Encoder, src []T, size int, store func([]byte, T)) {
	if len(src) == 0 {
		return
	}
	// An element's own alignment is the block's: Block cannot refuse.
	p := e.Block(size*len(src), size, size)
	for i, v := range src {
		store(p[size*i:], v)
	}
}

// Float64s fills dst with the next len(dst) float64 values (the elements of a
// float64[] or float64[N] after its length), as len(dst) calls of Float64 would.
func (d *Decoder) Float64s(dst []float64) {
	if !readWords(d, dst, 8, LoadFloat64) {
		for i := range dst {
			dst[i] = d.Float64()
		}
	}
}

// Float32s is Float64s for float32.
func (d *Decoder) Float32s(dst []float32) {
	if !readWords(d, dst, 4, LoadFloat32) {
		for i := range dst {
			dst[i] = d.Float32()
		}
	}
}

// Int64s is Float64s for int64.
func (d *Decoder) Int64s(dst []int64) {
	if !readWords(d, dst, 8, func(p []byte, be bool) int64 { return int64(Load64(p, be)) }) {
		for i := range dst {
			dst[i] = d.Int64()
		}
	}
}

// Uint64s is Float64s for uint64.
func (d *Decoder) Uint64s(dst []uint64) {
	if !readWords(d, dst, 8, Load64) {
		for i := range dst {
			dst[i] = d.Uint64()
		}
	}
}

// Int32s is Float64s for int32.
func (d *Decoder) Int32s(dst []int32) {
	if !readWords(d, dst, 4, func(p []byte, be bool) int32 { return int32(Load32(p, be)) }) {
		for i := range dst {
			dst[i] = d.Int32()
		}
	}
}

// Uint32s is Float64s for uint32.
func (d *Decoder) Uint32s(dst []uint32) {
	if !readWords(d, dst, 4, Load32) {
		for i := range dst {
			dst[i] = d.Uint32()
		}
	}
}

// Int16s is Float64s for int16.
func (d *Decoder) Int16s(dst []int16) {
	if !readWords(d, dst, 2, func(p []byte, be bool) int16 { return int16(Load16(p, be)) }) {
		for i := range dst {
			dst[i] = d.Int16()
		}
	}
}

// Uint16s is Float64s for uint16.
func (d *Decoder) Uint16s(dst []uint16) {
	if !readWords(d, dst, 2, Load16) {
		for i := range dst {
			dst[i] = d.Uint16()
		}
	}
}

// Float64s appends src as len(src) calls of Float64 would (the elements of a
// float64[] or float64[N] after its length).
func (e *Encoder) Float64s(src []float64) { writeWords(e, src, 8, StoreFloat64) }

// Float32s is Float64s for float32.
func (e *Encoder) Float32s(src []float32) { writeWords(e, src, 4, StoreFloat32) }

// Int64s is Float64s for int64.
func (e *Encoder) Int64s(src []int64) {
	writeWords(e, src, 8, func(p []byte, v int64) { Store64(p, uint64(v)) })
}

// Uint64s is Float64s for uint64.
func (e *Encoder) Uint64s(src []uint64) { writeWords(e, src, 8, Store64) }

// Int32s is Float64s for int32.
func (e *Encoder) Int32s(src []int32) {
	writeWords(e, src, 4, func(p []byte, v int32) { Store32(p, uint32(v)) })
}

// Uint32s is Float64s for uint32.
func (e *Encoder) Uint32s(src []uint32) { writeWords(e, src, 4, Store32) }

// Int16s is Float64s for int16.
func (e *Encoder) Int16s(src []int16) {
	writeWords(e, src, 2, func(p []byte, v int16) { Store16(p, uint16(v)) })
}

// Uint16s is Float64s for uint16.
func (e *Encoder) Uint16s(src []uint16) { writeWords(e, src, 2, Store16) }
