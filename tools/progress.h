/* SPDX-License-Identifier: MIT */
/* The progress line of `warpsim run`: simulated cycles, kernels, IPC, speed and an ETA, printed
 * from the watchdog's periodic call at most every interval_s of wall-clock time. */
#ifndef WARPSIM_PROGRESS_H
#define WARPSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../components/gpu.h"

struct progress {
	FILE *out;
	bool tty;                 /* rewrite one line with \r; else one line per report */
	double interval_s;        /* wall-clock seconds between lines (0: every call) */
	uint64_t kernels_planned; /* launches the workload makes, 0 if unknown (host routine) */
	double t0_s, last_s;      /* monotonic start and last line */
	int width;                /* characters of the line on screen (tty) */
	uint64_t lines;           /* lines printed */
	/* budgets (sim.max_thread_insts, max_warp_insts, max_cycles; 0 = none): the line shows the
	 * share spent of the one nearest its cap, and an ETA to it when that comes first */
	uint64_t max_thread_insts, max_warp_insts, max_cycles;
};

void progress_init(struct progress *p, FILE *out, bool tty, double interval_s, uint64_t kernels_planned);
/* The budgets of configuration c (sim.max_thread_insts, _warp_insts, _cycles) for the line. */
void progress_set_budget(struct progress *p, const struct cfg *c);
/* gpu_set_progress callback (ctx = struct progress *). */
void progress_report(void *ctx, const struct gpu_progress *gp);
/* Format one line into buf (tests); elapsed_s is wall time since the start. */
void progress_format(const struct progress *p, const struct gpu_progress *gp, double elapsed_s, char *buf,
		     size_t n);
/* Clear the line on a terminal, so that what follows starts at column 0. */
void progress_finish(struct progress *p);

#endif
