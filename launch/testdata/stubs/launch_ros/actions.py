"""Stand-in for launch_ros.actions (tests only)."""


class Node:
    def __init__(self, *, executable, package=None, name=None, namespace=None,
                 arguments=None, parameters=None, remappings=None, ros_arguments=None,
                 output="log", emulate_tty=False, on_exit=None, **kwargs):
        if kwargs:
            raise TypeError(f"unexpected Node arguments: {sorted(kwargs)}")
        self.package = package
        self.executable = executable
        self.name = name
        self.namespace = namespace
        self.arguments = arguments or []
        self.parameters = parameters or []
        self.remappings = remappings or []
        self.ros_arguments = ros_arguments or []
        self.output = output
        self.on_exit = on_exit
