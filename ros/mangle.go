package ros

import "strings"

// DDS topic name prefixes of ROS 2 (rmw namespace_prefix): topics, service requests,
// service replies.
const (
	prefixTopic   = "rt"
	prefixRequest = "rq"
	prefixReply   = "rr"
)

// DiscoveryTopic is the DDS topic on which every ROS 2 participant publishes its nodes
// and their endpoints (rmw_dds_common/msg/ParticipantEntitiesInfo). It has no prefix.
const DiscoveryTopic = "ros_discovery_info"

// TopicDDSName returns the DDS topic of the fully qualified ROS topic fqn:
// "/robot1/chatter" → "rt/robot1/chatter".
func TopicDDSName(fqn string) string { return prefixTopic + fqn }

// ServiceDDSNames returns the request and reply DDS topics of the fully qualified ROS
// service fqn: "/robot1/dnetwork/get_parameters" →
// "rq/robot1/dnetwork/get_parametersRequest", "rr/robot1/dnetwork/get_parametersReply".
func ServiceDDSNames(fqn string) (request, reply string) {
	return prefixRequest + fqn + "Request", prefixReply + fqn + "Reply"
}

// DemangleTopic returns the ROS topic of a DDS topic name, or false for a DDS topic
// that is not a ROS topic (as rmw's demangler does).
func DemangleTopic(dds string) (string, bool) {
	if !strings.HasPrefix(dds, prefixTopic+"/") {
		return "", false
	}
	return dds[len(prefixTopic):], true
}

// DemangleService returns the ROS service of a request or reply DDS topic name, or
// false for any other DDS topic.
func DemangleService(dds string) (string, bool) {
	for _, p := range [...][2]string{{prefixRequest, "Request"}, {prefixReply, "Reply"}} {
		if strings.HasPrefix(dds, p[0]+"/") && strings.HasSuffix(dds, p[1]) && len(dds) > len(p[0])+1+len(p[1]) {
			return dds[len(p[0]) : len(dds)-len(p[1])], true
		}
	}
	return "", false
}
