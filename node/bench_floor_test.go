//go:build cgo

package node_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// BenchmarkTeamOfSixFloor is BenchmarkTeamOfSix with a floor in the child process
// instead of the node: the same traffic handled by nothing but the I/O the node cannot
// avoid (floorTraffic). The node's figures over these are what its own work costs; on
// a machine where a thread wake-up is expensive, the floor shows how low the node can
// go there at all.
func BenchmarkTeamOfSixFloor(b *testing.B) {
	benchTeamOfSix(b, benchChildFloor+"=traffic")
}

// floorTraffic is the child's "traffic" floor: the ROS node, subscriptions to the
// robot's three inputs whose handlers do nothing, the team and GameController ports
// read with Go's net package, a TeamInfo (the last teammate's fields left zero)
// published for every datagram on the team port and a GCInfo for every one on the
// GameController port, and a 15 Hz ticker sending a 109-byte datagram (a dnet packet's
// size) to each teammate. It returns when ctx is done.
func floorTraffic(ctx context.Context, t *testing.T, rn *ros.Node, cfg node.Config) {
	id := cfg.RobotID
	for _, sub := range []func() (interface{ Close() error }, error){
		func() (interface{ Close() error }, error) {
			return ros.NewSubscriptionReused(rn, fmt.Sprintf("/dmotion_%d/MotionInfo", id), ros.QoSDefault, func(*dmsgs.MotionInfo) {})
		},
		func() (interface{ Close() error }, error) {
			return ros.NewSubscriptionReused(rn, fmt.Sprintf("/dbehavior_%d/BehaviorInfo", id), ros.QoSDefault, func(*dmsgs.BehaviorInfo) {})
		},
		func() (interface{ Close() error }, error) {
			return ros.NewSubscriptionReused(rn, fmt.Sprintf("/dvision_%d/VisionInfo", id), ros.QoSDefault, func(*dmsgs.VisionInfo) {})
		},
	} {
		s, err := sub()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
	}
	teamInfo, err := ros.NewPublisher[dmsgs.TeamInfo](rn, fmt.Sprintf("/dnetwork_%d/TeamInfo", id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	defer teamInfo.Close()
	gcInfo, err := ros.NewPublisher[dmsgs.GCInfo](rn, fmt.Sprintf("/dnetwork_%d/GCInfo", id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	defer gcInfo.Close()
	listen := func(port uint16) *net.UDPConn {
		c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	team, gc := listen(cfg.Team.Port), listen(cfg.GameControllerPort)
	defer team.Close()
	defer gc.Close()
	// Each datagram read is answered by one publication.
	republish := func(c *net.UDPConn, publish func()) {
		buf := make([]byte, 1500)
		for {
			if _, _, err := c.ReadFromUDPAddrPort(buf); err != nil {
				return
			}
			publish()
		}
	}
	var ti dmsgs.TeamInfo
	var gi dmsgs.GCInfo
	go republish(team, func() { _ = teamInfo.Publish(&ti) })
	go republish(gc, func() { _ = gcInfo.Publish(&gi) })
	out := make([]byte, 109)
	tk := clock.Wall.NewTicker(time.Second / 15)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C():
			for _, p := range cfg.Team.Peers {
				_, _ = team.WriteToUDPAddrPort(out, p)
			}
		}
	}
}
