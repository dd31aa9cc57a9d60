package cdr

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

func TestBlockConsumesNothingWhenRefused(t *testing.T) {
	body := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	sample := append([]byte{0, 1, 0, 0}, body...)
	for _, c := range []struct {
		name              string
		skip              int // bytes read before
		n, first, align   int
		want              []byte // nil: refused
		wantOffAfterBlock int
	}{
		{"aligned", 0, 8, 8, 8, body[0:8], 8},
		{"padding to first", 1, 4, 4, 4, body[4:8], 8},
		{"first aligned, not the block", 1, 8, 4, 8, nil, 1},
		{"too long", 8, 9, 8, 8, nil, 8},
		{"exactly the rest", 8, 8, 8, 8, body[8:16], 16},
		{"padding would pass the end", 15, 1, 8, 8, nil, 15},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewDecoder(sample)
			if err != nil {
				t.Fatal(err)
			}
			for range c.skip {
				d.Uint8()
			}
			got := d.Block(c.n, c.first, c.align)
			if !bytes.Equal(got, c.want) || (got == nil) != (c.want == nil) {
				t.Fatalf("Block = % x, want % x", got, c.want)
			}
			if d.Offset() != c.wantOffAfterBlock || d.Err() != nil {
				t.Fatalf("offset %d, err %v; want %d, nil", d.Offset(), d.Err(), c.wantOffAfterBlock)
			}
		})
	}
	d, _ := NewDecoder(sample[:5])
	d.Uint32() // fails
	if d.Block(0, 1, 1) != nil {
		t.Fatal("Block after an error returned bytes")
	}
}

func TestEncoderBlock(t *testing.T) {
	var e Encoder
	e.Reset(nil)
	e.Uint8(7)
	if p := e.Block(8, 4, 8); p != nil {
		t.Fatalf("Block at offset 4 for alignment 8 = % x", p)
	}
	if e.Len() != 4 {
		t.Fatalf("after a refused Block the body is %d bytes, want 4 (padded to the first field)", e.Len())
	}
	p := e.Block(4, 4, 4)
	if len(p) != 4 || !bytes.Equal(p, make([]byte, 4)) {
		t.Fatalf("Block = % x, want 4 zero bytes", p)
	}
	Store32(p, 0x01020304)
	if got, want := e.Bytes(), []byte{0, 1, 0, 0, 7, 0, 0, 0, 4, 3, 2, 1}; !bytes.Equal(got, want) {
		t.Fatalf("sample % x, want % x", got, want)
	}
}

// sliceOps are the typed slice methods, each beside the element-by-element reads and
// writes they stand for.
var sliceOps = []struct {
	name        string
	size        int
	block, each func(d *Decoder, n int) []uint64
	put, putOne func(e *Encoder, v []uint64)
}{
	sliceOp("float64", 8, (*Decoder).Float64s, (*Decoder).Float64, (*Encoder).Float64s, (*Encoder).Float64,
		math.Float64bits, math.Float64frombits),
	sliceOp("float32", 4, (*Decoder).Float32s, (*Decoder).Float32, (*Encoder).Float32s, (*Encoder).Float32,
		func(v float32) uint64 { return uint64(math.Float32bits(v)) }, func(u uint64) float32 { return math.Float32frombits(uint32(u)) }),
	sliceOp("int64", 8, (*Decoder).Int64s, (*Decoder).Int64, (*Encoder).Int64s, (*Encoder).Int64,
		func(v int64) uint64 { return uint64(v) }, func(u uint64) int64 { return int64(u) }),
	sliceOp("uint64", 8, (*Decoder).Uint64s, (*Decoder).Uint64, (*Encoder).Uint64s, (*Encoder).Uint64,
		func(v uint64) uint64 { return v }, func(u uint64) uint64 { return u }),
	sliceOp("int32", 4, (*Decoder).Int32s, (*Decoder).Int32, (*Encoder).Int32s, (*Encoder).Int32,
		func(v int32) uint64 { return uint64(uint32(v)) }, func(u uint64) int32 { return int32(u) }),
	sliceOp("uint32", 4, (*Decoder).Uint32s, (*Decoder).Uint32, (*Encoder).Uint32s, (*Encoder).Uint32,
		func(v uint32) uint64 { return uint64(v) }, func(u uint64) uint32 { return uint32(u) }),
	sliceOp("int16", 2, (*Decoder).Int16s, (*Decoder).Int16, (*Encoder).Int16s, (*Encoder).Int16,
		func(v int16) uint64 { return uint64(uint16(v)) }, func(u uint64) int16 { return int16(u) }),
	sliceOp("uint16", 2, (*Decoder).Uint16s, (*Decoder).Uint16, (*Encoder).Uint16s, (*Encoder).Uint16,
		func(v uint16) uint64 { return uint64(v) }, func(u uint64) uint16 { return uint16(u) }),
}

func sliceOp[T any](name string, size int, block func(*Decoder, []T), one func(*Decoder) T,
	put func(*Encoder, []T), putOne func(*Encoder, T), bits func(T) uint64, from func(uint64) T,
) struct {
	name        string
	size        int
	block, each func(d *Decoder, n int) []uint64
	put, putOne func(e *Encoder, v []uint64)
} {
	toBits := func(v []T) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = bits(x)
		}
		return out
	}
	fromBits := func(v []uint64) []T {
		out := make([]T, len(v))
		for i, x := range v {
			out[i] = from(x)
		}
		return out
	}
	return struct {
		name        string
		size        int
		block, each func(d *Decoder, n int) []uint64
		put, putOne func(e *Encoder, v []uint64)
	}{
		name, size,
		func(d *Decoder, n int) []uint64 { v := make([]T, n); block(d, v); return toBits(v) },
		func(d *Decoder, n int) []uint64 {
			v := make([]T, n)
			for i := range v {
				v[i] = one(d)
			}
			return toBits(v)
		},
		func(e *Encoder, v []uint64) { put(e, fromBits(v)) },
		func(e *Encoder, v []uint64) {
			for _, x := range fromBits(v) {
				putOne(e, x)
			}
		},
	}
}

// checkSlices checks every slice method on sample b after skip bytes, for n elements,
// against the element-by-element reads: the same values, offset and error.
func checkSlices(t *testing.T, b []byte, skip, n int) {
	for _, op := range sliceOps {
		d1, err1 := NewDecoder(b)
		d2, err2 := NewDecoder(b)
		if err1 != nil || err2 != nil {
			return
		}
		for range skip {
			d1.Uint8()
			d2.Uint8()
		}
		got, want := op.block(d1, n), op.each(d2, n)
		if fmt.Sprint(got) != fmt.Sprint(want) || d1.Offset() != d2.Offset() || fmt.Sprint(d1.Err()) != fmt.Sprint(d2.Err()) {
			t.Fatalf("%s: %d after %d bytes of % x: got %v at %d (%v), want %v at %d (%v)", op.name, n, skip, b,
				got, d1.Offset(), d1.Err(), want, d2.Offset(), d2.Err())
		}
	}
}

func TestSlicesMatchElements(t *testing.T) {
	body := make([]byte, 40)
	for i := range body {
		body[i] = byte(i*37 + 11)
	}
	for _, hdr := range [][]byte{{0, 1, 0, 0}, {0, 0, 0, 0}} {
		b := append(append([]byte(nil), hdr...), body...)
		for skip := range 9 {
			for n := range 8 {
				for cut := len(b) - 12; cut <= len(b); cut++ {
					checkSlices(t, b[:cut], skip, n)
				}
			}
		}
	}
	for _, op := range sliceOps {
		for pad := range 9 {
			vals := make([]uint64, 5)
			for i := range vals {
				vals[i] = uint64(0x0102030405060708) * uint64(i+1)
			}
			var e1, e2 Encoder
			e1.Reset(nil)
			e2.Reset(nil)
			for range pad {
				e1.Uint8(0xAA)
				e2.Uint8(0xAA)
			}
			op.put(&e1, vals)
			op.putOne(&e2, vals)
			if !bytes.Equal(e1.Bytes(), e2.Bytes()) {
				t.Fatalf("%s after %d bytes: % x, want % x", op.name, pad, e1.Bytes(), e2.Bytes())
			}
		}
	}
}

// FuzzSlices: on any bytes, after any number of bytes read, every typed slice method
// gives the values, offset and error of reading the elements one by one.
func FuzzSlices(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(3), uint8(2))
	f.Add([]byte{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, skip, n uint8) {
		checkSlices(t, b, int(skip%16), int(n%16))
	})
}
