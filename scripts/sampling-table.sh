#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Launch sampling's validation (docs/sampling.md): each multi-launch program run twice on one
# machine, every launch in timing mode and with --sample-launches; prints the table: launches,
# the full run's cycles, the estimate, its error and stated bound, warp instructions simulated
# (full, sampled, reduction) and CPU seconds (user + system) of both runs.
# Programs: the CUDA test programs with host loops (tests/cuda/bin), workloads with several
# launches, and the public Rodinia programs prepared by scripts/apps.sh (size small) when
# $WARPSIM_APPS_DIR/run/rodinia/<name>/small/run.sh exists (skipped, and said so, otherwise).
# usage: scripts/sampling-table.sh [-c CONFIG] [--only "NAME..."] [-s key=value]...
#   env: WARPSIM (default build/warpsim), WARPSIM_APPS_DIR (default ~/.cache/warpsim-apps)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
warpsim=${WARPSIM:-$root/build/warpsim}
adir=${WARPSIM_APPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warpsim-apps}
cfg=configs/gtx480.cfg
only=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -c) cfg=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -s) extra+=(-s "$2"); shift 2 ;;
    *) echo "usage: scripts/sampling-table.sh [-c CONFIG] [--only \"NAME...\"] [-s key=value]..." >&2; exit 2 ;;
  esac
done
# the Rodinia programs run in their own folder: every path absolute
case "$cfg" in /*) ;; *) cfg=$root/$cfg ;; esac
[ -x "$warpsim" ] || { echo "sampling-table.sh: no warpsim at $warpsim (scripts/build.sh release)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/ws_sampling_XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# name TAB kind (cuda | run) TAB what (the program, or workload file and size)
programs=$(cat <<'EOF'
host_loop	cuda	tests/cuda/bin/host_loop
kmeans-test	cuda	tests/cuda/bin/kmeans
cg_poisson	cuda	tests/cuda/bin/cg_poisson
radix_sort	cuda	tests/cuda/bin/radix_sort
bfs-wl	run	workloads/bfs/bfs.cfg medium
fft-wl	run	workloads/fft/fft.cfg medium
hotspot-20	run	tests/reliability/endurance/hotspot_long.cfg long
rodinia/cfd	app	cfd
rodinia/bfs	app	bfs
rodinia/hotspot	app	hotspot
rodinia/kmeans	app	kmeans
rodinia/lud	app	lud
rodinia/srad_v1	app	srad_v1
rodinia/srad_v2	app	srad_v2
rodinia/streamcluster	app	streamcluster
rodinia/particlefilter_naive	app	particlefilter_naive
rodinia/backprop	app	backprop
rodinia/pathfinder	app	pathfinder
EOF
)

# one run: mode (full | sampled), kind, what, outdir -> CPU seconds on stdout
run_one() {
  local mode=$1 kind=$2 what=$3 out=$4 flags=()
  [ "$mode" = sampled ] && flags=(--sample-launches)
  local cmd
  case "$kind" in
    cuda) cmd=("$warpsim" cuda -c "$cfg" "${extra[@]}" "${flags[@]}" --quiet -o "$out" -- "$what") ;;
    app) cmd=("$warpsim" cuda -c "$cfg" "${extra[@]}" "${flags[@]}" --quiet -o "$out" -- "$adir/run/rodinia/$what/small/run.sh") ;;
    run) set -- $what
         cmd=("$warpsim" run -c "$cfg" "${extra[@]}" "${flags[@]}" -w "$1" --size "$2" --quiet -o "$out") ;;
  esac
  /usr/bin/time -f "%U %S" -o "$out.time" "${cmd[@]}" >"$out.log" 2>&1 || { echo "FAILED"; return; }
  awk '{printf "%.2f", $1 + $2}' "$out.time"
}

printf "| program | launches | full cycles | estimated cycles | error | stated bound | timing launches | warp insts simulated, full / sampled | reduction | CPU s full / sampled |\n"
printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
while IFS=$'\t' read -r name kind what; do
  if [ -n "$only" ] && ! grep -qw -- "$name" <<<"$only"; then continue; fi
  if [ "$kind" = app ] && [ ! -x "$adir/run/rodinia/$what/small/run.sh" ]; then
    printf "| %s | not prepared ($adir/run/rodinia/%s/small: scripts/apps.sh prepare) |||||||||\n" "$name" "$what"
    continue
  fi
  d=$tmp/${name//\//_}
  cf=$(run_one full "$kind" "$what" "$d.full")
  cs=$(run_one sampled "$kind" "$what" "$d.sampled")
  if [ "$cf" = FAILED ] || [ "$cs" = FAILED ]; then
    log=$d.full.log; [ "$cf" = FAILED ] || log=$d.sampled.log
    printf "| %s | failed: %s |||||||||\n" "$name" "$(tail -n 1 "$log" | tr '|' '/' | cut -c1-200)"
    continue
  fi
  python3 - "$name" "$d.full/stats.json" "$d.sampled/stats.json" "$cf" "$cs" <<'PY'
import json, sys
name, full, smp, cf, cs = sys.argv[1:]
f = json.load(open(full)); s = json.load(open(smp))
fc = f["total"]["gpu.cycles"]; fw = f["total"]["gpu.warp_insts"]
sa = s["sampling"]; est = sa["total_cycles"]
err = (est - fc) / fc if fc else 0.0
bound = "%.2f%%" % (100 * sa["error_bound_frac"])
if sa["unbounded_launches"]:
    bound += " (%d launches unbounded)" % sa["unbounded_launches"]
print("| %s | %d | %d | %d | %+.2f%% | %s | %d | %d / %d | %.1fx | %s / %s |" % (
    name, len(f["kernels"]), fc, est, 100 * err, bound, sa["timing_launches"], fw,
    sa["simulated_warp_insts"], fw / sa["simulated_warp_insts"] if sa["simulated_warp_insts"] else 0, cf, cs))
PY
done <<<"$programs"
