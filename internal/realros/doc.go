// Package realros holds the test suite that checks dnetwork against every real ROS 2
// installation under /opt/ros (on a robot: the team's own; in CI: Humble and Jazzy built
// from the official sources, see ../shared/ros). It has no code of its own, only tests.
//
// For each distro, in one temporary colcon workspace built once (colcon build
// --packages-up-to dnetwork, as the README says) and reused by every step:
//
//   - the install space's commands: dnetwork on PATH (bin/dnetwork) after sourcing
//     install/setup.bash, ros2 run dnetwork dnetwork, and the same after a
//     --symlink-install build of the package;
//   - ros2 launch of two robots with a parameter file and use_sim_time:=true while an
//     rclpy /clock publisher runs: stamps follow /clock;
//   - ros2 node list / node info / topic list -t / topic info -v (Jazzy: the type hash
//     equals rosidl's) / topic echo of GCInfo, GameControlData, TeamInfo, /diagnostics
//     and /rosout, with a GameController simulator feeding the robots;
//   - ros2 param list / get / set / describe / dump, including a refused set and its reason;
//   - list_parameters of robot 1 and of an rclcpp node built in the workspace that
//     declared the same names, asked the same prefixes and depths: the same answers;
//   - an rclpy publisher of robot 1's MotionInfo, BehaviorInfo and VisionInfo whose
//     values arrive field by field on robot 2's TeamInfo;
//   - the README's rclpy example, as written: it publishes, and SIGINT (also when
//     started with SIGINT ignored) or SIGTERM ends it with exit 0 and no traceback;
//   - an rclcpp subscriber built in the same workspace receiving TeamInfo;
//   - diagnostic_aggregator with launch/diagnostics.launch.py (where it is installed);
//   - Ctrl-C of the launch: every process exits cleanly;
//   - a node started without ROS_DISTRO is listed by the distro's CLI;
//   - ros2 launch with a missing parameter file, a robot file of another robot or a
//     copied robot file whose section was not renamed: the node's message, then a
//     non-zero exit of the launch; Ctrl-C of a healthy launch still exits 0;
//   - keys given in the robot file read as <hidden> in ros2 param get, describe, list
//     and dump; a node started from a dump of it says the key is missing; the dump of
//     a node with a key file starts a node with the same parameters.
//
// Invariants: loopback only (ROS_LOCALHOST_ONLY on Humble, ROS_AUTOMATIC_DISCOVERY_RANGE
// LOCALHOST on Jazzy, no multicast needed); each distro's run takes two ROS domains from
// internal/rosdomain, and UDP ports 7000..7399 (below every DDS port) belong to this
// suite alone; every process is started by the test, bound in time and stopped by its
// process group id; TMPDIR is the test's, so the launch_params_* files ros2 launch
// leaves go with it; Debian's python3 and PATH run the ROS tools. Without /opt/ros/*, colcon or cmake the suite skips and says why.
//
// DNETWORK_REALROS_WS=<dir> keeps the workspaces in <dir>/<distro> between runs, so a
// second run rebuilds only what changed.
package realros
