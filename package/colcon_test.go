package packaging_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// colconPackage is one line of "colcon list": name, path and type.
type colconPackage struct {
	Name, Path, Type string
}

// repoRoot returns the repository root: the parent of this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root %s has no go.mod: %v", root, err)
	}
	return root
}

// needTools skips the test unless every named program is on PATH.
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("%s not installed (Debian: apt-get install colcon python3-colcon-ros "+
				"python3-colcon-cmake python3-colcon-recursive-crawl "+
				"python3-colcon-package-information cmake patchelf pkg-config)", n)
		}
	}
}

// workspace makes a colcon workspace whose src/dnetwork is a symbolic link to the
// repository, as after cloning the repository into src/.
func workspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(repoRoot(t), filepath.Join(ws, "src", "dnetwork")); err != nil {
		t.Fatal(err)
	}
	return ws
}

// run runs a command in dir with env added to a clean environment and returns its
// standard output; on failure the test fails with the command's output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, errOut, err := runErr(t, dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, errOut)
	}
	return out
}

func runErr(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(baseEnv(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// baseEnv is the environment for colcon and CMake: the caller's, without anything a
// sourced ROS installation or a user's colcon configuration would add, so that the test
// sees only the prefixes it builds itself.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "CMAKE_PREFIX_PATH", k == "AMENT_PREFIX_PATH", k == "COLCON_PREFIX_PATH",
			k == "PKG_CONFIG_PATH", k == "CGO_CFLAGS", k == "CGO_LDFLAGS", k == "GOFLAGS",
			k == "LD_LIBRARY_PATH", strings.HasPrefix(k, "COLCON_"), strings.HasPrefix(k, "ROS_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}

// colcon runs colcon in the workspace ws with its own, empty colcon configuration.
func colcon(t *testing.T, ws string, env []string, args ...string) string {
	t.Helper()
	return run(t, ws, append(env, "COLCON_HOME="+filepath.Join(ws, ".colcon-home")), "colcon", args...)
}

// colconList parses "colcon list" output.
func colconList(t *testing.T, ws string, args ...string) []colconPackage {
	t.Helper()
	out := colcon(t, ws, nil, append([]string{"list"}, args...)...)
	var pkgs []colconPackage
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("colcon list: unexpected line %q", line)
		}
		pkgs = append(pkgs, colconPackage{Name: f[0], Path: f[1], Type: strings.Trim(f[2], "()")})
	}
	return pkgs
}

func find(pkgs []colconPackage, name string) (colconPackage, bool) {
	i := slices.IndexFunc(pkgs, func(p colconPackage) bool { return p.Name == name })
	if i < 0 {
		return colconPackage{}, false
	}
	return pkgs[i], true
}

// TestColconFindsBothPackages checks that cloning the repository into a workspace's
// src/ lets colcon find dmsgs and dnetwork as ament_cmake packages.
func TestColconFindsBothPackages(t *testing.T) {
	needTools(t, "colcon")
	ws := workspace(t)
	pkgs := colconList(t, ws, "--base-paths", "src")
	want := []colconPackage{
		{Name: "dmsgs", Path: "src/dnetwork/msgs", Type: "ros.ament_cmake"},
		{Name: "dnetwork", Path: "src/dnetwork/package", Type: "ros.ament_cmake"},
	}
	for _, w := range want {
		got, ok := find(pkgs, w.Name)
		if !ok {
			t.Errorf("colcon list does not show %s; it shows %v", w.Name, pkgs)
			continue
		}
		if got != w {
			t.Errorf("colcon list: got %+v, want %+v", got, w)
		}
	}
}

// TestColconSeesNoStrayPackages checks that colcon finds nothing else in the
// repository: any other package.xml, CMakeLists.txt or setup.py outside a COLCON_IGNORE
// directory becomes a package that colcon build tries to build, and one named after a
// ROS package would also shadow the installed one in the overlay.
func TestColconSeesNoStrayPackages(t *testing.T) {
	needTools(t, "colcon")
	ws := workspace(t)
	for _, p := range colconList(t, ws, "--base-paths", "src") {
		if p.Name == "dmsgs" || p.Name == "dnetwork" {
			continue
		}
		t.Errorf("colcon finds an extra package %s (%s) at %s: colcon build would build it; "+
			"put an empty COLCON_IGNORE file in that directory or a parent",
			p.Name, p.Type, p.Path)
	}
}

// TestColconDependencies checks the dependency declarations colcon reads from the two
// manifests: dnetwork is built after dmsgs and needs it at run time.
func TestColconDependencies(t *testing.T) {
	needTools(t, "colcon")
	ws := workspace(t)
	paths := []string{"--paths", "src/dnetwork/msgs", "src/dnetwork/package"}

	info := colcon(t, ws, nil, append([]string{"info"}, append(paths, "dnetwork")...)...)
	deps := map[string][]string{}
	for line := range strings.Lines(info) {
		line = strings.TrimSpace(line)
		for _, kind := range []string{"build", "run", "test"} {
			if rest, ok := strings.CutPrefix(line, kind+":"); ok {
				deps[kind] = strings.Fields(rest)
			}
		}
	}
	for kind, names := range map[string][]string{
		"build": {"ament_cmake", "dmsgs", "cyclonedds"},
		"run":   {"dmsgs", "cyclonedds", "launch", "launch_ros", "rmw_cyclonedds_cpp", "diagnostic_msgs"},
	} {
		for _, n := range names {
			if !slices.Contains(deps[kind], n) {
				t.Errorf("colcon info dnetwork: %s dependencies %v lack %s", kind, deps[kind], n)
			}
		}
	}
	for _, kind := range []string{"build", "run"} {
		for _, n := range []string{"rclpy", "rclcpp", "diagnostic_aggregator"} {
			if slices.Contains(deps[kind], n) {
				t.Errorf("colcon info dnetwork: %s dependencies %v include %s", kind, deps[kind], n)
			}
		}
	}

	order := colconList(t, ws, append([]string{"--topological-order"}, paths...)...)
	names := make([]string, len(order))
	for i, p := range order {
		names[i] = p.Name
	}
	if !slices.Equal(names, []string{"dmsgs", "dnetwork"}) {
		t.Errorf("colcon list --topological-order = %v, want [dmsgs dnetwork]", names)
	}

	// In "colcon graph --dot" an edge's colour names its kinds: blue build, red run.
	dot := colcon(t, ws, nil, append([]string{"graph", "--dot"}, paths...)...)
	edge := `"dnetwork" -> "dmsgs" [color="#0000ff:#ff0000"]`
	if !strings.Contains(dot, edge) {
		t.Errorf("colcon graph --dot lacks the build and run edge %s:\n%s", edge, dot)
	}
}

// TestRootManifestHidesMsgs shows why the node's manifest is in package/: with a
// package manifest (or any CMakeLists.txt) at the repository root, colcon identifies the
// root as the package and does not look further down, so dmsgs disappears.
func TestRootManifestHidesMsgs(t *testing.T) {
	needTools(t, "colcon")
	root := repoRoot(t)
	manifest, err := os.ReadFile(filepath.Join(root, "package", "package.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, content string
		want          colconPackage
	}{
		{"package.xml", string(manifest), colconPackage{Name: "dnetwork", Path: "src/dnetwork", Type: "ros.ament_cmake"}},
		{"CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(dnetwork NONE)\n", colconPackage{Name: "dnetwork", Path: "src/dnetwork", Type: "cmake"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			// A copy of the repository's shape: msgs/ and package/ as they are, plus a
			// file at the root.
			ws := t.TempDir()
			repo := filepath.Join(ws, "src", "dnetwork")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{"msgs", "package"} {
				if err := os.Symlink(filepath.Join(root, d), filepath.Join(repo, d)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(repo, tc.file), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got := colconList(t, ws, "--base-paths", "src")
			if !slices.Equal(got, []colconPackage{tc.want}) {
				t.Errorf("with a root %s colcon list = %v, want only %v", tc.file, got, tc.want)
			}
		})
	}
}

// manifestVersion reads <version> from package/package.xml.
func manifestVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "package", "package.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name    string `xml:"name"`
		Version string `xml:"version"`
	}
	if err := xml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "dnetwork" || m.Version == "" {
		t.Fatalf("package/package.xml: name %q version %q", m.Name, m.Version)
	}
	return m.Version
}

// multiarch returns the C compiler's multiarch tuple, e.g. x86_64-linux-gnu.
func multiarch(t *testing.T) string {
	t.Helper()
	m := strings.TrimSpace(run(t, ".", nil, "gcc", "-print-multiarch"))
	if m == "" {
		t.Skip("gcc reports no multiarch tuple")
	}
	return m
}

// amentStandIn writes a CMake prefix with an ament_cmake package whose ament_package()
// installs package.xml and the ament index marker, the two files of the real one that
// ros2 run needs to find the package.
func amentStandIn(t *testing.T) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "ament")
	dir := filepath.Join(prefix, "share", "ament_cmake", "cmake")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const config = `macro(ament_package)
  install(FILES "${CMAKE_CURRENT_SOURCE_DIR}/package.xml" DESTINATION share/${PROJECT_NAME})
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/ament_index_marker" "")
  install(FILES "${CMAKE_CURRENT_BINARY_DIR}/ament_index_marker"
    DESTINATION share/ament_index/resource_index/packages RENAME ${PROJECT_NAME})
endmacro()
`
	if err := os.WriteFile(filepath.Join(dir, "ament_cmakeConfig.cmake"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return prefix
}

// rosCyclone lays out a Cyclone DDS prefix the way /opt/ros/<distro> has it: the
// system's libddsc copied with ROS's SONAME libddsc.so.0 into libDir (ROS uses
// lib/<multiarch>, e.g. lib/x86_64-linux-gnu), headers under include/, a CMake package in
// libDir/cmake/CycloneDDS and, if withPC, libDir/pkgconfig/CycloneDDS.pc. It returns the
// prefix and the absolute library directory.
func rosCyclone(t *testing.T, libDir string, withPC bool) (prefix, libPath string) {
	t.Helper()
	sysLibDir := strings.TrimSpace(run(t, ".", nil, "pkg-config", "--variable=libdir", "CycloneDDS"))
	sysInclude := strings.TrimSpace(run(t, ".", nil, "pkg-config", "--variable=includedir", "CycloneDDS"))
	lib, err := filepath.EvalSymlinks(filepath.Join(sysLibDir, "libddsc.so"))
	if err != nil {
		t.Fatalf("system libddsc: %v", err)
	}
	prefix = filepath.Join(t.TempDir(), "opt", "ros", "testdistro")
	libPath = filepath.Join(prefix, libDir)
	for _, d := range []string{filepath.Join(libDir, "cmake", "CycloneDDS"), filepath.Join(libDir, "pkgconfig"), "include"} {
		if err := os.MkdirAll(filepath.Join(prefix, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(libPath, "libddsc.so.0.10.5")
	if err := os.WriteFile(real, b, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, ".", nil, "patchelf", "--set-soname", "libddsc.so.0", real)
	for link, target := range map[string]string{
		filepath.Join(libDir, "libddsc.so.0"): "libddsc.so.0.10.5",
		filepath.Join(libDir, "libddsc.so"):   "libddsc.so.0",
		"include/dds":                         filepath.Join(sysInclude, "dds"),
	} {
		if err := os.Symlink(target, filepath.Join(prefix, link)); err != nil {
			t.Fatal(err)
		}
	}
	config := `set(CycloneDDS_VERSION 0.10.5)
if(NOT TARGET CycloneDDS::ddsc)
  add_library(CycloneDDS::ddsc SHARED IMPORTED)
  set_target_properties(CycloneDDS::ddsc PROPERTIES
    IMPORTED_LOCATION "` + real + `"
    INTERFACE_INCLUDE_DIRECTORIES "` + filepath.Join(prefix, "include") + `"
    INTERFACE_COMPILE_DEFINITIONS "DDS_NDEBUG")
endif()
`
	if err := os.WriteFile(filepath.Join(libPath, "cmake", "CycloneDDS", "CycloneDDSConfig.cmake"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if withPC {
		pc := "prefix=" + prefix + `
includedir=${prefix}/include
libdir=${prefix}/` + libDir + `

Name: CycloneDDS
Description: Eclipse Cyclone DDS library
Version: 0.10.5
Libs: -L${libdir} -lddsc
Cflags: -I${includedir}
`
		if err := os.WriteFile(filepath.Join(libPath, "pkgconfig", "CycloneDDS.pc"), []byte(pc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return prefix, libPath
}

// checkBinary checks the installed node: it links libddsc.so.0 through a run path into
// libPath of the ROS-like prefix, starts without LD_LIBRARY_PATH and prints wantVersion.
func checkBinary(t *testing.T, bin, libPath, wantVersion string) {
	t.Helper()
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("installed binary: %v", err)
	}
	if st.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s is not executable (%v)", bin, st.Mode())
	}
	dyn := run(t, ".", nil, "readelf", "-d", bin)
	if !strings.Contains(dyn, "[libddsc.so.0]") || strings.Contains(dyn, "libddsc.so.0debian") {
		t.Errorf("%s does not link ROS's libddsc.so.0:\n%s", bin, dyn)
	}
	if !strings.Contains(dyn, "path: ["+libPath+"]") {
		t.Errorf("%s has no run path %s:\n%s", bin, libPath, dyn)
	}
	if got := run(t, ".", nil, bin, "version"); got != "dnetwork "+wantVersion+"\n" {
		t.Errorf("%s version = %q, want %q", bin, got, "dnetwork "+wantVersion+"\n")
	}
	ldd := run(t, ".", nil, "ldd", bin)
	if !strings.Contains(ldd, "libddsc.so.0 => "+filepath.Join(libPath, "libddsc.so.0")) {
		t.Errorf("ldd %s does not resolve libddsc into %s:\n%s", bin, libPath, ldd)
	}
}

// checkShare checks that share/dnetwork/ holds exactly the repository's launch files
// (launch/*.launch.*) and parameter files (params/*.yaml), with their contents, and
// nothing of the test data beside them.
func checkShare(t *testing.T, prefix string) {
	t.Helper()
	root := repoRoot(t)
	share := filepath.Join(prefix, "share", "dnetwork")
	for _, tc := range []struct{ dir, pattern string }{
		{"launch", "*.launch.*"},
		{"params", "*.yaml"},
	} {
		want, err := filepath.Glob(filepath.Join(root, tc.dir, tc.pattern))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Errorf("the repository has no %s/%s", tc.dir, tc.pattern)
		}
		var got []string
		err = filepath.WalkDir(filepath.Join(share, tc.dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(share, p)
				got = append(got, rel)
			}
			return err
		})
		if err != nil {
			t.Errorf("installed %s: %v", tc.dir, err)
		}
		var wantRel []string
		for _, w := range want {
			rel, _ := filepath.Rel(root, w)
			wantRel = append(wantRel, rel)
			b, _ := os.ReadFile(w)
			if inst, err := os.ReadFile(filepath.Join(share, rel)); err == nil && !bytes.Equal(inst, b) {
				t.Errorf("installed %s differs from the repository's", rel)
			}
		}
		slices.Sort(got)
		slices.Sort(wantRel)
		if !slices.Equal(got, wantRel) {
			t.Errorf("share/dnetwork/%s holds %v, want %v", tc.dir, got, wantRel)
		}
	}
	for _, f := range []string{"share/dnetwork/package.xml", "share/ament_index/resource_index/packages/dnetwork"} {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			t.Errorf("install space: %v", err)
		}
	}
}

// TestColconBuildAgainstROSCyclone builds and installs the dnetwork package with
// colcon, as on a robot with /opt/ros/<distro> sourced, and checks the install space.
func TestColconBuildAgainstROSCyclone(t *testing.T) {
	needTools(t, "colcon", "cmake", "gcc", "pkg-config", "patchelf", "readelf", "ldd")
	ws := workspace(t)
	// ROS installs Cyclone DDS in lib/<multiarch>; CMake searches it there when given
	// the prefix, as sourcing setup.bash does.
	cyclone, libPath := rosCyclone(t, filepath.Join("lib", multiarch(t)), true)
	env := []string{"CMAKE_PREFIX_PATH=" + cyclone + ":" + amentStandIn(t)}
	const version = "1.2.3-test"
	colcon(t, ws, env, "build", "--paths", "src/dnetwork/package",
		"--cmake-args", "-DDNETWORK_VERSION="+version)

	install := filepath.Join(ws, "install", "dnetwork")
	checkBinary(t, filepath.Join(install, "lib", "dnetwork", "dnetwork"), libPath, version)
	checkShare(t, install)
	checkBinLink(t, install)
	// Sourcing the install space puts bin/ on PATH (colcon's hook here; ament_cmake adds
	// its own, checked by internal/realros): dnetwork is a plain command.
	got := run(t, ws, nil, "sh", "-c", ". install/setup.sh && command -v dnetwork && dnetwork version")
	if want := filepath.Join(install, "bin", "dnetwork") + "\ndnetwork " + version + "\n"; got != want {
		t.Errorf("after sourcing install/setup.sh: command -v dnetwork; dnetwork version = %q, want %q", got, want)
	}
	deps, err := os.ReadFile(filepath.Join(install, "share", "colcon-core", "packages", "dnetwork"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(strings.TrimSpace(string(deps)), ":"), "dmsgs") {
		t.Errorf("colcon's run dependencies of dnetwork %q lack dmsgs", deps)
	}
}

// TestCMakeWithoutPkgConfigFile builds against a Cyclone prefix that has no
// CycloneDDS.pc: the include and library directories then come from the CMake package
// and the binary still links that prefix's libddsc. Without DNETWORK_VERSION the
// version starts with package.xml's.
func TestCMakeWithoutPkgConfigFile(t *testing.T) {
	needTools(t, "cmake", "pkg-config", "patchelf", "readelf", "ldd")
	cyclone, libPath := rosCyclone(t, "lib", false)
	tmp := t.TempDir()
	build, install := filepath.Join(tmp, "build"), filepath.Join(tmp, "install")
	cfg := run(t, tmp, nil, "cmake", "-S", filepath.Join(repoRoot(t), "package"), "-B", build,
		"-DCMAKE_PREFIX_PATH="+cyclone+";"+amentStandIn(t), "-DCMAKE_INSTALL_PREFIX="+install)
	if !strings.Contains(cfg, "dds_nopkgconfig") {
		t.Errorf("configure output does not mention the dds_nopkgconfig build:\n%s", cfg)
	}
	run(t, tmp, nil, "cmake", "--build", build)
	run(t, tmp, nil, "cmake", "--install", build)

	bin := filepath.Join(install, "lib", "dnetwork", "dnetwork")
	out := run(t, ".", nil, bin, "version")
	if want := "dnetwork " + manifestVersion(t); !strings.HasPrefix(out, want) {
		t.Errorf("version = %q, want prefix %q", out, want)
	}
	got := strings.TrimPrefix(strings.TrimSpace(out), "dnetwork ")
	checkBinary(t, bin, libPath, got)
	checkBinLink(t, install)

	// A staged install (DESTDIR, as package builds do) gets the same relative link.
	staging := filepath.Join(tmp, "staging")
	run(t, tmp, []string{"DESTDIR=" + staging}, "cmake", "--install", build)
	checkBinLink(t, filepath.Join(staging, install))
}

// checkBinLink checks bin/dnetwork under prefix: a relative symbolic link to
// lib/dnetwork/dnetwork, the one binary, so that the install space can move.
func checkBinLink(t *testing.T, prefix string) {
	t.Helper()
	link := filepath.Join(prefix, "bin", "dnetwork")
	target, err := os.Readlink(link)
	if err != nil {
		t.Errorf("bin/dnetwork: %v", err)
		return
	}
	if target != "../lib/dnetwork/dnetwork" {
		t.Errorf("bin/dnetwork -> %q, want ../lib/dnetwork/dnetwork", target)
	}
	if st, err := os.Stat(link); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("bin/dnetwork does not lead to an executable: %v %v", st, err)
	}
}

// goDirective returns the version of go.mod's go directive, e.g. "1.26.0".
func goDirective(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return v
		}
	}
	t.Fatal("go.mod has no go directive")
	return ""
}

// TestCMakeChecksGoVersion checks the configure step's Go check with stand-in go
// commands: the minimum is go.mod's go directive.
func TestCMakeChecksGoVersion(t *testing.T) {
	needTools(t, "cmake")
	min := goDirective(t)
	for _, tc := range []struct {
		name, script string
		wantErr      string // empty: configure succeeds
	}{
		{"old", "echo go1.25.7", "is Go 1.25.7; dnetwork needs Go " + min + " or newer"},
		{"garbage", "echo devel-build", "cannot read the Go version"},
		{"broken", "exit 3", "cannot read the Go version"},
		{"minimum", "echo go" + min, ""},
		{"newer", "echo go1.99.1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			goCmd := filepath.Join(tmp, "go")
			if err := os.WriteFile(goCmd, []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, err := runErr(t, tmp, nil, "cmake", "-S", filepath.Join(repoRoot(t), "package"),
				"-B", filepath.Join(tmp, "build"), "-DCMAKE_PREFIX_PATH="+amentStandIn(t), "-DGO_EXECUTABLE="+goCmd)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("configure failed with %q as go: %v\n%s", tc.script, err, stderr)
				}
				return
			}
			if err == nil {
				t.Fatalf("configure succeeded with %q as go:\n%s", tc.script, stdout)
			}
			if !strings.Contains(strings.Join(strings.Fields(stderr), " "), tc.wantErr) {
				t.Errorf("configure error lacks %q:\n%s", tc.wantErr, stderr)
			}
		})
	}
}
