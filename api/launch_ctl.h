/* SPDX-License-Identifier: MIT */
/* Which launches of a timing machine are simulated and which run functionally (issue 33): the
 * budgets (sim.max_*, sim.on_budget), launch selection (sim.timing_launches), launch sampling
 * (sim.sample_launches) and what stats.json says of them. Every launch passes api_ctl_launch. */
#ifndef WARPSIM_API_LAUNCH_CTL_H
#define WARPSIM_API_LAUNCH_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../components/gpu.h"
#include "../workloads/warpsim.h"

/* sim.timing_launches parsed: a launch is timed when any item matches it. */
enum api_sel_kind { API_SEL_RANGE, API_SEL_EVERY, API_SEL_KERNEL };
struct api_sel_item {
	enum api_sel_kind kind;
	uint64_t lo, hi;   /* RANGE: lo..hi inclusive; EVERY: hi = K */
	char *kernel;      /* KERNEL: the name */
};
struct api_sel {
	struct api_sel_item *items;
	uint32_t n;        /* 0: every launch */
};
/* Parse spec (the value of sim.timing_launches in c); SIM_ERR_CONFIG naming the setting's
 * file:line and the item at fault. sel_free is safe on a zeroed or failed sel. */
int api_sel_parse(const struct cfg *c, struct api_sel *sel, struct sim_error *err);
void api_sel_free(struct api_sel *sel);
bool api_sel_match(const struct api_sel *sel, uint64_t launch, const struct fe_launch_info *info);

/* The issue-33 settings of a configuration checked as a machine would (warpsim cuda checks them
 * before it starts the program). */
int api_ctl_check_cfg(const struct cfg *c, struct sim_error *err);

struct api_sampler;

struct api_ctl {
	struct gpu *g;
	struct stats *st;
	struct fe_device timing;       /* the timing model's device */
	struct ws_func_stats fstats;   /* functional launches on this timing machine (gpu.functional.*) */
	/* settings */
	uint64_t max_cycles, max_warp_insts, max_thread_insts, max_launches;
	bool on_budget_functional;
	bool warm;                     /* sim.functional_launches_cache = warm or warm-l2 */
	bool warm_l1;                  /* ... = warm: through the L1 of the CTA's core */
	struct api_sel sel;
	struct api_sampler *sampler;   /* NULL: sampling off */
	/* state */
	uint64_t timing_launches;
	bool capped, stopped;          /* a budget was reached; stop: no launch runs any more */
	const char *cap_limit;         /* the key of the budget reached */
	uint64_t cap_value, cap_launch, cap_cycle;
	bool resuming;                 /* the functional executor finishes a capped launch */
	double timing_cpu_s, functional_cpu_s;
};

/* The functional executor's counters f as gpu.functional.launches, .warp_insts, .thread_insts
 * (a timing machine's functional launches, or a functional machine's every launch). */
void api_register_functional_stats(struct stats *st, struct ws_func_stats *f);
/* Read the settings of c for the timing machine g (stats st); register gpu.functional.*. */
int api_ctl_init(struct api_ctl *ctl, const struct cfg *c, struct gpu *g, struct stats *st,
		 struct sim_error *err);
void api_ctl_fini(struct api_ctl *ctl);
/* Run l in timing mode or functionally, as the settings decide. SIM_ERR_BUDGET when the budget
 * stops the run (at this launch or an earlier one). With sim.on_budget = functional, the launch
 * a budget cuts is finished by the functional executor from where timing stopped: its record
 * has "mode": "timing+functional" and a "functional" object (warp and thread instructions,
 * CTAs resumed and started), its functional instructions count in gpu.functional.*. */
int api_ctl_launch(struct api_ctl *ctl, struct fe_launch *l, struct sim_error *err);
/* stats.json's "budget" and "sampling" sections and the records' estimates, as of now. */
void api_ctl_publish(struct api_ctl *ctl);
/* Lines for a run's summary: where the budget ended it, the functional launches, the sampling
 * estimate (nothing when none applies; ctl may be NULL). */
void api_ctl_print(const struct api_ctl *ctl, FILE *out);

#endif
