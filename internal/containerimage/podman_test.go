package containerimage

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// podman runs podman with the test's own storage and the flags this machine needs.
type podman struct {
	global []string // before the command: storage, cgroup manager, events, runtime
	limits []string // for run and build: resource limits the runtime can set here
}

// newPodman sets up podman on storage under store: overlay where the kernel allows it,
// else vfs (each in its own directory: a storage keeps its driver).
func newPodman(t *testing.T, store string) *podman {
	t.Helper()
	for _, driver := range []string{"overlay", "vfs"} {
		p := &podman{global: []string{
			"--root", filepath.Join(store, "storage-"+driver),
			"--runroot", filepath.Join("/run", "dnetwork-imagetest-"+driver),
			"--storage-driver", driver,
			// No systemd session or journal is needed (CI runs as root without one).
			"--cgroup-manager", "cgroupfs",
			"--events-backend", "file",
		}}
		if out, err := p.try(2*time.Minute, nil, "info"); err != nil {
			t.Logf("podman with the %s storage driver: %v\n%s", driver, err, tail(out))
			continue
		}
		t.Logf("podman storage: %s driver in %s", driver, store)
		return p
	}
	t.Fatal("podman works with neither the overlay nor the vfs storage driver")
	return nil
}

// adapt finds the runtime flags under which a container starts on this machine, by
// running image: podman's defaults first; then resource limits no higher than the
// test's own (podman's default nofile and nproc limits need CAP_SYS_RESOURCE, which a
// sandbox may lack); then runc in place of crun (crun refuses hybrid cgroup setups).
func (p *podman) adapt(t *testing.T, image string) {
	t.Helper()
	var nofile, nproc unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &nofile); err != nil {
		t.Fatal(err)
	}
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &nproc); err != nil {
		t.Fatal(err)
	}
	// podman itself lowers its RLIMIT_NPROC to 32768 when it cannot raise it.
	np := min(nproc.Max, 32768)
	limits := []string{
		"--ulimit", fmt.Sprintf("nofile=%d:%d", nofile.Max, nofile.Max),
		"--ulimit", fmt.Sprintf("nproc=%d:%d", np, np),
	}
	base := p.global
	var errs []string
	for _, v := range []struct {
		name           string
		global, limits []string
	}{
		{"podman's defaults", nil, nil},
		{"the test's resource limits", nil, limits},
		{"runc and the test's resource limits", []string{"--runtime", "runc"}, limits},
	} {
		if v.global != nil {
			if _, err := exec.LookPath("runc"); err != nil {
				errs = append(errs, "runc: not installed")
				continue
			}
		}
		p.global, p.limits = append(append([]string(nil), base...), v.global...), v.limits
		out, err := p.try(time.Minute, nil, append(append([]string{"run", "--rm", "--network=none"}, p.limits...), image, "true")...)
		if err == nil {
			t.Logf("containers start with %s", v.name)
			return
		}
		errs = append(errs, fmt.Sprintf("%s: %v: %s", v.name, err, strings.TrimSpace(tail(out))))
	}
	t.Fatalf("no container starts here:\n%s", strings.Join(errs, "\n"))
}

// try runs podman with args and returns its combined output; stdin, when not nil,
// feeds it.
func (p *podman) try(timeout time.Duration, stdin io.Reader, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "podman", append(append([]string(nil), p.global...), args...)...)
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (timeout %v)", err, timeout)
	}
	return out.String(), err
}

// run runs podman and fails t on error.
func (p *podman) run(t *testing.T, timeout time.Duration, args ...string) string {
	t.Helper()
	out, err := p.try(timeout, nil, args...)
	if err != nil {
		t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, tail(out))
	}
	return out
}

// inspect returns the Go template format applied to image or container name.
func (p *podman) inspect(t *testing.T, name, format string) string {
	t.Helper()
	return strings.TrimSpace(p.run(t, time.Minute, "inspect", "--format", format, name))
}

// label returns the value of an image's label, "" when the image or the label is
// missing.
func (p *podman) label(image, key string) string {
	out, err := p.try(time.Minute, nil, "image", "inspect", "--format", "{{index .Labels \""+key+"\"}}", image)
	if err != nil {
		return ""
	}
	v := strings.TrimSpace(out)
	if v == "<no value>" {
		return ""
	}
	return v
}

// container is a detached container started by the test; it is removed when the test
// ends.
type container struct {
	p    *podman
	name string
}

var containerSeq int

// start runs a detached container with args (flags, image, command) and returns it.
func (p *podman) start(t *testing.T, args ...string) *container {
	t.Helper()
	containerSeq++
	c := &container{p: p, name: "dnetwork-imagetest-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(containerSeq)}
	t.Cleanup(func() { _, _ = p.try(time.Minute, nil, "rm", "-f", "-t", "0", c.name) })
	p.run(t, time.Minute, append(append([]string{"run", "-d", "--name", c.name}, p.limits...), args...)...)
	return c
}

// logs returns the container's output so far.
func (c *container) logs(t *testing.T) string {
	t.Helper()
	return c.p.run(t, time.Minute, "logs", c.name)
}

// waitLog waits until the container's output holds want and returns the output.
func (c *container) waitLog(t *testing.T, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out := c.logs(t)
		if strings.Contains(out, want) {
			return out
		}
		if time.Now().After(deadline) {
			state := c.p.inspect(t, c.name, "{{.State.Status}} exit {{.State.ExitCode}}")
			t.Fatalf("container %s (%s) did not print %q within %v:\n%s", c.name, state, want, timeout, tail(out))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// stop runs "podman stop" with a grace period and returns the exit code, how long the
// stop took and the output.
func (c *container) stop(t *testing.T, grace time.Duration) (code int, took time.Duration, out string) {
	t.Helper()
	start := time.Now()
	c.p.run(t, grace+time.Minute, "stop", "-t", strconv.Itoa(int(grace.Seconds())), c.name)
	took = time.Since(start)
	code, err := strconv.Atoi(c.p.inspect(t, c.name, "{{.State.ExitCode}}"))
	if err != nil {
		t.Fatal(err)
	}
	return code, took, c.logs(t)
}

func tail(s string) string {
	if len(s) > 6000 {
		return "..." + s[len(s)-6000:]
	}
	return s
}
