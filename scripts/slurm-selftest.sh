#!/usr/bin/env bash
# CI self-test of sweep scale-out: bring up a single-node Slurm on localhost, submit the job
# array that `warpsim sweep --emit slurm` writes for a 4-run spec, wait, check the results.
# Fails with a reason (never hangs): every wait is bounded; daemons are stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${WARPSIM_BIN:-build/warpsim}
[ -x "$bin" ] || { echo "slurm-selftest: $bin not built" >&2; exit 1; }
state=$(mktemp -d /tmp/warpsim-slurm.XXXXXX)
out=$state/results
cleanup() { scripts/slurm-local.sh stop "$state" || true; }
trap cleanup EXIT
timeout 90 scripts/slurm-local.sh start "$state" || { echo "slurm-selftest: Slurm did not start" >&2; exit 1; }
export SLURM_CONF=$state/slurm.conf
"$bin" sweep experiments/slurm-selftest.cfg --emit slurm --out "$out"
script=$out/slurm-selftest/sweep.sbatch
[ -f "$script" ] || { echo "slurm-selftest: no job script emitted" >&2; exit 1; }
if ! timeout 180 sbatch --wait "$script"; then
  echo "slurm-selftest: job array failed or timed out; slurm logs:" >&2
  tail -5 "$out"/slurm-selftest/slurm-*.out >&2 2>/dev/null || true
  tail -20 "$state/log/slurmctld.log" >&2 || true
  exit 1
fi
n=$(find "$out/slurm-selftest" -name stats.json | wc -l)
[ "$n" -eq 4 ] || { echo "slurm-selftest: expected 4 results, found $n" >&2; exit 1; }
"$bin" sweep --collect "$out/slurm-selftest"
rows=$(($(wc -l < "$out/slurm-selftest/results.csv") - 1))
[ "$rows" -eq 4 ] || { echo "slurm-selftest: results.csv has $rows rows, expected 4" >&2; exit 1; }
echo "slurm-selftest: 4-task job array ran through Slurm; results collected"
