package ros

import "testing"

func TestMangling(t *testing.T) {
	if got := TopicDDSName("/robot1/team_status"); got != "rt/robot1/team_status" {
		t.Errorf("TopicDDSName = %q", got)
	}
	if got := TopicDDSName("/parameter_events"); got != "rt/parameter_events" {
		t.Errorf("TopicDDSName = %q", got)
	}
	rq, rr := ServiceDDSNames("/robot1/dnetwork/get_parameters")
	if rq != "rq/robot1/dnetwork/get_parametersRequest" || rr != "rr/robot1/dnetwork/get_parametersReply" {
		t.Errorf("ServiceDDSNames = %q, %q", rq, rr)
	}
	for dds, want := range map[string]string{"rt/robot1/chatter": "/robot1/chatter", "rt/rosout": "/rosout"} {
		if got, ok := DemangleTopic(dds); !ok || got != want {
			t.Errorf("DemangleTopic(%q) = %q, %v", dds, got, ok)
		}
	}
	for _, dds := range []string{"ros_discovery_info", "rq/x/yRequest", "rtx/y", "DCPSParticipant"} {
		if got, ok := DemangleTopic(dds); ok {
			t.Errorf("DemangleTopic(%q) = %q, want not a topic", dds, got)
		}
	}
	for dds, want := range map[string]string{
		"rq/robot1/dnetwork/get_parametersRequest": "/robot1/dnetwork/get_parameters",
		"rr/robot1/dnetwork/get_parametersReply":   "/robot1/dnetwork/get_parameters",
	} {
		if got, ok := DemangleService(dds); !ok || got != want {
			t.Errorf("DemangleService(%q) = %q, %v", dds, got, ok)
		}
	}
	for _, dds := range []string{"rt/x", "rq/xReply", "rr/xRequest", "rq/Request", "rq/x"} {
		if got, ok := DemangleService(dds); ok {
			t.Errorf("DemangleService(%q) = %q, want not a service", dds, got)
		}
	}
}
