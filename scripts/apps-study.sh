#!/usr/bin/env bash
# A paper's study (experiments/<paper>.cfg: its machine, variants and overrides) run on the
# papers' own programs from the collection (workloads/apps/) instead of our kernels, then
# reported with the paper's selection rule. Needs the collection built (WARPSIM_APPS_DIR); CI and
# ./run.sh never call it. The spec it runs is written to OUT/<paper>.cfg (not committed: its
# entries name run folders of this machine's collection).
#
# usage: scripts/apps-study.sh PAPER [--size small|paper] [--only "ABBR ..."] [--max-warp-insts N]
#                              [--max-thread-insts N] [--set KEY=VALUE]... [--jobs N] [--out DIR]
#   PAPER            owl | paws | pro | baws | twolevel | lwm: experiments/PAPER.cfg; programs are
#                    the collection's built programs that PAPER's paper names (OWL, PAWS, PRO,
#                    BAWS, LWM; twolevel takes LWM's, the same paper). OWL's rule selects Type-1
#                    by the pmem variant: keep it in --variants.
#   --only           only these programs (the paper's abbreviations, lower case: "bp km lud")
#   --variants       only these of the spec's variants ("lrr gto baws saws"; default all)
#   --max-warp-insts each run ends cleanly after N simulated warp instructions (sim.max_warp_insts;
#                    0 = whole programs; default 500000): every variant of a program simulates the
#                    same instructions from its start, so speedups compare the same work
#   --max-thread-insts  the same in thread instructions (sim.max_thread_insts; 0 = none, the
#                    default), GPGPU-Sim's and the papers' unit: OWL ran each program to
#                    completion or 1 billion (--max-thread-insts 1000000000 --max-warp-insts 0)
#   --set            a setting for every run of the study (repeatable), added to the spec's
#                    sweep-wide overrides: e.g. sim.timing_launches=kernel:fwtBatch1Kernel to time
#                    the kernel a paper measured (the others run functionally, exact results)
#   --jobs           runs at a time (default 1), --out results directory (default results/apps)
#   --spec-only      write the spec and stop
# Prints the report (report.md in OUT/PAPER/) with the paper's rule applied (--select PAPER; lwm
# and twolevel: none). Environment: WARPSIM_APPS_DIR, WARPSIM (default build/warpsim).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "apps-study: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: scripts/apps-study.sh PAPER [--size S] [--only \"ABBR ...\"] [--max-warp-insts N] [--jobs N] [--out DIR]"
paper=$1; shift
size=small only="" variants="" cap=500000 tcap=0 jobs=1 out=results/apps spec_only=0 sets=""
while [ $# -gt 0 ]; do
	case "$1" in
	--size) size=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--variants) variants=" $2 "; shift 2 ;;
	--max-warp-insts) cap=$2; shift 2 ;;
	--max-thread-insts) tcap=$2; shift 2 ;;
	--set) [[ "$2" =~ ^[A-Za-z0-9_.]+=[^\"]+$ ]] || die "--set: expected KEY=VALUE without quotes, got '$2'"
		sets="${sets:+$sets, }\"$2\""; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--spec-only) spec_only=1; shift ;;
	*) die "unknown option '$1'" ;;
	esac
done
[[ "$cap" =~ ^[0-9]+$ ]] || die "--max-warp-insts: expected a whole number, got '$cap'"
[[ "$tcap" =~ ^[0-9]+$ ]] || die "--max-thread-insts: expected a whole number, got '$tcap'"
spec=experiments/$paper.cfg
[ -f "$spec" ] || die "no $spec"
case "$paper" in
owl) tag=OWL sel=owl ;; paws) tag=PAWS sel=paws ;; pro) tag=PRO sel=pro ;; baws) tag=BAWS sel=baws ;;
twolevel|lwm) tag=LWM sel=none ;;
*) die "PAPER: owl, paws, pro, baws, twolevel or lwm, not '$paper'" ;;
esac
[ -n "${WARPSIM_APPS_DIR:-}" ] || die "WARPSIM_APPS_DIR is not set: the collection is needed (workloads/apps/README.md)"
ws=${WARPSIM:-build/warpsim}
mkdir -p "$out"
entries=$(scripts/apps.sh sweep --papers "$tag" --size "$size")
if [ -n "$only" ]; then
	keep=$(printf '%s\n' "$entries" | grep -E "name = \"($(echo $only | sed 's/[+.]/\\&/g' | tr ' ' '|'))\"" || true)
	[ -n "$keep" ] || die "--only \"$only\": none of these is a built $tag program"
	entries=$(printf '  workloads = (\n%s\n  );\n' "$(printf '%s\n' "$keep" | sed 's/,$//' | paste -sd, - | sed 's/},/},\n/g')")
fi
printf '%s\n' "$entries" | grep -q 'app = ' || die "no built $tag program in $WARPSIM_APPS_DIR"
# run names are plain ([A-Za-z0-9._-]): the paper's "B+T" becomes b-t
entries=$(printf '%s\n' "$entries" | sed -E ':a; s/(name = "[A-Za-z0-9._-]*)[^A-Za-z0-9._"-]/\1-/; ta')
# The paper's spec with its workload list replaced, its name kept (the report's rule follows it)
# and the budget added to the sweep-wide overrides.
budget=""
[ "$cap" = 0 ] || budget="\"sim.max_warp_insts=$cap\""
[ "$tcap" = 0 ] || budget="${budget:+$budget, }\"sim.max_thread_insts=$tcap\""
[ -z "$sets" ] || budget="${budget:+$budget, }$sets"
has_ov=0
grep -q '^  overrides = \[' "$spec" && has_ov=1
awk -v entries="$entries" -v budget="$budget" -v keepv="$variants" -v has_ov=$has_ov '
	/^  workloads = \[/ { skip = 1; print entries; if ($0 ~ /\];/) skip = 0; next }
	skip { if ($0 ~ /\];/) skip = 0; next }
	/^  variants = \(/ && keepv != "" { print; inv = 1; nv = 0; next }
	inv && /^  \);/ { for (i = 1; i <= nv; i++) print v[i] (i < nv ? "," : ""); print; inv = 0; next }
	inv { if (match($0, /name = "[^"]*"/)) { nm = substr($0, RSTART + 8, RLENGTH - 9); if (index(keepv, " " nm " ")) { l = $0; sub(/,[ \t]*$/, "", l); v[++nv] = l } } next }
	/^  overrides = \[/ && budget != "" { sub(/\[/, "[" budget ", ") }
	/^  size = / { print; if (budget != "" && !has_ov) print "  overrides = [" budget "];"; next }
	{ print }
' "$spec" > "$out/$paper.cfg"
echo "apps-study: $out/$paper.cfg ($(grep -c 'app = ' "$out/$paper.cfg") programs, budget ${cap:-0} warp instructions and ${tcap:-0} thread instructions a run; 0 = none)" >&2
[ $spec_only = 0 ] || exit 0
# A program the simulator cannot finish (its own fault, a refused launch) is listed by the sweep
# and left out of the report; the others are reported.
"$ws" sweep "$out/$paper.cfg" --jobs "$jobs" --out "$out" ||
	echo "apps-study: some runs failed (listed above); the report leaves them out" >&2
base=lrr
[ "$paper" = lwm ] && base=baseline
"$ws" report "$out/$paper" --baseline "$base" --select "$sel"
