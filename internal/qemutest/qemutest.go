package qemutest

import (
	"os"
	"testing"
)

// Env is the variable that marks a run under qemu-user; scripts/test.sh sets it to 1.
const Env = "DNETWORK_QEMU"

// Active reports whether the tests run under qemu-user (Env is set and not empty).
func Active() bool { return os.Getenv(Env) != "" }

// Skip skips t under qemu-user with why, the reason the test cannot work there.
func Skip(t testing.TB, why string) {
	t.Helper()
	if Active() {
		t.Skipf("under qemu-user (%s set): %s", Env, why)
	}
}
