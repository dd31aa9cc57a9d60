// Package interop checks dnetwork's ROS 2 layer against an independent DDS peer:
// a C program built at test time from Cyclone DDS's own tools. idlc compiles
// testdata/ros_types.idl — the ROS types under the names ROS announces in DDS
// (std_msgs String, rmw_dds_common ParticipantEntitiesInfo with 16- or 24-byte GIDs,
// rcl_interfaces GetParameters with rmw_cyclonedds' request header) — and gcc links
// the generated C types with testdata/peer.c against libddsc.
//
// The peer knows nothing of dnetwork's Go code. It reports what a ROS 2 graph cache
// sees of a node (participant USER_DATA, endpoint topics, types, QoS and USER_DATA,
// the ros_discovery_info entry), decodes the node's messages with idlc's typed
// deserialiser, publishes messages the node must decode, and calls the node's
// get_parameters service as rmw_cyclonedds frames it. The tests skip, saying why,
// when idlc or gcc are not installed (Debian: cyclonedds-tools, gcc).
//
// TestFastDDSDiscovery measures, in its own network namespace whose lo has no
// multicast, how long a node and a process on rmw_fastrtps (internal/fastddspeer) take
// to find each other with ROS's Humble and Jazzy loopback settings and with the Fast
// DDS profile of docs/fastdds.md, and logs the figures (go test -v).
package interop
