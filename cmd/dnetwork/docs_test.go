package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// docBlock is one ```sh block of a Markdown file of the repository.
type docBlock struct {
	file string // relative to the repository root
	line int    // of the opening fence
	text string // without the fences
}

// key names a block in the tables below: its file and its first line.
func (b docBlock) key() docKey {
	first, _, _ := strings.Cut(b.text, "\n")
	return docKey{b.file, first}.norm()
}

type docKey struct{ file, first string }

// norm returns the key with its first line's runs of white space made one space, so
// that aligning a block's comments does not change its key.
func (k docKey) norm() docKey {
	return docKey{k.file, strings.Join(strings.Fields(k.first), " ")}
}

// docRun is how TestDocShellBlocks runs a block: setup writes the files the doc
// assumes into the block's directory; want holds lines the output must contain (what
// the doc shows, or the key lines of what it describes).
type docRun struct {
	setup func(t *testing.T, dir string)
	want  []string
	check func(t *testing.T, dir string) // after the block, on its directory (HOME)
}

// docBlocksRun are the blocks that run offline, each as written.
var docBlocksRun = map[docKey]docRun{
	{"docs/tools.md", "dnetwork decode testdata/demo/gamecontroller.hex"}: {want: []string{
		`"protocol":"gamecontroller"`, `"gcinfo":`, `"protocol":"teaminfo-zju"`,
		`"tagged":true,"authenticated":true`,
		`"protocol":"worldinfo"`, `"protocol":"rgrt"`, `"protocol":"sim3d"`,
	}},
	{"README.md", "dnetwork decode proto/gclog/testdata/hsl20.yaml | grep teamMessage # a log in the repository"}: {
		want: []string{`"kind":"teamMessage","host":"10.93.0.2","team":17,"protocol":"teaminfo-dnet"`},
	},
	{"README.md", "mkdir -p ~/.local/lib/wireshark/plugins && cp wireshark/dnetwork.lua ~/.local/lib/wireshark/plugins/"}: {check: dissectorInstalled},
	{"docs/parameters.md", "dnetwork node --check --ros-args --params-file robot3.yaml   # prints every value, or the errors"}: {
		// The team's copy of params/robot3.yaml, its interface set as README says.
		setup: func(t *testing.T, dir string) {
			raw, err := os.ReadFile("../../params/robot3.yaml")
			if err != nil {
				t.Fatal(err)
			}
			yaml := strings.Replace(string(raw), "interface: auto", "interface: lo", 1)
			if yaml == string(raw) {
				t.Fatal("params/robot3.yaml has no line interface: auto")
			}
			if err := os.WriteFile(filepath.Join(dir, "robot3.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		want: []string{"node: /dnetwork_3\n", "robot_id: 3\n", "| `inputs.reliable` | bool |"},
	},
}

// docBlocksNotRun are the blocks that cannot run offline or in a test, with the reason.
var docBlocksNotRun = map[docKey]string{
	{"README.md", "git clone https://github.com/robocup-dnetwork/dnetwork && cd dnetwork"}:                                                 "clones from GitHub; make demo runs for minutes, make test for the whole CI",
	{"README.md", "# 1. ROS 2 and the build tools"}:                                                                                        "apt and go.dev downloads; a colcon build (internal/realros runs it); starts a node",
	{"README.md", "source /opt/ros/jazzy/setup.bash && source ~/dnet_ws/install/setup.bash"}:                                               "needs a robot's running node; topic echo runs until Ctrl-C (internal/realros echoes these topics)",
	{"CONTRIBUTING.md", "colcon build --packages-up-to dnetwork && source install/setup.bash"}:                                             "a colcon build and a launched node (internal/realros does both)",
	{"CONTRIBUTING.md", "go test -count=1 -v -timeout 40m ./internal/realros"}:                                                             "the real-ROS suite itself (minutes)",
	{"docs/architecture.md", "make build"}:                                                                                                 "starts long-running nodes and launches",
	{"docs/docker.md", "docker build -t dnetwork .                                      # Jazzy"}:                                          "container builds need the ROS base images",
	{"docs/docker.md", "# robot 1 with the shipped parameters; recordings and ROS logs in ~/dnetwork on the host"}:                         "needs the container image; starts a long-running node",
	{"docs/fastdds.md", "sudo apt install ros-$ROS_DISTRO-rmw-cyclonedds-cpp    # once"}:                                                   "needs apt and a running node",
	{"docs/install.md", "ROS_DISTRO=jazzy   # humble on Ubuntu 22.04"}:                                                                     "needs apt and ROS's apt repository",
	{"docs/install.md", "curl -fsSLO https://go.dev/dl/go1.27.3.linux-arm64.tar.gz   # the current release (1.26 or newer) for your arch"}: "downloads Go from go.dev; root",
	{"docs/install.md", "mkdir -p ~/dnet_ws/src && cd ~/dnet_ws/src"}:                                                                      "clones from GitHub; a colcon build (internal/realros runs it)",
	{"docs/install.md", "ldd install/dnetwork/lib/dnetwork/dnetwork | grep ddsc"}:                                                          "needs a colcon workspace built against ROS's Cyclone DDS from apt",
	{"docs/install.md", `pc=$(dirname "$(find /opt/ros/$ROS_DISTRO -name CycloneDDS.pc | head -n1)")`}:                                     "needs ROS's Cyclone DDS from apt (CycloneDDS.pc)",
	{"docs/install.md", "python3 -c 'import em' || which -a python3                  # a python3 without em comes first on PATH"}:          "a diagnosis and colcon builds in a team's workspace",
	{"docs/install.md", "ros2 daemon stop                                   # the daemon of the distro sourced before"}:                    "needs ROS; stops the shared ros2 daemon of the domain",
	{"docs/install.md", "source /opt/ros/$ROS_DISTRO/setup.bash && source ~/dnet_ws/install/setup.bash"}:                                   "needs a colcon workspace; starts a long-running node",
	{"docs/install.md", "ros2 launch dnetwork team_sim.launch.py robots:=3"}:                                                               "starts long-running nodes",
	{"docs/ros-interface.md", `ros2 service call /dnetwork_3/GCMessage dmsgs/srv/GCMessage "{message: 0}"   # penalise me`}:                "needs a running node (internal/realros calls the service)",
	{"docs/ros-interface.md", "sudo apt-get install -y ros-$ROS_DISTRO-rqt-robot-monitor ros-$ROS_DISTRO-diagnostic-aggregator"}:           "needs apt and a display",
	{"docs/ros-interface.md", "export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp"}:                                                              "needs a running node (internal/realros runs ros2 param)",
	{"docs/tools.md", "dnetwork decode log_*.yaml # entry, line, log_time_s, kind, host, team, then the packet"}:                           "needs a GameController log of the team's game and a node to replay to; README's block decodes the repository's log",
	{"docs/tools.md", "mkdir -p ~/.local/lib/wireshark/plugins && cp wireshark/dnetwork.lua ~/.local/lib/wireshark/plugins/"}:              "reads a game's recording (final.pcapng); README's install line runs here, and TestWiresharkDissector runs tshark with the dissector on the repository's packets",
	{"docs/tools.md", "dnetwork monitor --teams 5,12 --league spl      # then open http://127.0.0.1:8080/"}:                                "a long-running web server",
	{"docs/tools.md", "scp 'robot3:.ros/dnetwork/dnetwork_3_*.pcapng' .                   # fetch the robot's recordings"}:                 "needs a robot's recordings, tshark, Wireshark; record and replay run until stopped",
	{"docs/tools.md", "dnetwork gc-sim --teams 17,5 --dest broadcast:eth0                  # real network"}:                                "sends on a real network; runs until stopped",
	{"docs/tools.md", "/opt/simspark/run-rcssserver3d.sh &          # agents on TCP 3100 (a SimSpark install)"}:                            "needs SimSpark and ROS; long-running nodes (sim/sim3drelay's test runs them)",
}

// docFiles are the Markdown files whose shell blocks are checked.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../../README.md", "../../CONTRIBUTING.md"}, files...)
	for i, f := range files {
		files[i] = strings.TrimPrefix(f, "../../")
	}
	return files
}

// shellBlocks returns the ```sh blocks of a file (relative to the repository root),
// also those indented in a list. A block fenced as bash, shell or console is an error:
// such blocks must be ```sh so that the test sees them.
func shellBlocks(t *testing.T, file string) []docBlock {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("../..", file))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	inOther := false // inside a fenced block of another language
	indent := ""
	for i, line := range strings.Split(string(raw), "\n") {
		fence := strings.TrimLeft(line, " ")
		switch {
		case cur != nil && strings.HasPrefix(fence, "```"):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += strings.TrimPrefix(line, indent) + "\n"
		case inOther:
			inOther = !strings.HasPrefix(fence, "```")
		case fence == "```sh":
			cur = &docBlock{file: file, line: i + 1}
			indent = line[:len(line)-len(fence)]
		case fence == "```bash" || fence == "```shell" || fence == "```console" || fence == "```zsh":
			t.Errorf("%s:%d: a shell block fenced %q: fence it ```sh", file, i+1, fence)
			inOther = true
		case strings.HasPrefix(fence, "```"):
			inOther = true
		}
	}
	if cur != nil {
		t.Errorf("%s:%d: ```sh block without an end", file, cur.line)
	}
	return blocks
}

// TestDocShellBlocks keeps the docs' shell blocks true: every ```sh block of README.md,
// CONTRIBUTING.md and docs/*.md either runs here as written (docBlocksRun: in a
// directory that looks like the repository's root, with this dnetwork first on PATH,
// exit status 0 and the output holding what the doc shows) or is listed in
// docBlocksNotRun with the reason it cannot run offline. A new block in neither table
// fails, and so does a table entry without its block.
func TestDocShellBlocks(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	// The test binary runs dnetwork's main when called as "dnetwork" (TestMain).
	if err := os.Symlink(self, filepath.Join(bin, "dnetwork")); err != nil {
		t.Fatal(err)
	}
	runs := make(map[docKey]docRun)
	for k, r := range docBlocksRun {
		runs[k.norm()] = r
	}
	notRun := make(map[docKey]string)
	for k, why := range docBlocksNotRun {
		notRun[k.norm()] = why
	}
	seen := make(map[docKey]bool)
	for _, file := range docFiles(t) {
		for _, b := range shellBlocks(t, file) {
			k := b.key()
			if seen[k] {
				t.Errorf("%s:%d: two blocks begin with %q: the tables cannot tell them apart", file, b.line, k.first)
			}
			seen[k] = true
			run, runnable := runs[k]
			_, listed := notRun[k]
			switch {
			case runnable && listed:
				t.Errorf("%s:%d: block %q is in both tables", file, b.line, k.first)
			case runnable:
				t.Run(strings.ReplaceAll(file, "/", "_")+":"+k.first, func(t *testing.T) { runDocBlock(t, bin, b, run) })
			case !listed:
				t.Errorf("%s:%d: new shell block %q: make it run in docBlocksRun, or give the reason it cannot run offline in docBlocksNotRun (cmd/dnetwork/docs_test.go)", file, b.line, k.first)
			}
		}
	}
	for _, table := range []map[docKey]bool{docKeys(runs), docKeys(notRun)} {
		for k := range table {
			if !seen[k] {
				t.Errorf("%s has no shell block beginning with %q: update the table", k.file, k.first)
			}
		}
	}
}

func docKeys[V any](m map[docKey]V) map[docKey]bool {
	out := make(map[docKey]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// runDocBlock runs a block with bash (-e, pipefail) in a fresh directory whose
// entries link to the repository's top level, with bin first on PATH, for at most
// a minute. It uses no network.
func runDocBlock(t *testing.T, bin string, b docBlock, run docRun) {
	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if run.setup != nil {
		run.setup(t, dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/bash", "-e", "-o", "pipefail", "-c", b.text)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s:%d: the block fails (%v):\n%s\nstderr:\n%s", b.file, b.line, err, b.text, docTail(stderr.String()))
	}
	for _, w := range run.want {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("%s:%d: the output lacks %q:\n%s", b.file, b.line, w, docTail(stdout.String()))
		}
	}
	if run.check != nil {
		run.check(t, dir)
	}
}

// dissectorInstalled checks that the install line put the repository's dissector
// where Wireshark looks for a user's plugins.
func dissectorInstalled(t *testing.T, home string) {
	got, err := os.ReadFile(filepath.Join(home, ".local/lib/wireshark/plugins/dnetwork.lua"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../wireshark/dnetwork.lua")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("the installed dissector differs from wireshark/dnetwork.lua")
	}
}

func docTail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
