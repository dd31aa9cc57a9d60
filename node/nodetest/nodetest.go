package nodetest

import (
	"context"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// StopWithin is how long a cancelled node may take to return from Run.
const StopWithin = 10 * time.Second

// Run builds a node for cfg on rn, runs it until the test ends and returns it once its
// sockets and topics are up (within upWithin, or the test fails).
func Run(t testing.TB, rn *ros.Node, cfg node.Config, upWithin time.Duration) *node.Node {
	t.Helper()
	n, err := node.New(rn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("robot %d: Run: %v", cfg.RobotID, err)
			}
		case <-time.After(StopWithin):
			t.Errorf("robot %d: Run did not return after cancel", cfg.RobotID)
		}
	})
	up, upCancel := context.WithTimeout(ctx, upWithin)
	defer upCancel()
	if err := n.WaitUp(up); err != nil {
		t.Fatalf("robot %d: %v", cfg.RobotID, err)
	}
	return n
}
