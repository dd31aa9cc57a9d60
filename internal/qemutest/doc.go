// Package qemutest tells a test whether it runs under qemu-user, as the arm64 section of
// scripts/test.sh runs every package's tests (it sets DNETWORK_QEMU=1), so that a test
// that cannot work there skips and says why.
//
// Invariant: Active reports only what the environment says; nothing here probes the
// machine, so a test on a real arm64 robot runs in full.
package qemutest
