#!/usr/bin/env bash
# Determinism across builds and sweep parallelism: the same sweep (tests/reliability/
# determinism.cfg) run by an -O0 and an -O2 build, with --jobs 1 and --jobs 2, must give
# byte-identical stats.json for every run, apart from its provenance object (host, date, wall
# time, command line: engine/stats.h), which is dropped before comparing. Usage: scripts/determinism.sh [O0_BIN O2_BIN]
# (without arguments both are built here, SimGrid off, in build-det-O0 / build-det-O2).
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${SPEC:-tests/reliability/determinism.cfg}
if [ $# -ge 2 ]; then
  o0=$1 o2=$2
else
  jobs=${JOBS:-2}
  cmake -S . -B build-det-O0 -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SIMGRID=OFF >/dev/null
  cmake -S . -B build-det-O2 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_SIMGRID=OFF >/dev/null
  cmake --build build-det-O0 -j"$jobs" --target warpsim >/dev/null
  cmake --build build-det-O2 -j"$jobs" --target warpsim >/dev/null
  o0=build-det-O0/warpsim o2=build-det-O2/warpsim
fi
tmp=$(mktemp -d /tmp/ws_det_XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$o2" sweep "$spec" --jobs 1 --out "$tmp/o2-j1" >"$tmp/o2-j1.log" 2>&1
"$o2" sweep "$spec" --jobs 2 --out "$tmp/o2-j2" >"$tmp/o2-j2.log" 2>&1
"$o0" sweep "$spec" --jobs 2 --out "$tmp/o0-j2" >"$tmp/o0-j2.log" 2>&1
n=0 bad=0
while IFS= read -r f; do
  rel=${f#"$tmp/o2-j1/"}
  n=$((n + 1))
  for other in o2-j2 o0-j2; do
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
echo "determinism: $n runs byte-identical across -O0/-O2 and --jobs 1/2"
