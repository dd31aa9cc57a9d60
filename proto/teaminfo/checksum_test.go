package teaminfo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// The checked golden packets: the CRC in the file agrees with a bitwise CRC-32C, they
// decode to the golden fields, and the encoder writes them.
func TestDNetCheckedGolden(t *testing.T) {
	if got := crc32cBitwise([]byte("123456789")); got != 0xe3069283 {
		t.Fatalf("reference CRC-32C of the check string: %#08x", got)
	}
	for _, g := range goldenCases {
		t.Run(g.checked, func(t *testing.T) {
			want := readHex(t, g.checked)
			if sum := crc32cBitwise(want[:g.size]); sum != binary.LittleEndian.Uint32(want[g.size:]) {
				t.Fatalf("checksum in file % x, bitwise CRC-32C %#08x", want[g.size:], sum)
			}
			if body := readHex(t, g.plain); !bytes.Equal(body[5:], want[5:g.size]) || want[dnOffHeaderFlags] != hdrChecked {
				t.Fatal("checked golden body differs from " + g.plain)
			}
			var p DNetPacket
			auth, err := p.Decode(want, nil)
			if err != nil || auth != AuthNone {
				t.Fatalf("auth %v err %v", auth, err)
			}
			wantP := g.packet
			wantP.Unchecked = false
			reportDiff(t, "decoded checked packet", diff(p, wantP))
			got, err := wantP.AppendBinary([]byte{9})
			if err != nil || !bytes.Equal(got[1:], want) || got[0] != 9 {
				t.Errorf("AppendBinary: err %v\n got % x\nwant 09 + % x", err, got, want)
			}
			// With a key the checksum is not enough: a key wants a tag.
			if _, err := p.Decode(want, mustKey(t, goldenKey)); !errors.Is(err, ErrAuth) {
				t.Errorf("checked packet with key: %v, want ErrAuth", err)
			}
		})
	}
}

// Every flip of one or two bits of a checked packet is caught (the header checks or the
// checksum), and so are random flips of three to eight bits.
func TestDNetEveryBitChecked(t *testing.T) {
	for _, name := range []string{"dnet-v1-checked.hex", "dnet-v2-checked.hex"} {
		want := readHex(t, name)
		var p DNetPacket
		n := len(want) * 8
		flip := func(b []byte, i int) { b[i/8] ^= 1 << (i % 8) }
		for i := range n {
			for j := i; j < n; j++ {
				b := bytes.Clone(want)
				flip(b, i)
				if j != i {
					flip(b, j)
				}
				if _, err := p.Decode(b, nil); err == nil {
					t.Fatalf("%s: bits %d and %d flipped: accepted", name, i, j)
				} else if i >= dnHeaderSize*8 && !errors.Is(err, ErrChecksum) {
					t.Fatalf("%s: bits %d and %d flipped: %v, want ErrChecksum", name, i, j, err)
				}
			}
		}
		rng := rand.New(rand.NewPCG(39, 4))
		for range 200000 {
			b := bytes.Clone(want)
			for range 3 + rng.IntN(6) {
				flip(b, rng.IntN(n))
			}
			if bytes.Equal(b, want) {
				continue
			}
			if _, err := p.Decode(b, nil); err == nil {
				t.Fatalf("%s: random flips accepted: % x", name, b)
			}
		}
	}
}

// Mutants of the checked packets and values the format cannot carry.
func TestDNetCheckedMutants(t *testing.T) {
	checked := readHex(t, "dnet-v2-checked.hex")
	plain := readHex(t, "dnet-v2.txt")
	// reseal recomputes the checksum after a change, as a forger would.
	reseal := func(f func(b []byte)) []byte {
		b := bytes.Clone(checked)
		f(b)
		binary.LittleEndian.PutUint32(b[DNetSize:], crc32cBitwise(b[:DNetSize]))
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
		err  error
		msg  string
	}{
		{"checksum flag, no checksum", func() []byte { b := bytes.Clone(plain); b[4] = hdrChecked; return b }(), ErrLength, "with checksum needs 113 bytes, got 109"},
		{"checksum without flag", func() []byte { b := bytes.Clone(checked); b[4] = 0; return b }(), ErrLength, "without tag needs 109 bytes, got 113"},
		{"tag and checksum flags", func() []byte { b := bytes.Clone(checked); b[4] = hdrTagged | hdrChecked; return b }(), ErrReserved, "header flags 0x03"},
		{"short checksum", checked[:DNetCheckedSize-1], ErrLength, "got 112"},
		{"checksum off by one", func() []byte { b := bytes.Clone(checked); b[DNetSize]++; return b }(), ErrChecksum, "checksum"},
		{"payload changed", func() []byte { b := bytes.Clone(checked); b[dnOffRobotPos+4] ^= 0x40; return b }(), ErrChecksum, "the bytes give"},
		{"role 68", reseal(func(b []byte) { b[dnOffRole] = 68 }), ErrRange, "role 68 > 5"},
		{"role 6", reseal(func(b []byte) { b[dnOffRole] = 6 }), ErrRange, "role 6 > 5"},
		{"play state 7", reseal(func(b []byte) { b[dnOffPlayState] = 7 }), ErrRange, "play state 7 > 6"},
		{"unchecked role 68", func() []byte { b := bytes.Clone(plain); b[dnOffRole] = 68; return b }(), ErrRange, "role 68"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := dnetGolden
			_, err := p.Decode(tc.b, nil)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err %v, want %v containing %q", err, tc.err, tc.msg)
			}
			reportDiff(t, "packet after failed decode", diff(p, dnetGolden))
		})
	}
	// The highest values the enums define pass.
	ok := reseal(func(b []byte) { b[dnOffRole], b[dnOffPlayState] = byte(RoleOther), byte(PlayAssisting) })
	var p DNetPacket
	if _, err := p.Decode(ok, nil); err != nil || p.Role != 5 || p.PlayState != 6 {
		t.Errorf("role 5, play state 6: %v", err)
	}
	// The encoder refuses what the decoder rejects.
	for _, mod := range []func(*DNetPacket){func(p *DNetPacket) { p.Role = 6 }, func(p *DNetPacket) { p.PlayState = 200 }} {
		q := dnetGoldenV2
		mod(&q)
		if out, err := q.AppendBinary([]byte("k")); !errors.Is(err, ErrRange) || string(out) != "k" {
			t.Errorf("encoding role %d play state %d: %v", q.Role, q.PlayState, err)
		}
	}
}

// An unchecked packet (a node before the checksum) still decodes, marked Unchecked;
// written back it stays unchecked.
func TestDNetUnchecked(t *testing.T) {
	plain := readHex(t, "dnet-v2.txt")
	var p DNetPacket
	if auth, err := p.Decode(plain, nil); err != nil || auth != AuthNone || !p.Unchecked {
		t.Fatalf("auth %v err %v unchecked %v", auth, err, p.Unchecked)
	}
	if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, plain) {
		t.Errorf("relayed: err %v\n got % x\nwant % x", err, out, plain)
	}
}

// zju packets with a role or state the enums do not define are rejected, both ways.
func TestZJURange(t *testing.T) {
	good := tvTeam296Bytes(t)
	for _, tc := range []struct {
		off int
		v   byte
		msg string
	}{{zjuOffRole, 68, "zju role 68 > 5"}, {zjuOffRole, 6, "zju role 6"}, {zjuOffState, 7, "zju state 7 > 6"}, {zjuOffState, 0xff, "zju state 255"}} {
		b := bytes.Clone(good)
		b[tc.off] = tc.v
		p := tvTeam296
		if err := p.UnmarshalBinary(b); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("byte %d = %d: %v, want ErrRange %q", tc.off, tc.v, err, tc.msg)
		}
		reportDiff(t, "packet after failed decode", diff(p, tvTeam296))
	}
	p := tvTeam296
	p.Role = 9
	if out, err := p.AppendBinary([]byte("k")); !errors.Is(err, ErrRange) || string(out) != "k" {
		t.Errorf("encoding role 9: %v", err)
	}
	s := State{Role: RoleOther, PlayState: PlayAssisting}
	if _, err := AppendZJU(nil, &s); err != nil {
		t.Errorf("role 5, state 6: %v", err)
	}
}
