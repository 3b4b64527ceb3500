#!/usr/bin/env bash
# Sweep BookSim2 over offered loads on one of these configs and print, per load, latency and the
# injected/accepted flit rates BookSim averages over all nodes, and the accepted rate per core (x 36/28).
# usage: noc/booksim2/sweep.sh CFG RATE... [-- key=value ...]   (BOOKSIM: the binary, default booksim)
set -euo pipefail
cfg=$1; shift
rates=(); extra=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; extra=("$@"); break; fi
  rates+=("$1"); shift
done
for r in "${rates[@]}"; do
  # booksim exits non-zero when a run did not converge (any run past saturation): read its output anyway
  out=$({ "${BOOKSIM:-booksim}" "$cfg" injection_rate="$r" "${extra[@]}" 2>&1 || true; } | sed -n '/Overall Traffic Statistics/,$p')
  lat=$(echo "$out" | awk '/^Packet latency average/ {print $5}')
  inj=$(echo "$out" | awk '/^Injected flit rate average/ {print $6}')
  acc=$(echo "$out" | awk '/^Accepted flit rate average/ {print $6}')
  [ -n "$acc" ] || { echo "sweep.sh: no overall statistics from booksim at rate $r" >&2; exit 1; }
  printf "%s offered %.3f latency %s injected %s accepted %s accepted_per_core %.4f\n" \
    "$(basename "$cfg")" "$r" "$lat" "$inj" "$acc" "$(echo "$acc * 36 / 28" | bc -l)"
done
