#!/bin/sh
# SPDX-License-Identifier: MIT
# `warpsim bench` under callgrind: instructions executed per simulated warp instruction, per
# run (its bench_one: configuration, workload, simulation, check, teardown). Unlike the
# bench's seconds, the count does not depend on the machine or on what else it runs, so two
# commits (each run from its own tree: the bench reads configs/ and workloads/
# relative to the working directory) compare exactly; multiplying a rate measured on one machine
# by the ratio of two commits' counts estimates the other commit's rate there, as long as
# instructions per cycle stay alike. Slow: about 40x the bench's CPU time (35 min at large).
# Usage (from a source tree's root): scripts/bench-ir.sh WARPSIM OUTDIR [small|medium|large]
# Prints config, kernel, policy, warp insts, instructions, instructions per warp inst.
set -eu
bin=$1 out=$2 size=${3:-large}
command -v valgrind >/dev/null || { echo "bench-ir.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/cg.*
# Every bench run is a forked child: callgrind writes one file per process (%p), each at its
# exit, so the children's files in modification order are the runs in the bench's order. A child
# starts with the counts its parent had at the fork; counting inside bench_one only (the run,
# from configuration to teardown) leaves those out.
valgrind --tool=callgrind --toggle-collect=bench_one --callgrind-out-file="$out/cg.%p" "$bin" bench --size "$size" \
  >"$out/bench.txt" 2>"$out/valgrind.txt" &
parent=$!
wait $parent || { echo "bench-ir.sh: the bench failed (see $out/valgrind.txt)" >&2; exit 1; }
ls -tr "$out" | grep '^cg\.' | grep -vx "cg.$parent" | while read -r f; do
  grep -E '^(summary|totals):' "$out/$f" | head -n 1 | awk '{print $2}'
done >"$out/ir.txt"
grep -E '^(owl-28|gtx480) ' "$out/bench.txt" | awk '{print $1, $2, $3, $4}' >"$out/rows.txt"
if [ "$(wc -l <"$out/ir.txt")" -ne "$(wc -l <"$out/rows.txt")" ]; then
  echo "bench-ir.sh: $(wc -l <"$out/ir.txt") callgrind files for $(wc -l <"$out/rows.txt") bench runs" >&2
  exit 1
fi
paste -d ' ' "$out/rows.txt" "$out/ir.txt" |
  awk '{printf "%-8s %-8s %-6s %10d %14d %8.0f\n", $1, $2, $3, $4, $5, $5 / $4; s += $5 / $4}
       END {printf "mean instructions per warp instruction: %.0f\n", s / NR}' | tee "$out/ir-per-warp-inst.txt"
