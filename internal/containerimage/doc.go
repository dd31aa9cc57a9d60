// Package containerimage holds the test of the repository's Dockerfile: it builds the
// image with podman (Debian's, no Docker engine needed) and runs it. It has no code of
// its own, only tests.
//
// The Dockerfile's base images (golang:<go>, ros:<distro>-ros-base, ros:<distro>-ros-core)
// come from Docker Hub, which a test machine may not reach. The test makes local
// stand-ins of them instead and points the Dockerfile's ROS_IMAGE and GO_IMAGE build
// arguments at them:
//
//   - a Debian rootfs made by debootstrap (the host's release and apt sources), with the
//     runtime packages of the ROS 2 builds in ../shared/ros, is the ros-core stand-in's
//     base; the same plus their build packages (cmake, g++, colcon, cyclonedds-dev, ...)
//     is the ros-base stand-in's;
//   - /opt/ros/<distro> is unpacked from ../shared/ros/ros-<distro>-install.tar.gz;
//   - the golang stand-in holds the Go toolchain the test runs with, at /usr/local/go.
//
// Then, for each distro tested: the image is built in the OCI format, podman's default
// (the build itself runs offline: --network=none, modules from the host's module cache
// through GOPROXY=file://, the host's Go build cache mounted), with no instruction
// dropped for the format; its configuration is checked (STOPSIGNAL SIGINT,
// ROS_HOME=/data, the /data volume), also as exported to a docker archive (the docker
// format, as docker load reads it); "dnetwork version" runs through the entrypoint and
// without it (dnetwork on PATH); the node links the libddsc of rmw_cyclonedds_cpp; the
// node runs in a network namespace the test creates, whose eth0 is a macvlan like a
// robot's interface, once as user 1000 with recording on and /data a host directory,
// once with the image's default command (ros2 launch of robot 1), until "podman stop"
// ends it: exit 0 at once, the node logs "stopped", and the recording and
// the launch log are in /data; on a veth (a bridge network) the node warns that
// broadcasts do not cross it. DNETWORK_IMAGE_TEST=full also builds the docker format in
// full (a build does not reuse the other format's cached layers) and runs the default
// command from it.
//
// Invariants: podman runs with a storage of its own (DNETWORK_IMAGE_STORE, default
// /var/cache/dnetwork-imagetest), so the stand-ins never shadow real images of the
// machine and are kept between runs, each labelled with a hash of what it was made from
// and rebuilt when that changes (delete the directory for a cold run), and images of
// earlier runs that nothing uses any more are pruned; containers are
// started by the test, named dnetwork-imagetest-*, and removed by it; the containers'
// only network is a namespace the test creates (or none). Without root, podman,
// debootstrap or ../shared/ros the test skips and says why.
//
// Cost: the image builds dominate (colcon builds dmsgs with rosidl), then making the
// stand-ins. By default the test builds the newest distro found, in the OCI format;
// DNETWORK_IMAGE_TEST=full builds every distro of ../shared/ros in both formats, and
// DNETWORK_IMAGE_DISTROS ("all" or a list such as "humble jazzy") chooses the distros.
package containerimage
