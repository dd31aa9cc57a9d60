//go:build cgo

package ros

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// call makes one service call from node c to the node's service srv and fails the
// test on error.
func call[Req, Resp any, PReq cdr.PtrMessage[Req], PResp cdr.PtrMessage[Resp]](t *testing.T, c *Node, srv string, req *Req) *Resp {
	t.Helper()
	cl, err := NewClient[Req, Resp, PReq, PResp](c, srv, QoSParameters)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.WaitForService(ctx); err != nil {
		t.Fatal(err)
	}
	resp, err := cl.Call(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestParameterServices(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	dir := t.TempDir()
	file := filepath.Join(dir, "robot1.yaml")
	if err := os.WriteFile(file, []byte("robot1:\n  dnetwork:\n    ros__parameters:\n      team_id: 9\n      net:\n        port: 0x0EF6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := newTestNode(t, env, "dnetwork", "/robot1", "--ros-args", "--params-file", file, "-p", "robot_name:=beta")
	ps := n.Params()
	decl := func(name string, def params.Value, d params.Descriptor) params.Value {
		t.Helper()
		v, err := ps.Declare(name, def, d)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := decl("team_id", params.Integer(7), params.Descriptor{Description: "team number", IntegerRange: &params.IntegerRange{From: 1, To: 99}}); v.IntegerValue != 9 {
		t.Errorf("team_id from the params file = %v", v)
	}
	if v := decl("robot_name", params.String("alpha"), params.Descriptor{ReadOnly: true}); v.StringValue != "beta" {
		t.Errorf("robot_name from -p = %v", v)
	}
	if v := decl("net.port", params.Integer(3838), params.Descriptor{}); v.IntegerValue != 3830 {
		t.Errorf("net.port = %v", v)
	}
	decl("net.peers", params.StringArray([]string{"10.0.0.2"}), params.Descriptor{})
	client := newTestNode(t, env, "ros2cli", "/")
	const ns = "/robot1/dnetwork/"

	t.Run("get_parameters", func(t *testing.T) {
		r := call[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](t, client, ns+"get_parameters",
			&rcl_interfaces.GetParameters_Request{Names: []string{"team_id", "robot_name", "use_sim_time", "net.peers"}})
		want := []rcl_interfaces.ParameterValue{
			{Type: rcl_interfaces.ParameterTypeParameterInteger, IntegerValue: 9},
			{Type: rcl_interfaces.ParameterTypeParameterString, StringValue: "beta"},
			{Type: rcl_interfaces.ParameterTypeParameterBool},
			{Type: rcl_interfaces.ParameterTypeParameterStringArray, StringArrayValue: []string{"10.0.0.2"}},
		}
		if !reflect.DeepEqual(r.Values, want) {
			t.Errorf("values %+v", r.Values)
		}
		// An undeclared name gives an empty answer, as rclcpp does.
		r = call[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](t, client, ns+"get_parameters",
			&rcl_interfaces.GetParameters_Request{Names: []string{"team_id", "no_such"}})
		if len(r.Values) != 0 {
			t.Errorf("values for an undeclared name: %+v", r.Values)
		}
	})
	t.Run("get_parameter_types", func(t *testing.T) {
		r := call[rcl_interfaces.GetParameterTypes_Request, rcl_interfaces.GetParameterTypes_Response](t, client, ns+"get_parameter_types",
			&rcl_interfaces.GetParameterTypes_Request{Names: []string{"team_id", "robot_name", "net.peers"}})
		if !slices.Equal(r.Types, []uint8{2, 4, 9}) {
			t.Errorf("types %v", r.Types)
		}
	})
	t.Run("set_parameters", func(t *testing.T) {
		r := call[rcl_interfaces.SetParameters_Request, rcl_interfaces.SetParameters_Response](t, client, ns+"set_parameters",
			&rcl_interfaces.SetParameters_Request{Parameters: []rcl_interfaces.Parameter{
				{Name: "team_id", Value: rcl_interfaces.ParameterValue{Type: 2, IntegerValue: 12}},
				{Name: "team_id", Value: rcl_interfaces.ParameterValue{Type: 4, StringValue: "twelve"}},
				{Name: "team_id", Value: rcl_interfaces.ParameterValue{Type: 2, IntegerValue: 100}},
				{Name: "robot_name", Value: rcl_interfaces.ParameterValue{Type: 4, StringValue: "gamma"}},
				{Name: "no_such", Value: rcl_interfaces.ParameterValue{Type: 1}},
			}})
		ok := []bool{true, false, false, false, false}
		if len(r.Results) != len(ok) {
			t.Fatalf("results %+v", r.Results)
		}
		for i, res := range r.Results {
			if res.Successful != ok[i] || !res.Successful && res.Reason == "" {
				t.Errorf("result %d: %+v", i, res)
			}
		}
		if v, _ := ps.GetInteger("team_id"); v != 12 {
			t.Errorf("team_id after set = %d", v)
		}
	})
	t.Run("set_parameters_atomically", func(t *testing.T) {
		r := call[rcl_interfaces.SetParametersAtomically_Request, rcl_interfaces.SetParametersAtomically_Response](t, client, ns+"set_parameters_atomically",
			&rcl_interfaces.SetParametersAtomically_Request{Parameters: []rcl_interfaces.Parameter{
				{Name: "team_id", Value: rcl_interfaces.ParameterValue{Type: 2, IntegerValue: 13}},
				{Name: "net.port", Value: rcl_interfaces.ParameterValue{Type: 3, DoubleValue: 1}}, // wrong type: nothing is set
			}})
		if r.Result.Successful || r.Result.Reason == "" {
			t.Errorf("result %+v", r.Result)
		}
		if v, _ := ps.GetInteger("team_id"); v != 12 {
			t.Errorf("team_id after a failed atomic set = %d", v)
		}
		// An empty list fails, as in rclcpp 28 (Jazzy).
		r = call[rcl_interfaces.SetParametersAtomically_Request, rcl_interfaces.SetParametersAtomically_Response](t, client, ns+"set_parameters_atomically",
			&rcl_interfaces.SetParametersAtomically_Request{})
		if r.Result.Successful || r.Result.Reason == "" {
			t.Errorf("empty atomic set: %+v", r.Result)
		}
	})
	t.Run("describe_parameters", func(t *testing.T) {
		r := call[rcl_interfaces.DescribeParameters_Request, rcl_interfaces.DescribeParameters_Response](t, client, ns+"describe_parameters",
			&rcl_interfaces.DescribeParameters_Request{Names: []string{"team_id", "robot_name"}})
		if len(r.Descriptors) != 2 {
			t.Fatalf("descriptors %+v", r.Descriptors)
		}
		d := r.Descriptors[0]
		if d.Name != "team_id" || d.Type != 2 || d.Description != "team number" || len(d.IntegerRange) != 1 || d.IntegerRange[0].ToValue != 99 {
			t.Errorf("team_id descriptor %+v", d)
		}
		if !r.Descriptors[1].ReadOnly {
			t.Errorf("robot_name descriptor %+v", r.Descriptors[1])
		}
	})
	t.Run("list_parameters", func(t *testing.T) {
		r := call[rcl_interfaces.ListParameters_Request, rcl_interfaces.ListParameters_Response](t, client, ns+"list_parameters",
			&rcl_interfaces.ListParameters_Request{})
		want := []string{"net.peers", "net.port", "robot_name", "team_id", "use_sim_time"}
		if !slices.Equal(r.Result.Names, want) || !slices.Equal(r.Result.Prefixes, []string{"net"}) {
			t.Errorf("list %+v", r.Result)
		}
		r = call[rcl_interfaces.ListParameters_Request, rcl_interfaces.ListParameters_Response](t, client, ns+"list_parameters",
			&rcl_interfaces.ListParameters_Request{Prefixes: []string{"net"}, Depth: 1})
		if !slices.Equal(r.Result.Names, []string{"net.peers", "net.port"}) {
			t.Errorf("list net %+v", r.Result)
		}
	})
}

// TestParameterServicesHumble checks that a node of ROS_DISTRO=humble answers as
// rclcpp 16 where it differs from later releases: list_parameters counts the dot
// after a prefix against the depth, and an empty atomic set succeeds
// (params.TestListReleases has the whole table).
func TestParameterServicesHumble(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "humble")
	n := newTestNode(t, env, "dnetwork", "/robot1")
	for _, name := range []string{"net.port", "net.peers", "net.tx.rate"} {
		if _, err := n.Params().Declare(name, params.Integer(1), params.Descriptor{}); err != nil {
			t.Fatal(err)
		}
	}
	client := newTestNode(t, env, "ros2cli", "/")
	const ns = "/robot1/dnetwork/"
	for _, tc := range []struct {
		depth           uint64
		names, prefixes []string
	}{
		{1, nil, nil},
		{2, []string{"net.peers", "net.port"}, []string{"net"}},
		{3, []string{"net.peers", "net.port", "net.tx.rate"}, []string{"net", "net.tx"}},
	} {
		r := call[rcl_interfaces.ListParameters_Request, rcl_interfaces.ListParameters_Response](t, client, ns+"list_parameters",
			&rcl_interfaces.ListParameters_Request{Prefixes: []string{"net"}, Depth: tc.depth})
		if !slices.Equal(r.Result.Names, tc.names) || !slices.Equal(r.Result.Prefixes, tc.prefixes) {
			t.Errorf("list net depth %d: %+v, want %q %q", tc.depth, r.Result, tc.names, tc.prefixes)
		}
	}
	r := call[rcl_interfaces.SetParametersAtomically_Request, rcl_interfaces.SetParametersAtomically_Response](t, client, ns+"set_parameters_atomically",
		&rcl_interfaces.SetParametersAtomically_Request{})
	if !r.Result.Successful {
		t.Errorf("empty atomic set: %+v", r.Result)
	}
}

func TestParameterEvents(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	n := newTestNode(t, env, "dnetwork", "/robot1")
	listener := newTestNode(t, env, "listener", "/")
	events := make(chan *rcl_interfaces.ParameterEvent, 10)
	sub, err := NewSubscription(listener, "/parameter_events", QoSParameterEvents, func(m *rcl_interfaces.ParameterEvent) {
		if m.Node == "/robot1/dnetwork" {
			events <- m
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "parameter_events matched", func() error {
		if c, _ := sub.PublisherCount(); c < 2 { // both nodes publish parameter events
			return fmt.Errorf("%d publishers", c)
		}
		return nil
	})
	next := func() *rcl_interfaces.ParameterEvent {
		t.Helper()
		select {
		case e := <-events:
			return e
		case <-time.After(10 * time.Second):
			t.Fatal("no parameter event")
			return nil
		}
	}
	before := time.Now()
	if _, err := n.Params().Declare("team_id", params.Integer(7), params.Descriptor{}); err != nil {
		t.Fatal(err)
	}
	e := next()
	if len(e.NewParameters) != 1 || e.NewParameters[0].Name != "team_id" || e.NewParameters[0].Value.IntegerValue != 7 {
		t.Errorf("declare event %+v", e)
	}
	if stamp := timeFromMsg(e.Stamp); stamp.Before(before.Add(-time.Second)) || stamp.After(time.Now().Add(time.Second)) {
		t.Errorf("event stamp %v", stamp)
	}
	if r := n.Params().Set(params.Parameter{Name: "team_id", Value: params.Integer(8)}); !r[0].Successful {
		t.Fatal(r[0].Reason)
	}
	e = next()
	if len(e.ChangedParameters) != 1 || e.ChangedParameters[0].Value.IntegerValue != 8 || len(e.NewParameters) != 0 {
		t.Errorf("set event %+v", e)
	}
}

func TestUseSimTime(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	n := newTestNode(t, env, "dnetwork", "/", "--ros-args", "-p", "use_sim_time:=true")
	sim := newTestNode(t, env, "simulator", "/")
	if !n.Clock().SimActive() {
		t.Fatal("use_sim_time:=true did not activate simulation time")
	}
	clockPub, err := NewPublisher[rosgraph_msgs.Clock](sim, "/clock", QoSClock)
	if err != nil {
		t.Fatal(err)
	}
	tk := n.Clock().NewTicker(time.Second)
	defer tk.Stop()
	waitFor(t, "node follows /clock", func() error {
		if err := clockPub.Publish(&rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: 100}}); err != nil {
			return err
		}
		if now := n.Clock().Now(); now.Unix() != 100 {
			return fmt.Errorf("node time %v", now)
		}
		return nil
	})
	// One simulated second later the ticker fires, carrying the simulated time.
	if err := clockPub.Publish(&rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: 101, Nanosec: 5}}); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-tk.C():
		if v.Unix() != 101 {
			t.Errorf("tick at %v", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no tick on simulated time")
	}
	// Switching use_sim_time off returns to the system clock.
	if r := n.Params().Set(params.Parameter{Name: params.UseSimTime, Value: params.Bool(false)}); !r[0].Successful {
		t.Fatal(r[0].Reason)
	}
	if n.Clock().SimActive() || time.Since(n.Clock().Now()) > time.Minute {
		t.Errorf("after use_sim_time false: active %v, now %v", n.Clock().SimActive(), n.Clock().Now())
	}
}
