//go:build cgo

package node_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestE2EBoosterStandIn runs a node in team.format booster (unicast mode, as the vendor's
// main branch) beside a stand-in Booster robot on 127.0.0.2 that sends, every 100 ms,
// the discovery packet and team message the vendor's header compiled with g++ writes,
// to the node's ports 20000 + team and 30000 + team. The node must publish the robot as
// a teammate on /dnetwork_2/TeamInfo, and send its own message by unicast to the robot's
// address on 30000 + team, where the C struct reads it.
func TestE2EBoosterStandIn(t *testing.T) {
	prog := boostertest.Build(t, boostertest.Main)
	getenv := testEnv(t, rosdomain.Take(t))
	unicast := uint16(booster.PortUnicast + testTeam)
	discovery := uint16(booster.PortDiscovery + testTeam)

	// The stand-in's socket: its unicast port on its own address, shared with the node's
	// socket on the same port as the vendor's robots share theirs (SO_REUSEADDR).
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
		}); err != nil {
			return err
		}
		return serr
	}}

	cfg := baseConfig(2)
	cfg.Team.Format, cfg.Team.BoosterMode = team.FormatBooster, team.BoosterUnicast
	cfg.GameControllerPort = freePorts(t, 1)[0]
	startNode(t, getenv, cfg)

	pc, err := lc.ListenPacket(context.Background(), "udp4", netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), unicast).String())
	if err != nil {
		t.Fatalf("stand-in socket: %v", err)
	}
	robot := pc.(*net.UDPConn)
	defer robot.Close()

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.TeamInfo](t, tester, "/dnetwork_2/TeamInfo")
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	waitMatched(t, "TeamInfo", infos.sub.PublisherCount)
	robotInputs(t, tester, 2)

	msg, disc := prog.Write(t, testTeam, 3)
	nodeAt := func(port uint16) netip.AddrPort { return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port) }
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			_, _ = robot.WriteToUDPAddrPort(disc, nodeAt(discovery))
			_, _ = robot.WriteToUDPAddrPort(msg, nodeAt(unicast))
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()

	m := infos.wait(t, 0, 10*time.Second, "the Booster robot published", func(m *dmsgs.TeamInfo) bool { return m.PlayerNumber == 3 })
	if m.TeamNumber != testTeam || m.Format != dmsgs.TeamInfoFormatBooster || !near(m.RobotPos.X, -225) ||
		!near(m.RobotPos.Y, 100) || !near(m.BallGlobal.X, 150) || !m.SeeBall {
		t.Errorf("published %+v", m)
	}

	buf := make([]byte, 2048)
	_ = robot.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		n, from, err := robot.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatalf("the stand-in robot heard no Booster message: %v", err)
		}
		if n != booster.Size {
			continue
		}
		got := prog.Read(t, buf[:n])
		if len(got) != 1 || !strings.HasPrefix(got[0], "msg validation=31202 ") ||
			!strings.Contains(got[0], " teamId=17 playerId=2 ") || from.Port() != unicast {
			t.Fatalf("the stand-in robot read %q from %v", got, from)
		}
		break
	}
	// /diagnostics counts the discovery and names the format.
	diags.wait(t, 0, 10*time.Second, "booster diagnostics", func(a *dm.DiagnosticArray) bool {
		v, _ := diagValue(a, "dnetwork_2: team", "discovery_accepted")
		f, _ := diagValue(a, "dnetwork_2: team", "format")
		return v != "" && v != "0" && f == "booster" &&
			diagHas(a, "dnetwork_2: "+node.DiagSocketPrefix+"booster-discovery", map[string]string{"state": "up"})
	})
}
