package interfaces

//go:generate go run ../../cmd/msggen builtin_interfaces service_msgs std_msgs geometry_msgs diagnostic_msgs rcl_interfaces rmw_dds_common rosgraph_msgs
//go:generate go run ../../cmd/msggen rmw_dds_common_humble
