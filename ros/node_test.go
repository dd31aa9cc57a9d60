//go:build cgo

package ros

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

// testEnv returns a Getenv for a node in domain with the given ROS_DISTRO, using
// the loopback-only Cyclone configuration. Each test takes its own domain
// (internal/rosdomain), because Cyclone reads its configuration when a process
// first creates a domain, and so that no other test process's traffic reaches it.
func testEnv(t testing.TB, domain int, distro string) func(string) string {
	t.Helper()
	path := ddstest.Setup(t)
	env := map[string]string{
		"CYCLONEDDS_URI": "file://" + path,
		"ROS_DOMAIN_ID":  strconv.Itoa(domain),
		"ROS_DISTRO":     distro,
	}
	return func(k string) string { return env[k] }
}

func newTestNode(t testing.TB, getenv func(string) string, name, ns string, args ...string) *Node {
	t.Helper()
	var a *rosargs.Args
	if len(args) > 0 {
		var rest []string
		var err error
		if a, rest, err = rosargs.Parse(args); err != nil || len(rest) > 0 {
			t.Fatalf("ros args %q: %v, rest %q", args, err, rest)
		}
	}
	n, err := NewNode(context.Background(), name, ns, NodeOptions{Args: a, Getenv: getenv, LogOutput: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Close(); err != nil {
			t.Error(err)
		}
	})
	return n
}

func waitFor(t testing.TB, what string, cond func() error) {
	t.Helper()
	ddstest.WaitFor(t, 10*time.Second, what, cond)
}

func TestPubSubGoToGo(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	talker := newTestNode(t, env, "talker", "/robot1")
	listener := newTestNode(t, env, "listener", "robot1") // relative namespace is made absolute
	if listener.Namespace() != "/robot1" || listener.FullyQualifiedName() != "/robot1/listener" {
		t.Fatalf("namespace %q, fqn %q", listener.Namespace(), listener.FullyQualifiedName())
	}
	pub, err := NewPublisher[std_msgs.String](talker, "chatter", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Topic() != "/robot1/chatter" {
		t.Errorf("publisher topic %q", pub.Topic())
	}
	var mu sync.Mutex
	var got []string
	sub, err := NewSubscription(listener, "/robot1/chatter", QoSDefault, func(m *std_msgs.String) {
		mu.Lock()
		got = append(got, m.Data)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "publisher matched", func() error {
		if n, err := pub.SubscriptionCount(); err != nil || n != 1 {
			return fmt.Errorf("%d subscriptions, %v", n, err)
		}
		if n, err := sub.PublisherCount(); err != nil || n != 1 {
			return fmt.Errorf("%d publishers, %v", n, err)
		}
		return nil
	})
	want := []string{"", "hello", "ünïcödé", string(bytes.Repeat([]byte("x"), 1000))}
	for _, s := range want {
		if err := pub.Publish(&std_msgs.String{Data: s}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "messages received", func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(got) < len(want) {
			return fmt.Errorf("%d of %d", len(got), len(want))
		}
		return nil
	})
	mu.Lock()
	if !slices.Equal(got, want) {
		t.Errorf("received %q, want %q", got, want)
	}
	mu.Unlock()
	if pub.Sent() != uint64(len(want)) || sub.Received() != uint64(len(want)) || sub.Dropped() != 0 {
		t.Errorf("sent %d received %d dropped %d", pub.Sent(), sub.Received(), sub.Dropped())
	}

	// The channel flavour, with a buffer of one: the rest is dropped and counted.
	csub, ch, err := NewSubscriptionChan[std_msgs.String](listener, "chatter", QoSDefault, 1)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "second subscription matched", func() error {
		if n, _ := pub.SubscriptionCount(); n != 2 {
			return fmt.Errorf("%d subscriptions", n)
		}
		return nil
	})
	for i := 0; i < 3; i++ {
		if err := pub.Publish(&std_msgs.String{Data: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "channel subscription received", func() error {
		if csub.Received() < 3 {
			return fmt.Errorf("%d received", csub.Received())
		}
		return nil
	})
	if m := <-ch; m.Data != "0" || csub.Dropped() != 2 {
		t.Errorf("first message %q, dropped %d", m.Data, csub.Dropped())
	}
	if err := csub.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case _, ok := <-ch:
		if ok {
			t.Error("message after Close")
		}
	case <-time.After(5 * time.Second):
		t.Error("channel not closed after Close")
	}

	// With no subscription left, a message is serialised and counted but not written;
	// a subscription that comes back receives what is published once it is counted.
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "no subscription", func() error {
		if n, _ := pub.SubscriptionCount(); n != 0 {
			return fmt.Errorf("%d subscriptions", n)
		}
		return nil
	})
	sent, unread := pub.Sent(), pub.Unread()
	if err := pub.Publish(&std_msgs.String{Data: "nobody"}); err != nil {
		t.Fatal(err)
	}
	if pub.Sent() != sent+1 || pub.Unread() != unread+1 {
		t.Errorf("published to nobody: sent %d → %d, unread %d → %d", sent, pub.Sent(), unread, pub.Unread())
	}
	if err := pub.Publish(&std_msgs.String{Data: string(make([]byte, 2))}); err != nil {
		t.Fatal(err)
	}
	back := make(chan string, 16)
	if _, err := NewSubscription(listener, "/robot1/chatter", QoSDefault, func(m *std_msgs.String) { back <- m.Data }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "subscription back", func() error {
		if n, _ := pub.SubscriptionCount(); n != 1 {
			return fmt.Errorf("%d subscriptions", n)
		}
		return nil
	})
	if err := pub.Publish(&std_msgs.String{Data: "again"}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-back:
		if m != "again" {
			t.Errorf("received %q after the subscription came back", m)
		}
	case <-time.After(5 * time.Second):
		t.Error("nothing received after the subscription came back")
	}
	if pub.Unread() != unread+2 {
		t.Errorf("unread %d, want %d", pub.Unread(), unread+2)
	}
}

// graphWatcher reads ros_discovery_info with a raw DDS reader, as the ROS graph cache does.
type graphWatcher struct {
	distro Distro
	mu     sync.Mutex
	latest map[dds.GUID]ParticipantEntities
	errs   []error
}

// rawParticipant returns a plain DDS participant in n's domain, with n's configuration.
func rawParticipant(t testing.TB, n *Node) *dds.Participant {
	t.Helper()
	p, err := dds.NewParticipant(dds.ParticipantOptions{DomainID: n.DomainID(), Config: n.env.Config()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func watchGraph(t *testing.T, n *Node, distro Distro) (*graphWatcher, *dds.Participant) {
	t.Helper()
	p := rawParticipant(t, n)
	g := &graphWatcher{distro: distro, latest: map[dds.GUID]ParticipantEntities{}}
	typ := distro.discoveryMessage(dds.GUID{}, nil).DDSTypeName()
	_, err := p.NewReader(DiscoveryTopic, typ, qosDiscoveryReader, func(s dds.Sample) {
		e, err := distro.decodeDiscovery(s.Data)
		g.mu.Lock()
		defer g.mu.Unlock()
		if err != nil {
			g.errs = append(g.errs, err)
			return
		}
		g.latest[e.GID] = e
	})
	if err != nil {
		t.Fatal(err)
	}
	return g, p
}

func (g *graphWatcher) nodes(participant dds.GUID) ([]NodeEntities, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.latest[participant]
	return e.Nodes, ok
}

func testGraph(t *testing.T, domain int, distroName string) {
	env := testEnv(t, domain, distroName)
	distro, _ := ParseDistro(distroName)
	n := newTestNode(t, env, "dnetwork", "/robot1")
	pub, err := NewPublisher[std_msgs.String](n, "team_status", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := NewSubscription(n, "chatter", QoSSensorData, func(*std_msgs.String) {})
	if err != nil {
		t.Fatal(err)
	}
	g, watcher := watchGraph(t, n, distro)
	pg := n.Participant().GUID()
	var entry NodeEntities
	waitFor(t, "node in ros_discovery_info", func() error {
		nodes, ok := g.nodes(pg)
		if !ok || len(nodes) != 1 {
			return fmt.Errorf("nodes %+v", nodes)
		}
		entry = nodes[0]
		if !slices.Contains(entry.Writers, pub.GUID()) {
			return errors.New("publisher not listed yet")
		}
		return nil
	})
	if entry.Namespace != "/robot1" || entry.Name != "dnetwork" {
		t.Errorf("node %q %q", entry.Namespace, entry.Name)
	}
	// Every listed GID is an endpoint announced in DDS discovery under a ROS name.
	var pubs, subs []dds.Endpoint
	waitFor(t, "endpoints discovered", func() error {
		pubs, _ = watcher.DiscoveredPublications()
		subs, _ = watcher.DiscoveredSubscriptions()
		for _, g := range entry.Writers {
			if findEndpoint(pubs, g) == nil {
				return fmt.Errorf("writer %v not discovered", g)
			}
		}
		for _, g := range entry.Readers {
			if findEndpoint(subs, g) == nil {
				return fmt.Errorf("reader %v not discovered", g)
			}
		}
		return nil
	})
	topics := map[string]dds.Endpoint{}
	for _, g := range entry.Writers {
		ep := findEndpoint(pubs, g)
		topics["w "+ep.Topic] = *ep
	}
	for _, g := range entry.Readers {
		ep := findEndpoint(subs, g)
		topics["r "+ep.Topic] = *ep
	}
	type wantEndpoint struct {
		typ string
		qos dds.QoS
	}
	wantTopics := map[string]wantEndpoint{
		"w rt/robot1/team_status": {"std_msgs::msg::dds_::String_", QoSDefault},
		"r rt/robot1/chatter":     {"std_msgs::msg::dds_::String_", QoSSensorData},
		"w rt/rosout":             {"rcl_interfaces::msg::dds_::Log_", QoSRosout},
		"w rt/parameter_events":   {"rcl_interfaces::msg::dds_::ParameterEvent_", QoSParameterEvents},
	}
	for _, srv := range []string{"GetParameters", "GetParameterTypes", "SetParameters", "SetParametersAtomically", "DescribeParameters", "ListParameters"} {
		name := snake(srv)
		wantTopics["r rq/robot1/dnetwork/"+name+"Request"] = wantEndpoint{"rcl_interfaces::srv::dds_::" + srv + "_Request_", QoSParameters}
		wantTopics["w rr/robot1/dnetwork/"+name+"Reply"] = wantEndpoint{"rcl_interfaces::srv::dds_::" + srv + "_Response_", QoSParameters}
	}
	if len(topics) != len(wantTopics) {
		t.Errorf("node endpoints %v, want %d", keys(topics), len(wantTopics))
	}
	for key, want := range wantTopics {
		ep, ok := topics[key]
		if !ok {
			t.Errorf("%s not among the node's endpoints %v", key, keys(topics))
			continue
		}
		q := ep.QoS
		if ep.Type != want.typ || q.Reliability != want.qos.Reliability || q.Durability != want.qos.Durability ||
			q.History != want.qos.History || q.Depth != want.qos.Depth || q.Lifespan != want.qos.Lifespan {
			t.Errorf("%s: type %q QoS %v, want %q %v", key, ep.Type, q, want.typ, want.qos)
		}
		hash, hasHash := userDataValue(q.UserData, "typehash")
		if distro.TypeHash != hasHash || hasHash && len(hash) != len("RIHS01_")+64 {
			t.Errorf("%s: USER_DATA %q (distro %s)", key, q.UserData, distro.Name)
		}
		if ep.GUID.EntityKind() != map[byte]byte{'w': dds.EntityKindWriterNoKey, 'r': dds.EntityKindReaderNoKey}[key[0]] {
			t.Errorf("%s: GUID %v is not a key-less endpoint", key, ep.GUID)
		}
	}
	if h, _ := userDataValue(topics["w rt/robot1/team_status"].QoS.UserData, "typehash"); distro.TypeHash && h != (&std_msgs.String{}).TypeHash() {
		t.Errorf("team_status type hash %q", h)
	}
	sid1, _ := userDataValue(topics["r rq/robot1/dnetwork/get_parametersRequest"].QoS.UserData, "serviceid")
	sid2, _ := userDataValue(topics["w rr/robot1/dnetwork/get_parametersReply"].QoS.UserData, "serviceid")
	if sid1 == "" || sid1 != sid2 {
		t.Errorf("serviceid of request reader %q and reply writer %q", sid1, sid2)
	}
	parts, err := watcher.DiscoveredParticipants()
	if err != nil {
		t.Fatal(err)
	}
	for _, pd := range parts {
		if pd.GUID == pg && string(pd.UserData) != "enclave=/;" {
			t.Errorf("participant USER_DATA %q", pd.UserData)
		}
	}

	// Removing an endpoint republishes the node without it.
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "subscription gone from ros_discovery_info", func() error {
		nodes, _ := g.nodes(pg)
		if len(nodes) == 1 && slices.Contains(nodes[0].Readers, sub.GUID()) {
			return errors.New("still listed")
		}
		return nil
	})
	// Closing the node announces a participant without nodes.
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "node gone from ros_discovery_info", func() error {
		if nodes, _ := g.nodes(pg); len(nodes) != 0 {
			return fmt.Errorf("still %d nodes", len(nodes))
		}
		return nil
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.errs) > 0 {
		t.Errorf("undecodable ros_discovery_info samples: %v", g.errs)
	}
}

func findEndpoint(eps []dds.Endpoint, g dds.GUID) *dds.Endpoint {
	for i := range eps {
		if eps[i].GUID == g {
			return &eps[i]
		}
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestGraphHumble(t *testing.T) { testGraph(t, rosdomain.Take(t), "humble") }
func TestGraphJazzy(t *testing.T)  { testGraph(t, rosdomain.Take(t), "jazzy") }

func TestRemapAndNames(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	n := newTestNode(t, env, "node", "/", "--ros-args", "-r", "__node:=dnetwork", "-r", "__ns:=/robot2", "-r", "team_status:=/team/status", "-e", "/robots")
	if n.FullyQualifiedName() != "/robot2/dnetwork" || n.Logger().Name() != "robot2.dnetwork" {
		t.Errorf("fqn %q logger %q", n.FullyQualifiedName(), n.Logger().Name())
	}
	pub, err := NewPublisher[std_msgs.String](n, "team_status", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Topic() != "/team/status" {
		t.Errorf("remapped topic %q", pub.Topic())
	}
	priv, err := NewPublisher[std_msgs.String](n, "~/state", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	if priv.Topic() != "/robot2/dnetwork/state" {
		t.Errorf("private topic %q", priv.Topic())
	}
	parts, err := n.Participant().DiscoveredParticipants()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if p.GUID == n.Participant().GUID() && string(p.UserData) != "enclave=/robots;" {
			t.Errorf("enclave USER_DATA %q", p.UserData)
		}
	}
	for _, bad := range []string{"bad name", "1abc", "a//b"} {
		if _, err := NewPublisher[std_msgs.String](n, bad, QoSDefault); !errors.Is(err, rosargs.ErrInvalidName) {
			t.Errorf("topic %q: %v", bad, err)
		}
	}
}

func TestNodeErrors(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	if _, err := NewNode(context.Background(), "bad-name", "/", NodeOptions{Getenv: env, LogOutput: io.Discard}); !errors.Is(err, rosargs.ErrInvalidName) {
		t.Errorf("bad node name: %v", err)
	}
	if _, err := NewNode(context.Background(), "n", "/bad ns", NodeOptions{Getenv: env, LogOutput: io.Discard}); !errors.Is(err, rosargs.ErrInvalidName) {
		t.Errorf("bad namespace: %v", err)
	}
	bad := func(k string) string {
		if k == "ROS_DOMAIN_ID" {
			return "300"
		}
		return env(k)
	}
	if _, err := NewNode(context.Background(), "n", "/", NodeOptions{Getenv: bad, LogOutput: io.Discard}); !errors.Is(err, dds.ErrDomainID) {
		t.Errorf("domain 300: %v", err)
	}
	foxy := func(k string) string {
		if k == "ROS_DISTRO" {
			return "foxy"
		}
		return env(k)
	}
	if _, err := NewNode(context.Background(), "n", "/", NodeOptions{Getenv: foxy, LogOutput: io.Discard}); err == nil {
		t.Error("foxy accepted")
	}

	// A cancelled context shuts the node down; its entities report ErrClosed.
	ctx, cancel := context.WithCancel(context.Background())
	n, err := NewNode(ctx, "shortlived", "/", NodeOptions{Getenv: env, LogOutput: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := NewPublisher[std_msgs.String](n, "x", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-n.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("node did not shut down with its context")
	}
	if err := pub.Publish(&std_msgs.String{}); !errors.Is(err, ErrClosed) {
		t.Errorf("publish after shutdown: %v", err)
	}
	if _, err := NewPublisher[std_msgs.String](n, "y", QoSDefault); err == nil {
		t.Error("publisher on a closed node")
	}
	if err := n.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestSubscriptionDropsBadSamples(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	var logs bytes.Buffer
	var logMu sync.Mutex
	n, err := NewNode(context.Background(), "n", "/", NodeOptions{Getenv: env, LogOutput: lockedWriter{&logMu, &logs}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	got := make(chan string, 10)
	sub, err := NewSubscription(n, "/in", QoSDefault, func(m *std_msgs.String) { got <- m.Data })
	if err != nil {
		t.Fatal(err)
	}
	w, err := n.Participant().NewWriter("rt/in", "std_msgs::msg::dds_::String_", QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "raw writer matched", func() error {
		if c, _ := sub.PublisherCount(); c != 1 {
			return errors.New("not matched")
		}
		return nil
	})
	for _, bad := range [][]byte{
		{0, 1, 0, 0},                       // no body
		{0, 1, 0, 0, 200, 0, 0, 0, 'a', 0}, // length beyond the sample
		{0x7f, 0x7f, 0, 0, 1, 0, 0, 0, 0},  // not CDR
		{0, 1, 0, 0, 2, 0, 0, 0, 'a', 'b'}, // no NUL
	} {
		if err := w.Write(bad); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(cdr.Marshal(&std_msgs.String{Data: "good"})); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "good" {
			t.Errorf("handler got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("good sample not delivered")
	}
	if sub.Dropped() != 4 || sub.Received() != 5 {
		t.Errorf("dropped %d received %d", sub.Dropped(), sub.Received())
	}
	logMu.Lock()
	defer logMu.Unlock()
	if c := bytes.Count(logs.Bytes(), []byte("dropped a message on /in")); c != 1 {
		t.Errorf("%d warnings, want 1 (rate limited):\n%s", c, logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// snake turns "GetParameterTypes" into "get_parameter_types".
func snake(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

func TestRosout(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	var console bytes.Buffer
	var mu sync.Mutex
	a, _, err := rosargs.Parse([]string{"--ros-args", "--log-level", "robot1.dnetwork:=debug"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(context.Background(), "dnetwork", "/robot1", NodeOptions{Args: a, Getenv: env, LogOutput: lockedWriter{&mu, &console}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if n.Logger().Level() != LevelDebug {
		t.Errorf("--log-level gave %v", n.Logger().Level())
	}
	// Logged before anyone listens: /rosout is transient-local, a late joiner gets it.
	n.Logger().Debugf("starting with team %d", 7)
	n.Logger().Named("gc").Warnf("no GameController")
	listener := newTestNode(t, env, "rqt_console", "/")
	logs := make(chan *rcl_interfaces.Log, 10)
	if _, err := NewSubscription(listener, "/rosout", QoSRosout, func(m *rcl_interfaces.Log) {
		if strings.HasPrefix(m.Name, "robot1.dnetwork") {
			logs <- m
		}
	}); err != nil {
		t.Fatal(err)
	}
	var got []*rcl_interfaces.Log
	for len(got) < 2 {
		select {
		case m := <-logs:
			got = append(got, m)
		case <-time.After(10 * time.Second):
			t.Fatalf("received %d log messages", len(got))
		}
	}
	if got[0].Level != uint8(LevelDebug) || got[0].Msg != "starting with team 7" || got[0].Name != "robot1.dnetwork" {
		t.Errorf("first log %+v", got[0])
	}
	if got[1].Level != uint8(LevelWarn) || got[1].Name != "robot1.dnetwork.gc" || !strings.HasSuffix(got[1].File, "node_test.go") {
		t.Errorf("second log %+v", got[1])
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(console.String(), "[WARN] [") || !strings.Contains(console.String(), "[robot1.dnetwork.gc]: no GameController") {
		t.Errorf("console:\n%s", console.String())
	}
}

func TestDisableLogs(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	var console bytes.Buffer
	var mu sync.Mutex
	a, _, err := rosargs.Parse([]string{"--ros-args", "--disable-rosout-logs", "--disable-stdout-logs"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(context.Background(), "quiet", "/", NodeOptions{Args: a, Getenv: env, LogOutput: lockedWriter{&mu, &console}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.Logger().Errorf("nobody hears this")
	pubs, err := n.Participant().DiscoveredPublications()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pubs {
		if p.Topic == "rt/rosout" && p.ParticipantGUID == n.Participant().GUID() {
			t.Error("rosout writer despite --disable-rosout-logs")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if console.Len() != 0 {
		t.Errorf("console output despite --disable-stdout-logs: %q", console.String())
	}
}

// TestLogLevelOfComponent: --log-level LOGGER:=LEVEL for a component's logger (a child
// of the node's, as the components' are) sets that logger's level, as rcutils does for
// a logger named on the command line; the node's logger and its other children keep
// theirs.
func TestLogLevelOfComponent(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	var console bytes.Buffer
	var mu sync.Mutex
	a, _, err := rosargs.Parse([]string{"--ros-args", "--log-level", "robot1.dnetwork.gc:=debug", "--log-level", "robot1.dnetwork.team.rx:=error"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(context.Background(), "dnetwork", "/robot1", NodeOptions{Args: a, Getenv: env, LogOutput: lockedWriter{&mu, &console}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.Logger().Named("gc").Debugf("gc debug")
	n.Logger().Named("gc").Named("socket").Debugf("gc socket debug") // inherits from gc
	n.Logger().Named("team").Debugf("team debug")                    // the node's info
	n.Logger().Named("team").Infof("team info")
	n.Logger().Named("team").Named("rx").Warnf("team rx warn") // error for team.rx
	n.Logger().Debugf("node debug")
	mu.Lock()
	out := console.String()
	mu.Unlock()
	for _, want := range []string{"gc debug", "gc socket debug", "team info"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not logged:\n%s", want, out)
		}
	}
	for _, not := range []string{"team debug", "team rx warn", "node debug"} {
		if strings.Contains(out, not) {
			t.Errorf("%q logged:\n%s", not, out)
		}
	}
}
