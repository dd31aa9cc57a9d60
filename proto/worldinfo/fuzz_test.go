package worldinfo

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// Mirrors of the Fawkes C structs, decoded by encoding/binary's reflection as an
// independent oracle. Bit-field words stay raw uint32.
type (
	wireVec3 struct {
		A, B, C float32
		Cov     [Cov3Len]float32
	}
	wireBall struct {
		Word    uint32
		A, B, C float32
		Cov     [Cov3Len]float32
	}
	wireOpponent struct {
		UID           uint32
		Dist, Bearing float32
		Cov           [Cov2Len]float32
	}
	wireWord struct{ W uint32 }
	wireFat  struct {
		Flags     uint32
		Pose      wireVec3
		Velo      wireVec3
		RelBall   wireBall
		RelBallV  wireVec3
		Opponents [FatOpponents]wireOpponent
	}
	wireHeader struct {
		Magic    uint16
		Version  uint8
		Reserved uint8
		Seq      uint32
	}
)

func TestWireSize(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int
	}{
		{wireHeader{}, HeaderSize}, {wireVec3{}, PoseSize}, {wireVec3{}, VelocitySize},
		{wireBall{}, BallSize}, {wireOpponent{}, OpponentSize}, {wireWord{}, WordSize},
		{wireFat{}, FatSize},
	} {
		if got := binary.Size(tc.v); got != tc.want {
			t.Errorf("binary.Size(%T) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// same compares floats bit for bit. encoding/binary converts through float64, which
// quiets signalling NaNs, so any two NaNs count as the same here; the byte round trip
// checks the exact bits.
func same(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func sameVec3(a, b, c float32, cov *Cov3, w *wireVec3) bool {
	if !same(a, w.A) || !same(b, w.B) || !same(c, w.C) {
		return false
	}
	for i := range cov {
		if !same(cov[i], w.Cov[i]) {
			return false
		}
	}
	return true
}

func sameBall(visible bool, history int32, reserved uint8, a, b, c float32, cov *Cov3, w *wireBall) bool {
	// C: int32_t history:24, visible:1 (== -1 when set), reserved:7.
	h := int32(w.Word<<8) >> 8
	vis := int32(w.Word<<7)>>31 == -1
	return h == history && vis == visible && uint8(w.Word>>25) == reserved &&
		sameVec3(a, b, c, cov, &wireVec3{w.A, w.B, w.C, w.Cov})
}

func sameOpponent(o *Opponent, w *wireOpponent) bool {
	if o.UID != w.UID || !same(o.Dist, w.Dist) || !same(o.Bearing, w.Bearing) {
		return false
	}
	for i := range o.Covariance {
		if !same(o.Covariance[i], w.Cov[i]) {
			return false
		}
	}
	return true
}

// agrees reports whether the decoded message m matches the reflection decode of body.
func agrees(t *testing.T, m Message, body []byte) bool {
	t.Helper()
	decode := func(v any) {
		if _, err := binary.Decode(body, binary.LittleEndian, v); err != nil {
			t.Fatalf("binary.Decode(%T): %v", v, err)
		}
	}
	switch m := m.(type) {
	case *Pose:
		var w wireVec3
		decode(&w)
		return sameVec3(m.X, m.Y, m.Theta, &m.Covariance, &w)
	case *Velocity:
		var w wireVec3
		decode(&w)
		return sameVec3(m.VelX, m.VelY, m.VelTheta, &m.Covariance, &w)
	case *RelBallVelocity:
		var w wireVec3
		decode(&w)
		return sameVec3(m.VelX, m.VelY, m.VelZ, &m.Covariance, &w)
	case *GlobalBallVelocity:
		var w wireVec3
		decode(&w)
		return sameVec3(m.VelX, m.VelY, m.VelZ, &m.Covariance, &w)
	case *RelBall:
		var w wireBall
		decode(&w)
		return sameBall(m.Visible, m.History, m.Reserved, m.Bearing, m.Dist, m.Slope, &m.Covariance, &w)
	case *GlobalBall:
		var w wireBall
		decode(&w)
		return sameBall(m.Visible, m.History, m.Reserved, m.X, m.Y, m.Z, &m.Covariance, &w)
	case *Opponent:
		var w wireOpponent
		decode(&w)
		return sameOpponent(m, &w)
	case *OpponentDisappeared:
		var w wireWord
		decode(&w)
		return m.UID == w.W
	case *GameState:
		var w wireWord
		decode(&w)
		return m.State == uint8(w.W&0xf) && uint32(m.StateTeam) == w.W>>4&3 &&
			m.ScoreCyan == uint8(w.W>>6) && m.ScoreMagenta == uint8(w.W>>14) &&
			uint32(m.OurTeam) == w.W>>22&3 && uint32(m.OurGoalColor) == w.W>>24&1 &&
			uint32(m.Half) == w.W>>25&1 && uint32(m.Reserved) == w.W>>26
	case *Penalty:
		var w wireWord
		decode(&w)
		return uint32(m.Player) == w.W&0xf && uint32(m.Code) == w.W>>4&0x3f &&
			uint32(m.Reserved) == w.W>>10&0x3f && uint32(m.SecondsRemaining) == w.W>>16
	case *Fat:
		var w wireFat
		decode(&w)
		ok := m.ValidPose == (w.Flags&1 != 0) && m.ValidVelocity == (w.Flags&2 != 0) &&
			m.ValidRelBall == (w.Flags&4 != 0) && m.ValidRelBallVelocity == (w.Flags&8 != 0) &&
			uint32(m.NumOpponents) == w.Flags>>4&0xff && m.Reserved == w.Flags>>12 &&
			sameVec3(m.Pose.X, m.Pose.Y, m.Pose.Theta, &m.Pose.Covariance, &w.Pose) &&
			sameVec3(m.Velocity.VelX, m.Velocity.VelY, m.Velocity.VelTheta, &m.Velocity.Covariance, &w.Velo) &&
			sameBall(m.RelBall.Visible, m.RelBall.History, m.RelBall.Reserved, m.RelBall.Bearing,
				m.RelBall.Dist, m.RelBall.Slope, &m.RelBall.Covariance, &w.RelBall) &&
			sameVec3(m.RelBallVel.VelX, m.RelBallVel.VelY, m.RelBallVel.VelZ, &m.RelBallVel.Covariance, &w.RelBallV)
		for i := range m.Opponents {
			ok = ok && sameOpponent(&m.Opponents[i], &w.Opponents[i])
		}
		return ok
	}
	t.Fatalf("no oracle for %T", m)
	return false
}

// checkPlain runs the properties every decodable plaintext must have: the records
// re-encode to the bytes that were read, and every well-formed record decodes to the
// values of the reflection oracle and re-encodes to its body.
func checkPlain(t *testing.T, plain []byte) {
	h, r, err := Parse(plain)
	if err != nil {
		return
	}
	var hw wireHeader
	if _, err := binary.Decode(plain, binary.BigEndian, &hw); err != nil || hw.Seq != h.Seq ||
		hw.Reserved != h.Reserved || hw.Magic != Magic || hw.Version != Version {
		t.Fatalf("header %+v disagrees with %+v (%v)", h, hw, err)
	}
	var b Builder
	b.Reset(h)
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		if err := b.AddRaw(rec.Type, rec.Body); err != nil {
			t.Fatalf("AddRaw: %v", err)
		}
		m, err := rec.Message()
		if err != nil {
			continue
		}
		body, err := m.MarshalBinary()
		if err != nil || !bytes.Equal(body, rec.Body) {
			t.Fatalf("%s record re-encodes to % x (%v), want % x", rec.Type, body, err, rec.Body)
		}
		if !agrees(t, m, rec.Body) {
			t.Fatalf("%s record %+v disagrees with binary.Decode of % x", rec.Type, m, rec.Body)
		}
	}
	end := r.Offset()
	if r.Err() == nil && end != len(plain) {
		t.Fatalf("walk ended at %d of %d bytes without error", end, len(plain))
	}
	if !bytes.Equal(b.Bytes(), plain[:end]) {
		t.Fatalf("records re-encode to\n% x\nwant\n% x", b.Bytes(), plain[:end])
	}
	Type10RelBall(plain)
}

func seedVectors(f *testing.F, cipher bool) {
	for _, v := range loadVectors(f) {
		if cipher {
			f.Add(v.cipher)
		} else {
			f.Add(v.plain)
		}
	}
	plain := mustHex(f, "beef0200 00000005 0001 002c"+" 00000000"+
		" 0063 0008 01020304 05060708 0008 0004 93404002 0001 0030 00")
	if cipher {
		c := NewCipher(DefaultKey)
		ct, _ := c.Seal(nil, plain)
		f.Add(ct)
		f.Add(ct[:len(ct)-1])
	} else {
		f.Add(plain)
	}
}

// FuzzOpenParse decrypts with the default key and parses. Anything that decrypts must
// re-encrypt to the same ciphertext and satisfy checkPlain.
func FuzzOpenParse(f *testing.F) {
	seedVectors(f, true)
	c := NewCipher(DefaultKey)
	f.Fuzz(func(t *testing.T, ct []byte) {
		plain, err := c.Open(nil, ct)
		if err != nil {
			return
		}
		again, err := c.Seal(nil, plain)
		if len(plain) <= MTU && (err != nil || !bytes.Equal(again, ct)) {
			t.Fatalf("Seal(Open(ct)) = % x, %v; want % x", again, err, ct)
		}
		checkPlain(t, plain)
	})
}

// FuzzParse parses plaintext datagrams directly, which lets the fuzzer reach the record
// walker without getting through AES.
func FuzzParse(f *testing.F) {
	seedVectors(f, false)
	f.Fuzz(func(t *testing.T, plain []byte) {
		checkPlain(t, plain)
	})
}
