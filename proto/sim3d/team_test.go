package sim3d

import (
	"encoding/base64"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// field is one row of the bit table in the package documentation.
type field struct {
	v     uint64
	width int
}

// oracleMessage builds a team message straight from the bit table: fields as a string of
// '0' and '1', the CRC-32C of key + the first 11 bytes appended, then base64url. It
// shares no code with the codec.
func oracleMessage(t *testing.T, key string, fields []field) string {
	t.Helper()
	var bits strings.Builder
	for _, f := range fields {
		for i := f.width - 1; i >= 0; i-- {
			bits.WriteByte('0' + byte(f.v>>uint(i)&1))
		}
	}
	if bits.Len() != 88 {
		t.Fatalf("oracle fields hold %d bits, want 88", bits.Len())
	}
	data := make([]byte, 11)
	for i := range 88 {
		if bits.String()[i] == '1' {
			data[i/8] |= 1 << (7 - i%8)
		}
	}
	sum := crc32.Checksum(append([]byte(key), data...), crc32.MakeTable(crc32.Castagnoli))
	data = append(data, byte(sum>>24), byte(sum>>16), byte(sum>>8), byte(sum))
	return base64.RawURLEncoding.EncodeToString(data)
}

func goldenFields(format, player, ballAge uint64) []field {
	return []field{
		{format, 4}, {player, 4}, {200, 8}, // seq
		{1, 3}, {6, 3}, {0, 1}, // role striker, state 6, not fallen
		{2048 - 300, 12}, {2048 + 400, 12}, // x -3.00, y 4.00
		{128, 9},                           // heading 90°
		{2048 + 100, 12}, {2048 - 200, 12}, // ball 1.00, -2.00
		{ballAge, 8},
	}
}

var goldenState = TeamState{
	Player: 4, Seq: 200, Role: 1, State: 6,
	X: -3, Y: 4, Heading: 90,
	BallKnown: true, BallX: 1, BallY: -2, BallAge: 100 * time.Millisecond,
}

func TestTeamGolden(t *testing.T) {
	want := oracleMessage(t, "", goldenFields(1, 4, 2))
	// Pinned so a change of the wire format cannot go unnoticed.
	const pinned = "FMg42pMggIZHOALeuDyl"
	if want != pinned {
		t.Fatalf("oracle gives %s, pinned %s", want, pinned)
	}
	got, err := TeamCodec{}.Append([]byte("prefix"), &goldenState)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "prefix"+want {
		t.Fatalf("Append = %q, want prefix+%q", got, want)
	}
	var s TeamState
	if err := (TeamCodec{}).Decode([]byte(want), &s); err != nil {
		t.Fatal(err)
	}
	if s != goldenState {
		t.Fatalf("Decode = %+v, want %+v", s, goldenState)
	}
	if err := ValidateSaySafe(want); err != nil {
		t.Fatalf("team message is not a safe say message: %v", err)
	}
	// Keyed codecs agree with the oracle too.
	keyed, err := NewTeamCodec("TeamB").Append(nil, &goldenState)
	if err != nil || string(keyed) != oracleMessage(t, "TeamB", goldenFields(1, 4, 2)) {
		t.Fatalf("keyed Append = %q, %v", keyed, err)
	}
	if NewTeamCodec("") != (TeamCodec{}) {
		t.Fatal("the empty key differs from the zero codec")
	}
}

func TestTeamUnknownBall(t *testing.T) {
	s := goldenState
	s.BallKnown, s.BallX, s.BallY, s.BallAge = false, 7, 7, time.Hour // ignored
	got, err := TeamCodec{}.Append(nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	f := goldenFields(1, 4, 255)
	f[9].v, f[10].v = 0, 0
	if want := oracleMessage(t, "", f); string(got) != want {
		t.Fatalf("Append = %s, want %s", got, want)
	}
	var d TeamState
	if err := (TeamCodec{}).Decode(got, &d); err != nil {
		t.Fatal(err)
	}
	if d.BallKnown || d.BallX != 0 || d.BallY != 0 || d.BallAge != 0 {
		t.Fatalf("unknown ball decoded as %+v", d)
	}
}

func TestTeamRejectsStructure(t *testing.T) {
	ballWithUnknown := goldenFields(1, 4, 255)
	tests := []struct {
		name string
		msg  string
		want error
		text string
	}{
		{"UT Austin Villa message", "e4GtG4EAPS6ia", ErrTeamLength, "13 characters, want 20"},
		{"FC Portugal message", "q,d&GSGs5z>y>j{KM}rb", ErrTeamAlphabet, "character 1 is 0x2C (,)"},
		{"empty", "", ErrTeamLength, "0 characters"},
		{"21 characters", "FMg42pMggIZHOALeuDylA", ErrTeamLength, "21 characters"},
		{"plus from base64", "FMg42pMggIZHOALeuDy+", ErrTeamAlphabet, "character 19 is 0x2B (+)"},
		{"newline", "FMg42pMggIZHOALeuDy\n", ErrTeamAlphabet, "character 19 is 0x0A"},
		{"format 2", oracleMessage(t, "", goldenFields(2, 4, 2)), ErrTeamFormat, "format 2, want 1"},
		{"format 0", oracleMessage(t, "", goldenFields(0, 4, 2)), ErrTeamFormat, "format 0"},
		{"player 0", oracleMessage(t, "", goldenFields(1, 0, 2)), ErrTeamField, "player 0"},
		{"player 12", oracleMessage(t, "", goldenFields(1, 12, 2)), ErrTeamField, "player 12"},
		{"ball position with unknown ball", oracleMessage(t, "", ballWithUnknown), ErrTeamField, "unknown ball"},
		{"other key", oracleMessage(t, "Rival", goldenFields(1, 4, 2)), ErrTeamChecksum, "checksum"},
	}
	for _, tt := range tests {
		s := TeamState{Player: 9, Seq: 9}
		err := TeamCodec{}.Decode([]byte(tt.msg), &s)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("%s: %v, want %v with %q", tt.name, err, tt.want, tt.text)
		}
		if s != (TeamState{Player: 9, Seq: 9}) {
			t.Errorf("%s: target written on error: %+v", tt.name, s)
		}
	}
}

func TestTeamRejectsMutants(t *testing.T) {
	msg, err := TeamCodec{}.Append(nil, &goldenState)
	if err != nil {
		t.Fatal(err)
	}
	// Every single-character change is a burst of at most 6 bits: CRC-32C detects all.
	var s TeamState
	for i := range msg {
		for j := 0; j < len(TeamAlphabet); j++ {
			m := []byte(string(msg))
			if m[i] == TeamAlphabet[j] {
				continue
			}
			m[i] = TeamAlphabet[j]
			if err := (TeamCodec{}).Decode(m, &s); err == nil {
				t.Fatalf("mutant %s accepted", m)
			}
		}
	}
}

func TestTeamRejectsRandom(t *testing.T) {
	// Random strings over the alphabet: each passes format and checksum with
	// probability 2^-36, so none of these may pass.
	rng := rand.New(rand.NewPCG(1, 2))
	m := make([]byte, TeamMessageLen)
	var s TeamState
	var format, checksum int
	const n = 50000
	for range n {
		for i := range m {
			m[i] = TeamAlphabet[rng.IntN(len(TeamAlphabet))]
		}
		err := TeamCodec{}.Decode(m, &s)
		switch {
		case err == nil:
			t.Fatalf("random %s accepted as %+v", m, s)
		case errors.Is(err, ErrTeamFormat):
			format++
		case errors.Is(err, ErrTeamChecksum):
			checksum++
		}
	}
	// About 1/16 of them have the right format nibble and then fail the checksum.
	if checksum < n/16*8/10 || checksum > n/16*12/10 || format+checksum != n {
		t.Errorf("format rejections %d, checksum rejections %d", format, checksum)
	}
}

func TestTeamKeys(t *testing.T) {
	a, b := NewTeamCodec("TeamA"), NewTeamCodec("TeamB")
	msg, err := a.Append(nil, &goldenState)
	if err != nil {
		t.Fatal(err)
	}
	var s TeamState
	if err := a.Decode(msg, &s); err != nil || s != goldenState {
		t.Fatalf("own key: %+v, %v", s, err)
	}
	if err := b.Decode(msg, &s); !errors.Is(err, ErrTeamChecksum) {
		t.Fatalf("other key: %v", err)
	}
	if err := (TeamCodec{}).Decode(msg, &s); !errors.Is(err, ErrTeamChecksum) {
		t.Fatalf("no key: %v", err)
	}
}

func TestTeamTolerances(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	c := NewTeamCodec("k")
	for range 20000 {
		in := TeamState{
			Player: uint8(1 + rng.IntN(11)), Seq: uint8(rng.IntN(256)),
			Role: uint8(rng.IntN(8)), State: uint8(rng.IntN(8)), Fallen: rng.IntN(2) == 1,
			X: -20.48 + rng.Float64()*40.95, Y: -20.48 + rng.Float64()*40.95,
			Heading:   -720 + rng.Float64()*1440,
			BallKnown: true, BallX: -16 + rng.Float64()*32, BallY: -11 + rng.Float64()*22,
			BallAge: time.Duration(rng.Int64N(int64(BallAgeMax))),
		}
		msg, err := c.Append(nil, &in)
		if err != nil {
			t.Fatal(err)
		}
		var out TeamState
		if err := c.Decode(msg, &out); err != nil {
			t.Fatalf("%+v -> %s: %v", in, msg, err)
		}
		checkTolerance(t, in, out)
	}
}

// checkTolerance asserts the documented tolerances for an input that lies inside the
// ranges (or saturates).
func checkTolerance(t *testing.T, in, out TeamState) {
	t.Helper()
	const eps = 1e-9
	pos := func(name string, v, got float64) {
		want := max(PosMin, min(PosMax, v))
		if math.Abs(got-want) > PosStep/2+eps {
			t.Fatalf("%s %v decoded as %v, want within 0.5 cm of %v", name, v, got, want)
		}
	}
	if out.Player != in.Player || out.Seq != in.Seq || out.Role != in.Role || out.State != in.State || out.Fallen != in.Fallen {
		t.Fatalf("discrete fields %+v decoded as %+v", in, out)
	}
	pos("x", in.X, out.X)
	pos("y", in.Y, out.Y)
	// Reduce the heading first: math.Mod is exact, a difference with a heading of 1e14
	// degrees is not (its ulp is an eighth of a degree).
	d := math.Mod(out.Heading-math.Mod(in.Heading, 360), 360)
	d = math.Min(math.Abs(d), 360-math.Abs(d))
	if d > HeadingStep/2+eps || out.Heading <= -180 || out.Heading > 180 {
		t.Fatalf("heading %v decoded as %v", in.Heading, out.Heading)
	}
	if out.BallKnown != in.BallKnown {
		t.Fatalf("ball known %v decoded as %v", in.BallKnown, out.BallKnown)
	}
	if in.BallKnown {
		pos("ball x", in.BallX, out.BallX)
		pos("ball y", in.BallY, out.BallY)
		want := min(in.BallAge, BallAgeMax)
		if diff := out.BallAge - want; diff < -BallAgeStep/2 || diff > BallAgeStep/2 {
			t.Fatalf("ball age %v decoded as %v", in.BallAge, out.BallAge)
		}
	}
}

func TestTeamSaturation(t *testing.T) {
	tests := []struct {
		in      TeamState
		x, y    float64
		bx, by  float64
		heading float64
		age     time.Duration
	}{
		{TeamState{X: 25, Y: -25, BallKnown: true, BallX: 1e9, BallY: -1e300, BallAge: 13 * time.Second},
			PosMax, PosMin, PosMax, PosMin, 0, BallAgeMax},
		{TeamState{X: 20.474, Y: -20.484, Heading: 180, BallKnown: true, BallAge: 12*time.Second + 700*time.Millisecond},
			20.47, -20.48, 0, 0, 180, BallAgeMax},
		{TeamState{X: 20.476, Y: -20.486, Heading: -180, BallKnown: true, BallAge: 24 * time.Millisecond},
			PosMax, PosMin, 0, 0, 180, 0},
		{TeamState{X: -0.004, Y: 0.005, Heading: 359.9, BallKnown: true, BallAge: 26 * time.Millisecond},
			0, 0.01, 0, 0, 0, 50 * time.Millisecond},
		{TeamState{Heading: -90.2, BallKnown: true, BallAge: math.MaxInt64},
			0, 0, 0, 0, -90, BallAgeMax},
	}
	for _, tt := range tests {
		tt.in.Player = 1
		msg, err := TeamCodec{}.Append(nil, &tt.in)
		if err != nil {
			t.Fatal(err)
		}
		var out TeamState
		if err := (TeamCodec{}).Decode(msg, &out); err != nil {
			t.Fatal(err)
		}
		if out.X != tt.x || out.Y != tt.y || out.BallX != tt.bx || out.BallY != tt.by || out.Heading != tt.heading || out.BallAge != tt.age {
			t.Errorf("%+v decoded as %+v", tt.in, out)
		}
	}
}

func TestTeamEncodeErrors(t *testing.T) {
	tests := []struct {
		mod  func(*TeamState)
		want error
	}{
		{func(s *TeamState) { s.Player = 0 }, ErrRange},
		{func(s *TeamState) { s.Player = 12 }, ErrRange},
		{func(s *TeamState) { s.Role = 8 }, ErrRange},
		{func(s *TeamState) { s.State = 8 }, ErrRange},
		{func(s *TeamState) { s.X = math.NaN() }, ErrRange},
		{func(s *TeamState) { s.Y = math.Inf(1) }, ErrRange},
		{func(s *TeamState) { s.Heading = math.Inf(-1) }, ErrRange},
		{func(s *TeamState) { s.BallX = math.NaN() }, ErrRange},
		{func(s *TeamState) { s.BallAge = -time.Millisecond }, ErrRange},
	}
	for i, tt := range tests {
		s := goldenState
		tt.mod(&s)
		got, err := TeamCodec{}.Append([]byte("keep"), &s)
		if !errors.Is(err, tt.want) || string(got) != "keep" {
			t.Errorf("case %d: %q, %v; want %v and dst untouched", i, got, err, tt.want)
		}
	}
}

func FuzzTeamDecode(f *testing.F) {
	f.Add([]byte("FMg42pMggIZHOALeuDyl"))
	f.Add([]byte("e4GtG4EAPS6ia"))
	f.Add([]byte("q,d&GSGs5z>y>j{KM}rb"))
	f.Add([]byte("AAAAAAAAAAAAAAAAAAAA"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		var s TeamState
		if err := (TeamCodec{}).Decode(msg, &s); err != nil {
			return
		}
		// Every accepted message is the canonical encoding of what it decodes to.
		out, err := TeamCodec{}.Append(nil, &s)
		if err != nil || string(out) != string(msg) {
			t.Fatalf("%q decodes to %+v which encodes to %q, %v", msg, s, out, err)
		}
		if err := ValidateSaySafe(string(msg)); err != nil {
			t.Fatalf("accepted %q is not a safe say message: %v", msg, err)
		}
	})
}

func FuzzTeamRoundTrip(f *testing.F) {
	f.Add(uint8(4), uint8(200), uint8(1), uint8(6), false, -3.0, 4.0, 90.0, true, 1.0, -2.0, int64(100e6))
	f.Add(uint8(11), uint8(0), uint8(7), uint8(7), true, 1e300, -1e300, -1e18, false, 0.0, 0.0, int64(-1))
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), false, math.NaN(), 0.0, 0.0, true, 0.0, 0.0, int64(0))
	f.Fuzz(func(t *testing.T, player, seq, role, state uint8, fallen bool, x, y, heading float64,
		ballKnown bool, bx, by float64, age int64) {
		in := TeamState{Player: player, Seq: seq, Role: role, State: state, Fallen: fallen,
			X: x, Y: y, Heading: heading, BallKnown: ballKnown, BallX: bx, BallY: by, BallAge: time.Duration(age)}
		c := NewTeamCodec("fuzz")
		msg, err := c.Append(nil, &in)
		if err != nil {
			if !errors.Is(err, ErrRange) {
				t.Fatalf("%+v: error %v is not ErrRange", in, err)
			}
			return
		}
		if len(msg) != TeamMessageLen || ValidateSaySafe(string(msg)) != nil {
			t.Fatalf("%+v encodes to unusable %q", in, msg)
		}
		var out TeamState
		if err := c.Decode(msg, &out); err != nil {
			t.Fatalf("%+v -> %q does not decode: %v", in, msg, err)
		}
		if !ballKnown {
			in.BallX, in.BallY, in.BallAge = 0, 0, 0
		}
		checkTolerance(t, in, out)
		again, err := c.Append(nil, &out)
		if err != nil || string(again) != string(msg) {
			t.Fatalf("re-encoding %+v gives %q, %v; want %q", out, again, err, msg)
		}
	})
}

func BenchmarkTeamAppend(b *testing.B) {
	c := NewTeamCodec("TeamA")
	buf := make([]byte, 0, TeamMessageLen)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = c.Append(buf[:0], &goldenState); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTeamDecode(b *testing.B) {
	c := NewTeamCodec("TeamA")
	msg, err := c.Append(nil, &goldenState)
	if err != nil {
		b.Fatal(err)
	}
	var s TeamState
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Decode(msg, &s); err != nil {
			b.Fatal(err)
		}
	}
}
