package realros

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmePython returns the README's rclpy example: its one ```python block.
func readmePython(t *testing.T, root string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(raw), "\n```python\n")
	if len(blocks) != 2 {
		t.Fatalf("README.md has %d ```python blocks, want 1", len(blocks)-1)
	}
	code, _, ok := strings.Cut(blocks[1], "\n```\n")
	if !ok {
		t.Fatal("README.md's ```python block has no end")
	}
	return code + "\n"
}

// readmeRclpy runs the README's rclpy example as written until it publishes, then
// stops it: with SIGINT as a terminal's Ctrl-C sends it, with SIGINT after a start with
// SIGINT ignored (as a script's "python3 inputs.py &" starts it: Python then raises no
// KeyboardInterrupt) and with SIGTERM (systemd, docker stop). It must exit 0 without a
// traceback each time. In the last two rclpy's signal handler shuts the context down
// and spin raises ExternalShutdownException.
func (s *suite) readmeRclpy(t *testing.T, env []string, domain int) {
	script := filepath.Join(s.tmp, "readme_inputs.py")
	if err := os.WriteFile(script, []byte(readmePython(t, s.root)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		argv []string
	}{
		{"Ctrl-C", syscall.SIGINT, []string{"/usr/bin/python3", script}},
		{"SIGINT ignored at start", syscall.SIGINT, []string{"/bin/bash", "-c", `trap "" INT; exec /usr/bin/python3 "$0"`, script}},
		{"SIGTERM", syscall.SIGTERM, []string{"/usr/bin/python3", script}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, env, s.tmp, tc.argv[0], tc.argv[1:]...)
			if out, err := s.ros2(domain, 60*time.Second, "topic", "echo", "--once", "/dmotion_3/MotionInfo", "dmsgs/msg/MotionInfo"); err != nil || !strings.Contains(out, "stable: true") {
				t.Fatalf("no MotionInfo from the README's example (%v):\n%s\nexample:\n%s", err, tail(out), tail(p.out.String()))
			}
			_ = syscall.Kill(-p.cmd.Process.Pid, tc.sig)
			select {
			case <-p.done:
			case <-time.After(20 * time.Second):
				t.Fatalf("README's rclpy example still running 20 s after %v", tc.sig)
			}
			if out := p.out.String(); p.err != nil || strings.Contains(out, "Traceback") {
				t.Errorf("README's rclpy example after %v: %v, want exit 0 without a traceback:\n%s", tc.sig, p.err, tail(out))
			}
		})
	}
}
