#!/usr/bin/env bash
# Runs every Fuzz* target for FUZZTIME (default 30s) each.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${FUZZTIME:=30s}"
for dir in $(go list -f '{{.Dir}}' ./...); do
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | awk '{print $2}'); do
    pkg=$(cd "$dir" && go list .)
    echo "fuzz $pkg $f"
    go test -run '^$' -fuzz "^${f}\$" -fuzztime "$FUZZTIME" "$pkg" >/tmp/fuzz.$$ 2>&1 || { cat /tmp/fuzz.$$; exit 1; }
  done
done
rm -f /tmp/fuzz.$$
