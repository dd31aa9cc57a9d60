//go:build cgo

package node_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/node"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestE2EAutoNoInterface runs a node with interface auto in a network namespace that has
// only loopback (a laptop without a network): its sockets cannot open, and its node
// status on /diagnostics is an ERROR that names what auto saw, not a healthy node.
func TestE2EAutoNoInterface(t *testing.T) {
	if _, child := netnstest.Child(); !child {
		netnstest.New(t, "auto").Exec(t, t.Name(), rosdomain.Env(rosdomain.Take(t)))
		return
	}
	getenv := testEnv(t, rosdomain.Inherited(t, 1)[0])
	cfg := baseConfig(1)
	cfg.Interface = "auto"
	logs := &syncbuf.Buffer{}
	rn := rosNode(t, getenv, node.NodeName(1), logs)
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
			t.Errorf("Run: %v", err)
		}
	}()

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	const status = "dnetwork_1: " + node.DiagNode
	a := diags.wait(t, 0, 15*time.Second, "an ERROR in robot 1's node status", func(a *dm.DiagnosticArray) bool {
		st, _ := diagStatus(a, status)
		return st.Level == dm.DiagnosticStatusError
	})
	st, _ := diagStatus(a, status)
	if st.Level != dm.DiagnosticStatusError || !strings.Contains(st.Message, "auto found no up, running, broadcast-capable, non-loopback IPv4 interface (seen: lo (loopback))") {
		t.Errorf("node status: level %d %q, want an ERROR naming lo", st.Level, st.Message)
	}
}
