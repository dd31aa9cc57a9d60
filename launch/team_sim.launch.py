"""Start several simulated robots of one team on this host.

    ros2 launch dnetwork team_sim.launch.py robots:=3

Every robot is a dnetwork node (dnetwork_1 .. dnetwork_<robots>) on the loopback
interface with its own team port, base_port + robot_id (10101, 10102, ...), and
sends its team packets by unicast to the other robots' ports (team.peers). Each
robot also has its own GameController port, gc_port_base + robot_id - 1 (3838,
3839, ...), so a GameController on this host reaches them by unicast:

    dnetwork gc-sim --teams 17,5 --dest 127.0.0.1:3838-3840

All robots share params/sim_robot.yaml; use_sim_time:=true makes every robot's
clock follow a simulator's /clock. A robot that exits with an error ends the
launch (every robot stops) with an error.
"""

import importlib.util
import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

MAX_ROBOTS = 20


def robot_launch():
    """Returns dnetwork.launch.py next to this file as a module: every robot is started
    with its argument rules and its on_exit."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dnetwork.launch.py")
    spec = importlib.util.spec_from_file_location("dnetwork_robot_launch", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def robot_nodes(context):
    count = int(LaunchConfiguration("robots").perform(context))
    base = int(LaunchConfiguration("base_port").perform(context))
    gc_base = int(LaunchConfiguration("gc_port_base").perform(context))
    params_file = LaunchConfiguration("params_file").perform(context)
    shared = robot_launch()
    sim_time = shared.launch_bool(context, "use_sim_time")
    if not os.path.isfile(params_file):
        raise FileNotFoundError(f"params_file:={params_file} does not exist (relative paths start in {os.getcwd()})")
    if not 1 <= count <= MAX_ROBOTS:
        raise ValueError(f"robots must be 1..{MAX_ROBOTS}, got {count}")
    if base < 1 or base + count > 65535:
        raise ValueError(f"base_port {base} leaves no room for {count} robots")
    if gc_base < 1 or gc_base + count - 1 > 65535:
        raise ValueError(f"gc_port_base {gc_base} leaves no room for {count} robots")
    nodes = []
    for robot in range(1, count + 1):
        peers = [f"127.0.0.1:{base + mate}" for mate in range(1, count + 1) if mate != robot]
        own = {"robot_id": robot, "team.port": base + robot, "gamecontroller.port": gc_base + robot - 1,
               "use_sim_time": sim_time}
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
                on_exit=shared.end_on_error(f"dnetwork_{robot}"),
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
                "gc_port_base",
                default_value="3838",
                description="Robot n binds GameController port gc_port_base + n - 1.",
            ),
            DeclareLaunchArgument(
                "params_file",
                default_value=PathJoinSubstitution([FindPackageShare("dnetwork"), "params", "sim_robot.yaml"]),
                description="Parameters shared by every simulated robot.",
            ),
            DeclareLaunchArgument(
                "use_sim_time",
                default_value="false",
                description="true: every robot's clock follows /clock (a simulator) instead of the system time.",
            ),
            OpaqueFunction(function=robot_nodes),
        ]
    )
