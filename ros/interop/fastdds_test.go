//go:build cgo

package interop

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/fastddspeer"
	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
)

// discoveryCase is a ROS environment shared by a dnetwork node (on Cyclone) and a Fast
// DDS peer set up as rmw_fastrtps sets itself up for that environment.
type discoveryCase struct {
	name    string
	env     map[string]string // the node's environment besides ROS_DOMAIN_ID
	profile string            // the peer's (fastddspeer)
	xml     bool              // the peer reads the Fast DDS profile of docs/fastdds.md
}

// discoveryCases are TestFastDDSDiscovery's cases, each measured in two domains of its own.
var discoveryCases = []discoveryCase{
	{"Humble, ROS_LOCALHOST_ONLY=1", map[string]string{"ROS_DISTRO": "humble", "ROS_LOCALHOST_ONLY": "1"}, "humble-localhost", false},
	{"Humble, ROS_LOCALHOST_ONLY=1, Fast DDS with initial peer 127.0.0.1 for 4 indexes", map[string]string{"ROS_DISTRO": "humble", "ROS_LOCALHOST_ONLY": "1"}, "peers:4", false},
	{"Humble, ROS_LOCALHOST_ONLY=1 for the node, Fast DDS with the profile of docs/fastdds.md", map[string]string{"ROS_DISTRO": "humble", "ROS_LOCALHOST_ONLY": "1"}, "humble", true},
	{"Jazzy, ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST", map[string]string{"ROS_DISTRO": "jazzy", "ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}, "jazzy-localhost", false},
}

// TestFastDDSDiscovery measures how long a dnetwork node and an rmw_fastrtps process
// (the Fast DDS peer) on one host take to find each other on a loopback interface
// without multicast, the way ROS's Humble and Jazzy settings configure both sides,
// with each side started second: the time from the second one's start until the
// peer has matched the node's publisher and the node's subscription the peer's
// publisher. It runs in its own network namespace and logs the figures; it fails only
// when discovery does not happen within 20 s.
func TestFastDDSDiscovery(t *testing.T) {
	bin := fastddspeer.Build(t)
	if _, child := netnstest.Child(); !child {
		netnstest.Require(t)
		ns := netnstest.New(t, "fastdds")
		ns.IP(t, "link", "set", "lo", "multicast", "off") // as the machines' own lo
		domains := make([]int, 2*len(discoveryCases))
		for i := range domains {
			domains[i] = rosdomain.Take(t)
		}
		out := ns.Exec(t, t.Name(), rosdomain.Env(domains...))
		for _, l := range strings.Split(out, "\n") {
			if i := strings.Index(l, "discovery: "); i >= 0 {
				t.Log(l[i:])
			}
		}
		return
	}
	domains := rosdomain.Inherited(t, 2*len(discoveryCases))
	for j, c := range discoveryCases {
		for i, nodeFirst := range []bool{true, false} {
			peerTime, nodeTime := measureDiscovery(t, bin, c, domains[2*j+i], nodeFirst)
			first := "the Fast DDS process"
			if nodeFirst {
				first = "the node"
			}
			t.Logf("discovery: %s, %s started first: Fast DDS matched the node after %v, the node matched Fast DDS after %v",
				c.name, first, peerTime.Round(time.Millisecond), nodeTime.Round(time.Millisecond))
		}
	}
}

// measureDiscovery starts a node and a peer in domain, one second apart, and returns
// the time from the second start until each side has matched the other's publisher.
func measureDiscovery(t *testing.T, bin string, c discoveryCase, domain int, nodeFirst bool) (peerMatched, nodeMatched time.Duration) {
	env := map[string]string{"ROS_DOMAIN_ID": strconv.Itoa(domain)}
	for k, v := range c.env {
		env[k] = v
	}
	var node *ros.Node
	var sub *ros.Subscription[dmsgs.MotionInfo, *dmsgs.MotionInfo]
	startNode := func() {
		var err error
		node, err = ros.NewNode(context.Background(), "dnetwork", "/", ros.NodeOptions{Getenv: func(k string) string { return env[k] }, LogOutput: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		if _, err = ros.NewPublisher[std_msgs.String](node, "/chatter", ros.QoSDefault); err != nil {
			t.Fatal(err)
		}
		if sub, err = ros.NewSubscription(node, "/dmotion_1/MotionInfo", ros.QoSDefault, func(*dmsgs.MotionInfo) {}); err != nil {
			t.Fatal(err)
		}
	}
	var peer *fastddspeer.Peer
	var peerEnv []string
	if c.xml {
		peerEnv = append(peerEnv, "FASTRTPS_DEFAULT_PROFILES_FILE="+docsProfile(t))
	}
	startPeer := func() {
		peer = fastddspeer.Start(t, bin, domain, c.profile, peerEnv...)
		peer.Send(t, "sub chatter rt/chatter std_msgs::msg::dds_::String_ raw reliable,volatile,10")
		peer.Send(t, "pub motion rt/dmotion_1/MotionInfo dmsgs::msg::dds_::MotionInfo_ motion reliable,volatile,10 1 100")
	}
	if nodeFirst {
		startNode()
	} else {
		startPeer()
	}
	time.Sleep(time.Second) // the first one is past its start-up announcements
	start := time.Now()
	if nodeFirst {
		startPeer()
	} else {
		startNode()
	}
	deadline := start.Add(20 * time.Second)
	for peerMatched == 0 || nodeMatched == 0 {
		if peerMatched == 0 {
			for _, f := range peer.Fields("MATCH", "chatter") {
				var n, ns int64
				if _, err := fmt.Sscan(f, &n, &ns); err == nil && n > 0 {
					peerMatched = time.Unix(0, ns).Sub(start)
				}
			}
		}
		if n, _ := sub.PublisherCount(); n > 0 && nodeMatched == 0 {
			nodeMatched = time.Since(start)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s (domain %d): not discovered within 20 s: Fast DDS matched after %v, the node after %v (0: not yet)", c.name, domain, peerMatched, nodeMatched)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Both sides go before the next case.
	peer.Stop()
	node.Close()
	return peerMatched, nodeMatched
}

// docsProfile writes the Fast DDS XML profile that docs/fastdds.md recommends (its
// first xml block) to a file and returns the file's path.
func docsProfile(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/fastdds.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```xml\n")
	xml, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/fastdds.md has no xml block")
	}
	path := filepath.Join(t.TempDir(), "fastdds_profile.xml")
	if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
