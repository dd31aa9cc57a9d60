package teaminfo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

func isSentinel(err error) bool {
	for _, s := range []error{ErrLength, ErrBool, ErrMagic, ErrVersion, ErrReserved, ErrRange, ErrAuth, ErrKey, ErrChecksum} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func FuzzZJU(f *testing.F) {
	tv := tvTeam296Bytes(f)
	f.Add(tv)
	f.Add(make([]byte, ZJUSize))
	f.Add(tv[:ZJUSize-1])
	f.Add(append(bytes.Clone(tv), 0))
	noisy := bytes.Clone(tv)
	noisy[zjuOffPad0], noisy[zjuOffPad0+1], noisy[zjuOffPad1] = 0xff, 0x01, 0x80
	f.Add(noisy)
	badBool := bytes.Clone(tv)
	badBool[zjuOffSeeGoal] = 2
	f.Add(badBool)
	nan := bytes.Clone(tv)
	for off := zjuOffRobotPos; off < zjuOffBallQuality; off += 8 {
		binary.LittleEndian.PutUint64(nan[off:], 0x7ff8_0000_0000_0001)
	}
	f.Add(nan)

	f.Fuzz(func(t *testing.T, b []byte) {
		var p ZJUPacket
		if err := p.UnmarshalBinary(b); err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without sentinel: %v", err)
			}
			return
		}
		if !Role(p.Role).Valid() || !PlayState(p.State).Valid() {
			t.Fatalf("accepted role %d, state %d", p.Role, p.State)
		}
		// Re-encoding gives the input with zeroed padding.
		want := bytes.Clone(b)
		want[zjuOffPad0], want[zjuOffPad0+1], want[zjuOffPad1] = 0, 0, 0
		out, err := p.MarshalBinary()
		if err != nil || !bytes.Equal(out, want) {
			t.Fatalf("round trip: err %v\n got % x\nwant % x", err, out, want)
		}
		// encoding/binary over the C struct mirror agrees.
		var w wireZJU
		if _, err := binary.Decode(b, binary.LittleEndian, &w); err != nil {
			t.Fatal(err)
		}
		v3 := func(a [3]float64) Vector3 { return Vector3{a[0], a[1], a[2]} }
		mirror := ZJUPacket{
			TxpTimestamp: RosTime{w.TxpSec, w.TxpNsec}, RecvTimestamp: RosTime{w.RecvSec, w.RecvNsec},
			PlayerNumber: w.Player, TeamNumber: w.Team, Test: w.Test, Incapacitated: w.Incapacitated != 0,
			Role: w.Role, AttackRight: w.AttackRight != 0, Dest: v3(w.Dest), FinalDest: v3(w.FinalDest),
			AttackTarget: v3(w.AttackTarget), TimeSinceLastKick: w.TimeSinceLastKick, State: w.State,
			Priority: w.Priority != 0, KickerID: w.KickerID, SeeBall: w.SeeBall != 0,
			SeeCircle: w.SeeCircle != 0, SeeGoal: w.SeeGoal != 0, RobotPos: v3(w.RobotPos),
			BallField: v3(w.BallField), BallGlobal: v3(w.BallGlobal), CircleField: v3(w.CircleField),
			CircleGlobal: v3(w.CircleGlobal), GoalField: v3(w.GoalField), GoalGlobal: v3(w.GoalGlobal),
			BallQuality: w.BallQuality, FieldQuality: w.FieldQuality, FieldConsistency: w.FieldConsistent,
			GCConnected: w.GCConnected != 0, GCState: w.GCState, GCState2: w.GCState2,
		}
		for i, m := range w.MatesOnline {
			mirror.MatesOnline[i] = m != 0
		}
		if d := diff(p, mirror); len(d) > 0 {
			t.Fatalf("binary.Decode mirror disagrees: %v", d)
		}
		// The model conversions are total; exact fields survive the trip.
		var s State
		p.ToState(&s)
		var back ZJUPacket
		back.FromState(&s)
		if back.TeamNumber != p.TeamNumber || back.Test != p.Test || back.MatesOnline != p.MatesOnline || back.GCState2 != p.GCState2 ||
			math.Float32bits(back.BallQuality) != math.Float32bits(p.BallQuality) && !math.IsNaN(float64(p.BallQuality)) {
			t.Fatalf("model trip changed exact fields: %+v -> %+v", p, back)
		}
		if _, err := AppendDNet(nil, &s, nil); err != nil && !errors.Is(err, ErrRange) {
			t.Fatalf("zju content as dnet: %v", err)
		}
	})
}

func FuzzDNet(f *testing.F) {
	plain := readHex(f, "dnet-v1.txt")
	tagged := readHex(f, "dnet-v1-tagged.hex")
	plain2 := readHex(f, "dnet-v2.txt")
	tagged2 := readHex(f, "dnet-v2-tagged.hex")
	checked := readHex(f, "dnet-v1-checked.hex")
	checked2 := readHex(f, "dnet-v2-checked.hex")
	f.Add(checked, []byte(goldenKey))
	f.Add(checked2, []byte("k"))
	f.Add(checked2[:DNetCheckedSize-1], []byte("k"))
	f.Add(plain, []byte(goldenKey))
	f.Add(tagged, []byte(goldenKey))
	f.Add(tagged, []byte("other key"))
	f.Add(tagged[:DNetTaggedSizeV1-1], []byte(goldenKey))
	f.Add(plain[:DNetSizeV1-1], []byte("k"))
	f.Add(plain2, []byte(goldenKey))
	f.Add(tagged2, []byte(goldenKey))
	f.Add(tagged2[:DNetTaggedSize-1], []byte(goldenKey))
	f.Add([]byte("DNt\x02"), []byte("k"))
	f.Add([]byte("DNt\x03\x00"), []byte("k"))
	zero := make([]byte, DNetSizeV1)
	copy(zero, "DNt\x01")
	f.Add(zero, []byte{0})
	zero2 := make([]byte, DNetSize)
	copy(zero2, "DNt\x02")
	f.Add(zero2, []byte{0})
	noPlayer := bytes.Clone(plain2)
	noPlayer[dnOffEchoPlayer] = 0
	f.Add(noPlayer, []byte("k"))
	junk := bytes.Clone(plain)
	for i := dnOffVoronoi + 3*dnVoronoiSize; i < DNetSizeV1; i++ {
		junk[i] = 0xa5 // unused voronoi slots
	}
	f.Add(junk, []byte("k"))

	f.Fuzz(func(t *testing.T, b, secret []byte) {
		var p DNetPacket
		auth, err := p.Decode(b, nil)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error without sentinel: %v", err)
			}
			return
		}
		if (auth == AuthUnverified) != p.Tagged || auth == AuthVerified {
			t.Fatalf("auth %v with tagged %v and no key", auth, p.Tagged)
		}
		if !p.Tagged && !p.Unchecked && crc32cBitwise(b[:len(b)-CRCSize]) != binary.LittleEndian.Uint32(b[len(b)-CRCSize:]) {
			t.Fatal("accepted a packet whose checksum does not match")
		}
		if !Role(p.Role).Valid() || !PlayState(p.PlayState).Valid() {
			t.Fatalf("accepted role %d, play state %d", p.Role, p.PlayState)
		}
		out, err := p.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip: err %v\n got % x\nwant % x", err, out, b)
		}

		// Through the model: the same bytes in the current version, minus tag and unused
		// voronoi slots (a version 1 packet gains an empty echo), with a fresh checksum.
		var s State
		p.ToState(&s)
		viaState, err := AppendDNet(nil, &s, nil)
		if err != nil {
			t.Fatalf("model trip: %v", err)
		}
		body, _ := DNetVersionSize(p.Version, false)
		want := append(bytes.Clone(b[:body]), make([]byte, DNetSize-body)...)
		want[dnOffVersion], want[dnOffHeaderFlags] = DNetVersion, hdrChecked
		clear(want[dnOffVoronoi+int(p.VoronoiLen)*dnVoronoiSize : DNetSizeV1])
		want = binary.LittleEndian.AppendUint32(want, crc32cBitwise(want))
		if !bytes.Equal(viaState, want) {
			t.Fatalf("model trip:\n got % x\nwant % x", viaState, want)
		}

		if len(secret) == 0 {
			return
		}
		k, err := NewKey(secret)
		if err != nil {
			t.Fatal(err)
		}
		var q DNetPacket
		auth, err = q.Decode(b, k)
		switch {
		case !p.Tagged && !errors.Is(err, ErrAuth):
			t.Fatalf("untagged packet with key: %v", err)
		case err == nil:
			if auth != AuthVerified {
				t.Fatalf("verified packet reports %v", auth)
			}
			signed, err := q.AppendSigned(nil, k)
			if err != nil || !bytes.Equal(signed, b) {
				t.Fatalf("re-signing a verified packet: err %v\n got % x\nwant % x", err, signed, b)
			}
		}
		signed, err := p.AppendSigned(nil, k)
		if err != nil {
			t.Fatal(err)
		}
		if auth, err := q.Decode(signed, k); err != nil || auth != AuthVerified {
			t.Fatalf("own signature rejected: %v %v", auth, err)
		}
	})
}
