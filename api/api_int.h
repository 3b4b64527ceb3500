/* SPDX-License-Identifier: MIT */
/* The machine behind include/warpsim.h, for warpsim's own tools (cmd_run): its configuration,
 * stats, timing model and device. Not installed. */
#ifndef WARPSIM_API_INT_H
#define WARPSIM_API_INT_H

#include "../components/gpu.h"
#include "../include/warpsim.h"

/* warpsim_create with the error as the modules report it (file, line, setting). */
struct warpsim *warpsim_create_sim(const struct warpsim_options *o, struct sim_error *err);
struct cfg *warpsim_cfg(struct warpsim *ws);
struct stats *warpsim_stats(struct warpsim *ws);
struct gpu *warpsim_gpu(struct warpsim *ws);          /* NULL when functional */
/* The check each functionally executed launch makes while it runs (fe_launch_set_poll):
 * every launch of a functional machine, the launches a timed run executes functionally. */
void warpsim_set_functional_poll(struct warpsim *ws, fe_poll_fn poll, void *ctx);
/* The device every launch goes through: after a PROGRAM or FAULT it refuses further launches
 * with that status (include/warpsim.h, warpsim_launch). */
struct fe_device warpsim_device(struct warpsim *ws);
/* Launch control of a timing machine (api/launch_ctl.h: budget reached, modes); NULL on the
 * functional executor. */
struct api_ctl;
const struct api_ctl *warpsim_ctl(struct warpsim *ws);
/* Warp and thread instructions of the functional executor so far. */
void warpsim_functional_totals(const struct warpsim *ws, uint64_t *warp_insts,
			       uint64_t *thread_insts);
/* The run's provenance (engine/stats.h: stats_set_provenance takes it) and how to append it to
 * config.cfg as comments (trailer(f, ctx) after the resolved settings; NULL for none). */
void warpsim_set_provenance(struct warpsim *ws, struct json_t *prov,
			    void (*trailer)(FILE *f, const void *ctx), const void *ctx);
/* sim_error -> warpsim_error (err may be NULL) and warpsim_last_error; returns the code. */
int warpsim_error_from(struct warpsim_error *err, const struct sim_error *e);

#endif
