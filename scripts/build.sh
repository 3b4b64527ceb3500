#!/usr/bin/env bash
# Configure and build one flavour: release (build/, RelWithDebInfo -O2 -g: the one tested and
# run), asan (build-asan/, Debug with ASan + UBSan), or optimized (build-release/, CMake's
# Release type -O3, as a user's plain `cmake -DCMAKE_BUILD_TYPE=Release` builds it: gcc's -O3
# warnings, -Werror, differ from -O2's, so CI compiles it too).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
case "${1:-release}" in
  release) cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build build -j"$jobs" ;;
  asan) cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON >/dev/null && cmake --build build-asan -j"$jobs" ;;
  optimized) cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-release -j"$jobs" ;;
  *) echo "usage: scripts/build.sh [release|asan|optimized]" >&2; exit 2 ;;
esac
