#!/usr/bin/env bash
# Installs what dnetwork needs on a fresh Debian machine (idempotent). Go itself must
# already be on PATH (Go 1.26 or newer).
#
#   scripts/setup.sh --demo   what building dnetwork and running the demo need: a C
#                             compiler, pkg-config and Cyclone DDS (make build, make demo)
#   scripts/setup.sh --test   that, and everything the tests use (make test, the default):
#                             Chromium, tshark, CMake, colcon, ..., and ROS 2 and SimSpark
#                             from ../shared when it lies beside the clone
#
# Root is needed only to install what is missing; with everything installed any user
# may run it. Without root, it names the missing packages and stops.
set -euo pipefail

mode="test"
case "${1:-}" in
  --demo) mode="demo" ;;
  --test | "") mode="test" ;;
  *) echo "usage: scripts/setup.sh [--demo | --test]" >&2; exit 2 ;;
esac

command -v go >/dev/null || { echo "setup: go not found on PATH (need Go 1.26+)" >&2; exit 1; }

# Building the node, its tools and the demo: cgo against Debian's Cyclone DDS.
pkgs=(gcc libc6-dev pkg-config cyclonedds-dev)
ros_tarballs=()
simspark_tar=
if [ "$mode" = test ]; then
  # The tests: the DDS interop peer (idlc), network namespaces, OpenSSL vectors, the
  # monitor page in headless Chromium, colcon packaging, recordings read by tshark.
  pkgs+=(cyclonedds-tools iproute2 openssl chromium
         cmake patchelf colcon python3-colcon-ros python3-colcon-cmake
         python3-colcon-recursive-crawl python3-colcon-package-information
         python3-colcon-package-selection tshark
         lua5.4 # the Wireshark dissector's crypto on a Lua without bit32 (cmd/dissectorgen)
         g++ libfastrtps-dev libfastcdr-dev # g++ and Fast DDS: the Fast DDS peer (internal/fastddspeer)
         # the container image test (internal/containerimage): podman builds and runs the
         # Dockerfile on base images made by debootstrap; runc where crun cannot start
         # containers (hybrid cgroups)
         podman runc debootstrap containernetworking-plugins
         # protoc: go generate of proto/robocup (its protoc-gen-go is built from go.mod's
         # google.golang.org/protobuf); python3-protobuf: the official .proto files
         # write and read the fixtures of proto/robocup/testdata
         protobuf-compiler python3-protobuf)
  # ROS 2 for the real-ROS tests (internal/realros): when ../shared/ros lies next to the
  # repository (CI), its Debian package lists join the list above and its tarballs are
  # unpacked to /opt/ros/<distro> below.
  repo=$(cd "$(dirname "$0")/.." && pwd)
  shared_ros="$(dirname "$repo")/shared/ros"
  if [ -d "$shared_ros" ]; then
    for tarball in "$shared_ros"/ros-*-install.tar.gz; do
      [ -e "$tarball" ] || continue
      distro=$(basename "$tarball"); distro=${distro#ros-}; distro=${distro%-install.tar.gz}
      for list in runtime-apt buildtime-apt buildtime-apt-cpp-extra; do
        [ -f "$shared_ros/$list-$distro.txt" ] || continue
        while read -r p; do
          [ -n "$p" ] && [ "${p#\#}" = "$p" ] && pkgs+=("$p")
        done < "$shared_ros/$list-$distro.txt"
      done
      ros_tarballs+=("$tarball")
    done
  fi

  # The RoboCup 3D simulation server of the end-to-end test, when ../shared/simspark lies
  # beside the clone: its runtime packages here, the server itself (to /opt/simspark) below.
  simspark_tar="$(dirname "$repo")/shared/simspark/simspark-install.tar.gz"
  [ -f "$simspark_tar" ] || simspark_tar=
  if [ -n "$simspark_tar" ]; then
    pkgs+=(ruby libruby3.1 libode8 libboost-regex1.74.0 libboost-thread1.74.0 libsdl1.2debian
           libdevil1c2 libfreetype6 libgl1 libglu1-mesa)
  fi
fi

# The arm64 tests (scripts/test.sh, "== arm64 (qemu)"): a cross C compiler, Cyclone DDS for
# arm64 through Debian's multiarch, and qemu-user to run the test binaries. The arm64
# architecture must be known to dpkg before its packages can be listed or installed.
if [ "$mode" = test ] && command -v dpkg >/dev/null; then
  pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static cyclonedds-dev:arm64)
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "setup: test: the arm64 tests need dpkg's arm64 architecture: sudo dpkg --add-architecture arm64" >&2
      exit 1
    fi
    echo "setup: test: adding dpkg architecture arm64"
    dpkg --add-architecture arm64
    apt-get update -qq
  fi
fi

if ! command -v dpkg-query >/dev/null; then
  echo "setup: no dpkg-query: this script installs Debian packages; install the equivalents of" >&2
  echo "  ${pkgs[*]}" >&2
  echo "  yourself, or use Debian 12 (bookworm)" >&2
  exit 1
fi
missing=()
native_arch=$(dpkg --print-architecture)
declare -A seen=()
for p in "${pkgs[@]}"; do
  [ -z "${seen[$p]:-}" ] || continue
  seen[$p]=1
  # PKG means the native one (or an architecture-independent one), PKG:ARCH that
  # architecture's (with multiarch, dpkg-query lists a name once per architecture).
  # No pipe into grep -q: under pipefail its early exit can fail the writer (SIGPIPE).
  name=${p%%:*} arch=${p#*:}
  [ "$arch" != "$p" ] || arch=$native_arch
  st=$'\n'$(dpkg-query -W -f='${Status} ${Architecture}\n' "$name" 2>/dev/null)
  [[ $st == *$'\n'"install ok installed $arch"* || $st == *$'\n'"install ok installed all"* ]] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: $mode: these Debian packages are missing and installing them needs root:" >&2
    echo "  ${missing[*]}" >&2
    echo "  run as root, or first: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: $mode: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for tarball in "${ros_tarballs[@]}"; do
  distro=$(basename "$tarball"); distro=${distro#ros-}; distro=${distro%-install.tar.gz}
  # Not relocatable: it must be exactly /opt/ros/<distro>. An existing install is kept.
  [ -f "/opt/ros/$distro/setup.bash" ] && continue
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to unpack $tarball to /opt/ros/$distro" >&2
    exit 1
  fi
  echo "setup: unpacking ROS 2 $distro to /opt/ros/$distro"
  mkdir -p /opt/ros
  tar -C /opt/ros -xzf "$tarball"
  [ -f "/opt/ros/$distro/setup.bash" ] || { echo "setup: $tarball did not give /opt/ros/$distro/setup.bash" >&2; exit 1; }
done
# Jazzy's LOCALHOST discovery resolves "localhost".
if [ ${#ros_tarballs[@]} -gt 0 ] && ! getent hosts localhost >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: localhost does not resolve and /etc/hosts is not writable" >&2
    exit 1
  fi
  echo "127.0.0.1 localhost" >> /etc/hosts
fi
if [ -f "$simspark_tar" ] && [ ! -e /opt/simspark/run-rcssserver3d.sh ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to unpack $simspark_tar to /opt/simspark" >&2
    exit 1
  fi
  echo "setup: unpacking SimSpark to /opt/simspark"
  tar -C / -xzf "$simspark_tar"
fi
# qemu-user runs arm64 binaries directly (a test that starts a copy of itself, as
# "ip netns exec" does) once binfmt_misc knows it: mount binfmt_misc where it is not
# mounted, then register qemu-aarch64 from the package's binfmt.d entry.
if [ "$mode" = test ] && [ "$(uname -m)" != aarch64 ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to register qemu-aarch64 with binfmt_misc" >&2
    exit 1
  fi
  [ -e /proc/sys/fs/binfmt_misc/register ] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
  echo "setup: registered qemu-aarch64 with binfmt_misc"
fi
go mod download
# staticcheck for scripts/test.sh, into GOBIN (default: the first GOPATH's bin), installed
# when that directory lacks this version. v0.8.2 is staticcheck 2026.2.2, the release for Go 1.26.
if [ "$mode" = test ]; then
  staticcheck_version=v0.8.2
  gobin=$(go env GOBIN); gopath=$(go env GOPATH); gobin=${gobin:-${gopath%%:*}/bin}
  if [ "$("$gobin/staticcheck" -version 2>/dev/null || true)" != "staticcheck 2026.2.2 (${staticcheck_version#v})" ]; then
    echo "setup: installing staticcheck $staticcheck_version to $gobin"
    go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
  fi
fi
