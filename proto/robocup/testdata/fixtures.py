#!/usr/bin/python3
"""Writes and reads Humanoid League standard team messages with the official definitions.

The messages come from the teams' own .proto files compiled by Debian's protoc into
Python (python3-protobuf): ../robocup.proto (the standard), bitbots/robocup_extension.proto
(Bit-Bots' extended Message) and nubots/Purposes.proto (NUbots' field 101). The values
of each case are in cases.json; the Go tests compare what package robocup decodes with
them, and what it encodes with what this script reads back.

  fixtures.py write DIR      writes DIR/<case>.bin for every case of cases.json
  fixtures.py read PROFILE   reads one message from stdin, prints its values as JSON
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_protos(out):
    """Compiles the three definition files into Python modules in out."""
    for include, proto in [(os.path.dirname(HERE), "robocup.proto"),
                           (os.path.join(HERE, "bitbots"), "robocup_extension.proto"),
                           (os.path.join(HERE, "nubots"), "Purposes.proto")]:
        subprocess.run(["protoc", "-I", include, "--python_out=" + out, proto], check=True)
    sys.path.insert(0, out)


def vec(v, xs):
    for name, x in zip("xyz", xs):
        setattr(v, name, x)


def mat(m, rows):
    for name, row in zip("xyz", rows):
        vec(getattr(m, name), row)


def build(mods, case):
    """Returns the serialised message of case."""
    std, ext, purposes = mods
    profile = case["profile"]
    msg = (ext if profile == "bitbots" else std).Message()
    if "timestamp" in case:
        msg.timestamp.seconds, msg.timestamp.nanos = case["timestamp"]
    msg.state = case.get("state", 0)
    robot(msg.current_pose, case["current"])
    if "walk" in case:
        vec(msg.walk_command, case["walk"])
    if "target" in case:
        robot(msg.target_pose, case["target"])
    if "kick" in case:
        vec(msg.kick_target, case["kick"])
    if "ball" in case:
        b = case["ball"]
        vec(msg.ball.position, b["position"])
        if "velocity" in b:
            vec(msg.ball.velocity, b["velocity"])
        if "covariance" in b:
            mat(msg.ball.covariance, b["covariance"])
    for o in case.get("others", []):
        robot(msg.others.add(), o)
    if profile == "bitbots":
        x = case["bitbots"]
        msg.max_walking_speed = x.get("max_walking_speed", 0)
        msg.time_to_ball = x.get("time_to_ball", 0)
        msg.role = x.get("role", 0)
        msg.action = x.get("action", 0)
        msg.offensive_side = x.get("offensive_side", 0)
        msg.other_robot_confidence.extend(x.get("other_robot_confidence", []))
    data = msg.SerializeToString(deterministic=True)
    if profile == "nubots":
        # NUbots' RoboCup message is the standard one plus field 101, their Purposes.
        p = purposes.Purposes()
        for player, purpose in case["purposes"]:
            e = p.purposes.add()
            e.player_id, e.purpose = player, purpose
        from google.protobuf.internal import encoder, wire_format
        inner = p.SerializeToString(deterministic=True)
        data += encoder.TagBytes(101, wire_format.WIRETYPE_LENGTH_DELIMITED)
        data += encoder._VarintBytes(len(inner)) + inner
    return data


def robot(r, c):
    r.player_id = c.get("player_id", 0)
    vec(r.position, c["position"])
    if "covariance" in c:
        mat(r.covariance, c["covariance"])
    r.team = c.get("team", 0)


def read(mods, profile, data):
    """Returns the values of the serialised message data, in the form of cases.json."""
    std, ext, purposes = mods
    msg = (ext if profile == "bitbots" else std).Message()
    msg.ParseFromString(data)
    out = {"profile": profile, "current": unrobot(msg.current_pose), "state": msg.state}
    if msg.HasField("timestamp"):
        out["timestamp"] = [msg.timestamp.seconds, msg.timestamp.nanos]
    if msg.HasField("walk_command"):
        out["walk"] = unvec(msg.walk_command, 3)
    if msg.HasField("target_pose"):
        out["target"] = unrobot(msg.target_pose)
    if msg.HasField("kick_target"):
        out["kick"] = unvec(msg.kick_target, 2)
    if msg.HasField("ball"):
        b = {"position": unvec(msg.ball.position, 3)}
        if msg.ball.HasField("velocity"):
            b["velocity"] = unvec(msg.ball.velocity, 3)
        if msg.ball.HasField("covariance"):
            b["covariance"] = unmat(msg.ball.covariance)
        out["ball"] = b
    if msg.others:
        out["others"] = [unrobot(o) for o in msg.others]
    if profile == "bitbots":
        x = {}
        for name in ["max_walking_speed", "time_to_ball", "role", "action", "offensive_side"]:
            if getattr(msg, name):
                x[name] = getattr(msg, name)
        if msg.other_robot_confidence:
            x["other_robot_confidence"] = list(msg.other_robot_confidence)
        out["bitbots"] = x
    if profile == "nubots":
        out["purposes"] = []
        for f in msg.UnknownFields():
            if f.field_number == 101:
                p = purposes.Purposes.FromString(f.data)
                out["purposes"] += [[e.player_id, e.purpose] for e in p.purposes]
    return out


def unvec(v, n):
    return [getattr(v, name) for name in "xyz"[:n]]


def unmat(m):
    return [unvec(getattr(m, name), 3) for name in "xyz"]


def unrobot(r):
    c = {"position": unvec(r.position, 3)}
    if r.player_id:
        c["player_id"] = r.player_id
    if r.HasField("covariance"):
        c["covariance"] = unmat(r.covariance)
    if r.team:
        c["team"] = r.team
    return c


def load(out, profile):
    """Compiles the definitions into out and imports what profile needs: the standard and
    the Bit-Bots Message share their full names, so one process uses one of them."""
    compile_protos(out)
    import Purposes_pb2
    if profile == "bitbots":
        import robocup_extension_pb2
        return (None, robocup_extension_pb2, Purposes_pb2)
    import robocup_pb2
    return (robocup_pb2, None, Purposes_pb2)


def main():
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "write":
        for name in sorted(cases):
            subprocess.run([sys.executable, __file__, "write-case", name, sys.argv[2]], check=True)
        return
    with tempfile.TemporaryDirectory() as out:
        if cmd == "write-case":
            case = cases[sys.argv[2]]
            with open(os.path.join(sys.argv[3], sys.argv[2] + ".bin"), "wb") as f:
                f.write(build(load(out, case["profile"]), case))
        elif cmd == "read":
            mods = load(out, sys.argv[2])
            json.dump(read(mods, sys.argv[2], sys.stdin.buffer.read()), sys.stdout, sort_keys=True)
        else:
            sys.exit(__doc__)


if __name__ == "__main__":
    main()
