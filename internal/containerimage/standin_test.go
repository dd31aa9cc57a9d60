package containerimage

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// standInRecipe changes whenever the way the stand-ins are made changes, so that stored
// ones are made again.
const standInRecipe = "1"

// repo is the name space of every image the test makes.
const repo = "localhost/dnetwork-imagetest"

// keyLabel holds, on each stand-in, the hash of what it was made from.
const keyLabel = "dnetwork.imagetest.key"

// standIns makes the stand-ins of the Dockerfile's base images, or finds them made.
type standIns struct {
	p      *podman
	store  string // work directory for rootfs and archives
	shared string // ../shared/ros
	all    []string
}

// aptLists returns the packages of the named lists (runtime-apt, buildtime-apt, ...) of
// every distro, sorted and without duplicates; extra joins them.
func (s *standIns) aptLists(t *testing.T, kinds []string, extra ...string) []string {
	t.Helper()
	pkgs := append([]string(nil), extra...)
	for _, d := range s.all {
		for _, k := range kinds {
			f, err := os.Open(filepath.Join(s.shared, k+"-"+d+".txt"))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if p := strings.TrimSpace(sc.Text()); p != "" && !strings.HasPrefix(p, "#") {
					pkgs = append(pkgs, p)
				}
			}
			f.Close()
		}
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

// hostRelease returns the host's Debian release (VERSION_CODENAME) and the mirror of
// its apt sources, or skips t on a host that is not Debian.
func hostRelease(t *testing.T) (suite, mirror string) {
	t.Helper()
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		t.Skipf("no /etc/os-release: %v", err)
	}
	var id string
	for line := range strings.Lines(string(b)) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		v = strings.Trim(v, `"`)
		switch k {
		case "ID":
			id = v
		case "VERSION_CODENAME":
			suite = v
		}
	}
	if id != "debian" || suite == "" {
		t.Skipf("the stand-in base images are made of Debian packages; this host is %q %q", id, suite)
	}
	mirror = "http://deb.debian.org/debian"
	if srcs := hostSources(t, suite); len(srcs) > 0 {
		mirror = sourceMirror(srcs[0].content, suite)
	}
	return suite, mirror
}

type sourceFile struct{ path, content string }

// hostSources returns the host's apt source files that name the release suite (a
// third-party repository, with its own suites and keys, would not work in the rootfs).
func hostSources(t *testing.T, suite string) []sourceFile {
	t.Helper()
	files := []string{"/etc/apt/sources.list"}
	for _, pat := range []string{"*.list", "*.sources"} {
		m, _ := filepath.Glob(filepath.Join("/etc/apt/sources.list.d", pat))
		files = append(files, m...)
	}
	var out []sourceFile
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && sourceMirror(string(b), suite) != "" {
			out = append(out, sourceFile{f, string(b)})
		}
	}
	return out
}

// sourceMirror returns the URI of the first source for suite in an apt source file,
// one-line ("deb [options] uri suite components") or deb822 ("URIs:", "Suites:").
func sourceMirror(content, suite string) string {
	var uris string
	for line := range strings.Lines(content + "\n\n") {
		line = strings.TrimSpace(line)
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "deb":
			f = f[1:]
			if strings.HasPrefix(f[0], "[") {
				for len(f) > 0 && !strings.HasSuffix(f[0], "]") {
					f = f[1:]
				}
				f = f[1:]
			}
			if len(f) >= 2 && f[1] == suite {
				return f[0]
			}
		case len(f) >= 2 && f[0] == "URIs:":
			uris = f[1]
		case len(f) >= 2 && f[0] == "Suites:":
			if uris != "" && slices.Contains(f[1:], suite) {
				return uris
			}
		case line == "":
			uris = ""
		}
	}
	return ""
}

// hash returns a short hex digest of parts.
func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fileHash returns the SHA-256 of a file.
func fileHash(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sh runs a command and fails t with its output on error.
func sh(t *testing.T, timeout time.Duration, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(string(out)))
	}
}

// debian returns the Debian stand-ins: core (the host's release with the ROS builds'
// runtime packages) and base (core with their build packages as one more layer). They
// are made when missing or made from other inputs.
func (s *standIns) debian(t *testing.T) (core, base string) {
	t.Helper()
	core, base = repo+"/debian:core", repo+"/debian:base"
	suite, mirror := hostRelease(t)
	runtime := s.aptLists(t, []string{"runtime-apt"})
	build := s.aptLists(t, []string{"buildtime-apt", "buildtime-apt-cpp-extra"},
		// cgo's compiler and pkg-config, and colcon's --packages-up-to.
		"gcc", "libc6-dev", "pkg-config", "python3-colcon-package-selection")
	var sources []string
	for _, src := range hostSources(t, suite) {
		sources = append(sources, src.path, src.content)
	}
	key := hash(append([]string{standInRecipe, suite, mirror, strings.Join(runtime, " "), strings.Join(build, " ")}, sources...)...)
	if s.p.label(core, keyLabel) == key && s.p.label(base, keyLabel) == key {
		return core, base
	}

	start := time.Now()
	root := filepath.Join(s.store, "rootfs")
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	sh(t, 15*time.Minute, "debootstrap", "--variant=minbase", suite, root, mirror)
	t.Logf("debian stand-in: debootstrap %s from %s: %v", suite, mirror, time.Since(start).Round(time.Second))
	// The host's apt sources (updates, security), so that the packages are the very
	// versions the ROS builds were made against.
	if err := os.Remove(filepath.Join(root, "etc/apt/sources.list")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, src := range hostSources(t, suite) {
		if err := os.WriteFile(filepath.Join(root, src.path), []byte(src.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	step := time.Now()
	sh(t, 15*time.Minute, "chroot", root, "apt-get", "update", "-qq")
	sh(t, 15*time.Minute, "chroot", append([]string{root, "apt-get", "install", "-y", "-qq", "--no-install-recommends"}, runtime...)...)
	t.Logf("debian stand-in: runtime packages: %v", time.Since(step).Round(time.Second))

	step = time.Now()
	excludes := []string{"--exclude=./var/lib/apt/lists/*", "--exclude=./var/cache/apt/*", "--exclude=./proc/*", "--exclude=./sys/*"}
	s.importTar(t, exec.Command("tar", append(append([]string{"-C", root}, excludes...), "-c", ".")...), core,
		"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "ENV LANG=C.UTF-8", "LABEL "+keyLabel+"="+key)
	t.Logf("debian stand-in: %s imported: %v", core, time.Since(step).Round(time.Second))

	// The build packages become one layer over core: the files they added or changed
	// (ctime after the stamp; dpkg keeps the packages' mtimes).
	step = time.Now()
	stamp := filepath.Join(s.store, "stamp")
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	sh(t, 15*time.Minute, "chroot", append([]string{root, "apt-get", "install", "-y", "-qq", "--no-install-recommends"}, build...)...)
	t.Logf("debian stand-in: build packages: %v", time.Since(step).Round(time.Second))
	step = time.Now()
	ctx := filepath.Join(s.store, "base-context")
	if err := os.RemoveAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ctx, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(ctx)
	sh(t, 10*time.Minute, "sh", "-c", `cd "$1" && find . \( -path ./var/lib/apt/lists -o -path ./var/cache/apt -o -path ./proc -o -path ./sys \) -prune -o -cnewer "$2" -print0 | tar --null --no-recursion -T - -cf "$3"`,
		"sh", root, stamp, filepath.Join(ctx, "layer.tar"))
	s.build(t, ctx, fmt.Sprintf("FROM %s\nADD layer.tar /\nLABEL %s=%s\n", core, keyLabel, key), base)
	t.Logf("debian stand-in: %s built: %v (all: %v)", base, time.Since(step).Round(time.Second), time.Since(start).Round(time.Second))
	return core, base
}

// ros returns the stand-ins of ros:<distro>-ros-core and -ros-base: core and base with
// /opt/ros/<distro> from the distro's install tarball, and the environment the real
// images set.
func (s *standIns) ros(t *testing.T, distro, core, base string) {
	t.Helper()
	tarball := "ros-" + distro + "-install.tar.gz"
	sum := fileHash(t, filepath.Join(s.shared, tarball))
	for _, img := range []struct{ name, from string }{
		{repo + "/ros:" + distro + "-ros-core", core},
		{repo + "/ros:" + distro + "-ros-base", base},
	} {
		key := hash(standInRecipe, distro, sum, s.p.label(img.from, keyLabel))
		if s.p.label(img.name, keyLabel) == key {
			continue
		}
		start := time.Now()
		s.build(t, s.shared, fmt.Sprintf("FROM %s\nADD %s /opt/ros/\nENV ROS_DISTRO=%s LANG=C.UTF-8 LC_ALL=C.UTF-8\nLABEL %s=%s\n",
			img.from, tarball, distro, keyLabel, key), img.name)
		t.Logf("%s built: %v", img.name, time.Since(start).Round(time.Second))
	}
}

// golang returns the stand-in of golang:<version>: the Go toolchain this test runs
// with, at /usr/local/go.
func (s *standIns) golang(t *testing.T, goroot, goversion string) string {
	t.Helper()
	name := repo + "/golang:" + goMinor(goversion)
	key := hash(standInRecipe, goroot, goversion)
	if s.p.label(name, keyLabel) == key {
		return name
	}
	start := time.Now()
	s.importTar(t, exec.Command("tar", "-C", goroot, "--transform", `s,^\.,usr/local/go,`, "-c", "."), name,
		"ENV PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LABEL "+keyLabel+"="+key)
	t.Logf("%s imported from %s: %v", name, goroot, time.Since(start).Round(time.Second))
	return name
}

// goMinor turns "go1.26.8" into "1.26".
func goMinor(v string) string {
	v = strings.TrimPrefix(v, "go")
	if major, rest, ok := strings.Cut(v, "."); ok {
		minor, _, _ := strings.Cut(rest, ".")
		return major + "." + minor
	}
	return v
}

// importTar makes image name from the archive tarCmd writes to its standard output,
// with the given configuration changes.
func (s *standIns) importTar(t *testing.T, tarCmd *exec.Cmd, name string, changes ...string) {
	t.Helper()
	r, err := tarCmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var tarErr strings.Builder
	tarCmd.Stderr = &tarErr
	if err := tarCmd.Start(); err != nil {
		t.Fatal(err)
	}
	args := []string{"import"}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	out, err := s.p.try(15*time.Minute, r, append(args, "-", name)...)
	werr := tarCmd.Wait()
	if err != nil || werr != nil {
		t.Fatalf("podman import %s: %v; tar: %v %s\n%s", name, err, werr, tarErr.String(), tail(out))
	}
}

// build runs a podman build of the Containerfile text in context dir and tags the
// result name. The Containerfile has no RUN step: no container runtime is involved.
func (s *standIns) build(t *testing.T, dir, containerfile, name string) {
	t.Helper()
	f := filepath.Join(s.store, "Containerfile."+strings.NewReplacer("/", "_", ":", "_").Replace(name))
	if err := os.WriteFile(f, []byte(containerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f)
	s.p.run(t, 15*time.Minute, "build", "--pull=never", "--layers=false", "-f", f, "-t", name, dir)
}
