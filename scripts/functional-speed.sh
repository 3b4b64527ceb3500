#!/usr/bin/env bash
# Functional against timing speed (docs/functional-speed.md): warp instructions per CPU second
# of `warpsim run --functional` / `warpsim cuda --functional` and of the same run in timing
# mode (gtx480, lrr), the two runs of each case alternated, each REPEAT times, the least CPU
# time of each kept (other jobs on the machine only ever slow a run down). CPU time is the
# task-clock of the whole process tree from `perf stat` (nanoseconds; /usr/bin/time's 10 ms
# steps were up to 10% of a 0.1 s functional run): warpsim and, under `warpsim cuda`, the
# program with its input generation and its own check, as a user pays them. The spread
# column is (largest - least) / least of each mode's runs, timing / functional. A functional
# run is short (0.1 s for a workload), so each round runs it FREPEAT times (default 3).
# Cases: `warpsim bench`'s four workloads at size large, and Rodinia programs (pathfinder,
# backprop, lud) built unchanged with `nvcc -cudart shared -arch=sm_75`, given their
# directory (skipped without it). Each mode's rate uses its own warp-instruction count (the
# closing line of `warpsim cuda`: the timing model's, or the functional executor's).
# --launches: a second table, launches only: one `perf record` of each case's functional run
# gives the executor's share of its CPU time (the self time of the executor's own functions:
# fe_*, fast_* (exec_fast.c's loops), run_cta, warp_turn, run_new_ctas, ffma_fma3,
# warp_control, simt_*, page_find); the rest (host program, input generation, checks, process
# start, module load) is taken out of both modes' CPU time. Needs perf (timing too).
# Usage: scripts/functional-speed.sh [--bin BIN] [--repeat N] [--frepeat N] [--rodinia DIR] [--launches]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/warpsim repeat=2 frepeat=3 rodinia="" launches=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --frepeat) frepeat=$2; shift 2 ;;
    --rodinia) rodinia=$2; shift 2 ;;
    --launches) launches=1; shift ;;
    *) echo "usage: scripts/functional-speed.sh [--bin BIN] [--repeat N] [--frepeat N] [--rodinia DIR] [--launches]" >&2; exit 2 ;;
  esac
done
cfg=$PWD/configs/gtx480.cfg
tmp=$(mktemp -d /tmp/ws_fspeed_XXXXXX)
trap 'rm -rf "$tmp"' EXIT

command -v perf >/dev/null || { echo "functional-speed.sh: needs perf (linux-perf)" >&2; exit 2; }
# cpu OUT CMD...: run CMD (output into OUT), print the CPU seconds of its process tree
cpu() {
  local out=$1; shift
  perf stat -x, -e task-clock -o "$tmp/stat" "$@" >"$out" 2>&1 || { echo "failed: $*" >&2; tail -5 "$out" >&2; exit 1; }
  awk -F, '$3 == "task-clock" { printf "%.4f\n", $1 / 1000; n++ } END { if (n != 1) exit 1 }' "$tmp/stat" ||
    { echo "functional-speed.sh: no task-clock in perf stat's output" >&2; cat "$tmp/stat" >&2; exit 1; }
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a > b) ? a : b }'; }

printf "| case | warp insts | timing CPU s | timing warp inst/CPU s | functional CPU s | functional warp inst/CPU s | ratio | spread |\n"
printf "|---|---:|---:|---:|---:|---:|---:|---:|\n"
: >"$tmp/launches"
# share CMD...: the executor's percentage of CMD's samples (perf record of one run)
share() {
  perf record -q -F 4000 -o "$tmp/perf.data" "$@" >/dev/null 2>&1 || { echo "failed: perf record $*" >&2; exit 1; }
  perf report -i "$tmp/perf.data" --no-children --sort sym --stdio 2>/dev/null |
    awk '$2 == "[.]" && $3 ~ /^(fe_|fast_|run_cta|warp_turn|run_new_ctas|ffma_fma3|warp_control|simt_|page_find)/ { s += $1 }
         END { printf "%.1f\n", s }'
}
row() { # NAME TIMING_WARP_INSTS FUNCTIONAL_WARP_INSTS TIMING_S FUNCTIONAL_S (least), $tw $fw (largest)
  echo "$*" >>"$tmp/launches.rows"
  awk -v n="$1" -v wi="$2" -v fwi="$3" -v t="$4" -v f="$5" -v tw="$tw" -v fw="$fw" 'BEGIN {
    printf "| %s | %d | %.3f | %.0f | %.4f | %.0f | %.1fx | %.1f%% / %.1f%% |\n", n, wi, t, wi / t, f, fwi / f,
      (fwi / f) / (wi / t), 100 * (tw - t) / t, 100 * (fw - f) / f }'
}

for w in vecadd matmul reduce bfs; do
  tb="" fb="" tw="" fw="" wi=""
  for ((r = 0; r < repeat; r++)); do
    t=$(cpu "$tmp/t.out" "$bin" run -c "$cfg" -s gpu.core.scheduler.policy=lrr -w "workloads/$w/$w.cfg" --size large --no-progress)
    tb=$(min "$t" "$tb") tw=$(max "$t" "$tw")
    for ((k = 0; k < frepeat; k++)); do
      f=$(cpu "$tmp/f.out" "$bin" run --functional -w "workloads/$w/$w.cfg" --size large)
      fb=$(min "$f" "$fb") fw=$(max "$f" "$fw")
    done
    wi=$(sed -n 's/^simulated \([0-9]*\) warp instructions.*/\1/p' "$tmp/t.out")
    fwi=$(sed -n 's/^functional run: \([0-9]*\) warp instructions.*/\1/p' "$tmp/f.out")
    # racy kernels (bfs) may interleave differently; the rate uses each mode's own count
  done
  if [ "$launches" = 1 ]; then share "$bin" run --functional -w "workloads/$w/$w.cfg" --size large >>"$tmp/launches"; fi
  row "$w (large)" "$wi" "$fwi" "$tb" "$fb"
done

if [ -n "$rodinia" ]; then
  for c in "pathfinder 100000 100 20" "backprop 65536" "lud -s 512 -v"; do
    set -- $c
    prog=$1; shift
    tb="" fb="" tw="" fw="" wi=""
    for ((r = 0; r < repeat; r++)); do
      t=$(cd "$tmp" && cpu "$tmp/t.out" "$OLDPWD/$bin" cuda -c "$cfg" -s gpu.core.scheduler.policy=lrr -- "$rodinia/$prog" "$@")
      tb=$(min "$t" "$tb") tw=$(max "$t" "$tw")
      for ((k = 0; k < frepeat; k++)); do
        f=$(cd "$tmp" && cpu "$tmp/f.out" "$OLDPWD/$bin" cuda --functional -- "$rodinia/$prog" "$@")
        fb=$(min "$f" "$fb") fw=$(max "$f" "$fw")
      done
      wi=$(sed -n 's/^warpsim cuda: [0-9]* kernel launches, [0-9]* core cycles, \([0-9]*\) warp instructions.*/\1/p' "$tmp/t.out")
      fwi=$(sed -n 's/^warpsim cuda: [0-9]* kernel launches, run functionally, \([0-9]*\) warp instructions.*/\1/p' "$tmp/f.out")
    done
    if [ "$launches" = 1 ]; then (cd "$tmp" && share "$OLDPWD/$bin" cuda --functional -- "$rodinia/$prog" "$@") >>"$tmp/launches"; fi
    row "rodinia $prog $*" "$wi" "$fwi" "$tb" "$fb"
  done
fi

if [ "$launches" = 1 ]; then
  # host = functional CPU x (1 - share), the same in both modes; each mode's launches are the rest
  printf "\n| case | executor share of functional CPU | functional launches CPU s | functional warp inst/CPU s | timing launches CPU s | timing warp inst/CPU s | ratio |\n"
  printf "|---|---:|---:|---:|---:|---:|---:|\n"
  paste -d'\t' "$tmp/launches" <(awk '{ n = $1; for (i = 2; i <= NF - 4; i++) n = n " " $i; print n "\t" $(NF-3) "\t" $(NF-2) "\t" $(NF-1) "\t" $NF }' "$tmp/launches.rows") |
    awk -F'\t' '{ sh = $1 / 100; wi = $3; fwi = $4; t = $5; f = $6; fl = f * sh; tl = t - f * (1 - sh)
      printf "| %s | %.1f%% | %.3f | %.0f | %.2f | %.0f | %.1fx |\n", $2, 100 * sh, fl, fwi / fl, tl, wi / tl, (fwi / fl) / (wi / tl) }'
fi
