package gamecontroller

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

func addControlSeeds(f *testing.F) {
	for _, g := range goldenLayouts {
		b := g.build()
		f.Add(b)
		rgtd := bytes.Clone(b)
		copy(rgtd, MagicMonitor)
		f.Add(rgtd)
		f.Add(b[:len(b)-1])
	}
	f.Add(fromNonzero(f, 640, tvHL640Nonzero))
	f.Add(fromNonzero(f, 664, tvHL664Nonzero))
	f.Add(fromNonzero(f, 688, tvHL688Nonzero))
	f.Add(mustHex(f, tvSPL18Hex))
	f.Add(fromNonzero(f, SizeHSL20, tvHSL20Nonzero))
	f.Add([]byte("RGme"))
	f.Add([]byte{})
}

// FuzzControl: decoding never panics; Classify agrees with Identify; whatever decodes re-encodes to the same bytes, agrees
// with the encoding/binary mirror, and yields a GCInfo for every player of both teams.
func FuzzControl(f *testing.F) {
	addControlSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		// Classify is Identify without the details.
		k1, l1, e1 := Identify(b)
		k2, l2, e2 := Classify(b)
		if k1 != k2 || l1 != l2 || (e1 == nil) != (e2 == nil) || (e2 != nil && !errors.Is(e1, e2)) {
			t.Fatalf("Identify %v %v %v, Classify %v %v %v", k1, l1, e1, k2, l2, e2)
		}
		var p Packet
		if err := p.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, ErrLength) && !errors.Is(err, ErrHeader) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrRange) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			if p != (Packet{}) {
				t.Fatal("packet not zeroed after error")
			}
			return
		}
		out, err := p.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip: err=%v\n got % x\nwant % x", err, out, b)
		}
		if o := oracle(t, b, p.Layout); o != p {
			t.Fatalf("encoding/binary mirror disagrees:\n got %+v\nwant %+v", p, o)
		}
		for ti := range p.Teams {
			team := int(p.Teams[ti].TeamNumber)
			for n := 1; n <= p.Layout.MaxPlayers(); n++ {
				g, err := Derive(&p, team, n)
				if err != nil {
					t.Fatalf("Derive team %d player %d: %v", team, n, err)
				}
				if g.Penalised != (g.Penalty != PenaltyNone) || g.SecsRemaining > MaxPublishedSecs ||
					(g.SetPlayReady && g.SetPlayFreeze) || (g.SetPlay == SetPlayNone && (g.SetPlayReady || g.SetPlayFreeze)) {
					t.Fatalf("inconsistent GCInfo %+v", g)
				}
			}
			if _, err := Derive(&p, team, p.Layout.MaxPlayers()+1); !errors.Is(err, ErrRange) {
				t.Fatalf("player beyond MAX_NUM_PLAYERS: %v", err)
			}
		}
	})
}

// FuzzEncode: a Packet with fuzzed enums and times either fails to encode with ErrRange or
// encodes to bytes that decode to the same Packet.
func FuzzEncode(f *testing.F) {
	for i := range goldenLayouts {
		f.Add(uint8(i), uint8(3), uint8(0), uint8(1), int32(300), int32(-5), uint8(5), uint8(2))
	}
	f.Add(uint8(0), uint8(3), uint8(2), uint8(1), int32(70000), int32(-1), uint8(255), uint8(0))
	f.Fuzz(func(t *testing.T, gi, state, phase, setPlay uint8, secs, secondary int32, penalty, player uint8) {
		g := goldenLayouts[int(gi)%len(goldenLayouts)]
		p := g.want()
		p.State, p.GamePhase, p.SetPlay = State(state), GamePhase(phase), SetPlay(setPlay)
		p.SecsRemaining, p.SecondaryTime = secs, secondary
		p.Teams[1].Players[int(player)%g.n].Penalty = Penalty(penalty)
		b, err := p.MarshalBinary()
		if err != nil {
			if !errors.Is(err, ErrRange) {
				t.Fatalf("encode error without ErrRange: %v", err)
			}
			return
		}
		var q Packet
		if err := q.UnmarshalBinary(b); err != nil {
			t.Fatalf("encoded packet does not decode: %v", err)
		}
		p.SetPlayRaw = q.SetPlayRaw // informational, ignored by encoding
		if q != p {
			t.Fatalf("encode/decode:\n got %+v\nwant %+v", q, p)
		}
	})
}

// FuzzReturn: decoding never panics; whatever decodes re-encodes to the same bytes and
// agrees with the encoding/binary mirror.
func FuzzReturn(f *testing.F) {
	for _, h := range []string{tvRGrtV2Alive, tvRGrtV2Penalise, tvRGrtV4, tvRGrtV4Default, "5247727403110200"} {
		b := mustHex(f, h)
		f.Add(b)
		f.Add(b[:len(b)-1])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r ReturnPacket
		if err := r.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, ErrLength) && !errors.Is(err, ErrHeader) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrRange) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		out, err := r.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip: err=%v\n got % x\nwant % x", err, out, b)
		}
		if r.Player < 1 || r.Player > MaxReturnPlayer {
			t.Fatalf("accepted player %d", r.Player)
		}
		if r.Version != ReturnVersion {
			if r.Team != b[5] || r.Player != b[6] || uint8(r.Message) != b[7] {
				t.Fatalf("v%d fields %+v from % x", r.Version, r, b)
			}
			return
		}
		var m returnMirror
		if _, err := binary.Decode(b, binary.LittleEndian, &m); err != nil {
			t.Fatal(err)
		}
		same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }
		if m.Player != r.Player || m.Team != r.Team || (m.Fallen == 1) != r.Fallen || m.Fallen > 1 ||
			!same(m.Pose[0], r.Pose[0]) || !same(m.Pose[1], r.Pose[1]) || !same(m.Pose[2], r.Pose[2]) ||
			!same(m.BallAge, r.BallAge) || !same(m.Ball[0], r.Ball[0]) || !same(m.Ball[1], r.Ball[1]) {
			t.Fatalf("encoding/binary mirror disagrees: %+v vs %+v", m, r)
		}
	})
}
