"""Asks the list_parameters service of each node named in argv the requests read from
stdin (a JSON list of {"prefixes": [...], "depth": n}) and prints the answers as JSON:
{node: [{"names": [...], "prefixes": [...]}, ...]}. Exits 1 when a node does not answer."""
import json
import sys

import rclpy
from rcl_interfaces.srv import ListParameters

rclpy.init()
node = rclpy.create_node("realros_list_params")
requests = json.load(sys.stdin)
answers = {}
for target in sys.argv[1:]:
    client = node.create_client(ListParameters, target + "/list_parameters")
    if not client.wait_for_service(timeout_sec=60):
        sys.exit(f"{target}/list_parameters: no service within 60 s")
    answers[target] = []
    for r in requests:
        future = client.call_async(ListParameters.Request(prefixes=r["prefixes"] or [], depth=r["depth"]))
        rclpy.spin_until_future_complete(node, future, timeout_sec=30)
        if future.result() is None:
            sys.exit(f"{target}/list_parameters {r}: no answer within 30 s")
        res = future.result().result
        answers[target].append({"names": list(res.names), "prefixes": list(res.prefixes)})
json.dump(answers, sys.stdout)
print()
