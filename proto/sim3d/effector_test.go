package sim3d

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestValidateSay(t *testing.T) {
	// The say validity list of the protocol notes, plus the byte range edges.
	tests := []struct {
		msg  string
		want error
		text string
	}{
		{"helloworld", nil, ""},
		{strings.Repeat("a", 20), nil, ""},
		{"~!#", nil, ""},
		{"!", nil, ""},
		{"\"'\\;", nil, ""},
		{"a;", nil, ""},
		{strings.Repeat("a", 21), ErrSayTooLong, "21 bytes, at most 20"},
		{"hello world", ErrSayChar, "byte 5 is 0x20 (space)"},
		{"a(b", ErrSayChar, "byte 1 is 0x28 (()"},
		{"a)b", ErrSayChar, "byte 1 is 0x29 ())"},
		{"ab\x7f", ErrSayChar, "byte 2 is 0x7F"},
		{"caf\xc3\xa9", ErrSayChar, "byte 3 is 0xC3"},
		{"\x00", ErrSayChar, "byte 0 is 0x00"},
		{"tab\there", ErrSayChar, "byte 3 is 0x09"},
		{"", ErrSayEmpty, ""},
		{strings.Repeat("a", 30) + " ", ErrSayChar, "byte 30"},
	}
	for _, tt := range tests {
		err := ValidateSay(tt.msg)
		if !errors.Is(err, tt.want) || (err != nil && !strings.Contains(err.Error(), tt.text)) {
			t.Errorf("ValidateSay(%q) = %v, want %v with %q", tt.msg, err, tt.want, tt.text)
		}
		// The builder refuses at least what the validator refuses and never alters the text.
		if tt.want == nil && ValidateSaySafe(tt.msg) != nil {
			continue
		}
		b, err2 := Say{Message: tt.msg}.AppendText([]byte("x"))
		if !errors.Is(err2, tt.want) {
			t.Errorf("Say{%q}: %v, want %v", tt.msg, err2, tt.want)
		}
		if tt.want == nil && string(b) != "x(say "+tt.msg+")" {
			t.Errorf("Say{%q} = %q", tt.msg, b)
		}
		if tt.want != nil && string(b) != "x" {
			t.Errorf("Say{%q} wrote %q on error", tt.msg, b)
		}
	}
	for c := 0; c < 256; c++ {
		err := ValidateSay(string([]byte{'a', byte(c)}))
		ok := c >= 0x21 && c <= 0x7e && c != '(' && c != ')'
		if (err == nil) != ok {
			t.Errorf("byte 0x%02x: %v, allowed %v", c, err, ok)
		}
	}
}

func TestValidateSaySafe(t *testing.T) {
	tests := []struct {
		msg  string
		want error
	}{
		{"helloworld", nil},
		{"a;b", nil},
		{"Ed-3kQ_9", nil},
		{";ab", ErrSayUnsafe},
		{"a\"b", ErrSayUnsafe},
		{"a'b", ErrSayUnsafe},
		{"ab\\", ErrSayUnsafe},
		{"a b", ErrSayChar},
		{"", ErrSayEmpty},
	}
	for _, tt := range tests {
		if err := ValidateSaySafe(tt.msg); !errors.Is(err, tt.want) {
			t.Errorf("ValidateSaySafe(%q) = %v, want %v", tt.msg, err, tt.want)
		}
	}
}

func TestCommandGolden(t *testing.T) {
	tests := []struct {
		cmd  Command
		want string
	}{
		{Scene{Path: "rsg/agent/nao/nao.rsg"}, "(scene rsg/agent/nao/nao.rsg)"},
		{Scene{Path: "rsg/agent/nao/nao_hetero.rsg", RobotType: 0, HasRobotType: true}, "(scene rsg/agent/nao/nao_hetero.rsg 0)"},
		{Scene{Path: "rsg/agent/nao/nao_hetero.rsg", RobotType: 4, HasRobotType: true}, "(scene rsg/agent/nao/nao_hetero.rsg 4)"},
		{Init{Unum: 1, TeamName: "FHO"}, "(init (unum 1)(teamname FHO))"},
		{Init{Unum: 0, TeamName: "Team-B_2"}, "(init (unum 0)(teamname Team-B_2))"},
		{Init{Unum: 11, TeamName: "X"}, "(init (unum 11)(teamname X))"},
		{Beam{X: -6, Y: 0, Rot: 0}, "(beam -6 0 0)"},
		{Beam{X: 10.0, Y: -10.0, Rot: 90}, "(beam 10 -10 90)"},
		{Beam{X: -0.5, Y: 1.25, Rot: -37.5}, "(beam -0.5 1.25 -37.5)"},
		{Beam{X: 0.1, Y: 1.0 / 3, Rot: 1e-7}, "(beam 0.1 0.33333334 0.0000001)"},
		{HingeJoint{Name: "lae3", Rate: 5.3}, "(lae3 5.3)"},
		{HingeJoint{Name: "he1", Rate: -2.5}, "(he1 -2.5)"},
		{HingeJoint{Name: "he2", Rate: 0}, "(he2 0)"},
		{HingeJoint{Name: "rle4", Rate: 6}, "(rle4 6)"},
		{HingeJoint{Name: "rle4", Rate: 6.1}, "(rle4 6.1)"},
		{HingeJoint{Name: "rle4", Rate: 7}, "(rle4 6.1395445)"},
		{HingeJoint{Name: "rle4", Rate: -100}, "(rle4 -6.1395445)"},
		{HingeJoint{Name: "rle4", Rate: math.MaxFloat64}, "(rle4 6.1395445)"},
		{UniversalJoint{Name: "lae1_2", Rate1: -2.3, Rate2: 1.2}, "(lae1_2 -2.3 1.2)"},
		{UniversalJoint{Name: "lle2_3", Rate1: 9, Rate2: -9}, "(lle2_3 6.1395445 -6.1395445)"},
		{Say{Message: "helloworld"}, "(say helloworld)"},
		{Syn{}, "(syn)"},
	}
	for _, tt := range tests {
		got, err := tt.cmd.AppendText([]byte("prefix"))
		if err != nil {
			t.Errorf("%#v: %v", tt.cmd, err)
			continue
		}
		if rest, ok := bytes.CutPrefix(got, []byte("prefix")); !ok || string(rest) != tt.want {
			t.Errorf("%#v = %q, want prefix+%q", tt.cmd, got, tt.want)
		}
	}
}

func TestJointLimit(t *testing.T) {
	// The server clamps joint speeds at π·351.77/180 rad/s (7.035 degrees per cycle).
	if math.Abs(MaxJointRate-6.1396) > 1e-4 {
		t.Errorf("MaxJointRate = %v rad/s, want about 6.1396", MaxJointRate)
	}
	if got := MaxJointRate * 180 / math.Pi * SimStep; math.Abs(got-7.0354) > 1e-12 {
		t.Errorf("MaxJointRate is %v degrees per cycle, want 7.0354", got)
	}
	for _, tt := range []struct{ in, want float64 }{
		{0, 0}, {6, 6}, {-6, -6}, {6.2, MaxJointRate}, {-7, -MaxJointRate}, {math.Inf(1), MaxJointRate},
	} {
		if got := ClampRate(tt.in); got != tt.want {
			t.Errorf("ClampRate(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCommandErrors(t *testing.T) {
	tests := []struct {
		cmd  Command
		want error
	}{
		{Scene{}, ErrAtom},
		{Scene{Path: "a b"}, ErrAtom},
		{Scene{Path: "x.rsg", RobotType: -1, HasRobotType: true}, ErrRange},
		{Init{Unum: 12, TeamName: "A"}, ErrRange},
		{Init{Unum: -1, TeamName: "A"}, ErrRange},
		{Init{Unum: 1}, ErrAtom},
		{Init{Unum: 1, TeamName: "A(B"}, ErrAtom},
		{Beam{X: math.NaN()}, ErrRange},
		{Beam{Rot: math.Inf(-1)}, ErrRange},
		{HingeJoint{Name: "he1", Rate: math.NaN()}, ErrRange},
		{HingeJoint{Name: "he1", Rate: math.Inf(1)}, ErrRange},
		{HingeJoint{Name: "", Rate: 1}, ErrAtom},
		{HingeJoint{Name: "h e", Rate: 1}, ErrAtom},
		{HingeJoint{Name: "say", Rate: 1}, ErrAtom},
		{UniversalJoint{Name: "u", Rate1: 1, Rate2: math.NaN()}, ErrRange},
		{UniversalJoint{Name: "beam", Rate1: 1, Rate2: 1}, ErrAtom},
		{Say{Message: "a b"}, ErrSayChar},
		// Bytes the server accepts but mishandles: a lone quote, a trailing backslash and a
		// leading ';' freeze it; apostrophes and escaped quotes arrive changed.
		{Say{Message: `a"b`}, ErrSayUnsafe},
		{Say{Message: `ab\`}, ErrSayUnsafe},
		{Say{Message: ";ab"}, ErrSayUnsafe},
		{Say{Message: "it's"}, ErrSayUnsafe},
		{Say{Message: `a\"b`}, ErrSayUnsafe},
		{Say{Message: `""`}, ErrSayUnsafe},
	}
	for _, tt := range tests {
		got, err := tt.cmd.AppendText([]byte("keep"))
		if !errors.Is(err, tt.want) {
			t.Errorf("%#v: %v, want %v", tt.cmd, err, tt.want)
		}
		if string(got) != "keep" {
			t.Errorf("%#v wrote %q on error", tt.cmd, got)
		}
	}
}

func TestParseCommands(t *testing.T) {
	src := "(scene rsg/agent/nao/nao_hetero.rsg 2)(init (teamname FHO) (unum 3))(beam -6 0.5 90)" +
		"(he1 -2.5)(lae1_2 -2.3 1.2)(rle4 99)(say Ed-3kQ_9)(syn)"
	want := []Command{
		Scene{Path: "rsg/agent/nao/nao_hetero.rsg", RobotType: 2, HasRobotType: true},
		Init{Unum: 3, TeamName: "FHO"},
		Beam{X: -6, Y: 0.5, Rot: 90},
		HingeJoint{Name: "he1", Rate: -2.5},
		UniversalJoint{Name: "lae1_2", Rate1: float64(float32(-2.3)), Rate2: float64(float32(1.2))},
		HingeJoint{Name: "rle4", Rate: 99}, // reported as sent, not clamped
		Say{Message: "Ed-3kQ_9"},
		Syn{},
	}
	var tr Tree
	var got []Command
	if err := ParseCommands(&tr, []byte(src), func(c Command) error { got = append(got, c); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
	out, err := AppendCommands(nil, got...)
	if err != nil {
		t.Fatal(err)
	}
	const rebuilt = "(scene rsg/agent/nao/nao_hetero.rsg 2)(init (unum 3)(teamname FHO))(beam -6 0.5 90)" +
		"(he1 -2.5)(lae1_2 -2.3 1.2)(rle4 6.1395445)(say Ed-3kQ_9)(syn)"
	if string(out) != rebuilt {
		t.Errorf("rebuilt %q\nwant    %q", out, rebuilt)
	}
	// Init without unum is accepted by the server (number 0, assigned automatically).
	var one []Command
	if err := ParseCommands(&tr, []byte("(init (teamname A))"), func(c Command) error { one = append(one, c); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, []Command{Init{TeamName: "A"}}) {
		t.Errorf("init without unum: %#v", one)
	}
	stop := errors.New("stop")
	if err := ParseCommands(&tr, []byte("(syn)(syn)"), func(Command) error { return stop }); err != stop {
		t.Errorf("callback error: %v", err)
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"(", ErrUnbalanced},
		{"atom", ErrSyntax},
		{"()", ErrSyntax},
		{"((x) 1)", ErrSyntax},
		{"(scene)", ErrSyntax},
		{"(scene a b c)", ErrSyntax},
		{"(scene a -1)", ErrRange},
		{"(scene a x)", ErrNumber},
		{"(scene (a))", ErrSyntax},
		{"(init)", ErrSyntax},
		{"(init (unum 1))", ErrSyntax},
		{"(init (unum 12)(teamname A))", ErrRange},
		{"(init (unum x)(teamname A))", ErrNumber},
		{"(init (unum 1)(unum 2)(teamname A))", ErrSyntax},
		{"(init (teamname A)(extra 1))", ErrSyntax},
		{"(init (teamname (A)))", ErrSyntax},
		{"(init unum)", ErrSyntax},
		{"(beam 1 2)", ErrSyntax},
		{"(beam 1 2 x)", ErrNumber},
		{"(beam 1 nan 0)", ErrNumber},
		{"(say)", ErrSyntax},
		{"(say a b)", ErrSyntax},
		{"(say (a))", ErrSyntax},
		{"(say " + strings.Repeat("z", 21) + ")", ErrSayTooLong},
		{"(syn 1)", ErrSyntax},
		{"(he1)", ErrUnknownCommand},
		{"(he1 1 2 3)", ErrUnknownCommand},
		{"(he1 fast)", ErrNumber},
		{"(he1 1e39)", ErrNumber}, // beyond float32
		{"(u 1 inf)", ErrNumber},
		{"(h\x01 1)", ErrAtom},
	}
	for _, tt := range tests {
		var tr Tree
		err := ParseCommands(&tr, []byte(tt.in), func(Command) error { return nil })
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseCommands(%q) = %v, want %v", tt.in, err, tt.want)
		}
	}
}

func FuzzParseCommands(f *testing.F) {
	for _, s := range []string{
		"(scene rsg/agent/nao/nao.rsg)", "(init (unum 1)(teamname FHO))", "(beam 10.0 -10.0 0.0)",
		"(lae3 5.3)", "(lae1_2 -2.3 1.2)", "(say helloworld)", "(syn)", "(he1 7.5)(he2 -1e-3)",
		"(scene x 3)(init (teamname A))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var tr Tree
		var cmds []Command
		if err := ParseCommands(&tr, src, func(c Command) error { cmds = append(cmds, c); return nil }); err != nil {
			return
		}
		for _, c := range cmds {
			// The parser reads every say the server takes; the builder writes only safe ones.
			if c, ok := c.(Say); ok && ValidateSaySafe(c.Message) != nil {
				if _, err := c.AppendText(nil); !errors.Is(err, ErrSayUnsafe) {
					t.Fatalf("unsafe say %q built: %v", c.Message, err)
				}
				return
			}
		}
		// Whatever parses is written back and parses to the same commands, except that
		// joint rates are clamped on the way out.
		out, err := AppendCommands(nil, cmds...)
		if err != nil {
			t.Fatalf("rebuilding %#v: %v", cmds, err)
		}
		var again []Command
		if err := ParseCommands(&tr, out, func(c Command) error { again = append(again, c); return nil }); err != nil {
			t.Fatalf("rebuilt %q does not parse: %v", out, err)
		}
		for i, c := range cmds {
			switch c := c.(type) {
			case HingeJoint:
				c.Rate = float64(float32(ClampRate(c.Rate)))
				cmds[i] = c
			case UniversalJoint:
				c.Rate1 = float64(float32(ClampRate(c.Rate1)))
				c.Rate2 = float64(float32(ClampRate(c.Rate2)))
				cmds[i] = c
			}
		}
		if !reflect.DeepEqual(cmds, again) {
			t.Fatalf("round trip of %q via %q:\n got %#v\nwant %#v", src, out, again, cmds)
		}
	})
}

func BenchmarkAppendCommands(b *testing.B) {
	cmds := []Command{
		HingeJoint{Name: "he1", Rate: 1.25}, HingeJoint{Name: "he2", Rate: -0.5},
		HingeJoint{Name: "lle1", Rate: 3.1}, HingeJoint{Name: "lle2", Rate: -6.02},
		Say{Message: "Ed-3kQ_9xYz012345678"}, Syn{},
	}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendCommands(buf[:0], cmds...); err != nil {
			b.Fatal(err)
		}
	}
}
