#!/usr/bin/env bash
# Installs everything dnetwork needs on a fresh Debian machine (idempotent).
# Go itself must already be on PATH (Go 1.26 or newer).
set -euo pipefail

pkgs=(gcc libc6-dev pkg-config cyclonedds-dev cyclonedds-tools iproute2 openssl chromium
      cmake patchelf colcon python3-colcon-ros python3-colcon-cmake
      python3-colcon-recursive-crawl python3-colcon-package-information
      python3-colcon-package-selection)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install: ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v go >/dev/null || { echo "setup: go not found on PATH (need Go 1.26+)" >&2; exit 1; }
go mod download
