#!/usr/bin/env bash
# The demo: a simulated team on this machine, everything on loopback. Five dnetwork
# nodes (real ROS 2 nodes on Cyclone DDS) are fed with synthetic robots, a simulated
# GameController plays a short scripted game, and the web monitor shows it all. Open
# the web page printed below; Ctrl-C stops the demo.
#
#   DEMO_DURATION  how long the game runs from its start (default 5m; 0 runs until Ctrl-C)
#   DEMO_HTTP      address of the web page (default 127.0.0.1:8080, or any free port
#                  when 8080 is taken)
#   Arguments are passed to "dnetwork sim", e.g. ./scripts/demo.sh --robots 6 --speed 2
set -euo pipefail
cd "$(dirname "$0")/.."
# A binary from before "dnetwork sim" existed is rebuilt. Its help is read whole first:
# "help | grep -q" would end the pipe early, and under pipefail the help's SIGPIPE made
# the check fail (and the demo rebuild) now and then.
if ! { [ -x build/dnetwork ] && grep -q '^  sim ' <<<"$(./build/dnetwork help 2>&1)"; }; then
  make build
fi
: "${DEMO_DURATION:=5m}"
if [ -z "${DEMO_HTTP:-}" ]; then
  DEMO_HTTP=127.0.0.1:8080
  if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; then
    echo "demo: port 8080 is taken, the web page gets a free port" >&2
    DEMO_HTTP=127.0.0.1:0
  fi
fi
echo "demo: dnetwork sim for ${DEMO_DURATION} (0: until Ctrl-C); open the web page printed below"
exec ./build/dnetwork sim --duration "$DEMO_DURATION" --http "$DEMO_HTTP" "$@"
