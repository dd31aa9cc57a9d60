package fastddspeer

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
)

//go:embed testdata/peer.cpp testdata/msgs.hpp
var sources embed.FS

// cacheDir holds built peers, one per version of the sources, compiler and library.
var cacheDir = filepath.Join(os.TempDir(), "dnetwork-fastdds-peer")

// build is Build's result for this process.
var build struct {
	once sync.Once
	bin  string
	skip string
	err  error
}

// Build returns the peer binary, compiling it with g++ against Debian's Fast DDS the
// first time (about 10 s; later test processes reuse the binary while sources,
// compiler and library are unchanged). It skips t, saying why, when g++ or Fast DDS
// (libfastrtps-dev, libfastcdr-dev) is missing, and fails it on any other build error.
func Build(t testing.TB) string {
	t.Helper()
	build.once.Do(func() { build.bin, build.skip, build.err = compile() })
	switch {
	case build.skip != "":
		t.Skip("Fast DDS peer: skipped: " + build.skip)
	case build.err != nil:
		t.Fatalf("Fast DDS peer: %v", build.err)
	}
	return build.bin
}

// compile builds the peer into cacheDir unless it is there; skip says why it cannot
// be built on this machine.
func compile() (bin, skip string, err error) {
	gpp, err := exec.LookPath("g++")
	if err != nil {
		return "", "needs g++ (Debian package g++)", nil
	}
	version, err := exec.Command(gpp, "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("g++ --version: %v", err)
	}
	h := sha256.New()
	h.Write(version)
	for _, name := range []string{"libfastrtps.so", "libfastcdr.so"} {
		lib, err := exec.Command(gpp, "-print-file-name="+name).Output()
		if err != nil {
			return "", "", fmt.Errorf("g++ -print-file-name: %v", err)
		}
		path := strings.TrimSpace(string(lib))
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", "needs Fast DDS (Debian packages libfastrtps-dev and libfastcdr-dev): " + name + " not found", nil
		}
		fi, err := os.Stat(real)
		if err != nil {
			return "", "", err
		}
		fmt.Fprintf(h, "%s %d %d\n", real, fi.Size(), fi.ModTime().UnixNano())
	}
	dir, err := os.MkdirTemp("", "dnetwork-fastdds-src-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"peer.cpp", "msgs.hpp"} {
		b, err := sources.ReadFile("testdata/" + name)
		if err != nil {
			return "", "", err
		}
		h.Write(b)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return "", "", err
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", "", err
	}
	bin = filepath.Join(cacheDir, "peer-"+hex.EncodeToString(h.Sum(nil))[:16])
	// Test processes of several packages may build at once: one builds, the others wait.
	lock, err := os.OpenFile(filepath.Join(cacheDir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(bin); err == nil {
		return bin, "", nil
	}
	tmp := bin + ".tmp"
	cmd := exec.Command(gpp, "-std=c++17", "-O1", "-Wall", "-o", tmp, filepath.Join(dir, "peer.cpp"), "-lfastrtps", "-lfastcdr")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "fastdds/") && strings.Contains(string(out), "No such file") ||
			strings.Contains(string(out), "fastcdr/") && strings.Contains(string(out), "No such file") {
			return "", "needs the Fast DDS headers (Debian packages libfastrtps-dev and libfastcdr-dev)", nil
		}
		return "", "", fmt.Errorf("g++: %v\n%s", err, out)
	}
	// Older builds of the peer go; this one takes their place.
	if old, _ := filepath.Glob(filepath.Join(cacheDir, "peer-*")); len(old) > 0 {
		for _, f := range old {
			if f != tmp {
				os.Remove(f)
			}
		}
	}
	return bin, "", os.Rename(tmp, bin)
}

// Peer is a running peer process: one DDS participant set up as rmw_fastrtps does,
// driven by commands on its stdin (see peer.cpp), reporting on its stdout.
type Peer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}

	mu    sync.Mutex
	lines []string
}

// Start runs the peer binary bin in domain with a discovery profile (peer.cpp: humble,
// humble-localhost, jazzy, jazzy-localhost, peers:<n>) and env added to the test's
// environment (e.g. FASTRTPS_DEFAULT_PROFILES_FILE=...), and waits for its READY line.
// The peer is stopped, by its PID, when the test ends.
func Start(t testing.TB, bin string, domain int, profile string, env ...string) *Peer {
	t.Helper()
	p := &Peer{cmd: exec.Command(bin, fmt.Sprint(domain), profile), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncbuf.Buffer{}
	p.cmd.Stderr = stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<16), 1<<22)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("Fast DDS peer (%s) output:\n%s\nstderr:\n%s", profile, strings.Join(p.Lines(""), "\n"), stderr.String())
		}
	})
	p.Wait(t, 10*time.Second, "the Fast DDS peer to start", func() error {
		if len(p.Lines("READY")) == 0 {
			return fmt.Errorf("no READY line")
		}
		return nil
	})
	return p
}

// Send writes one command line to the peer.
func (p *Peer) Send(t testing.TB, format string, args ...any) {
	t.Helper()
	if _, err := fmt.Fprintf(p.stdin, format+"\n", args...); err != nil {
		t.Fatalf("Fast DDS peer: %v", err)
	}
}

// Lines returns the output lines so far that start with prefix, in order.
func (p *Peer) Lines(prefix string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, l := range p.lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// Fields returns the fields after "<kind> <label>" of every line of that kind and
// label, e.g. Fields("DATA", "gcinfo") gives each decoded sample's canonical text.
func (p *Peer) Fields(kind, label string) []string {
	var out []string
	for _, l := range p.Lines(kind + " " + label + " ") {
		out = append(out, strings.TrimPrefix(l, kind+" "+label+" "))
	}
	return out
}

// Errors returns the peer's ERR lines.
func (p *Peer) Errors() []string { return p.Lines("ERR ") }

// Wait polls cond every 10 ms until it returns nil, failing t after timeout with cond's
// last error or at once when the peer reports an error.
func (p *Peer) Wait(t testing.TB, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if errs := p.Errors(); len(errs) > 0 {
			t.Fatalf("Fast DDS peer, waiting for %s: %q", what, errs)
		}
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stop asks the peer to quit and waits for it; after 5 s it kills the process by PID.
// Stopping twice is a no-op.
func (p *Peer) Stop() {
	_, _ = io.WriteString(p.stdin, "quit\n")
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	_ = p.cmd.Wait()
}

// Canonical returns the text the peer prints for a decoded message (peer.cpp): every
// field of m in order, nested messages flattened; integers in decimal, bools 0/1,
// floats as the hex of their bits, strings as hex ("-" when empty), fixed arrays as
// their elements, sequences as the count and the elements; each preceded by a space.
// m is a generated message (a struct or a pointer to one).
func Canonical(m any) string {
	var b strings.Builder
	canonical(&b, reflect.ValueOf(m))
	return b.String()
}

func canonical(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		canonical(b, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				canonical(b, v.Field(i))
			}
		}
	case reflect.Bool:
		if v.Bool() {
			b.WriteString(" 1")
		} else {
			b.WriteString(" 0")
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fmt.Fprintf(b, " %d", v.Uint())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprintf(b, " %d", v.Int())
	case reflect.Float32:
		fmt.Fprintf(b, " %08x", math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		fmt.Fprintf(b, " %016x", math.Float64bits(v.Float()))
	case reflect.String:
		if v.Len() == 0 {
			b.WriteString(" -")
		} else {
			b.WriteString(" " + hex.EncodeToString([]byte(v.String())))
		}
	case reflect.Array:
		for i := range v.Len() {
			canonical(b, v.Index(i))
		}
	case reflect.Slice:
		fmt.Fprintf(b, " %d", v.Len())
		for i := range v.Len() {
			canonical(b, v.Index(i))
		}
	default:
		panic("fastddspeer.Canonical: field of kind " + v.Kind().String())
	}
}
