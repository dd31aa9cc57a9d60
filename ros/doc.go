// Package ros makes dnetwork a ROS 2 node without rcl: a Node on its own DDS
// participant (package dds, Cyclone DDS) that real ROS 2 Humble and Jazzy nodes and
// tools see as one of theirs. Messages are the generated types of ros/interfaces,
// serialised by package cdr; names and --ros-args come from package rosargs, the
// parameters from package params.
//
//	node, err := ros.NewNode(ctx, "dnetwork", "/robot1", ros.NodeOptions{Args: rosArgs})
//	pub, err := ros.NewPublisher[std_msgs.String](node, "team_status", ros.QoSDefault)
//	err = pub.Publish(&std_msgs.String{Data: "ready"})
//	sub, err := ros.NewSubscription(node, "chatter", ros.QoSDefault, func(m *std_msgs.String) { … })
//	srv, err := ros.NewService(node, "~/describe", ros.QoSServices, handle) // handle(*pkg.X_Request) *pkg.X_Response
//	node.Logger().Infof("team %d", 7)            // stderr and /rosout
//	tk := node.Clock().NewTicker(time.Second)     // follows /clock when use_sim_time is true
//
// # Names on the wire (rmw_cyclonedds and rmw_fastrtps alike)
//
//	ROS                                 DDS topic                                   DDS type
//	topic /robot1/chatter               rt/robot1/chatter                           std_msgs::msg::dds_::String_
//	service /robot1/n/get_parameters    rq/robot1/n/get_parametersRequest           rcl_interfaces::srv::dds_::GetParameters_Request_
//	                                    rr/robot1/n/get_parametersReply             rcl_interfaces::srv::dds_::GetParameters_Response_
//	(graph)                             ros_discovery_info                          rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_
//
// Topic and service names are resolved like rcl does (relative names under the
// namespace, "~" for the node's own name, remap rules of --ros-args applied last).
// Topics are key-less and carry classic CDR; peers match on topic and type name.
//
// # Quality of service
//
//	profile             history     reliability  durability       used for
//	QoSDefault          keep-last 10   reliable  volatile         ordinary topics
//	QoSSensorData       keep-last 5    best-effort volatile       high-rate sensor data
//	QoSServices         keep-last 10   reliable  volatile         services and clients
//	QoSParameters       keep-last 1000 reliable  volatile         the parameter services
//	QoSParameterEvents  keep-last 1000 reliable  volatile         /parameter_events
//	QoSRosout           keep-last 1000 reliable  transient-local  /rosout (lifespan 10 s)
//	QoSClock            keep-last 1    best-effort volatile       /clock
//	QoSLatched          keep-last 1    reliable  transient-local  state for late joiners
//
// # Being listed as a node
//
// The participant announces USER_DATA "enclave=/;" (or the -e/--enclave value).
// Each node publishes a ros_discovery_info sample (reliable, transient-local,
// keep-last 1) naming its namespace, name and the GIDs of all its readers and
// writers, and republishes it whenever an endpoint is added or removed; closing the
// node publishes an empty node list before the participant goes. A GID is the
// endpoint's 16-byte DDS GUID, zero-padded to 24 bytes on Humble, because Humble
// and Jazzy use one type name with two layouts. ROS_DISTRO selects the layout; without
// it the node listens to ros_discovery_info for DetectWindow and follows the layout
// of the participants already on the domain, else the distro recorded at build time
// (BuildDistro), else the only /opt/ros/* install, else jazzy; the node logs the
// choice and its reason, and decides before it publishes its first sample. From Iron on every endpoint's USER_DATA also carries
// "typehash=RIHS01_<sha256>;" of its type.
//
// # Services
//
// Services and clients use rmw_cyclonedds' in-band framing (see RequestHeader):
// a 16-byte header (client writer handle, sequence number) in front of the
// request and the reply. Service endpoints carry "serviceid=<id>;", clients
// "clientid=<id>;"; a service waits up to ReplyMatchTimeout for the client's reply
// reader before answering. Clients on rmw_fastrtps frame requests differently and
// cannot call these services (the same holds between ROS's own RMWs): the node
// recognises their requests (a Fast DDS writer, vendor id 01.0f, without "clientid="),
// drops and counts them (Node.PeerIssues) and logs each such client once with the fix:
// run the ROS tools with RMW_IMPLEMENTATION=rmw_cyclonedds_cpp to use `ros2 param`.
//
// # Peers that get nothing
//
// DDS never matches endpoints of incompatible QoS. A subscription logs each publisher
// it refuses once, and a publisher each subscription it refuses, with the peer's
// participant, its vendor and the policies (for example a transient-local subscription of a volatile
// topic). Node.PeerIssues counts both, and the unanswerable requests above, for
// /diagnostics.
//
// # What every node offers
//
// /rosout (rcl_interfaces/msg/Log) with every logged message unless
// --disable-rosout-logs; /parameter_events with every change of the parameter
// store; the six parameter services get_parameters, get_parameter_types,
// set_parameters, set_parameters_atomically, describe_parameters and
// list_parameters under the node's name; and use_sim_time, which switches the
// node's clock to the time published on /clock.
//
// # Concurrency and shutdown
//
// Every subscription and service has its own goroutine (the DDS reader's) that
// calls its handler one message at a time. A node shuts down when its context is
// cancelled or Close is called: handlers in progress finish, the node leaves the
// ROS graph, the participant is deleted. Close must not be called from a handler;
// cancel the node's context there instead.
package ros
