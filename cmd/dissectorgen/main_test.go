package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGeneratedIsCurrent: wireshark/dnetwork.lua is what the generator writes from the
// codecs' tables now (go generate ./wireshark rewrites it).
func TestGeneratedIsCurrent(t *testing.T) {
	b, err := os.ReadFile("../../wireshark/dnetwork.lua")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != generate() {
		t.Fatal("wireshark/dnetwork.lua is stale: run go generate ./wireshark")
	}
}

// TestCryptoOnNewerLua runs the generated CRC-32C, AES-128 and HMAC-SHA-256 code on a
// standalone Lua 5.3 or 5.4, which has no bit32: the fallback a Wireshark built on such
// a Lua uses. (Wireshark 4.0's Lua 5.2 runs it in cmd/dnetwork's tshark tests.)
func TestCryptoOnNewerLua(t *testing.T) {
	ran := false
	for _, lua := range []string{"lua5.4", "lua5.3"} {
		path, err := exec.LookPath(lua)
		if err != nil {
			continue
		}
		ran = true
		out, err := exec.Command(path, "testdata/crypto_check.lua", "../../wireshark/dnetwork.lua").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", lua, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 4 {
			t.Fatalf("%s: %d vectors, want 4:\n%s", lua, len(lines), out)
		}
		for _, l := range lines {
			if f := strings.Split(l, "\t"); len(f) != 3 || f[1] != f[2] {
				t.Errorf("%s: %s", lua, l)
			}
		}
	}
	if !ran {
		t.Skip("no lua5.4 or lua5.3 (scripts/setup.sh --test installs lua5.4)")
	}
}
