package sim3d

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// render writes the tree back in a canonical form: atoms separated by one space, lists in
// parentheses. It exercises the whole navigation API.
func render(b *strings.Builder, n Node) {
	if n.IsAtom() {
		b.Write(n.Atom())
		return
	}
	b.WriteByte('(')
	i := 0
	for c := n.First(); c.Valid(); c = c.Next() {
		if i > 0 {
			b.WriteByte(' ')
		}
		render(b, c)
		i++
	}
	if i != n.Len() {
		b.WriteString("<len mismatch>")
	}
	b.WriteByte(')')
}

func renderRoot(t *Tree) string {
	var b strings.Builder
	render(&b, t.Root())
	return b.String()
}

func TestTreeParse(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", "()"},
		{"  \t\r\n", "()"},
		{"(a)", "((a))"},
		{"(a b)(c)", "((a b) (c))"},
		{"(time (now 93.60))", "((time (now 93.60)))"},
		{"(a(b(c d)e)f)", "((a (b (c d) e) f))"},
		{"()", "(())"},
		{"(() ())", "((() ()))"},
		{"atom", "(atom)"},
		{"x (y) z", "(x (y) z)"},
		{"(hear T 1 self a\"b'c\\d)", "((hear T 1 self a\"b'c\\d))"},
		{"(a\x00b \xff)", "((a\x00b \xff))"},
		{"(a\n\tb\r\n)", "((a b))"},
	}
	var tr Tree
	for _, tt := range tests {
		if err := tr.Parse([]byte(tt.in)); err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := renderRoot(&tr); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestTreeErrors(t *testing.T) {
	tests := []struct {
		in      string
		depth   int
		nodes   int
		want    error
		message string
	}{
		{in: "(a", want: ErrUnbalanced, message: "'(' at byte 0 is not closed"},
		{in: "(a (b)", want: ErrUnbalanced, message: "'(' at byte 0 is not closed"},
		{in: "a)", want: ErrUnbalanced, message: "')' at byte 1 closes nothing"},
		{in: "(a))(", want: ErrUnbalanced, message: "')' at byte 3"},
		{in: "((((a))))", depth: 3, want: ErrTooDeep, message: "more than 3 levels at byte 3"},
		{in: strings.Repeat("(", DefaultMaxDepth+1) + strings.Repeat(")", DefaultMaxDepth+1), want: ErrTooDeep},
		{in: "(a b c)", nodes: 3, want: ErrTooManyNodes, message: "more than 3"},
	}
	for _, tt := range tests {
		tr := Tree{MaxDepth: tt.depth, MaxNodes: tt.nodes}
		err := tr.Parse([]byte(tt.in))
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("Parse(%q) = %v, want %v containing %q", tt.in, err, tt.want, tt.message)
		}
		if tr.Root().Len() != 0 || tr.Root().First().Valid() {
			t.Errorf("Parse(%q) failed but left nodes behind", tt.in)
		}
	}
	// Exactly at the limits is fine.
	tr := Tree{MaxDepth: 4, MaxNodes: 5}
	if err := tr.Parse([]byte("((((a))))")); err != nil {
		t.Errorf("depth 4 with limit 4: %v", err)
	}
}

func TestNodeAccessors(t *testing.T) {
	var tr Tree
	src := []byte("(GS (t 12.5) (unum 7) (pm PlayOn)) word (x)")
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	gs := tr.Root().First()
	if !gs.IsList() || gs.IsAtom() || !gs.HeadIs("GS") || gs.HeadIs("G") || gs.Len() != 4 {
		t.Fatalf("GS node: list %v head %q len %d", gs.IsList(), gs.Head(), gs.Len())
	}
	if got := string(gs.Text()); got != "(GS (t 12.5) (unum 7) (pm PlayOn))" {
		t.Errorf("Text = %q", got)
	}
	if v, err := gs.Find("t").First().Next().Float(); err != nil || v != 12.5 {
		t.Errorf("t = %v, %v", v, err)
	}
	if v, err := gs.Find("unum").First().Next().Int(); err != nil || v != 7 {
		t.Errorf("unum = %v, %v", v, err)
	}
	if gs.Find("nope").Valid() {
		t.Error("Find of a missing name is valid")
	}
	if _, err := gs.Find("pm").First().Next().Float(); !errors.Is(err, ErrNumber) {
		t.Errorf("Float of PlayOn: %v", err)
	}
	if _, err := gs.Float(); !errors.Is(err, ErrNumber) {
		t.Errorf("Float of a list: %v", err)
	}
	if _, err := (Node{}).Int(); !errors.Is(err, ErrNumber) || !strings.Contains(err.Error(), "missing value") {
		t.Errorf("Int of nothing: %v", err)
	}
	word := gs.Next()
	if !word.IsAtom() || string(word.Atom()) != "word" || word.Head() != nil || word.Len() != 0 {
		t.Errorf("word node: %q", word.Atom())
	}
	// The zero Node is an invalid, empty list-like value.
	var z Node
	if z.Valid() || z.IsAtom() || z.IsList() || z.Atom() != nil || z.Text() != nil || z.Len() != 0 ||
		z.First().Valid() || z.Next().Valid() || z.HeadIs("") {
		t.Error("zero Node is not inert")
	}
	if tr.Root().Next().Valid() {
		t.Error("root has a sibling")
	}
	for _, bad := range []string{"1e999", "NaN", "inf", "-Inf", "1.2.3", ""} {
		var tt Tree
		if err := tt.Parse([]byte("(" + bad + ")")); err != nil {
			t.Fatal(err)
		}
		if v, err := tt.Root().First().First().Float(); err == nil {
			t.Errorf("Float(%q) = %v, want error", bad, v)
		}
	}
	for _, bad := range []string{"2147483648", "1.5", "0x10", "-"} {
		var tt Tree
		if err := tt.Parse([]byte("(" + bad + ")")); err != nil {
			t.Fatal(err)
		}
		if v, err := tt.Root().First().First().Int(); err == nil {
			t.Errorf("Int(%q) = %v, want error", bad, v)
		}
	}
}

func TestTreeLongAtomError(t *testing.T) {
	var tr Tree
	long := strings.Repeat("x", 1000)
	if err := tr.Parse([]byte("(" + long + ")")); err != nil {
		t.Fatal(err)
	}
	_, err := tr.Root().First().First().Float()
	if err == nil || len(err.Error()) > 1100 {
		t.Fatalf("error = %v", err)
	}
	if _, err := (Node{}).Float(); err == nil {
		t.Fatal("Float of nothing succeeded")
	}
	// describe clips long input in messages about lists.
	if err := tr.Parse([]byte("((" + long + "))")); err != nil {
		t.Fatal(err)
	}
	_, err = tr.Root().First().First().Float()
	if err == nil || len(err.Error()) > 100 || !strings.Contains(err.Error(), "...") {
		t.Fatalf("error about a long list = %v", err)
	}
}

func TestTreeReuseDoesNotAllocate(t *testing.T) {
	src, err := os.ReadFile("testdata/percept_nao.txt")
	if err != nil {
		t.Fatal(err)
	}
	var tr Tree
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err := tr.Parse(src); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Parse allocates %v times per message after warm-up, want 0", allocs)
	}
}

func TestTreeSourceAliasing(t *testing.T) {
	var tr Tree
	src := []byte("(say abc)")
	if err := tr.Parse(src); err != nil {
		t.Fatal(err)
	}
	a := tr.Root().First().First().Next().Atom()
	// The atom's capacity ends with the atom, so appending to it cannot scribble on src.
	_ = append(a, 'Z')
	if !bytes.Equal(src, []byte("(say abc)")) {
		t.Fatalf("append through an atom changed the source: %q", src)
	}
}

func FuzzTree(f *testing.F) {
	for _, s := range []string{
		"", "(", ")", "(a)", "(time (now 93.60))(GS (t 0.00) (pm BeforeKickOff))",
		"(hear TeamA 12.30 self helloworld)", "((((((((((((x))))))))))))", "a b (c (d) e) f",
		"(\x00)", "(a))", "\t(\r\n)",
	} {
		f.Add([]byte(s))
	}
	if src, err := os.ReadFile("testdata/percept_nao.txt"); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr := Tree{MaxDepth: 8, MaxNodes: 256}
		if err := tr.Parse(src); err != nil {
			return
		}
		// The canonical rendering parses to the same canonical rendering.
		canon := renderRoot(&tr)
		inner := canon[1 : len(canon)-1]
		var tr2 Tree
		if err := tr2.Parse([]byte(inner)); err != nil {
			t.Fatalf("canonical form %q does not parse: %v", inner, err)
		}
		if again := renderRoot(&tr2); again != canon {
			t.Fatalf("canonical form changed: %q -> %q", canon, again)
		}
		// Every accessor is total.
		var walk func(n Node, depth int)
		walk = func(n Node, depth int) {
			if depth > 9 {
				t.Fatalf("depth %d beyond the limit", depth)
			}
			_, _ = n.Float()
			_, _ = n.Int()
			_ = n.Find("hear")
			_ = n.Text()
			for c := n.First(); c.Valid(); c = c.Next() {
				walk(c, depth+1)
			}
		}
		walk(tr.Root(), 0)
	})
}

func BenchmarkTreeParse(b *testing.B) {
	src, err := os.ReadFile("testdata/percept_nao.txt")
	if err != nil {
		b.Fatal(err)
	}
	var tr Tree
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if err := tr.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
