package procs

import (
	"runtime"
	"strconv"
	"testing"
)

func TestApply(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })

	t.Setenv("GOMAXPROCS", "")
	Apply(Node)
	if got := runtime.GOMAXPROCS(0); got != Node {
		t.Fatalf("without GOMAXPROCS: runtime has %d processors, want %d", got, Node)
	}

	// The environment wins: the runtime keeps what it has (it read the variable at
	// start-up; here the test sets the runtime to match).
	runtime.GOMAXPROCS(3)
	t.Setenv("GOMAXPROCS", strconv.Itoa(3))
	Apply(Node)
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Fatalf("with GOMAXPROCS=3: runtime has %d processors, want 3", got)
	}
}
