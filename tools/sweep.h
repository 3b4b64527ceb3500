/* SPDX-License-Identifier: MIT */
/* Sweep results: collect every run's stats.json under a directory into one CSV. */
#ifndef WARPSIM_SWEEP_H
#define WARPSIM_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "../engine/sim_error.h"

/* Walk dir for <config>/<workload>/<variant>/stats.json, write dir/results.csv (atomically)
 * with columns config, workload, variant, every "gpu.*" total stat and those named in
 * dir/extra_stats.txt (the spec's `stats`), then "prov.*", the run's provenance (text cells
 * quoted as tools/csv.h reads them), rows sorted. Prints a
 * one-line summary to out. Runs without stats.json (failed or pending) are counted, not dropped.
 * A stats.json that is not a finished run's (not JSON, no "total" object of numbers with
 * gpu.cycles, a "provenance" that is no object) is an error naming it (SIM_ERR_INPUT), as is
 * a path longer than PATH_MAX; a directory that cannot be read is SIM_ERR_IO. */
int sweep_collect(const char *dir, FILE *out, struct sim_error *err);

/* Slurm resources of an emitted job array (#SBATCH --time, --mem, --partition, --account);
 * NULL: not asked for. */
struct sweep_slurm {
	const char *time, *mem, *partition, *account;
};

/* Run (or with emit_kind "slurm"/"parallel", only emit) the sweep in spec_path under
 * outroot/<name>/, jobs at a time, skipping runs that already have stats.json; collects
 * results.csv. results_dir (may be NULL) receives outroot/<name>. slurm (may be NULL): the
 * command line's resources, each replacing the spec's `slurm` section's (validated by
 * sweep_slurm_check). */
int sweep_run_spec(const char *spec_path, const char *outroot, int jobs, const char *emit_kind,
		   const struct sweep_slurm *slurm, char *results_dir, size_t results_dir_len,
		   struct sim_error *err);
/* NULL if value suits Slurm's option key ("time", "mem", "partition", "account"), else what
 * was expected. */
const char *sweep_slurm_check(const char *key, const char *value);
#endif
