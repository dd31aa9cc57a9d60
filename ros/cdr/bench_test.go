package cdr

import "testing"

func BenchmarkSampleMarshalAppend(b *testing.B) {
	m := testSample()
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = Append(buf[:0], m)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkSampleUnmarshal(b *testing.B) {
	in := Marshal(testSample())
	var m sample
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := Unmarshal(in, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeFloat64(b *testing.B) {
	e := NewEncoder(make([]byte, 0, 8*1024+8))
	b.ReportAllocs()
	b.SetBytes(8 * 1024)
	for b.Loop() {
		e.Reset(e.buf[:0])
		for i := range 1024 {
			e.Float64(float64(i))
		}
	}
}

func BenchmarkDecodeFloat64(b *testing.B) {
	e := NewEncoder(nil)
	for i := range 1024 {
		e.Float64(float64(i))
	}
	buf := e.Bytes()
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(8 * 1024)
	for b.Loop() {
		_ = d.Reset(buf)
		for range 1024 {
			d.Float64()
		}
	}
}

func BenchmarkDecodeStrings(b *testing.B) {
	e := NewEncoder(nil)
	for range 64 {
		e.String("robot1.dnetwork")
	}
	buf := e.Bytes()
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		_ = d.Reset(buf)
		for range 64 {
			_ = d.ReadString()
		}
	}
}
