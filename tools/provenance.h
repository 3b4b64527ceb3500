/* SPDX-License-Identifier: MIT */
/* Provenance of a run: what made its stats (version, commit, command line, inputs, seed) and
 * where and when, so that a results.csv row can be rerun; kept out of the simulated stats. */
#ifndef WARPSIM_PROVENANCE_H
#define WARPSIM_PROVENANCE_H

#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "../engine/config.h"
#include "../workloads/workload.h"
#include "cli.h"

/* The provenance object of `warpsim run` (argv as cmd_run receives it, argv[0] = "run"):
 * version, git_commit, command (shell-quoted, this binary's absolute path first), cwd,
 * configs, overrides, workload, workload_name, size, params, seed, host, date_utc (start),
 * wall_s. w may be NULL (the workload did not load). NULL when out of memory. */
json_t *prov_create(int argc, char **argv, const struct cli_opts *o, const struct cfg *c,
		    const struct workload *w, time_t start, double wall_s);
/* The same as "# key: value" comment lines (config.cfg: comments only, never settings). */
void prov_write_comments(FILE *f, const json_t *prov);
/* A member as text: strings as they are, numbers printed, arrays joined by spaces. "" if absent. */
void prov_value_text(const json_t *v, char *buf, size_t n);

#endif
