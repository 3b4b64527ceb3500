#!/bin/bash
# SPDX-License-Identifier: MIT
# OWL's Table 2 (004_5ddceeb9570f9a99.txt, Sec 3) on owl-28 with the collection's programs: for
# each OWL application that is built, PMEM (IPC with every memory request satisfied in L1,
# gpu.memory.model=perfect-l1, over the baseline) and CINV (core inactive cycles over all core
# cycles, gpu.cinv of the baseline), both under LRR as OWL's baseline, beside the paper's
# figures; then, over the applications that ran, the Spearman rank correlation of PMEM with the
# paper's and how many get the paper's Type (Type-1: PMEM >= 1.4).
#
# usage: scripts/apps-owl-table2.sh [--size small|paper] [--cap-thread-insts N] [--perfect-l2]
#                                   [--rerun] [--only "ID..."] [--no-run] [--set KEY=VALUE]...
#                                   [--cap-for ID=N]...
#        scripts/apps-owl-table2.sh --bounds-of RUNDIR   (one run folder's "what bounds it" line)
#   Each run stops at N thread instructions (default 1000000000, OWL's budget; 0 = none) through
#   sim.max_thread_insts, base and perfect-L1 alike, and the IPCs are those of that prefix. A run
#   stopped there ends cleanly (stats.json "budget": capped) and is marked "capped".
#   --cap-for ID=N (repeatable): application ID's runs stop at N instead (e.g. OWL's 1000000000
#   for the programs whose Type or PMEM a short prefix misjudges); its row is marked with that
#   budget, and its runs are kept apart, under <size>-t<N>.
#   --perfect-l2: the paper's Type-1 applications also run with gpu.memory.model=perfect-l2, and a
#   second table gives, per Type-1 application, the perfect-L2 speedup, MemoryBlockCycles and
#   NoWarpCycles over core cycles, DRAM utilisation and where a load's L1 miss spends its core
#   cycles (SM miss queue, NoC both ways, L2, MC queue, DRAM; sm.N.mem.lat.*, mean over cores).
#   Runs are kept in $WARPSIM_APPS_DIR/table2/<size>-t<cap>/<id>/{base,pmem,pl2}/ and reused;
#   --no-run prints the tables from them without starting any run. --set KEY=VALUE (repeatable)
#   adds a setting to every run (e.g. gpu.l2.write_ack=true, the acks owl-28 leaves out); such
#   runs are kept apart, in <size>-t<cap>-KEY=VALUE[-KEY=VALUE...]. A third table gives, for every
#   application that ran, what bounds it (L2 hits, DRAM, the MCs' reply ports, the SIMT pipeline,
#   L1 MSHRs); --bounds-of prints those five figures of one run folder, and the mesh's ends. With --perfect-l2 a fourth
#   gives what bounds each Type-1 application under a perfect L2 (both ends of the mesh, MSHRs,
#   pipeline) and the ceiling its base run's busiest port or pipeline puts on any perfect L2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
size=small cap=1000000000 rerun=0 only="" norun=0 pl2=0 sets=() bounds_of="" capfor=()
cmdline="scripts/apps-owl-table2.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--size) size=$2; shift 2 ;;
	--cap-thread-insts) cap=$2; shift 2 ;;
	--perfect-l2) pl2=1; shift ;;
	--rerun) rerun=1; shift ;;
	--only) only=$2; shift 2 ;;
	--no-run) norun=1; shift ;;
	--bounds-of) bounds_of=${2:?--bounds-of takes a run folder}; shift 2 ;;
	--cap-for) [[ "${2:-}" =~ ^[A-Za-z0-9_.+-]+/[A-Za-z0-9_.+-]+=[0-9]+$ ]] || { echo "$0: --cap-for takes ID=N (suite/program=count)" >&2; exit 2; }
		capfor+=("$2"); shift 2 ;;
	--set) [[ "${2:-}" =~ ^[a-z0-9_.]+=[^/[:space:]]+$ ]] || { echo "$0: --set takes KEY=VALUE (no '/' or spaces)" >&2; exit 2; }
		sets+=("$2"); shift 2 ;;
	-h|--help) sed -n '3,31p' "$0"; exit 0 ;;
	*) echo "$0: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
[[ "$cap" =~ ^[0-9]+$ ]] || { echo "$0: --cap-thread-insts takes a count" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }
adir=${WARPSIM_APPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warpsim-apps}
manifest=${APPS_MANIFEST:-workloads/apps/apps.tsv}
setsfx="" setov=()
for kv in "${sets[@]}"; do setsfx+="-$kv"; setov+=(-s "$kv"); done

# OWL Table 2: abbreviation, PMEM, CINV (%), as printed.
paper() {
	cat <<'EOF'
SAD 6.39 91
PVC 4.99 93
SSC 4.60 85
BFS 2.77 81
MUM 2.66 72
CFD 2.46 66
KMN 2.43 65
SCP 2.37 58
FWT 2.29 58
IIX 2.29 65
SPMV 2.19 65
JPEG 2.12 54
BFSR 2.09 64
SC 1.94 52
FFT 1.56 37
SD2 1.53 36
WP 1.50 54
PVR 1.41 46
BP 1.40 33
CON 1.23 20
AES 1.23 51
SD1 1.17 20
BLK 1.16 17
HS 1.15 21
SLA 1.13 17
DN 1.12 22
LPS 1.10 12
NN 1.10 13
PFN 1.08 10
LYTE 1.08 15
LUD 1.05 64
MM 1.04 4
STO 1.02 3
CP 1.01 4
NQU 1.01 95
CUTP 1.01 2
HW 1.01 9
TPAF 1.01 6
EOF
}

# "cycles thread_insts cinv cinv_pipe state" of a run folder (state: done / capped), or nothing.
# cinv_pipe: core cycles whose SIMT pipeline holds no warp instruction: a warp instruction
# occupies it warp_size / simt_width cycles (4 on owl-28), so gpu.cinv (cycles without an issue)
# is at least 0.75 there even on a core that never waits; OWL's CINV counts cycles in which "no
# threads are being executed" (Sec 3), which is this one.
measure() {
	local d=$1 state
	[ -s "$d/stats.json" ] || return 0
	state=$(jq -r 'if .budget.capped then "capped" else "done" end' "$d/stats.json")
	local lanes
	lanes=$(awk '$1 == "warp_size" { w = $3 + 0 } $1 == "simt_width" { s = $3 + 0 } END { if (w && s) print w / s; else print 1 }' "$d/config.cfg")
	jq -r --arg s "$state" --argjson k "$lanes" '.total | "\(."gpu.cycles") \(."gpu.thread_insts") \(."gpu.cinv") \(
		[0, 1 - $k * ."gpu.issue_core_cycles" / ."gpu.core_cycles"] | max) \($s)"' "$d/stats.json"
}

# "memblock% nowarp% dram% lat_total smq noc l2 mcq dram mshr_full%" of a run folder: OWL's
# MemoryBlockCycles and NoWarpCycles over core cycles, DRAM utilisation, the mean over cores of
# a load miss's round trip and its parts (core cycles; cores that had a miss), the cores' L1 MSHR-full cycles over
# core cycles.
bneck() {
	jq -r '.total as $t | def avg(k): [range(0; 4096) as $i | select(($t["sm.\($i).mem.lat.total"] // 0) > 0) | $t["sm.\($i).mem.lat." + k]] | add / length;
		def sum(k): [$t | to_entries[] | select(.key | test("^sm\\.[0-9]+\\." + k + "$")) | .value] | add;
		[100 * $t["gpu.memory_block_cycles"] / $t["gpu.core_cycles"], 100 * $t["gpu.no_warp_cycles"] / $t["gpu.core_cycles"],
		 100 * $t["gpu.dram.utilisation"], avg("total"), avg("sm_queue"), avg("noc"), avg("l2"), avg("mc_queue"), avg("dram"),
		 100 * sum("mem.mshr_stall_cycles") / sum("cycles")] | map(. * 10 | round / 10) | join(" ")' "$1/stats.json"
}

# "slice% mcref% coreinj% ejmean% ejmax% mcej%" of a run folder, the NoC at both ends: the L2 slices'
# cycles with the head request held (l2.N.stall_cycles: MSHRs, MC queue or reply queue full)
# over L2 cycles x slices; the cycles in which the NoC refused a slice's reply (l2.N.noc_refused,
# one try a NoC cycle) over NoC cycles x slices; the core cycles in which the NoC refused the
# head of a core's miss queue (sm.N.mem.inject_retry_cycles) over core cycles; and each core's
# ejection port, the reply flits it took (its reads and atomics x the reply's flits, plus an
# acked write's or write-back's flit) over NoC cycles, mean and largest over the cores; and the MCs' ejection
# ports on the request network, the request flits (every flit ejected less the replies) over NoC
# cycles x MCs.
nocends() {
	local d=$1 noc core l2c ch fb hdr line ack
	noc=$(cfgval "$d" gpu.noc.clock_mhz) core=$(cfgval "$d" gpu.core.clock_mhz) l2c=$(cfgval "$d" gpu.l2.clock_mhz)
	ch=$(cfgval "$d" gpu.dram.channels) fb=$(cfgval "$d" gpu.noc.channel_bytes)
	hdr=$(cfgval "$d" gpu.l2.reply_header_bytes) line=$(cfgval "$d" gpu.memory.l1d.line_bytes)
	ack=0; [ "$(cfgval "$d" gpu.l2.write_ack)" = true ] && ack=1
	jq -r --argjson noc "$noc" --argjson core "$core" --argjson l2c "$l2c" --argjson ch "$ch" --argjson ack "$ack" \
	      --argjson rf "$(( (hdr + line + fb - 1) / fb ))" '.total as $t
		| def sum(re): [$t | to_entries[] | select(.key | test(re)) | .value] | add // 0;
		($t["gpu.cycles"] * $noc / $core) as $nc
		| [range(0; 4096) as $i | select($t["sm.\($i).cycles"] != null)
		   | ($rf * (($t["sm.\($i).mem.reads_sent"] // 0) + ($t["sm.\($i).mem.atomics_sent"] // 0))
		      + $ack * (($t["sm.\($i).mem.writes_sent"] // 0) + ($t["sm.\($i).mem.writebacks_sent"] // 0))) / $nc] as $ej
		| [100 * sum("^l2\\.[0-9]+\\.stall_cycles$") / ($t["gpu.cycles"] * $l2c / $core * $ch),
		   100 * sum("^l2\\.[0-9]+\\.noc_refused$") / ($nc * $ch),
		   100 * sum("^sm\\.[0-9]+\\.mem\\.inject_retry_cycles$") / sum("^sm\\.[0-9]+\\.cycles$"),
		   100 * ($ej | add / length), 100 * ($ej | max),
		   100 * ($t["noc.flits_ejected"] / $nc - ($ej | add)) / $ch]
		| map(round) | join(" ")' "$d/stats.json"
}

# The value of a dotted setting (gpu.noc.clock_mhz) in a run folder's resolved config.cfg.
cfgval() {
	awk -v want="$2" '/^#/ { next } / = \{/ { p[++n] = $1; next } /^ *\};/ { n--; next }
		/ = / { k = ""; for (i = 1; i <= n; i++) k = k p[i] "."; v = $3; sub(/;.*/, "", v)
			if (k $1 == want) print v }' "$1/config.cfg"
}

# "l2hit% dram% port% pipe% mshr%" of a run folder, what bounds it: L2 read hits over L2 reads;
# DRAM data-bus utilisation; the MCs' NoC reply ports, reply flits over NoC cycles x channels (a
# read the cores sent is answered by gpu.l2.reply_header_bytes + an L1 line, rounded up to flits
# (an atomic counted as a read: at most its size); an acked write 1 flit; 2.x's port is the same, one flit a NoC cycle); the
# SIMT pipeline, warp_size / simt_width core cycles per issued warp instruction over core cycles;
# cores' L1 MSHR-full cycles over core cycles.
bounds() {
	local d=$1 k noc core ch fb hdr line
	k=$(( $(cfgval "$d" gpu.core.warp_size) / $(cfgval "$d" gpu.core.simt_width) ))
	noc=$(cfgval "$d" gpu.noc.clock_mhz) core=$(cfgval "$d" gpu.core.clock_mhz)
	ch=$(cfgval "$d" gpu.dram.channels) fb=$(cfgval "$d" gpu.noc.channel_bytes)
	hdr=$(cfgval "$d" gpu.l2.reply_header_bytes) line=$(cfgval "$d" gpu.memory.l1d.line_bytes)
	jq -r --argjson k "$k" --argjson noc "$noc" --argjson core "$core" --argjson ch "$ch" \
	      --argjson rf "$(( (hdr + line + fb - 1) / fb ))" '.total as $t
		| def sum(re): [$t | to_entries[] | select(.key | test(re)) | .value] | add // 0;
		(sum("^l2\\.[0-9]+\\.read_hits$")) as $rh | (sum("^l2\\.[0-9]+\\.read_misses$")) as $rm
		| ($rf * sum("^sm\\.[0-9]+\\.mem\\.(reads|atomics)_sent$") + sum("^sm\\.[0-9]+\\.mem\\.(writes|writebacks)_sent$")
		   - sum("^l2\\.[0-9]+\\.unacked_writes$")) as $flits
		| [100 * $rh / ([$rh + $rm, 1] | max), 100 * ($t["gpu.dram.utilisation"] // 0),
		   100 * $flits / ($t["gpu.cycles"] * $noc / $core * $ch), 100 * $k * $t["gpu.issue_core_cycles"] / $t["gpu.core_cycles"],
		   100 * sum("^sm\\.[0-9]+\\.mem\\.mshr_stall_cycles$") / sum("^sm\\.[0-9]+\\.cycles$")]
		| map(round) | join(" ")' "$d/stats.json"
}

if [ -n "$bounds_of" ]; then
	[ -s "$bounds_of/stats.json" ] && [ -s "$bounds_of/config.cfg" ] || { echo "$0: --bounds-of: no stats.json and config.cfg in $bounds_of" >&2; exit 2; }
	echo "l2_read_hits% dram_busy% reply_port_busy% simt_pipeline_busy% l1_mshrs_full%"
	bounds "$bounds_of"
	echo "l2_slice_held% slice_reply_refused% core_injection_refused% core_ejection_mean% core_ejection_max% mc_request_ejection%"
	nocends "$bounds_of"
	exit 0
fi

brows=$(mktemp)
rows=$(mktemp)
xrows=$(mktemp)
prows=$(mktemp)
trap 'rm -f "$rows" "$brows" "$xrows" "$prows"' EXIT
while read -r abbr ppmem pcinv; do
	id=$(awk -F'\t' -v a="OWL:$abbr" '!/^#/ { n = split($2, p, " "); for (i = 1; i <= n; i++) if (p[i] == a) print $1 }' "$manifest")
	[ -n "$id" ] || { echo "$0: OWL:$abbr is not in $manifest" >&2; exit 2; }
	note=""
	if [ -n "$only" ] && [[ " $only " != *" $id "* ]]; then continue; fi
	acap=$cap
	for kv in "${capfor[@]}"; do [ "${kv%=*}" = "$id" ] && acap=${kv#*=}; done
	out=$adir/table2/$size-t$acap$setsfx
	capov=()
	[ "$acap" = 0 ] || capov=(-s "sim.max_thread_insts=$acap")
	[ "$acap" = "$cap" ] || note="budget $(awk -v c="$acap" 'BEGIN { printf "%g", c / 1e6 }') M"
	if scripts/apps.sh list | awk -v id="$id" '$1 == id && $2 == "built" { f = 1 } END { exit !f }'; then
		vs=(base pmem)
		[ $pl2 = 1 ] && awk -v p="$ppmem" 'BEGIN { exit !(p >= 1.4) }' && vs+=(pl2)
		for v in "${vs[@]}"; do
			d=$out/$id/$v
			if [ $norun = 0 ] && { [ $rerun = 1 ] || [ -z "$(measure "$d")" ]; }; then
				ov=(-s gpu.core.scheduler.policy=lrr "${setov[@]}")
				[ $v = pmem ] && ov+=(-s gpu.memory.model=perfect-l1)
				[ $v = pl2 ] && ov+=(-s gpu.memory.model=perfect-l2)
				reuse=0; [ $v = base ] || reuse=1 # the base run made the inputs
				APPS_REUSE_INPUTS=$reuse scripts/apps.sh run "$id" --size "$size" -c configs/owl-28.cfg "${ov[@]}" "${capov[@]}" -o "$d" > /dev/null || true
			fi
		done
		read -r cb tb cinv cpipe sb < <(measure "$out/$id/base"; echo "- - - - -") || true
		read -r cp tp _ _ sp < <(measure "$out/$id/pmem"; echo "- - - - -") || true
		if [ $pl2 = 1 ] && [ "$cb" != - ] && [ -n "$(measure "$out/$id/pl2")" ]; then
			read -r cl tl _ _ _ < <(measure "$out/$id/pl2")
			printf '%s\t%s\t%s\t%s\n' "$abbr" "$id" "$(awk -v cb="$cb" -v tb="$tb" -v cl="$cl" -v tl="$tl" 'BEGIN { printf "%.2f", (tl / cl) / (tb / cb) }')" "$(bneck "$out/$id/base")" >> "$brows"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$abbr" "$id" "$(awk -v cb="$cb" -v tb="$tb" -v cl="$cl" -v tl="$tl" 'BEGIN { printf "%.2f", (tl / cl) / (tb / cb) }')" \
				"$(bounds "$out/$id/base")" "$(bounds "$out/$id/pl2")" "$(nocends "$out/$id/pl2")" "$acap" "$(nocends "$out/$id/base")" >> "$prows"
		fi
		if [ "$cb" = - ] || [ "$cp" = - ]; then
			d=$out/$id/base; [ "$cb" = - ] || d=$out/$id/pmem
			if [ -s "$d/run.log" ]; then
				note="did not run${note:+ ($note)}: $(grep -v '^\s*$' "$d/run.log" | grep -m1 -i 'fault\|error\|out of bounds\|signal\|limit' | cut -c1-110)"
			else
				note="not run${note:+ ($note)}"
			fi
			printf '%s\t%s\t%s\t%s\t-\t-\t-\t%s\t-\n' "$abbr" "$id" "$ppmem" "$pcinv" "$note" >> "$rows"
		else
			[ "$sb" = capped ] || [ "$sp" = capped ] && note="capped${note:+, $note}"
			xl="-"; [ -s "$out/$id/pl2/stats.json" ] && xl=$(bounds "$out/$id/pl2")
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$abbr" "$id" "$ppmem" "$(awk -v cb="$cb" -v tb="$tb" -v cp="$cp" -v tp="$tp" 'BEGIN { printf "%.2f", (tp / cp) / (tb / cb) }')" "$(bounds "$out/$id/base")" "$xl" "$(bneck "$out/$id/base")" >> "$xrows"
			awk -v a="$abbr" -v id="$id" -v pp="$ppmem" -v pc="$pcinv" -v cb="$cb" -v tb="$tb" -v cp="$cp" -v tp="$tp" \
			    -v ci="$cinv" -v cpp="$cpipe" -v note="$note" 'BEGIN { printf "%s\t%s\t%s\t%s\t%.2f\t%.0f\t%.1f\t%s\t%.0f\n", a, id, pp, pc, (tp / cp) / (tb / cb), 100 * ci, tb / 1e6, note, 100 * cpp }' >> "$rows"
		fi
	else
		reason=$(awk -F'\t' -v id="$id" '$1 == id { print $9 }' "$manifest")
		printf '%s\t%s\t%s\t%s\t-\t-\t-\t%s\t-\n' "$abbr" "$id" "$ppmem" "$pcinv" "missing: ${reason%%:*}" >> "$rows"
	fi
done < <(paper)

echo "OWL Table 2 on owl-28 ($cmdline; size $size, each run stopped at $cap thread instructions${capfor[*]:+ except ${capfor[*]}}; LRR):"
echo
echo "CINV ours: cycles with an empty SIMT pipeline (OWL's sense); gpu.cinv (cycles without an issue) in brackets."
echo
echo "| app | program | PMEM paper | PMEM ours | CINV paper | CINV ours (gpu.cinv) | Type paper | Type ours | M thread insts (base) | note |"
echo "|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '{ tp = $3 >= 1.4 ? 1 : 2; to = $5 == "-" ? "-" : ($5 >= 1.4 ? 1 : 2)
	printf "| %s | %s | %.2fx | %s | %s%% | %s | %d | %s | %s | %s |\n", $1, $2, $3, $5 == "-" ? "-" : $5 "x", $4,
		$6 == "-" ? "-" : $9 "% (" $6 "%)", tp, to, $7, $8 }' "$rows"
# Spearman's rho over the apps with a measured PMEM (average ranks for ties), and Type matches.
awk -F'\t' '$5 != "-" { n++; a[n] = $3; b[n] = $5; c[n] = $4; d[n] = $9 }
	function ranks(x, r,   i, j, less, eq) { for (i = 1; i <= n; i++) { less = 0; eq = 0
			for (j = 1; j <= n; j++) { if (x[j] < x[i]) less++; else if (x[j] == x[i]) eq++ }
			r[i] = less + (eq + 1) / 2 } }
	END {
		if (n < 2) { print "\nfewer than 2 applications ran"; exit }
		for (i = 1; i <= n; i++) m += ((a[i] >= 1.4) == (b[i] >= 1.4))
		printf "\n%d applications ran: Spearman rank correlation with the paper: PMEM %.2f, CINV %.2f; Type as the paper: %d of %d (%.0f%%)\n",
			n, rho(a, b), rho(c, d), m, n, 100 * m / n }
	function rho(x, y,   rx, ry, i, mx, my, sxy, sxx, syy) {
		ranks(x, rx); ranks(y, ry)
		for (i = 1; i <= n; i++) { mx += rx[i] / n; my += ry[i] / n }
		for (i = 1; i <= n; i++) { sxy += (rx[i] - mx) * (ry[i] - my); sxx += (rx[i] - mx) ^ 2; syy += (ry[i] - my) ^ 2 }
		return sxy / sqrt(sxx * syy) }' "$rows"
if [ -s "$xrows" ]; then
	echo
	echo "What bounds each application on owl-28 (base run, LRR; a -> b: base -> perfect L2, for the paper's Type-1): L2 read hits over L2 reads; DRAM data-bus utilisation; the MCs' NoC reply ports busy (reply flits over NoC cycles x MCs: a read's reply is an L1 line plus gpu.l2.reply_header_bytes in flits, an atomic's counted as a read's, an acked write 1 flit); the SIMT pipeline busy (warp_size / simt_width core cycles per warp instruction issued, over core cycles); L1 MSHRs full (share of core cycles)."
	echo
	echo "| app | program | PMEM paper | PMEM ours | Type paper / ours | L2 read hits | DRAM busy | reply port busy | SIMT pipeline busy | L1 MSHRs full |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' '{ n = split($5, b, " "); m = split($6, l, " "); tp = $3 >= 1.4 ? 1 : 2; to = $4 >= 1.4 ? 1 : 2
		pr = b[3] "%"; pi = b[4] "%"; if (m == 5) { pr = pr " -> " l[3] "%"; pi = pi " -> " l[4] "%" }
		printf "| %s | %s | %.2fx | %.2fx | %d / %d%s | %s%% | %s%% | %s | %s | %s%% |\n", $1, $2, $3, $4, tp, to, tp == to ? "" : " (differs)", b[1], b[2], pr, pi, b[5] }' "$xrows"
	awk -F'\t' '{ split($7, k, " "); n++; mb += k[1]; mw += k[1] + k[10]; nw += k[2] }
		END { printf "\nOver the %d applications that ran: MemoryBlockCycles with MSHR waits %.1f%% of core cycles (%.1f%% without; OWL Sec 3: 32%% over its 38), NoWarpCycles %.1f%%\n", n, mw / n, mb / n, nw / n }' "$xrows"
fi
[ -s "$brows" ] || exit 0
echo
echo "The paper's Type-1 applications on owl-28 (base run, LRR): perfect-L2 speedup (IPC), MemoryBlockCycles and NoWarpCycles over core cycles, DRAM utilisation, a load miss's round trip split by stage (core cycles, mean over the cores that missed), L1 MSHRs full (share of core cycles)."
echo
echo "MemoryBlock + MSHR wait: MemoryBlockCycles plus the cycles the memory stage held a load that found no free L1 MSHR; with owl-28's in-order back end (GPGPU-Sim 2.x's MSHR_RC_FAIL) nothing issues then, and every warp waits on memory, but the held warp's request has not left the core, so gpu.memory_block_cycles does not count it. OWL (Sec 3) defines MemoryBlockCycles as the cycles in which the core has warps and every one of them is stalled waiting for memory; a warp held for an MSHR is waiting for memory too, so this column (MemoryBlock + MSHR wait) is the one that follows the paper's definition, and the one compared with its 32%."
echo
echo "| app | program | perfect-L2 | MemoryBlock | MemoryBlock + MSHR wait | NoWarp | DRAM util | miss total | SM queue | NoC (both ways) | L2 | MC queue | DRAM | MSHRs full |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '{ split($4, b, " "); printf "| %s | %s | %.2fx | %s%% | %.1f%% | %s%% | %s%% | %s | %s | %s | %s | %s | %s | %s%% |\n", $1, $2, $3, b[1], b[1] + b[10], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10] }' "$brows"
awk -F'\t' '{ split($4, b, " "); n++; lp += log($3); mb += b[1]; mw += b[1] + b[10]; nw += b[2] }
	END { printf "\n%d Type-1 applications: perfect-L2 geomean %.2fx (OWL Sec 5.1: about 1.48x over RR), MemoryBlockCycles as OWL Sec 3 defines them (with MSHR waits) %.1f%% (OWL: 32%% over all 38; %.1f%% without the MSHR waits), NoWarpCycles mean %.1f%%\n", n, exp(lp / n), mw / n, mb / n, nw / n }' "$brows"
echo
echo "What bounds each Type-1 application under a perfect L2 (its pl2 run; DRAM busy from its base run, the only one with a DRAM): the MCs' NoC reply ports busy (as above); the L2 slices' cycles with the head request held (reply queue full, under a perfect L2) over L2 cycles; NoC cycles in which the mesh refused a slice's reply; core cycles in which the mesh refused a core's miss (injection); each core's ejection port busy, reply flits over NoC cycles (mean / largest core); the MCs' ejection ports on the request network busy, request flits over NoC cycles x MCs; L1 MSHRs full and the SIMT pipeline busy (share of core cycles); the thread-instruction budget of the runs; the ceiling, 1 / the busiest of the base run's reply port, SIMT pipeline, MC request ejection and core ejection (largest core): a perfect L2 removes DRAM time but sends the same flits through those ports and issues the same instructions, so it cannot speed a run up past the ceiling (within the rounding of the shares)."
echo
echo "| app | program | perfect-L2 | DRAM busy (base) | reply port busy | L2 slice held | slice reply refused | core injection refused | core ejection busy (mean / max) | MC request ejection busy | L1 MSHRs full | SIMT pipeline busy | budget | ceiling (base) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '{ split($4, b, " "); split($5, l, " "); split($6, e, " ")
	split($8, f, " "); c = b[3]; if (b[4] > c) c = b[4]; if (f[6] > c) c = f[6]; if (f[5] > c) c = f[5]
	printf "| %s | %s | %.2fx | %s%% | %s%% | %s%% | %s%% | %s%% | %s%% / %s%% | %s%% | %s%% | %s%% | %g M | %.2fx |\n", $1, $2, $3, b[2], l[3], e[1], e[2], e[3], e[4], e[5], e[6], l[5], l[4], $7 / 1e6, 100 / c
	n++; lp += log($3); lc += log(100 / c) }
	END { printf "\n%d Type-1 applications: perfect-L2 geomean %.2fx measured, %.2fx if every one reached its ceiling\n", n, exp(lp / n), exp(lc / n) }' "$prows"
