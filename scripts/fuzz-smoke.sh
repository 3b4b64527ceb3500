#!/usr/bin/env bash
# Build the libFuzzer harnesses (clang, ASan+UBSan) and run each for N seconds (default 60)
# from seed corpora made of the project's own configs, PTX, workload and SimGrid platform files.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
command -v clang >/dev/null || { echo "fuzz-smoke: clang not installed (Debian package clang)" >&2; exit 1; }
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_FUZZ=ON -DWARPSIM_SIMGRID=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_config fuzz_ptx fuzz_workload fuzz_report >/dev/null
for h in config ptx workload report; do
  corpus=build-fuzz/corpus-$h
  mkdir -p "$corpus"
  case $h in
    config) cp configs/*.cfg configs/*/*.cfg tests/engine/data/*.cfg tests/bad_inputs/configs/*.cfg tests/fuzz/regressions/config_*.cfg "$corpus"/ 2>/dev/null || true ;;
    ptx) find workloads tests/frontend tests/bad_inputs -name '*.ptx' -exec cp {} "$corpus"/ \; ;;
    workload) find workloads tests/bad_inputs/workloads tests/bad_inputs/programs -name '*.cfg' -exec cp {} "$corpus"/ \;
      cp tests/fuzz/regressions/workload_*.cfg "$corpus"/ ;;
    report) # studies nest (results/apps-small/pro/): seed from every results.csv, named by its path
      find experiments/results -name results.csv | while read -r f; do
        d=${f#experiments/results/}; cp "$f" "$corpus/$(echo "${d%/results.csv}" | tr / -).csv"; done
      head -c 4000 tests/fuzz/regressions/report_samples.csv > "$corpus/samples.csv"
      cp tests/fuzz/regressions/report_*.csv "$corpus"/ ;;
  esac
  echo "fuzz $h: ${secs}s"
  log=build-fuzz/fuzz-$h.log
  rc=0
  LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp ASAN_OPTIONS=detect_leaks=1 build-fuzz/fuzz_$h -max_total_time="$secs" -max_len=65536 -timeout=10 \
    -print_final_stats=1 -seed=1 -artifact_prefix=build-fuzz/ "$corpus" >"$log" 2>&1 || rc=$?
  grep -E "^stat::(number_of_executed_units|new_units_added)|^#[0-9]+ *DONE" "$log" || true
  if [ "$rc" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|Test unit written" "$log" >&2 || tail -20 "$log" >&2
    echo "fuzz $h failed (exit $rc); full log: $log" >&2
    exit 1
  fi
done
# SimGrid platforms: a build with SimGrid (its C++ boundary is clang++'s), one forked load per
# input (SimGrid has one engine per process), so far fewer executions per second.
if pkg-config --exists simgrid && command -v clang++ >/dev/null; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz-sg -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_FUZZ=ON -DWARPSIM_SIMGRID=ON >/dev/null
  cmake --build build-fuzz-sg -j"$(nproc)" --target fuzz_simgrid >/dev/null
  corpus=build-fuzz-sg/corpus-simgrid
  mkdir -p "$corpus"
  cp topologies/platforms/*.xml tests/bad_inputs/platforms/*.xml "$corpus"/
  cp tests/fuzz/regressions/simgrid_*.xml "$corpus"/ 2>/dev/null || true
  echo "fuzz simgrid: ${secs}s"
  log=build-fuzz-sg/fuzz-simgrid.log
  rc=0
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 build-fuzz-sg/fuzz_simgrid -max_total_time="$secs" \
    -max_len=16384 -timeout=30 -print_final_stats=1 -seed=1 -artifact_prefix=build-fuzz-sg/ "$corpus" >"$log" 2>&1 || rc=$?
  grep -E "^stat::(number_of_executed_units|new_units_added)|^#[0-9]+ *DONE" "$log" || true
  if [ "$rc" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|Test unit written|fuzz_simgrid:" "$log" >&2 || tail -20 "$log" >&2
    echo "fuzz simgrid failed (exit $rc); full log: $log" >&2
    exit 1
  fi
else
  echo "fuzz simgrid: skipped (needs SimGrid and clang++)" >&2
fi
