package cdr

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// unhex turns "00 01 00 00 | 03 00 00 00" into bytes; spaces and '|' are ignored.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

const le = "00 01 00 00 |" // encapsulation header CDR_LE

// Each case encodes with enc, compares with want (header and body, before Finish),
// then decodes with dec and compares the result with value.
var goldenCases = []struct {
	name  string
	enc   func(e *Encoder)
	want  string
	dec   func(d *Decoder) any
	value any
}{
	{"bool true", func(e *Encoder) { e.Bool(true) }, le + "01",
		func(d *Decoder) any { return d.Bool() }, true},
	{"bool false", func(e *Encoder) { e.Bool(false) }, le + "00",
		func(d *Decoder) any { return d.Bool() }, false},
	{"int8", func(e *Encoder) { e.Int8(-2) }, le + "fe",
		func(d *Decoder) any { return d.Int8() }, int8(-2)},
	{"uint8", func(e *Encoder) { e.Uint8(0xab) }, le + "ab",
		func(d *Decoder) any { return d.Uint8() }, uint8(0xab)},
	{"int16 after odd offset", func(e *Encoder) { e.Uint8(1); e.Int16(-2) }, le + "01 | 00 | fe ff",
		func(d *Decoder) any { return [2]any{d.Uint8(), d.Int16()} }, [2]any{uint8(1), int16(-2)}},
	{"uint16", func(e *Encoder) { e.Uint16(0x1234) }, le + "34 12",
		func(d *Decoder) any { return d.Uint16() }, uint16(0x1234)},
	{"int32 after odd offset", func(e *Encoder) { e.Uint8(1); e.Int32(-2) }, le + "01 | 00 00 00 | fe ff ff ff",
		func(d *Decoder) any { return [2]any{d.Uint8(), d.Int32()} }, [2]any{uint8(1), int32(-2)}},
	{"uint32 after int16", func(e *Encoder) { e.Int16(7); e.Uint32(0xdeadbeef) }, le + "07 00 | 00 00 | ef be ad de",
		func(d *Decoder) any { return [2]any{d.Int16(), d.Uint32()} }, [2]any{int16(7), uint32(0xdeadbeef)}},
	{"int64 after odd offset", func(e *Encoder) { e.Uint8(1); e.Int64(-2) }, le + "01 | 00 00 00 00 00 00 00 | fe ff ff ff ff ff ff ff",
		func(d *Decoder) any { return [2]any{d.Uint8(), d.Int64()} }, [2]any{uint8(1), int64(-2)}},
	{"uint64 after uint32", func(e *Encoder) { e.Uint32(5); e.Uint64(0x0102030405060708) }, le + "05 00 00 00 | 00 00 00 00 | 08 07 06 05 04 03 02 01",
		func(d *Decoder) any { return [2]any{d.Uint32(), d.Uint64()} }, [2]any{uint32(5), uint64(0x0102030405060708)}},
	{"float32", func(e *Encoder) { e.Float32(1.5) }, le + "00 00 c0 3f",
		func(d *Decoder) any { return d.Float32() }, float32(1.5)},
	{"float64 after odd offset", func(e *Encoder) { e.Bool(true); e.Float64(-0.5) }, le + "01 | 00 00 00 00 00 00 00 | 00 00 00 00 00 00 e0 bf",
		func(d *Decoder) any { return [2]any{d.Bool(), d.Float64()} }, [2]any{true, -0.5}},
	{"float64 after 12 bytes", func(e *Encoder) { e.Uint32(1); e.Uint32(2); e.Uint32(3); e.Float64(1) },
		le + "01 00 00 00 02 00 00 00 03 00 00 00 | 00 00 00 00 | 00 00 00 00 00 00 f0 3f",
		func(d *Decoder) any { return [4]any{d.Uint32(), d.Uint32(), d.Uint32(), d.Float64()} },
		[4]any{uint32(1), uint32(2), uint32(3), 1.0}},
	{"string", func(e *Encoder) { e.String("hi") }, le + "03 00 00 00 | 68 69 00",
		func(d *Decoder) any { return d.ReadString() }, "hi"},
	{"empty string", func(e *Encoder) { e.String("") }, le + "01 00 00 00 | 00",
		func(d *Decoder) any { return d.ReadString() }, ""},
	{"string with embedded NUL after odd offset", func(e *Encoder) { e.Uint8(9); e.String("a\x00b") },
		le + "09 | 00 00 00 | 04 00 00 00 | 61 00 62 00",
		func(d *Decoder) any { return [2]any{d.Uint8(), d.ReadString()} }, [2]any{uint8(9), "a\x00b"}},
	{"bounded string", func(e *Encoder) { e.BoundedString("abc", 3) }, le + "04 00 00 00 | 61 62 63 00",
		func(d *Decoder) any { return d.BoundedString(3) }, "abc"},
	{"empty sequence", func(e *Encoder) { e.SequenceLength(0) }, le + "00 00 00 00",
		func(d *Decoder) any { return d.SequenceLength(8) }, 0},
	{"int64 sequence aligns elements", func(e *Encoder) { e.SequenceLength(2); e.Int64(1); e.Int64(-1) },
		le + "02 00 00 00 | 00 00 00 00 | 01 00 00 00 00 00 00 00 | ff ff ff ff ff ff ff ff",
		func(d *Decoder) any {
			n := d.SequenceLength(8)
			v := make([]int64, n)
			for i := range v {
				v[i] = d.Int64()
			}
			return v
		}, []int64{1, -1}},
	{"bounded sequence", func(e *Encoder) { e.BoundedSequenceLength(2, 3); e.Uint16(1); e.Uint16(2) },
		le + "02 00 00 00 | 01 00 02 00",
		func(d *Decoder) any {
			n := d.BoundedSequenceLength(3, 2)
			v := make([]uint16, n)
			for i := range v {
				v[i] = d.Uint16()
			}
			return v
		}, []uint16{1, 2}},
	{"fixed array of uint16 has no length", func(e *Encoder) { e.Uint16(1); e.Uint16(2); e.Uint16(3) },
		le + "01 00 02 00 03 00",
		func(d *Decoder) any { return [3]uint16{d.Uint16(), d.Uint16(), d.Uint16()} }, [3]uint16{1, 2, 3}},
	{"octet sequence", func(e *Encoder) { e.SequenceLength(3); e.Octets([]byte{1, 2, 3}) },
		le + "03 00 00 00 | 01 02 03",
		func(d *Decoder) any {
			v := make([]byte, d.SequenceLength(1))
			d.Octets(v)
			return v
		}, []byte{1, 2, 3}},
	{"bool array byte by byte", func(e *Encoder) { e.Bool(true); e.Bool(false); e.Bool(true) },
		le + "01 00 01",
		func(d *Decoder) any { return [3]bool{d.Bool(), d.Bool(), d.Bool()} }, [3]bool{true, false, true}},
	{"string sequence", func(e *Encoder) { e.SequenceLength(2); e.String("a"); e.String("") },
		le + "02 00 00 00 | 02 00 00 00 61 00 | 00 00 | 01 00 00 00 00",
		func(d *Decoder) any {
			v := make([]string, d.SequenceLength(4))
			for i := range v {
				v[i] = d.ReadString()
			}
			return v
		}, []string{"a", ""}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			want := unhex(t, tc.want)
			e := NewEncoder(nil)
			tc.enc(e)
			if err := e.Err(); err != nil {
				t.Fatalf("encode: %v", err)
			}
			if got := e.Bytes(); !bytes.Equal(got, want) {
				t.Fatalf("encode:\n got % x\nwant % x", got, want)
			}
			d, err := NewDecoder(want)
			if err != nil {
				t.Fatal(err)
			}
			got := tc.dec(d)
			if err := d.Err(); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.value) {
				t.Fatalf("decode: got %#v, want %#v", got, tc.value)
			}
			if d.Remaining() != 0 {
				t.Fatalf("decode left %d bytes", d.Remaining())
			}
			// Every strict prefix of the body must fail cleanly, not panic.
			for n := HeaderSize; n < len(want); n++ {
				d, _ := NewDecoder(want[:n])
				tc.dec(d)
				if d.Err() == nil {
					t.Fatalf("decode of %d-byte prefix succeeded", n)
				}
			}
		})
	}
}

func TestBigEndian(t *testing.T) {
	b := unhex(t, "00 00 00 00 | 01 | 00 | 12 34 | 00 00 00 03 | 61 62 00 | 00 00 00 00 00 | 3f f0 00 00 00 00 00 00")
	d, err := NewDecoder(b)
	if err != nil {
		t.Fatal(err)
	}
	got := [4]any{d.Bool(), d.Uint16(), d.ReadString(), d.Float64()}
	want := [4]any{true, uint16(0x1234), "ab", 1.0}
	if d.Err() != nil || got != want {
		t.Fatalf("got %v (err %v), want %v", got, d.Err(), want)
	}
}

func TestFinishPadsToFour(t *testing.T) {
	for body := range 9 {
		e := NewEncoder(make([]byte, 0, 64))
		for range body {
			e.Uint8(0xff)
		}
		got := e.Finish()
		wantLen := HeaderSize + (body+3)/4*4
		if len(got) != wantLen {
			t.Errorf("body %d: length %d, want %d", body, len(got), wantLen)
		}
		for i := HeaderSize + body; i < len(got); i++ {
			if got[i] != 0 {
				t.Errorf("body %d: padding byte %d = %#x", body, i, got[i])
			}
		}
		if !bytes.Equal(got[:HeaderSize], []byte{0, 1, 0, 0}) {
			t.Errorf("header % x", got[:HeaderSize])
		}
	}
}

func TestResetAppendsAndAlignsAfterPrefix(t *testing.T) {
	var e Encoder
	e.Reset([]byte("xyz"))
	e.Uint8(1)
	e.Uint32(2)
	want := append([]byte("xyz"), unhex(t, le+"01 000000 02000000")...)
	if got := e.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("got % x\nwant % x", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		read func(d *Decoder)
		want error
	}{
		{"short header", "00 01 00", func(d *Decoder) {}, ErrHeader},
		{"xcdr2 header", "00 07 00 00", func(d *Decoder) {}, ErrHeader},
		{"pl_cdr header", "00 03 00 00", func(d *Decoder) {}, ErrHeader},
		{"bool 2", le + "02", func(d *Decoder) { d.Bool() }, ErrBool},
		{"truncated uint32", le + "01 02 03", func(d *Decoder) { d.Uint32() }, ErrTruncated},
		{"padding past end", le + "01 00 00", func(d *Decoder) { d.Uint8(); d.Uint32() }, ErrTruncated},
		{"string too long", le + "05 00 00 00 61 62 00", func(d *Decoder) { d.ReadString() }, ErrLength},
		{"string without NUL", le + "02 00 00 00 61 62", func(d *Decoder) { d.ReadString() }, ErrString},
		{"huge string", le + "ff ff ff ff 00", func(d *Decoder) { d.ReadString() }, ErrLength},
		{"bounded string over bound", le + "04 00 00 00 61 62 63 00", func(d *Decoder) { d.BoundedString(2) }, ErrBound},
		{"huge sequence", le + "ff ff ff ff 00 00 00 00", func(d *Decoder) { d.SequenceLength(1) }, ErrLength},
		{"sequence of int64 too long", le + "02 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00", func(d *Decoder) { d.SequenceLength(8) }, ErrLength},
		{"bounded sequence over bound", le + "03 00 00 00 01 02 03", func(d *Decoder) { d.BoundedSequenceLength(2, 1) }, ErrBound},
		{"octets", le + "01 02", func(d *Decoder) { d.Octets(make([]byte, 3)) }, ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewDecoder(unhex(t, tc.in))
			if err == nil {
				tc.read(d)
				err = d.Err()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestStickyError(t *testing.T) {
	d, _ := NewDecoder(unhex(t, le+"02 07 00 00 00"))
	d.Bool() // fails: 2 is not a bool
	if v := d.Uint32(); v != 0 {
		t.Fatalf("read after error returned %d", v)
	}
	if !errors.Is(d.Err(), ErrBool) {
		t.Fatalf("first error lost: %v", d.Err())
	}
}

func TestEncoderBounds(t *testing.T) {
	e := NewEncoder(nil)
	e.BoundedString("abcd", 3)
	if !errors.Is(e.Err(), ErrBound) {
		t.Fatalf("bounded string: %v", e.Err())
	}
	// The value is still written.
	if got, want := e.Bytes(), unhex(t, le+"05 00 00 00 61 62 63 64 00"); !bytes.Equal(got, want) {
		t.Fatalf("got % x, want % x", got, want)
	}
	e = NewEncoder(nil)
	e.BoundedSequenceLength(4, 3)
	if !errors.Is(e.Err(), ErrBound) {
		t.Fatalf("bounded sequence: %v", e.Err())
	}
}

func TestFloatSpecialValues(t *testing.T) {
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1)} {
		e := NewEncoder(nil)
		e.Float64(v)
		d, _ := NewDecoder(e.Bytes())
		if got := d.Float64(); math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("got %v, want %v", got, v)
		}
	}
	e := NewEncoder(nil)
	e.Float32(float32(math.NaN()))
	d, _ := NewDecoder(e.Bytes())
	if got := d.Float32(); got == got {
		t.Errorf("NaN decoded as %v", got)
	}
}

func TestResize(t *testing.T) {
	var s []int
	if s = Resize(s, 0); s != nil {
		t.Fatalf("nil slice resized to 0 is %#v, want nil", s)
	}
	s = Resize(s, 3)
	if len(s) != 3 {
		t.Fatalf("len %d", len(s))
	}
	p := &s[0]
	s = Resize(s, 2)
	if len(s) != 2 || &s[0] != p {
		t.Fatal("shrinking did not reuse the backing array")
	}
}
