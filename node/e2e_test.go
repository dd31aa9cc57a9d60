//go:build cgo

package node_test

// End-to-end tests: real node.Node instances on real ROS nodes (Cyclone DDS on
// loopback) with real UDP sockets on 127.0.0.1, driven by a test ROS node that
// publishes the robot's inputs and subscribes the node's topics, and by test UDP
// sockets that play GameController and teammates.

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/freeport"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/nodetest"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// cycloneConfig makes discovery work on a loopback interface without multicast:
// unicast SPDP to every participant index on 127.0.0.1.
var cycloneConfig = ddsconfig.Loopback(30, true)

// testEnv returns the environment of the ROS nodes of one test: the loopback Cyclone
// configuration and the test's own domain, which the test takes from
// internal/rosdomain: one per test, because Cyclone reads a domain's configuration
// when the process first creates it, and so that no other test process's traffic
// reaches it.
func testEnv(t testing.TB, domain int) func(string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cyclonedds.xml")
	if err := os.WriteFile(path, []byte(cycloneConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CYCLONEDDS_URI": "file://" + path, "ROS_DOMAIN_ID": strconv.Itoa(domain), "ROS_DISTRO": "jazzy"}
	return func(k string) string { return env[k] }
}

// rosNode creates a ROS node for a test and closes it at the end.
func rosNode(t testing.TB, getenv func(string) string, name string, logs *syncbuf.Buffer, opts ...func(*ros.NodeOptions)) *ros.Node {
	t.Helper()
	o := ros.NodeOptions{Getenv: getenv, LogOutput: logs, NoParameterServices: true}
	for _, f := range opts {
		f(&o)
	}
	rn, err := ros.NewNode(context.Background(), name, "/", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rn.Close() })
	return rn
}

// startNode builds a dnetwork node for cfg on its own ROS node and runs it until the
// test ends (nodetest.Run); the node's log is printed if the test fails.
func startNode(t testing.TB, getenv func(string) string, cfg node.Config, opts ...func(*ros.NodeOptions)) *node.Node {
	t.Helper()
	logs := &syncbuf.Buffer{}
	rn := rosNode(t, getenv, node.NodeName(cfg.RobotID), logs, opts...)
	// Registered first, so it runs after nodetest's cleanup has stopped the node.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("robot %d log:\n%s", cfg.RobotID, logs.String())
		}
	})
	return nodetest.Run(t, rn, cfg, 5*time.Second)
}

// baseConfig is a robot of team 17 on loopback with fast publication rates.
func baseConfig(id int) node.Config {
	c := node.DefaultConfig()
	c.RobotID, c.TeamNumber = id, testTeam
	c.Interface = "lo"
	c.GameController.PublishRate = 10
	c.Diagnostics.Period = 200 * time.Millisecond
	return c
}

const (
	testTeam  = 17
	otherTeam = 5
)

// freePorts returns n distinct UDP ports for the test (package freeport).
func freePorts(t testing.TB, n int) []uint16 {
	t.Helper()
	ports, err := freeport.UDP(n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

// udpSocket opens a test socket on addr (port 0: any) and closes it at the end.
func udpSocket(t testing.TB, addr string) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort(addr)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func localPort(c *net.UDPConn) uint16 { return uint16(c.LocalAddr().(*net.UDPAddr).Port) }

func sendTo(t testing.TB, c *net.UDPConn, b []byte, port uint16) {
	t.Helper()
	if _, err := c.WriteToUDPAddrPort(b, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)); err != nil {
		t.Fatal(err)
	}
}

// collector keeps every message of one topic.
type collector[T any] struct {
	sub interface {
		PublisherCount() (int, error)
		Close() error
	}
	mu   sync.Mutex
	msgs []*T
}

func collect[T any, P cdr.PtrMessage[T]](t testing.TB, rn *ros.Node, topic string) *collector[T] {
	t.Helper()
	c := &collector[T]{}
	sub, err := ros.NewSubscription[T, P](rn, topic, ros.QoSDefault, func(m *T) {
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	c.sub = sub
	return c
}

// mark returns the number of messages so far, for waiting on later ones.
func (c *collector[T]) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// since returns the messages received after mark.
func (c *collector[T]) since(mark int) []*T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*T(nil), c.msgs[mark:]...)
}

// wait returns the first message after mark that satisfies ok, failing the test after
// timeout.
func (c *collector[T]) wait(t testing.TB, mark int, timeout time.Duration, what string, ok func(*T) bool) *T {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		for _, m := range c.since(mark) {
			if ok(m) {
				return m
			}
		}
		if time.Now().After(deadline) {
			msgs := c.since(mark)
			last := "none"
			if len(msgs) > 0 {
				last = fmt.Sprintf("%+v", *msgs[len(msgs)-1])
				if len(last) > 3000 {
					last = last[:3000] + "..."
				}
			}
			t.Fatalf("%s: not within %v (%d messages since mark, the last %s)", what, timeout, len(msgs), last)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitMatched waits until a subscription has found its publisher.
func waitMatched(t testing.TB, what string, count func() (int, error)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if n, err := count(); err == nil && n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no match within 10 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// robotInputs publishes a robot's MotionInfo, BehaviorInfo and VisionInfo at 20 Hz
// until the test ends: robot i stands at (100·i cm, -50·i cm, 10·i deg) and sees the
// ball 50 cm ahead (the "ball near" rate row).
func robotInputs(t testing.TB, rn *ros.Node, id int) {
	t.Helper()
	motion, err := ros.NewPublisher[dmsgs.MotionInfo](rn, fmt.Sprintf("/dmotion_%d/MotionInfo", id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	behavior, err := ros.NewPublisher[dmsgs.BehaviorInfo](rn, fmt.Sprintf("/dbehavior_%d/BehaviorInfo", id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	vision, err := ros.NewPublisher[dmsgs.VisionInfo](rn, fmt.Sprintf("/dvision_%d/VisionInfo", id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []interface{ SubscriptionCount() (int, error) }{motion, behavior, vision} {
		waitMatched(t, fmt.Sprintf("robot %d inputs", id), p.SubscriptionCount)
	}
	m := &dmsgs.MotionInfo{Stable: true}
	b := &dmsgs.BehaviorInfo{CurrentRole: uint8(id), TeamPlayState: dmsgs.BehaviorInfoStatePlaying, AttackRight: true}
	v := &dmsgs.VisionInfo{
		SeeBall: true, SeeField: true, LocOK: true,
		RobotPos:   geometry_msgs.Vector3{X: 100 * float64(id), Y: -50 * float64(id), Z: 10 * float64(id)},
		BallField:  geometry_msgs.Vector3{X: 50},
		BallGlobal: geometry_msgs.Vector3{X: 100*float64(id) + 50, Y: -50 * float64(id)},
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Go(func() {
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			_ = motion.Publish(m)
			_ = behavior.Publish(b)
			_ = vision.Publish(v)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
}

// diagValue returns the value of key in the status named name of a DiagnosticArray.
func diagValue(a *dm.DiagnosticArray, name, key string) (string, bool) {
	for _, s := range a.Status {
		if s.Name != name {
			continue
		}
		for _, kv := range s.Values {
			if kv.Key == key {
				return kv.Value, true
			}
		}
	}
	return "", false
}

// diagCount returns the counter key of the status named name, failing the test when
// it is missing or not a count. Read several counters from one array to compare them.
func diagCount(t testing.TB, a *dm.DiagnosticArray, name, key string) uint64 {
	t.Helper()
	v, ok := diagValue(a, name, key)
	if !ok {
		t.Fatalf("no %q in diagnostics status %q", key, name)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("diagnostics %q %q: %v", name, key, err)
	}
	return n
}

// waitDiag polls n's diagnostics until ok accepts them and returns them, failing the
// test after timeout.
func waitDiag(t testing.TB, n *node.Node, timeout time.Duration, what string, ok func(a *dm.DiagnosticArray) bool) *dm.DiagnosticArray {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		a := n.Diagnostics()
		if ok(&a) {
			return &a
		}
		if time.Now().After(deadline) {
			last := fmt.Sprintf("%+v", a)
			if len(last) > 3000 {
				last = last[:3000] + "..."
			}
			t.Fatalf("%s: not within %v (diagnostics %s)", what, timeout, last)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// diagStatus returns the status named name.
func diagStatus(a *dm.DiagnosticArray, name string) (dm.DiagnosticStatus, bool) {
	for _, s := range a.Status {
		if s.Name == name {
			return s, true
		}
	}
	return dm.DiagnosticStatus{}, false
}

// diagHas reports whether every key of want has that value in the status.
func diagHas(a *dm.DiagnosticArray, name string, want map[string]string) bool {
	for k, v := range want {
		if got, ok := diagValue(a, name, k); !ok || got != v {
			return false
		}
	}
	return true
}

func near(a, b float64) bool { return a-b < 0.1 && b-a < 0.1 }
