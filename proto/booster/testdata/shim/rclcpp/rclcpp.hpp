// Stand-in for the one ROS type types.h names, so the carried header compiles without
// ROS. Not part of the carried definition; the packets use no rclcpp type.
#pragma once
#include <cstdint>
namespace rclcpp {
struct Time {
    int64_t nanoseconds = 0;
};
}
