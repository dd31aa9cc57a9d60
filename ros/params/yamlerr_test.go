package params

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSyntaxErrorLines breaks a robot's parameter file in the usual ways and checks
// that the error names the line (and column) of the mistake as an editor counts them,
// the construct the parser was in, and the likely cause.
func TestSyntaxErrorLines(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "params", "robot3.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	if !strings.HasPrefix(lines[19], "    league: ") || !strings.HasPrefix(lines[33], "      format: ") || !strings.HasPrefix(lines[16], "    team_number: ") {
		t.Fatalf("params/robot3.yaml changed: lines 17, 20 and 34 are %q, %q, %q", lines[16], lines[19], lines[33])
	}
	if err := (&Overrides{}).LoadYAML("robot3.yaml", good); err != nil {
		t.Fatalf("the unchanged file: %v", err)
	}
	for _, tc := range []struct {
		name string
		line int    // 1-based line replaced
		text string // its new text
		want string // the whole error
	}{
		{"indented deeper", 34, "         format: dnet",
			"robot3.yaml: line 34, column 10: did not find expected key (while parsing a block mapping that starts on line 31, column 7; is line 34 indented like the keys above it?)"},
		{"indented less", 34, "     format: dnet",
			"robot3.yaml: line 34, column 6: did not find expected key (while parsing a block mapping that starts on line 14, column 5; is line 34 indented like the keys above it?)"},
		{"colon in a value", 20, "    league: hsl: spl",
			"robot3.yaml: line 20, column 16: mapping values are not allowed in this context (a value holding ': ' needs quotes)"},
		{"tab", 20, "\tleague: hsl",
			"robot3.yaml: line 20, column 1: found character that cannot start any token (line 20 is indented with a tab; YAML indents with spaces)"},
		{"no space after the colon", 17, "    team_number:17",
			"robot3.yaml: line 20, column 5: could not find expected ':' (while scanning a simple key that starts on line 17, column 5; a key needs ': ' (colon and space) before its value; line 17 has none)"},
		{"unclosed flow sequence", 20, "    league: [hsl",
			"robot3.yaml: line 23, column 5: did not find expected ',' or ']' (while parsing a flow sequence that starts on line 20, column 13)"},
		{"unclosed quote", 20, "    league: 'hsl",
			"robot3.yaml: line 59, column 21: mapping values are not allowed in this context (line 20 opens a quote it does not close)"},
		{"list item among keys", 34, "    - format: dnet",
			"robot3.yaml: line 34, column 5: did not find expected key (while parsing a block mapping that starts on line 14, column 5; is line 34 indented like the keys above it?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := append([]string(nil), lines...)
			bad[tc.line-1] = tc.text
			err := (&Overrides{}).LoadYAML("robot3.yaml", []byte(strings.Join(bad, "\n")))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var se *SourceError
			if !errors.As(err, &se) || se.Source.Line == 0 || !errors.Is(err, ErrInvalidFile) {
				t.Errorf("%#v: want a *SourceError with the line that matches ErrInvalidFile", err)
			}
		})
	}
}

func TestLeavesQuoteOpen(t *testing.T) {
	for line, want := range map[string]bool{
		`key: "open`:                   true,
		`key: 'open`:                   true,
		`key: "closed"`:                false,
		`key: 'it''s closed'`:          false,
		`key: "say \"hi\""`:            false,
		`key: it's plain`:              false,
		`# a comment's quote`:          false,
		`key: value  # it's a comment`: false,
		`list: ["a", "b`:               true,
		`- 'item`:                      true,
	} {
		if got := leavesQuoteOpen([]byte(line)); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}
