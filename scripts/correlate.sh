#!/bin/bash
# SPDX-License-Identifier: MIT
# Correlation harness: runs the kernels of scripts/correlation/kernels.txt on warpsim and compares
# thread instructions and cycles with GPGPU-Sim 4.2 on the same machine, per kernel and policy,
# then the mean absolute error and the Pearson correlation of cycles over each group.
#
# usage: scripts/correlate.sh [--machine gtx480|owl28|all] [--policies "lrr gto"]
#                             [--kernels "NAME ..."] [--warpsim PATH]
#                             [--gpgpusim DIR [--force]] [-j N] [--doc FILE] [--owl28-native]
#   --doc FILE writes the printed table into FILE (docs/correlation.md) with the command.
#   owl28 runs warpsim with configs/owl-28.cfg and then scripts/correlation/owl28/warpsim-matched.cfg,
#   the departures from OWL Table 1 that GPGPU-Sim 4.2 forced on its side (128 B lines, GTX480's
#   pipeline at 325 MHz); --owl28-native compares owl-28 as shipped instead.
#   Without --gpgpusim the GPGPU-Sim side is read from the committed raw statistics
#   (scripts/correlation/gpgpusim/<machine>/<kernel>-<policy>.txt), so the table reruns without
#   GPGPU-Sim. With --gpgpusim DIR (a built gpgpu-sim_distribution tree, see
#   scripts/correlation/README.md) the host programs are built with nvcc and every run whose raw
#   file is missing (all with --force) is simulated again, one at a time under nice, and saved.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corr=scripts/correlation
# shellcheck source=scripts/correlation/lib.sh
. $corr/lib.sh
machine=gtx480 policies="lrr gto" only="" warpsim=build/warpsim gpgpusim="" force=0 jobs=2 doc=""
owl28_cfg="configs/owl-28.cfg -c $corr/owl28/warpsim-matched.cfg"
cmdline="scripts/correlate.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--machine) machine=$2; shift 2 ;;
	--policies) policies=$2; shift 2 ;;
	--kernels) only=$2; shift 2 ;;
	--warpsim) warpsim=$2; shift 2 ;;
	--gpgpusim) gpgpusim=$(realpath "$2"); shift 2 ;;
	--force) force=1; shift ;;
	-j) jobs=$2; shift 2 ;;
	--doc) doc=$2; shift 2 ;;
	--owl28-native) owl28_cfg=configs/owl-28.cfg; shift ;;
	-h|--help) sed -n '3,19p' "$0"; exit 0 ;;
	*) echo "$0: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
[ "$machine" = all ] && machines="gtx480 owl28" || machines=$machine
for m in $machines; do
	case "$m" in gtx480|owl28) ;; *) echo "$0: --machine must be gtx480, owl28 or all" >&2; exit 2 ;; esac
done
[ -x "$warpsim" ] || { echo "$0: $warpsim not built (scripts/build.sh release)" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }

# GPGPU-Sim configuration folder of each machine.
gs_config() { case "$1" in gtx480) echo $corr/gpgpusim/gtx480-config ;; owl28) echo $corr/owl28 ;; esac; }

# The kernel list, filtered by --kernels.
list=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$list" "$tmp"' EXIT
grep -v '^\s*#' $corr/kernels.txt | grep -v '^\s*$' | while read -r name rest; do
	if [ -z "$only" ] || [[ " $only " == *" $name "* ]]; then echo "$name $rest"; fi
done > "$list"
[ -s "$list" ] || { echo "$0: no kernel of kernels.txt matches --kernels '$only'" >&2; exit 2; }

# --- GPGPU-Sim side (only with --gpgpusim) ---
if [ -n "$gpgpusim" ]; then
	bin=build/correlation
	mkdir -p "$bin"
	while read -r name group wl size host args; do
		nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
		if [ ! -x "$bin/$name" ] || [ "$host" -nt "$bin/$name" ]; then
			echo "building $bin/$name from $host" >&2
			"$nvcc" -cudart shared -o "$bin/$name" "$host" < /dev/null
		fi
	done < "$list"
	for m in $machines; do
		for pol in $policies; do
			while read -r name group wl size host args; do
				out=$corr/gpgpusim/$m/$name-$pol.txt
				[ $force = 0 ] && [ -s "$out" ] && continue
				ptx=$(dirname "$wl")/$(sed -n 's/^ptx *= *"\(.*\)";.*/\1/p' "$wl")
				# shellcheck disable=SC2086
				$corr/run-gpgpusim.sh "$gpgpusim" "$(gs_config "$m")" "$pol" "$bin/$name" "$ptx" \
					"$out" $args < /dev/null >&2 || echo "$0: GPGPU-Sim run $name $pol on $m failed" >&2
			done < "$list"
		done
	done
fi

# --- warpsim side: one run per machine, kernel and policy (in parallel, -j) ---
for m in $machines; do
	for pol in $policies; do
		while read -r name group wl size host args; do
			echo "$m $pol $name $wl $size"
		done < "$list"
	done
done > "$tmp/runs"
export warpsim tmp owl28_cfg corr_ws_jq
ws_run() { # machine policy name workload size -> tmp/ws.<m>.<pol>.<name>: insts cycles l1d_miss l2_miss
	local m=$1 pol=$2 name=$3 wl=$4 size=$5 d="$tmp/out.$1.$2.$3" cfg
	case "$m" in gtx480) cfg=configs/gtx480.cfg ;; owl28) cfg=$owl28_cfg ;; esac
	# GPGPU-Sim 4.2 fills the L2 with what cudaMemcpy copies (-gpgpu_perf_sim_memcpy 1 in both
	# configurations): the same here, for the comparison only (the machines' own files leave it off).
	# shellcheck disable=SC2086 (cfg may name a second file: "A -c B")
	if ! "$warpsim" run -c $cfg -w "$wl" --size "$size" -s gpu.core.scheduler.policy="$pol" \
		-s gpu.l2.fill_on_copy=true -o "$d" --quiet > "$d.log" 2>&1; then
		echo "warpsim failed on $name $pol $m: $(tail -1 "$d.log")" >&2
		echo "- - - -" > "$tmp/ws.$m.$pol.$name"
		return 0
	fi
	jq -r "$corr_ws_jq" "$d/stats.json" | cut -d" " -f1-4 > "$tmp/ws.$m.$pol.$name"
}
export -f ws_run
xargs -P "$jobs" -L 1 bash -c 'ws_run "$@"' _ < "$tmp/runs"

# --- the table ---
for m in $machines; do
	while read -r pol name group; do
		f=$corr/gpgpusim/$m/$name-$pol.txt
		if [ -s "$f" ]; then
			gs="$(corr_gs_field "$f" gpu_tot_sim_insn) $(corr_gs_field "$f" gpu_tot_sim_cycle) $(corr_gs_field "$f" L1D_total_cache_miss_rate) $(corr_gs_field "$f" L2_total_cache_miss_rate)"
		else
			gs="- - - -"
		fi
		echo "$m $pol $name $group $(cat "$tmp/ws.$m.$pol.$name") $gs"
	done < <(for pol in $policies; do awk -v p="$pol" '{print p, $1, $2}' "$list"; done)
done | awk -v policies="$policies" -v owl28cfg="${owl28_cfg//-c /+ }" > "$tmp/table" '
'"$corr_stats_awk"'
{
	m = $1; pol = $2; name = $3; grp = $4; wi = $5; wc = $6; wl1 = $7; wl2 = $8; gi = $9; gc = $10; gl1 = $11; gl2 = $12
	# owl28: the GPGPU-Sim core clock is 1300/4 MHz (a warp per cycle on SIMT width 8), warpsim counts
	# 1300 MHz cycles (owl28/gpgpusim.config): compare in warpsim cycles.
	if (m == "owl28" && gc != "-") gc = 4 * gc
	if (m != last) {
		if (last != "") print ""
		printf "== %s (warpsim %s vs GPGPU-Sim 4.2 %s)\n", m, (m == "gtx480" ? "configs/gtx480.cfg" : owl28cfg), \
			(m == "gtx480" ? "SM2_GTX480" : "owl28/gpgpusim.config, cycles x4 to 1300 MHz")
		printf "%-12s %-4s %12s %12s %-4s %9s %9s %7s %13s %13s\n", "kernel", "pol", "insts ws", "insts gs", "eq", "cyc ws", "cyc gs", "ws/gs", "L1D miss ws/gs", "L2 miss ws/gs"
		last = m; machines[++nm] = m
	}
	have = (wc != "-" && gc != "-")
	eq = (wi == "-" || gi == "-") ? "?" : (wi == gi ? "yes" : "NO")
	ratio = have ? sprintf("%.3f", wc / gc) : "-"
	printf "%-12s %-4s %12s %12s %-4s %9s %9s %7s %6s/%-6s %6s/%-6s\n", name, pol, wi, gi, eq, wc, gc, ratio, \
		(wl1 == "-" ? "-" : sprintf("%.3f", wl1)), (gl1 == "-" ? "-" : sprintf("%.3f", gl1)), \
		(wl2 == "-" ? "-" : sprintf("%.3f", wl2)), (gl2 == "-" ? "-" : sprintf("%.3f", gl2))
	if (!have) { missing[m]++; next }
	e = abs(wc - gc) / gc
	add(m SUBSEP grp SUBSEP pol, wc, gc, e); add(m SUBSEP grp SUBSEP "all", wc, gc, e)
	if (eq == "NO") { bad[m SUBSEP grp SUBSEP pol]++; bad[m SUBSEP grp SUBSEP "all"]++ }
}
END {
	for (i = 1; i <= nm; i++) {
		m = machines[i]
		printf "\n-- %s: cycles, |ws - gs| / gs and Pearson r of (ws, gs)\n", m
		np = split(policies, pl, " ")
		for (gi = 1; gi <= 2; gi++) {
			g = gi == 1 ? "ref" : "own"
			for (j = 1; j <= np; j++) stats(m SUBSEP g SUBSEP pl[j], m " " g " " pl[j])
			if (np > 1) stats(m SUBSEP g SUBSEP "all", m " " g " all policies")
		}
		if (missing[m]) printf "%s: %d runs without both figures (left out)\n", m, missing[m]
	}
}'
# GPGPU-Sim takes each kernel's register count from ptxas through a wrapper that can lose it under
# load (scripts/correlation/doc-notes.md: owl28 harness), which changes CTAs per core: every run of a
# kernel must report the same "CTA/core" (raw files from before that line was kept have none).
for m in $machines; do
	while read -r name _; do
		ctas=$( (cat $corr/gpgpusim/$m/$name-*.txt 2>/dev/null || true) | sed -n 's/^GPGPU-Sim uArch: CTA\/core = \([0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
		[ "$(echo $ctas | wc -w)" -gt 1 ] && echo "WARNING: $m $name: GPGPU-Sim runs disagree on CTAs per core ($ctas): a register count was lost; rerun them" >> "$tmp/table"
	done < "$list"
done
cat "$tmp/table"
if [ -n "$doc" ]; then
	{
		echo "# Correlation with GPGPU-Sim 4.2"
		echo
		echo "Printed by \`${cmdline% --doc *}\` (warpsim $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"
		echo "$(date -u +%Y-%m-%d)); the GPGPU-Sim side is the raw statistics committed under"
		echo "scripts/correlation/gpgpusim/ (see scripts/correlation/README.md). ws: warpsim, gs: GPGPU-Sim;"
		echo "eq: thread instructions equal; ws/gs: cycle ratio; MAE: mean of |ws - gs| / gs over the runs;"
		echo "L1D miss: misses over accesses as GPGPU-Sim counts them (a miss to a line already being"
		echo "fetched is its pending hit, not a miss: ours less sm.*.l1d.pending_hits)."
		echo
		echo '```'
		cat "$tmp/table"
		echo '```'
		[ -f $corr/doc-notes.md ] && { echo; cat $corr/doc-notes.md; }
		# The public-program section (scripts/correlate-public.sh --doc) stays at the end of the page.
		[ -f $corr/public/doc.md ] && { echo; cat $corr/public/doc.md; }
	} > "$doc"
	echo "wrote $doc" >&2
fi
