package netnstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childEnv carries the namespace name into a re-executed test binary.
const childEnv = "NETNSTEST_NS"

// namePrefix starts every namespace name this package creates.
const namePrefix = "dnt"

var seq atomic.Uint64

// NS is one network namespace created for a test.
type NS struct {
	// Name is the namespace's name under /run/netns.
	Name string
}

// Require skips t unless the process runs as root, which creating namespaces needs, and
// fails it when the ip command (iproute2) is missing.
func Require(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("netnstest: skipped: creating network namespaces needs root (run the tests as root)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Fatalf("netnstest: the ip command (iproute2) is needed: %v", err)
	}
}

// New creates a namespace with its loopback interface up (and multicast-capable) and
// deletes it when the test ends.
func New(t testing.TB, suffix string) *NS {
	t.Helper()
	Require(t)
	sweep()
	n := &NS{Name: fmt.Sprintf("%s%d-%d-%s", namePrefix, os.Getpid(), seq.Add(1), suffix)}
	if out, err := exec.Command("ip", "netns", "add", n.Name).CombinedOutput(); err != nil {
		t.Fatalf("netnstest: ip netns add %s: %v\n%s", n.Name, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", n.Name).CombinedOutput(); err != nil {
			t.Errorf("netnstest: ip netns del %s: %v\n%s", n.Name, err, out)
		}
	})
	n.IP(t, "link", "set", "lo", "multicast", "on", "up")
	return n
}

// stale matches names of namespaces this package creates, capturing the creator's pid.
var stale = regexp.MustCompile(`^` + namePrefix + `(\d+)-\d+-`)

// sweep deletes namespaces left behind by test processes that no longer exist.
func sweep() {
	ents, err := os.ReadDir("/run/netns")
	if err != nil {
		return
	}
	for _, e := range ents {
		m := stale.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(filepath.Join("/proc", m[1])); os.IsNotExist(err) {
			_ = exec.Command("ip", "netns", "del", e.Name()).Run()
		}
	}
}

// IP runs "ip -n <namespace> args..." and fails t on error.
func (n *NS) IP(t testing.TB, args ...string) {
	t.Helper()
	if err := n.Try(args...); err != nil {
		t.Fatal(err)
	}
}

// Try runs "ip -n <namespace> args..." and returns its error with ip's output.
func (n *NS) Try(args ...string) error {
	full := append([]string{"-n", n.Name}, args...)
	if out, err := exec.Command("ip", full...).CombinedOutput(); err != nil {
		return fmt.Errorf("netnstest: ip %s: %v\n%s", strings.Join(full, " "), err, out)
	}
	return nil
}

// Veth creates a veth pair with end aName in namespace a and end bName in namespace b,
// assigns the addresses (CIDR notation; "" for none) and brings both ends up.
func Veth(t testing.TB, a *NS, aName, aAddr string, b *NS, bName, bAddr string) {
	t.Helper()
	a.IP(t, "link", "add", aName, "type", "veth", "peer", "name", bName, "netns", b.Name)
	for _, end := range []struct {
		ns         *NS
		name, addr string
	}{{a, aName, aAddr}, {b, bName, bAddr}} {
		if end.addr != "" {
			end.ns.IP(t, "addr", "add", end.addr, "dev", end.name)
		}
		end.ns.IP(t, "link", "set", end.name, "up")
	}
	a.WaitOperUp(t, aName)
	b.WaitOperUp(t, bName)
}

// Macvlan gives namespace n an interface name with address addr (CIDR notation) that
// the kernel reports as a macvlan, like the interface a container engine's macvlan
// network gives, and unlike the veth of a bridge network: a macvlan on a veth whose
// other end is in namespace lan (the test kernels have no dummy driver). It waits
// until the interface is operationally up.
func (n *NS) Macvlan(t testing.TB, name, addr string, lan *NS) {
	t.Helper()
	uplink := fmt.Sprintf("mvl%d", seq.Add(1))
	Veth(t, n, uplink, "", lan, uplink, "")
	n.IP(t, "link", "add", name, "link", uplink, "type", "macvlan", "mode", "bridge")
	n.IP(t, "addr", "add", addr, "dev", name)
	n.IP(t, "link", "set", name, "up")
	n.WaitOperUp(t, name)
}

// Bridge creates bridge name in the namespace with multicast snooping off (so multicast
// is flooded like broadcast), enslaves the given interfaces and brings everything up:
// a hub joining the veth pairs of several namespaces into one Ethernet segment.
func (n *NS) Bridge(t testing.TB, name string, ports ...string) {
	t.Helper()
	n.IP(t, "link", "add", name, "type", "bridge", "mcast_snooping", "0")
	for _, p := range ports {
		n.IP(t, "link", "set", p, "master", name)
	}
	n.IP(t, "link", "set", name, "up")
	n.WaitOperUp(t, name)
}

// WaitOperUp waits until interface name is operationally up. The kernel activates an
// interface's queueing discipline only then (up to a second after "link set up"), and
// until then it silently drops every packet sent through it, so tests that send right
// away must wait.
func (n *NS) WaitOperUp(t testing.TB, name string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, err := exec.Command("ip", "-n", n.Name, "-o", "link", "show", "dev", name).CombinedOutput()
		if err == nil && strings.Contains(string(out), " state UP ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("netnstest: %s in %s not operationally up after 5s: %s %v", name, n.Name, out, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Do runs fn on a new goroutine locked to an OS thread inside the namespace and returns
// fn's error. The thread is never returned to the scheduler: it exits with the
// goroutine, so no other goroutine ever runs in the namespace by accident.
func (n *NS) Do(fn func() error) error {
	return n.Go(fn)()
}

// Go starts fn like Do and returns a function that waits for fn and returns its error.
func (n *NS) Go(fn func() error) (wait func() error) {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // deliberately never unlocked, see Do
		if err := n.enter(); err != nil {
			errc <- err
			return
		}
		errc <- fn()
	}()
	return sync.OnceValue(func() error { return <-errc })
}

// enter moves the calling thread into the namespace.
func (n *NS) enter() error {
	f, err := os.Open(filepath.Join("/run/netns", n.Name))
	if err != nil {
		return fmt.Errorf("netnstest: open namespace: %w", err)
	}
	defer f.Close()
	if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("netnstest: setns %s: %w", n.Name, err)
	}
	return nil
}

// Exec re-runs the test binary inside the namespace, running only the test function
// named test (use t.Name() of a top-level test), with env added to the environment.
// The child sees [Child] report the namespace. Exec fails t when the child fails and
// returns the child's output.
func (n *NS) Exec(t testing.TB, test string, env ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("netnstest: %v", err)
	}
	cmd := exec.Command("ip", "netns", "exec", n.Name, exe,
		"-test.run", "^"+regexp.QuoteMeta(test)+"$", "-test.count", "1", "-test.v")
	cmd.Env = append(append(os.Environ(), childEnv+"="+n.Name), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("netnstest: %s inside %s failed: %v\n%s", test, n.Name, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("netnstest: %s inside %s did not pass:\n%s", test, n.Name, out)
	}
	return string(out)
}

// Child returns the namespace name and true when the process is a test binary that
// [NS.Exec] started inside a namespace.
func Child() (string, bool) {
	v := os.Getenv(childEnv)
	return v, v != ""
}
