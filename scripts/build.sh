#!/usr/bin/env bash
# Configure and build one flavour: release (build/) or asan (build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
case "${1:-release}" in
  release) cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build build -j"$jobs" ;;
  asan) cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON >/dev/null && cmake --build build-asan -j"$jobs" ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac
