//go:build cgo

package node_test

import (
	"errors"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// TestNewOnClosedROSNode: New on a ROS node that was closed (SIGTERM during start-up)
// fails with ros.ErrClosed and returns no node; it does not panic.
func TestNewOnClosedROSNode(t *testing.T) {
	rn := rosNode(t, testEnv(t, rosdomain.Take(t)), node.NodeName(1), &syncbuf.Buffer{})
	if err := rn.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := node.New(rn, baseConfig(1))
	if !errors.Is(err, ros.ErrClosed) || n != nil {
		t.Fatalf("New on a closed ROS node: %v, %v; want nil, ros.ErrClosed", n, err)
	}
}
