package node

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

func TestPeerValues(t *testing.T) {
	b := diagnostics.NewStatus(DiagNode).Level(diagnostics.OK, "running")
	warn := peerValues(b, []ros.PeerIssue{
		{Name: "/dnetwork_1/GCInfo", Kind: ros.IncompatibleSubscribers, Count: 2, Last: "DURABILITY"},
		{Name: "/dnetwork_1/get_parameters", Kind: ros.ForeignRequests, Count: 3, Last: "rmw_fastrtps_cpp"},
	})
	s := b.Done()
	want := []dm.KeyValue{
		{Key: "/dnetwork_1/GCInfo incompatible subscribers", Value: "2"},
		{Key: "/dnetwork_1/get_parameters unanswerable requests", Value: "3"},
	}
	if len(s.Values) != len(want) || s.Values[0] != want[0] || s.Values[1] != want[1] {
		t.Errorf("values %+v, want %+v", s.Values, want)
	}
	if warn != "incompatible QoS: /dnetwork_1/GCInfo: 2 incompatible subscribers (DURABILITY)" {
		t.Errorf("warning %q", warn)
	}
	// Unanswerable requests alone are counted, not warned about.
	b = diagnostics.NewStatus(DiagNode).Level(diagnostics.OK, "running")
	if w := peerValues(b, []ros.PeerIssue{{Name: "/dnetwork_1/GCMessage", Kind: ros.ForeignRequests, Count: 1}}); w != "" || len(b.Done().Values) != 1 {
		t.Errorf("foreign requests only: warning %q, values %+v", w, b.Done().Values)
	}
}

// TestInputWarning: a refused publisher shows in the node's status also while the
// inputs are stale (a refused publisher's input is stale by definition).
func TestInputWarning(t *testing.T) {
	qos := "incompatible QoS: /dbehavior_1/BehaviorInfo: 1 incompatible publishers (RELIABILITY)"
	stale := []string{"no /dbehavior_1/BehaviorInfo yet"}
	for _, tc := range []struct {
		qos   string
		stale []string
		want  string
	}{
		{"", nil, ""},
		{"", stale, "no /dbehavior_1/BehaviorInfo yet"},
		{qos, nil, qos},
		{qos, stale, qos + "; no /dbehavior_1/BehaviorInfo yet"},
	} {
		if got := inputWarning(tc.qos, tc.stale); got != tc.want {
			t.Errorf("inputWarning(%q, %q) = %q, want %q", tc.qos, tc.stale, got, tc.want)
		}
	}
}
