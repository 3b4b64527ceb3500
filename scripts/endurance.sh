#!/usr/bin/env bash
# Endurance: peak RSS of long runs at several lengths in core cycles, to show memory does not
# grow after warm-up. Two shapes (tests/reliability/endurance/hotspot_long.cfg):
#   repeat: hotspot 64x64 launched again and again (steps scaled to the target) -- per-launch state
#   single: one hotspot launch on 2048x2048 (16384 CTAs) capped by the budget sim.max_cycles =
#           target (a clean end, stats.json "budget") -- the machine's own state over a long kernel
# Usage: MODE=repeat|single scripts/endurance.sh WARPSIM_BIN [CYCLES...]   (default 1e5 1e6 1e7)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/endurance.sh WARPSIM_BIN [CYCLES...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(100000 1000000 10000000)
tmp=$(mktemp -d /tmp/ws_end_XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=tests/reliability/endurance/hotspot_long.cfg
mk() { # steps -> workload file in $tmp (the PTX path made absolute)
  sed -e "s|^  long = { nx = 64; ny = 64; steps = [0-9]*; };|  long = { nx = 64; ny = 64; steps = $1; };|" \
      -e "s|^ptx = \"../../../workloads/|ptx = \"$PWD/workloads/|" "$src" >"$tmp/w$1.cfg"
  echo "$tmp/w$1.cfg"
}
cycles_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['gpu.cycles'])" "$1"; }
capped() { python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get('budget', {}).get('capped') else 1)" "$1"; }
if [ "${MODE:-repeat}" = single ]; then
  sed -e "s|^  long = { nx = 64; ny = 64; steps = [0-9]*; };|  long = { nx = 2048; ny = 2048; steps = 1; };|" \
      -e "s|^ptx = \"../../../workloads/|ptx = \"$PWD/workloads/|" "$src" >"$tmp/single.cfg"
  printf "%-12s %-22s %-10s %s\n" limit core_cycles peak_rss_kb wall_s
  for t in "${targets[@]}"; do
    /usr/bin/time -f "%M %e" -o "$tmp/time" "$bin" run -c configs/owl-28.cfg -w "$tmp/single.cfg" \
      -s sim.max_cycles="$t" --quiet -o "$tmp/s$t" >/dev/null 2>&1 || true
    read -r rss wall < <(tail -1 "$tmp/time")
    if [ ! -f "$tmp/s$t/stats.json" ]; then done_at="$t (failed)"
    elif capped "$tmp/s$t/stats.json"; then done_at="$(cycles_of "$tmp/s$t/stats.json") (capped)"
    else done_at="$(cycles_of "$tmp/s$t/stats.json") (finished)"; fi
    printf "%-12s %-22s %-10s %s\n" "$t" "$done_at" "$rss" "$wall"
  done
  exit 0
fi
# Calibrate: core cycles per time step.
w=$(mk 20)
"$bin" run -c configs/owl-28.cfg -w "$w" --quiet -o "$tmp/cal" >/dev/null
per=$(( $(cycles_of "$tmp/cal/stats.json") / 20 ))
printf "%-12s %-8s %-14s %-10s %s\n" target steps core_cycles peak_rss_kb wall_s
for t in "${targets[@]}"; do
  steps=$(( (t + per - 1) / per ))
  w=$(mk "$steps")
  /usr/bin/time -f "%M %e" -o "$tmp/time" "$bin" run -c configs/owl-28.cfg -w "$w" --quiet -o "$tmp/o$t" >/dev/null
  read -r rss wall <"$tmp/time"
  printf "%-12s %-8s %-14s %-10s %s\n" "$t" "$steps" "$(cycles_of "$tmp/o$t/stats.json")" "$rss" "$wall"
done
