package teaminfo

import (
	"testing"
	"time"
)

func BenchmarkZJUDecode(b *testing.B) {
	pkt := tvTeam296Bytes(b)
	var p ZJUPacket
	b.ReportAllocs()
	b.SetBytes(ZJUSize)
	for b.Loop() {
		if err := p.UnmarshalBinary(pkt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZJUEncode(b *testing.B) {
	buf := make([]byte, 0, ZJUSize)
	b.ReportAllocs()
	b.SetBytes(ZJUSize)
	for b.Loop() {
		buf, _ = tvTeam296.AppendBinary(buf[:0])
	}
}

func BenchmarkZJUDecodeState(b *testing.B) {
	pkt := tvTeam296Bytes(b)
	var s State
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeZJU(pkt, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetDecode(b *testing.B) {
	pkt := readHex(b, "dnet-v1.txt")
	var p DNetPacket
	b.ReportAllocs()
	b.SetBytes(DNetSize)
	for b.Loop() {
		if _, err := p.Decode(pkt, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetDecodeVerified(b *testing.B) {
	pkt := readHex(b, "dnet-v1-tagged.hex")
	k := mustKey(b, goldenKey)
	var p DNetPacket
	b.ReportAllocs()
	b.SetBytes(DNetTaggedSize)
	for b.Loop() {
		if _, err := p.Decode(pkt, k); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetDecodeState(b *testing.B) {
	pkt := readHex(b, "dnet-v1.txt")
	var s State
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeDNet(pkt, &s, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetEncode(b *testing.B) {
	buf := make([]byte, 0, DNetTaggedSize)
	b.ReportAllocs()
	b.SetBytes(DNetSize)
	for b.Loop() {
		var err error
		if buf, err = dnetGolden.AppendBinary(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetEncodeSigned(b *testing.B) {
	k := mustKey(b, goldenKey)
	buf := make([]byte, 0, DNetTaggedSize)
	b.ReportAllocs()
	b.SetBytes(DNetTaggedSize)
	for b.Loop() {
		var err error
		if buf, err = dnetGolden.AppendSigned(buf[:0], k); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDNetEncodeState(b *testing.B) {
	buf := make([]byte, 0, DNetTaggedSize)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendDNet(buf[:0], &dnetGoldenState, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplayFilter(b *testing.B) {
	f := NewReplayFilter(time.Second)
	now := time.Unix(1000, 0)
	var seq uint32
	b.ReportAllocs()
	for b.Loop() {
		seq++
		f.Check(17, uint8(seq%5), seq, time.Duration(seq)*time.Millisecond, now)
	}
}
