#!/usr/bin/env bash
# The main job on a laptop: decodes the recorded sample packets of every protocol.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/dnetwork ] || make build
for f in testdata/demo/*.hex; do
  [ -e "$f" ] || continue
  echo "== $f"
  ./build/dnetwork decode "$f" || true
done
