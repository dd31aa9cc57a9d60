#!/usr/bin/env bash
# The test command: sets up the machine, then checks formatting, vet, staticcheck and the
# generated code, and runs every test under the race detector plus a short fuzzing pass.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --test

echo "== gofmt"
# shellcheck disable=SC2046 # one argument per file
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then echo "gofmt needed:"; echo "$bad"; exit 1; fi

echo "== go vet"
go vet ./...
# Without cgo (no Cyclone DDS) everything still builds, tests included: package ros/dds
# has stubs, and the tests that need DDS carry //go:build cgo.
CGO_ENABLED=0 go vet ./...

# Exceptions are justified where they are: //lint:ignore CHECK reason at the line.
echo "== staticcheck"
gobin=$(go env GOBIN); gopath=$(go env GOPATH)
PATH="${gobin:-${gopath%%:*}/bin}:$PATH" staticcheck ./...

echo "== go generate is reproducible"
if [ -n "$(grep -rl --include='*.go' '^//go:generate' . || true)" ]; then
  go generate ./...
  if [ -n "$(git status --porcelain -- '*.go' wireshark/dnetwork.lua 2>/dev/null)" ]; then
    echo "go generate changed files:"; git status --porcelain -- '*.go' wireshark/dnetwork.lua; git diff --stat; exit 1
  fi
fi

echo "== go test -race"
# shellcheck disable=SC2046 # one argument per package
go test -race -count=1 -timeout 15m $(go list ./... | grep -v -e '/internal/realros$' -e '/internal/containerimage$')

echo "== opt-in direct DDS writes (-tags dnetwork_directcall)"
# Off by default (package ros/dds/internal/directcall says why); kept building and tested.
go vet -tags dnetwork_directcall ./ros/dds/...
go test -race -count=1 -tags dnetwork_directcall ./ros/dds/

# Every package's tests cross-compiled for arm64 (gcc-aarch64-linux-gnu, Cyclone DDS from
# Debian's multiarch) and run under qemu-user with -short, without the race detector (no
# ThreadSanitizer under emulation). The arm64 loader and libraries (libc6:arm64, libddsc)
# are the multiarch ones at their usual paths, so qemu needs no -L prefix. Left out:
# cmd/dnetwork and internal/linkemu for time (end-to-end nodes and link emulation run for
# minutes under qemu; their code is the packages tested here), package (colcon and CMake
# build the node for the host with the host's ROS: no arm64 code runs), and the real peers
# (internal/realros, internal/containerimage). Tests that cannot work under qemu skip and
# say why (internal/qemutest). Set ARM64=0 to leave the section out.
if [ "${ARM64:-1}" != 0 ]; then
  echo "== arm64 (qemu)"
  arm64_start=$SECONDS
  # shellcheck disable=SC2046 # one argument per package
  CGO_ENABLED=1 GOARCH=arm64 CC=aarch64-linux-gnu-gcc \
    PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig \
    DNETWORK_QEMU=1 go test -count=1 -short -timeout 5m -exec qemu-aarch64-static \
    $(go list ./... | grep -v -e '/cmd/dnetwork$' -e '/internal/linkemu$' -e '/package$' \
      -e '/internal/realros$' -e '/internal/containerimage$')
  echo "arm64 (qemu): $((SECONDS - arm64_start)) s"
fi

# alone PKG TIMEOUT PATTERN: runs one suite of real peers by itself, without the race
# detector (builds and external processes dominate it), and prints its results (the
# lines matching PATTERN), or its last lines when it fails.
alone() {
  local log; log=$(mktemp)
  if ! go test -count=1 -timeout "$2" -v "$1" >"$log" 2>&1; then
    tail -n 300 "$log"; rm -f "$log"; exit 1
  fi
  grep -E -- "^ *--- (PASS|SKIP|FAIL)|$3" "$log" || true
  rm -f "$log"
}

# Against every ROS 2 under /opt/ros (skips without one): colcon builds and ROS processes.
echo "== real ROS 2 (internal/realros)"
alone ./internal/realros 40m 'realros_test\.go'

# The Dockerfile built with podman on local stand-ins of its base images and run (skips
# without podman, debootstrap or ../shared/ros): image builds.
echo "== container image (internal/containerimage)"
alone ./internal/containerimage 30m 'image_test\.go'

echo "== fuzz smoke (${FUZZTIME:=4000x} per target)"
FUZZTIME="$FUZZTIME" ./scripts/fuzz.sh
