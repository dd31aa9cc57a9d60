package realros

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
)

// portBase is the first UDP port of this suite: distro i uses team ports
// portBase+100i+n and GameController ports portBase+100i+50+n, below every DDS port
// (7400 + 250·domain) of the domains that tests take from internal/rosdomain. Each
// distro's run takes two domains: one for the launched team, one for the node without
// ROS_DISTRO and the steps after it.
const portBase = 7000

// rosPath is Debian's PATH: the ROS tools run on /usr/bin/python3, never a pyenv one.
const rosPath = "/usr/sbin:/usr/bin:/sbin:/bin"

// repoRoot is the repository root (two levels up from this package).
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(wd))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s", root)
	}
	return root
}

// TestRealROS runs the suite once for every ROS 2 under /opt/ros.
func TestRealROS(t *testing.T) {
	setups, _ := filepath.Glob("/opt/ros/*/setup.bash")
	if len(setups) == 0 {
		t.Skip("no ROS 2 under /opt/ros (CI installs ../shared/ros; a robot has its own): nothing to check against")
	}
	if testing.Short() {
		t.Skip("-short: the real-ROS suite builds the packages with colcon (minutes)")
	}
	for _, tool := range []string{"colcon", "cmake", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the suite builds msgs/ and package/ with colcon (scripts/setup.sh installs it)", tool)
		}
	}
	for i, setup := range setups {
		distro := filepath.Base(filepath.Dir(setup))
		t.Run(distro, func(t *testing.T) {
			s := newSuite(t, distro, i)
			s.run(t)
		})
	}
}

// suite is one distro's run: its workspace and environment.
type suite struct {
	distro string
	index  int
	root   string // repository
	ws     string // colcon workspace
	tmp    string
	env    []string // ROS environment with the workspace sourced, without domain
	hasAgg bool     // diagnostic_aggregator installed
}

func newSuite(t *testing.T, distro string, index int) *suite {
	s := &suite{distro: distro, index: index, root: repoRoot(t), tmp: t.TempDir()}
	s.ws = filepath.Join(s.tmp, "ws")
	if dir := os.Getenv("DNETWORK_REALROS_WS"); dir != "" {
		// Kept between runs: colcon then rebuilds only what changed.
		s.ws = filepath.Join(dir, distro)
	}
	_, err := os.Stat(filepath.Join("/opt/ros", distro, "share", "diagnostic_aggregator"))
	s.hasAgg = err == nil
	return s
}

func (s *suite) run(t *testing.T) {
	start := time.Now()
	if !t.Run("colcon build", s.build) {
		t.Fatal("the packages do not build; nothing else can run")
	}
	t.Logf("%s: build %v", s.distro, time.Since(start).Round(time.Second))
	t.Run("dnetwork on PATH", s.onPath)
	s.team(t)
	domain := rosdomain.Take(t)
	t.Run("node without ROS_DISTRO", func(t *testing.T) { s.noDistro(t, domain) })
	s.configSteps(t, domain) // after noDistro, in its domain
	t.Logf("%s: all steps %v", s.distro, time.Since(start).Round(time.Second))
}

// goEnv returns the go command's directory and its cache settings, so colcon's go
// build shares the test run's caches.
func goEnv(t *testing.T) []string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	env := []string{"PATH=" + rosPath + ":" + filepath.Dir(goBin)}
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY"} {
		if i < len(lines) && lines[i] != "" {
			env = append(env, k+"="+lines[i])
		}
	}
	return env
}

// build makes the workspace (src/dnetwork is the repository, as after a git clone),
// runs the README's colcon build, builds the rclcpp listener next to it and reads the
// environment of install/setup.bash.
func (s *suite) build(t *testing.T) {
	src := filepath.Join(s.ws, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.root, filepath.Join(src, "dnetwork")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	base := append(goEnv(t), "HOME="+os.Getenv("HOME"), "LANG=C.UTF-8", "MAKEFLAGS=-j2", "CMAKE_BUILD_PARALLEL_LEVEL=2")
	script := fmt.Sprintf("set -e; source /opt/ros/%s/setup.bash; colcon build --packages-up-to dnetwork", s.distro)
	s.bash(t, 25*time.Minute, base, script)
	if _, err := exec.LookPath("g++"); err == nil {
		listener := filepath.Join(s.ws, "listener_src")
		if err := os.RemoveAll(listener); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(listener, os.DirFS(filepath.Join(s.root, "internal", "realros", "testdata", "realros_listener"))); err != nil {
			t.Fatal(err)
		}
		script = fmt.Sprintf("set -e; source /opt/ros/%s/setup.bash; source install/setup.bash; colcon build --base-paths listener_src", s.distro)
		s.bash(t, 15*time.Minute, base, script)
	}
	out := s.bash(t, time.Minute, []string{"PATH=" + rosPath, "HOME=" + s.tmp, "LANG=C.UTF-8"},
		fmt.Sprintf("source /opt/ros/%s/setup.bash; source install/setup.bash; env -0", s.distro))
	for _, kv := range strings.Split(out, "\x00") {
		if kv != "" && !strings.HasPrefix(kv, "ROS_DOMAIN_ID=") {
			s.env = append(s.env, kv)
		}
	}
	// ros2 launch writes a launch_params_* file per node with parameters into the
	// temporary directory and never removes it: TMPDIR puts them in the test's.
	tmpdir := filepath.Join(s.tmp, "tmp")
	if err := os.MkdirAll(tmpdir, 0o700); err != nil {
		t.Fatal(err)
	}
	s.env = append(s.env, "ROS_LOG_DIR="+filepath.Join(s.tmp, "roslog"), "PYTHONUNBUFFERED=1", "RMW_IMPLEMENTATION=rmw_cyclonedds_cpp",
		"TMPDIR="+tmpdir)
	if s.distro == "humble" {
		s.env = append(s.env, "ROS_LOCALHOST_ONLY=1")
	} else {
		s.env = append(s.env, "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST")
	}
}

// onPath checks the commands of the install space: once install/setup.bash is sourced
// (ament's environment hook puts <prefix>/bin on PATH) dnetwork is a plain command,
// the link bin/dnetwork, while ros2 run still finds the executable in lib/dnetwork; a
// colcon build --symlink-install of the package gives a working command too.
func (s *suite) onPath(t *testing.T) {
	install := filepath.Join(s.ws, "install", "dnetwork")
	if got, want := lookPath(s.env, "dnetwork"), filepath.Join(install, "bin", "dnetwork"); got != want {
		t.Errorf("after sourcing install/setup.bash dnetwork is %s, want %s", got, want)
	}
	out := s.bash(t, time.Minute, s.env, "dnetwork version; ros2 run dnetwork dnetwork version; ros2 pkg executables dnetwork")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "dnetwork ") || lines[1] != lines[0] || lines[2] != "dnetwork dnetwork" {
		t.Errorf("dnetwork version; ros2 run dnetwork dnetwork version; ros2 pkg executables dnetwork:\n%s\nwant the same version twice, then \"dnetwork dnetwork\"", out)
	}

	// --symlink-install links installed files to the source and build trees; the
	// command still leads to the binary.
	base := append(goEnv(t), "HOME="+os.Getenv("HOME"), "LANG=C.UTF-8")
	out = s.bash(t, 10*time.Minute, base, fmt.Sprintf("set -e; source /opt/ros/%s/setup.bash; source install/setup.bash; "+
		"colcon build --packages-select dnetwork --symlink-install --build-base build-symlink --install-base install-symlink >/dev/null; "+
		"source install-symlink/setup.bash; command -v dnetwork; dnetwork version", s.distro))
	want := filepath.Join(s.ws, "install-symlink", "dnetwork", "bin", "dnetwork") + "\n" + lines[0] + "\n"
	if out != want {
		t.Errorf("--symlink-install: command -v dnetwork; dnetwork version = %q, want %q", out, want)
	}
}

// bash runs script in the workspace with env and returns its standard output.
func (s *suite) bash(t *testing.T, timeout time.Duration, env []string, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", script)
	cmd.Dir, cmd.Env = s.ws, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s\n%s", script, err, tail(stdout.String()), tail(stderr.String()))
	}
	return stdout.String()
}

func tail(s string) string {
	if len(s) > 6000 {
		return "..." + s[len(s)-6000:]
	}
	return s
}

// domainEnv is the ROS environment for domain.
func (s *suite) domainEnv(domain int) []string {
	return append(append([]string(nil), s.env...), "ROS_DOMAIN_ID="+strconv.Itoa(domain))
}

// ros2 runs a ros2 command in domain and returns its combined output and error.
func (s *suite) ros2(domain int, timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, lookPath(s.env, "ros2"), args...)
	cmd.Env, cmd.Dir = s.domainEnv(domain), s.tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// lookPath finds name on the PATH of env.
func lookPath(env []string, name string) string {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(p) {
				if f := filepath.Join(dir, name); isExec(f) {
					return f
				}
			}
		}
	}
	return filepath.Join("/nonexistent", name) // not on the ROS PATH: fails with the name
}

func isExec(f string) bool {
	st, err := os.Stat(f)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// eventually runs ros2 until check accepts its output or timeout passes; graph
// discovery of a fresh CLI participant takes a moment.
func (s *suite) eventually(t *testing.T, domain int, timeout time.Duration, check func(string) bool, args ...string) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out, err := s.ros2(domain, 30*time.Second, args...)
		if err == nil && check(out) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("ros2 %s: not as expected within %v (%v):\n%s", strings.Join(args, " "), timeout, err, tail(out))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// proc is a background process of the test, in its own process group.
type proc struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{}
	err  error
}

// start runs a program in the background with env; it is killed (its whole process
// group) when the test ends, unless it has stopped before.
func start(t *testing.T, env []string, dir string, name string, args ...string) *proc {
	t.Helper()
	path := name
	if !filepath.IsAbs(name) {
		path = lookPath(env, name)
	}
	cmd := exec.Command(path, args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &proc{cmd: cmd, out: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
			return
		default:
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	})
	return p
}

// waitOutput waits until the process has printed want.
func (p *proc) waitOutput(t *testing.T, want string, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for !strings.Contains(p.out.String(), want) {
		select {
		case <-p.done:
			t.Fatalf("%s exited (%v) before printing %q:\n%s", p.cmd.Path, p.err, want, tail(p.out.String()))
		case <-deadline:
			t.Fatalf("%s did not print %q within %v:\n%s", p.cmd.Path, want, timeout, tail(p.out.String()))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// interrupt sends SIGINT to the process group, as Ctrl-C in a terminal does, and
// waits for the exit.
func (p *proc) interrupt(timeout time.Duration) error {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		return fmt.Errorf("still running %v after SIGINT", timeout)
	}
}

// paramsFile is the robots' parameter file: the simulated robot's, with the zju
// format (its fields travel unconverted, so every input value can be compared
// exactly) and a faster diagnostics period.
const paramsFile = `/**:
  ros__parameters:
    team_number: 17
    league: hsl
    interface: lo
    team:
      format: zju
    gamecontroller:
      allow_from: ["127.0.0.0/8"]
    diagnostics:
      period: 0.5
`

// team launches two robots with use_sim_time and runs every check against them.
func (s *suite) team(t *testing.T) {
	domain := rosdomain.Take(t)
	env := s.domainEnv(domain)
	clock := start(t, env, s.tmp, "/usr/bin/python3", filepath.Join(s.root, "internal", "realros", "testdata", "clock.py"))
	clock.waitOutput(t, "clock running", time.Minute)
	params := filepath.Join(s.tmp, "robots.yaml")
	if err := os.WriteFile(params, []byte(paramsFile), 0o644); err != nil {
		t.Fatal(err)
	}
	teamBase, gcBase := portBase+100*s.index, portBase+100*s.index+50
	launch := start(t, env, s.tmp, "ros2", "launch", "dnetwork", "team_sim.launch.py", "robots:=2",
		"use_sim_time:=true", "params_file:="+params,
		"base_port:="+strconv.Itoa(teamBase), "gc_port_base:="+strconv.Itoa(gcBase))
	bin := filepath.Join(s.ws, "install", "dnetwork", "lib", "dnetwork", "dnetwork")
	start(t, env, s.tmp, bin, "gc-sim", "--teams", "17,5", "--layout", "hsl20", "--loop",
		"--dest", fmt.Sprintf("127.0.0.1:%d-%d", gcBase, gcBase+1), "--return-port", "0")

	t.Run("launch with use_sim_time", func(t *testing.T) { s.simTime(t, domain, launch) })
	t.Run("launch_params files in TMPDIR", func(t *testing.T) {
		// One per robot, written before the robots start: in the test's TMPDIR, not /tmp.
		if files, _ := filepath.Glob(filepath.Join(s.tmp, "tmp", "launch_params_*")); len(files) != 2 {
			t.Errorf("%d launch_params_* files in the test's TMPDIR, want 2 (one per robot): %q", len(files), files)
		}
	})
	t.Run("node list and info", func(t *testing.T) { s.nodes(t, domain) })
	t.Run("topic list and info", func(t *testing.T) { s.topics(t, domain) })
	t.Run("topic echo", func(t *testing.T) { s.echo(t, domain) })
	t.Run("param", func(t *testing.T) { s.params(t, domain) })
	t.Run("list_parameters as rclcpp", func(t *testing.T) { s.listParams(t, env) })
	t.Run("rclpy inputs to TeamInfo", func(t *testing.T) {
		if !s.inputs(t, env) {
			t.Logf("launch output:\n%s", tail(launch.out.String()))
		}
	})
	t.Run("README rclpy example", func(t *testing.T) { s.readmeRclpy(t, env, domain) })
	t.Run("rclcpp subscriber", func(t *testing.T) { s.rclcpp(t, env) })
	t.Run("diagnostic_aggregator", func(t *testing.T) { s.aggregator(t, env, domain) })
	t.Run("Ctrl-C", func(t *testing.T) {
		if err := launch.interrupt(30 * time.Second); err != nil {
			t.Fatalf("ros2 launch after SIGINT: %v\n%s", err, tail(launch.out.String()))
		}
		out := launch.out.String()
		clean := regexp.MustCompile(`\[dnetwork-\d+\]: process has finished cleanly`).FindAllString(out, -1)
		if len(clean) != 2 {
			t.Errorf("%d of 2 robots finished cleanly:\n%s", len(clean), tail(out))
		}
	})
	if _, err := s.ros2(domain, 30*time.Second, "daemon", "stop"); err != nil {
		t.Logf("ros2 daemon stop: %v", err)
	}
}

// simTime checks that the robots run with use_sim_time and stamp /diagnostics with
// the /clock publisher's time (1000 s on) rather than the wall clock.
func (s *suite) simTime(t *testing.T, domain int, launch *proc) {
	s.eventually(t, domain, 90*time.Second, func(out string) bool { return strings.Contains(out, "True") },
		"param", "get", "/dnetwork_1", "use_sim_time")
	out := s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "sec:") },
		"topic", "echo", "--once", "/diagnostics", "diagnostic_msgs/msg/DiagnosticArray")
	m := regexp.MustCompile(`stamp:\s*\n\s*sec: (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no stamp in /diagnostics:\n%s", out)
	}
	if sec, _ := strconv.Atoi(m[1]); sec < 1000 || sec > 100000 {
		t.Errorf("/diagnostics stamped %d s: not /clock's time (1000 s on)", sec)
	}
	if strings.Contains(launch.out.String(), "ERROR") {
		t.Errorf("errors in the launch output:\n%s", tail(launch.out.String()))
	}
}

func (s *suite) nodes(t *testing.T, domain int) {
	s.eventually(t, domain, 60*time.Second, func(out string) bool {
		return strings.Contains(out, "/dnetwork_1\n") && strings.Contains(out, "/dnetwork_2\n")
	}, "node", "list", "--no-daemon")
	out := s.eventually(t, domain, 60*time.Second, func(out string) bool {
		return strings.Contains(out, "/dnetwork_1/TeamInfo: dmsgs/msg/TeamInfo")
	}, "node", "info", "/dnetwork_1", "--no-daemon")
	for _, want := range []string{
		"/dmotion_1/MotionInfo: dmsgs/msg/MotionInfo",
		"/clock: rosgraph_msgs/msg/Clock",
		"/dnetwork_1/GCInfo: dmsgs/msg/GCInfo",
		"/diagnostics: diagnostic_msgs/msg/DiagnosticArray",
		"/rosout: rcl_interfaces/msg/Log",
		"/dnetwork_1/get_parameters: rcl_interfaces/srv/GetParameters",
		"/dnetwork_1/set_parameters: rcl_interfaces/srv/SetParameters",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ros2 node info /dnetwork_1 lacks %q:\n%s", want, out)
		}
	}
}

func (s *suite) topics(t *testing.T, domain int) {
	want := []string{
		"/clock [rosgraph_msgs/msg/Clock]",
		"/diagnostics [diagnostic_msgs/msg/DiagnosticArray]",
		"/parameter_events [rcl_interfaces/msg/ParameterEvent]",
		"/rosout [rcl_interfaces/msg/Log]",
	}
	for _, r := range []string{"1", "2"} {
		want = append(want,
			"/dnetwork_"+r+"/TeamInfo [dmsgs/msg/TeamInfo]",
			"/dnetwork_"+r+"/GCInfo [dmsgs/msg/GCInfo]",
			"/dnetwork_"+r+"/GameControlData [dmsgs/msg/GameControlData]",
			"/dmotion_"+r+"/MotionInfo [dmsgs/msg/MotionInfo]",
			"/dbehavior_"+r+"/BehaviorInfo [dmsgs/msg/BehaviorInfo]",
			"/dvision_"+r+"/VisionInfo [dmsgs/msg/VisionInfo]")
	}
	s.eventually(t, domain, 60*time.Second, func(out string) bool {
		for _, w := range want {
			if !strings.Contains(out, w+"\n") {
				return false
			}
		}
		return true
	}, "topic", "list", "-t", "--no-daemon")
	out := s.eventually(t, domain, 60*time.Second, func(out string) bool {
		return strings.Contains(out, "Publisher count: 1")
	}, "topic", "info", "-v", "/dnetwork_1/TeamInfo", "--no-daemon")
	for _, w := range []string{"Node name: dnetwork_1", "Reliability: RELIABLE", "Durability: VOLATILE", "History (Depth): KEEP_LAST (10)"} {
		if !strings.Contains(out, w) {
			t.Errorf("topic info -v /dnetwork_1/TeamInfo lacks %q:\n%s", w, out)
		}
	}
	if s.distro == "humble" {
		return
	}
	// Jazzy announces type hashes: they must equal what rosidl generated for dmsgs.
	for _, typ := range []string{"TeamInfo", "TeamLinks", "GCInfo", "GameControlData"} {
		want := rosidlHash(t, filepath.Join(s.ws, "install", "dmsgs", "share", "dmsgs", "msg", typ+".json"))
		out := s.eventually(t, domain, 60*time.Second, func(out string) bool {
			return strings.Contains(out, "Node name: dnetwork_1")
		}, "topic", "info", "-v", "/dnetwork_1/"+typ, "--no-daemon")
		if !strings.Contains(out, "Topic type hash: "+want) {
			t.Errorf("%s: rosidl's hash %s not announced:\n%s", typ, want, out)
		}
	}
}

// rosidlHash reads the RIHS01 hash rosidl wrote into a type description file.
func rosidlHash(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("rosidl type description: %v", err)
	}
	var desc struct {
		TypeHashes []struct {
			TypeName string `json:"type_name"`
			HashRef  string `json:"hash_string"`
		} `json:"type_hashes"`
	}
	if err := json.Unmarshal(b, &desc); err != nil || len(desc.TypeHashes) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	return desc.TypeHashes[0].HashRef
}

func (s *suite) echo(t *testing.T, domain int) {
	cases := []struct{ topic, typ, want string }{
		{"/dnetwork_1/GCInfo", "dmsgs/msg/GCInfo", "connected: true"},
		{"/dnetwork_1/GameControlData", "dmsgs/msg/GameControlData", "teams:"},
		{"/dnetwork_2/TeamInfo", "dmsgs/msg/TeamInfo", "player_number: 1"},
		{"/diagnostics", "diagnostic_msgs/msg/DiagnosticArray", "dnetwork_"},
	}
	for _, c := range cases {
		s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, c.want) },
			"topic", "echo", "--once", c.topic, c.typ)
	}
	// /rosout: see noDistro, where a log line can be provoked without disturbing the team.
}

// rosout checks /rosout: /rosout keeps log lines for 10 s, so the echo listens while
// switching use_sim_time on makes node log a line (its clock then jumps to /clock's).
func (s *suite) rosout(t *testing.T, domain int, node string) {
	rosout := start(t, s.domainEnv(domain), s.tmp, "ros2", "topic", "echo", "/rosout", "rcl_interfaces/msg/Log")
	want := "use_sim_time true: the clock follows /clock"
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(rosout.out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q on /rosout:\n%s", want, tail(rosout.out.String()))
		}
		for _, v := range []string{"false", "true"} {
			if out, err := s.ros2(domain, 30*time.Second, "param", "set", "/"+node, "use_sim_time", v, "--no-daemon"); err != nil {
				t.Logf("param set use_sim_time %s: %v\n%s", v, err, out)
			}
		}
		time.Sleep(2 * time.Second)
	}
	if out := rosout.out.String(); !strings.Contains(out, "name: "+node) {
		t.Errorf("/rosout line without the node's name %s:\n%s", node, tail(out))
	}
	_ = rosout.interrupt(10 * time.Second)
}

func (s *suite) params(t *testing.T, domain int) {
	n := "/dnetwork_1"
	s.eventually(t, domain, 60*time.Second, func(out string) bool {
		return strings.Contains(out, "  team_number\n") && strings.Contains(out, "  use_sim_time\n") && strings.Contains(out, "  team.format\n")
	}, "param", "list", n, "--no-daemon")
	s.eventually(t, domain, 30*time.Second, func(out string) bool { return strings.Contains(out, "Integer value is: 17") },
		"param", "get", n, "team_number", "--no-daemon")
	s.eventually(t, domain, 30*time.Second, func(out string) bool {
		return strings.Contains(out, "Type: integer") && strings.Contains(strings.ToLower(out), "read only: true")
	}, "param", "describe", n, "team_number", "--no-daemon")
	out, _ := s.ros2(domain, 30*time.Second, "param", "set", n, "team_number", "5", "--no-daemon")
	if !strings.Contains(out, "Setting parameter failed") || !strings.Contains(out, "read") {
		t.Errorf("setting a read-only parameter: want a refusal with its reason, got:\n%s", out)
	}
	// Accepted (a run-time parameter), and unchanged, so the robots' clocks do not jump.
	s.eventually(t, domain, 30*time.Second, func(out string) bool { return strings.Contains(out, "Set parameter successful") },
		"param", "set", n, "use_sim_time", "true", "--no-daemon")
	dump := []string{"param", "dump", n, "--no-daemon"}
	if s.distro == "humble" {
		dump = append(dump, "--print")
	}
	s.eventually(t, domain, 30*time.Second, func(out string) bool {
		return strings.Contains(out, "ros__parameters:") && strings.Contains(out, "team_number: 17") && strings.Contains(out, "use_sim_time: true")
	}, dump...)
}

// listParams asks robot 1 and an rclcpp node that declared the same names (the
// realros_params peer) the same list_parameters questions, for every prefix of robot
// 1's names and none, at depths 0 to 3 and for all prefixes at once, and compares the
// answers, rclcpp's own parameters (qos_overrides.*, start_type_description_service)
// left out.
func (s *suite) listParams(t *testing.T, env []string) {
	bin := filepath.Join(s.ws, "install", "realros_listener", "lib", "realros_listener", "params_peer")
	if !isExec(bin) {
		t.Skip("no g++: the rclcpp parameter peer was not built (buildtime-apt-cpp-extra lists what C++ nodes need)")
	}
	type request struct {
		Prefixes []string `json:"prefixes"`
		Depth    uint64   `json:"depth"`
	}
	type answer struct {
		Names    []string `json:"names"`
		Prefixes []string `json:"prefixes"`
	}
	ask := func(reqs []request, nodes ...string) map[string][]answer {
		t.Helper()
		in, err := json.Marshal(reqs)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "/usr/bin/python3", append([]string{filepath.Join(s.root, "internal", "realros", "testdata", "list_params.py")}, nodes...)...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, s.tmp, bytes.NewReader(in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("list_params.py %v: %v\n%s", nodes, err, tail(stderr.String()))
		}
		var got map[string][]answer
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("list_params.py: %v\n%s", err, out)
		}
		return got
	}
	const ours, peer = "/dnetwork_1", "/realros_params"
	all := ask([]request{{}}, ours)[ours][0]
	args := []string{"--ros-args"}
	for _, name := range all.Names {
		if name != "use_sim_time" { // rclcpp declares it itself
			args = append(args, "-p", name+":=0")
		}
	}
	p := start(t, env, s.tmp, bin, args...)
	p.waitOutput(t, "params peer ready", time.Minute)

	var reqs []request
	for depth := range uint64(4) {
		reqs = append(reqs, request{Depth: depth}, request{Prefixes: all.Prefixes, Depth: depth})
		for _, prefix := range all.Prefixes {
			reqs = append(reqs, request{Prefixes: []string{prefix}, Depth: depth})
		}
	}
	got := ask(reqs, ours, peer)
	t.Logf("%d requests over %d names and %d prefixes", len(reqs), len(all.Names), len(all.Prefixes))
	own := func(name string) bool {
		return strings.HasPrefix(name, "qos_overrides.") || name == "start_type_description_service"
	}
	for i, r := range reqs {
		want := got[peer][i]
		want.Names = slices.DeleteFunc(want.Names, own)
		want.Prefixes = slices.DeleteFunc(want.Prefixes, own)
		if have := got[ours][i]; !slices.Equal(have.Names, want.Names) || !slices.Equal(have.Prefixes, want.Prefixes) {
			t.Errorf("list_parameters %+v: dnetwork %q %q, rclcpp %q %q", r, have.Names, have.Prefixes, want.Names, want.Prefixes)
		}
	}
	if err := p.interrupt(20 * time.Second); err != nil {
		t.Errorf("params peer after SIGINT: %v\n%s", err, tail(p.out.String()))
	}
}

// inputValues are robot 1's MotionInfo, BehaviorInfo and VisionInfo: every field
// that travels in a zju team packet, with values float32 holds exactly.
var inputValues = map[string]map[string]any{
	"motion": {"stable": true},
	"behavior": {
		"current_role": 2, "attack_right": true, "team_play_state": 3, "kicker_id": 4, "team_play_priority": true,
		"time_since_last_kick": 2.5,
		"dest":                 map[string]float64{"x": 10.5, "y": -20.25, "z": 45},
		"final_dest":           map[string]float64{"x": 30.5, "y": 40.75, "z": -90},
		"attack_target":        map[string]float64{"x": 450, "y": 0.5, "z": 0},
	},
	"vision": {
		"see_ball": true, "see_circle": true, "see_goal": true,
		"ball_quality": 0.75, "field_quality": 0.5, "field_consistency": 0.25,
		"robot_pos":     map[string]float64{"x": 123.25, "y": -45.5, "z": 30.5},
		"ball_field":    map[string]float64{"x": 50.5, "y": 5.25, "z": 0},
		"ball_global":   map[string]float64{"x": 173.75, "y": -40.25, "z": 0},
		"circle_field":  map[string]float64{"x": -120.5, "y": 45.5, "z": 0},
		"circle_global": map[string]float64{"x": 1.5, "y": 2.5, "z": 0},
		"goal_field":    map[string]float64{"x": 320.25, "y": -10.5, "z": 0},
		"goal_global":   map[string]float64{"x": 450, "y": 0, "z": 0},
	},
}

// teamField is the TeamInfo field each input arrives in.
var teamField = map[string]string{
	"current_role": "role", "team_play_state": "state", "team_play_priority": "priority",
}

// inputs reports whether robot 2's TeamInfo showed robot 1's inputs.
func (s *suite) inputs(t *testing.T, env []string) bool {
	values, err := json.Marshal(inputValues)
	if err != nil {
		t.Fatal(err)
	}
	p := start(t, env, s.tmp, "/usr/bin/python3", filepath.Join(s.root, "internal", "realros", "testdata", "inputs.py"), string(values), "60")
	select {
	case <-p.done:
	case <-time.After(90 * time.Second):
		t.Fatalf("inputs.py still running after 90 s:\n%s", tail(p.out.String()))
	}
	if p.err != nil {
		t.Errorf("inputs.py: %v\n%s", p.err, tail(p.out.String()))
		return false
	}
	out := p.out.String()
	var got map[string]any
	if err := json.Unmarshal([]byte(out[strings.LastIndex(out, "\n{")+1:]), &got); err != nil {
		t.Errorf("TeamInfo JSON: %v\n%s", err, tail(out))
		return false
	}
	if got["incapacitated"] != false {
		t.Errorf("incapacitated = %v with a stable MotionInfo", got["incapacitated"])
	}
	for _, group := range []string{"behavior", "vision"} {
		for k, v := range inputValues[group] {
			field := k
			if f, ok := teamField[k]; ok {
				field = f
			}
			want, _ := json.Marshal(v)
			have, _ := json.Marshal(got[field])
			if !jsonEqual(want, have) {
				t.Errorf("%s.%s = %s arrived as TeamInfo.%s = %s", group, k, want, field, have)
			}
		}
	}
	if got["player_number"] != float64(1) || got["team_number"] != float64(17) {
		t.Errorf("TeamInfo from player %v of team %v, want 1 of 17", got["player_number"], got["team_number"])
	}
	return !t.Failed()
}

// jsonEqual compares two JSON values as numbers, bools and objects.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

func (s *suite) rclcpp(t *testing.T, env []string) {
	bin := filepath.Join(s.ws, "install", "realros_listener", "lib", "realros_listener", "listener")
	if !isExec(bin) {
		t.Skip("no g++: the rclcpp listener was not built (buildtime-apt-cpp-extra lists what C++ nodes need)")
	}
	p := start(t, env, s.tmp, bin, "/dnetwork_2/TeamInfo")
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the rclcpp listener received no 3 TeamInfo in 60 s:\n%s", tail(p.out.String()))
	}
	if p.err != nil || strings.Count(p.out.String(), "teaminfo player=1 team=17") != 3 {
		t.Fatalf("rclcpp listener: %v\n%s", p.err, tail(p.out.String()))
	}
}

func (s *suite) aggregator(t *testing.T, env []string, domain int) {
	if !s.hasAgg {
		t.Skipf("diagnostic_aggregator is not installed in /opt/ros/%s", s.distro)
	}
	agg := start(t, env, s.tmp, "ros2", "launch", "dnetwork", "diagnostics.launch.py", "team_number:=17")
	// Both robots' statuses under Team17 -> Robot<n>, the "dnetwork_<n>" prefix gone.
	s.eventually(t, domain, 90*time.Second, func(out string) bool {
		return strings.Contains(out, "name: /Team17/Robot1/node\n") && strings.Contains(out, "name: /Team17/Robot2/team\n")
	}, "topic", "echo", "--once", "/diagnostics_agg", "diagnostic_msgs/msg/DiagnosticArray")
	if err := agg.interrupt(30 * time.Second); err != nil {
		t.Errorf("diagnostics launch after SIGINT: %v\n%s", err, tail(agg.out.String()))
	}
}

// noDistro starts the node without ROS_DISTRO (a plain go build, nothing recorded)
// next to an rclpy participant of the distro, in domain: the distro's CLI lists it.
func (s *suite) noDistro(t *testing.T, domain int) {
	env := s.domainEnv(domain)
	start(t, env, s.tmp, "/usr/bin/python3", filepath.Join(s.root, "internal", "realros", "testdata", "clock.py")).
		waitOutput(t, "clock running", time.Minute)
	bin := plainBinary(t)
	var nodeEnv []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ROS_DISTRO=") {
			nodeEnv = append(nodeEnv, kv)
		}
	}
	team := portBase + 100*s.index + 40
	node := start(t, nodeEnv, s.tmp, bin, "node", "--ros-args", "--params-file", filepath.Join(s.root, "params", "sim_robot.yaml"),
		"-p", "robot_id:=7", "-p", "team.port:="+strconv.Itoa(team), "-p", "gamecontroller.port:="+strconv.Itoa(team+1))
	node.waitOutput(t, s.distro+" conventions", 30*time.Second)
	s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "/dnetwork_7\n") },
		"node", "list", "--no-daemon")
	s.eventually(t, domain, 60*time.Second, func(out string) bool { return strings.Contains(out, "Integer value is: 7") },
		"param", "get", "/dnetwork_7", "robot_id", "--no-daemon")
	t.Run("topic echo /rosout", func(t *testing.T) { s.rosout(t, domain, "dnetwork_7") })
	if err := node.interrupt(20 * time.Second); err != nil {
		t.Errorf("node without ROS_DISTRO after SIGINT: %v\n%s", err, tail(node.out.String()))
	}
}

var plain struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// plainBinary builds cmd/dnetwork with go build, so no distro is recorded in it.
func plainBinary(t *testing.T) string {
	root := repoRoot(t)
	plain.once.Do(func() {
		dir, err := os.MkdirTemp("", "realros-bin")
		if err != nil {
			plain.err = err
			return
		}
		plain.path = filepath.Join(dir, "dnetwork")
		cmd := exec.Command("go", "build", "-o", plain.path, "./cmd/dnetwork")
		cmd.Dir = root
		plain.out, plain.err = cmd.CombinedOutput()
	})
	if plain.err != nil {
		t.Fatalf("go build ./cmd/dnetwork: %v\n%s", plain.err, plain.out)
	}
	return plain.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if plain.path != "" {
		os.RemoveAll(filepath.Dir(plain.path))
	}
	os.Exit(code)
}
