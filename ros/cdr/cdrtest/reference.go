package cdrtest

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
)

// refWriter is the reference encoder: it writes a value field by field from its Go
// type, as the wire format says (cdr's package documentation), in either byte order.
// Generated types hold their fields in wire order, so it needs nothing generated.
type refWriter struct {
	buf    []byte
	origin int
	order  binary.AppendByteOrder
}

func (w *refWriter) align(n int) {
	for (len(w.buf)-w.origin)%n != 0 {
		w.buf = append(w.buf, 0)
	}
}

func (w *refWriter) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		b := byte(0)
		if v.Bool() {
			b = 1
		}
		w.buf = append(w.buf, b)
	case reflect.Int8, reflect.Uint8:
		w.buf = append(w.buf, byte(v.Convert(reflect.TypeFor[uint8]()).Uint()))
	case reflect.Int16, reflect.Uint16:
		w.align(2)
		w.buf = w.order.AppendUint16(w.buf, uint16(bitsOf(v)))
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		w.align(4)
		w.buf = w.order.AppendUint32(w.buf, uint32(bitsOf(v)))
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		w.align(8)
		w.buf = w.order.AppendUint64(w.buf, bitsOf(v))
	case reflect.String:
		w.length(v.Len() + 1)
		w.buf = append(w.buf, v.String()...)
		w.buf = append(w.buf, 0)
	case reflect.Slice:
		w.length(v.Len())
		w.elems(v)
	case reflect.Array:
		w.elems(v)
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				w.value(v.Field(i))
				n++
			}
		}
		if n == 0 {
			w.buf = append(w.buf, 0) // a message without fields
		}
	default:
		panic("cdrtest: unsupported kind " + v.Kind().String())
	}
}

func (w *refWriter) length(n int) {
	w.align(4)
	w.buf = w.order.AppendUint32(w.buf, uint32(n))
}

func (w *refWriter) elems(v reflect.Value) {
	for i := range v.Len() {
		w.value(v.Index(i))
	}
}

// bitsOf returns a number's bits: two's complement for integers, IEEE 754 for floats.
func bitsOf(v reflect.Value) uint64 {
	switch v.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(v.Int())
	case reflect.Float32:
		return uint64(math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		return math.Float64bits(v.Float())
	}
	return v.Uint()
}

// reference returns the sample of m in the byte order be (header included, the body
// after pad bytes of 0xAA that belong to no field, as a service request header or
// another value would), unpadded at the end.
func reference(m cdr.Message, be bool, pad int) []byte {
	w := refWriter{buf: []byte{0, 1, 0, 0}, origin: cdr.HeaderSize, order: binary.LittleEndian}
	if be {
		w.buf[1], w.order = 0, binary.BigEndian
	}
	for range pad {
		w.buf = append(w.buf, 0xAA)
	}
	w.value(reflect.ValueOf(m).Elem())
	return w.buf
}

// checkReference checks the generated code of m against the reference codec: the
// sample b (MarshalCDR's) is the reference encoding, also when the body starts after
// 1 to 7 other bytes, which moves every field's alignment and so tries the generated
// code's field-by-field paths where its blocks do not apply; and m decodes from the
// reference encoding in CDR_LE and CDR_BE after each of those prefixes.
func checkReference(t testing.TB, m cdr.Message, b []byte) {
	t.Helper()
	want := reference(m, false, 0)
	if !bytes.Equal(b[:len(want)], want) || len(b)-len(want) > 3 {
		t.Fatalf("%s: not the reference encoding:\n got % x\nwant % x", m.TypeName(), b, want)
	}
	typ := reflect.TypeOf(m).Elem()
	for pad := range 8 {
		var e cdr.Encoder
		e.Reset(nil)
		for range pad {
			e.Uint8(0xAA)
		}
		m.MarshalCDR(&e)
		if got, want := e.Bytes(), reference(m, false, pad); !bytes.Equal(got, want) {
			t.Fatalf("%s after %d bytes: not the reference encoding:\n got % x\nwant % x", m.TypeName(), pad, got, want)
		}
		for _, be := range []bool{false, true} {
			sample := reference(m, be, pad)
			d, err := cdr.NewDecoder(sample)
			if err != nil {
				t.Fatal(err)
			}
			for range pad {
				d.Uint8()
			}
			v := reflect.New(typ).Interface().(cdr.Message)
			if err := v.UnmarshalCDR(d); err != nil {
				t.Fatalf("%s after %d bytes (big-endian %v): decoding the reference encoding: %v", m.TypeName(), pad, be, err)
			}
			if d.Remaining() != 0 {
				t.Fatalf("%s after %d bytes (big-endian %v): %d bytes left after decoding", m.TypeName(), pad, be, d.Remaining())
			}
			if !reflect.DeepEqual(v, m) {
				t.Fatalf("%s after %d bytes (big-endian %v): decoded\n%+v\nwant\n%+v", m.TypeName(), pad, be, v, m)
			}
		}
	}
}
