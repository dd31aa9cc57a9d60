package sim3d

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseHearExamples(t *testing.T) {
	// The hear examples of the protocol notes (both server variants) and the manual's
	// unlabelled form with a hyphenated message.
	tests := []struct {
		in   string
		want Hear
	}{
		{"(hear TeamA 12.30 self helloworld)", Hear{Team: "TeamA", Time: 12.30, Self: true, Message: "helloworld"}},
		{"(hear TeamA 0.8 -179.99 Test_1)", Hear{Team: "TeamA", Time: 0.8, Direction: -179.99, Message: "Test_1"}},
		{"(hear 0.4 self Test_2)", Hear{Time: 0.4, Self: true, Message: "Test_2"}},
		{"(hear 0.00 self 1000-501)", Hear{Time: 0, Self: true, Message: "1000-501"}},
		{"(hear 12 35.5 abc)", Hear{Time: 12, Direction: 35.5, Message: "abc"}},
		{"(hear self 3 self x)", Hear{Team: "self", Time: 3, Self: true, Message: "x"}},
		{"(hear T\x01\xff 1 self a)", Hear{Team: "T\x01\xff", Time: 1, Self: true, Message: "a"}},
		{"  (hear\tT 1.5e1 1e-05 \"q'\\;)\n", Hear{Team: "T", Time: 15, Direction: 1e-05, Message: "\"q'\\;"}},
		{"(hear T 1 180 x)", Hear{Team: "T", Time: 1, Direction: 180, Message: "x"}},
		{"(hear T 1 -180.0005 x)", Hear{Team: "T", Time: 1, Direction: -180.0005, Message: "x"}},
		{"(hear T 1 0 " + strings.Repeat("m", 40) + ")", Hear{Team: "T", Time: 1, Message: strings.Repeat("m", 40)}},
	}
	for _, tt := range tests {
		got, err := ParseHear([]byte(tt.in))
		if err != nil {
			t.Errorf("ParseHear(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseHear(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseHearErrors(t *testing.T) {
	tests := []struct {
		in, msg string
	}{
		{"", "want one (hear ...) expression, got missing value"},
		{"(hear T 1 self a", "unbalanced"},
		{"(say abc)", "want one (hear ...)"},
		{"(hear 1 self a)(hear 1 self b)", "want one (hear ...)"},
		{"hear", "want one (hear ...)"},
		{"(hear)", "0 fields"},
		{"(hear 1 self)", "2 fields"},
		{"(hear T 1 self a b)", "5 fields"},
		{"(hear T x self a)", "time"},
		{"(hear T -1 self a)", "negative time"},
		{"(hear T NaN self a)", "time"},
		{"(hear T 1 left a)", "direction"},
		{"(hear T 1 181 a)", "outside ±180"},
		{"(hear T 1 -200 a)", "outside ±180"},
		{"(hear T 1 inf a)", "direction"},
		{"(hear T 1 self (a))", "not an atom"},
		{"(hear (T) 1 self a)", "team"},
		{"(hear T 1 self a\x7f)", "message byte 1 is 0x7F"},
		{"(hear T 1 (self) a)", "direction"},
		{"(hear (((((x))))) 1 self a)", "nesting too deep"},
	}
	for _, tt := range tests {
		h, err := ParseHear([]byte(tt.in))
		if !errors.Is(err, ErrHear) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseHear(%q) = %v, want ErrHear with %q", tt.in, err, tt.msg)
		}
		if h != (Hear{}) {
			t.Errorf("ParseHear(%q) returned %+v with an error", tt.in, h)
		}
	}
	// Decode overwrites every field, also on failure.
	var tr Tree
	if err := tr.Parse([]byte("(hear T 1 x a)")); err != nil {
		t.Fatal(err)
	}
	h := Hear{Team: "old", Message: "old", Self: true}
	if err := h.Decode(tr.Root().First()); err == nil || h != (Hear{}) {
		t.Errorf("Decode after failure: %+v, %v", h, err)
	}
	if err := h.Decode(tr.Root()); !errors.Is(err, ErrHear) {
		t.Errorf("Decode of the root: %v", err)
	}
}

func TestHearAppendText(t *testing.T) {
	tests := []struct {
		h    Hear
		want string
	}{
		{Hear{Team: "TeamA", Time: 12.3, Self: true, Message: "helloworld"}, "(hear TeamA 12.3 self helloworld)"},
		{Hear{Team: "TeamA", Time: 0.8, Direction: -179.99, Message: "Test_1"}, "(hear TeamA 0.8 -179.99 Test_1)"},
		{Hear{Time: 0.4, Self: true, Message: "Test_2"}, "(hear 0.4 self Test_2)"},
		{Hear{Time: 100, Direction: 0, Message: "m"}, "(hear 100 0 m)"},
	}
	for _, tt := range tests {
		got, err := tt.h.AppendText(nil)
		if err != nil || string(got) != tt.want {
			t.Errorf("%+v.AppendText = %q, %v; want %q", tt.h, got, err, tt.want)
		}
	}
	for _, bad := range []Hear{
		{Time: 1, Message: ""},
		{Time: 1, Message: "a b"},
		{Team: "a b", Time: 1, Message: "m"},
		{Team: "a(", Time: 1, Message: "m"},
		{Time: -1, Message: "m"},
		{Time: 1, Direction: 200, Message: "m"},
		{Time: 1, Self: true, Direction: 3, Message: "m"},
	} {
		if got, err := bad.AppendText([]byte("k")); err == nil || string(got) != "k" {
			t.Errorf("%+v.AppendText = %q, %v; want an error", bad, got, err)
		}
	}
}

func TestPerceptDecode(t *testing.T) {
	src, err := os.ReadFile("testdata/percept_nao.txt")
	if err != nil {
		t.Fatal(err)
	}
	var tr Tree
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	var p Percept
	if err := p.Decode(&tr); err != nil {
		t.Fatal(err)
	}
	want := Percept{
		Now: 412.36, HasNow: true,
		Game:    GameState{Time: 187.42, PlayMode: "PlayOn", Unum: 4, Side: "right", ScoreLeft: 1, ScoreRight: 2, HasScore: true},
		HasGame: true,
		Hears: []Hear{
			{Team: "TeamB", Time: 187.40, Self: true, Message: "Ed-3kQ_9"},
			{Team: "TeamB", Time: 187.40, Direction: -35.12, Message: "p7x"},
			{Team: "Rival", Time: 187.40, Direction: 102.5, Message: "9-Z"},
		},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got  %+v\nwant %+v", p, want)
	}
	// Other perceptors remain reachable through the tree.
	if v, err := tr.Root().Find("See").Find("B").Find("pol").First().Next().Float(); err != nil || v != 3.50 {
		t.Errorf("ball distance %v, %v", v, err)
	}
	// A later message without GS and hear resets those parts and reuses the slice.
	hears := &p.Hears[:1][0]
	if err := tr.Parse([]byte("(time (now 1.5))(hear 1.4 self a)")); err != nil {
		t.Fatal(err)
	}
	if err := p.Decode(&tr); err != nil {
		t.Fatal(err)
	}
	if p.HasGame || !p.HasNow || p.Now != 1.5 || len(p.Hears) != 1 || &p.Hears[0] != hears {
		t.Errorf("second message: %+v", p)
	}
}

func TestPerceptAllocations(t *testing.T) {
	src, err := os.ReadFile("testdata/percept_nao.txt")
	if err != nil {
		t.Fatal(err)
	}
	var tr Tree
	var p Percept
	run := func() {
		if err := tr.Parse(src); err != nil {
			t.Fatal(err)
		}
		if err := p.Decode(&tr); err != nil {
			t.Fatal(err)
		}
	}
	run()
	// Only the strings of the result are allocated: the play mode, three team names and
	// three messages.
	if allocs := testing.AllocsPerRun(50, run); allocs > 7 {
		t.Errorf("%v allocations per message, want at most 7", allocs)
	}
}

func TestGameStateDecode(t *testing.T) {
	tests := []struct {
		in   string
		want GameState
		err  string
	}{
		{in: "(GS (t 0.00) (pm BeforeKickOff))", want: GameState{PlayMode: "BeforeKickOff"}},
		{in: "(GS (unum 1) (team left) (t 5) (pm KickOff_Left) (k left) (ti ((1 none 0))))", want: GameState{Time: 5, PlayMode: "KickOff_Left", Unum: 1, Side: "left"}},
		{in: "(GS (sl 3) (t 1) (pm PlayOn))", want: GameState{Time: 1, PlayMode: "PlayOn", ScoreLeft: 3}},
		{in: "(GS (pm PlayOn))", err: "lacks"},
		{in: "(GS (t 1))", err: "lacks"},
		{in: "(GS (t x) (pm P))", err: "t: sim3d: bad number"},
		{in: "(GS (t 1) (pm (P)))", err: "play mode"},
		{in: "(GS (t 1) (pm P) (team middle))", err: "team side"},
		{in: "(GS (t 1) (pm P) (unum 1.5))", err: "unum"},
		{in: "(GS (t 1) (pm P) (sr x))", err: "sr"},
		{in: "(GS t 1)", err: "member"},
		{in: "(SG (t 1) (pm P))", err: "not a GS"},
	}
	for _, tt := range tests {
		var tr Tree
		if err := tr.Parse([]byte(tt.in)); err != nil {
			t.Fatal(err)
		}
		g := GameState{PlayMode: "stale", Unum: 9}
		err := g.Decode(tr.Root().First())
		if tt.err != "" {
			if !errors.Is(err, ErrGameState) || !strings.Contains(err.Error(), tt.err) || g != (GameState{}) {
				t.Errorf("Decode(%q) = %+v, %v; want error with %q", tt.in, g, err, tt.err)
			}
			continue
		}
		if err != nil || g != tt.want {
			t.Errorf("Decode(%q) = %+v, %v; want %+v", tt.in, g, err, tt.want)
		}
	}
}

func TestPerceptErrors(t *testing.T) {
	for _, in := range []string{
		"(time)", "(time (now))", "(time (now x))", "(time (now 1) (now 2))", "(time (later 1))",
		"(GS (t 1))",
	} {
		var tr Tree
		if err := tr.Parse([]byte(in)); err != nil {
			t.Fatal(err)
		}
		p := Percept{Hears: make([]Hear, 0, 4)}
		if err := p.Decode(&tr); err == nil {
			t.Errorf("Decode(%q) succeeded: %+v", in, p)
		}
	}
}

func FuzzParseHear(f *testing.F) {
	for _, s := range []string{
		"(hear TeamA 12.30 self helloworld)", "(hear TeamA 0.8 -179.99 Test_1)", "(hear 0.4 self Test_2)",
		"(hear 0.00 self 1000-501)", "(hear T 1 180 x)", "(hear T 1e3 -0 x)", "(hear)", "(hear T 1 self (a))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		h, err := ParseHear(src)
		if err != nil {
			if !errors.Is(err, ErrHear) {
				t.Fatalf("error %v is not ErrHear", err)
			}
			return
		}
		// What parses is written back and parses to the same value.
		out, err := h.AppendText(nil)
		if err != nil {
			t.Fatalf("%+v does not re-encode: %v", h, err)
		}
		h2, err := ParseHear(out)
		if err != nil || h2 != h {
			t.Fatalf("round trip %q -> %q -> %+v, %v; want %+v", src, out, h2, err, h)
		}
	})
}

func BenchmarkParseHear(b *testing.B) {
	src := []byte("(hear TeamA 12.30 -35.12 Ed-3kQ_9xYz012345678)")
	var tr Tree
	var h Hear
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Parse(src); err != nil {
			b.Fatal(err)
		}
		if err := h.Decode(tr.Root().First()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPerceptDecode(b *testing.B) {
	src, err := os.ReadFile("testdata/percept_nao.txt")
	if err != nil {
		b.Fatal(err)
	}
	var tr Tree
	var p Percept
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if err := tr.Parse(src); err != nil {
			b.Fatal(err)
		}
		if err := p.Decode(&tr); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPerceptReal decodes messages a real rcssserver3d sent to Nao agents.
func TestPerceptReal(t *testing.T) {
	raw, err := os.ReadFile("testdata/percepts_real.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	want := []struct {
		now   float64
		mode  string
		hears int
	}{{2.54, "BeforeKickOff", 1}, {5.54, "PlayOn", 1}, {2.36, "BeforeKickOff", 0}, {2.8, "BeforeKickOff", 1}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines", len(lines))
	}
	var tr Tree
	var p Percept
	for i, l := range lines {
		if err := tr.Parse([]byte(l)); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if err := p.Decode(&tr); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if !p.HasNow || p.Now != want[i].now || !p.HasGame || p.Game.PlayMode != want[i].mode || len(p.Hears) != want[i].hears {
			t.Errorf("line %d: %+v", i, p)
		}
	}
}

// TestPerceptForeignTeamName: the server labels hears with the speaker's team name as
// that team gave it in init, bytes >= 0x80 included (rcssserver3d 0.7.3-naoth-7 sent
// "(hear B\xc3\xbcr 0.000 2.006 hello)" for a team named "Bür"). Such a hear must
// decode, and must not cost the percept its time, game state and teammates' hears.
func TestPerceptForeignTeamName(t *testing.T) {
	src := []byte("(time (now 12.34))(GS (t 0.00) (pm BeforeKickOff))" +
		"(hear B\xc3\xbcr 0.000 2.006 hello)(hear DNA 0.000 -46.273 EQFM5xAAQIln5wLXbjYc)")
	var tr Tree
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	var p Percept
	if err := p.Decode(&tr); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	want := []Hear{
		{Team: "B\xc3\xbcr", Time: 0, Direction: 2.006, Message: "hello"},
		{Team: "DNA", Time: 0, Direction: -46.273, Message: "EQFM5xAAQIln5wLXbjYc"},
	}
	if !p.HasNow || p.Now != 12.34 || !p.HasGame || !reflect.DeepEqual(p.Hears, want) {
		t.Errorf("got %+v, want time 12.34, a game state and hears %+v", p, want)
	}
	// What decodes is written back as the server wrote it.
	out, err := want[0].AppendText(nil)
	if err != nil || string(out) != "(hear B\xc3\xbcr 0 2.006 hello)" {
		t.Errorf("AppendText = %q, %v", out, err)
	}
}

// TestPerceptSkipsBadHear: a hear the package cannot read costs only itself. An opponent
// that says "" makes rcssserver3d 0.7.3-naoth-7 send every listener
// "(hear B 0.000 -1.523 )", without a message; the percept's time and the teammate's
// hear beside it must still be decoded, and the skipped hear counted.
func TestPerceptSkipsBadHear(t *testing.T) {
	src := []byte("(time (now 1.50))(hear B 0.000 -1.523 )(hear DNA 0.000 -46.5 AbC)")
	var tr Tree
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	var p Percept
	if err := p.Decode(&tr); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	want := []Hear{{Team: "DNA", Direction: -46.5, Message: "AbC"}}
	if !p.HasNow || p.Now != 1.5 || !reflect.DeepEqual(p.Hears, want) || p.BadHears != 1 ||
		!errors.Is(p.HearErr, ErrHear) {
		t.Errorf("got %+v, want time 1.5, hears %+v, one bad hear with ErrHear", p, want)
	}
	// The next percept starts its count afresh.
	if err := tr.Parse([]byte("(time (now 1.52))")); err != nil {
		t.Fatal(err)
	}
	if err := p.Decode(&tr); err != nil || p.BadHears != 0 || p.HearErr != nil {
		t.Errorf("next percept: %+v, %v", p, err)
	}
}
