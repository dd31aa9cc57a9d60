package realros

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The steps of this file check what a team meets on its first day with the real
// ros2 launch and ros2 param of the distro: a mistake in the launch arguments or the
// robot file stops the launch with a clear message and a non-zero exit, keys are
// never readable over ROS, and what ros2 param dump prints starts a node again.

// Secrets of the parameter steps: none of them may appear in any ros2 output.
const (
	inlineTeamKey = "inline-team-secret-1"
	inlineWIKey   = "inline-worldinfo-secret-2"
	fileTeamKey   = "file-team-secret-3"
)

// configSteps runs the steps in domain, after the other steps of the distro.
func (s *suite) configSteps(t *testing.T, domain int) {
	t.Run("launch errors", func(t *testing.T) { s.launchErrors(t, domain) })
	t.Run("keys hidden from ros2 param", func(t *testing.T) { s.hiddenKeys(t, domain) })
	t.Run("ros2 param dump loads back", func(t *testing.T) { s.dumpLoadsBack(t, domain) })
	if _, err := s.ros2(domain, 30*time.Second, "daemon", "stop"); err != nil {
		t.Logf("ros2 daemon stop: %v", err)
	}
}

// launchOnce runs ros2 launch to its end and returns its output and exit code.
func (s *suite) launchOnce(t *testing.T, domain int, args ...string) (string, int) {
	t.Helper()
	out, err := s.ros2(domain, 90*time.Second, append([]string{"launch", "dnetwork"}, args...)...)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return out, ee.ExitCode()
	}
	t.Fatalf("ros2 launch %q: %v\n%s", args, err, tail(out))
	return "", 0
}

// launchErrors: every mistake ends the launch with a non-zero exit and the message
// that names it; the node's own message comes first.
func (s *suite) launchErrors(t *testing.T, domain int) {
	share := filepath.Join(s.ws, "install", "dnetwork", "share", "dnetwork", "params")
	robot3, err := os.ReadFile(filepath.Join(share, "robot3.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(s.tmp, "robot7.yaml")
	if err := os.WriteFile(copied, bytes.Replace(robot3, []byte("robot_id: 3"), []byte("robot_id: 7"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string // in this order
		not  string   // a message the output must not have
	}{
		{"no robot file for robot_id", []string{"dnetwork.launch.py", "robot_id:=6"},
			[]string{"robot_id:=6 has no parameter file: " + filepath.Join(share, "robot6.yaml") + " does not exist"}, ""},
		{"params_file missing", []string{"dnetwork.launch.py", "robot_id:=2", "params_file:=" + filepath.Join(s.tmp, "none.yaml")},
			[]string{"params_file:=" + filepath.Join(s.tmp, "none.yaml") + " does not exist"}, ""},
		{"robot file of another robot", []string{"dnetwork.launch.py", "robot_id:=4", "params_file:=" + filepath.Join(share, "robot3.yaml")},
			[]string{"robot3.yaml: no section for this node /dnetwork_4 (sections: dnetwork_3 with robot_id 3)", "name the section dnetwork_4 or use /**",
				"process has died", "exit code 2",
				"dnetwork_4 exited with code 2 (bad parameters or arguments; its messages are above): ending the launch with an error"}, ""},
		{"copied robot file", []string{"dnetwork.launch.py", "robot_id:=7", "params_file:=" + copied},
			[]string{copied + ": no section for this node /dnetwork_7 (sections: dnetwork_3 with robot_id 7)",
				"dnetwork_7 exited with code 2"},
			// The file sets team_number: the one message is the section's.
			"'team_number': required"},
		{"team launch", []string{"team_sim.launch.py", "robots:=2", "params_file:=" + copied},
			[]string{"exited with code 2", "ending the launch with an error"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := s.launchOnce(t, domain, tc.args...)
			if code == 0 {
				t.Errorf("ros2 launch exited 0:\n%s", tail(out))
			}
			rest := out
			for _, want := range tc.want {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("exit %d; the output lacks %q (in this order):\n%s", code, want, tail(out))
				}
				rest = rest[i+len(want):]
			}
			if tc.not != "" && strings.Contains(out, tc.not) {
				t.Errorf("the output has %q:\n%s", tc.not, tail(out))
			}
		})
	}
}

// keyedParams writes a robot file of the parameter steps: robot 1 on lo with the suite's
// ports and the given key lines under team: and worldinfo:.
func (s *suite) keyedParams(t *testing.T, name, team, worldinfo string) string {
	t.Helper()
	port := portBase + 100*s.index + 60
	text := fmt.Sprintf(`dnetwork_1:
  ros__parameters:
    robot_id: 1
    team_number: 17
    interface: lo
    gamecontroller:
      port: %d
    team:
      port: %d
%s
    worldinfo:
%s
`, port, port+1, team, worldinfo)
	p := filepath.Join(s.tmp, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// hiddenKeys launches robot 1 with keys in its parameter file: ros2 param get, describe,
// list and dump never show them, and Ctrl-C ends the launch with exit 0.
func (s *suite) hiddenKeys(t *testing.T, domain int) {
	params := s.keyedParams(t, "keyed.yaml", "      auth_key: "+inlineTeamKey, "      key: "+inlineWIKey)
	launch := start(t, s.domainEnv(domain), s.tmp, "ros2", "launch", "dnetwork", "dnetwork.launch.py", "robot_id:=1", "params_file:="+params)
	launch.waitOutput(t, "robot 1 of team 17", 60*time.Second)
	n := "/dnetwork_1"
	var outs []string
	outs = append(outs, s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "String value is: <hidden>") },
		"param", "get", n, "team.auth_key", "--no-daemon"))
	outs = append(outs, s.eventually(t, domain, 30*time.Second, func(out string) bool { return strings.Contains(out, "String value is: <hidden>") },
		"param", "get", n, "worldinfo.key", "--no-daemon"))
	outs = append(outs, s.eventually(t, domain, 30*time.Second, func(out string) bool {
		return strings.Contains(out, "Type: string") && strings.Contains(out, `reads as "<hidden>"`)
	}, "param", "describe", n, "team.auth_key", "worldinfo.key", "--no-daemon"))
	outs = append(outs, s.eventually(t, domain, 30*time.Second, func(out string) bool { return strings.Contains(out, "  team.auth_key_file\n") },
		"param", "list", n, "--no-daemon"))
	dump := s.dump(t, domain, n)
	outs = append(outs, dump)
	for _, want := range []string{"auth_key: <hidden>", "key: <hidden>", "auth_key_file: ''", "key_file: ''", "allow_from: []"} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
	// The dump of a node with keys in its file holds no key, and starting a node
	// from it says so.
	dumpFile := filepath.Join(s.tmp, "keyed_dump.yaml")
	if err := os.WriteFile(dumpFile, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := s.check(t, "--params-file", dumpFile)
	if code != 2 || !strings.Contains(out, `parameter 'team.auth_key': "<hidden>" stands for a key that ros2 param get and dump do not show`) {
		t.Errorf("node from the dump of a node with keys: exit %d\n%s", code, out)
	}
	if err := launch.interrupt(30 * time.Second); err != nil {
		t.Errorf("ros2 launch after SIGINT: %v (want exit 0)\n%s", err, tail(launch.out.String()))
	}
	outs = append(outs, launch.out.String())
	if !strings.Contains(launch.out.String(), "process has finished cleanly") || strings.Contains(launch.out.String(), "ending the launch") {
		t.Errorf("Ctrl-C: the node did not finish cleanly:\n%s", tail(launch.out.String()))
	}
	for _, out := range outs {
		for _, key := range []string{inlineTeamKey, inlineWIKey} {
			if strings.Contains(out, key) {
				t.Errorf("a key is readable:\n%s", out)
			}
		}
	}
}

// dumpLoadsBack starts robot 1 with its team key in a key file, dumps its parameters
// with ros2 param dump and starts a node from the dump alone: it has the same
// parameters (dnetwork node --check prints the same) and runs.
func (s *suite) dumpLoadsBack(t *testing.T, domain int) {
	keyFile := filepath.Join(s.tmp, "team.key")
	if err := os.WriteFile(keyFile, []byte(fileTeamKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	params := s.keyedParams(t, "keyfile.yaml", "      auth_key_file: "+keyFile, "      enabled: false")
	bin := filepath.Join(s.ws, "install", "dnetwork", "lib", "dnetwork", "dnetwork")
	env := s.domainEnv(domain)
	node := start(t, env, s.tmp, bin, "node", "--ros-args", "--params-file", params)
	node.waitOutput(t, "robot 1 of team 17", 60*time.Second)
	s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "String value is: "+keyFile) },
		"param", "get", "/dnetwork_1", "team.auth_key_file", "--no-daemon")
	dump := s.dump(t, domain, "/dnetwork_1")
	if strings.Contains(dump, fileTeamKey) || !strings.Contains(dump, "allow_from: []") {
		t.Errorf("dump:\n%s", dump)
	}
	if err := node.interrupt(20 * time.Second); err != nil {
		t.Fatalf("node after SIGINT: %v\n%s", err, tail(node.out.String()))
	}
	dumpFile := filepath.Join(s.tmp, "dump.yaml")
	if err := os.WriteFile(dumpFile, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	want, code := s.check(t, "--params-file", params)
	got, code2 := s.check(t, "--params-file", dumpFile)
	if code != 0 || code2 != 0 || got != want {
		t.Errorf("--check of the dump (exit %d):\n%s\nwant (exit %d):\n%s", code2, got, code, want)
	}
	again := start(t, env, s.tmp, bin, "node", "--ros-args", "--params-file", dumpFile)
	again.waitOutput(t, "authenticated=true", 60*time.Second)
	s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "Integer value is: 17") },
		"param", "get", "/dnetwork_1", "team_number", "--no-daemon")
	if err := again.interrupt(20 * time.Second); err != nil {
		t.Errorf("node from the dump after SIGINT: %v\n%s", err, tail(again.out.String()))
	}
}

// dump returns what ros2 param dump prints on stdout for node (Humble's deprecated
// --print and its warning left out).
func (s *suite) dump(t *testing.T, domain int, node string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, lookPath(s.env, "ros2"), "param", "dump", node, "--no-daemon")
		cmd.Env, cmd.Dir = s.domainEnv(domain), s.tmp
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err == nil && strings.Contains(string(out), "ros__parameters:") {
			return string(out)
		}
		if time.Now().After(deadline) {
			t.Fatalf("ros2 param dump %s: %v\n%s\n%s", node, err, out, stderr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// check runs the installed "dnetwork node --check --ros-args args..." and returns its
// output and exit code.
func (s *suite) check(t *testing.T, args ...string) (string, int) {
	t.Helper()
	bin := filepath.Join(s.ws, "install", "dnetwork", "lib", "dnetwork", "dnetwork")
	cmd := exec.Command(bin, append([]string{"node", "--check", "--ros-args"}, args...)...)
	cmd.Env, cmd.Dir = s.env, s.tmp
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}
