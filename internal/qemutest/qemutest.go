// Package qemutest tells a test whether it runs under qemu-user, as the arm64 section of
// scripts/test.sh runs every package's tests (it sets DNETWORK_QEMU=1), so that a test
// that cannot work there skips and says why.
//
// Invariant: Active reports only what the environment says; nothing here probes the
// machine, so a test on a real arm64 robot runs in full.
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
