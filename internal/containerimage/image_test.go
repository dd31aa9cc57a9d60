package containerimage

import (
	"archive/tar"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

// version is the version text the test builds into the image.
const version = "0.0.0-imagetest"

// repoRoot returns the repository root: two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(wd))
	if _, err := os.Stat(filepath.Join(root, "Dockerfile")); err != nil {
		t.Fatalf("repository root %s has no Dockerfile: %v", root, err)
	}
	return root
}

// goEnv returns go env values.
func goEnv(t *testing.T, names ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// distros returns the distros of ../shared/ros (those with an install tarball) and the
// ones to test: DNETWORK_IMAGE_DISTROS ("all" or a list), by default all of them for a
// full test and else the newest (ROS 2 names its releases in alphabetical order).
func distros(t *testing.T, shared string, full bool) (all, test []string) {
	t.Helper()
	tarballs, _ := filepath.Glob(filepath.Join(shared, "ros-*-install.tar.gz"))
	for _, f := range tarballs {
		all = append(all, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "ros-"), "-install.tar.gz"))
	}
	if len(all) == 0 {
		t.Skipf("no ROS 2 install tarball in %s: the stand-in ROS images are made of them", shared)
	}
	slices.Sort(all)
	switch want := strings.TrimSpace(os.Getenv("DNETWORK_IMAGE_DISTROS")); want {
	case "":
		if full {
			return all, all
		}
		return all, all[len(all)-1:]
	case "all":
		return all, all
	default:
		for _, d := range strings.Fields(want) {
			if !slices.Contains(all, d) {
				t.Fatalf("DNETWORK_IMAGE_DISTROS names %s, but %s has no ros-%s-install.tar.gz", d, shared, d)
			}
			test = append(test, d)
		}
		return all, test
	}
}

// cgroupsMounted reports whether a cgroup or cgroup2 file system is mounted in this
// mount namespace: container runtimes need one.
func cgroupsMounted() bool {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return true // let the runtime say what is wrong
	}
	for line := range strings.Lines(string(b)) {
		// "... - FSTYPE SOURCE OPTIONS" ends every line.
		if _, after, ok := strings.Cut(line, " - "); ok {
			if f := strings.Fields(after); len(f) > 0 && (f[0] == "cgroup" || f[0] == "cgroup2") {
				return true
			}
		}
	}
	return false
}

// TestImage builds the Dockerfile with podman on local stand-ins of its base images and
// runs the image: see the package documentation.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the image test builds container images (minutes)")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the image test needs podman's rootful storage, debootstrap and network namespaces")
	}
	for _, tool := range []string{"podman", "debootstrap", "tar", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the image test builds with podman on stand-ins made by debootstrap (scripts/setup.sh installs them)", tool)
		}
	}
	netnstest.Require(t)
	if !cgroupsMounted() {
		t.Skip("no cgroup file system is mounted here, so no container can start (ip netns exec mounts a " +
			"/sys of its own without /sys/fs/cgroup): run the image test in the host's mount namespace")
	}
	root := repoRoot(t)
	shared := filepath.Join(filepath.Dir(root), "shared", "ros")
	full := os.Getenv("DNETWORK_IMAGE_TEST") == "full"
	all, test := distros(t, shared, full)
	store := os.Getenv("DNETWORK_IMAGE_STORE")
	if store == "" {
		store = "/var/cache/dnetwork-imagetest"
	}
	if err := os.MkdirAll(store, 0o755); err != nil {
		t.Fatal(err)
	}
	env := goEnv(t, "GOROOT", "GOVERSION", "GOMODCACHE", "GOCACHE")
	goroot, goversion, modcache, gocache := env[0], env[1], env[2], env[3]

	start := time.Now()
	p := newPodman(t, store)
	// Images of earlier runs that no tag or later layer uses any more (a changed
	// source leaves the previous build behind): the store keeps this run's images and
	// the cache layers still in use.
	t.Cleanup(func() {
		if out, err := p.try(5*time.Minute, nil, "image", "prune", "-f", "--filter", "until="+strconv.FormatInt(start.Unix(), 10)); err != nil {
			t.Logf("podman image prune: %v\n%s", err, tail(out))
		}
	})
	s := &standIns{p: p, store: store, shared: shared, all: all}
	core, base := s.debian(t)
	s.golang(t, goroot, goversion)
	p.adapt(t, core)
	t.Logf("stand-ins ready: %v", time.Since(start).Round(time.Second))

	// Both formats are built in full only with DNETWORK_IMAGE_TEST=full: a build does
	// not reuse the cached layers of the other format, and the docker format accepts
	// every instruction the OCI format does. Otherwise the OCI image is exported as a
	// docker archive (what docker load reads) and its configuration checked there.
	formats := []string{"oci"}
	if full {
		formats = append(formats, "docker")
	}
	for _, distro := range test {
		t.Run(distro, func(t *testing.T) {
			s.ros(t, distro, core, base)
			images := map[string]string{}
			for _, format := range formats {
				img := repo + "/dnetwork:" + distro + "-" + format
				images[format] = img
				t.Run("build "+format, func(t *testing.T) {
					step := time.Now()
					buildImage(t, p, root, distro, goversion, format, img, modcache, gocache)
					t.Logf("%s: built in %v", img, time.Since(step).Round(time.Second))
					checkConfig(t, p, img, distro, format)
					checkVersion(t, p, img)
					checkLinks(t, p, img)
				})
			}
			if t.Failed() {
				return
			}
			if !full {
				t.Run("docker archive", func(t *testing.T) { checkDockerArchive(t, p, images["oci"], distro) })
			}
			t.Run("stop records and logs", func(t *testing.T) { runRecording(t, p, images["oci"]) })
			t.Run("stop default command", func(t *testing.T) { runDefault(t, p, images[formats[len(formats)-1]]) })
			t.Run("warns on a bridge network", func(t *testing.T) { runBridge(t, p, images["oci"]) })
		})
	}
	t.Logf("image test: %v", time.Since(start).Round(time.Second))
}

// buildImage builds the repository's Dockerfile into img, offline: the modules come
// from the host's module cache through a file:// GOPROXY and the host's Go build cache
// is mounted where go looks for it in the build stage (as a cache mount would be).
func buildImage(t *testing.T, p *podman, root, distro, goversion, format, img, modcache, gocache string) {
	t.Helper()
	args := []string{"build", "--pull=never", "--network=none", "--format", format,
		"--build-arg", "ROS_DISTRO=" + distro,
		"--build-arg", "GO_VERSION=" + goMinor(goversion),
		"--build-arg", "ROS_IMAGE=" + repo + "/ros",
		"--build-arg", "GO_IMAGE=" + repo + "/golang",
		"--build-arg", "DNETWORK_VERSION=" + version,
		"--build-arg", "GOPROXY=file:///gomodproxy",
		"-v", filepath.Join(modcache, "cache", "download") + ":/gomodproxy:ro",
		"-v", gocache + ":/root/.cache/go-build",
	}
	args = append(args, p.limits...)
	args = append(args, "-t", img, "-f", filepath.Join(root, "Dockerfile"), root)
	out := p.run(t, 25*time.Minute, args...)
	// An instruction the format cannot hold (SHELL, HEALTHCHECK, ONBUILD in OCI) is
	// dropped with a warning, and the build may go on without it.
	for line := range strings.Lines(out) {
		if strings.Contains(line, "not supported for") {
			t.Errorf("%s format: %s", format, strings.TrimSpace(line))
		}
	}
}

// checkDockerArchive exports img as a docker archive, the docker format's image as
// docker load reads it, and checks the configuration it carries.
func checkDockerArchive(t *testing.T, p *podman, img, distro string) {
	archive := filepath.Join(t.TempDir(), "image.tar")
	p.run(t, 10*time.Minute, "save", "--format", "docker-archive", "-o", archive, img)
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(h.Name, ".json") {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	var manifest []struct{ Config string }
	if err := json.Unmarshal(files["manifest.json"], &manifest); err != nil || len(manifest) != 1 {
		t.Fatalf("docker archive manifest.json: %v %q", err, files["manifest.json"])
	}
	var config struct {
		Config struct {
			Env, Entrypoint, Cmd []string
			StopSignal           string
			Volumes              map[string]struct{}
		} `json:"config"`
	}
	if err := json.Unmarshal(files[manifest[0].Config], &config); err != nil {
		t.Fatalf("docker archive config %s: %v", manifest[0].Config, err)
	}
	c := config.Config
	if c.StopSignal != "SIGINT" {
		t.Errorf("docker archive: stop signal %q, want SIGINT", c.StopSignal)
	}
	for _, want := range []string{"ROS_DISTRO=" + distro, "RMW_IMPLEMENTATION=rmw_cyclonedds_cpp", "ROS_HOME=/data"} {
		if !slices.Contains(c.Env, want) {
			t.Errorf("docker archive: environment %v lacks %s", c.Env, want)
		}
	}
	if _, ok := c.Volumes["/data"]; !ok || len(c.Volumes) != 1 {
		t.Errorf("docker archive: volumes %v, want /data", c.Volumes)
	}
	if len(c.Entrypoint) == 0 || c.Entrypoint[0] != "/bin/bash" || !slices.Equal(c.Cmd, []string{"ros2", "launch", "dnetwork", "dnetwork.launch.py", "robot_id:=1"}) {
		t.Errorf("docker archive: entrypoint %q, command %q", c.Entrypoint, c.Cmd)
	}
}

// checkConfig checks the image configuration: format, stop signal, environment and
// the recordings volume.
func checkConfig(t *testing.T, p *podman, img, distro, format string) {
	t.Helper()
	wantManifest := map[string]string{
		"oci":    "application/vnd.oci.image.manifest.v1+json",
		"docker": "application/vnd.docker.distribution.manifest.v2+json",
	}[format]
	if got := p.inspect(t, img, "{{.ManifestType}}"); got != wantManifest {
		t.Errorf("%s: manifest %s, want %s", img, got, wantManifest)
	}
	if got := p.inspect(t, img, "{{.Config.StopSignal}}"); got != "SIGINT" {
		t.Errorf("%s: stop signal %q, want SIGINT (ros2 launch stops its nodes on SIGINT)", img, got)
	}
	envs := p.inspect(t, img, `{{range .Config.Env}}{{.}}{{"\n"}}{{end}}`)
	for _, want := range []string{"ROS_DISTRO=" + distro, "RMW_IMPLEMENTATION=rmw_cyclonedds_cpp", "ROS_HOME=/data"} {
		if !slices.Contains(strings.Split(envs, "\n"), want) {
			t.Errorf("%s: environment lacks %s:\n%s", img, want, envs)
		}
	}
	if got := p.inspect(t, img, "{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}"); strings.TrimSpace(got) != "/data" {
		t.Errorf("%s: volumes %q, want /data", img, got)
	}
}

// linkScript prints the libddsc the node loads and the one rmw_cyclonedds_cpp loads.
const linkScript = `ddsc() { readlink -f "$(ldd "$1" | sed -n 's/^[[:space:]]*libddsc\.so[^ ]* => \([^ ]*\) .*/\1/p')"; }
echo "$(ddsc "$(command -v dnetwork)") $(ddsc "$(find /opt/ros/$ROS_DISTRO/lib -name librmw_cyclonedds_cpp.so | head -n 1)")"`

// checkLinks checks in the image that the node links the libddsc rmw_cyclonedds_cpp
// loads, so that the node and the ROS tools of the image speak the same Cyclone DDS.
func checkLinks(t *testing.T, p *podman, img string) {
	t.Helper()
	out := p.run(t, 2*time.Minute, append(append([]string{"run", "--rm", "--network=none"}, p.limits...), img, "bash", "-c", linkScript)...)
	f := strings.Fields(out)
	if len(f) != 2 || !strings.HasPrefix(f[0], "/") || f[0] != f[1] {
		t.Errorf("libddsc of the node and of rmw_cyclonedds_cpp: %q, want the same file", out)
	}
}

// checkVersion runs "dnetwork version" through the entrypoint (which sources the
// install space) and without it (docker exec's case: PATH of the image alone).
func checkVersion(t *testing.T, p *podman, img string) {
	t.Helper()
	want := "dnetwork " + version + "\n"
	for _, args := range [][]string{
		{img, "dnetwork", "version"},
		{"--entrypoint", "dnetwork", img, "version"},
	} {
		out := p.run(t, 2*time.Minute, append(append([]string{"run", "--rm", "--network=none"}, p.limits...), args...)...)
		if out != want {
			t.Errorf("podman run %s = %q, want %q", strings.Join(args, " "), out, want)
		}
	}
}

// robotNetwork returns a network namespace whose eth0 is like a robot's interface (a
// macvlan), for a container to run in.
func robotNetwork(t *testing.T) *netnstest.NS {
	ns, lan := netnstest.New(t, "img"), netnstest.New(t, "lan")
	ns.Macvlan(t, "eth0", "10.77.0.2/24", lan)
	return ns
}

// recordingParams turns recording on for robot 1 of team 17.
const recordingParams = `/**:
  ros__parameters:
    team_number: 17
    league: hsl
    interface: auto
    record:
      enabled: true
`

// runRecording launches robot 1 as a user other than root (docker run --user), with
// recording on and /data a host directory of that user, stops the container with
// podman stop and checks the clean stop and what /data holds.
func runRecording(t *testing.T, p *podman, img string) {
	ns := robotNetwork(t)
	data := t.TempDir()
	if err := os.Chown(data, 1000, 1000); err != nil {
		t.Fatal(err)
	}
	params := filepath.Join(t.TempDir(), "robot1.yaml")
	if err := os.WriteFile(params, []byte(recordingParams), 0o644); err != nil {
		t.Fatal(err)
	}
	c := p.start(t, "--user", "1000:1000", "--network", "ns:/run/netns/"+ns.Name, "-v", data+":/data", "-v", params+":/params/robot1.yaml:ro",
		img, "ros2", "launch", "dnetwork", "dnetwork.launch.py", "robot_id:=1", "params_file:=/params/robot1.yaml")
	// Running: the node has recorded its first packets (team packets it sends).
	var rec []string
	deadline := time.Now().Add(2 * time.Minute)
	for len(rec) == 0 {
		rec, _ = filepath.Glob(filepath.Join(data, "dnetwork", "dnetwork_1_*.pcapng"))
		if len(rec) == 1 {
			if st, err := os.Stat(rec[0]); err != nil || st.Size() == 0 {
				rec = nil
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recording in /data/dnetwork after 2 minutes:\n%s", tail(c.logs(t)))
		}
		time.Sleep(250 * time.Millisecond)
	}
	time.Sleep(time.Second)
	checkStop(t, c)
	if logs, _ := filepath.Glob(filepath.Join(data, "log", "*", "launch.log")); len(logs) != 1 {
		t.Errorf("/data/log holds %v, want one launch.log (ROS_HOME=/data)", logs)
	}
	if st, err := os.Stat(rec[0]); err != nil || st.Sys().(*syscall.Stat_t).Uid != 1000 {
		t.Errorf("recording %s: %v, want it owned by the container's user 1000", rec[0], err)
	}
}

// runDefault runs the image's default command (robot 1 with the shipped parameters)
// and stops it.
func runDefault(t *testing.T, p *podman, img string) {
	ns := robotNetwork(t)
	c := p.start(t, "--network", "ns:/run/netns/"+ns.Name, img)
	c.waitLog(t, "socket up", 2*time.Minute)
	out := checkStop(t, c)
	if strings.Contains(out, "running in a container") {
		t.Errorf("container-network warning on a macvlan:\n%s", tail(out))
	}
}

// checkStop stops the container as docker stop and podman stop do and checks a clean
// exit: code 0 before the grace period ran out, the node's "stopped" and launch's
// clean finish in the log. It returns the log.
func checkStop(t *testing.T, c *container) string {
	t.Helper()
	const grace = 30 * time.Second
	code, took, out := c.stop(t, grace)
	if code != 0 || took >= grace {
		t.Errorf("podman stop: exit %d after %v (grace %v), want 0 at once:\n%s", code, took.Round(time.Millisecond), grace, tail(out))
	}
	for _, want := range []string{"[dnetwork_1]: stopped", "process has finished cleanly"} {
		if !strings.Contains(out, want) {
			t.Errorf("log after podman stop lacks %q:\n%s", want, tail(out))
		}
	}
	t.Logf("podman stop: exit %d in %v", code, took.Round(time.Millisecond))
	return out
}

// runBridge runs the image in a namespace whose only interface is a veth with the
// default route through it, as on a bridge network: the node warns that broadcasts do
// not cross it.
func runBridge(t *testing.T, p *podman, img string) {
	ns, host := netnstest.New(t, "img"), netnstest.New(t, "br")
	netnstest.Veth(t, ns, "eth0", "10.88.0.5/16", host, "veth0", "10.88.0.1/16")
	ns.IP(t, "route", "add", "default", "via", "10.88.0.1", "dev", "eth0")
	c := p.start(t, "--network", "ns:/run/netns/"+ns.Name, img)
	out := c.waitLog(t, "running in a container", 2*time.Minute)
	for _, want := range []string{"eth0 (veth, 10.88.0.5/16)", "--network=host"} {
		if !strings.Contains(out, want) {
			t.Errorf("container-network warning lacks %q:\n%s", want, tail(out))
		}
	}
	checkStop(t, c)
}
