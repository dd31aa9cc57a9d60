# dnetwork on a ROS 2 base image. Builds with docker, podman and buildah, in the OCI and
# docker image formats. docs/docker.md says how to run it; in short:
#
#   docker build -t dnetwork .                                # Jazzy
#   docker build --build-arg ROS_DISTRO=humble -t dnetwork:humble .
#   docker run --rm --network=host -v ~/dnetwork:/data dnetwork          # robot 1
#   docker run --rm --network=host -v ~/dnetwork:/data dnetwork \
#       ros2 launch dnetwork dnetwork.launch.py robot_id:=3
#   docker run --rm dnetwork dnetwork version
#
# Run it with --network=host: team packets and the GameController's packets are UDP
# broadcasts on the robot's network, and broadcasts do not cross a container network
# (the node warns at start-up when it finds itself on one).

ARG ROS_DISTRO=jazzy
ARG GO_VERSION=1.27
# Where the base images come from: a registry mirror, or local copies, when Docker Hub
# is out of reach (ROS_IMAGE=registry.example/ros gives registry.example/ros:jazzy-ros-base).
ARG ROS_IMAGE=ros
ARG GO_IMAGE=golang

# The Go toolchain comes from the official image; only /usr/local/go is copied.
FROM ${GO_IMAGE}:${GO_VERSION} AS go

# --- build: colcon builds dmsgs and dnetwork against ROS's Cyclone DDS ------------------
FROM ${ROS_IMAGE}:${ROS_DISTRO}-ros-base AS build
ARG ROS_DISTRO
# The C compiler and pkg-config for cgo, and rmw_cyclonedds_cpp for ROS's Cyclone DDS
# (libddsc, CycloneDDS.pc, CMake config), which the node links. apt runs only for what
# the base image lacks, so an image that has them all builds offline.
RUN set -e; \
    missing=""; \
    for p in gcc libc6-dev pkg-config; do \
      dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing="$missing $p"; \
    done; \
    [ -e "/opt/ros/${ROS_DISTRO}/share/rmw_cyclonedds_cpp/package.xml" ] \
      || missing="$missing ros-${ROS_DISTRO}-rmw-cyclonedds-cpp"; \
    if [ -n "$missing" ]; then \
      apt-get update; \
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing; \
      rm -rf /var/lib/apt/lists/*; \
    fi
COPY --from=go /usr/local/go /usr/local/go
ENV PATH=/usr/local/go/bin:$PATH \
    GOTOOLCHAIN=local
# The module proxy; a team's mirror or GOPROXY=off with a vendored cache also works.
ARG GOPROXY
WORKDIR /ws/src/dnetwork
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
WORKDIR /ws
# Version text linked into the binary; empty: the version in package/package.xml. Set
# after the steps above, so that a new version reuses their cached layers.
ARG DNETWORK_VERSION=""
# --packages-up-to: dnetwork and what it needs from the workspace (dmsgs), nothing else.
# The node must link the libddsc that rmw_cyclonedds_cpp loads (ROS's own, or the
# system's where ROS was built on it): the check compares the two.
RUN set -e; \
    . "/opt/ros/${ROS_DISTRO}/setup.sh"; \
    colcon build --install-base /opt/dnetwork --packages-up-to dnetwork \
      --event-handlers console_direct+ \
      --cmake-args -DCMAKE_BUILD_TYPE=Release "-DDNETWORK_VERSION=${DNETWORK_VERSION}" \
        -DGO_EXECUTABLE=/usr/local/go/bin/go; \
    ddsc() { readlink -f "$(ldd "$1" | sed -n 's/^[[:space:]]*libddsc\.so[^ ]* => \([^ ]*\) .*/\1/p')" || true; }; \
    node=$(ddsc /opt/dnetwork/dnetwork/lib/dnetwork/dnetwork); \
    rmw=$(ddsc "$(find "/opt/ros/${ROS_DISTRO}/lib" -name librmw_cyclonedds_cpp.so | head -n 1)"); \
    echo "libddsc: node ${node:-none}, rmw_cyclonedds_cpp ${rmw:-none}"; \
    if [ -z "$node" ] || [ "$node" != "$rmw" ]; then \
      echo "error: the node does not link the libddsc of rmw_cyclonedds_cpp" >&2; exit 1; \
    fi

# --- runtime: ros-core, ROS's Cyclone DDS and the install space -------------------------
FROM ${ROS_IMAGE}:${ROS_DISTRO}-ros-core
ARG ROS_DISTRO
RUN set -e; \
    if [ ! -e "/opt/ros/${ROS_DISTRO}/share/rmw_cyclonedds_cpp/package.xml" ]; then \
      apt-get update; \
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "ros-${ROS_DISTRO}-rmw-cyclonedds-cpp"; \
      rm -rf /var/lib/apt/lists/*; \
    fi; \
    mkdir -p /data; \
    chmod 1777 /data
# ROS_DISTRO selects the wire layout of ros_discovery_info (24-byte GIDs on Humble, 16 on
# Jazzy); RMW_IMPLEMENTATION makes ros2 param, run inside this container, use Cyclone DDS,
# the only RMW whose parameter services dnetwork answers. ROS_HOME=/data puts the ROS
# logs and the node's recordings (record.dir default: $ROS_HOME/dnetwork) on the volume;
# /data is writable by any user, so docker run --user works too. PATH holds the
# dnetwork command also for docker exec, which bypasses the entrypoint.
ENV ROS_DISTRO=${ROS_DISTRO} \
    RMW_IMPLEMENTATION=rmw_cyclonedds_cpp \
    ROS_HOME=/data \
    PATH=/opt/dnetwork/dnetwork/bin:$PATH
COPY --from=build /opt/dnetwork /opt/dnetwork
VOLUME ["/data"]
# docker stop and podman stop send this signal to PID 1. On SIGINT (as on Ctrl-C) ros2
# launch stops its nodes and exits 0; SIGTERM, the default, leaves launch running as PID
# 1 until the engine kills it after the grace period (exit 137). The node itself stops
# cleanly on either, when it is PID 1.
STOPSIGNAL SIGINT
# The entrypoint sources the install space (which sources /opt/ros/<distro>) and execs
# the command, so that the command is PID 1 and receives the stop signal.
ENTRYPOINT ["/bin/bash", "-c", ". /opt/dnetwork/setup.bash && exec \"$@\"", "dnetwork"]
CMD ["ros2", "launch", "dnetwork", "dnetwork.launch.py", "robot_id:=1"]
