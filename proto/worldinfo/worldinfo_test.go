package worldinfo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

func opp(uid uint32, dist, bearing float32) Opponent {
	return Opponent{UID: uid, Dist: dist, Bearing: bearing}
}

var (
	tvPose    = Pose{X: 1, Y: 2, Theta: 0.5}
	tvVel     = Velocity{VelX: 0.5, VelY: -0.5, VelTheta: 1}
	tvRelBall = RelBall{Visible: true, History: 5, Bearing: 0.5, Dist: 2, Slope: -0.25}
	tvGlobal  = GlobalBall{Visible: false, History: -3, X: 1.5, Y: -1, Z: 0}
	tvGame    = GameState{State: 3, StateTeam: TeamCyan, ScoreCyan: 2, ScoreMagenta: 1,
		OurTeam: TeamCyan, OurGoalColor: GoalBlue, Half: HalfSecond}
	tvPenalty = Penalty{Player: 3, Code: PenaltyReqForPickup, SecondsRemaining: 30}
)

// golden lists the decoded contents of the vectors in testdata/plain.txt; the values are
// the ones written in the comments there.
var golden = []struct {
	name string
	h    Header
	msgs []Message
}{
	{"pose", Header{Seq: 0}, []Message{&tvPose}},
	{"pose_cov", Header{Reserved: 0xab, Seq: 1}, []Message{&Pose{X: -1.5, Y: 0.25, Theta: 3,
		Covariance: Cov3{1, 2, 3, 4, 5, 6, 7, 8, 9}}}},
	{"velocity", Header{Seq: 2}, []Message{&Velocity{VelX: 0.5, VelY: -0.5, VelTheta: 1,
		Covariance: Cov3{0.25, 0, 0, 0, 0.25, 0, 0, 0, 0.25}}}},
	{"relative_ball", Header{Seq: 3}, []Message{&RelBall{Visible: true, History: 5, Bearing: 0.5,
		Dist: 2, Slope: -0.25, Covariance: Cov3{0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5}}}},
	{"relative_ball_velocity", Header{Seq: 4}, []Message{&RelBallVelocity{VelX: 1, VelY: 0, VelZ: -1}}},
	{"opponent", Header{Seq: 5}, []Message{&Opponent{UID: 7, Dist: 3, Bearing: -0.5, Covariance: Cov2{1, 0, 0, 1}}}},
	{"opponent_disappeared", Header{Seq: 6}, []Message{&OpponentDisappeared{UID: 0x01020304}}},
	{"fat", Header{Seq: 7}, []Message{&Fat{ValidPose: true, ValidVelocity: true, NumOpponents: 2,
		Pose: tvPose, Velocity: tvVel, Opponents: [FatOpponents]Opponent{opp(1, 1, 0), opp(2, 2, 0.5)}}}},
	{"game_state", Header{Seq: 8}, []Message{&tvGame}},
	{"penalty", Header{Seq: 9}, []Message{&tvPenalty}},
	{"global_ball", Header{Seq: 10}, []Message{&tvGlobal}},
	{"global_ball_velocity", Header{Seq: 11}, []Message{&GlobalBallVelocity{VelX: 0.25, VelY: 0.5}}},
	{"full_update", Header{Seq: 12}, []Message{&tvPose, &tvVel, &tvRelBall, &tvGame, &tvPenalty,
		&Opponent{UID: 1, Dist: 1}, &Opponent{UID: 2, Dist: 2, Bearing: 0.5}, &Opponent{UID: 3, Dist: 3, Bearing: -0.5}}},
	{"key16", Header{Seq: 6}, []Message{&OpponentDisappeared{UID: 0x01020304}}},
}

func TestGoldenDatagrams(t *testing.T) {
	vs := loadVectors(t)
	c := NewCipher(DefaultKey)
	for _, g := range golden {
		v, ok := vs[g.name]
		if !ok {
			t.Fatalf("no vector %q", g.name)
		}
		// Decode: decrypt, header, records.
		plain, err := NewCipher(v.key).Open(nil, v.cipher)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		h, r, err := Parse(plain)
		if err != nil || h != g.h {
			t.Fatalf("%s: header %+v err %v, want %+v", g.name, h, err, g.h)
		}
		var got []Message
		for rec, ok := r.Next(); ok; rec, ok = r.Next() {
			m, err := rec.Message()
			if err != nil {
				t.Fatalf("%s: record at %d: %v", g.name, rec.Offset, err)
			}
			got = append(got, m)
		}
		if r.Err() != nil || !reflect.DeepEqual(got, g.msgs) {
			t.Fatalf("%s: err %v\n got %+v\nwant %+v", g.name, r.Err(), got, g.msgs)
		}
		// Encode: the same records give the same bytes, and (default key) ciphertext.
		var b Builder
		b.Reset(g.h)
		for _, m := range g.msgs {
			if err := b.Add(m); err != nil {
				t.Fatalf("%s: Add: %v", g.name, err)
			}
		}
		if !bytes.Equal(b.Bytes(), v.plain) || b.Records() != len(g.msgs) || b.Len() != len(v.plain) {
			t.Fatalf("%s: built\n got % x\nwant % x", g.name, b.Bytes(), v.plain)
		}
		if v.key == DefaultKey {
			ct, err := c.Seal(nil, b.Bytes())
			if err != nil || !bytes.Equal(ct, v.cipher) {
				t.Errorf("%s: sealed\n got % x\nwant % x", g.name, ct, v.cipher)
			}
		}
	}
}

func TestFawkesType10Pair(t *testing.T) {
	v := loadVectors(t)["fawkes_type10_pair"]
	_, r, err := Parse(v.plain)
	if err != nil {
		t.Fatal(err)
	}
	var globals []GlobalBall
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		m, err := rec.Message()
		if err != nil {
			t.Fatal(err)
		}
		globals = append(globals, *m.(*GlobalBall))
	}
	if len(globals) != 2 || globals[0].RelBall() != tvRelBall || globals[1] != tvGlobal {
		t.Fatalf("got %+v", globals)
	}
	if off, ok := Type10RelBall(v.plain); !ok || off != HeaderSize {
		t.Errorf("Type10RelBall = %d, %v; want %d, true", off, ok, HeaderSize)
	}
	// A Fawkes sender's bytes: relative ball appended as type 10.
	var b Builder
	b.Reset(Header{Seq: 13})
	if err := b.AddAs(TypeGlobalBall, &tvRelBall); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(&tvGlobal); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), v.plain) {
		t.Errorf("built\n got % x\nwant % x", b.Bytes(), v.plain)
	}
	if err := b.AddAs(TypeGlobalBall, &tvPose); !errors.Is(err, ErrSize) {
		t.Errorf("AddAs(type 10, pose) err = %v, want ErrSize", err)
	}
}

func TestType10RelBallAmbiguous(t *testing.T) {
	ball := func(b *Builder) { _ = b.Add(&tvGlobal) }
	other := func(b *Builder) { _ = b.Add(&tvPenalty) }
	for _, tc := range []struct {
		name  string
		parts []func(*Builder)
		want  bool
	}{
		{"one", []func(*Builder){ball}, false},
		{"two adjacent", []func(*Builder){other, ball, ball, other}, true},
		{"two apart", []func(*Builder){ball, other, ball}, false},
		{"three", []func(*Builder){ball, ball, ball}, false},
		{"none", []func(*Builder){other}, false},
	} {
		var b Builder
		for _, p := range tc.parts {
			p(&b)
		}
		if _, ok := Type10RelBall(b.Bytes()); ok != tc.want {
			t.Errorf("%s: Type10RelBall ok = %v, want %v", tc.name, ok, tc.want)
		}
	}
}

func TestBitFieldWords(t *testing.T) {
	if w, err := tvGame.Word(); err != nil || w != 0x02404093 {
		t.Errorf("game state word = %#08x, %v; want 0x02404093", w, err)
	}
	if w, err := tvPenalty.Word(); err != nil || w != 0x001e0073 {
		t.Errorf("penalty word = %#08x, %v; want 0x001e0073", w, err)
	}
	for _, tc := range []struct {
		visible bool
		history int32
		word    uint32
	}{
		{true, 5, 0x01000005},
		{false, -3, 0x00fffffd},
		{true, HistoryMax, 0x017fffff},
		{false, HistoryMin, 0x00800000},
	} {
		w, err := ballWord(tc.visible, tc.history, 0)
		if err != nil || w != tc.word {
			t.Errorf("ballWord(%v, %d) = %#08x, %v; want %#08x", tc.visible, tc.history, w, err, tc.word)
		}
		v, h, res := splitBallWord(tc.word)
		if v != tc.visible || h != tc.history || res != 0 {
			t.Errorf("splitBallWord(%#08x) = %v %d %d", tc.word, v, h, res)
		}
	}
	f := Fat{ValidPose: true, ValidVelocity: true, NumOpponents: 2}
	body, err := f.MarshalBinary()
	if err != nil || binary.LittleEndian.Uint32(body) != 0x23 {
		t.Errorf("fat flags = % x, %v; want 23 00 00 00", body[:4], err)
	}
	var g GameState
	g.SetWord(0xffffffff)
	if g != (GameState{15, 3, 255, 255, 3, 1, 1, 63}) {
		t.Errorf("SetWord(all ones) = %+v", g)
	}
	var p Penalty
	p.SetWord(0xffffffff)
	if p != (Penalty{15, 63, 63, 0xffff}) {
		t.Errorf("penalty SetWord(all ones) = %+v", p)
	}
}

func TestRangeErrors(t *testing.T) {
	for name, m := range map[string]Message{
		"history high":   &RelBall{History: HistoryMax + 1},
		"history low":    &GlobalBall{History: HistoryMin - 1},
		"ball reserved":  &RelBall{Reserved: 128},
		"game state":     &GameState{State: 16},
		"state team":     &GameState{StateTeam: 4},
		"our team":       &GameState{OurTeam: 4},
		"goal color":     &GameState{OurGoalColor: 2},
		"half":           &GameState{Half: 2},
		"gs reserved":    &GameState{Reserved: 64},
		"player":         &Penalty{Player: 16},
		"penalty code":   &Penalty{Code: 64},
		"pen reserved":   &Penalty{Reserved: 64},
		"fat reserved":   &Fat{Reserved: 1 << 20},
		"fat rel ball":   &Fat{RelBall: RelBall{History: 1 << 24}},
		"fat ball resvd": &Fat{RelBall: RelBall{Reserved: 200}},
	} {
		out, err := m.AppendBinary([]byte("x"))
		var re *RangeError
		if !errors.As(err, &re) || string(out) != "x" {
			t.Errorf("%s: err %v out %q, want RangeError and nothing appended", name, err, out)
		}
		var b Builder
		if err := b.Add(m); !errors.As(err, &re) || b.Len() != HeaderSize || b.Records() != 0 {
			t.Errorf("%s: Builder.Add err %v len %d", name, err, b.Len())
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	good := mustHex(t, "beef0200 00000000")
	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrShort},
		{"7 bytes", good[:7], ErrShort},
		{"magic", mustHex(t, "efbe0200 00000000"), ErrMagic},
		{"version 1", mustHex(t, "beef0100 00000000"), ErrVersion},
		{"version 3", mustHex(t, "beef0300 00000000"), ErrVersion},
		{"too long", append(bytes.Clone(good), make([]byte, MTU-HeaderSize+1)...), ErrTooLong},
	} {
		if _, _, err := Parse(tc.b); !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
	// Any reserved byte is accepted, an empty record list is fine.
	for _, res := range []byte{0, 1, 0x7f, 0xff} {
		b := bytes.Clone(good)
		b[3] = res
		h, r, err := Parse(b)
		if _, more := r.Next(); err != nil || h.Reserved != res || more || r.Err() != nil {
			t.Errorf("reserved %#x: %+v %v", res, h, err)
		}
	}
}

// recordsOf walks a plaintext and returns what a receiver makes of each record.
func recordsOf(t *testing.T, plain []byte) (types []RecordType, checks []error, end error) {
	t.Helper()
	_, r, err := Parse(plain)
	if err != nil {
		t.Fatal(err)
	}
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		types = append(types, rec.Type)
		checks = append(checks, rec.Check())
	}
	return types, checks, r.Err()
}

// TestRecordRules covers the receive rules of the research (§6.4): size mismatch and
// unknown type are skipped by size, a truncated record ends the datagram.
func TestRecordRules(t *testing.T) {
	hdr := "beef0200 00000005"
	pose44 := "0001 002c" + " 00000000" + " 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"
	gs := "0008 0004 93404002"
	unknown := "0063 0008 01020304 05060708"

	types, checks, end := recordsOf(t, mustHex(t, hdr+pose44+gs))
	if len(types) != 2 || !errors.Is(checks[0], ErrSize) || checks[1] != nil || end != nil {
		t.Errorf("pose with size 44: types %v checks %v end %v", types, checks, end)
	}
	types, checks, end = recordsOf(t, mustHex(t, hdr+unknown+gs))
	if len(types) != 2 || types[0] != 99 || !errors.Is(checks[0], ErrUnknownType) || checks[1] != nil || end != nil {
		t.Errorf("unknown type 99: types %v checks %v end %v", types, checks, end)
	}
	// {type 1, size 48} with only 40 bytes left: rest ignored.
	trunc := mustHex(t, hdr+gs+"0001 0030")
	trunc = append(trunc, make([]byte, 40)...)
	types, _, end = recordsOf(t, trunc)
	if len(types) != 1 || !errors.Is(end, ErrTruncated) {
		t.Errorf("truncated pose: types %v end %v", types, end)
	}
	// Fewer than 4 bytes for a record header (Fawkes reads past the buffer here).
	for n := 1; n < RecordHeaderSize; n++ {
		b := append(mustHex(t, hdr+gs), make([]byte, n)...)
		types, _, end = recordsOf(t, b)
		if len(types) != 1 || !errors.Is(end, ErrTruncated) {
			t.Errorf("%d stray bytes: types %v end %v", n, types, end)
		}
	}
	// Zero-size records of known and unknown types are walked over.
	types, checks, end = recordsOf(t, mustHex(t, hdr+"0006 0000 1234 0000"+gs))
	if len(types) != 3 || !errors.Is(checks[0], ErrSize) || !errors.Is(checks[1], ErrUnknownType) || end != nil {
		t.Errorf("empty bodies: types %v checks %v end %v", types, checks, end)
	}
}

func TestUnmarshalSizes(t *testing.T) {
	for typ := TypePose; typ <= TypeGlobalBallVelocity; typ++ {
		m := NewMessage(typ)
		size, _ := BodySize(typ)
		for _, n := range []int{0, size - 1, size + 1} {
			if err := m.UnmarshalBinary(make([]byte, max(n, 0))); !errors.Is(err, ErrSize) {
				t.Errorf("%s: UnmarshalBinary(%d bytes) err %v, want ErrSize", typ, n, err)
			}
		}
		out, err := m.MarshalBinary()
		if err != nil || len(out) != size || m.RecordType() != typ {
			t.Errorf("%s: zero value marshals to %d bytes, %v", typ, len(out), err)
		}
	}
	if NewMessage(0) != nil || NewMessage(12) != nil {
		t.Error("NewMessage of unknown type is not nil")
	}
	if _, ok := BodySize(12); ok {
		t.Error("BodySize(12) ok")
	}
	if TypeRelBall.String() != "relative_ball" || RecordType(99).String() != "type_99" {
		t.Error("RecordType.String")
	}
}

func TestBuilderLimit(t *testing.T) {
	v := loadVectors(t)["max_size"]
	var b Builder
	b.Reset(Header{Seq: 14})
	for range 43 {
		if err := b.Add(&Opponent{UID: 9, Dist: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err := b.Add(&OpponentDisappeared{UID: 9}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(b.Bytes(), v.plain) || b.Len() != MTU {
		t.Fatalf("1400-byte datagram differs from the vector")
	}
	if err := b.Add(&OpponentDisappeared{UID: 1}); !errors.Is(err, ErrTooLong) || b.Len() != MTU {
		t.Errorf("Add beyond 1400 bytes: %v, len %d", err, b.Len())
	}
	if err := b.AddRaw(99, nil); !errors.Is(err, ErrTooLong) {
		t.Errorf("AddRaw beyond 1400 bytes: %v", err)
	}
	var z Builder
	if err := z.AddRaw(99, make([]byte, 70000)); !errors.Is(err, ErrTooLong) {
		t.Errorf("AddRaw(70000 bytes): %v", err)
	}
	z.SetSeq(0x01020304)
	if !bytes.Equal(z.Bytes(), mustHex(t, "beef0200 01020304")) {
		t.Errorf("zero Builder after SetSeq: % x", z.Bytes())
	}
}

// TestAppendAppends checks that every AppendBinary extends its argument.
func TestAppendAppends(t *testing.T) {
	for _, g := range golden {
		for _, m := range g.msgs {
			want, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.AppendBinary([]byte("prefix"))
			if rest, ok := bytes.CutPrefix(got, []byte("prefix")); err != nil || !ok || !bytes.Equal(rest, want) {
				t.Errorf("%s %s: got % x", g.name, m.RecordType(), got)
			}
		}
	}
	h := Header{Reserved: 1, Seq: 2}
	got, _ := h.AppendBinary([]byte{0xaa})
	if !bytes.Equal(got, mustHex(t, "aa beef0201 00000002")) {
		t.Errorf("Header.AppendBinary = % x", got)
	}
}

func TestEnumStrings(t *testing.T) {
	for got, want := range map[string]string{
		TeamMagenta.String(): "magenta", Team(7).String(): "team_7",
		GoalYellow.String(): "yellow", GoalColor(3).String(): "goal_3",
		HalfSecond.String(): "second", Half(2).String(): "half_2",
		PenaltyReqForPickup.String(): "request_for_pickup", PenaltyCode(40).String(): "penalty_40",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
