package node

import (
	"testing"

	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

func TestPeerValues(t *testing.T) {
	b := diagnostics.NewStatus(DiagNode).Level(diagnostics.OK, "running")
	peerValues(b, []ros.PeerIssue{
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
	if s.Level != diagnostics.Warn || s.Message != "incompatible QoS: /dnetwork_1/GCInfo: 2 incompatible subscribers (DURABILITY)" {
		t.Errorf("level %d %q", s.Level, s.Message)
	}
	// Unanswerable requests alone are counted, not warned about.
	b = diagnostics.NewStatus(DiagNode).Level(diagnostics.OK, "running")
	peerValues(b, []ros.PeerIssue{{Name: "/dnetwork_1/GCMessage", Kind: ros.ForeignRequests, Count: 1}})
	if s := b.Done(); s.Level != diagnostics.OK || len(s.Values) != 1 {
		t.Errorf("foreign requests only: level %d, values %+v", s.Level, s.Values)
	}
}
