package gamecontroller

import (
	"testing"
)

func BenchmarkDecode(b *testing.B) {
	for _, g := range goldenLayouts {
		pkt := g.build()
		b.Run(g.file, func(b *testing.B) {
			var p Packet
			b.ReportAllocs()
			b.SetBytes(int64(len(pkt)))
			for b.Loop() {
				if err := p.UnmarshalBinary(pkt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, g := range goldenLayouts {
		p := g.want()
		buf := make([]byte, 0, MaxSize)
		b.Run(g.file, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(g.size))
			for b.Loop() {
				var err error
				if buf, err = p.AppendBinary(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDerive(b *testing.B) {
	for _, g := range goldenLayouts {
		p := g.want()
		b.Run(g.file, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Derive(&p, 17, 2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReturn(b *testing.B) {
	for _, tc := range []struct{ name, hex string }{{"v2", tvRGrtV2Alive}, {"v4", tvRGrtV4}} {
		pkt := mustHex(b, tc.hex)
		b.Run("decode-"+tc.name, func(b *testing.B) {
			var r ReturnPacket
			b.ReportAllocs()
			for b.Loop() {
				if err := r.UnmarshalBinary(pkt); err != nil {
					b.Fatal(err)
				}
			}
		})
		var r ReturnPacket
		if err := r.UnmarshalBinary(pkt); err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, 0, ReturnSizeV4)
		b.Run("encode-"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = r.AppendBinary(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNoAllocs makes the zero-allocation promise of the hot paths a test.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	var p Packet
	buf := make([]byte, 0, MaxSize)
	for _, g := range goldenLayouts {
		pkt, want := g.build(), g.want()
		if n := testing.AllocsPerRun(100, func() { _ = p.UnmarshalBinary(pkt) }); n != 0 {
			t.Errorf("%s decode: %v allocs", g.file, n)
		}
		if n := testing.AllocsPerRun(100, func() { buf, _ = want.AppendBinary(buf[:0]) }); n != 0 {
			t.Errorf("%s encode: %v allocs", g.file, n)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = Derive(&want, 17, 2) }); n != 0 {
			t.Errorf("%s derive: %v allocs", g.file, n)
		}
	}
	var r ReturnPacket
	v4 := mustHex(t, tvRGrtV4)
	if n := testing.AllocsPerRun(100, func() { _ = r.UnmarshalBinary(v4); buf, _ = r.AppendBinary(buf[:0]) }); n != 0 {
		t.Errorf("return packet: %v allocs", n)
	}
}
