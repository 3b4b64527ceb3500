#!/usr/bin/env bash
# Regenerate the committed experiment reports (experiments/results/<paper>/) from the sweep specs:
# runs each paper's sweep into results/exp/<paper> (resumable), reports it, copies the report,
# results.csv and plots. Usage: scripts/regen-results.sh [paper...] (default: every paper).
set -euo pipefail
cd "$(dirname "$0")/.."
papers=("$@")
[ ${#papers[@]} -gt 0 ] || papers=(owl pro baws twolevel paws lwm)
ws=${WARPSIM_BIN:-build/warpsim}
for p in "${papers[@]}"; do
  spec=experiments/$p.cfg
  [ -f "$spec" ] || { echo "regen-results: no $spec" >&2; exit 2; }
  out=results/exp/$p   # the sweep writes into --out/<its spec's name> = results/exp/<paper>
  echo "== $p: $spec -> $out"
  "$ws" sweep "$spec" --out results/exp
  base=lrr
  [ "$p" = lwm ] && base=baseline   # the large-warp paper's baseline: round robin, 32-wide warps
  "$ws" report "$out" --baseline "$base"
  dst=experiments/results/$p
  rm -rf "$dst"
  mkdir -p "$dst"
  cp "$out/report.md" "$out/results.csv" "$dst/"
  [ -d "$out/plots" ] && cp -r "$out/plots" "$dst/"
done
