package monitor

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNodeImports: the monitor reads protocol knowledge (proto/...) and never depends
// on a node component; the import graph runs cmd -> monitor -> proto, transport.
func TestNoNodeImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the imports")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/robocup-dnetwork/dnetwork/node") {
			t.Errorf("monitor depends on %s", p)
		}
	}
}
