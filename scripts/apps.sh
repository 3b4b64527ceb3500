#!/bin/bash
# SPDX-License-Identifier: MIT
# The public-program collection (workloads/apps/): fetch the suites at their pinned commits, list
# what is built and what is missing, make a program's inputs with our generators, run it under
# `warpsim cuda`, print the status table, and write sweep entries. The programs themselves are
# built outside the project (workloads/apps/README.md says why and how); this script only finds
# them in $WARPSIM_APPS_DIR/bin/<suite>/<program>.
#
# usage: scripts/apps.sh COMMAND [options]
#   fetch [SUITE...]          clone each suite at its pinned commit into $WARPSIM_APPS_DIR/src/<suite>
#                             (APPS_SRC_<suite>=<local git dir> takes a local copy instead; '-' in
#                             a suite name is '_' in the variable: APPS_SRC_cuda_samples)
#   list                      one line per program: id, papers, built / missing, reason
#   prepare ID [--size S]     make the inputs in $WARPSIM_APPS_DIR/run/<id>/<S>/ and its run.sh
#   run ID [--size S] [-c CFG]... [-s KEY=VALUE]... [-o DIR] [--functional]
#                             prepare, then run it under `warpsim cuda`; prints the status line
#   status [--size S] [-c CFG]... [--only "ID..."] [--rerun]
#                             run every built program (results kept in $WARPSIM_APPS_DIR/status/)
#                             and print the status table
#   sweep [--size S] [--papers P]
#                             print a sweep spec's `workloads = ( ... );` for the built programs
#                             (named by paper abbreviation where P names a paper, e.g. OWL)
# Sizes: small (tests; default) or paper (the paper's input where it is known).
# Environment: WARPSIM_APPS_DIR (default ${XDG_CACHE_HOME:-~/.cache}/warpsim-apps), WARPSIM (the
# warpsim binary, default build/warpsim), WARPSIM_APPGEN (default build/warpsim-appgen),
# APPS_MANIFEST / APPS_SUITES (default workloads/apps/apps.tsv, suites.tsv; the tests point them
# at a fixture), APPS_REUSE_INPUTS=1 (run: keep the inputs a previous prepare made, unless the
# manifest is newer), APPS_TIMEOUT (seconds a run may take, 0 = no limit; default 1800, and for a
# run given -s sim.max_thread_insts=N above 180 M, N / 100000: 10000 s for OWL's 1 B budget).
# A run writes into a folder of its own (OUT.run-XXXXXX) that replaces OUT when it ends; a
# SIGTERM, SIGINT or SIGHUP to apps.sh stops its run and drops that folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=${APPS_MANIFEST:-$root/workloads/apps/apps.tsv}
suites=${APPS_SUITES:-$root/workloads/apps/suites.tsv}
adir=${WARPSIM_APPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warpsim-apps}
warpsim=${WARPSIM:-$root/build/warpsim}
appgen=${WARPSIM_APPGEN:-$root/build/warpsim-appgen}

die() { echo "apps.sh: $*" >&2; exit 2; }

# Checks the manifest: 9 tab-separated fields, none empty, ids unique and of the form
# suite/program, a known check. A bad row is an error naming its file and line (exit 2), before
# any command reads it.
check_manifest() {
	[ -r "$manifest" ] || die "cannot read $manifest"
	awk -F'\t' -v f="$manifest" '
		/^#/ || /^[ \t]*$/ { next }
		NF != 9 { printf "apps.sh: %s:%d: %d fields, expected 9 (tab-separated)\n", f, NR, NF > "/dev/stderr"; bad = 1; next }
		{ for (i = 1; i <= 9; i++) if ($i == "") { printf "apps.sh: %s:%d: field %d is empty (write - for none)\n", f, NR, i > "/dev/stderr"; bad = 1; next } }
		$1 !~ /^[A-Za-z0-9_.+-]+\/[A-Za-z0-9_.+-]+$/ { printf "apps.sh: %s:%d: id \"%s\" is not suite/program\n", f, NR, $1 > "/dev/stderr"; bad = 1; next }
		seen[$1]++ { printf "apps.sh: %s:%d: id \"%s\" appears twice\n", f, NR, $1 > "/dev/stderr"; bad = 1; next }
		$8 !~ /^(exit|none|grep:.+)$/ { printf "apps.sh: %s:%d: check \"%s\" is not exit, none or grep:REGEX\n", f, NR, $8 > "/dev/stderr"; bad = 1; next }
		END { exit bad }' "$manifest" || die "$manifest has errors"
}

# The manifest's rows (checked by check_manifest first), comments dropped.
rows() { grep -v -e '^#' -e '^[[:space:]]*$' "$manifest" || true; }

# Field N of program ID's row.
field() {
	local id=$1 n=$2 line
	line=$(rows | awk -F'\t' -v id="$id" '$1 == id')
	[ -n "$line" ] || die "no program '$id' in $manifest (see: scripts/apps.sh list)"
	printf '%s\n' "$line" | cut -f"$n"
}

# The inputs and arguments of a size ('=' in the paper columns: as small).
size_fields() {
	local id=$1 size=$2 v
	case "$size" in
	small) INPUTS=$(field "$id" 3) ARGS=$(field "$id" 4) ;;
	paper)
		v=$(field "$id" 5); [ "$v" = "=" ] && v=$(field "$id" 3); INPUTS=$v
		v=$(field "$id" 6); [ "$v" = "=" ] && v=$(field "$id" 4); ARGS=$v ;;
	*) die "--size must be small or paper, not '$size'" ;;
	esac
	[ "$INPUTS" = "-" ] && INPUTS=""
	[ "$ARGS" = "-" ] && ARGS=""
	return 0
}

suite_src() { echo "$adir/src/$1"; }
bin_of() { echo "$adir/bin/$1"; }

# A relative path that stays inside its directory (no absolute path, no ..).
inside() { [[ "$1" != /* && "/$1/" != */../* ]]; }

cmd_fetch() {
	[ $# -gt 0 ] || set -- $(grep -v '^#' "$suites" | cut -f1)
	local s repo commit dst var
	for s in "$@"; do
		read -r repo commit < <(awk -F'\t' -v s="$s" '$1 == s { print $2, $3 }' "$suites")
		[ -n "${repo:-}" ] || die "no suite '$s' in $suites"
		dst=$(suite_src "$s")
		var="APPS_SRC_${s//-/_}"
		rm -rf "$dst.tmp"
		if [ -n "${!var:-}" ]; then
			# a local git directory (here: the fetch tool's snapshot); files it lacks are skipped
			local gd=${!var}
			mkdir -p "$dst.tmp"
			git --git-dir "$gd" cat-file -e "$commit^{commit}" 2>/dev/null || die "$var=$gd has no commit $commit"
			git --git-dir "$gd" ls-tree -r -z "$commit" | while IFS= read -r -d '' ent; do
				local meta=${ent%%$'\t'*} path=${ent#*$'\t'} sha mode
				mode=${meta%% *}; sha=${meta##* }
				[ "$mode" = 160000 ] && continue
				mkdir -p "$dst.tmp/$(dirname "$path")"
				if ! git --git-dir "$gd" cat-file blob "$sha" > "$dst.tmp/$path" 2>/dev/null; then
					rm -f "$dst.tmp/$path"; echo "  $s: $path missing from $gd" >&2; continue
				fi
				if [ "$mode" = 100755 ]; then chmod +x "$dst.tmp/$path"; fi
			done
		else
			git clone -q --no-checkout "$repo" "$dst.tmp" && git -C "$dst.tmp" checkout -q "$commit"
		fi
		rm -rf "$dst" && mv "$dst.tmp" "$dst"
		echo "$s: $dst at $commit"
	done
}

cmd_list() {
	printf '%-34s %-8s %s\n' "program" "state" "papers / reason"
	rows | while IFS=$'\t' read -r id papers _ _ _ _ _ _ reason; do
		local state
		if [ -x "$(bin_of "$id")" ]; then state=built; elif [ "$reason" != "-" ]; then state=missing; else state=unbuilt; fi
		printf '%-34s %-8s %s\n' "$id" "$state" "$papers"
		if [ "$reason" != "-" ]; then printf '%-34s %-8s   %s\n' "" "" "$reason"; fi
	done
	return 0
}

# Makes $adir/run/<id>/<size>/ afresh: the input steps, then run.sh (cd to cwd, exec the program).
prepare() {
	local id=$1 size=$2 suite=${1%%/*} run step
	size_fields "$id" "$size"
	local cwd
	cwd=$(field "$id" 7)
	inside "$cwd" || die "$id: cwd '$cwd' leaves the run directory"
	run=$adir/run/$id/$size
	rm -rf "$run"; mkdir -p "$run/$cwd"
	local IFS=';'
	for step in $INPUTS; do
		IFS=' ' read -r -a w <<< "$step"
		[ ${#w[@]} -gt 0 ] || continue
		case "${w[0]}" in
		gen)
			[ ${#w[@]} -ge 4 ] || die "$id: '$step': gen KIND FILE SEED ARGS..."
			inside "${w[2]}" || die "$id: '$step': the file leaves the run directory"
			mkdir -p "$run/$(dirname "${w[2]}")"
			(cd "$run" && "$appgen" "${w[1]}" "${w[2]}" "${w[@]:3}") || die "$id: '$step' failed" ;;
		copy)
			[ ${#w[@]} -eq 3 ] || die "$id: '$step': copy SUITE_PATH DEST"
			inside "${w[1]}" && inside "${w[2]}" || die "$id: '$step': a path leaves its directory"
			[ -e "$(suite_src "$suite")/${w[1]}" ] || die "$id: '$step': $(suite_src "$suite")/${w[1]} missing (scripts/apps.sh fetch $suite)"
			mkdir -p "$run/$(dirname "${w[2]}")"
			cp -r "$(suite_src "$suite")/${w[1]}" "$run/${w[2]}" ;;
		cat)
			[ ${#w[@]} -eq 4 ] && [[ "${w[1]}" =~ ^[0-9]+$ ]] || die "$id: '$step': cat N SUITE_PATH DEST"
			inside "${w[2]}" && inside "${w[3]}" || die "$id: '$step': a path leaves its directory"
			[ -f "$(suite_src "$suite")/${w[2]}" ] || die "$id: '$step': $(suite_src "$suite")/${w[2]} missing (scripts/apps.sh fetch $suite)"
			mkdir -p "$run/$(dirname "${w[3]}")"
			local k
			for ((k = 0; k < ${w[1]}; k++)); do cat "$(suite_src "$suite")/${w[2]}"; done > "$run/${w[3]}" ;;
		line)
			[ ${#w[@]} -ge 3 ] && inside "${w[1]}" || die "$id: '$step': line FILE WORDS..."
			mkdir -p "$run/$(dirname "${w[1]}")"
			(IFS=' '; printf '%s\n' "${w[*]:2}") >> "$run/${w[1]}" ;;
		mkdir)
			[ ${#w[@]} -eq 2 ] && inside "${w[1]}" || die "$id: '$step': mkdir DIR"
			mkdir -p "$run/${w[1]}" ;;
		*) die "$id: input step '$step' is not gen, copy, cat, line or mkdir" ;;
		esac
	done
	IFS=' '
	local bin
	bin=$(bin_of "$id")
	{
		echo "#!/bin/sh"
		echo "# $id, size $size (scripts/apps.sh prepare)"
		echo "# warpsim's relative paths (a sweep's configs, its output folder) are made absolute"
		echo "# before the program enters its own folder"
		echo 'abs() { case "$1" in /*|"") printf "%s" "$1" ;; *) printf "%s/%s" "$PWD" "$1" ;; esac; }'
		echo 'if [ -n "${WARPSIM_CONFIG:-}" ]; then'
		echo '	c=""; ifs=$IFS; IFS=:'
		echo '	for f in $WARPSIM_CONFIG; do c="${c:+$c:}$(abs "$f")"; done'
		echo '	IFS=$ifs; WARPSIM_CONFIG=$c; export WARPSIM_CONFIG'
		echo 'fi'
		echo 'if [ -n "${WARPSIM_OUTDIR:-}" ]; then WARPSIM_OUTDIR=$(abs "$WARPSIM_OUTDIR"); export WARPSIM_OUTDIR; fi'
		printf "cd '%s' || exit 2\n" "$run/$cwd"
		printf "exec '%s' %s \"\$@\"\n" "$bin" "$ARGS"
	} > "$run/run.sh"
	chmod +x "$run/run.sh"
	echo "$run"
}

# The time limit of one run with warpsim cuda's options "$@", in seconds (0: none): APPS_TIMEOUT
# where it is set; else 1800 s, or where a -s sim.max_thread_insts=N asks for more than 180 M
# thread instructions, N / 100000 s (1 B: 10000 s). The slowest 1 B run of OWL's Table 2
# (SimilarityScore) went at about 1.2 M thread instructions per second on a core of its own
# (835 s to its cap), so this leaves a factor of 12 for a machine shared with other work.
run_timeout_s() {
	if [ -n "${APPS_TIMEOUT:-}" ]; then echo "$APPS_TIMEOUT"; return 0; fi
	local cap=0 a
	for a in "$@"; do
		case "$a" in sim.max_thread_insts=*) cap=${a#*=} ;; esac
	done
	[[ "$cap" =~ ^[0-9]+$ ]] || cap=0
	awk -v c="$cap" 'BEGIN { t = int(c / 100000); print (t > 1800 ? t : 1800) }'
}

# Runs one program: prepare, warpsim cuda, then reads the outcome. Prints
# "id<TAB>runs<TAB>check<TAB>note" (runs: yes/no; check: pass/fail/no check/-).
run_one() {
	local id=$1 size=$2 out=$3 functional=$4
	shift 4
	local bin check run rc=0
	bin=$(bin_of "$id")
	[ -x "$bin" ] || { printf '%s\tno\t-\tnot built\n' "$id"; return 0; }
	check=$(field "$id" 8)
	run=$adir/run/$id/$size
	if [ "${APPS_REUSE_INPUTS:-0}" != 1 ] || [ ! -x "$run/run.sh" ] || [ "$manifest" -nt "$run/run.sh" ]; then
		run=$(prepare "$id" "$size" 2>&1) || { printf '%s\tno\t-\tinputs: %s\n' "$id" "$(echo "$run" | tail -1)"; return 0; }
	fi
	local limit_s
	limit_s=$(run_timeout_s "$@")
	# The run writes only into a folder of its own beside $out, and $out is replaced by it
	# when the run has ended: a run stopped by a signal (below), or one left behind by a
	# killed apps.sh, never writes into the folder a restarted run uses, and a restarted
	# run never sees an earlier run's files (a stale stats.failed.json).
	mkdir -p "$(dirname "$out")"
	local own pid
	own=$(mktemp -d "$out.run-XXXXXX")
	# timeout runs in a process group of its own, out of reach of a signal to ours: pass
	# SIGTERM, SIGINT and SIGHUP on to it, wait for the program's end, drop its folder
	trap 'kill -TERM $pid 2>/dev/null; wait $pid || true; rm -rf "$own"; exit 143' TERM INT HUP
	if [ "$functional" = 1 ]; then
		WARPSIM_FUNCTIONAL=1 timeout "$limit_s" nice -n 10 "$warpsim" cuda "$@" -o "$own" -- "$run/run.sh" > "$own/run.log" 2>&1 &
	else
		timeout "$limit_s" nice -n 10 "$warpsim" cuda "$@" -o "$own" -- "$run/run.sh" > "$own/run.log" 2>&1 &
	fi
	pid=$!
	wait $pid || rc=$?
	trap - TERM INT HUP
	rm -rf "$out"; mv "$own" "$out"
	# warpsim's summary names the folder it wrote: name the one its files are in now
	sed -i "s|$own/|$out/|g" "$out/run.log"
	local runs=no verdict=- note=""
	if [ -s "$out/stats.json" ]; then runs=yes; fi
	if [ $rc = 124 ]; then
		note="stopped after ${limit_s} s"
	elif [ $runs = no ]; then
		note=$(grep -v '^\s*$' "$out/run.log" | tail -1 | cut -c1-150)
	fi
	# a failed run: its first fault or error line says more than warpsim's summary
	local why
	why=$(grep -m1 -E 'out of bounds|faulted|[Ee]rror|refused|Abort|terminate called' "$out/run.log" 2>/dev/null | grep -v '^warpsim cuda: [0-9]' |
		sed -E 's/^warpsim cudart: kernel ([^(]*)\(.*: (block .*)$/\1: \2/' | cut -c1-200 || true)
	if [ $runs = yes ]; then
		case "$check" in
		none) verdict="no check" ;;
		exit) verdict=pass ;;
		grep:*) if grep -Eq -- "${check#grep:}" "$out/run.log"; then verdict=pass; else verdict=fail; fi ;;
		esac
	elif [ $rc != 124 ] && [ -s "$out/stats.failed.json" ]; then
		# the simulation finished; the program exited non-zero (its own check, or a refusal)
		runs=yes; verdict=fail
	fi
	if [ $rc != 124 ] && [ "$verdict" != pass ] && [ "$verdict" != "no check" ] && [ -n "$why" ]; then note=$why; fi
	printf '%s\t%s\t%s\t%s\n' "$id" "$runs" "$verdict" "$note"
}

cmd_prepare() {
	local id="" size=small
	while [ $# -gt 0 ]; do
		case "$1" in --size) size=$2; shift 2 ;; -*) die "prepare: unknown option '$1'" ;; *) id=$1; shift ;; esac
	done
	[ -n "$id" ] || die "prepare needs a program id"
	prepare "$id" "$size"
}

cmd_run() {
	local id="" size=small out="" functional=0 opts=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--size) size=$2; shift 2 ;;
		-c) [ -r "$2" ] || die "run: cannot read config '$2'"
		    opts+=(-c "$(realpath "$2")"); shift 2 ;; # the program runs in its own directory
		-s) opts+=(-s "$2"); shift 2 ;;
		-o) out=$2; shift 2 ;;
		--functional) functional=1; shift ;;
		-*) die "run: unknown option '$1'" ;;
		*) id=$1; shift ;;
		esac
	done
	[ -n "$id" ] || die "run needs a program id"
	[ -x "$warpsim" ] || die "$warpsim not built (scripts/build.sh release)"
	[[ " ${opts[*]:-} " == *" -c "* ]] || opts=(-c "$root/configs/owl-28.cfg" "${opts[@]}")
	[ -n "$out" ] || out=$adir/out/$id/$size
	run_one "$id" "$size" "$out" "$functional" "${opts[@]}"
}

# The status table: program, suite, papers, built?, runs?, passes its own check?, reason.
cmd_status() {
	local size=small only="" rerun=0 cfgs=() tag
	while [ $# -gt 0 ]; do
		case "$1" in
		--size) size=$2; shift 2 ;;
		-c) [ -r "$2" ] || die "status: cannot read config '$2'"
		    cfgs+=(-c "$(realpath "$2")"); shift 2 ;;
		--only) only=$2; shift 2 ;;
		--rerun) rerun=1; shift ;;
		*) die "status: unknown option '$1'" ;;
		esac
	done
	[ ${#cfgs[@]} -gt 0 ] || cfgs=(-c "$root/configs/owl-28.cfg")
	# the results' folder and the table's heading: the configs' names (owl-28, gtx480+x)
	tag=""
	local i
	for ((i = 1; i < ${#cfgs[@]}; i += 2)); do
		local b=${cfgs[i]##*/}
		tag=${tag:+$tag+}${b%.cfg}
	done
	echo "| program | suite | papers | built | runs ($tag, $size) | own check | reason |"
	echo "|---|---|---|---|---|---|---|"
	# The loop runs in this shell, not in a pipeline's subshell: run_one's trap (a SIGTERM,
	# SIGINT or SIGHUP stops the run and drops its folder) must be this process's, or a signal
	# to apps.sh would end this shell and leave the subshell and its run going. Rows come on
	# fd 3, so nothing the loop starts can read them.
	local n=0 nb=0 nr=0 np=0 nn=0 nf=0
	while IFS=$'\t' read -r id papers _ _ _ _ _ _ reason <&3; do
		local built=no runs=- verdict=- note="" res
		[ -x "$(bin_of "$id")" ] && built=yes
		if [ $built = yes ] && { [ "$reason" = "-" ] || [[ "$reason" != built* ]]; } && \
		   { [ -z "$only" ] || [[ " $only " == *" $id "* ]]; }; then
			res=$adir/status/$tag/$size/$id.tsv
			if [ $rerun = 1 ] || [ ! -s "$res" ]; then
				mkdir -p "$(dirname "$res")"
				run_one "$id" "$size" "$adir/status/$tag/$size/$id" 0 "${cfgs[@]}" > "$res"
			fi
			IFS=$'\t' read -r _ runs verdict note < "$res"
		fi
		if [ "$reason" != "-" ]; then note=${note:+$note; }$reason; fi
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "${id#*/}" "${id%%/*}" "$papers" "$built" "$runs" "$verdict" "${note:--}"
		n=$((n + 1))
		[ $built = yes ] && nb=$((nb + 1))
		[ "$runs" = yes ] && nr=$((nr + 1))
		case "$verdict" in pass) np=$((np + 1)) ;; "no check") nn=$((nn + 1)) ;; fail) nf=$((nf + 1)) ;; esac
	done 3< <(rows)
	printf '\n%d programs: %d built, %d ran under warpsim, %d passed their own check, %d have none, %d failed it\n' \
		"$n" "$nb" "$nr" "$np" "$nn" "$nf"
}

cmd_sweep() {
	local size=small paper=""
	while [ $# -gt 0 ]; do
		case "$1" in --size) size=$2; shift 2 ;; --papers) paper=$2; shift 2 ;; *) die "sweep: unknown option '$1'" ;; esac
	done
	local first=1
	echo "  workloads = ("
	while IFS=$'\t' read -r id papers _ _ _ _ _ _ reason; do
		[ -x "$(bin_of "$id")" ] || continue
		[[ "$reason" == built* ]] && continue
		local name=${id#*/}
		if [ -n "$paper" ]; then
			[[ " $papers" == *" $paper:"* ]] || continue
			name=$(printf '%s\n' $papers | sed -n "s/^$paper://p" | head -1 | tr 'A-Z' 'a-z')
		fi
		local run
		run=$(prepare "$id" "$size") || die "$id: inputs failed"
		[ $first = 1 ] || echo ","
		printf '    { app = "%s/run.sh"; name = "%s"; }' "$run" "$name"
		first=0
	done < <(rows)
	echo
	echo "  );"
}

main() {
	[ $# -gt 0 ] || { sed -n '3,31p' "$0"; exit 2; }
	local cmd=$1
	shift
	case "$cmd" in -h|--help) ;; *) check_manifest ;; esac
	case "$cmd" in
	fetch) cmd_fetch "$@" ;;
	list) cmd_list ;;
	prepare) cmd_prepare "$@" ;;
	run) cmd_run "$@" ;;
	status) cmd_status "$@" ;;
	sweep) cmd_sweep "$@" ;;
	-h|--help) sed -n '3,31p' "$0" ;;
	*) die "unknown command '$cmd' (try --help)" ;;
	esac
}
# one line, read whole before it runs: editing this file under a running command is then safe
main "$@"; exit $?
