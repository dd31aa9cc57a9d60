//go:build cgo

package interop

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

var peers struct {
	sync.Mutex
	built map[int]string // GID size → peer binary
	dir   string
}

// buildPeer compiles testdata/peer.c with idlc-generated types for the given GID
// size, once per test binary.
func buildPeer(t *testing.T, gidSize int) string {
	t.Helper()
	idlc, err := exec.LookPath("idlc")
	if err != nil {
		t.Skip("interop peer needs idlc (Debian package cyclonedds-tools): ", err)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("interop peer needs gcc: ", err)
	}
	peers.Lock()
	defer peers.Unlock()
	if bin, ok := peers.built[gidSize]; ok {
		return bin
	}
	if peers.built == nil {
		dir, err := os.MkdirTemp("", "dnetwork-interop-")
		if err != nil {
			t.Fatal(err)
		}
		peers.built, peers.dir = map[int]string{}, dir
	}
	idl, err := filepath.Abs("testdata/ros_types.idl")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Abs("testdata/peer.c")
	gen := filepath.Join(peers.dir, fmt.Sprintf("gen%d", gidSize))
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = gen
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run(idlc, "-DGID_SIZE="+strconv.Itoa(gidSize), "-Wno-implicit-extensibility", "-o", gen, idl)
	bin := filepath.Join(gen, "peer")
	args := []string{"-std=gnu11", "-O1", "-Wall", "-I" + gen, "-o", bin, src, filepath.Join(gen, "ros_types.c")}
	args = append(args, strings.Fields(os.Getenv("CGO_CFLAGS"))...)
	if out, err := exec.Command("pkg-config", "--cflags", "--libs", "CycloneDDS").Output(); err == nil {
		args = append(args, strings.Fields(string(out))...)
	} else {
		args = append(args, "-lddsc")
	}
	args = append(args, strings.Fields(os.Getenv("CGO_LDFLAGS"))...)
	run(gcc, args...)
	peers.built[gidSize] = bin
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if peers.dir != "" {
		os.RemoveAll(peers.dir)
	}
	os.Exit(code)
}

// endpointLine is a W or R line of the peer.
type endpointLine struct {
	guid, participant, topic, typ string
	reliability, durability       string
	history                       string
	depth                         int
	lifespan                      int64
	userData                      string
}

// report collects what the peer printed.
type report struct {
	mu           sync.Mutex
	participants map[string]string // guid → user data
	writers      map[string]endpointLine
	readers      map[string]endpointLine
	nodes        map[string][]string // gid → latest N line fields (ns, name, readers, writers)
	strings      []string
	reply        []string // Q line fields
	values       [][]string
	errors       []string
	ready        chan struct{}
}

func (r *report) parse(line string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch f[0] {
	case "X":
		close(r.ready)
	case "P":
		r.participants[f[1]] = unhex(f[2])
	case "W", "R":
		depth, _ := strconv.Atoi(f[8])
		life, _ := strconv.ParseInt(f[9], 10, 64)
		ep := endpointLine{f[1], f[2], f[3], f[4], f[5], f[6], f[7], depth, life, unhex(f[10])}
		if f[0] == "W" {
			r.writers[ep.guid] = ep
		} else {
			r.readers[ep.guid] = ep
		}
	case "D":
		if f[2] == "0" {
			r.nodes[f[1]] = nil
		}
	case "N":
		r.nodes[f[1]] = f[2:]
	case "S":
		r.strings = append(r.strings, strings.TrimPrefix(line, "S "))
	case "Q":
		r.reply = f[1:]
	case "V":
		r.values = append(r.values, f[1:])
	default:
		r.errors = append(r.errors, line)
	}
}

func unhex(s string) string {
	if s == "-" {
		return ""
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return "<bad hex " + s + ">"
	}
	return string(b)
}

func guidHex(g dds.GUID) string { return hex.EncodeToString(g[:]) }

// gidHex is g as a GID of the given size, in hex.
func gidHex(g dds.GUID, size int) string {
	b := make([]byte, size)
	copy(b, g[:])
	return hex.EncodeToString(b)
}

// distroFacts are what real ROS releases put on the wire, stated here rather than
// taken from package ros so that the test cannot agree with a mistake there.
type distroFacts struct {
	GIDSize  int  // rmw_dds_common/msg/Gid: 24 bytes on Humble, 16 from Iron on
	TypeHash bool // "typehash=" in endpoint USER_DATA from Iron on
}

func testInterop(t *testing.T, distro string, d distroFacts, domain int) {
	peer := buildPeer(t, d.GIDSize)
	path := ddstest.Setup(t)
	env := map[string]string{"CYCLONEDDS_URI": "file://" + path, "ROS_DOMAIN_ID": strconv.Itoa(domain), "ROS_DISTRO": distro}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	node, err := ros.NewNode(ctx, "dnetwork", "/robot1", ros.NodeOptions{
		Getenv:    func(k string) string { return env[k] },
		LogOutput: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	for name, v := range map[string]params.Value{"team_id": params.Integer(7), "robot_name": params.String("alpha"), "ball_radius": params.Double(0.05)} {
		if _, err := node.Params().Declare(name, v, params.Descriptor{}); err != nil {
			t.Fatal(err)
		}
	}
	status, err := ros.NewPublisher[std_msgs.String](node, "team_status", ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	chatter, chatterCh, err := ros.NewSubscriptionChan[std_msgs.String](node, "chatter", ros.QoSDefault, 100)
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(peer, strconv.Itoa(domain), "/robot1", "dnetwork", "team_id", "robot_name", "use_sim_time", "ball_radius")
	cmd.Env = append(os.Environ(), "CYCLONEDDS_URI=file://"+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rep := &report{participants: map[string]string{}, writers: map[string]endpointLine{}, readers: map[string]endpointLine{},
		nodes: map[string][]string{}, ready: make(chan struct{})}
	scanDone := make(chan struct{})
	go func() {
		defer close(scanDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			rep.parse(sc.Text())
		}
	}()
	defer func() {
		stdin.Close()
		<-scanDone
		if err := cmd.Wait(); err != nil {
			t.Errorf("peer: %v", err)
		}
	}()
	select {
	case <-rep.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("peer did not start")
	}

	// Publish team_status until the peer has decoded some; collect its chatter.
	var fromC []string
	pg := node.Participant().GUID()
	myGID := gidHex(pg, d.GIDSize)
	ddstest.WaitFor(t, 20*time.Second, "exchange with the peer", func() error {
		if err := status.Publish(&std_msgs.String{Data: "team 7 robot 1 ok"}); err != nil {
			return err
		}
	drain:
		for {
			select {
			case m := <-chatterCh:
				fromC = append(fromC, m.Data)
			default:
				break drain
			}
		}
		rep.mu.Lock()
		defer rep.mu.Unlock()
		switch {
		case len(rep.errors) > 0:
			t.Fatalf("peer errors: %q", rep.errors)
		case len(rep.strings) == 0:
			return fmt.Errorf("peer received no team_status")
		case len(fromC) == 0:
			return fmt.Errorf("no chatter from the peer")
		case rep.reply == nil || len(rep.values) < 4:
			return fmt.Errorf("no get_parameters reply at the peer")
		case len(rep.nodes[myGID]) == 0:
			return fmt.Errorf("node not in ros_discovery_info")
		}
		// The discovery entry lists every endpoint the peer discovered for us.
		want := 0
		for _, w := range rep.writers {
			if w.participant == guidHex(pg) && w.topic != ros.DiscoveryTopic {
				want++
			}
		}
		for _, r := range rep.readers {
			if r.participant == guidHex(pg) {
				want++
			}
		}
		n := rep.nodes[myGID]
		if got := len(strings.Split(n[2], ",")) + len(strings.Split(n[3], ",")); got != want || want < 6 {
			return fmt.Errorf("discovery entry lists %d endpoints, %d discovered", got, want)
		}
		return nil
	})

	rep.mu.Lock()
	defer rep.mu.Unlock()
	t.Run("participant", func(t *testing.T) {
		if ud, ok := rep.participants[guidHex(pg)]; !ok || ud != "enclave=/;" {
			t.Errorf("participant %s USER_DATA %q (found %v)", guidHex(pg), ud, ok)
		}
	})
	t.Run("endpoints", func(t *testing.T) {
		type want struct {
			typ, rel, dur, hist string
			depth               int
			lifespan            int64
			hash                string
		}
		wantW := map[string]want{
			"rt/robot1/team_status": {"std_msgs::msg::dds_::String_", "reliable", "volatile", "keep-last", 10, -1, (&std_msgs.String{}).TypeHash()},
			"rt/rosout":             {"rcl_interfaces::msg::dds_::Log_", "reliable", "transient-local", "keep-last", 1000, 10e9, (&rcl_interfaces.Log{}).TypeHash()},
			"rt/parameter_events":   {"rcl_interfaces::msg::dds_::ParameterEvent_", "reliable", "volatile", "keep-last", 1000, -1, (&rcl_interfaces.ParameterEvent{}).TypeHash()},
			"ros_discovery_info":    {"rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_", "reliable", "transient-local", "keep-last", 1, -1, (&rmw_dds_common.ParticipantEntitiesInfo{}).TypeHash()},
		}
		wantR := map[string]want{
			"rt/robot1/chatter": {"std_msgs::msg::dds_::String_", "reliable", "volatile", "keep-last", 10, -1, (&std_msgs.String{}).TypeHash()},
		}
		// The six parameter services of an rclcpp node, with the parameters QoS.
		for _, srv := range []struct {
			name, typ string
			req, resp cdr.Message
		}{
			{"get_parameters", "GetParameters", &rcl_interfaces.GetParameters_Request{}, &rcl_interfaces.GetParameters_Response{}},
			{"get_parameter_types", "GetParameterTypes", &rcl_interfaces.GetParameterTypes_Request{}, &rcl_interfaces.GetParameterTypes_Response{}},
			{"set_parameters", "SetParameters", &rcl_interfaces.SetParameters_Request{}, &rcl_interfaces.SetParameters_Response{}},
			{"set_parameters_atomically", "SetParametersAtomically", &rcl_interfaces.SetParametersAtomically_Request{}, &rcl_interfaces.SetParametersAtomically_Response{}},
			{"describe_parameters", "DescribeParameters", &rcl_interfaces.DescribeParameters_Request{}, &rcl_interfaces.DescribeParameters_Response{}},
			{"list_parameters", "ListParameters", &rcl_interfaces.ListParameters_Request{}, &rcl_interfaces.ListParameters_Response{}},
		} {
			wantR["rq/robot1/dnetwork/"+srv.name+"Request"] = want{"rcl_interfaces::srv::dds_::" + srv.typ + "_Request_", "reliable", "volatile", "keep-last", 1000, -1, srv.req.TypeHash()}
			wantW["rr/robot1/dnetwork/"+srv.name+"Reply"] = want{"rcl_interfaces::srv::dds_::" + srv.typ + "_Response_", "reliable", "volatile", "keep-last", 1000, -1, srv.resp.TypeHash()}
		}
		serviceIDs := map[string]string{}
		check := func(kind string, eps map[string]endpointLine, wants map[string]want) {
			seen := map[string]bool{}
			for _, ep := range eps {
				if ep.participant != guidHex(pg) {
					continue
				}
				seen[ep.topic] = true
				w, ok := wants[ep.topic]
				if !ok {
					t.Errorf("unexpected %s %s", kind, ep.topic)
					continue
				}
				if ep.typ != w.typ || ep.reliability != w.rel || ep.durability != w.dur || ep.history != w.hist || ep.depth != w.depth || ep.lifespan != w.lifespan {
					t.Errorf("%s %s: %+v, want %+v", kind, ep.topic, ep, w)
				}
				if kind == "writer" && !strings.HasSuffix(ep.guid, "03") || kind == "reader" && !strings.HasSuffix(ep.guid, "04") {
					t.Errorf("%s %s: GUID %s is not a key-less entity (…03 writer, …04 reader)", kind, ep.topic, ep.guid)
				}
				kv := map[string]string{}
				for _, p := range strings.Split(ep.userData, ";") {
					if k, v, ok := strings.Cut(p, "="); ok {
						kv[k] = v
					}
				}
				if want := map[bool]string{true: w.hash}[d.TypeHash]; kv["typehash"] != want {
					t.Errorf("%s %s: USER_DATA %q on %s, want typehash %q", kind, ep.topic, ep.userData, distro, want)
				}
				if id, ok := kv["serviceid"]; ok {
					name := strings.TrimSuffix(strings.TrimSuffix(ep.topic[3:], "Request"), "Reply")
					serviceIDs[kind+" "+name] = id
				}
			}
			for topic := range wants {
				if !seen[topic] {
					t.Errorf("no %s on %s announced", kind, topic)
				}
			}
		}
		check("writer", rep.writers, wantW)
		check("reader", rep.readers, wantR)
		// A service's request reader and reply writer share a serviceid; services differ.
		ids := map[string]bool{}
		for key, id := range serviceIDs {
			if kind, name, _ := strings.Cut(key, " "); kind == "reader" {
				if serviceIDs["writer "+name] != id {
					t.Errorf("%s: serviceid of request reader %q, reply writer %q", name, id, serviceIDs["writer "+name])
				}
				ids[id] = true
			}
		}
		if len(ids) != 6 {
			t.Errorf("%d distinct service ids, want 6: %v", len(ids), serviceIDs)
		}
	})
	t.Run("ros_discovery_info", func(t *testing.T) {
		n := rep.nodes[myGID]
		if n[0] != "/robot1" || n[1] != "dnetwork" {
			t.Errorf("node %q %q", n[0], n[1])
		}
		var wantReaders, wantWriters []string
		for _, r := range rep.readers {
			if r.participant == guidHex(pg) {
				wantReaders = append(wantReaders, r.guid+strings.Repeat("00", d.GIDSize-16))
			}
		}
		for _, w := range rep.writers {
			if w.participant == guidHex(pg) && w.topic != ros.DiscoveryTopic {
				wantWriters = append(wantWriters, w.guid+strings.Repeat("00", d.GIDSize-16))
			}
		}
		gotReaders, gotWriters := strings.Split(n[2], ","), strings.Split(n[3], ",")
		for _, s := range [][]string{wantReaders, wantWriters, gotReaders, gotWriters} {
			slices.Sort(s)
		}
		if !slices.Equal(gotReaders, wantReaders) || !slices.Equal(gotWriters, wantWriters) {
			t.Errorf("readers %v writers %v, want %v %v", gotReaders, gotWriters, wantReaders, wantWriters)
		}
		if !slices.Contains(gotReaders, gidHex(chatter.GUID(), d.GIDSize)) || !slices.Contains(gotWriters, gidHex(status.GUID(), d.GIDSize)) {
			t.Errorf("chatter reader or team_status writer missing")
		}
	})
	t.Run("messages", func(t *testing.T) {
		if rep.strings[0] != "team 7 robot 1 ok" {
			t.Errorf("peer decoded %q", rep.strings[0])
		}
		if !strings.HasPrefix(fromC[0], "hello from C ") {
			t.Errorf("node decoded %q", fromC[0])
		}
	})
	t.Run("get_parameters", func(t *testing.T) {
		if rep.reply[0] != "1" || rep.reply[1] != "42" || rep.reply[2] != "4" {
			t.Errorf("reply header: guid matches %s, seq %s, %s values", rep.reply[0], rep.reply[1], rep.reply[2])
		}
		want := [][]string{{"2", "0", "7", "0", "-"}, {"4", "0", "0", "0", "alpha"}, {"1", "0", "0", "0", "-"}, {"3", "0", "0", "0.05", "-"}}
		if len(rep.values) != len(want) {
			t.Fatalf("values %q", rep.values)
		}
		for i := range want {
			if !slices.Equal(rep.values[i], want[i]) {
				t.Errorf("value %d: %q, want %q", i, rep.values[i], want[i])
			}
		}
	})
}

func TestInteropHumble(t *testing.T) {
	testInterop(t, "humble", distroFacts{GIDSize: 24, TypeHash: false}, rosdomain.Take(t))
}

func TestInteropJazzy(t *testing.T) {
	testInterop(t, "jazzy", distroFacts{GIDSize: 16, TypeHash: true}, rosdomain.Take(t))
}
