"""Start several simulated robots of one team on this host.

    ros2 launch dnetwork team_sim.launch.py robots:=3

Every robot is a dnetwork node (dnetwork_1 .. dnetwork_<robots>) on the loopback
interface with its own team port, 10100 + robot_id by default, and sends its team
packets by unicast to the other robots' ports (team.peers), since loopback has no
broadcast between sockets on different ports. All robots share
params/sim_robot.yaml; the GameController socket of every robot is bound to 3838
on lo, so a GameController sending to 127.255.255.255:3838 reaches them all.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

MAX_ROBOTS = 20


def robot_nodes(context):
    count = int(LaunchConfiguration("robots").perform(context))
    base = int(LaunchConfiguration("base_port").perform(context))
    params_file = LaunchConfiguration("params_file").perform(context)
    if not 1 <= count <= MAX_ROBOTS:
        raise ValueError(f"robots must be 1..{MAX_ROBOTS}, got {count}")
    if base < 1 or base + count > 65535:
        raise ValueError(f"base_port {base} leaves no room for {count} robots")
    nodes = []
    for robot in range(1, count + 1):
        peers = [f"127.0.0.1:{base + mate}" for mate in range(1, count + 1) if mate != robot]
        own = {"robot_id": robot, "team.port": base + robot}
        if peers:  # a parameter file cannot hold an empty list
            own["team.peers"] = peers
        nodes.append(
            Node(
                package="dnetwork",
                executable="dnetwork",
                name=f"dnetwork_{robot}",
                arguments=["node"],
                parameters=[params_file, own],
                output="screen",
                emulate_tty=True,
            )
        )
    return nodes


def generate_launch_description():
    return LaunchDescription(
        [
            DeclareLaunchArgument("robots", default_value="3", description="Number of robots, 1..20."),
            DeclareLaunchArgument(
                "base_port",
                default_value="10100",
                description="Robot n binds team port base_port + n and sends to its teammates' ports.",
            ),
            DeclareLaunchArgument(
                "params_file",
                default_value=PathJoinSubstitution([FindPackageShare("dnetwork"), "params", "sim_robot.yaml"]),
                description="Parameters shared by every simulated robot.",
            ),
            OpaqueFunction(function=robot_nodes),
        ]
    )
