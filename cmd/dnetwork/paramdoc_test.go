package main

import (
	"flag"
	"os"
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
