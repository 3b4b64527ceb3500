#!/bin/bash
# SPDX-License-Identifier: MIT
# Correlation on public programs run unmodified on both simulators: each program of
# scripts/correlation/public/programs.tsv (built outside the project with nvcc -cudart shared) runs
# under `warpsim cuda -c configs/gtx480.cfg` and is compared with GPGPU-Sim 4.2's raw statistics
# committed under scripts/correlation/public/gpgpusim/gtx480/<program>-<policy>.txt: thread
# instructions (must be equal), cycles, L1D and L2 miss rates, DRAM reads and writes per program
# (thread instructions and cycles per launch too), then MAE and Pearson r of cycles per policy.
#
# usage: scripts/correlate-public.sh [--policies "lrr gto"] [--programs "NAME ..."] [--launches]
#                                    [--warpsim PATH] [-j N] [--doc] [--gpgpusim DIR [--force]]
#   --launches   also print one line per launch (thread instructions and cycles on both)
#   --doc        write the table into scripts/correlation/public/doc.md and docs/correlation.md's
#                public-program section (the page's last; scripts/correlate.sh --doc keeps it)
#   --gpgpusim DIR  run GPGPU-Sim (scripts/correlation/README.md says how to build it) for every
#                run without a raw file (all with --force), one at a time, before the table
# Environment: CORR_PUBLIC_DIR (default ${XDG_CACHE_HOME:-~/.cache}/warpsim-public) holds
#   <program>/app (the binary) and <program>/app.ptx (the PTX of its kernels, for GPGPU-Sim);
#   programs whose inputs column says apps:ID get their input files from `scripts/apps.sh prepare
#   ID` (WARPSIM_APPS_DIR, as that script). A program with no binary there shows `-` on the warpsim
#   side and is left out of the statistics.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corr=scripts/correlation
pub=$corr/public
# shellcheck source=scripts/correlation/lib.sh
. $corr/lib.sh
policies="lrr gto" only="" launches=0 warpsim=$root/build/warpsim jobs=1 doc=0 gpgpusim="" force=0
pdir=${CORR_PUBLIC_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warpsim-public}
cmdline="scripts/correlate-public.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--policies) policies=$2; shift 2 ;;
	--programs) only=$2; shift 2 ;;
	--launches) launches=1; shift ;;
	--warpsim) warpsim=$(realpath "$2"); shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	--doc) doc=1; shift ;;
	--gpgpusim) gpgpusim=$(realpath "$2"); shift 2 ;;
	--force) force=1; shift ;;
	-h|--help) sed -n '3,23p' "$0"; exit 0 ;;
	*) echo "$0: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
[ -x "$warpsim" ] || { echo "$0: $warpsim not built (scripts/build.sh release)" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The program list: name suite source size inputs args (tab-separated; args may hold spaces).
awk -F'\t' -v only=" $only " '!/^#/ && NF >= 6 && (only == "  " || index(only, " " $1 " ")) {
	if (NF != 6) { printf "%s:%d: %d fields, want 6\n", FILENAME, FNR, NF > "/dev/stderr"; exit 2 }
	print }' $pub/programs.tsv > "$tmp/list"
[ -s "$tmp/list" ] || { echo "$0: no program of $pub/programs.tsv matches --programs '$only'" >&2; exit 2; }

# inputs NAME INPUTS -> the folder holding the program's input files ("" for none)
inputs() {
	case "$2" in
	-) echo "" ;;
	apps:*) scripts/apps.sh prepare "${2#apps:}" ;;
	*) echo "$0: $1: inputs '$2' is neither - nor apps:ID" >&2; return 2 ;;
	esac
}
while IFS=$'\t' read -r name _ _ _ in _; do
	dir=$(inputs "$name" "$in") || exit 2
	echo "$dir" > "$tmp/in.$name"
done < "$tmp/list"

# --- GPGPU-Sim side (only with --gpgpusim) ---
if [ -n "$gpgpusim" ]; then
	for pol in $policies; do
		while IFS=$'\t' read -r name _ _ _ _ args; do
			out=$pub/gpgpusim/gtx480/$name-$pol.txt
			[ $force = 0 ] && [ -s "$out" ] && continue
			[ "$args" = - ] && args=""
			# shellcheck disable=SC2086 # args are the program's words
			GPGPUSIM_INPUTS=$(cat "$tmp/in.$name") $corr/run-gpgpusim.sh "$gpgpusim" $corr/gpgpusim/gtx480-config \
				"$pol" "$pdir/$name/app" "$pdir/$name/app.ptx" "$out" $args < /dev/null >&2 ||
				echo "$0: GPGPU-Sim run $name $pol failed" >&2
		done < "$tmp/list"
	done
fi

# --- warpsim side: one run per program and policy, in a copy of its input folder ---
for pol in $policies; do
	while IFS=$'\t' read -r name _ _ _ _ args; do
		in=$(cat "$tmp/in.$name")
		printf '%s\t%s\t%s\t%s\n' "$pol" "$name" "${in:--}" "$args"
	done < "$tmp/list"
done > "$tmp/runs"
export warpsim tmp pdir corr_ws_jq root
ws_run() { # policy name inputs args -> tmp/ws.<pol>.<name> (totals), tmp/wl.<pol>.<name> (launches)
	local pol=$1 name=$2 in=$3 args=$4 d="$tmp/out.$1.$2" w="$tmp/run.$1.$2"
	echo "- - - - - -" > "$tmp/ws.$pol.$name"
	: > "$tmp/wl.$pol.$name"
	[ -x "$pdir/$name/app" ] || { echo "no binary $pdir/$name/app: $name left out" >&2; return 0; }
	mkdir -p "$w"
	[ "$in" = - ] || cp -r "$in"/. "$w/"
	[ "$args" = - ] && args=""
	# GPGPU-Sim 4.2 fills the L2 with what cudaMemcpy copies (-gpgpu_perf_sim_memcpy 1): the same
	# here, as scripts/correlate.sh does.
	# shellcheck disable=SC2086 # args are the program's words
	if ! (cd "$w" && "$warpsim" cuda -c "$root/configs/gtx480.cfg" -s gpu.core.scheduler.policy="$pol" \
		-s gpu.l2.fill_on_copy=true --no-progress -o "$d" -- "$pdir/$name/app" $args > "$d.log" 2>&1); then
		echo "warpsim failed on $name $pol: $(tail -1 "$d.log")" >&2
		return 0
	fi
	jq -r "$corr_ws_jq" "$d/stats.json" > "$tmp/ws.$pol.$name"
	jq -r '.kernels[] | "\(.ptx_name) \(.stats["gpu.thread_insts"]) \(.stats["gpu.cycles"])"' "$d/stats.json" > "$tmp/wl.$pol.$name"
	rm -rf "$w"
}
ws_line() { local p n i a; IFS=$'\t' read -r p n i a < <(sed -n "${1}p" "$tmp/runs"); ws_run "$p" "$n" "$i" "$a"; }
export -f ws_run ws_line
seq "$(wc -l < "$tmp/runs")" | xargs -P "$jobs" -L 1 bash -c 'ws_line "$1"' _

# --- the table ---
gs_dram() { # FILE n_rd|n_write -> GPGPU-Sim's DRAM requests: the channels' last "n_cmd=... n_rd=N
	# n_write=N ..." lines summed (running totals, one line a channel after each launch)
	awk -v k="$2" '/^n_cmd=/ { if (!in_block) { s = 0; in_block = 1 } for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) s += kv[2] } seen = 1; next }
		{ in_block = 0 } END { if (!seen) print "-"; else print s }' "$1"
}
# One line a program and policy: pol name launches(ws) ws[6] launches(gs) gs[6] matched-launches;
# with --launches, "L pol name index kernel wi wc gi gc" lines follow it.
while IFS=$'\t' read -r name _; do echo "$name"; done < "$tmp/list" > "$tmp/names"
for pol in $policies; do
	while read -r name; do
		f=$pub/gpgpusim/gtx480/$name-$pol.txt gs="- - - - - -" gl=/dev/null
		if [ -s "$f" ]; then
			gs="$(corr_gs_field "$f" gpu_tot_sim_insn) $(corr_gs_field "$f" gpu_tot_sim_cycle) $(corr_gs_field "$f" L1D_total_cache_miss_rate) $(corr_gs_field "$f" L2_total_cache_miss_rate) $(gs_dram "$f" n_rd) $(gs_dram "$f" n_write)"
			# per launch: kernel_name, gpu_sim_cycle, gpu_sim_insn in this order
			awk '$1 == "kernel_name" { k = $3 } $1 == "gpu_sim_cycle" { c = $3 } $1 == "gpu_sim_insn" { print k, $3, c }' "$f" > "$tmp/gl"
			gl=$tmp/gl
		fi
		# launches whose thread instructions agree, in order
		paste -d' ' "$tmp/wl.$pol.$name" "$gl" > "$tmp/pair"
		nws=$(wc -l < "$tmp/wl.$pol.$name") ngs=$(wc -l < "$gl")
		eqn=$(awk '$2 == $5 && $1 == $4' "$tmp/pair" | wc -l)
		echo "P $pol $name $nws $ngs $eqn $(cat "$tmp/ws.$pol.$name") $gs"
		if [ $launches = 1 ]; then
			awk -v p="$pol" -v n="$name" '{ print "L", p, n, NR - 1, ($1 != "" ? $1 : $4), ($2 == "" ? "-" : $2), ($3 == "" ? "-" : $3), ($5 == "" ? "-" : $5), ($6 == "" ? "-" : $6) }' "$tmp/pair"
		fi
	done < "$tmp/names"
done | awk -v policies="$policies" "$corr_stats_awk"'
function r3(x) { return x == "-" ? "-" : sprintf("%.3f", x) }
BEGIN {
	printf "%-14s %-4s %7s %10s %10s %-3s %8s %8s %6s %13s %13s %15s %15s\n", "program", "pol", "launch", \
		"insts ws", "insts gs", "eq", "cyc ws", "cyc gs", "ws/gs", "L1D miss ws/gs", "L2 miss ws/gs", "DRAM rd ws/gs", "DRAM wr ws/gs"
}
$1 == "L" {
	eq = ($6 == "-" || $8 == "-") ? "?" : ($6 == $8 ? "yes" : "NO")
	printf "  %-12s %-4s %7s %10s %10s %-3s %8s %8s %6s  %s\n", $3, $2, "#" $4, $6, $8, eq, $7, $9, \
		($7 != "-" && $9 != "-" && $9 > 0 ? sprintf("%.3f", $7 / $9) : "-"), substr($5, 1, 40)
	next
}
{
	pol = $2; name = $3; nws = $4; ngs = $5; eqn = $6
	wi = $7; wc = $8; wl1 = $9; wl2 = $10; wdr = $11; wdw = $12
	gi = $13; gc = $14; gl1 = $15; gl2 = $16; gdr = $17; gdw = $18
	have = (wc != "-" && gc != "-")
	eq = (wi == "-" || gi == "-") ? "?" : (wi == gi ? "yes" : "NO")
	printf "%-14s %-4s %7s %10s %10s %-3s %8s %8s %6s %6s/%-6s %6s/%-6s %7s/%-7s %7s/%-7s\n", name, pol, \
		(ngs > 0 ? eqn "/" ngs : nws), wi, gi, eq, wc, gc, (have ? sprintf("%.3f", wc / gc) : "-"), \
		r3(wl1), r3(gl1), r3(wl2), r3(gl2), wdr, gdr, wdw, gdw
	if (!have) { missing++; next }
	e = abs(wc - gc) / gc
	add(pol, wc, gc, e); add("all", wc, gc, e)
	if (eq == "NO") { bad[pol]++; bad["all"]++ }
	if (e > 0.25) { far[pol] = far[pol] " " name "(" sprintf("%.2f", wc / gc) ")" }
}
END {
	printf "\n-- gtx480 public programs: cycles, |ws - gs| / gs and Pearson r of (ws, gs)\n"
	np = split(policies, pl, " ")
	for (j = 1; j <= np; j++) stats(pl[j], "gtx480 public " pl[j])
	if (np > 1) stats("all", "gtx480 public all policies")
	for (j = 1; j <= np; j++) if (far[pl[j]] != "") printf "off by more than 25%% (%s):%s\n", pl[j], far[pl[j]]
	if (missing) printf "%d runs without both figures (left out)\n", missing
}' > "$tmp/table"
cat "$tmp/table"

if [ $doc = 1 ]; then
	{
		echo "<!-- public-programs: written by scripts/correlate-public.sh --doc; do not edit by hand -->"
		echo "## Public programs, unmodified, on both simulators (gtx480)"
		echo
		echo "Printed by \`${cmdline% --doc*}\` (warpsim $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"
		echo "$(date -u +%Y-%m-%d)) from GPGPU-Sim's raw statistics under scripts/correlation/public/gpgpusim/"
		echo "(programs and sizes: scripts/correlation/public/programs.tsv; how they were built and run:"
		echo "scripts/correlation/public/README.md). launch: launches whose thread instructions agree /"
		echo "GPGPU-Sim's launches; DRAM rd/wr: warpsim's gpu.dram.reads/writes against GPGPU-Sim's"
		echo "n_rd/n_write summed over its channels; other columns as in the tables above."
		echo
		echo '```'
		cat "$tmp/table"
		echo '```'
		[ -f $pub/doc-notes.md ] && { echo; cat $pub/doc-notes.md; }
	} > $pub/doc.md
	# docs/correlation.md: its public section (from the marker to the end) replaced by doc.md
	page=docs/correlation.md
	awk '/^<!-- public-programs:/ { exit } { print }' $page > "$tmp/page"
	# no blank line doubled where the section starts
	sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp/page"
	{ cat "$tmp/page"; echo; cat $pub/doc.md; } > $page
	echo "wrote $pub/doc.md and its section of $page" >&2
fi
