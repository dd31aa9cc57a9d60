package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs dnetwork's main when the test binary is called as "dnetwork" (a link to
// it, as TestDocShellBlocks puts on PATH), and the tests otherwise.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "dnetwork" {
		main()
	}
	os.Exit(m.Run())
}
