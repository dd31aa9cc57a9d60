package worldinfo

import "testing"

// fullUpdate builds the 280-byte full update of the vectors into b.
func fullUpdate(b *Builder, seq uint32, opps []Opponent) error {
	b.Reset(Header{Seq: seq})
	for _, m := range []Message{&tvPose, &tvVel, &tvRelBall, &tvGame, &tvPenalty} {
		if err := b.Add(m); err != nil {
			return err
		}
	}
	for i := range opps {
		if err := b.Add(&opps[i]); err != nil {
			return err
		}
	}
	return nil
}

func BenchmarkBuildSeal(b *testing.B) {
	c := NewCipher(DefaultKey)
	var bld Builder
	opps := []Opponent{opp(1, 1, 0), opp(2, 2, 0.5), opp(3, 3, -0.5)}
	out := make([]byte, 0, MaxCiphertext)
	b.ReportAllocs()
	var seq uint32
	for b.Loop() {
		if err := fullUpdate(&bld, seq, opps); err != nil {
			b.Fatal(err)
		}
		seq++
		var err error
		if out, err = c.Seal(out[:0], bld.Bytes()); err != nil || len(out) != 288 {
			b.Fatalf("%d bytes, %v", len(out), err)
		}
	}
	b.SetBytes(288)
}

func BenchmarkOpenParse(b *testing.B) {
	c := NewCipher(DefaultKey)
	ct := loadVectors(b)["full_update"].cipher
	plain := make([]byte, 0, RecvBufferSize)
	b.ReportAllocs()
	b.SetBytes(int64(len(ct)))
	for b.Loop() {
		var err error
		if plain, err = c.Open(plain[:0], ct); err != nil {
			b.Fatal(err)
		}
		_, r, err := Parse(plain)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rec, ok := r.Next(); ok; rec, ok = r.Next() {
			switch rec.Type {
			case TypePose:
				var p Pose
				err = p.UnmarshalBinary(rec.Body)
			case TypeVelocity:
				var v Velocity
				err = v.UnmarshalBinary(rec.Body)
			case TypeRelBall:
				var r RelBall
				err = r.UnmarshalBinary(rec.Body)
			case TypeGameState:
				var g GameState
				err = g.UnmarshalBinary(rec.Body)
			case TypePenalty:
				var p Penalty
				err = p.UnmarshalBinary(rec.Body)
			case TypeOpponent:
				var o Opponent
				err = o.UnmarshalBinary(rec.Body)
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 8 || r.Err() != nil {
			b.Fatalf("%d records, %v", n, r.Err())
		}
	}
}
