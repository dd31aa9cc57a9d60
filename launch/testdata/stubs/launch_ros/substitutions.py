"""Stand-in for launch_ros.substitutions (tests only)."""

from launch.substitutions import Substitution, perform


class FindPackageShare(Substitution):
    def __init__(self, package):
        self.package = package

    def perform(self, context):
        if perform(self.package, context) != "dnetwork":
            raise LookupError(f"package {self.package!r} not found")
        return context.share
