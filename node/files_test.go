package node

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/node/team"
)

// repoRoot is the repository root, where params/ and launch/ live.
const repoRoot = ".."

// TestRobotParamFiles loads every params/robot<N>.yaml through the node's declarations:
// every key is a parameter of the node (no error, no warning), the file names robot N,
// and the node is called dnetwork_<N>.
func TestRobotParamFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "params", "robot*.yaml"))
	if err != nil || len(files) < 5 {
		t.Fatalf("robot parameter files: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var id int
			if _, err := fmt.Sscanf(filepath.Base(f), "robot%d.yaml", &id); err != nil {
				t.Fatal(err)
			}
			st := mustLoad(t, "--params-file", f)
			if len(st.Warnings) > 0 {
				t.Errorf("warnings: %q", st.Warnings)
			}
			if st.Name != NodeName(id) || st.Config.RobotID != id {
				t.Errorf("node %s robot %d, want %s robot %d", st.Name, st.Config.RobotID, NodeName(id), id)
			}
			// Every parameter the file sets is one the node has, and the file documents
			// each of them with a comment.
			if used := len(st.Store.Names()); used < 30 {
				t.Errorf("only %d parameters declared", used)
			}
			checkCommented(t, f)
		})
	}
}

// TestSimParamFile loads params/sim_robot.yaml with the per-robot values the team
// simulation launch adds.
func TestSimParamFile(t *testing.T) {
	f := filepath.Join(repoRoot, "params", "sim_robot.yaml")
	st := mustLoad(t, "--params-file", f, "-p", "robot_id:=2", "-p", "team.port:=10102",
		"-p", "team.peers:=[127.0.0.1:10101, 127.0.0.1:10103]")
	if len(st.Warnings) > 0 {
		t.Errorf("warnings: %q", st.Warnings)
	}
	c := st.Config
	if st.Name != "dnetwork_2" || c.Interface != "lo" || c.Team.Port != 10102 || len(c.Team.Peers) != 2 ||
		c.Team.Format != team.FormatDNet || len(c.Team.AuthKey) == 0 || len(c.GameController.AllowFrom) != 1 {
		t.Errorf("sim robot 2: %s %+v", st.Name, c)
	}
	checkCommented(t, f)
}

// checkCommented checks that every parameter line of a YAML file follows a comment line
// or a line of the same block (several values explained by one comment).
func checkCommented(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	explained := false
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case trim == "":
			explained = false
		case strings.HasPrefix(trim, "#"):
			explained = true
		case strings.HasSuffix(trim, ":"):
			// a map key (node, ros__parameters or a group): the comment may come below it
		default:
			if !explained {
				t.Errorf("%s:%d: %q has no comment", path, i+1, trim)
			}
		}
	}
}

// launchNode is a node as launch/testdata/render.py prints it.
type launchNode struct {
	OnExit     map[string]string `json:"on_exit"` // exit code -> what on_exit does
	Package    string            `json:"package"`
	Executable string            `json:"executable"`
	Name       string            `json:"name"`
	Namespace  *string           `json:"namespace"`
	Arguments  []string          `json:"arguments"`
	Parameters []json.RawMessage `json:"parameters"`
}

// renderLaunch evaluates a launch file with the stand-in launch packages of
// launch/testdata and returns the nodes it starts.
func renderLaunch(t *testing.T, file string, args ...string) []launchNode {
	t.Helper()
	out, err := renderCmd(t, file, args...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("render %s %q: %v\n%s", file, args, err, msg)
	}
	var nodes []launchNode
	if err := json.Unmarshal(out, &nodes); err != nil {
		t.Fatalf("render %s: %v\n%s", file, err, out)
	}
	return nodes
}

// launchArgs turns a rendered node's parameters into the ROS arguments launch_ros gives
// the executable: its parameter files, then a file for the parameters given as a
// dictionary (under "/**", as launch_ros writes it when the namespace is not given).
func launchArgs(t *testing.T, n launchNode) []string {
	t.Helper()
	var args []string
	for i, raw := range n.Parameters {
		var p struct {
			File   string         `json:"file"`
			Values map[string]any `json:"values"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if p.File != "" {
			args = append(args, "--params-file", p.File)
			continue
		}
		var sb strings.Builder
		sb.WriteString("/**:\n  ros__parameters:\n")
		keys := make([]string, 0, len(p.Values))
		for k := range p.Values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v, err := json.Marshal(p.Values[k]) // JSON scalars and lists are YAML flow values
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "    %s: %s\n", k, v)
		}
		args = append(args, "--params-file", writeFile(t, t.TempDir(), fmt.Sprintf("launch_params_%d", i), sb.String()))
	}
	return append(args, "-r", "__node:="+n.Name)
}

func TestLaunchFilesCompile(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	files, _ := filepath.Glob(filepath.Join(repoRoot, "launch", "*.launch.py"))
	if len(files) < 2 {
		t.Fatalf("launch files: %v", files)
	}
	for _, f := range files {
		// compile() checks the syntax without writing __pycache__ into the tree.
		out, err := exec.Command(py, "-B", "-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')", f).CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
}

// TestLaunchRobot evaluates launch/dnetwork.launch.py and starts the node it describes
// as far as the parameters go.
func TestLaunchRobot(t *testing.T) {
	for _, id := range []int{1, 3, 5} {
		nodes := renderLaunch(t, "dnetwork.launch.py", fmt.Sprintf("robot_id:=%d", id))
		if len(nodes) != 1 {
			t.Fatalf("robot %d: %d nodes", id, len(nodes))
		}
		n := nodes[0]
		if n.Package != "dnetwork" || n.Executable != "dnetwork" || n.Name != NodeName(id) ||
			!slices.Equal(n.Arguments, []string{"node"}) || n.Namespace != nil {
			t.Errorf("robot %d: %+v", id, n)
		}
		st := mustLoad(t, launchArgs(t, n)...)
		if st.Name != NodeName(id) || st.Config.RobotID != id || len(st.Warnings) > 0 {
			t.Errorf("robot %d: node %s robot %d warnings %q", id, st.Name, st.Config.RobotID, st.Warnings)
		}
	}
	// An explicit parameter file, and a robot_id that overrides the file's.
	nodes := renderLaunch(t, "dnetwork.launch.py", "robot_id:=4", "params_file:="+filepath.Join(repoRoot, "params", "sim_robot.yaml"))
	st := mustLoad(t, launchArgs(t, nodes[0])...)
	if st.Config.RobotID != 4 || st.Config.Interface != "lo" {
		t.Errorf("sim parameters for robot 4: %+v", st.Config)
	}
	for bad, want := range map[string]string{
		"robot_id:=0":  "robot_id must be 1..20",
		"robot_id:=21": "robot_id must be 1..20",
		"robot_id:=x":  "robot_id must be 1..20",
		// No params/robot6.yaml in the package.
		"robot_id:=6": "FileNotFoundError: robot_id:=6 has no parameter file: " + filepath.Join(mustAbs(t, repoRoot), "params", "robot6.yaml") +
			" does not exist; copy a robot's file, set robot_id: 6 and name its section dnetwork_6 (or /**), and give it with params_file:=PATH",
		"params_file:=/nonexistent/robot.yaml": "FileNotFoundError: params_file:=/nonexistent/robot.yaml does not exist",
	} {
		if out := renderLaunchFails(t, "dnetwork.launch.py", bad); !strings.Contains(out, want) {
			t.Errorf("%s: want %q in\n%s", bad, want, out)
		}
	}
	// A node that exits with an error ends the launch with an error; a clean exit does not.
	for code, want := range map[string]string{
		"0":  "continue",
		"1":  "RuntimeError: dnetwork_3 exited with code 1 (it failed; its messages are above): ending the launch with an error",
		"2":  "RuntimeError: dnetwork_3 exited with code 2 (bad parameters or arguments; its messages are above): ending the launch with an error",
		"-9": "RuntimeError: dnetwork_3 exited with code -9 (killed by signal 9; its messages are above): ending the launch with an error",
	} {
		if got := renderLaunch(t, "dnetwork.launch.py", "robot_id:=3")[0].OnExit[code]; got != want {
			t.Errorf("exit code %s: on_exit %q, want %q", code, got, want)
		}
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// renderLaunchFails evaluates a launch file that must refuse its arguments and returns
// what it printed.
func renderLaunchFails(t *testing.T, file string, args ...string) string {
	t.Helper()
	out, err := renderCmd(t, file, args...).CombinedOutput()
	if err == nil {
		t.Errorf("%s %q: no error\n%s", file, args, out)
	}
	return string(out)
}

// renderCmd is the command that evaluates a launch file with launch/testdata/render.py.
func renderCmd(t *testing.T, file string, args ...string) *exec.Cmd {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	root := mustAbs(t, repoRoot)
	cmd := exec.Command(py, append([]string{"-B", filepath.Join(root, "launch", "testdata", "render.py"),
		filepath.Join(root, "launch", file), root}, args...)...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	return cmd
}

// TestLaunchTeamSim evaluates launch/team_sim.launch.py: every robot's parameters load,
// the team ports are distinct and every robot sends to all the others.
func TestLaunchTeamSim(t *testing.T) {
	nodes := renderLaunch(t, "team_sim.launch.py", "robots:=4")
	if len(nodes) != 4 {
		t.Fatalf("%d nodes, want 4", len(nodes))
	}
	ports, gcPorts := map[uint16]int{}, map[uint16]int{}
	for i, n := range nodes {
		st := mustLoad(t, launchArgs(t, n)...)
		c := st.Config
		if st.Name != NodeName(i+1) || c.RobotID != i+1 || c.Interface != "lo" || len(st.Warnings) > 0 {
			t.Errorf("robot %d: %s %+v %q", i+1, st.Name, c, st.Warnings)
		}
		ports[c.Team.Port] = c.RobotID
		gcPorts[c.GameControllerPort] = c.RobotID
		if c.GameControllerPort != uint16(3837+c.RobotID) {
			t.Errorf("robot %d GameController port %d", c.RobotID, c.GameControllerPort)
		}
		if len(c.Team.Peers) != 3 {
			t.Errorf("robot %d peers %v", c.RobotID, c.Team.Peers)
		}
		for _, p := range c.Team.Peers {
			if p.Port() == c.Team.Port || !p.Addr().IsLoopback() {
				t.Errorf("robot %d sends to %v", c.RobotID, p)
			}
		}
	}
	if len(ports) != 4 || len(gcPorts) != 4 {
		t.Errorf("team ports %v or GameController ports %v not distinct", ports, gcPorts)
	}
	if one := renderLaunch(t, "team_sim.launch.py", "robots:=1"); len(one) != 1 {
		t.Errorf("one robot: %d nodes", len(one))
	} else if st := mustLoad(t, launchArgs(t, one[0])...); len(st.Config.Team.Peers) != 0 {
		t.Errorf("a lone robot has peers %v", st.Config.Team.Peers)
	}
	for i, n := range nodes {
		want := fmt.Sprintf("RuntimeError: dnetwork_%d exited with code 2 (bad parameters or arguments; its messages are above): ending the launch with an error", i+1)
		if n.OnExit["0"] != "continue" || n.OnExit["2"] != want {
			t.Errorf("robot %d on_exit %q", i+1, n.OnExit)
		}
	}
	if out := renderLaunchFails(t, "team_sim.launch.py", "params_file:=/nonexistent/sim.yaml"); !strings.Contains(out,
		"FileNotFoundError: params_file:=/nonexistent/sim.yaml does not exist") {
		t.Errorf("missing params_file:\n%s", out)
	}
}
