package node

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// robotFile is a robot's parameter file with its section key and robot_id.
func robotFile(section, robotID string) string {
	return section + ":\n  ros__parameters:\n    robot_id: " + robotID + "\n    team_number: 17\n    interface: lo\n"
}

// TestSectionMistakes: the usual first mistakes with a copied robot file get an error
// that names the file, the section found, the one needed and the value.
func TestSectionMistakes(t *testing.T) {
	dir := t.TempDir()
	robot7 := writeFile(t, dir, "robot7.yaml", robotFile("dnetwork_3", "7"))
	robot3 := writeFile(t, dir, "robot3.yaml", robotFile("dnetwork_3", "3"))
	far := writeFile(t, dir, "far.yaml", robotFile("dnetwork_3", "25"))
	farAll := writeFile(t, dir, "far_all.yaml", robotFile("/**", "25"))
	word := writeFile(t, dir, "word.yaml", robotFile("dnetwork_3", "seven"))
	plain := writeFile(t, dir, "plain.yaml", robotFile("dnetwork", "3"))
	// What launch_ros writes for parameters=[{"robot_id": 4}] of the node dnetwork_4.
	launch := writeFile(t, dir, "launch_params_x", "/**:\n  ros__parameters:\n    robot_id: 4\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string // the error, one line each
		kind error
	}{
		{"copied file, section not renamed", []string{"--params-file", robot7},
			[]string{robot7 + ": section dnetwork_3 sets robot_id 7; name it dnetwork_7 or use /**"}, ErrRobotID},
		{"robot_id out of range in a section", []string{"--params-file", far},
			[]string{far + ": section dnetwork_3 sets robot_id 25; robot_id is a player number 1..20"}, ErrRobotID},
		{"robot_id not a number in a section", []string{"--params-file", word},
			[]string{word + `: section dnetwork_3 sets robot_id "seven"; robot_id is a player number 1..20`}, ErrRobotID},
		{"robot_id out of range under /**", []string{"--params-file", farAll},
			[]string{farAll + ": /**.ros__parameters.robot_id: integer 25 is not in the range [1, 20] with step 1"}, params.ErrOutOfRange},
		{"section without the robot's number", []string{"--params-file", plain},
			[]string{plain + ": section dnetwork sets robot_id 3; name it dnetwork_3 or use /**"}, ErrRobotID},
		{"node-prefixed rule", []string{"-p", "dnetwork_3:robot_id:=7", "-p", "team_number:=17"},
			[]string{"-p dnetwork_3:robot_id:=7 sets robot_id 7 for node dnetwork_3 only; leave out the node prefix"}, ErrRobotID},
		{"namespace", []string{"-r", "__ns:=/team", "--params-file", robot7},
			[]string{robot7 + ": section dnetwork_3 sets robot_id 7; name it /team/dnetwork_7 or use /**"}, ErrRobotID},
		{"launch robot_id:=4 params_file:=robot3.yaml", []string{"--params-file", robot3, "--params-file", launch, "-r", "__node:=dnetwork_4"},
			[]string{robot3 + ": no section for this node /dnetwork_4 (sections: dnetwork_3 with robot_id 3), so none of its parameters apply; name the section dnetwork_4 or use /**"},
			ErrSection},
		{"launch robot_id:=7 with the copied file", []string{"--params-file", robot7, "--params-file", writeFile(t, dir, "launch7", "/**:\n  ros__parameters: {robot_id: 7}\n"), "-r", "__node:=dnetwork_7"},
			[]string{robot7 + ": no section for this node /dnetwork_7 (sections: dnetwork_3 with robot_id 7), so none of its parameters apply; name the section dnetwork_7 or use /**"},
			ErrSection},
		// team_number is required and the file does not set it: that is a second mistake.
		{"launch robot_id:=7, file without team_number", []string{"--params-file", writeFile(t, dir, "robot7_no_team.yaml", "dnetwork_3:\n  ros__parameters:\n    robot_id: 7\n"),
			"--params-file", writeFile(t, dir, "launch7b", "/**:\n  ros__parameters: {robot_id: 7}\n"), "-r", "__node:=dnetwork_7"},
			[]string{
				dir + "/robot7_no_team.yaml: no section for this node /dnetwork_7 (sections: dnetwork_3 with robot_id 7), so none of its parameters apply; name the section dnetwork_7 or use /**",
				"parameter 'team_number': required, set it in the parameter file or with -p team_number:=<1..254>",
			}, ErrSection},
		{"robot file of another robot, the rest given by -p", []string{"--params-file", robot3, "-p", "robot_id:=4", "-p", "team_number:=17"},
			[]string{robot3 + ": no section for this node /dnetwork_4 (sections: dnetwork_3 with robot_id 3), so none of its parameters apply; name the section dnetwork_4 or use /**"}, ErrSection},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("error\n got %q\nwant %q", got, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error does not match %v", tc.kind)
			}
		})
	}

	// A file for other nodes only (a team's shared file given to every node) is
	// ignored with a warning, as rclcpp ignores it.
	others := writeFile(t, dir, "others.yaml", "vision:\n  ros__parameters:\n    fps: 30\n")
	st := mustLoad(t, "--params-file", others, "--params-file", robot3)
	if st.Name != "dnetwork_3" || len(st.Warnings) != 1 ||
		st.Warnings[0] != others+": no section for this node /dnetwork_3 (sections: vision), so none of its parameters apply" {
		t.Errorf("node %s, warnings %q", st.Name, st.Warnings)
	}
	// An empty file has no sections to complain about.
	st = mustLoad(t, "--params-file", writeFile(t, dir, "empty.yaml", "# nothing yet\n"), "--params-file", robot3)
	if len(st.Warnings) != 0 {
		t.Errorf("empty file: warnings %q", st.Warnings)
	}
	// The shipped robot files work under their own number, and a copy under /** works
	// for any robot.
	st = mustLoad(t, "--params-file", filepath.Join(repoRoot, "params", "robot3.yaml"))
	if st.Name != "dnetwork_3" {
		t.Errorf("params/robot3.yaml: node %s", st.Name)
	}
	st = mustLoad(t, "--params-file", writeFile(t, dir, "any.yaml", robotFile("/**", "7")))
	if st.Name != "dnetwork_7" || st.Config.RobotID != 7 {
		t.Errorf("/** robot 7: node %s robot %d", st.Name, st.Config.RobotID)
	}
}
