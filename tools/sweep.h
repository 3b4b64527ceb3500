/* SPDX-License-Identifier: MIT */
/* Sweep results: collect every run's stats.json under a directory into one CSV. */
#ifndef WARPSIM_SWEEP_H
#define WARPSIM_SWEEP_H

#include <stdio.h>

#include "../engine/sim_error.h"

/* Walk dir for <config>/<workload>/<variant>/stats.json, write dir/results.csv (atomically)
 * with columns config, workload, variant and every "gpu.*" total stat, rows sorted. Prints a
 * one-line summary to out. Runs without stats.json (failed or pending) are listed, not dropped. */
int sweep_collect(const char *dir, FILE *out, struct sim_error *err);

#endif
