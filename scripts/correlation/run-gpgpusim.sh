#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs one CUDA program on GPGPU-Sim (a reference built outside the project, see
# /work/shared/reference/gpgpusim/README.md) and keeps the raw statistics lines of its stdout.
#
# usage: run-gpgpusim.sh GPGPUSIM_DIR CONFIG_DIR POLICY APP PTX OUT.txt [APP ARGS...]
#   GPGPUSIM_DIR  the gpgpu-sim_distribution tree, built (setup_environment release; make)
#   CONFIG_DIR    holds gpgpusim.config and its .icnt file (gpgpusim/gtx480-config, owl28/)
#   POLICY        lrr | gto | ... (replaces the config's -gpgpu_scheduler line)
#   APP, PTX      the program (nvcc -cudart shared) and the PTX of its kernels, served to
#                 GPGPU-Sim by the stand-in cuobjdump
# Environment: GPGPUSIM_CUDA, the stand-in CUDA folder (default GPGPUSIM_DIR/../fakecuda);
# CUDA_HOME, the real toolkit (default /usr/local/cuda), for the ptxas wrapper;
# GPGPUSIM_STDOUT, a file to keep GPGPU-Sim's whole stdout in (DRAM, interconnect and stall
# statistics for investigating a difference; not committed); GPGPUSIM_INPUTS, a folder whose
# contents (a program's input files) are copied into the folder the program runs in.
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: $0 GPGPUSIM_DIR CONFIG_DIR POLICY APP PTX OUT.txt [ARGS...]" >&2; exit 2; }
sim=$(realpath "$1"); cfg=$(realpath "$2"); pol=$3; app=$(realpath "$4"); ptx=$(realpath "$5")
out=$(realpath -m "$6"); shift 6
fake=$(realpath "${GPGPUSIM_CUDA:-$sim/../fakecuda}")
for f in "$sim/setup_environment" "$cfg/gpgpusim.config" "$app" "$ptx" "$fake/bin/cuobjdump"; do
	[ -e "$f" ] || { echo "$0: $f: not found" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "${GPGPUSIM_INPUTS:-}" ] || cp -r "$GPGPUSIM_INPUTS"/. "$work/"
cp "$cfg"/* "$work/"
# One scheduler line, the policy asked for.
sed -i -e '/^-gpgpu_scheduler /d' "$work/gpgpusim.config"
echo "-gpgpu_scheduler $pol" >> "$work/gpgpusim.config"
mkdir "$work/ptx"
cp "$ptx" "$work/ptx/$(basename "$app").ptx"
export CUDA_INSTALL_PATH=$fake PTXAS_CUDA_INSTALL_PATH=$fake FAKE_PTX_DIR=$work/ptx
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
# setup_environment sets LD_LIBRARY_PATH (GPGPU-Sim's libcudart), GPGPUSIM_ROOT and _CONFIG.
set +eu
cd "$sim" && source setup_environment release >/dev/null 2>&1
cd - >/dev/null
set -eu
[ -n "${GPGPUSIM_CONFIG:-}" ] || { echo "$0: $sim/setup_environment failed" >&2; exit 2; }
export PATH=$fake/bin:$PATH
start=$(date +%s)
( cd "$work" && nice -n 10 "$app" "$@" > "$work/stdout" 2>&1 ) || {
	[ -z "${GPGPUSIM_STDOUT:-}" ] || cp "$work/stdout" "$GPGPUSIM_STDOUT"
	echo "$0: $app failed; last lines:" >&2; tail -20 "$work/stdout" >&2; exit 1; }
wall=$(( $(date +%s) - start ))
[ -z "${GPGPUSIM_STDOUT:-}" ] || cp "$work/stdout" "$GPGPUSIM_STDOUT"
grep -q "GPGPU-Sim" "$work/stdout" || { echo "$0: $app did not run on GPGPU-Sim (libcudart?)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
{
	echo "# GPGPU-Sim raw statistics: $(basename "$app") $* policy $pol config $(basename "$cfg") wall ${wall}s"
	grep -E '^(GPGPU-Sim uArch: CTA/core|kernel_name|gpu_sim_cycle|gpu_sim_insn|gpu_ipc|gpu_tot_sim_cycle|gpu_tot_sim_insn|gpu_tot_ipc|gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_silicon_slowdown)|^[[:space:]]*(L1D_total_cache_(accesses|misses|miss_rate)|L2_total_cache_(accesses|misses|miss_rate))|^total dram (reads|writes) = |^n_cmd=' "$work/stdout"
	grep -E 'done$|PASS|FAIL' "$work/stdout" || true
} > "$out"
echo "$out: $(grep -E '^gpu_tot_sim_cycle' "$out" | tail -1) $(grep -E '^gpu_tot_sim_insn' "$out" | tail -1) (${wall}s)"
