package gamecontroller

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

const (
	tvRGrtV2Alive    = "5247727402110202"
	tvRGrtV2Penalise = "5247727402110200"
	tvRGrtV4         = "524772740402110000007a440000fac30000c03f0000003f0000964300000000"
	tvRGrtV4Default  = "5247727404021100000000000000000000000000000080bf0000000000000000"
)

func TestReturnVectors(t *testing.T) {
	for _, tc := range []struct {
		name string
		hex  string
		want ReturnPacket
	}{
		{"TV-RGrt-v2 alive", tvRGrtV2Alive, ReturnPacket{Version: 2, Team: 17, Player: 2, Message: MsgAlive}},
		{"TV-RGrt-v2 man penalise", tvRGrtV2Penalise, ReturnPacket{Version: 2, Team: 17, Player: 2, Message: MsgManPenalise}},
		{"v3 alive", "5247727403110200", ReturnPacket{Version: 3, Team: 17, Player: 2, Message: MsgAliveV3}},
		{"TV-RGrt-v4", tvRGrtV4, ReturnPacket{Version: 4, Team: 17, Player: 2,
			Pose: [3]float32{1000, -500, 1.5}, BallAge: 0.5, Ball: [2]float32{300, 0}}},
		{"TV-RGrt-v4 default", tvRGrtV4Default, NewAlive(17, 2)},
		{"v4 fallen, player 20", "5247727404141101" + "0000000000000000000000000000803f0000000000000000",
			ReturnPacket{Version: 4, Team: 17, Player: 20, Fallen: true, BallAge: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mustHex(t, tc.hex)
			var r ReturnPacket
			if err := r.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if r != tc.want {
				t.Errorf("decode: got %+v, want %+v", r, tc.want)
			}
			if r.Size() != len(b) {
				t.Errorf("Size %d, want %d", r.Size(), len(b))
			}
			out, err := tc.want.AppendBinary([]byte("pre"))
			if rest, ok := bytes.CutPrefix(out, []byte("pre")); err != nil || !ok || !bytes.Equal(rest, b) {
				t.Errorf("encode: %v\n got % x\nwant pre + % x", err, out, b)
			}
		})
	}
}

func putF32(b []byte, off int, f float32) {
	binary.LittleEndian.PutUint32(b[off:], math.Float32bits(f))
}

func TestReturnMutants(t *testing.T) {
	v4 := mustHex(t, tvRGrtV4)
	v2 := mustHex(t, tvRGrtV2Alive)
	v3 := mustHex(t, "5247727403110200")
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name  string
		base  []byte
		mut   func(b []byte) []byte
		want  error
		field string
	}{
		{"v4 31 bytes", v4, func(b []byte) []byte { return b[:31] }, ErrLength, ""},
		{"v4 33 bytes", v4, func(b []byte) []byte { return append(b, 0) }, ErrLength, ""},
		{"v2 7 bytes", v2, func(b []byte) []byte { return b[:7] }, ErrLength, ""},
		{"v2 9 bytes", v2, func(b []byte) []byte { return append(b, 0) }, ErrLength, ""},
		{"4 bytes", v2, func(b []byte) []byte { return b[:4] }, ErrLength, ""},
		{"v4 says version 3", v4, func(b []byte) []byte { b[4] = 3; return b }, ErrLength, ""},
		{"v2 says version 4", v2, func(b []byte) []byte { b[4] = 4; return b }, ErrLength, ""},
		{"version 5", v4, func(b []byte) []byte { b[4] = 5; return b }, ErrVersion, ""},
		{"version 1", v2, func(b []byte) []byte { b[4] = 1; return b }, ErrVersion, ""},
		{"header byte 0", v4, func(b []byte) []byte { b[0] ^= 1; return b }, ErrHeader, ""},
		{"header RGme", v2, func(b []byte) []byte { copy(b, "RGme"); return b }, ErrHeader, ""},
		{"v4 player 0", v4, func(b []byte) []byte { b[5] = 0; return b }, ErrRange, "playerNum"},
		{"v4 player 21", v4, func(b []byte) []byte { b[5] = 21; return b }, ErrRange, "playerNum"},
		{"v2 player 0", v2, func(b []byte) []byte { b[6] = 0; return b }, ErrRange, "player"},
		{"v2 player 21", v2, func(b []byte) []byte { b[6] = 21; return b }, ErrRange, "player"},
		{"v2 message 5", v2, func(b []byte) []byte { b[7] = 5; return b }, ErrRange, "message"},
		{"v3 message 1", v3, func(b []byte) []byte { b[7] = 1; return b }, ErrRange, "message"},
		{"v3 message 2", v3, func(b []byte) []byte { b[7] = 2; return b }, ErrRange, "message"},
		{"fallen 2", v4, func(b []byte) []byte { b[7] = 2; return b }, ErrRange, "fallen"},
		{"fallen 255", v4, func(b []byte) []byte { b[7] = 255; return b }, ErrRange, "fallen"},
		{"pose x NaN", v4, func(b []byte) []byte { putF32(b, 8, nan); return b }, ErrRange, "pose[0]"},
		{"pose y NaN", v4, func(b []byte) []byte { putF32(b, 12, nan); return b }, ErrRange, "pose[1]"},
		{"pose theta +Inf", v4, func(b []byte) []byte { putF32(b, 16, inf); return b }, ErrRange, "pose[2]"},
		{"ball age NaN", v4, func(b []byte) []byte { putF32(b, 20, nan); return b }, ErrRange, "ballAge"},
		{"ball age -Inf", v4, func(b []byte) []byte { putF32(b, 20, -inf); return b }, ErrRange, "ballAge"},
		{"ball x NaN", v4, func(b []byte) []byte { putF32(b, 24, nan); return b }, ErrRange, "ball[0]"},
		{"ball y NaN bits ffffffff", v4, func(b []byte) []byte { copy(b[28:], []byte{0xff, 0xff, 0xff, 0xff}); return b }, ErrRange, "ball[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.mut(bytes.Clone(tc.base))
			r := ReturnPacket{Version: 4, Team: 9} // stale content must be cleared
			err := r.UnmarshalBinary(b)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if r != (ReturnPacket{}) {
				t.Errorf("packet not zeroed after error")
			}
			if tc.field != "" {
				wantRange(t, err, tc.field)
			}
		})
	}

	// Accepted edge values.
	for _, tc := range []struct {
		name string
		base []byte
		mut  func(b []byte)
	}{
		{"v4 player 1", v4, func(b []byte) { b[5] = 1 }},
		{"v4 player 20", v4, func(b []byte) { b[5] = 20 }},
		{"v2 player 20", v2, func(b []byte) { b[6] = 20 }},
		{"v2 message 4", v2, func(b []byte) { b[7] = 4 }},
		{"v4 team 0", v4, func(b []byte) { b[6] = 0 }},
		{"v4 negative zero", v4, func(b []byte) { putF32(b, 8, float32(math.Copysign(0, -1))) }},
		{"v4 max float", v4, func(b []byte) { putF32(b, 24, math.MaxFloat32) }},
		{"v4 denormal", v4, func(b []byte) { copy(b[28:], []byte{1, 0, 0, 0}) }},
	} {
		b := bytes.Clone(tc.base)
		tc.mut(b)
		var r ReturnPacket
		if err := r.UnmarshalBinary(b); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if out, err := r.MarshalBinary(); err != nil || !bytes.Equal(out, b) {
			t.Errorf("%s: round trip %v\n got % x\nwant % x", tc.name, err, out, b)
		}
	}

	if err := (&ReturnPacket{}).UnmarshalBinary(v4[:31]); err == nil ||
		err.Error() != "gamecontroller: return packet version 4 needs 32 bytes, got 31" {
		t.Errorf("message: %v", err)
	}
}

func TestReturnEncodeRejects(t *testing.T) {
	ok := NewAlive(17, 2)
	for _, tc := range []struct {
		name  string
		mut   func(r *ReturnPacket)
		want  error
		field string
	}{
		{"version 0", func(r *ReturnPacket) { r.Version = 0 }, ErrVersion, ""},
		{"version 5", func(r *ReturnPacket) { r.Version = 5 }, ErrVersion, ""},
		{"player 0", func(r *ReturnPacket) { r.Player = 0 }, ErrRange, "playerNum"},
		{"player 21", func(r *ReturnPacket) { r.Player = 21 }, ErrRange, "playerNum"},
		{"v2 player 21", func(r *ReturnPacket) { r.Version, r.Player = 2, 21 }, ErrRange, "player"},
		{"v2 message 5", func(r *ReturnPacket) { r.Version, r.Message = 2, 5 }, ErrRange, "message"},
		{"v3 message alive of v2", func(r *ReturnPacket) { r.Version, r.Message = 3, MsgAlive }, ErrRange, "message"},
		{"NaN pose", func(r *ReturnPacket) { r.Pose[1] = float32(math.NaN()) }, ErrRange, "pose[1]"},
		{"Inf ball age", func(r *ReturnPacket) { r.BallAge = float32(math.Inf(-1)) }, ErrRange, "ballAge"},
		{"NaN ball", func(r *ReturnPacket) { r.Ball[0] = float32(math.NaN()) }, ErrRange, "ball[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.mut(&r)
			out, err := r.AppendBinary(nil)
			if !errors.Is(err, tc.want) || len(out) != 0 {
				t.Fatalf("got %v and %d bytes, want %v", err, len(out), tc.want)
			}
			if tc.field != "" {
				wantRange(t, err, tc.field)
			}
		})
	}
	// v2/v3 ignore the v4 fields, so a NaN pose there encodes.
	r := ReturnPacket{Version: 2, Team: 17, Player: 2, Message: MsgAlive, Pose: [3]float32{float32(math.NaN())}}
	if b, err := r.MarshalBinary(); err != nil || !bytes.Equal(b, mustHex(t, tvRGrtV2Alive)) {
		t.Errorf("v2 with v4 fields: %v % x", err, b)
	}
}
