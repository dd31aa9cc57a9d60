package main

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEListsEveryParameter keeps the README's parameter table true: it must hold
// every row that "dnetwork node --list-params" prints, unchanged.
func TestREADMEListsEveryParameter(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runNodeCmd(t, "node", "--list-params")
	if code != 0 {
		t.Fatalf("--list-params exit %d", code)
	}
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		rows++
		if !strings.Contains(string(readme), line+"\n") {
			t.Errorf("README.md lacks or differs in the parameter row\n%s\n(regenerate the table with: dnetwork node --list-params)", line)
		}
	}
	if rows < 50 {
		t.Fatalf("only %d parameter rows printed", rows)
	}
}
