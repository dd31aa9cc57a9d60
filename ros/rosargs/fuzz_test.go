package rosargs

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse feeds Parse a command line whose arguments are separated by
// '\n'. Parse must not panic; on success the program's arguments are the
// input's in order, every rule prints back to a rule that parses the same,
// and name resolution with the rules never panics either.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"--team\n7\n--ros-args\n-r\n__node:=dnetwork\n-r\n__ns:=/robot1\n--params-file\n/tmp/launch_params_k3x1\n-p\ngc_port:=3838\n-r\nteam_status:=/team/status",
		"--ros-args\n--log-level\nrobot1.dnetwork:=debug\n-e\n/\n--\nx",
		"--ros-args\n-r\nrostopic:///rosservice:=rostopic\n-r\nnode:~/a:=b/c\n--disable-rosout-logs",
		"a:=b\n--ros-args\n-p\nn:a.b/c:=[1, 2]\n--ros-args\n--\n--",
		"--ros-args\n-r\n__ns:=/a/\n-r\nn:__name:=m\n--log-level\n__:=info",
		"--ros-args\n-r\nfoo:=\\1\n-p\n*:=1",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Split(line, "\n")
		a, rest, err := Parse(argv)
		if err != nil {
			if a != nil || rest != nil {
				t.Fatalf("error %v with results", err)
			}
			return
		}
		// rest is a subsequence of argv.
		j := 0
		for _, r := range rest {
			for j < len(argv) && argv[j] != r {
				j++
			}
			if j == len(argv) {
				t.Fatalf("rest %q is not a subsequence of %q", rest, argv)
			}
			j++
		}
		for _, r := range a.Remaps {
			again, err := parseRemap(r.String())
			if err != nil || !reflect.DeepEqual(again, r) {
				t.Fatalf("remap %+v prints as %q which parses as %+v, %v", r, r.String(), again, err)
			}
			// The rule grammar admits only valid names (length aside).
			switch r.Kind {
			case RemapNamespace:
				if ns := a.Namespace(r.Node, "/"); len(ns) <= MaxNamespaceLength {
					if err := ValidateNamespace(ns); err != nil && r.Node == "" {
						t.Fatalf("namespace rule %q gives %v", r, err)
					}
				}
			case RemapNodeName:
				if err := ValidateNodeName(r.Replacement); err != nil && len(r.Replacement) <= MaxNodeNameLength {
					t.Fatalf("node name rule %q gives %v", r, err)
				}
			}
		}
		for _, p := range a.Params {
			if p.File == "" && (p.Name == "" || p.Value == "" || p.Node == "") {
				t.Fatalf("incomplete param rule %+v", p)
			}
		}
		name := a.NodeName("dnetwork")
		ns := a.Namespace(name, "/robot1")
		for _, topic := range []string{"team_status", "~/x", "/abs", "{node}/y"} {
			_, _ = a.ResolveTopic(topic, name, ns)
			_, _ = a.ResolveService(topic, name, ns)
		}
		_ = a.LevelFor(LoggerName(ns, name))
	})
}

// FuzzLex checks that the lexer always makes progress and covers its input.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"rostopic://a/b:=~/c", "__node:=x", "a__b.c\\1**:", "rosservice:/x", "\x00~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		total := 0
		for rest := s; ; {
			l, n := lex(rest)
			if l == lexEOF {
				if rest != "" {
					t.Fatalf("EOF with %q left", rest)
				}
				break
			}
			if n <= 0 || n > len(rest) {
				t.Fatalf("lex(%q) = %v, %d", rest, l, n)
			}
			total += n
			rest = rest[n:]
		}
		if total != len(s) {
			t.Fatalf("lexemes cover %d of %d bytes", total, len(s))
		}
		_, _ = parseRemap(s)
		_, _, _, _ = parseParamRule(s)
		_, _, _ = parseLogLevel(s)
		for _, fn := range []func(string) error{ValidateTopicName, ValidateFullTopicName, ValidateNodeName, ValidateNamespace} {
			_ = fn(s)
		}
		_, _ = ExpandTopicName(s, "n", "/ns")
	})
}
