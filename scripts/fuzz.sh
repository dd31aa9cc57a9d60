#!/usr/bin/env bash
# Runs every Fuzz* target of the module for FUZZTIME each (default 30s; a count such as
# 5000x is also accepted, as by go test -fuzztime).
#
# Go 1.26's fuzzing coordinator can report "context deadline exceeded" when a
# duration-based -fuzztime expires while a worker is busy (go.dev/issue/75804), without
# any failing input. Such a run is repeated once; a run that writes a failing input, or
# fails in any other way, fails the script at once.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${FUZZTIME:=30s}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() { # pkg target
  go test -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" "$1" >"$log" 2>&1
}

for dir in $(go list -f '{{.Dir}}' ./...); do
  # shellcheck disable=SC2013 # one word (a function name) per line
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | awk '{print $2}'); do
    pkg=$(cd "$dir" && go list .)
    echo "fuzz $pkg $f"
    if run "$pkg" "$f"; then continue; fi
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      echo "  coordinator deadline race without a failing input; running $f again"
      if run "$pkg" "$f"; then continue; fi
    fi
    cat "$log"
    exit 1
  done
done
