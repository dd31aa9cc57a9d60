package swarm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Golden frames, one field per line.
var (
	goldenUnicast = []byte{
		'S', 'W', 'R', 'M', // magic
		0x01,       // version 1
		0x01,       // kind: unicast
		0x10, 0x68, // port 4200
		0x06,                         // source name length
		0x03,                         // destination name length
		'r', 'o', 'b', 'o', 't', '1', // source "robot1"
		'b', 'o', 'o', // destination "boo"
		'F', 'O', 'U', 'N', 'D', ' ', '1', ' ', '2', ' ', '3', ' ', '4', // payload
	}
	goldenBroadcast = []byte{
		'S', 'W', 'R', 'M', // magic
		0x01,       // version 1
		0x02,       // kind: broadcast
		0x10, 0x04, // port 4100
		0x08,                                   // source name length
		0x00,                                   // no destination name
		'1', '0', '.', '0', '.', '1', '.', '5', // source "10.0.1.5"
		0x00, 0xff, // payload
	}
	goldenMulticastEmpty = []byte{
		'S', 'W', 'R', 'M', // magic
		0x01,       // version 1
		0x03,       // kind: multicast
		0x14, 0xe3, // port 5347
		0x01, // source name length
		0x00, // no destination name
		'a',  // source "a"
	}
)

var goldenFrames = []struct {
	name  string
	wire  []byte
	frame Frame
}{
	{"unicast", goldenUnicast, Frame{Kind: KindUnicast, Port: BasePort, Src: "robot1", Dst: BaseStation, Payload: []byte("FOUND 1 2 3 4")}},
	{"broadcast", goldenBroadcast, Frame{Kind: KindBroadcast, Port: DefaultPort, Src: "10.0.1.5", Payload: []byte{0x00, 0xff}}},
	{"multicast-empty", goldenMulticastEmpty, Frame{Kind: KindMulticast, Port: 5347, Src: "a", Payload: []byte{}}},
}

func TestFrameGolden(t *testing.T) {
	var got Frame // reused on purpose: every field must be overwritten
	for _, tt := range goldenFrames {
		if err := got.UnmarshalBinary(tt.wire); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Kind != tt.frame.Kind || got.Port != tt.frame.Port || got.Src != tt.frame.Src ||
			got.Dst != tt.frame.Dst || !bytes.Equal(got.Payload, tt.frame.Payload) {
			t.Errorf("%s: decoded %+v, want %+v", tt.name, got, tt.frame)
		}
		enc, err := tt.frame.AppendBinary([]byte("prefix"))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if rest, ok := bytes.CutPrefix(enc, []byte("prefix")); !ok || !bytes.Equal(rest, tt.wire) {
			t.Errorf("%s: encoded\n got % x\nwant prefix + % x", tt.name, enc, tt.wire)
		}
		if m, _ := tt.frame.MarshalBinary(); !bytes.Equal(m, tt.wire) || tt.frame.Size() != len(tt.wire) {
			t.Errorf("%s: MarshalBinary % x (size %d), want % x", tt.name, m, tt.frame.Size(), tt.wire)
		}
	}
	// The decoded payload is a copy.
	wire := bytes.Clone(goldenBroadcast)
	if err := got.UnmarshalBinary(wire); err != nil {
		t.Fatal(err)
	}
	wire[len(wire)-1] = 0
	if got.Payload[1] != 0xff {
		t.Fatal("UnmarshalBinary kept a reference to its input")
	}
}

func mutate(b []byte, f func([]byte) []byte) []byte { return f(bytes.Clone(b)) }

func TestFrameRejects(t *testing.T) {
	big := Frame{Kind: KindBroadcast, Src: "a", Payload: make([]byte, MaxPayload)}
	bigWire, err := big.MarshalBinary()
	if err != nil {
		t.Fatalf("a %d-byte payload is allowed: %v", MaxPayload, err)
	}
	tests := []struct {
		name string
		wire []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrShort, "0 bytes, header needs 10"},
		{"header only 9", goldenUnicast[:9], ErrShort, "9 bytes"},
		{"names cut", goldenUnicast[:14], ErrShort, "header with names needs 19"},
		{"magic", mutate(goldenUnicast, func(b []byte) []byte { b[3] = 'X'; return b }), ErrMagic, "53 57 52 58"},
		{"magic first byte", mutate(goldenUnicast, func(b []byte) []byte { b[0] = 's'; return b }), ErrMagic, ""},
		{"version", mutate(goldenUnicast, func(b []byte) []byte { b[4] = 2; return b }), ErrVersion, "2, want 1"},
		{"kind 0", mutate(goldenUnicast, func(b []byte) []byte { b[5] = 0; return b }), ErrKind, ""},
		{"kind 4", mutate(goldenUnicast, func(b []byte) []byte { b[5] = 4; return b }), ErrKind, ""},
		{"unicast without dst", mutate(goldenUnicast, func(b []byte) []byte { b[9] = 0; return b }), ErrBadHeader, ""},
		{"broadcast with dst", mutate(goldenBroadcast, func(b []byte) []byte { b[9] = 1; return b }), ErrBadHeader, ""},
		{"empty src", mutate(goldenBroadcast, func(b []byte) []byte { b[8] = 0; return b }), ErrName, "source"},
		{"src 64 bytes", append(mutate(goldenMulticastEmpty, func(b []byte) []byte { b[8] = 64; return b }), bytes.Repeat([]byte("a"), 63)...), ErrName, "length 64"},
		{"space in src", mutate(goldenUnicast, func(b []byte) []byte { b[12] = ' '; return b }), ErrName, "0x20"},
		{"colon in dst", mutate(goldenUnicast, func(b []byte) []byte { b[17] = ':'; return b }), ErrName, "destination"},
		{"src broadcast", []byte("SWRM\x01\x02\x10\x04\x09\x00broadcast"), ErrName, "reserved"},
		{"payload 1501", append(bytes.Clone(bigWire), 0), ErrTooLarge, "1501 bytes"},
	}
	for _, tt := range tests {
		var f Frame
		err := f.UnmarshalBinary(tt.wire)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: got %v, want %v mentioning %q", tt.name, err, tt.want, tt.msg)
		}
	}

	encode := []struct {
		name  string
		frame Frame
		want  error
	}{
		{"no kind", Frame{Src: "a"}, ErrKind},
		{"no src", Frame{Kind: KindBroadcast}, ErrName},
		{"unicast without dst", Frame{Kind: KindUnicast, Src: "a"}, ErrName},
		{"multicast with dst", Frame{Kind: KindMulticast, Src: "a", Dst: "b"}, ErrBadHeader},
		{"dst multicast", Frame{Kind: KindUnicast, Src: "a", Dst: Multicast}, ErrName},
		{"too large", Frame{Kind: KindBroadcast, Src: "a", Payload: make([]byte, MaxPayload+1)}, ErrTooLarge},
	}
	for _, tt := range encode {
		b, err := tt.frame.AppendBinary([]byte("keep"))
		if !errors.Is(err, tt.want) || string(b) != "keep" {
			t.Errorf("encode %s: got %q, %v; want %v and the input untouched", tt.name, b, err, tt.want)
		}
	}
}

func FuzzFrame(f *testing.F) {
	for _, g := range goldenFrames {
		f.Add(g.wire)
	}
	f.Add([]byte("SWRM"))
	f.Add([]byte("SWRM\x01\x01\x00\x00\x01\x01ab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fr Frame
		if fr.UnmarshalBinary(b) != nil {
			return
		}
		out, err := fr.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip: err %v\n got % x\nwant % x", err, out, b)
		}
		if len(b) > MaxFrameSize {
			t.Fatalf("accepted a %d-byte frame, limit %d", len(b), MaxFrameSize)
		}
	})
}

func BenchmarkFrame(b *testing.B) {
	f := Frame{Kind: KindUnicast, Port: DefaultPort, Src: "robot1", Dst: "robot2", Payload: make([]byte, 200)}
	buf := make([]byte, 0, MaxFrameSize)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = f.AppendBinary(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	wire, _ := f.MarshalBinary()
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parse(wire); err != nil {
				b.Fatal(err)
			}
		}
	})
}
