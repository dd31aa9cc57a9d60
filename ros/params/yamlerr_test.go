package params

import (
	"errors"
	"strings"
	"testing"
)

// robotYAML is a robot's parameter file in short, one line per entry so the tests can
// break any line by number.
var robotYAML = []string{
	"# dnetwork parameters of robot 3.", // line 1
	"dnetwork_3:",
	"  ros__parameters:",
	"    robot_id: 3",
	"    team_number: 17", // line 5
	"    league: hsl",
	"    interface: auto",
	"    team:",
	"      enabled: true",
	"      # Packet format: dnet or zju.", // line 10
	"      format: dnet",
	"      port: 0",
	"      auth_key: \"\"",
	"    gamecontroller:",
	"      # It's the GameController's address: allow_from: [\"10.0.0.2\"]", // line 15
	"      port: 3838",
	"      timeout: 3.0",
	"    diagnostics:",
	"      period: 1.0",
	"",
}

// TestSyntaxErrorLines breaks a robot's parameter file in the usual ways and checks
// that the error names the line (and column) of the mistake as an editor counts them,
// the construct the parser was in, and the likely cause.
func TestSyntaxErrorLines(t *testing.T) {
	if err := (&Overrides{}).LoadYAML("robot3.yaml", []byte(strings.Join(robotYAML, "\n"))); err != nil {
		t.Fatalf("the unchanged file: %v", err)
	}
	for _, tc := range []struct {
		name string
		line int    // 1-based line replaced
		text string // its new text
		want string // the whole error
	}{
		{"indented deeper after a comment", 11, "         format: dnet",
			"robot3.yaml: line 11, column 10: did not find expected key (while parsing a block mapping that starts on line 9, column 7; is line 11 indented like the keys above it?)"},
		{"indented deeper under a value", 12, "          port: 0",
			"robot3.yaml: line 12, column 15: mapping values are not allowed in this context (line 12 is indented deeper than line 11, so it continues that line's value)"},
		{"indented less", 11, "     format: dnet",
			"robot3.yaml: line 11, column 6: did not find expected key (while parsing a block mapping that starts on line 4, column 5; is line 11 indented like the keys above it?)"},
		{"colon in a value", 6, "    league: hsl: spl",
			"robot3.yaml: line 6, column 16: mapping values are not allowed in this context (a value holding ': ' needs quotes)"},
		{"tab", 6, "\tleague: hsl",
			"robot3.yaml: line 6, column 1: found a tab character that violates indentation (while scanning a plain scalar that starts on line 5, column 18; line 6 is indented with a tab; YAML indents with spaces)"},
		{"no space after the colon", 5, "    team_number:17",
			"robot3.yaml: line 6, column 5: could not find expected ':' (while scanning a simple key that starts on line 5, column 5; a key needs ': ' (colon and space) before its value; line 5 has none)"},
		{"unclosed flow sequence", 6, "    league: [hsl",
			"robot3.yaml: line 7, column 14: did not find expected ',' or ']' (while parsing a flow sequence that starts on line 6, column 13)"},
		{"unclosed quote", 6, "    league: 'hsl",
			"robot3.yaml: line 15, column 42: mapping values are not allowed in this context (line 6 opens a quote it does not close)"},
		{"list item among keys", 11, "    - format: dnet",
			"robot3.yaml: line 11, column 5: did not find expected key (while parsing a block mapping that starts on line 4, column 5; is line 11 indented like the keys above it?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := append([]string(nil), robotYAML...)
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
