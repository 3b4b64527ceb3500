#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 32's public-program table: runs each program of scripts/public-programs/programs.tsv under
# `warpsim cuda`, judges its result by its own check, and prints the table and the pass figures
# of cudart/NOTES.md. The programs are built outside the project, unchanged (cudart/NOTES.md says
# with which flags; the project commits no recipe that builds third-party code); this script
# fetches and builds nothing, it finds them in the folders it is given.
#
# usage: scripts/public-programs.sh run --apps DIR --bin DIR --out DIR [--refs DIR] [--only "ID..."]
#                                       [--timeout S] [-c CFG] [--max-warp-insts N]
#        scripts/public-programs.sh table --out DIR
#   --apps DIR   the collection's folder (WARPSIM_APPS_DIR of scripts/apps.sh: bin/<suite>/<prog>;
#                inputs are made there by `scripts/apps.sh prepare` when missing)
#   --bin DIR    the folder of the other built programs (a manifest row's target is DIR/TARGET)
#   --refs DIR   reference outputs computed independently (by the suite's CPU version, built
#                outside the project), DIR/<suite>_<prog>/FILE, for the manifest's ref: checks;
#                without it those programs count as having no check
#   --out DIR    logs (DIR/logs/<suite>_<prog>.log), each program's folder (DIR/work/) and
#                DIR/results.tsv: id, exit status (124 or 137: the time limit), seconds, verdict, cycles
#   --only       run only these ids (their earlier lines in results.tsv are replaced)
#   --timeout S  wall-clock seconds a program may run (default 25)
#   -c CFG       machine config (default configs/gtx480.cfg)
#   --max-warp-insts N  timed warp instructions before the rest runs on the functional
#                executor with exact results (default 200000; 0: all timed)
# Environment: WARPSIM (default build/warpsim), PUBLIC_MANIFEST (default
# scripts/public-programs/programs.tsv).
# A program passes when it ends with exit status 0 within the limit and its own check passes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=${PUBLIC_MANIFEST:-$root/scripts/public-programs/programs.tsv}
warpsim=${WARPSIM:-$root/build/warpsim}

die() { echo "public-programs.sh: $*" >&2; exit 2; }

# A bad manifest row is an error naming its file and line (exit 2), before anything runs.
check_manifest() {
	[ -r "$manifest" ] || die "cannot read $manifest"
	awk -F'\t' -v f="$manifest" '
		/^#/ || /^[ \t]*$/ { next }
		NF != 7 { printf "public-programs.sh: %s:%d: %d fields, expected 7 (tab-separated)\n", f, NR, NF > "/dev/stderr"; bad = 1; next }
		{ for (i = 1; i <= 7; i++) if ($i == "") { printf "public-programs.sh: %s:%d: field %d is empty (write - for none)\n", f, NR, i > "/dev/stderr"; bad = 1; next } }
		$1 !~ /^[A-Za-z0-9_.+-]+\/[A-Za-z0-9_.+-]+$/ { printf "public-programs.sh: %s:%d: id \"%s\" is not suite/program\n", f, NR, $1 > "/dev/stderr"; bad = 1; next }
		seen[$1]++ { printf "public-programs.sh: %s:%d: id \"%s\" appears twice\n", f, NR, $1 > "/dev/stderr"; bad = 1; next }
		$2 !~ /^(apps|bin)$/ { printf "public-programs.sh: %s:%d: from \"%s\" is not apps or bin\n", f, NR, $2 > "/dev/stderr"; bad = 1; next }
		$5 !~ /^(args|input|define|fixed)$/ { printf "public-programs.sh: %s:%d: sized \"%s\" is not args, input, define or fixed\n", f, NR, $5 > "/dev/stderr"; bad = 1; next }
		$6 !~ /^(exit|none|polybench|grep:.+|awk:.+|ref:[^:]+:[0-9.eE-]+(:[0-9.eE-]+)?|ref-f32:[^:]+:[0-9]+:[0-9.eE-]+|own:[^:]+:[^:]+:[0-9.eE-]+(:[0-9.eE-]+)?|cmd:.+)$/ { printf "public-programs.sh: %s:%d: check \"%s\" is not exit, none, polybench, grep:REGEX, awk:PROGRAM, ref:FILE:RTOL[:ATOL], ref-f32:FILE:SKIP:RTOL, own:SCRIPT ARGS:FILE:RTOL[:ATOL] or cmd:SCRIPT ARGS\n", f, NR, $6 > "/dev/stderr"; bad = 1; next }
		END { exit bad }' "$manifest" || die "$manifest has errors"
}

rows() { grep -v -e '^#' -e '^[[:space:]]*$' "$manifest" || true; }

# The verdict of a finished run from its log: pass, fail or none (no check).
judge() {
	local check=$1 log=$2 rc=$3
	case "$check" in
	none) echo none ;;
	exit) [ "$rc" = 0 ] && echo pass || echo fail ;;
	polybench)
		if grep -qE 'Non-Matching CPU-GPU Outputs Beyond Error Threshold of [0-9.]+ Percent: 0$|^Number of misses: 0$' "$log"; then echo pass; else echo fail; fi ;;
	grep:*) if grep -qE -- "${check#grep:}" "$log"; then echo pass; else echo fail; fi ;;
	awk:*) if awk -- "${check#awk:}" "$log" > /dev/null 2>&1; then echo pass; else echo fail; fi ;;
	cmd:*)
		# our own checker (scripts/public-programs/refs/), run in its folder: exit 0 = pass
		# shellcheck disable=SC2086 # the checker's arguments are words
		if [ "$rc" = 0 ] && (cd "$WD" && LOG=$log "$root/scripts/public-programs/refs/"${check#cmd:}) > /dev/null 2>&1
		then echo pass; else echo fail; fi ;;
	ref:*|own:*)
		local spec file rtol atol=1e-6 ref got status
		if [[ "$check" == own:* ]]; then
			# our own reference, written from the program's source: SCRIPT ARGS run in its folder
			spec=${check#own:}; local cmdline=${spec%%:*}; spec=${spec#*:}
			ref=$(mktemp)
			# shellcheck disable=SC2086 # the script's arguments are words
			(cd "$WD" && python3 "$root/scripts/public-programs/refs/"$cmdline) > "$ref" 2> /dev/null || : > "$ref"
		else
			spec=${check#ref:}; ref=$REFS/$ID_/${spec%%:*}
		fi
		file=${spec%%:*}; rtol=${spec#*:}
		[[ "$rtol" == *:* ]] && { atol=${rtol#*:}; rtol=${rtol%%:*}; }
		got=$WD/$file
		if [ "$file" = stdout ] && [ -r "$ref" ]; then
			# the block of its output that starts where the reference's first line last appears
			got=$(mktemp); awk -v n="$(wc -l < "$ref")" -v first="$(head -1 "$ref")" \
				'{ line[NR] = $0 } $0 == first { at = NR }
				 END { for (i = at; at && i < at + n && i <= NR; i++) print line[i] }' "$log" > "$got"
		fi
		if [[ "$check" == ref:* ]] && { [ -z "$REFS" ] || [ ! -r "$ref" ]; }; then status=none
		elif [ "$rc" = 0 ] && [ -s "$ref" ] && same_numbers "$got" "$ref" "$rtol" "$atol"; then status=pass
		else status=fail; fi
		[ "$file" = stdout ] && rm -f "$got"
		[[ "$check" == own:* ]] && rm -f "$ref"
		echo "$status" ;;
	ref-f32:*)
		local spec=${check#ref-f32:} file skip rtol
		file=${spec%%:*}; spec=${spec#*:}; skip=${spec%%:*}; rtol=${spec#*:}
		if [ -z "$REFS" ] || [ ! -r "$REFS/$ID_/$file" ]; then echo none
		elif [ "$rc" = 0 ] && [ -r "$WD/$file" ] &&
			same_numbers <(od -A n -t f4 -v -j "$skip" "$WD/$file") \
				<(od -A n -t f4 -v -j "$skip" "$REFS/$ID_/$file") "$rtol" 1e-6; then echo pass
		else echo fail; fi ;;
	esac
}

# Whether two text files hold the same words, numbers agreeing within a relative tolerance or
# an absolute one (near zero a relative one means nothing; integers printed from floats, such as
# pixels, may round apart by 1).
same_numbers() {
	[ -r "$1" ] || return 1
	awk -v rtol="$3" -v atol="$4" '
		function isnum(w) { return w ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
		function abs(x) { return x < 0 ? -x : x }
		NR == FNR { for (i = 1; i <= NF; i++) ref[++n] = $i; next }
		{ for (i = 1; i <= NF; i++) {
			w = $i; r = ref[++m]
			if (isnum(w) && isnum(r)) { d = abs(w - r); if (d > atol && d > rtol * abs(r)) bad++ }
			else if (w != r) bad++ } }
		END { if (m != n) bad++; exit bad > 0 }' "$2" "$1"
}

cmd_run() {
	local apps="" bin="" out="" only=""; REFS="" tmo=25 cfg=$root/configs/gtx480.cfg maxw=200000
	while [ $# -gt 0 ]; do
		case "$1" in
		--apps) apps=$2; shift 2 ;;
		--bin) bin=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		--refs) REFS=$(cd "$2" && pwd) || die "--refs $2 is not a folder"; shift 2 ;;
		--only) only=$2; shift 2 ;;
		--timeout) tmo=$2; shift 2 ;;
		-c) cfg=$2; shift 2 ;;
		--max-warp-insts) maxw=$2; shift 2 ;;
		*) die "run: unknown option '$1'" ;;
		esac
	done
	[ -n "$apps" ] && [ -n "$bin" ] && [ -n "$out" ] || die "run needs --apps DIR --bin DIR --out DIR"
	[ -d "$apps/bin" ] || die "--apps $apps has no bin/ (scripts/apps.sh's WARPSIM_APPS_DIR)"
	[ -d "$bin" ] || die "--bin $bin is not a folder"
	[[ "$tmo" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive number of seconds, not '$tmo'"
	[[ "$maxw" =~ ^[0-9]+$ ]] || die "--max-warp-insts must be a number, not '$maxw'"
	[ -x "$warpsim" ] || die "no warpsim at $warpsim (scripts/build.sh release)"
	check_manifest
	apps=$(cd "$apps" && pwd); bin=$(cd "$bin" && pwd); cfg=$(cd "$(dirname "$cfg")" && pwd)/$(basename "$cfg")
	mkdir -p "$out/logs" "$out/work"; out=$(cd "$out" && pwd)
	local res=$out/results.tsv
	if [ -n "$only" ] && [ -f "$res" ]; then
		local id; for id in $only; do awk -F'\t' -v id="$id" '$1 != id' "$res" > "$res.tmp"; mv "$res.tmp" "$res"; done
	elif [ -z "$only" ]; then
		: > "$res"
	fi
	local budget=()
	[ "$maxw" != 0 ] && budget=(--max-warp-insts "$maxw" --on-budget functional)
	local id from target args sized check outside
	while IFS=$'\t' read -r id from target args sized check outside; do
		if [ -n "$only" ] && ! [[ " $only " == *" $id "* ]]; then continue; fi
		local log cmd=() wd
		log=$out/logs/$(echo "$id" | tr / _).log
		[ "$args" = "-" ] && args=""
		if [ "$from" = apps ]; then
			# TARGET@BINARY: the collection program's folder and arguments, BIN/BINARY run instead
			local alt=""
			[[ "$target" == *@* ]] && { alt=${target#*@}; target=${target%@*}; }
			[ -z "$alt" ] || [ -x "$bin/$alt" ] || { printf '%s\tmissing\t0\tnone\t-\n' "$id" >> "$res"; continue; }
			local runsh=$apps/run/$target/small/run.sh
			if [ ! -x "$runsh" ]; then
				WARPSIM_APPS_DIR=$apps "$root/scripts/apps.sh" prepare "$target" > "$log" 2>&1 ||
					{ printf '%s\tprepare\t0\tnone\t-\n' "$id" >> "$res"; continue; }
			fi
			# a copy of its prepared folder, so that outputs are this run's and other users of
			# the collection's folder are left alone
			wd=$out/work/$(echo "$id" | tr / _); rm -rf "$wd"; cp -r "$apps/run/$target/small" "$wd"
			local src=$apps/run/$target/small
			sed -i "s#^cd '$src\(.*\)' || exit 2\$#cd '$wd\1' || exit 2#" "$wd/run.sh"
			grep -qF "cd '$wd" "$wd/run.sh" || die "$runsh: no line 'cd $src... || exit 2' to point at the copy"
			if [ -n "$alt" ]; then
				sed -i "s#^exec '[^']*'#exec '$bin/$alt'#" "$wd/run.sh"
				grep -qF "exec '$bin/$alt'" "$wd/run.sh" || die "$runsh: no line 'exec PROGRAM ...' to run $alt instead"
			fi
			cmd=("$wd/run.sh")
		else
			[ -x "$bin/$target" ] || { printf '%s\tmissing\t0\tnone\t-\n' "$id" >> "$res"; continue; }
			wd=$out/work/$(echo "$id" | tr / _); rm -rf "$wd"; mkdir -p "$wd"; cmd=("$bin/$target")
		fi
		# shellcheck disable=SC2206 # the manifest's arguments are words
		local extra=($args)
		local t0 t1 rc=0
		t0=$(date +%s.%N)
		# KILL 10 s after TERM: a launch on the functional executor takes a TERM only at its end
		(cd "$wd" && timeout -k 10 "$tmo" "$warpsim" cuda -c "$cfg" --no-progress "${budget[@]}" -- \
			"${cmd[@]}" "${extra[@]}") > "$log" 2>&1 < /dev/null || rc=$?
		t1=$(date +%s.%N)
		local verdict cycles
		verdict=$(ID_=$(echo "$id" | tr / _) WD=$wd judge "$check" "$log" "$rc")
		cycles=$(grep -oE '^warpsim cuda: .*, [0-9]+ core cycles' "$log" | tail -1 | grep -oE '[0-9]+ core cycles' | cut -d' ' -f1 || true)
		printf '%s\t%s\t%.1f\t%s\t%s\n' "$id" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict" "${cycles:--}" >> "$res"
		echo "$id: exit $rc, check $verdict"
	done < <(rows)
}

# Why a program did not pass, from its log (the first line warpsim's runtime wrote, or its own).
cause_of() {
	local log=$1 rc=$2 verdict=$3 check=$4
	case "$rc" in
	124|137) echo "still running at the time limit"; return ;;
	prepare) echo "its inputs could not be made (scripts/apps.sh prepare; log)"; return ;;
	missing) echo "not built"; return ;;
	esac
	local c
	c=$(grep -m1 -E '^warpsim cudart: |^warpsim: ' "$log" | cut -c1-200 || true)
	[ -z "$c" ] && [ "$rc" != 0 ] && c=$(grep -m1 -iE 'error|fail|abort|what\(\)|waiv' "$log" | cut -c1-160 || true)
	[ -z "$c" ] && [ "$verdict" = fail ] && c=$(grep -m1 -iE 'fail|mismatch|Non-Matching|misses|dismatch|error' "$log" | cut -c1-160 || true)
	[ -z "$c" ] && [ "$verdict" = fail ] && c="its check (${check%%:*}) did not pass"
	echo "${c:--}"
}

cmd_table() {
	local out=""
	while [ $# -gt 0 ]; do
		case "$1" in
		--out) out=$2; shift 2 ;;
		*) die "table: unknown option '$1'" ;;
		esac
	done
	[ -n "$out" ] && [ -r "$out/results.tsv" ] || die "table needs --out DIR with a results.tsv (run first)"
	check_manifest
	local res=$out/results.tsv
	local n=0 ran=0 pass=0 fail=0 none=0 outside=0 dn=0 dpass=0 dnx=0 dpassx=0 fixed=0 fpass=0
	echo "| program | suite | sized | result | own check | cycles | seconds | cause |"
	echo "|---|---|---|---|---|---|---|---|"
	local id from target args sized check why
	while IFS=$'\t' read -r id from target args sized check why; do
		local line rc secs verdict cycles
		line=$(awk -F'\t' -v id="$id" '$1 == id' "$res")
		[ -n "$line" ] || continue
		IFS=$'\t' read -r _ rc secs verdict cycles <<< "$line"
		n=$((n + 1))
		local result ok=0
		case "$rc" in
		0) result=ran; ran=$((ran + 1)) ;;
		124|137) result="stopped at the limit" ;;
		prepare|missing) result=$rc ;;
		*) result="exit $rc" ;;
		esac
		if [ "$rc" = 0 ]; then
			case "$verdict" in pass) pass=$((pass + 1)); ok=1 ;; fail) fail=$((fail + 1)) ;; none) none=$((none + 1)) ;; esac
		fi
		if [ "$sized" = fixed ]; then
			fixed=$((fixed + 1)); fpass=$((fpass + ok))
		else
			dn=$((dn + 1)); dpass=$((dpass + ok))
			if [ "$why" = "-" ]; then dnx=$((dnx + 1)); dpassx=$((dpassx + ok)); fi
		fi
		local cause=""
		if [ "$why" != "-" ]; then outside=$((outside + 1)); cause="outside warpsim: $why"
		elif [ "$ok" = 0 ]; then
			if [ "$rc" = 0 ] && [ "$verdict" = none ]; then cause="prints no check; no reference here"
			else cause=$(cause_of "$out/logs/$(echo "$id" | tr / _).log" "$rc" "$verdict" "$check"); fi
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "${id#*/}" "${id%%/*}" "$sized" "$result" \
			"$([ "$rc" = 0 ] && echo "$verdict" || echo -)" "$cycles" "$secs" "${cause:--}" | sed 's/|  |/| - |/g'
	done < <(rows)
	pct() { [ "$2" -gt 0 ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }' || echo "-"; }
	echo
	echo "All $n programs: $ran ran to their end, $pass passed their own check, $fail failed it, $none ran with no check."
	echo "Issue 32's denominator (size set by arguments, input or build define; $fixed fixed-size programs apart):" \
		"$dpass of $dn pass ($(pct "$dpass" "$dn")); without the $((dn - dnx)) that cannot pass for a reason outside warpsim:" \
		"$dpassx of $dnx ($(pct "$dpassx" "$dnx"))."
	echo "Fixed-size programs: $fpass of $fixed pass ($(pct "$fpass" "$fixed")). Outside warpsim (listed with the reason): $outside."
}

case "${1:-}" in
run) shift; cmd_run "$@" ;;
table) shift; cmd_table "$@" ;;
*) die "usage: scripts/public-programs.sh run --apps DIR --bin DIR --out DIR [--only \"ID...\"] [--timeout S] [-c CFG] [--max-warp-insts N] | table --out DIR" ;;
esac
