package linkemu

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// udpFrameBytes builds an Ethernet frame with an IPv4 UDP datagram.
func udpFrameBytes(payload []byte) []byte {
	f := make([]byte, ethHeader+20+udpHeader+len(payload))
	copy(f[0:6], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	copy(f[6:12], []byte{2, 0, 0, 0, 0, 1})
	binary.BigEndian.PutUint16(f[12:], etherIPv4)
	ip := f[ethHeader:]
	ip[0] = 0x45
	binary.BigEndian.PutUint16(ip[2:], uint16(20+udpHeader+len(payload)))
	ip[8], ip[9] = 64, protoUDP
	copy(ip[12:], []byte{10, 94, 0, 1, 10, 94, 0, 255})
	u := ip[20:]
	binary.BigEndian.PutUint16(u[0:], 4000)
	binary.BigEndian.PutUint16(u[2:], 10017)
	binary.BigEndian.PutUint16(u[4:], uint16(udpHeader+len(payload)))
	copy(u[8:], payload)
	uf, _ := parseUDP(f)
	binary.BigEndian.PutUint16(u[6:], uf.checksum())
	return f
}

// verify reports whether the UDP checksum of a frame is right (the sum over pseudo
// header and datagram, checksum included, is all ones).
func verify(t *testing.T, f []byte) bool {
	t.Helper()
	u, err := parseUDP(f)
	if err != nil {
		t.Fatal(err)
	}
	return u.checksum() == binary.BigEndian.Uint16(u.udp[6:])
}

func TestCorrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 7, 100, 101} {
		payload := make([]byte, n)
		for i := range payload {
			payload[i] = byte(i * 7)
		}
		f := udpFrameBytes(payload)
		u, err := parseUDP(f)
		if err != nil || u.dstPort != 10017 || len(u.udp) != udpHeader+n || !verify(t, f) {
			t.Fatalf("%d bytes: %+v %v", n, u, err)
		}
		g := append([]byte(nil), f...)
		gu, _ := parseUDP(g)
		if !gu.corrupt(rng, 3, false) || string(g) == string(f) || !verify(t, g) {
			t.Fatalf("%d bytes: corrupted with a recomputed checksum: changed %v, checksum ok %v", n, string(g) != string(f), verify(t, g))
		}
		h := append([]byte(nil), f...)
		hu, _ := parseUDP(h)
		hu.corrupt(rng, 1, true)
		if verify(t, h) {
			t.Fatalf("%d bytes: a corrupted frame with the old checksum passes it", n)
		}
	}
	f := udpFrameBytes([]byte("stamp"))
	u, _ := parseUDP(f)
	if !u.mangle(func(p []byte) bool { p[0] = 'S'; return true }, false) || !verify(t, f) || string(u.udp[udpHeader:]) != "Stamp" {
		t.Fatal("mangle")
	}
	if u.mangle(func([]byte) bool { return false }, true) || !verify(t, f) {
		t.Fatal("a mangle that changed nothing")
	}
	if (udpFrame{udp: make([]byte, udpHeader)}).corrupt(rng, 1, false) {
		t.Fatal("an empty payload was corrupted")
	}
}

// TestCorruptFlipsDistinctBits: a corrupted frame has exactly CorruptBits bits flipped
// (all of them when the payload has fewer), never the same bit twice: two draws of one
// bit would leave it intact, and a frame counted Corrupted could arrive unchanged.
func TestCorruptFlipsDistinctBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tc := range []struct{ size, n, want int }{{1, 2, 2}, {1, 8, 8}, {1, 20, 8}, {2, 15, 15}, {3, 5, 5}} {
		for range 200 {
			payload := make([]byte, tc.size)
			f := udpFrameBytes(payload)
			u, _ := parseUDP(f)
			if !u.corrupt(rng, tc.n, false) {
				t.Fatalf("%d bytes, %d bits: not corrupted", tc.size, tc.n)
			}
			flipped := 0
			for _, b := range u.udp[udpHeader:] {
				flipped += bits.OnesCount8(b)
			}
			if flipped != tc.want {
				t.Fatalf("%d bytes, %d bits: %d bits flipped, want %d", tc.size, tc.n, flipped, tc.want)
			}
		}
	}
}

func TestParseRejects(t *testing.T) {
	good := udpFrameBytes([]byte("hello"))
	for name, mod := range map[string]func([]byte) []byte{
		"short":      func(f []byte) []byte { return f[:30] },
		"arp":        func(f []byte) []byte { f[12], f[13] = 8, 6; return f },
		"ipv6":       func(f []byte) []byte { f[14] = 0x65; return f },
		"tcp":        func(f []byte) []byte { f[23] = 6; return f },
		"fragment":   func(f []byte) []byte { f[20] = 0x20; return f },
		"ihl":        func(f []byte) []byte { f[14] = 0x44; return f },
		"total long": func(f []byte) []byte { binary.BigEndian.PutUint16(f[16:], 1000); return f },
		"udp len":    func(f []byte) []byte { binary.BigEndian.PutUint16(f[38:], 3); return f },
	} {
		if _, err := parseUDP(mod(append([]byte(nil), good...))); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func FuzzParseUDP(f *testing.F) {
	f.Add(udpFrameBytes([]byte("team packet")))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := parseUDP(b)
		if err != nil {
			return
		}
		if len(u.udp) < udpHeader || len(u.ip) < minIPv4Hdr {
			t.Fatalf("%+v", u)
		}
		_ = u.checksum()
		rng := rand.New(rand.NewPCG(uint64(len(b)), 0))
		u.corrupt(rng, 2, false)
		if c := u.checksum(); c != binary.BigEndian.Uint16(u.udp[6:]) && len(u.udp) > udpHeader {
			t.Fatalf("checksum %04x after corrupting, field %04x", c, binary.BigEndian.Uint16(u.udp[6:]))
		}
	})
}
