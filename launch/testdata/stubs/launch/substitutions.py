"""Stand-in for launch.substitutions (tests only)."""

import os


class Substitution:
    def perform(self, context):
        raise NotImplementedError


def perform(value, context):
    """Evaluate a SomeSubstitutionsType: a string, a substitution or a list of them."""
    if isinstance(value, str):
        return value
    if isinstance(value, Substitution):
        return value.perform(context)
    if isinstance(value, (list, tuple)):
        for part in value:
            if not isinstance(part, (str, Substitution)):
                raise TypeError(f"not a string or substitution: {part!r}")
        return "".join(perform(part, context) for part in value)
    raise TypeError(f"not a substitution: {value!r}")


class LaunchConfiguration(Substitution):
    def __init__(self, name):
        self.name = name

    def perform(self, context):
        if self.name not in context.launch_configurations:
            raise KeyError(f"launch configuration {self.name!r} is not set")
        return context.launch_configurations[self.name]


class PathJoinSubstitution(Substitution):
    def __init__(self, substitutions):
        for part in substitutions:
            if not isinstance(part, (str, Substitution)):
                raise TypeError(f"PathJoinSubstitution takes strings and substitutions, not {part!r}")
        self.parts = list(substitutions)

    def perform(self, context):
        return os.path.join(*(perform(p, context) for p in self.parts))
