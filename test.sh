#!/usr/bin/env bash
# Set up (Debian packages), build release and sanitizer flavours, run every test.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
scripts/build.sh release
scripts/build.sh asan
jobs=$(nproc 2>/dev/null || echo 2)
echo "== release tests"
ctest --test-dir build --output-on-failure --repeat until-pass:3 -j"$jobs"
echo "== sanitizer tests (ASan + UBSan)"
LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure --repeat until-pass:3 -j"$jobs"
echo "== determinism (-O0 sanitizer build vs -O2 build, sweep --jobs 1 vs 2)"
scripts/determinism.sh build-asan/warpsim build/warpsim
if [ -x scripts/fuzz-smoke.sh ]; then
  echo "== fuzz smoke"
  scripts/fuzz-smoke.sh 60
fi
if [ -x scripts/slurm-selftest.sh ]; then
  echo "== slurm self-test"
  timeout 300 scripts/slurm-selftest.sh
fi
echo "all tests passed"
