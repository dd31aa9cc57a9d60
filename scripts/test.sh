#!/usr/bin/env bash
# The test command: sets up the machine, then checks formatting, vet, the generated
# code, and runs every test under the race detector plus a short fuzzing pass.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then echo "gofmt needed:"; echo "$bad"; exit 1; fi

echo "== go vet"
go vet ./...

echo "== go generate is reproducible"
if [ -n "$(grep -rl --include='*.go' '^//go:generate' . || true)" ]; then
  go generate ./...
  if [ -n "$(git status --porcelain -- '*.go' 2>/dev/null)" ]; then
    echo "go generate changed files:"; git status --porcelain -- '*.go'; git diff --stat; exit 1
  fi
fi

echo "== go test -race"
go test -race -count=1 -timeout 15m $(go list ./... | grep -v -e '/internal/realros$' -e '/internal/containerimage$')

# Against every ROS 2 under /opt/ros (skips without one): colcon builds and ROS processes
# dominate, so it runs alone and without the race detector.
echo "== real ROS 2 (internal/realros)"
log=$(mktemp)
if ! go test -count=1 -timeout 40m -v ./internal/realros >"$log" 2>&1; then
  tail -n 300 "$log"; rm -f "$log"; exit 1
fi
grep -E -- '^ *--- (PASS|SKIP|FAIL)|realros_test\.go' "$log" || true
rm -f "$log"

# The Dockerfile built with podman on local stand-ins of its base images and run (skips
# without podman, debootstrap or ../shared/ros); builds dominate, so it runs alone.
echo "== container image (internal/containerimage)"
log=$(mktemp)
if ! go test -count=1 -timeout 30m -v ./internal/containerimage >"$log" 2>&1; then
  tail -n 300 "$log"; rm -f "$log"; exit 1
fi
grep -E -- '^ *--- (PASS|SKIP|FAIL)|image_test\.go' "$log" || true
rm -f "$log"

echo "== fuzz smoke (${FUZZTIME:=4000x} per target)"
FUZZTIME="$FUZZTIME" ./scripts/fuzz.sh
