//go:build cgo

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
)

// childArgsEnv carries the command line of a child process started by startChild, as a
// JSON array.
const childArgsEnv = "DNETWORK_TEST_CHILD_ARGS"

// TestNodeChild is not a test of its own: started by startChild in a child process, it
// runs dnetwork's main path (signal context, dispatch, exit status) with the given
// arguments.
func TestNodeChild(t *testing.T) {
	args, ok := os.LookupEnv(childArgsEnv)
	if !ok {
		t.Skip("runs only as a child process of TestNodeSignals")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		t.Fatal(err)
	}
	code := dispatch(ctx, argv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

var loopbackCyclone = ddsconfig.Loopback(30, false)

type child struct {
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
	done   chan error
}

// startChild runs "dnetwork args..." in a child process with the loopback DDS setup,
// in the test's ROS domain.
func startChild(t *testing.T, uri string, domain int, args ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNodeChild$")
	argv, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(argv),
		"CYCLONEDDS_URI="+uri, "ROS_DOMAIN_ID="+strconv.Itoa(domain),
		"ROS_LOCALHOST_ONLY=", "ROS_AUTOMATIC_DISCOVERY_RANGE=", "ROS_STATIC_PEERS=")
	c := &child{cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	cmd.Stdout = io.Discard
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// stop sends sig and returns the exit status.
func (c *child) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-c.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(10 * time.Second):
		t.Fatalf("no exit 10 s after %v; stderr:\n%s", sig, c.stderr.String())
		return -1
	}
}

func freeUDPPort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port)
}

// TestNodeSignals starts the node as a process, the way ros2 run and launch do (with
// the "node" command, and with nothing but ROS arguments), waits until its GCInfo
// reaches a ROS subscriber, stops it with SIGTERM or SIGINT and expects exit status 0.
func TestNodeSignals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cyclonedds.xml")
	if err := os.WriteFile(path, []byte(loopbackCyclone), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + path
	domain := rosdomain.Take(t) // the tester's and the node processes'
	env := map[string]string{"CYCLONEDDS_URI": uri, "ROS_DOMAIN_ID": strconv.Itoa(domain)}
	tester, err := ros.NewNode(context.Background(), "tester", "/", ros.NodeOptions{
		Getenv: func(k string) string { return env[k] }, LogOutput: io.Discard, NoParameterServices: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()

	for _, tc := range []struct {
		name string
		id   string
		sig  os.Signal
		args []string
	}{
		{"node command, SIGTERM", "6", syscall.SIGTERM, []string{"node", "--ros-args"}},
		{"ROS arguments only, SIGINT", "7", os.Interrupt, []string{"--ros-args", "-r", "__node:=dnetwork_7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan *dmsgs.GCInfo, 1)
			sub, err := ros.NewSubscription(tester, "/dnetwork_"+tc.id+"/GCInfo", ros.QoSDefault, func(m *dmsgs.GCInfo) {
				select {
				case got <- m:
				default:
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			args := append(tc.args, "-p", "robot_id:="+tc.id, "-p", "team_number:=17", "-p", "interface:=lo",
				"-p", "team.auth_key:=process-team-secret",
				"-p", "team.port:="+freeUDPPort(t), "-p", "gamecontroller.port:="+freeUDPPort(t),
				"-p", "gamecontroller.publish_rate:=10.0")
			c := startChild(t, uri, domain, args...)
			select {
			case m := <-got:
				if m.Connected || m.MessageBudget != -1 {
					t.Errorf("GCInfo %+v", m)
				}
			case err := <-c.done:
				t.Fatalf("node exited (%v):\n%s", err, c.stderr.String())
			case <-time.After(15 * time.Second):
				t.Fatalf("no GCInfo within 15 s; stderr:\n%s", c.stderr.String())
			}
			// What "ros2 param describe /dnetwork_<id> team.port league" asks.
			cl, err := ros.NewClient[rcl_interfaces.DescribeParameters_Request, rcl_interfaces.DescribeParameters_Response](
				tester, "/dnetwork_"+tc.id+"/describe_parameters", ros.QoSParameters)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer ccancel()
			if err := cl.WaitForService(cctx); err != nil {
				t.Fatal(err)
			}
			resp, err := cl.Call(cctx, &rcl_interfaces.DescribeParameters_Request{Names: []string{"team.port", "league"}})
			if err != nil {
				t.Fatal(err)
			}
			if d := resp.Descriptors; len(d) != 2 || d[0].Type != 2 || !d[0].ReadOnly || len(d[0].IntegerRange) != 1 ||
				d[0].IntegerRange[0].ToValue != 65535 || !strings.Contains(d[0].Description, "10000 + team_number") ||
				d[1].Type != 4 || d[1].AdditionalConstraints != "hsl, spl or hl" {
				t.Errorf("descriptors %+v", d)
			}
			// What "ros2 param get /dnetwork_<id> team.auth_key" asks: the key stays hidden.
			gcl, err := ros.NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](
				tester, "/dnetwork_"+tc.id+"/get_parameters", ros.QoSParameters)
			if err != nil {
				t.Fatal(err)
			}
			defer gcl.Close()
			if err := gcl.WaitForService(cctx); err != nil {
				t.Fatal(err)
			}
			vals, err := gcl.Call(cctx, &rcl_interfaces.GetParameters_Request{Names: []string{"team.auth_key", "team.auth_key_file"}})
			if err != nil {
				t.Fatal(err)
			}
			if v := vals.Values; len(v) != 2 || v[0].Type != 4 || v[0].StringValue != "<hidden>" || v[1].Type != 4 || v[1].StringValue != "" {
				t.Errorf("team.auth_key and team.auth_key_file read as %+v", v)
			}
			if code := c.stop(t, tc.sig); code != 0 {
				t.Errorf("exit status %d after %v; stderr:\n%s", code, tc.sig, c.stderr.String())
			}
			log := c.stderr.String()
			for _, want := range []string{"[dnetwork_" + tc.id + "]: robot " + tc.id + " of team 17", "[dnetwork_" + tc.id + "]: stopped",
				" monitor=off authenticated=true\n", "socket up worker=team interface=lo on=\"lo (index "} {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
			for _, bad := range []string{"invalid AddrPort", "any interface", "=any", "process-team-secret"} {
				if strings.Contains(log, bad) {
					t.Errorf("log shows %q:\n%s", bad, log)
				}
			}
		})
	}
}

// TestNodeStartupErrors runs the node process with the usual first mistakes in its
// parameters: each ends at once with exit status 2 and one clear message that names
// the file and what to change.
func TestNodeStartupErrors(t *testing.T) {
	domain := rosdomain.Take(t)
	dir := t.TempDir()
	robot3, err := os.ReadFile(filepath.Join("..", "..", "params", "robot3.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lines := strings.Split(string(robot3), "\n")
	format, enabled := slices.Index(lines, "      format: dnet"), slices.Index(lines, "      enabled: true")
	if format < 0 || enabled < 0 {
		t.Fatal("params/robot3.yaml has no team.format or team.enabled line")
	}
	lines[format] = "  " + lines[format] // indented deeper than its map
	copied := write("robot7.yaml", strings.Replace(string(robot3), "robot_id: 3", "robot_id: 7", 1), 0o644)
	far := write("far.yaml", strings.Replace(string(robot3), "robot_id: 3", "robot_id: 25", 1), 0o644)
	indented := write("indented.yaml", strings.Join(lines, "\n"), 0o644)
	launch4 := write("launch_params_4", "/**:\n  ros__parameters:\n    robot_id: 4\n", 0o644)
	openKey := write("team.key", "secret\n", 0o644)
	dumped := write("dump.yaml", "/dnetwork_3:\n  ros__parameters:\n    robot_id: 3\n    team_number: 17\n    team:\n      auth_key: <hidden>\n", 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"copied robot file", []string{"--params-file", copied},
			copied + ": section dnetwork_3 sets robot_id 7; name it dnetwork_7 or use /**"},
		{"robot_id out of range", []string{"--params-file", far},
			far + ": section dnetwork_3 sets robot_id 25; robot_id is a player number 1..20"},
		{"launch robot_id:=4 params_file:=robot3.yaml", []string{"--params-file", filepath.Join("..", "..", "params", "robot3.yaml"), "--params-file", launch4, "-r", "__node:=dnetwork_4"},
			"robot3.yaml: no section for this node /dnetwork_4 (sections: dnetwork_3 with robot_id 3), so none of its parameters apply; name the section dnetwork_4 or use /**"},
		{"YAML indentation", []string{"--params-file", indented},
			fmt.Sprintf("%s: line %d, column 9: did not find expected key (while parsing a block mapping that starts on line %d, column 7; is line %[2]d indented like the keys above it?)",
				indented, format+1, enabled+1)},
		{"key file others can read", []string{"--params-file", filepath.Join("..", "..", "params", "robot3.yaml"), "-p", "team.auth_key_file:=" + openKey},
			openKey + " can be read or changed by other users (mode 0644); chmod 600 " + openKey},
		{"dump with a hidden key", []string{"--params-file", dumped}, `"<hidden>" stands for a key that ros2 param get and dump do not show`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startChild(t, "", domain, append([]string{"node", "--ros-args"}, tc.args...)...)
			var code int
			select {
			case err := <-c.done:
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("still running after 20 s:\n%s", c.stderr.String())
			}
			out := c.stderr.String()
			if code != exitUsage || !strings.HasPrefix(out, "dnetwork node: bad parameters:\n") || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and the line\n  %s", code, out, tc.want)
			}
			// Every file sets team_number: a line saying it is required would be wrong.
			if strings.Contains(out, "'team_number': required") {
				t.Errorf("stderr says team_number is required:\n%s", out)
			}
		})
	}
}
