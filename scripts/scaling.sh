#!/bin/sh
# SPDX-License-Identifier: MIT
# Simulator wall-time scaling (issue 9): (a) owl-28 machine with 7..112 cores, the mesh scaled to
# hold cores + 8 memory controllers (MCs spread evenly over the nodes), on one kernel; (b) owl-28
# with the kernel grown x1, x4, x16. Prints one line per run: user CPU s (the machine is shared,
# so CPU time is steadier than wall), wall s, peak RSS, and warpsim's own summary.
# Usage: scripts/scaling.sh WARPSIM [cores|size|both] [WORKLOAD]
set -u
bin=$1 what=${2:-both} wl=${3:-vecadd}
tmp=$(mktemp -d)
run() { # label, args...
  label=$1; shift
  /usr/bin/time -f "%U %e %M" -o "$tmp/t" "$bin" run "$@" > "$tmp/o" 2>&1 || { echo "$label FAILED"; tail -2 "$tmp/o"; return; }
  set -- $(cat "$tmp/t")
  printf '%-28s user %7.2f s  wall %7.2f s  rss %5d MB  %s\n' "$label" "$1" "$2" $(($3 / 1024)) "$(tail -1 "$tmp/o")"
}
mcs() { # nodes: 8 MC nodes spread over 0..nodes-1
  awk -v t="$1" 'BEGIN { s = ""; for (i = 0; i < 8; i++) s = s (i ? "," : "") int((2 * i + 1) * t / 16); print s }'
}
if [ "$what" != size ]; then
  for spec in 7:4,4 14:5,5 28:6,6 56:8,8 112:11,11; do
    n=${spec%%:*} d=${spec#*:}
    x=${d%,*} y=${d#*,}
    run "cores=$n mesh=${x}x$y $wl" -c configs/owl-28.cfg -w workloads/$wl/$wl.cfg --size medium \
      -s gpu.core.count=$n -s "gpu.noc.dims=[$x,$y]" -s "gpu.noc.placement.mc_nodes=[$(mcs $((x * y)))]"
  done
fi
if [ "$what" != cores ]; then
  for w in vecadd reduce; do
    mkdir -p "$tmp/$w"
    cp workloads/$w/$w.ptx "$tmp/$w/"
    sed -e 's/small = { n = [0-9]*; }/x1 = { n = 65536; }/' -e 's/medium = { n = [0-9]*; }/x4 = { n = 262144; }/' \
        -e 's/large = { n = [0-9]*; }/x16 = { n = 1048576; }/' -e 's/^size = "small"/size = "x1"/' \
        workloads/$w/$w.cfg > "$tmp/$w/$w.cfg"
    for s in x1 x4 x16; do
      run "owl-28 $w $s" -c configs/owl-28.cfg -w "$tmp/$w/$w.cfg" --size $s
    done
  done
fi
rm -rf "$tmp"
