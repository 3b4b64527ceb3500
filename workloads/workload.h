/* SPDX-License-Identifier: MIT */
/* Workload files (libconfig): a PTX module, buffers and symbols with initial contents, launches
 * and a result check, or a host routine compiled into the library (host = "bfs"). */
#ifndef WARPSIM_WORKLOAD_H
#define WARPSIM_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#include "../engine/sim_error.h"
#include "../frontend/fe.h"
#include "warpsim.h"

/* File format (workloads/README.md has the full reference):
 *   name = "vecadd";  ptx = "vecadd.ptx";          # PTX path relative to this file
 *   size = "small";                                  # selects sizes.small
 *   sizes = { small = { n = 4000; }; large = { n = 1048576; }; };
 *   params = { alpha = 2.0; };                       # size-independent named values
 *   regs_per_thread = { vecadd = 12; };              # per kernel, from ptxas -v
 *   buffers = ( { name = "a"; type = "f32"; count = "n"; init = "random"; seed = 1; } );
 *   symbols = ( { name = "centroids"; type = "f32"; init = "random"; seed = 2; } );
 *   launches = ( { kernel = "vecadd"; grid = "(n+255)/256"; block = 256;
 *                  args = ("a", "b", "c", "n"); repeat = 1; swap = ["in", "out"]; } );
 *   check = { buffer = "c"; reference = "vecadd"; abs_tol = 0.0; rel_tol = 0.0; };
 * Integers anywhere may be expressions over params ("n/256"). Every key is checked: unknown
 * keys, wrong types, unknown buffers/kernels, argument count/size mismatches and limits are
 * SIM_ERR_INPUT naming file:line and the setting. */

struct workload;

/* Load and validate a workload file; the size is the file's `size` setting. NULL with err. */
struct workload *workload_load(const char *path, struct sim_error *err);
/* Same with the size chosen by the caller (NULL: the file's), e.g. "large". */
struct workload *workload_load_size(const char *path, const char *size, struct sim_error *err);
void workload_destroy(struct workload *w);

/* Run on dev: fresh device memory, buffers and symbols initialised, launches (or the host
 * routine) executed in order, then the check. A failed check is SIM_ERR_PROGRAM naming the
 * buffer, the first mismatching index and both values. log (may be NULL) gets one line per
 * launch and the check result. Can be called again; each run starts from the initial data. */
int workload_run(struct workload *w, const struct fe_device *dev, FILE *log,
		 struct sim_error *err);

const char *workload_name(const struct workload *w);
const char *workload_size(const struct workload *w);       /* "small", "large", ... */
/* Kernel launches a run makes (each launch's repeat counted); 0 when a host routine decides
 * (bfs: until a flag clears). */
uint64_t workload_launch_count(const struct workload *w);
/* The selected size's values and the params as "n=4000 alpha=2" in definition order
 * (provenance); truncated to n bytes. */
void workload_params_describe(const struct workload *w, char *buf, size_t n);
const struct fe_module *workload_module(const struct workload *w);
/* Totals of the last workload_run (zeros before the first). */
void workload_totals(const struct workload *w, struct ws_totals *out);

/* Named value of the selected size or params (for host routines). SIM_ERR_INPUT if absent. */
/* The same, refused unless lo <= value <= hi: the error names the param, its value, the range
 * and the line that defines it (what names the limit: "bfs"). */
int workload_param_int_in(const struct workload *w, const char *name, int64_t lo, int64_t hi,
			  const char *who, int64_t *out, struct sim_error *err);
int workload_param_int(const struct workload *w, const char *name, int64_t *out,
		       struct sim_error *err);
int workload_param_float(const struct workload *w, const char *name, double *out,
			 struct sim_error *err);

/* The functional device (fe_launch_run_functional); stats may be NULL. */
struct fe_device workload_functional_device(struct ws_func_stats *stats);

#endif
