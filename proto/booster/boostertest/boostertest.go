package boostertest

import (
	"bytes"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Revision directories of the carried headers under testdata.
const (
	Main = "fa4f31c"
	Y26  = "aac541d"
)

// Testdata returns the absolute path of package booster's testdata directory.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

// Program is a built fixture program of one revision.
type Program struct {
	Path string
}

// Build compiles gen.cpp against revision rev's header (Main or Y26) into a temporary
// directory, or skips t when g++ is missing.
func Build(t testing.TB, rev string) Program {
	t.Helper()
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not installed: cannot build the Booster fixture program")
	}
	td := Testdata()
	out := filepath.Join(t.TempDir(), "gen-"+rev)
	cmd := exec.Command(gxx, "-std=c++17", "-Wall", "-Werror",
		"-I"+filepath.Join(td, "shim"), "-I"+filepath.Join(td, rev),
		filepath.Join(td, "gen.cpp"), "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("g++ %s: %v\n%s", rev, err, b)
	}
	return Program{Path: out}
}

// WriteText runs "gen write team player" and returns its output (comment and hex lines).
func (p Program) WriteText(t testing.TB, team, player int) []byte {
	t.Helper()
	b, err := exec.Command(p.Path, "write", strconv.Itoa(team), strconv.Itoa(player)).Output()
	if err != nil {
		t.Fatalf("%s write: %v", p.Path, err)
	}
	return b
}

// Write returns the TeamCommunicationMsg and TeamDiscoveryMsg the program writes for
// team and player.
func (p Program) Write(t testing.TB, team, player int) (msg, discovery []byte) {
	t.Helper()
	pk := ParseHex(t, p.WriteText(t, team, player))
	if len(pk) != 2 {
		t.Fatalf("%s write: %d packets, want 2", p.Path, len(pk))
	}
	return pk[0], pk[1]
}

// Read runs "gen read" over the packets and returns one line of fields per packet, as
// the C struct holds them.
func (p Program) Read(t testing.TB, packets ...[]byte) []string {
	t.Helper()
	var in bytes.Buffer
	for _, b := range packets {
		in.WriteString(hex.EncodeToString(b) + "\n")
	}
	cmd := exec.Command(p.Path, "read")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s read: %v", p.Path, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// ParseHex returns the packets of hex text: one per line, # comments and blank lines
// skipped.
func ParseHex(t testing.TB, text []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			t.Fatalf("hex %q: %v", line, err)
		}
		out = append(out, b)
	}
	return out
}
