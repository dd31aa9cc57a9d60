"""Publishes /clock from 1000 s on, 10 ms of simulated time every 10 ms, until killed."""
import rclpy
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock

rclpy.init()
node = Node("realros_clock")
pub = node.create_publisher(Clock, "/clock", QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))
ns = 1000 * 10**9


def tick():
    global ns
    ns += 10 * 10**6
    msg = Clock()
    msg.clock.sec, msg.clock.nanosec = divmod(ns, 10**9)
    pub.publish(msg)


node.create_timer(0.01, tick)
print("clock running", flush=True)
rclpy.spin(node)
