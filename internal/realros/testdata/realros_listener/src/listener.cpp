// Prints the first three TeamInfo messages of the topic given as argv[1] and exits.
#include <cstdio>
#include <memory>

#include "dmsgs/msg/team_info.hpp"
#include "rclcpp/rclcpp.hpp"

int main(int argc, char ** argv)
{
  rclcpp::init(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: listener TOPIC\n");
    return 2;
  }
  auto node = std::make_shared<rclcpp::Node>("realros_listener");
  int seen = 0;
  auto sub = node->create_subscription<dmsgs::msg::TeamInfo>(
    argv[1], 10, [&](const dmsgs::msg::TeamInfo & m) {
      std::printf("teaminfo player=%u team=%u seq=%u\n", m.player_number, m.team_number, m.sequence);
      std::fflush(stdout);
      if (++seen == 3) {
        rclcpp::shutdown();
      }
    });
  rclcpp::spin(node);
  return 0;
}
