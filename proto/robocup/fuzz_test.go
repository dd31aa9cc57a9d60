package robocup

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
)

// FuzzDecode feeds arbitrary bytes to Decode and Looks: they must not panic, and a
// message that decodes must encode again (with the profile its extensions name) to a
// message that decodes to the same values.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*.bin")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("DNt\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		looks := Looks(b)
		var p Packet
		if err := Decode(b, &p); err != nil {
			if looks {
				t.Fatalf("Looks accepts what Decode rejects: %v", err)
			}
			return
		}
		ext := ExtNone
		switch {
		case p.HasBitBots && p.HasPurposes:
			return // a message of both profiles: no one profile writes it again
		case p.HasBitBots:
			ext = ExtBitBots
		case p.HasPurposes:
			ext = ExtNUbots
		}
		out, err := Append(nil, &p, ext)
		if err != nil {
			t.Fatalf("Append of a decoded message: %v", err)
		}
		if len(out) > 0 && !Looks(out) {
			t.Fatalf("Looks rejects our own message % x", out)
		}
		var q Packet
		if err := Decode(out, &q); err != nil {
			t.Fatalf("Decode of our own message: %v", err)
		}
		p.Msg.ProtoReflect().SetUnknown(nil)
		q.Msg.ProtoReflect().SetUnknown(nil)
		if !proto.Equal(p.Msg, q.Msg) {
			t.Fatalf("standard fields changed:\n%v\n%v", p.Msg, q.Msg)
		}
		if !sameBitBots(p.BitBots, q.BitBots) {
			t.Fatalf("Bit-Bots fields changed: %+v, %+v", p.BitBots, q.BitBots)
		}
		if len(p.Purposes) != len(q.Purposes) {
			t.Fatalf("purposes changed: %v, %v", p.Purposes, q.Purposes)
		}
		for i := range p.Purposes {
			if p.Purposes[i] != q.Purposes[i] {
				t.Fatalf("purposes changed: %v, %v", p.Purposes, q.Purposes)
			}
		}
	})
}

func sameBitBots(a, b BitBots) bool {
	same := func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) }
	if !same(a.MaxWalkingSpeed, b.MaxWalkingSpeed) || !same(a.TimeToBall, b.TimeToBall) ||
		a.Role != b.Role || a.Action != b.Action || a.OffensiveSide != b.OffensiveSide ||
		len(a.OtherRobotConfidence) != len(b.OtherRobotConfidence) {
		return false
	}
	for i := range a.OtherRobotConfidence {
		if !same(a.OtherRobotConfidence[i], b.OtherRobotConfidence[i]) {
			return false
		}
	}
	return true
}
