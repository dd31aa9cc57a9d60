// An rclcpp node named realros_params that declares every parameter given with -p
// (automatically_declare_parameters_from_overrides), so that its parameter services
// can be asked the same questions as a dnetwork node's. Runs until SIGINT.
#include <cstdio>
#include <memory>

#include "rclcpp/rclcpp.hpp"

int main(int argc, char ** argv)
{
  rclcpp::init(argc, argv);
  auto node = std::make_shared<rclcpp::Node>(
    "realros_params", rclcpp::NodeOptions().automatically_declare_parameters_from_overrides(true));
  std::printf("params peer ready\n");
  std::fflush(stdout);
  rclcpp::spin(node);
  rclcpp::shutdown();
  return 0;
}
