package rosargs

import (
	"fmt"
	"strings"
	"testing"
)

// lexAll splits s into "kind:text" items the way the rule parsers see it.
func lexAll(s string) string {
	var out []string
	for {
		l, n := lex(s)
		if l == lexEOF {
			return strings.Join(out, " ")
		}
		out = append(out, fmt.Sprintf("%d:%s", l, s[:n]))
		s = s[n:]
	}
}

func TestLexer(t *testing.T) {
	tok := func(s string) string { return fmt.Sprintf("%d:%s", lexToken, s) }
	k := func(l lexeme, s string) string { return fmt.Sprintf("%d:%s", l, s) }
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"foo", []string{tok("foo")}},
		{"Foo9_x", []string{tok("Foo9_x")}},
		{"_", []string{tok("_")}},
		{"_a", []string{tok("_a")}},
		{"a_", []string{tok("a_")}},
		{"a__b", []string{tok("a_"), tok("_b")}}, // no double underscore inside a token
		{"9a", []string{k(lexNone, "9"), tok("a")}},
		{"__node", []string{k(lexNode, "__node")}},
		{"__name", []string{k(lexNode, "__name")}},
		{"__ns", []string{k(lexNS, "__ns")}},
		{"__nodex", []string{k(lexNode, "__node"), tok("x")}},
		{"__x", []string{k(lexNone, "__x")}},
		{"__nx", []string{k(lexNone, "__nx")}},
		{"r", []string{tok("r")}},
		{"ros", []string{tok("ros")}},
		{"rostopic", []string{tok("rostopic")}},
		{"rostopic://a", []string{k(lexURLTopic, "rostopic://"), tok("a")}},
		{"rosservice://a", []string{k(lexURLService, "rosservice://"), tok("a")}},
		{"rostopic:a", []string{tok("rostopic"), k(lexColon, ":"), tok("a")}},
		{"rostopic:/a", []string{tok("rostopic"), k(lexColon, ":"), k(lexSlash, "/"), tok("a")}},
		{"rosservice:=x", []string{tok("rosservice"), k(lexSeparator, ":="), tok("x")}},
		{"rostopics", []string{tok("rostopics")}},
		{"rostopic:", []string{tok("rostopic"), k(lexColon, ":")}},
		{"rostopic:/", []string{tok("rostopic"), k(lexColon, ":"), k(lexSlash, "/")}},
		{"rosservice:/x", []string{tok("rosservice"), k(lexColon, ":"), k(lexSlash, "/"), tok("x")}},
		{"rosservice://", []string{k(lexURLService, "rosservice://")}},
		{"rosserv", []string{tok("rosserv")}},
		{"Rostopic://a", []string{tok("Rostopic"), k(lexColon, ":"), k(lexSlash, "/"), k(lexSlash, "/"), tok("a")}},
		{"~/a", []string{k(lexTildeSlash, "~/"), tok("a")}},
		{"~a", []string{k(lexNone, "~a")}},
		{"*", []string{k(lexWildOne, "*")}},
		{"**", []string{k(lexWildMulti, "**")}},
		{"***", []string{k(lexWildMulti, "**"), k(lexWildOne, "*")}},
		{":", []string{k(lexColon, ":")}},
		{":=", []string{k(lexSeparator, ":=")}},
		{"::=", []string{k(lexColon, ":"), k(lexSeparator, ":=")}},
		{`\1`, []string{k(lexBackref, `\1`)}},
		{`\0`, []string{k(lexNone, `\0`)}},
		{"a.b/c", []string{tok("a"), k(lexDot, "."), tok("b"), k(lexSlash, "/"), tok("c")}},
		{"a-b", []string{tok("a"), k(lexNone, "-"), tok("b")}},
		{"a\x00b", []string{tok("a"), k(lexNone, "\x00"), tok("b")}},
	} {
		if got, want := lexAll(tc.in), strings.Join(tc.want, " "); got != want {
			t.Errorf("lex(%q) = %s, want %s", tc.in, got, want)
		}
	}
}
