//go:build cgo

package node_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/record"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// TestE2ESim3d runs two robots whose team talk goes over the 3D simulator's say/hear
// channel (team.enabled false, sim3d.enabled true). The test plays the simulator: every
// message a robot publishes on /dnetwork_<id>/sim3d/say is heard by both robots on
// /dnetwork_<id>/sim3d/hear (by the speaker as its own). Each robot must publish its
// teammate's state on TeamInfo and count its own echo in /diagnostics. Robot 1 records:
// its say and hear messages are in the file, as sent and received.
func TestE2ESim3d(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	const robots = 2
	recDir := t.TempDir()
	for id := 1; id <= robots; id++ {
		cfg := baseConfig(id)
		cfg.TeamEnabled = false
		cfg.GameControllerPort = freePorts(t, 1)[0]
		cfg.Sim3DEnabled = true
		cfg.Sim3D.Key = "ZJUDancer"
		cfg.Sim3D.TeamName = "ZJU"
		cfg.Sim3D.TeamSize = robots
		if id == 1 {
			cfg.Record.Enabled, cfg.Record.Dir, cfg.Record.MinFreeMiB = true, recDir, 0
			cfg.Record.FlushInterval = 50 * time.Millisecond
		}
		startNode(t, getenv, cfg)
	}
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	hear := make([]*ros.Publisher[dmsgs.Sim3dHear, *dmsgs.Sim3dHear], robots)
	infos := make([]*collector[dmsgs.TeamInfo], robots)
	for i := range robots {
		var err error
		if hear[i], err = ros.NewPublisher[dmsgs.Sim3dHear](tester, fmt.Sprintf("/dnetwork_%d/sim3d/hear", i+1), ros.QoSDefault); err != nil {
			t.Fatal(err)
		}
		waitMatched(t, "sim3d/hear", hear[i].SubscriptionCount)
		infos[i] = collect[dmsgs.TeamInfo](t, tester, fmt.Sprintf("/dnetwork_%d/TeamInfo", i+1))
	}
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	var mu sync.Mutex
	said := map[int]int{}
	for i := range robots {
		speaker := i
		sub, err := ros.NewSubscription(tester, fmt.Sprintf("/dnetwork_%d/sim3d/say", i+1), ros.QoSDefault, func(m *dmsgs.Sim3dSay) {
			mu.Lock()
			said[speaker]++
			mu.Unlock()
			for j, p := range hear {
				_ = p.Publish(&dmsgs.Sim3dHear{GameTime: 12.5, Team: "ZJU", Own: j == speaker, Direction: 30, Message: m.Message})
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		waitMatched(t, "sim3d/say", sub.PublisherCount)
		robotInputs(t, tester, i+1)
	}

	for i := range robots {
		mate := 2 - i
		m := infos[i].wait(t, 0, 10*time.Second, fmt.Sprintf("robot %d hears robot %d", i+1, mate), func(m *dmsgs.TeamInfo) bool {
			// The first messages may precede some of the speaker's inputs: wait for one
			// that carries both its vision (ball) and its behaviour (role).
			return int(m.PlayerNumber) == mate && m.SeeBall && m.Role == uint8(mate)
		})
		if m.TeamNumber != testTeam || !near(m.RobotPos.X, 100*float64(mate)) || !near(m.RobotPos.Y, -50*float64(mate)) ||
			m.Role != uint8(mate) || m.Format != dmsgs.TeamInfoFormatDnet {
			t.Errorf("robot %d heard robot %d as %+v", i+1, mate, m)
		}
	}
	diags.wait(t, 0, 5*time.Second, "sim3d diagnostics", func(a *dm.DiagnosticArray) bool {
		v, ok := diagValue(a, "dnetwork_1: sim3d", "dropped_self")
		acc, _ := diagValue(a, "dnetwork_1: sim3d", "accepted")
		return ok && v != "0" && acc != "0"
	})
	mu.Lock()
	if said[0] == 0 || said[1] == 0 {
		t.Errorf("messages said: %v", said)
	}
	mu.Unlock()

	// Robot 1's recording holds what it said and what it heard (its own echo and robot 2).
	files, _ := filepath.Glob(filepath.Join(recDir, "dnetwork_1_*.pcapng"))
	if len(files) != 1 {
		t.Fatalf("recordings: %v", files)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		pkts, _ := capture.ReadFile(files[0])
		sent, heard := map[string]bool{}, 0
		for _, p := range pkts {
			if p.Interface != "sim3d" {
				continue
			}
			switch {
			case p.Dir == transport.Sent && p.Dst == record.Sim3dServer && len(p.Payload) > 0:
				sent[string(p.Payload)] = true
			case p.Dir == transport.Received && p.Src == record.Sim3dServer:
				heard++
			}
		}
		if len(sent) > 0 && heard > len(sent) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sim3d in the recording: %d said, %d heard, want some and more heard than said", len(sent), heard)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestE2ESim3dServerTime hands a robot the server time on /dnetwork_1/sim3d/time, as the
// agent relays it, and checks that the robot talks in its turns of the server's cycles:
// player 1 of 2 with three-cycle slots says once in every six server cycles, however
// fast the server's time runs against the clock.
func TestE2ESim3dServerTime(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	cfg := baseConfig(1)
	cfg.TeamEnabled = false
	cfg.GameControllerPort = freePorts(t, 1)[0]
	cfg.Sim3DEnabled = true
	cfg.Sim3D.Key = "ZJUDancer"
	cfg.Sim3D.TeamSize = 2
	cfg.Sim3D.SlotCycles = 3
	cfg.Sim3D.ServerTimeTimeout = 10 * time.Second // a loaded machine must not fall back to the clock
	n := startNode(t, getenv, cfg)
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	clk, err := ros.NewPublisher[rosgraph_msgs.Clock](tester, "/dnetwork_1/sim3d/time", ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, "sim3d/time", clk.SubscriptionCount)
	var mu sync.Mutex
	var said int
	sub, err := ros.NewSubscription(tester, "/dnetwork_1/sim3d/say", ros.QoSDefault, func(*dmsgs.Sim3dSay) {
		mu.Lock()
		said++
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, "sim3d/say", sub.PublisherCount)
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")

	publish := func(c int) {
		d := time.Duration(c) * 20 * time.Millisecond
		if err := clk.Publish(&rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: int32(d / time.Second), Nanosec: uint32(d % time.Second)}}); err != nil {
			t.Fatal(err)
		}
	}
	// Until the first server time arrives the robot talks on its clock: count from then,
	// by the node's own count, as says on the clock may still be on their way to the test.
	publish(1000)
	const sim3dStatus = "dnetwork_1: sim3d"
	a := waitDiag(t, n, 5*time.Second, "the robot takes the server time", func(a *dm.DiagnosticArray) bool {
		s, ok := diagStatus(a, sim3dStatus)
		return ok && s.Message == "time base server"
	})
	// The node's cycle ticker evaluates the slot rule too: once it has done so on the
	// server's time (cycle 1000 is not player 1's: not due), an evaluation on the clock
	// that was still publishing its say has finished, and nothing else says until cycle
	// 1001 comes.
	notDue := diagCount(t, a, sim3dStatus, "not_due")
	a = waitDiag(t, n, 5*time.Second, "an evaluation on the server's time", func(a *dm.DiagnosticArray) bool {
		return diagCount(t, a, sim3dStatus, "not_due") > notDue
	})
	said0 := diagCount(t, a, sim3dStatus, "said")
	mu.Lock()
	heard0 := said
	mu.Unlock()

	// Server cycles 1001..1120 at a quarter of real time: 20 of them are player 1's
	// (cycle mod 6 == 0), whatever the clock says.
	const first, last = 1001, 1120
	for c := first; c <= last; c++ {
		publish(c)
		time.Sleep(80 * time.Millisecond)
	}
	want := 0
	for c := first; c <= last; c++ {
		if c%6 == 0 {
			want++
		}
	}
	// The node said want messages, all of which reached the test (with, perhaps, says
	// on the clock that were still on their way when counting began).
	for deadline := time.Now().Add(5 * time.Second); ; {
		a := n.Diagnostics()
		got := diagCount(t, &a, sim3dStatus, "said") - said0
		mu.Lock()
		heard := said - heard0
		mu.Unlock()
		if got == uint64(want) && heard >= want {
			break
		}
		if got > uint64(want) || time.Now().After(deadline) {
			t.Fatalf("said %d messages in server cycles %d..%d (%d reached the test), want %d", got, first, last, heard, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	diags.wait(t, 0, 5*time.Second, "sim3d diagnostics on the server's time", func(a *dm.DiagnosticArray) bool {
		for _, s := range a.Status {
			if s.Name == "dnetwork_1: sim3d" {
				return s.Message == "time base server"
			}
		}
		return false
	})
}

func ptr[T any](v T) *T { return &v }
