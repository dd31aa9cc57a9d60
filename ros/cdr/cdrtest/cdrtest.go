package cdrtest

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
)

// Fill sets every exported field reachable from the pointer v to pseudo-random values:
// finite numbers, short printable strings, and sequences of 0 to maxLen elements
// (nil when empty, as decoding produces).
func Fill(v any, r *rand.Rand, maxLen int) {
	fill(reflect.ValueOf(v).Elem(), r, maxLen)
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_-. "

func fill(v reflect.Value, r *rand.Rand, maxLen int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()) >> (64 - v.Type().Bits()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> (64 - v.Type().Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(float32(r.NormFloat64() * 1000)))
	case reflect.String:
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		v.SetString(string(b))
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), r, maxLen)
		}
	case reflect.Slice:
		n := r.IntN(maxLen + 1)
		if n == 0 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(s.Index(i), r, maxLen)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), r, maxLen)
			}
		}
	default:
		panic("cdrtest: unsupported kind " + v.Kind().String())
	}
}

// RoundTrip encodes m and checks that:
//   - the sample starts with the CDR_LE header and is padded to a multiple of 4;
//   - it is the reference encoding of m (every field on its own, as the wire format
//     says), also after 1 to 7 bytes of something else, and m decodes from the
//     reference encoding in either byte order (see checkReference);
//   - decoding it into a fresh value gives a value equal to m that encodes to the
//     same bytes;
//   - every shorter prefix of the body fails to decode, with an error, not a panic.
//
// If m has a bounded field over its bound, encoding must report cdr.ErrBound and
// decoding its output must fail with cdr.ErrBound. RoundTrip reports whether m was
// within its bounds.
func RoundTrip(t testing.TB, m cdr.Message) bool {
	t.Helper()
	var e cdr.Encoder
	e.Reset(nil)
	m.MarshalCDR(&e)
	body := len(e.Bytes())
	b := e.Finish()
	if !bytes.Equal(b[:cdr.HeaderSize], []byte{0, 1, 0, 0}) || len(b)%4 != 0 {
		t.Fatalf("%s: bad framing: % x", m.TypeName(), b)
	}
	fresh := reflect.New(reflect.TypeOf(m).Elem()).Interface().(cdr.Message)
	err := cdr.Unmarshal(b, fresh)
	if encErr := e.Err(); encErr != nil {
		if !errors.Is(encErr, cdr.ErrBound) {
			t.Fatalf("%s: encode error %v does not wrap ErrBound", m.TypeName(), encErr)
		}
		if !errors.Is(err, cdr.ErrBound) {
			t.Fatalf("%s: encoding reported %v, but decoding gave %v", m.TypeName(), encErr, err)
		}
		return false
	}
	if err != nil {
		t.Fatalf("%s: decode: %v\n% x", m.TypeName(), err, b)
	}
	if !reflect.DeepEqual(fresh, m) {
		t.Fatalf("%s: round trip changed the value:\n got %+v\nwant %+v", m.TypeName(), fresh, m)
	}
	again, err := cdr.Append(nil, fresh)
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("%s: re-encoding differs (err %v):\n got % x\nwant % x", m.TypeName(), err, again, b)
	}
	checkReference(t, m, b)
	for n := cdr.HeaderSize; n < body; n++ {
		v := reflect.New(reflect.TypeOf(m).Elem()).Interface().(cdr.Message)
		if err := cdr.Unmarshal(b[:n], v); err == nil {
			t.Fatalf("%s: %d-byte prefix of a %d-byte sample decoded without error", m.TypeName(), n, body)
		}
	}
	return true
}

// RoundTripRandom fills a fresh value of m's type from seeds 0..n-1 and round-trips
// each. It fails the test if no seed produced a value within the type's bounds.
func RoundTripRandom(t testing.TB, m cdr.Message, n, maxLen int) {
	t.Helper()
	ok := 0
	for seed := range n {
		v := reflect.New(reflect.TypeOf(m).Elem()).Interface().(cdr.Message)
		Fill(v, rand.New(rand.NewPCG(uint64(seed), 0x5eed)), maxLen)
		if RoundTrip(t, v) {
			ok++
		}
	}
	if ok == 0 {
		t.Fatalf("%s: no seed gave a value within bounds", m.TypeName())
	}
}

// FuzzTypes is the body of a fuzz target over several message types: it decodes b as
// types[sel % len(types)] and, if that succeeds, checks that the value re-encodes to
// a sample that decodes to the same value (compared through its encoding, so NaNs
// compare by their bits). Decoding must never panic.
func FuzzTypes(t *testing.T, types []cdr.Message, sel uint8, b []byte) {
	typ := reflect.TypeOf(types[int(sel)%len(types)]).Elem()
	m := reflect.New(typ).Interface().(cdr.Message)
	if err := cdr.Unmarshal(b, m); err != nil {
		return
	}
	out, err := cdr.Append(nil, m)
	if err != nil {
		t.Fatalf("%s: re-encoding a decoded value: %v", m.TypeName(), err)
	}
	m2 := reflect.New(typ).Interface().(cdr.Message)
	if err := cdr.Unmarshal(out, m2); err != nil {
		t.Fatalf("%s: decoding the re-encoding: %v\n% x", m.TypeName(), err, out)
	}
	if again := cdr.Marshal(m2); !bytes.Equal(again, out) {
		t.Fatalf("%s: round trip changed the value:\n%+v\n%+v", m.TypeName(), m, m2)
	}
}

// Seeds returns one sample per type for a FuzzTypes corpus: the types' selector and a
// pseudo-randomly filled, encoded value.
func Seeds(types []cdr.Message) (sels []uint8, samples [][]byte) {
	for i, m := range types {
		v := reflect.New(reflect.TypeOf(m).Elem()).Interface().(cdr.Message)
		Fill(v, rand.New(rand.NewPCG(uint64(i), 1)), 1)
		sels = append(sels, uint8(i))
		samples = append(samples, cdr.Marshal(v))
	}
	return sels, samples
}
