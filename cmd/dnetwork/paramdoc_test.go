package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateParamDoc = flag.Bool("update", false, "rewrite the generated table of docs/parameters.md from --list-params")

const (
	paramDocPath  = "../../docs/parameters.md"
	paramDocBegin = "<!-- BEGIN GENERATED: dnetwork node --list-params (make generate rewrites it) -->\n"
	paramDocEnd   = "<!-- END GENERATED -->\n"
)

// TestParameterDocs keeps docs/parameters.md true: between its markers it must hold
// exactly what "dnetwork node --list-params" prints, so a parameter added, removed or
// changed in the node's declarations fails here until the file is regenerated with
// "make generate" (this test with -update).
func TestParameterDocs(t *testing.T) {
	code, table, stderr := runNodeCmd(t, "node", "--list-params")
	if code != 0 {
		t.Fatalf("--list-params exit %d: %s", code, stderr)
	}
	if rows := strings.Count(table, "\n| `"); rows < 50 {
		t.Fatalf("only %d parameter rows printed", rows)
	}
	doc, err := os.ReadFile(paramDocPath)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(doc), paramDocBegin)
	if !ok {
		t.Fatalf("%s lacks the line %q", paramDocPath, paramDocBegin)
	}
	old, tail, ok := strings.Cut(rest, paramDocEnd)
	if !ok {
		t.Fatalf("%s lacks the line %q after the table", paramDocPath, paramDocEnd)
	}
	if *updateParamDoc {
		if err := os.WriteFile(paramDocPath, []byte(head+paramDocBegin+table+paramDocEnd+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if old == table {
		return
	}
	have := make(map[string]bool)
	for _, line := range strings.Split(old, "\n") {
		have[line] = true
	}
	printed := make(map[string]bool)
	for _, line := range strings.Split(table, "\n") {
		printed[line] = true
		if !have[line] {
			t.Errorf("docs/parameters.md lacks or differs in the row\n%s", line)
		}
	}
	for _, line := range strings.Split(old, "\n") {
		if !printed[line] {
			t.Errorf("docs/parameters.md has a row --list-params does not print\n%s", line)
		}
	}
	t.Errorf("docs/parameters.md is stale: regenerate it with make generate (go test ./cmd/dnetwork -run '^TestParameterDocs$' -update)")
}

// notParameters are dotted names in the docs that look like parameters of a group
// (team., gamecontroller., ...) but are something else.
var notParameters = map[string]string{
	"diagnostics.launch.py":            "the launch file",
	"team.key":                         "a key file's name",
	"gamecontroller.local":             "a field of the monitor's state",
	"gamecontroller.warning":           "a field of the monitor's state",
	"gamecontroller.true_data.refused": "a field of the monitor's state",
}

var (
	docSpan      = regexp.MustCompile("`[^`\n]+`")
	docDotted    = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)`)
	docSnake     = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`)
	docParamFlag = regexp.MustCompile(`-p\s+([A-Za-z][A-Za-z0-9_.]*):=`)
)

// TestParameterNamesInDocs checks every parameter name that README.md, CONTRIBUTING.md
// and docs/*.md mention against the node's declarations: a dotted name in backticks
// whose group is a parameter group (`team.port`), and every "-p name:=" of a shell
// block, must be declared; a name in backticks that is a declared one with a dot
// written as "_" (`inputs_reliable`) is an error.
func TestParameterNamesInDocs(t *testing.T) {
	code, table, stderr := runNodeCmd(t, "node", "--list-params")
	if code != 0 {
		t.Fatalf("--list-params exit %d: %s", code, stderr)
	}
	declared := make(map[string]bool)
	groups := make(map[string]bool)
	for _, line := range strings.Split(table, "\n") {
		name, ok := strings.CutPrefix(line, "| `")
		if name, _, found := strings.Cut(name, "`"); ok && found {
			declared[name] = true
			if g, _, dotted := strings.Cut(name, "."); dotted {
				groups[g] = true
			}
		}
	}
	if !declared["inputs.reliable"] || !groups["team"] {
		t.Fatalf("parameters not read from --list-params: %v", declared)
	}
	for _, file := range docFiles(t) {
		raw, err := os.ReadFile(filepath.Join("../..", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, span := range docSpan.FindAllString(string(raw), -1) {
			for _, m := range docDotted.FindAllStringSubmatch(span, -1) {
				name := m[1]
				g, _, _ := strings.Cut(name, ".")
				if groups[g] && !declared[name] && notParameters[name] == "" {
					t.Errorf("%s: %s names no parameter (docs/parameters.md lists them)", file, span)
				}
			}
			for _, m := range docSnake.FindAllStringSubmatch(span, -1) {
				name := m[1]
				for i := range len(name) {
					if name[i] == '_' && !declared[name] && declared[name[:i]+"."+name[i+1:]] {
						t.Errorf("%s: %s: the parameter is %s", file, span, name[:i]+"."+name[i+1:])
					}
				}
			}
		}
		for _, b := range shellBlocks(t, file) {
			for _, m := range docParamFlag.FindAllStringSubmatch(b.text, -1) {
				if !declared[m[1]] {
					t.Errorf("%s:%d: -p %s: no such parameter", file, b.line, m[1])
				}
			}
		}
	}
}
