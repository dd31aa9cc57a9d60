//go:build cgo

package node_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
)

// TestSlogRosoutCallSite: what a component logs through SlogLogger reaches /rosout
// (rqt_console) with the file, line and function that logged it, under the component's
// logger name, not with the adapter's call site.
func TestSlogRosoutCallSite(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	rn := rosNode(t, getenv, "dnetwork_9", &syncbuf.Buffer{})
	l := node.SlogLogger(rn.Logger())
	_, _, line, _ := runtime.Caller(0)
	l.With("component", "team").Warn("teammate lost", "player", 4)

	// /rosout is transient-local: a listener that joins later still gets it.
	listener := rosNode(t, getenv, "rqt_console", &syncbuf.Buffer{})
	logs := make(chan *rcl_interfaces.Log, 10)
	if _, err := ros.NewSubscription(listener, "/rosout", ros.QoSRosout, func(m *rcl_interfaces.Log) {
		if strings.HasPrefix(m.Msg, "teammate lost") {
			logs <- m
		}
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-logs:
		if !strings.HasSuffix(m.File, "e2e_log_test.go") || int(m.Line) != line+1 ||
			!strings.HasSuffix(m.Function, "TestSlogRosoutCallSite") || m.Level != uint8(ros.LevelWarn) ||
			!strings.HasSuffix(m.Name, "dnetwork_9.team") || m.Msg != "teammate lost player=4" {
			t.Errorf("/rosout %s:%d %s, %+v; want line %d of this test", m.File, m.Line, m.Function, m, line+1)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no /rosout message within 10 s")
	}
}
