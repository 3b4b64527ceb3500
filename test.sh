#!/usr/bin/env bash
# Set up (Debian packages), build the release, sanitizer and optimized (-O3) flavours, run every
# test once (a test that fails once fails CI: retries would hide a flaky one), and compare the
# three builds' results for determinism.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
scripts/build.sh release
scripts/build.sh asan
scripts/build.sh optimized
jobs=$(nproc 2>/dev/null || echo 2)
echo "== release tests"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"
echo "== sanitizer tests (ASan + UBSan)"
LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs"
echo "== determinism (-O0 sanitizer, -O2 and -O3 builds, sweep --jobs 1 vs 2)"
scripts/determinism.sh build-asan/warpsim build/warpsim build-release/warpsim
if [ -x scripts/fuzz-smoke.sh ]; then
  echo "== fuzz smoke"
  scripts/fuzz-smoke.sh 60
fi
if [ -x scripts/slurm-selftest.sh ]; then
  echo "== slurm self-test"
  timeout 300 scripts/slurm-selftest.sh
fi
echo "all tests passed"
