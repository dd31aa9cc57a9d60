"""Print the nodes a launch file starts, as JSON (tests only).

    python3 render.py LAUNCH_FILE SHARE_DIR [name:=value ...]

SHARE_DIR stands for the installed package's share directory (the repository root).
"""

import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs"))

from launch import LaunchContext  # noqa: E402
from launch.actions import DeclareLaunchArgument, OpaqueFunction  # noqa: E402
from launch.substitutions import perform  # noqa: E402
from launch_ros.actions import Node  # noqa: E402


def main(argv):
    path, share = argv[1], argv[2]
    given = dict(arg.split(":=", 1) for arg in argv[3:])
    spec = importlib.util.spec_from_file_location("launch_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    context = LaunchContext({}, share)
    nodes = []
    pending = list(description.entities)
    while pending:
        entity = pending.pop(0)
        if isinstance(entity, DeclareLaunchArgument):
            if entity.name in given:
                context.launch_configurations[entity.name] = given.pop(entity.name)
            elif entity.default_value is not None:
                context.launch_configurations[entity.name] = perform(entity.default_value, context)
            else:
                raise SystemExit(f"launch argument {entity.name!r} is required")
        elif isinstance(entity, OpaqueFunction):
            pending[0:0] = entity.function(context, *entity.args, **entity.kwargs) or []
        elif isinstance(entity, Node):
            nodes.append(render_node(entity, context))
        else:
            raise SystemExit(f"unexpected entity {entity!r}")
    if given:
        raise SystemExit(f"unknown launch arguments: {sorted(given)}")
    json.dump(nodes, sys.stdout, indent=1)


def render_node(node, context):
    params = []
    for p in node.parameters:
        if isinstance(p, dict):
            params.append({"values": {k: value(v, context) for k, v in p.items()}})
        else:
            params.append({"file": perform(p, context)})
    return {
        "on_exit": exit_outcomes(node.on_exit, context),
        "package": node.package,
        "executable": node.executable,
        "name": perform(node.name, context) if node.name is not None else None,
        "namespace": perform(node.namespace, context) if node.namespace is not None else None,
        "arguments": [perform(a, context) for a in node.arguments],
        "parameters": params,
    }


class Exited:
    """A stand-in for launch.events.process.ProcessExited."""

    def __init__(self, returncode):
        self.returncode = returncode


def exit_outcomes(on_exit, context):
    """What the node's on_exit callable does for a clean exit, exit code 2 and SIGKILL:
    "continue" or the message of the exception that ends the launch."""
    if on_exit is None:
        return None
    outcomes = {}
    for code in (0, 1, 2, -9):
        try:
            result = on_exit(Exited(code), context)
            outcomes[str(code)] = "continue" if result is None else repr(result)
        except Exception as exc:  # noqa: B902 - any exception ends a real launch
            outcomes[str(code)] = f"{type(exc).__name__}: {exc}"
    return outcomes


def value(v, context):
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(x, (bool, int, float, str)) for x in v):
        return list(v)
    return perform(v, context)


if __name__ == "__main__":
    main(sys.argv)
