#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a fixed set of workloads x policies x configs with one warpsim binary and writes each
# stats.json under OUTDIR; with REFDIR, cmp's each against the same run there (optimisations
# must leave the stats byte-identical; the provenance object, host, date and wall time, is
# dropped from both before comparing). Usage: bench-compare.sh WARPSIM OUTDIR [REFDIR] [SIZE]
set -u
body() { sed '/^ "provenance": {$/,/^ },$/d' "$1"; }
bin=$1 out=$2 ref=${3:-} size=${4:-small}
fail=0
for cfg in owl-28 gtx480; do
  for pol in lrr owl; do
    for wl in vecadd matmul reduce bfs spmv hotspot; do
      d=$out/$cfg-$pol-$wl
      mkdir -p "$d"
      if [ "$pol" = owl ]; then p="-c configs/presets/owl.cfg"; else p="-s gpu.core.scheduler.policy=lrr"; fi
      "$bin" run -c configs/$cfg.cfg $p -w workloads/$wl/$wl.cfg --size "$size" -o "$d" --quiet \
        || { echo "FAIL run $cfg $pol $wl"; fail=1; continue; }
      if [ -n "$ref" ]; then
        body "$d/stats.json" >"$d/stats.body" && body "$ref/$cfg-$pol-$wl/stats.json" >"$d/stats.ref.body"
        if cmp -s "$d/stats.body" "$d/stats.ref.body"; then echo "same $cfg $pol $wl"
        else echo "DIFF $cfg $pol $wl"; fail=1; fi
      fi
    done
  done
done
exit $fail
