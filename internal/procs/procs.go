package procs

import (
	"os"
	"runtime"
)

// Node is the number of processors a node process runs its Go code on by default.
const Node = 1

// Apply sets GOMAXPROCS to n unless the GOMAXPROCS environment variable is set (the
// runtime applied it at start-up).
func Apply(n int) {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(n)
	}
}
