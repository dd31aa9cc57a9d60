//go:build cgo

package node_test

import (
	"context"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// TestE2ESimTime runs a node with use_sim_time true: its components must run on the
// time of /clock. Nothing is published while /clock is silent; then the test publishes
// a simulation time from 1000 s on, at half the speed of the wall clock, and the
// GCInfo stamps must be simulation times at the configured rate of simulation time.
//
// Simulation time runs slower than the wall clock so that the rate tells the two clocks
// apart (a wall-clock ticker would publish twice as often) and so that scheduling delays
// of the loaded test machine shrink, rather than grow, when measured in simulation time.
func TestE2ESimTime(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	store, err := params.NewStore([]params.Override{{Name: params.UseSimTime, Value: params.Bool(true), NodeKey: "/**"}})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncbuf.Buffer{}
	rn, err := ros.NewNode(context.Background(), "dnetwork_4", "/", ros.NodeOptions{
		Getenv: getenv, LogOutput: logs, NoParameterServices: true, Params: store})
	if err != nil {
		t.Fatal(err)
	}
	defer rn.Close()
	cfg := baseConfig(4)
	cfg.TeamEnabled = false
	cfg.GameControllerPort = freePorts(t, 1)[0]
	cfg.GameController.PublishRate = 2 // 1 per wall second at half speed
	n, err := node.New(rn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_4/GCInfo")
	clockPub, err := ros.NewPublisher[rosgraph_msgs.Clock](tester, "/clock", ros.QoSClock)
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	waitMatched(t, "/clock", clockPub.SubscriptionCount)
	// No GCInfo before the first /clock: one would come first on the topic, stamped
	// with no simulation time (checked below), and the node counts every GCInfo it
	// publishes from its start, matched or not (compared below with what arrived).

	// 2 s of simulation time in 5 ms steps, one every 10 ms of wall time (at half speed):
	// as much simulation time however long a loaded machine takes for it.
	start := time.Unix(1000, 0)
	tk := time.NewTicker(10 * time.Millisecond)
	for i := range 401 {
		sim := start.Add(time.Duration(i) * 5 * time.Millisecond)
		_ = clockPub.Publish(&rosgraph_msgs.Clock{Clock: builtin_interfaces.NewTime(sim)})
		<-tk.C
	}
	tk.Stop()

	// Simulation time stands still now, and so does the node: wait until everything it
	// published has arrived.
	const gcStatus = "dnetwork_4: gamecontroller"
	for deadline := time.Now().Add(5 * time.Second); ; {
		a := n.Diagnostics()
		published := diagCount(t, &a, gcStatus, "gcinfo_published")
		got := uint64(infos.mark())
		if got == published {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the node published %d GCInfo messages, %d arrived (one before the first /clock, before the test listened?)", published, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	msgs := infos.since(0)
	// 2 s of simulation time at 2 Hz: 4 messages (a wall-clock ticker would give 8).
	if len(msgs) < 3 || len(msgs) > 6 {
		t.Errorf("%d GCInfo messages in 2 s of simulation time at 2 Hz", len(msgs))
	}
	for i, m := range msgs {
		ts := m.Stamp.Time()
		if ts.Before(start) || ts.After(start.Add(3*time.Second)) {
			t.Fatalf("GCInfo %d stamped %v, not simulation time", i, ts)
		}
		if i > 0 {
			if d := ts.Sub(msgs[i-1].Stamp.Time()); d < 400*time.Millisecond || d > 600*time.Millisecond {
				t.Errorf("GCInfo %d: %v of simulation time after the previous one, want 500 ms", i, d)
			}
		}
	}
	if t.Failed() {
		t.Logf("node log:\n%s", logs.String())
	}
}
