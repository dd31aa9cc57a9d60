"""Start the dnetwork node of one robot.

    ros2 launch dnetwork dnetwork.launch.py robot_id:=3
    ros2 launch dnetwork dnetwork.launch.py robot_id:=3 params_file:=/path/to/robot3.yaml
    ros2 launch dnetwork dnetwork.launch.py robot_id:=3 use_sim_time:=true

The node is named dnetwork_<robot_id>; its parameters come from params_file (by
default params/robot<robot_id>.yaml of the installed package), and robot_id is
passed on top of them, as is use_sim_time (true: every rate and stamp follows
a simulator's /clock). The executable is started directly, so the SIGINT of
Ctrl-C (or launch's SIGTERM on shutdown) reaches it and it exits cleanly.

A params_file that does not exist stops the launch before the node starts, and a
node that exits with an error (exit code 2: bad parameters) ends the launch with
an error, so ros2 launch exits non-zero for systemd and scripts.
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

MAX_ROBOT_ID = 20


def launch_bool(context, name):
    """Returns the launch argument name as a bool; true/false/1/0, any case."""
    text = LaunchConfiguration(name).perform(context).strip().lower()
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise ValueError(f"{name} must be true or false, got {text!r}")


def end_on_error(name):
    """Returns the on_exit of node name: an exit with an error ends the launch with one.
    team_sim.launch.py uses it (and launch_bool) for its robots too."""

    def on_exit(event, context):
        code = event.returncode
        if code == 0:
            return None
        if code == 2:
            why = "bad parameters or arguments"
        elif code < 0:
            why = f"killed by signal {-code}"
        else:
            why = "it failed"
        raise RuntimeError(f"{name} exited with code {code} ({why}; its messages are above): ending the launch with an error")

    return on_exit


def dnetwork_node(context):
    text = LaunchConfiguration("robot_id").perform(context)
    if not text.isdigit() or not 1 <= int(text) <= MAX_ROBOT_ID:
        raise ValueError(f"robot_id must be 1..{MAX_ROBOT_ID}, got {text!r}")
    robot_id = int(text)
    params_file = LaunchConfiguration("params_file").perform(context)
    if not params_file:
        share = FindPackageShare("dnetwork").perform(context)
        params_file = os.path.join(share, "params", f"robot{robot_id}.yaml")
        if not os.path.isfile(params_file):
            raise FileNotFoundError(
                f"robot_id:={robot_id} has no parameter file: {params_file} does not exist; copy a robot's file, "
                f"set robot_id: {robot_id} and name its section dnetwork_{robot_id} (or /**), and give it with params_file:=PATH"
            )
    elif not os.path.isfile(params_file):
        raise FileNotFoundError(f"params_file:={params_file} does not exist (relative paths start in {os.getcwd()})")
    name = f"dnetwork_{robot_id}"
    return [
        Node(
            package="dnetwork",
            executable="dnetwork",
            name=name,
            arguments=["node"],
            parameters=[params_file, {"robot_id": robot_id, "use_sim_time": launch_bool(context, "use_sim_time")}],
            output="screen",
            emulate_tty=True,
            on_exit=end_on_error(name),
        )
    ]


def generate_launch_description():
    return LaunchDescription(
        [
            DeclareLaunchArgument(
                "robot_id",
                default_value="1",
                description="Player number of this robot, 1..20; the node is dnetwork_<robot_id>.",
            ),
            DeclareLaunchArgument(
                "params_file",
                default_value="",
                description="Parameter file of this robot; empty: params/robot<robot_id>.yaml of the package.",
            ),
            DeclareLaunchArgument(
                "use_sim_time",
                default_value="false",
                description="true: the node's clock follows /clock (a simulator) instead of the system time.",
            ),
            OpaqueFunction(function=dnetwork_node),
        ]
    )
