"""Aggregate the team's /diagnostics for rqt_robot_monitor.

    ros2 launch dnetwork diagnostics.launch.py team_number:=17

Starts diagnostic_aggregator (package diagnostic_aggregator, not a dependency of
dnetwork: install ros-<distro>-diagnostic-aggregator) with the analyzers of
params/diagnostic_analyzers.yaml, so /diagnostics_agg holds Team<team_number> ->
Robot<n> -> each part of robot n's dnetwork node. rqt_robot_monitor reads
/diagnostics_agg and shows that tree. Run it once for the team, e.g. on the team
computer; analyzers_file:= names another analyzer file (more robots).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def aggregator(context):
    text = LaunchConfiguration("team_number").perform(context)
    if not text.isdigit() or not 1 <= int(text) <= 254:
        raise ValueError(f"team_number must be 1..254, got {text!r}")
    analyzers = LaunchConfiguration("analyzers_file").perform(context)
    return [
        Node(
            package="diagnostic_aggregator",
            executable="aggregator_node",
            name="analyzers",
            parameters=[analyzers, {"path": f"Team{int(text)}"}],
            output="screen",
        )
    ]


def generate_launch_description():
    return LaunchDescription(
        [
            DeclareLaunchArgument("team_number", default_value="1", description="Our team number, 1..254: the tree's top level is Team<team_number>."),
            DeclareLaunchArgument(
                "analyzers_file",
                default_value=PathJoinSubstitution([FindPackageShare("dnetwork"), "params", "diagnostic_analyzers.yaml"]),
                description="diagnostic_aggregator analyzer parameters (one GenericAnalyzer per robot).",
            ),
            OpaqueFunction(function=aggregator),
        ]
    )
