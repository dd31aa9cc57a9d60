//go:build cgo

package node_test

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/fastddspeer"
	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/nodetest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// TestE2EFastDDS runs two robots of one team with a Fast DDS peer that stands in for
// the robot's other nodes and tools on rmw_fastrtps_cpp (ROS's default middleware),
// everybody with Jazzy's ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST, in a network
// namespace whose lo has no multicast:
//
//   - node → Fast DDS: GCInfo and robot 2's TeamInfo decode in Fast CDR exactly as in
//     dnetwork's own decoder, field by field; a transient-local subscription that joins
//     late gets the last GameControlData;
//   - Fast DDS → node: robot 1's MotionInfo, BehaviorInfo and VisionInfo, serialised by
//     Fast CDR, decode as sent and reach robot 2's TeamInfo through robot 1's packets;
//   - QoS: a transient-local GCInfo subscription is refused; robot 1 logs it once with
//     topic, peer and policy, and its /diagnostics status counts it next to the
//     best-effort BehaviorInfo publisher that its reliable subscription refuses;
//   - services: get_parameters, set_parameters and GCMessage called as rmw_fastrtps
//     calls them get no reply at all (no garbage), change nothing, are counted in
//     /diagnostics and logged once per client with the fix; a Fast DDS client that
//     frames its request as rmw_cyclonedds does (with clientid=) is answered.
func TestE2EFastDDS(t *testing.T) {
	bin := fastddspeer.Build(t)
	if _, child := netnstest.Child(); !child {
		netnstest.Require(t)
		ns := netnstest.New(t, "fastdds")
		ns.IP(t, "link", "set", "lo", "multicast", "off")
		ns.Exec(t, t.Name(), rosdomain.Env(rosdomain.Take(t)))
		return
	}
	domainFastDDS := rosdomain.Inherited(t, 1)[0]
	env := map[string]string{"ROS_DOMAIN_ID": strconv.Itoa(domainFastDDS), "ROS_DISTRO": "jazzy", "ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}
	getenv := func(k string) string { return env[k] }

	ports := freePorts(t, 4)
	gc := udpSocket(t, "127.0.0.1:0")
	logs := map[int]*syncbuf.Buffer{}
	rns := map[int]*ros.Node{}
	for i, id := range []int{1, 2} {
		cfg := baseConfig(id)
		cfg.InputsReliable = id == 1
		cfg.Team.Port = ports[i]
		cfg.Team.Peers = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), ports[1-i])}
		cfg.GameControllerPort = ports[2+i]
		cfg.GameController.ReturnPort = localPort(gc)
		logs[id] = &syncbuf.Buffer{}
		rns[id] = rosNode(t, getenv, node.NodeName(id), logs[id], func(o *ros.NodeOptions) { o.NoParameterServices = false })
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("robot %d log:\n%s", id, logs[id].String())
			}
		})
		for name, v := range map[string]params.Value{"robot_id": params.Integer(int64(id)), "team_number": params.Integer(testTeam)} {
			if _, err := rns[id].Params().Declare(name, v, params.Descriptor{}); err != nil {
				t.Fatal(err)
			}
		}
		nodetest.Run(t, rns[id], cfg, 5*time.Second)
	}

	// The test's own ROS node reads what the robots publish and what the peer sends.
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	gcInfo := collect[dmsgs.GCInfo](t, tester, "/dnetwork_1/GCInfo")
	teamInfo := collect[dmsgs.TeamInfo](t, tester, "/dnetwork_2/TeamInfo")
	gcData := collect[dmsgs.GameControlData](t, tester, "/dnetwork_1/GameControlData")
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	motion := collect[dmsgs.MotionInfo](t, tester, "/dmotion_1/MotionInfo")
	behavior := collect[dmsgs.BehaviorInfo](t, tester, "/dbehavior_1/BehaviorInfo")
	vision := collect[dmsgs.VisionInfo](t, tester, "/dvision_1/VisionInfo")

	peer := fastddspeer.Start(t, bin, domainFastDDS, "jazzy-localhost")
	for _, m := range []cdr.Message{&dmsgs.GCInfo{}, &dmsgs.TeamInfo{}, &dmsgs.GameControlData{}, &dmsgs.MotionInfo{}, &dmsgs.BehaviorInfo{}, &dmsgs.VisionInfo{}} {
		peer.Send(t, "typehash %s %s", m.DDSTypeName(), m.TypeHash())
	}
	const reliable, latched = "reliable,volatile,10", "reliable,transient,1"
	peer.Send(t, "sub gcinfo rt/dnetwork_1/GCInfo dmsgs::msg::dds_::GCInfo_ gcinfo %s", reliable)
	peer.Send(t, "sub teaminfo rt/dnetwork_2/TeamInfo dmsgs::msg::dds_::TeamInfo_ teaminfo %s", reliable)
	peer.Send(t, "sub gcinfo_latched rt/dnetwork_1/GCInfo dmsgs::msg::dds_::GCInfo_ gcinfo %s", latched)
	peer.Send(t, "pub motion rt/dmotion_1/MotionInfo dmsgs::msg::dds_::MotionInfo_ motion %s 1 50", reliable)
	peer.Send(t, "pub behavior rt/dbehavior_1/BehaviorInfo dmsgs::msg::dds_::BehaviorInfo_ behavior %s 1 50", reliable)
	peer.Send(t, "pub vision rt/dvision_1/VisionInfo dmsgs::msg::dds_::VisionInfo_ vision %s 1 50", reliable)
	peer.Send(t, "pub behavior_be rt/dbehavior_1/BehaviorInfo dmsgs::msg::dds_::BehaviorInfo_ behavior besteffort,volatile,1 1 1000")

	// The GameController: playing, our kick-off.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(stop); wg.Wait() })
	game := gamePacket(gcproto.LayoutHSL20, gcproto.StatePlaying)
	pkt, err := game.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	wg.Go(func() {
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			for _, p := range ports[2:] {
				sendTo(t, gc, pkt, p)
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	})

	// Fast DDS → node: robot 1's inputs, as Fast CDR wrote them, reach robot 2's TeamInfo.
	// All three have arrived once robot 1 is stable (MotionInfo), sees the ball
	// (VisionInfo) and plays its role (BehaviorInfo).
	heard := teamInfo.wait(t, 0, 20*time.Second, "robot 2 hears robot 1's Fast DDS inputs", func(m *dmsgs.TeamInfo) bool {
		return m.PlayerNumber == 1 && !m.Incapacitated && m.SeeBall && m.Role == 3 && m.GCConnected
	})
	t.Run("inputs", func(t *testing.T) {
		for _, in := range []struct {
			label string
			got   func() []string
		}{
			{"motion", func() []string { return canonicals(motion) }},
			{"behavior", func() []string { return canonicals(behavior) }},
			{"vision", func() []string { return canonicals(vision) }},
		} {
			sent := peer.Fields("SENT", in.label)
			if len(sent) != 1 {
				t.Fatalf("%s: peer sent %q", in.label, sent)
			}
			var got []string
			for deadline := time.Now().Add(5 * time.Second); len(got) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				got = in.got()
			}
			if len(got) == 0 || slices.ContainsFunc(got, func(s string) bool { return s != " "+sent[0] }) {
				t.Errorf("%s: Fast DDS sent%s\nthe test's node decoded %q", in.label, " "+sent[0], got)
			}
		}
		m := heard
		if !near(m.RobotPos.X, 123.5) || !near(m.RobotPos.Y, -45.25) || !near(m.BallField.X, 80) ||
			m.State != dmsgs.TeamInfoStatePlaying || !m.AttackRight || m.TeamNumber != testTeam {
			t.Errorf("robot 2 heard robot 1 as %+v", m)
		}
	})

	// node → Fast DDS: every sample the peer decoded is one the node's own decoder read
	// the same way.
	peer.Wait(t, 10*time.Second, "GCInfo and TeamInfo at the peer", func() error {
		if len(peer.Fields("DATA", "gcinfo")) < 5 || len(peer.Fields("DATA", "teaminfo")) < 5 {
			return fmt.Errorf("%d GCInfo, %d TeamInfo", len(peer.Fields("DATA", "gcinfo")), len(peer.Fields("DATA", "teaminfo")))
		}
		return nil
	})
	// A transient-local subscription joining late gets the last GameControlData.
	peer.Send(t, "sub gcdata rt/dnetwork_1/GameControlData dmsgs::msg::dds_::GameControlData_ gcdata %s", latched)
	peer.Wait(t, 10*time.Second, "GameControlData at the late subscription", func() error {
		if len(peer.Fields("DATA", "gcdata")) == 0 {
			return fmt.Errorf("none")
		}
		return nil
	})
	t.Run("outputs", func(t *testing.T) {
		checkDecoded(t, "GCInfo", peer.Fields("DATA", "gcinfo"), gcInfo, func(m *dmsgs.GCInfo) bool {
			return m.Connected && m.State == dmsgs.GCInfoStatePlaying && m.GCVersion == "HSL20"
		})
		checkDecoded(t, "TeamInfo", peer.Fields("DATA", "teaminfo"), teamInfo, func(m *dmsgs.TeamInfo) bool {
			return m.PlayerNumber == 1 && near(m.RobotPos.X, 123.5)
		})
		checkDecoded(t, "GameControlData", peer.Fields("DATA", "gcdata"), gcData, func(m *dmsgs.GameControlData) bool {
			return m.Teams[0].TeamNumber == testTeam && m.State == uint8(gcproto.StatePlaying)
		})
		if got := peer.Fields("DATA", "gcinfo_latched"); len(got) != 0 {
			t.Errorf("the transient-local GCInfo subscription received %d samples", len(got))
		}
	})

	// Services called as rmw_fastrtps calls them get nothing, and nothing changes.
	clients := []struct{ label, service, kind, args string }{
		{"gp", "get_parameters", "get_parameters", "team_number robot_id"},
		{"sp", "set_parameters", "set_parameters", "team_number=99"},
		{"gm", "GCMessage", "gcmessage", "0"},
		{"gpc", "get_parameters", "get_parameters_cyclone", "team_number robot_id"},
	}
	for _, c := range clients {
		peer.Send(t, "client %s /dnetwork_1/%s %s", c.label, c.service, c.kind)
	}
	// A request written before the service's reader has matched the client's writer is
	// lost (as between ROS nodes): wait until robot 1 knows every request writer.
	peer.Wait(t, 20*time.Second, "the clients' services", func() error {
		if n := len(peer.Lines("SERVICE ")); n < len(clients) {
			return fmt.Errorf("%d of %d clients found their service", n, len(clients))
		}
		pubs, err := rns[1].Participant().DiscoveredPublications()
		if err != nil {
			return err
		}
		n := 0
		for _, p := range pubs {
			if strings.HasPrefix(p.Topic, "rq/dnetwork_1/") && p.GUID[0] == 0x01 && p.GUID[1] == 0x0f {
				n++
			}
		}
		if n < len(clients) {
			return fmt.Errorf("robot 1 knows %d of the %d request writers", n, len(clients))
		}
		return nil
	})
	for _, c := range clients {
		peer.Send(t, "call %s %s", c.label, c.args)
	}
	peer.Wait(t, 30*time.Second, "the service calls", func() error {
		if n := len(peer.Lines("NOREPLY ")) + len(peer.Lines("REPLY ")); n < 4 {
			return fmt.Errorf("%d of 4 calls done", n)
		}
		return nil
	})
	t.Run("services", func(t *testing.T) {
		if got := peer.Lines("NOREPLY "); !slices.Equal(got, []string{"NOREPLY gp", "NOREPLY sp", "NOREPLY gm"}) {
			t.Errorf("rmw_fastrtps calls: %q, want no reply to each", got)
		}
		if got := peer.Lines("STRAY "); len(got) != 0 {
			t.Errorf("reply samples the rmw_fastrtps clients could not match: %q", got)
		}
		// ParameterValue: type 2 (integer), bool, the integer, ...
		if got := peer.Fields("REPLY", "gpc"); len(got) != 1 || !strings.HasSuffix(got[0], " 2 2 0 17 0000000000000000 - 0 0 0 0 0 2 0 1 0000000000000000 - 0 0 0 0 0") {
			t.Errorf("get_parameters in rmw_cyclonedds framing from Fast DDS: %q", got)
		}
		if v, err := rns[1].Params().Get("team_number"); err != nil || v.Type != params.TypeInteger || v.IntegerValue != testTeam {
			t.Errorf("team_number = %v after an rmw_fastrtps set_parameters, want %d", v, testTeam)
		}
		for _, svc := range []string{"get_parameters", "set_parameters", "GCMessage"} {
			want := fmt.Sprintf("service /dnetwork_1/%s: dropped a request from a client on rmw_fastrtps_cpp", svc)
			if n := strings.Count(logs[1].String(), want); n != 1 {
				t.Errorf("%d log lines %q, want 1", n, want)
			}
		}
		if !strings.Contains(logs[1].String(), "RMW_IMPLEMENTATION=rmw_cyclonedds_cpp") {
			t.Errorf("the log does not give the fix")
		}
		// Never read as rmw_cyclonedds framing: no decode errors about a request header.
		if strings.Contains(logs[1].String(), "dropped a request: ") {
			t.Errorf("a request of an rmw_fastrtps client was decoded as rmw_cyclonedds framing")
		}
	})

	t.Run("qos", func(t *testing.T) {
		peer.Wait(t, 5*time.Second, "the peer's own incompatible-QoS report", func() error {
			if len(peer.Fields("INCOMPAT", "gcinfo_latched")) == 0 || len(peer.Fields("INCOMPAT", "behavior_be")) == 0 {
				return fmt.Errorf("%q", peer.Lines("INCOMPAT"))
			}
			return nil
		})
		g := strings.Fields(peer.Lines("READY")[0])[1] // the peer's participant GUID
		want := fmt.Sprintf("publisher /dnetwork_1/GCInfo cannot serve subscription %s:%s:%s:", g[0:8], g[8:16], g[16:24])
		if n := strings.Count(logs[1].String(), want); n != 1 {
			t.Errorf("%d log lines %q, want 1", n, want)
		}
		if !strings.Contains(logs[1].String(), "(eProsima Fast DDS): incompatible QoS DURABILITY (it asks transient-local, this publisher offers volatile)") {
			t.Errorf("the warning does not name vendor and policy")
		}
	})

	// /diagnostics counts all of it in robot 1's node status.
	const status = "dnetwork_1: " + node.DiagNode
	a := diags.wait(t, 0, 10*time.Second, "robot 1's diagnostics", func(a *dm.DiagnosticArray) bool {
		return diagHas(a, status, map[string]string{
			"/dnetwork_1/GCInfo incompatible subscribers":       "1",
			"/dbehavior_1/BehaviorInfo incompatible publishers": "1",
			"/dnetwork_1/get_parameters unanswerable requests":  "1",
			"/dnetwork_1/set_parameters unanswerable requests":  "1",
			"/dnetwork_1/GCMessage unanswerable requests":       "1",
		})
	})
	if st, _ := diagStatus(a, status); st.Level != dm.DiagnosticStatusWarn || !strings.Contains(st.Message, "/dnetwork_1/GCInfo: 1 incompatible subscribers (DURABILITY)") {
		t.Errorf("robot 1's status: level %d, %q", st.Level, st.Message)
	}
	if errs := peer.Errors(); len(errs) > 0 {
		t.Errorf("Fast DDS peer errors: %q", errs)
	}
}

// canonicals returns the peer's canonical text of every message c collected.
func canonicals[T any](c *collector[T]) []string {
	var out []string
	for _, m := range c.since(0) {
		out = append(out, fastddspeer.Canonical(m))
	}
	return out
}

// checkDecoded checks that the peer decoded samples of a topic, that each is one the
// test's node decoded the same way (it subscribed first; a sample that reached the peer
// may still be on its way to the test's node, so it waits up to 3 s), and that one of
// them satisfies ok.
func checkDecoded[T any](t *testing.T, what string, peerSamples []string, c *collector[T], ok func(*T) bool) {
	t.Helper()
	byText := map[string]*T{}
	missing, read := "", 0
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		msgs := c.since(read)
		read += len(msgs)
		for _, m := range msgs {
			byText[fastddspeer.Canonical(m)] = m
		}
		missing = ""
		for _, s := range peerSamples {
			if _, seen := byText[" "+s]; !seen {
				missing = " " + s
				break
			}
		}
		if missing == "" || time.Now().After(deadline) {
			break
		}
	}
	if missing != "" {
		t.Errorf("%s: Fast DDS decoded a sample that dnetwork's decoder never read (%d samples); %s", what, len(byText), firstDifference(missing, byText))
		return
	}
	found := false
	for _, s := range peerSamples {
		found = found || ok(byText[" "+s])
	}
	if len(peerSamples) == 0 || !found {
		t.Errorf("%s: %d samples at Fast DDS, none as expected", what, len(peerSamples))
	}
}

// firstDifference describes where text differs from the most similar of the texts in
// byText: the index of the first differing field and the values there.
func firstDifference[T any](text string, byText map[string]*T) string {
	f := strings.Fields(text)
	best, bestAt := "", -1
	for other := range byText {
		o := strings.Fields(other)
		i := 0
		for i < len(f) && i < len(o) && f[i] == o[i] {
			i++
		}
		if i > bestAt {
			bestAt = i
			best = fmt.Sprintf("field %d: Fast DDS %q, dnetwork %q (of %d and %d fields)", i, at(f, i), at(o, i), len(f), len(o))
		}
	}
	return best
}

func at(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return "<end>"
}
