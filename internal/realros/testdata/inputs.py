"""Publishes robot 1's MotionInfo, BehaviorInfo and VisionInfo (values from argv[1], JSON)
at 10 Hz and prints, as JSON, the first TeamInfo from player 1 that robot 2 publishes
after robot_pos.x has taken the sent value; exits 1 after argv[2] seconds without one."""
import json
import sys
import time

import rclpy
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from dmsgs.msg import BehaviorInfo, MotionInfo, TeamInfo, VisionInfo
from geometry_msgs.msg import Vector3
from rosidl_runtime_py.convert import message_to_ordereddict

values = json.loads(sys.argv[1])
deadline = time.monotonic() + float(sys.argv[2])


def fill(msg, fields):
    for k, v in fields.items():
        if isinstance(v, dict):
            setattr(msg, k, Vector3(x=float(v["x"]), y=float(v["y"]), z=float(v["z"])))
        elif isinstance(getattr(msg, k), float):
            setattr(msg, k, float(v))
        else:
            setattr(msg, k, v)
    return msg


rclpy.init()
node = Node("realros_inputs")
qos = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
pubs = [
    (node.create_publisher(MotionInfo, "/dmotion_1/MotionInfo", qos), MotionInfo, values["motion"]),
    (node.create_publisher(BehaviorInfo, "/dbehavior_1/BehaviorInfo", qos), BehaviorInfo, values["behavior"]),
    (node.create_publisher(VisionInfo, "/dvision_1/VisionInfo", qos), VisionInfo, values["vision"]),
]
got = []


def on_team(msg):
    if not got and msg.player_number == 1 and msg.robot_pos.x == values["vision"]["robot_pos"]["x"]:
        got.append(msg)


node.create_subscription(TeamInfo, "/dnetwork_2/TeamInfo", on_team, 10)
node.create_timer(0.1, lambda: [p.publish(fill(t(), v)) for p, t, v in pubs])
while not got and time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.1)
if not got:
    print("no TeamInfo of player 1 with the sent values on /dnetwork_2/TeamInfo", file=sys.stderr)
    sys.exit(1)
print(json.dumps(message_to_ordereddict(got[0])), flush=True)
