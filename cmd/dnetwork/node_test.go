package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

func runNodeCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestNodeListParams(t *testing.T) {
	code, out, _ := runNodeCmd(t, "node", "--list-params")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"| Parameter | Type | Default | Range | Description |",
		"| `robot_id` | integer | `(required)` | 1..20, required |",
		"| `gamecontroller.port` | integer | `3838` | 1..65535 |",
		"| `team.peers` | string_array | `[]` |",
		`Over ROS a key that is set reads as "\<hidden\>"`} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
}

func TestNodeCheck(t *testing.T) {
	params := filepath.Join("..", "..", "params", "robot2.yaml")
	// interface lo: the files' auto depends on the machine's interfaces (TestNodeCheckInterface).
	code, out, stderr := runNodeCmd(t, "node", "--check", "--ros-args", "--params-file", params, "-p", "team.port:=57335", "-p", "interface:=lo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"node: /dnetwork_2\n", "robot_id: 2\n", "team.port: 57335\n", "team_number: 17\n", "league: \"hsl\"\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The same with the executable called as "dnetwork --ros-args ...".
	if code, out2, _ := runNodeCmd(t, "--ros-args", "--params-file", params, "-p", "team.port:=57335", "-p", "interface:=lo", "--", "--check"); code != 0 || out2 != out {
		t.Errorf("--ros-args form: exit %d\n%s", code, out2)
	}
}

// TestNodeCheckKeyFile: --check says that it read the key of team.auth_key_file, and
// never prints the key.
func TestNodeCheckKeyFile(t *testing.T) {
	const key = "a team secret for the test"
	path := filepath.Join(t.TempDir(), "team.key")
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	params := filepath.Join("..", "..", "params", "robot2.yaml")
	code, out, stderr := runNodeCmd(t, "node", "--check", "--ros-args", "--params-file", params,
		"-p", "interface:=lo", "-p", "team.format:=dnet", "-p", "team.auth_key_file:="+path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := fmt.Sprintf("team.auth_key: read a key of %d bytes from %s\n", len(key), path)
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out+stderr, "secret") {
		t.Errorf("the key is printed:\n%s%s", out, stderr)
	}
	// Without a key file, no such line.
	if _, out, _ := runNodeCmd(t, "node", "--check", "--ros-args", "--params-file", params, "-p", "interface:=lo"); strings.Contains(out, "read a key") {
		t.Errorf("no key file, yet:\n%s", out)
	}
}

// TestNodeCheckInterface: --check fails with exit 2 when interface auto finds no usable
// interface (a machine with only loopback) and names what it saw; interface lo passes.
func TestNodeCheckInterface(t *testing.T) {
	ns := netnstest.New(t, "lo")
	params := filepath.Join("..", "..", "params", "robot2.yaml")
	var code, loCode int
	var stderr string
	if err := ns.Do(func() error {
		code, _, stderr = runNodeCmd(t, "node", "--check", "--ros-args", "--params-file", params)
		loCode, _, _ = runNodeCmd(t, "node", "--check", "--ros-args", "--params-file", params, "-p", "interface:=lo")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if code != exitUsage || !strings.Contains(stderr, "seen: lo (loopback)") || !strings.Contains(stderr, "interface: lo keeps the node on this machine") {
		t.Errorf("auto with only loopback: exit %d, stderr:\n%s", code, stderr)
	}
	if loCode != exitOK {
		t.Errorf("interface lo: exit %d", loCode)
	}
}

func TestNodeBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("dnetwork_3:\n  ros__parameters:\n    robot_id: 3\n    team_number: 17\n    team:\n      formt: dnet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no robot", []string{"node", "--ros-args", "-p", "team_number:=17"}, 2, "robot_id is not set"},
		{"unknown parameter", []string{"node", "--ros-args", "--params-file", bad}, 2, bad + `: dnetwork_3.ros__parameters.team.formt`},
		{"out of range", []string{"--ros-args", "-p", "robot_id:=3", "-p", "team_number:=0"}, 2, "-p team_number:=0"},
		{"missing file", []string{"node", "--ros-args", "--params-file", filepath.Join(dir, "none.yaml")}, 2, "none.yaml"},
		{"bad ros argument", []string{"node", "--ros-args", "--bogus"}, 2, "--bogus"},
		{"stray argument", []string{"node", "extra"}, 2, `unexpected argument "extra"`},
		{"help", []string{"node", "-h"}, 0, "usage: dnetwork node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runNodeCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant it to mention %q", code, tt.code, stderr, tt.want)
			}
		})
	}
}

// TestUsageColumns: dnetwork --help lists every command with its summary starting in one
// column, however long the longest name.
func TestUsageColumns(t *testing.T) {
	var b strings.Builder
	usage(&b)
	col := -1
	n := 0
	for _, line := range strings.Split(b.String(), "\n") {
		name, ok := strings.CutPrefix(line, "  ")
		if !ok {
			continue
		}
		n++
		name, _, _ = strings.Cut(name, " ")
		if _, known := commands[name]; !known {
			t.Fatalf("line %q: %q is not a command", line, name)
		}
		start := 2 + len(name) + len(line[2+len(name):]) - len(strings.TrimLeft(line[2+len(name):], " "))
		if col < 0 {
			col = start
		} else if start != col {
			t.Errorf("line %q: summary at column %d, want %d", line, start, col)
		}
	}
	if n != len(commands) {
		t.Errorf("%d command lines, want %d:\n%s", n, len(commands), b.String())
	}
}
