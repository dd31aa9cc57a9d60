"""Stand-in for the launch package (tests only)."""


class LaunchDescription:
    def __init__(self, entities=None):
        self.entities = list(entities or [])


class LaunchContext:
    def __init__(self, configurations, share):
        self.launch_configurations = dict(configurations)
        self.share = share
