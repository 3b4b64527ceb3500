#!/usr/bin/env bash
# Determinism across builds and sweep parallelism: the same sweep (tests/reliability/
# determinism.cfg) run by an -O0, an -O2 and (given one) an -O3 build, with --jobs 1 and
# --jobs 2, must give byte-identical stats.json for every run, apart from its provenance object
# (host, date, wall time, command line: engine/stats.h), which is dropped before comparing.
# Usage: scripts/determinism.sh [O0_BIN O2_BIN [O3_BIN]] (without arguments all three are built
# here, SimGrid off, in build-det-O0 / build-det-O2 / build-det-O3).
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${SPEC:-tests/reliability/determinism.cfg}
o3=""
if [ $# -ge 2 ]; then
  o0=$1 o2=$2 o3=${3:-}
else
  jobs=${JOBS:-2}
  for t in O0:Debug O2:RelWithDebInfo O3:Release; do
    cmake -S . -B "build-det-${t%%:*}" -DCMAKE_BUILD_TYPE="${t#*:}" -DWARPSIM_SIMGRID=OFF -DWARPSIM_TESTS=OFF >/dev/null
    cmake --build "build-det-${t%%:*}" -j"$jobs" --target warpsim >/dev/null
  done
  o0=build-det-O0/warpsim o2=build-det-O2/warpsim o3=build-det-O3/warpsim
fi
tmp=$(mktemp -d /tmp/ws_det_XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# sweep BIN JOBS NAME: the spec's sweep into $tmp/NAME; a failed sweep shows its log (which
# the trap removes) before stopping
sweep() {
  if ! "$1" sweep "$spec" --jobs "$2" --out "$tmp/$3" >"$tmp/$3.log" 2>&1; then
    echo "determinism: $1 sweep --jobs $2 failed:" >&2
    tail -20 "$tmp/$3.log" >&2
    exit 1
  fi
}
sweep "$o2" 1 o2-j1
sweep "$o2" 2 o2-j2
sweep "$o0" 2 o0-j2
others="o2-j2 o0-j2"
if [ -n "$o3" ]; then
  sweep "$o3" 2 o3-j2
  others="$others o3-j2"
fi
n=0 bad=0
while IFS= read -r f; do
  rel=${f#"$tmp/o2-j1/"}
  n=$((n + 1))
  for other in $others; do
    if ! cmp -s <(sed '/^ "provenance": {$/,/^ },$/d' "$f") \
                <(sed '/^ "provenance": {$/,/^ },$/d' "$tmp/$other/$rel"); then
      echo "determinism: $rel differs between o2-j1 and $other" >&2
      bad=$((bad + 1))
    fi
  done
done < <(find "$tmp/o2-j1" -name stats.json | sort)
if [ "$n" -eq 0 ]; then
  echo "determinism: no stats.json produced; sweep log:" >&2
  tail -20 "$tmp/o2-j1.log" >&2
  exit 1
fi
if [ "$bad" -ne 0 ]; then
  exit 1
fi
echo "determinism: $n runs byte-identical across -O0/-O2${o3:+/-O3} and --jobs 1/2"
