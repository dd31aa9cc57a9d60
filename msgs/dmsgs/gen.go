package dmsgs

//go:generate go run ../../cmd/msggen -I ../../ros/interfaces/builtin_interfaces -I ../../ros/interfaces/std_msgs -I ../../ros/interfaces/geometry_msgs -I ../../ros/interfaces/service_msgs -out . ..
