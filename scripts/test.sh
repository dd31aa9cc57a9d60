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
go test -race -count=1 -timeout 15m ./...

echo "== fuzz smoke (${FUZZTIME:=4000x} per target)"
FUZZTIME="$FUZZTIME" ./scripts/fuzz.sh
