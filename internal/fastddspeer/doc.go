// Package fastddspeer gives tests a stand-in for an rclcpp node on rmw_fastrtps_cpp,
// ROS 2's default middleware: a C++ program (testdata/peer.cpp, testdata/msgs.hpp) on eProsima Fast DDS,
// built at test time with g++ against Debian's libfastrtps-dev and libfastcdr-dev.
//
// The peer sets its participant up as rmw_fastrtps does for Humble and Jazzy (the
// transports, initial peers and participant-index range of ROS_LOCALHOST_ONLY and
// ROS_AUTOMATIC_DISCOVERY_RANGE, USER_DATA "enclave=/;"), names topics and types as
// rmw_fastrtps_cpp does ("rt/…", "dmsgs::msg::dds_::TeamInfo_"), gives readers and
// writers rmw_fastrtps' QoS (Jazzy: XCDR1 data representation, "typehash=" USER_DATA)
// and serialises messages field by field with Fast CDR, as rosidl_typesupport_fastrtps_cpp
// does, from definitions written out by hand: it shares no code with dnetwork. Its
// service clients frame requests as rmw_fastrtps does (the bare request; the reply
// reader named in the request's related sample identity) and take only replies that
// name their request, as rmw_fastrtps' __rmw_take_response does.
//
// Tests drive it with line commands and read its report lines (peer.cpp's header);
// Canonical formats a dnetwork message as the peer prints one, so the two decoders can
// be compared field by field.
//
// Invariants: Build skips the test, saying why, where g++ or Fast DDS is missing; the
// binary is cached in the temporary directory per version of sources, compiler and
// library (one build at a time, under a lock file); every peer process is the test's
// own, stopped by its PID when the test ends.
package fastddspeer
