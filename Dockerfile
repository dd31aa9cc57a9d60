# dnetwork on a ROS 2 base image.
#
#   docker build -t dnetwork .                                # Jazzy
#   docker build --build-arg ROS_DISTRO=humble -t dnetwork:humble .
#   docker run --rm --network=host dnetwork                   # robot 1, params/robot1.yaml
#   docker run --rm --network=host dnetwork \
#       ros2 launch dnetwork dnetwork.launch.py robot_id:=3
#
# Run it with --network=host. Team packets and the GameController's packets are UDP
# broadcasts on the robot's network, and broadcasts do not cross Docker's bridge network:
# on the default bridge the node hears no teammate and no GameController, its own
# broadcasts stay inside the container, and DDS discovery (multicast) does not reach the
# other ROS 2 nodes of the robot either. See docs/install.md.

ARG ROS_DISTRO=jazzy
ARG GO_VERSION=1.26

# The Go toolchain comes from the official image; only /usr/local/go is copied.
FROM golang:${GO_VERSION} AS go

# --- build: colcon builds dmsgs and dnetwork against ROS's Cyclone DDS ------------------
FROM ros:${ROS_DISTRO}-ros-base AS build
ARG ROS_DISTRO
# Version text linked into the binary; empty: the version in package/package.xml.
ARG DNETWORK_VERSION=""
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# rmw_cyclonedds_cpp brings ROS's Cyclone DDS (libddsc.so.0, CycloneDDS.pc, CMake config),
# which the node links through cgo.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      "ros-${ROS_DISTRO}-rmw-cyclonedds-cpp" gcc libc6-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
COPY --from=go /usr/local/go /usr/local/go
ENV PATH=/usr/local/go/bin:$PATH \
    GOTOOLCHAIN=local
WORKDIR /ws/src/dnetwork
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
WORKDIR /ws
# --packages-up-to: dnetwork and what it needs from the workspace (dmsgs), nothing else.
RUN source "/opt/ros/${ROS_DISTRO}/setup.bash" \
 && colcon build --install-base /opt/dnetwork --packages-up-to dnetwork \
      --event-handlers console_direct+ \
      --cmake-args -DCMAKE_BUILD_TYPE=Release "-DDNETWORK_VERSION=${DNETWORK_VERSION}" \
      -DGO_EXECUTABLE=/usr/local/go/bin/go \
 && ldd /opt/dnetwork/dnetwork/lib/dnetwork/dnetwork | grep "libddsc.so.0 => /opt/ros/${ROS_DISTRO}/lib/"

# --- runtime: ros-core, ROS's Cyclone DDS and the install space -------------------------
FROM ros:${ROS_DISTRO}-ros-core
ARG ROS_DISTRO
RUN apt-get update \
 && apt-get install -y --no-install-recommends "ros-${ROS_DISTRO}-rmw-cyclonedds-cpp" \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/dnetwork /opt/dnetwork
# ROS_DISTRO selects the wire layout of ros_discovery_info (24-byte GIDs on Humble, 16 on
# Jazzy); RMW_IMPLEMENTATION makes ros2 param, run inside this container, use Cyclone DDS,
# the only RMW whose parameter services dnetwork answers.
ENV ROS_DISTRO=${ROS_DISTRO} \
    RMW_IMPLEMENTATION=rmw_cyclonedds_cpp
# The entrypoint sources the install space (which sources /opt/ros/<distro>) and execs
# the command, so that the command is PID 1 and receives docker stop's SIGTERM.
ENTRYPOINT ["/bin/bash", "-c", "source /opt/dnetwork/setup.bash && exec \"$@\"", "dnetwork"]
CMD ["ros2", "launch", "dnetwork", "dnetwork.launch.py", "robot_id:=1"]
