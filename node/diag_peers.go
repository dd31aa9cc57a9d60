package node

import (
	"fmt"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// peerValues adds to the node's status what its ROS endpoints could not do with their
// peers since the node started (ros.Node.PeerIssues), one value per endpoint and kind:
//
//	/dnetwork_1/GCInfo incompatible subscribers      subscriptions refused for their QoS
//	/dmotion_1/MotionInfo incompatible publishers    publishers refused for their QoS
//	/dnetwork_1/GCMessage unanswerable requests      requests of rmw_fastrtps clients dropped
//
// It returns the warning that refusals for QoS give, naming topic, count and policy
// ("" for none): such a peer gets nothing until its QoS or the node's changes.
// Unanswerable requests are logged with the fix and only counted here.
func peerValues(b *diagnostics.Status, issues []ros.PeerIssue) string {
	var warn []string
	for _, i := range issues {
		b.Add(i.Name+" "+i.Kind.String(), i.Count)
		if i.Kind != ros.ForeignRequests {
			warn = append(warn, fmt.Sprintf("%s: %d %s (%s)", i.Name, i.Count, i.Kind, i.Last))
		}
	}
	if len(warn) == 0 {
		return ""
	}
	return "incompatible QoS: " + strings.Join(warn, "; ")
}

// inputWarning is the node status's warning: refusals for QoS first (they are often why
// an input is stale, and a status has one message), then the stale inputs; "" if none.
func inputWarning(qos string, stale []string) string {
	if qos != "" {
		stale = append([]string{qos}, stale...)
	}
	return strings.Join(stale, "; ")
}
