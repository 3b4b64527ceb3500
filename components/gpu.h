/* SPDX-License-Identifier: MIT */
/* The whole GPU assembled from configuration: clocks, cores, CTA dispatcher, interconnect,
 * L2 slices and memory controllers. The one place that knows how the parts are wired. */
#ifndef WARPSIM_GPU_H
#define WARPSIM_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/config.h"
#include "../engine/sim.h"
#include "../engine/stats.h"
#include "../frontend/fe.h"

/* Every module's settings (sim.*, gpu.*). */
int gpu_cfg_define_all(struct cfg *c, struct sim_error *err);
/* Cross-module checks after all files and overrides are in (sizes that contradict each
 * other, placement naming missing nodes...): SIM_ERR_CONFIG naming the setting's file:line. */
int gpu_cfg_validate(const struct cfg *c, struct sim_error *err);

struct gpu;

/* Build the machine. Stats are registered in st (owned by the caller, outlives the gpu). */
struct gpu *gpu_create(const struct cfg *c, struct stats *st, struct sim_error *err);
void gpu_destroy(struct gpu *g);

/* Run one kernel launch to completion on the timing model. SIM_ERR_FAULT on deadlock or a
 * broken invariant (report written to the gpu's report stream, stderr by default),
 * SIM_ERR_PROGRAM when the kernel itself is at fault. Stats get a per-kernel scope.
 * SIM_ERR_BUDGET (err->setting names the cap) when a budget of gpu_set_budget is reached inside
 * the launch: its statistics so far are recorded as the launch's, the totals include them, and
 * the machine must launch no more (CTAs are left in flight). */
int gpu_run_launch(struct gpu *g, struct fe_launch *l, struct sim_error *err);
/* Concurrent kernels (gpu.cta_dispatcher.concurrent_kernels = on-gpu): run the n launches of b
 * to completion side by side, launch i starting at the cycle after the last of after[] (indices
 * below i) ends, those without any at once. Per launch: start and end cycle (end one past its
 * last CTA's), its warp and thread instructions (counted on each core while it ran that
 * kernel), and a stats record each ("gpu.cycles", "gpu.start_cycle", "gpu.end_cycle",
 * "gpu.warp_insts", "gpu.thread_insts", "gpu.ctas", "gpu.sms_used"). The gpu.* totals count
 * the batch's span once (gpu.kernels + n). *section: the batch's start, end and the
 * differences of every stat over it (caller owns). Errors as gpu_run_launch's; SIM_ERR_USAGE
 * when gpu_batch_possible is false (the setting is off, a time series or a budget is set) or
 * a dependency is not earlier. */
struct gpu_batch_launch {
	struct fe_launch *l;
	const uint32_t *after;
	uint32_t n_after;
	uint64_t start_cycle, end_cycle, warp_insts, thread_insts; /* results */
};
struct json_t;
bool gpu_batch_possible(const struct gpu *g);
int gpu_run_batch(struct gpu *g, struct gpu_batch_launch *b, uint32_t n, struct json_t **section,
		  struct sim_error *err);
/* Caps on the totals over all launches (gpu.cycles, gpu.warp_insts, gpu.thread_insts); 0 = none.
 * Cycles are met exactly; an instruction cap is passed by less than one cycle's issue. */
struct gpu_budget {
	uint64_t cycles, warp_insts, thread_insts;
};
void gpu_set_budget(struct gpu *g, const struct gpu_budget *b);
/* A device for the workload runner / host API that runs launches on this gpu. */
struct fe_device gpu_device(struct gpu *g);
/* The L2 lines of [addr, addr+bytes) filled as a host copy fills them (tags only, no timing;
 * counted in l2.*.copy_fills): a functional launch's accesses warming the caches. Nothing in the
 * perfect-l1 and fixed-latency memory models, which have no L2. */
void gpu_warm_l2(struct gpu *g, uint64_t addr, uint64_t bytes);
/* sim.functional_launches_cache = warm: memory instruction wi, which the functional executor
 * ran for CTA cta of a launch, applied to the caches without timing. l1: through the L1 of the
 * core the CTA belongs to (mem_unit_warm: the L1's allocation and write policy decide what
 * reaches the L2's tags); the core is the one the timing model ran it on when the launch was
 * resumed (gpu_finish_launch_functionally) and the dispatcher had placed it, else the core
 * the dispatcher's first round gives CTA cta, cta mod cores (OWL Sec 2.1; which core a later
 * CTA would get depends on timing that a functional launch does not have). Without l1: every
 * active lane's line straight into the L2 (gpu_warm_l2). */
void gpu_warm(struct gpu *g, uint32_t cta, bool resumed, bool l1, const struct warp_inst *wi);
/* After gpu_run_launch returned SIM_ERR_BUDGET for l: the rest of l run by the functional
 * executor (fe_launch_finish_functional): the CTAs the SMs hold, in CTA-id order, from where
 * the timing model left them, then those the dispatcher had not placed. The machine runs no
 * more launches after it. livelock_warp_insts, observe and ctx as for
 * fe_launch_run_functional_observe (observe's cta is the CTA's id). */
struct gpu_finished {
	/* executed functionally, and the memory instructions the SMs had executed but memory had
	 * refused (sm_resident_ctas: never issued, so in no timing count): every warp instruction
	 * of the launch is in gpu_run_launch's counts or in these */
	uint64_t warp_insts, thread_insts;
	uint64_t replays, replay_threads;  /* of which those refused ones */
	uint32_t ctas_resumed, ctas_new;   /* CTAs continued / run from their start */
};
int gpu_finish_launch_functionally(struct gpu *g, struct fe_launch *l, uint64_t livelock_warp_insts,
				   fe_mem_observe_fn observe, void *ctx, struct gpu_finished *out,
				   struct sim_error *err);
/* The index of the next launch in the run (stats.json's "launch"): the CTA timeline's kernel
 * column (cta_dispatcher_set_next_kernel_index); without it, the timing launches so far. */
void gpu_set_next_launch_index(struct gpu *g, uint64_t index);
void gpu_set_report(struct gpu *g, FILE *report);
/* Optional CSV of per-CTA start/end cycle and core (PRO Fig 2), written as CTAs finish. */
void gpu_set_cta_timeline(struct gpu *g, FILE *csv);

/* A look at a running simulation (the progress line): everything so far, the current launch
 * included. */
struct gpu_progress {
	uint64_t cycles;          /* core cycles in kernels, the current one so far */
	uint64_t warp_insts;      /* issued so far */
	uint64_t thread_insts;    /* executed so far */
	uint64_t kernels_done;
	uint64_t ctas_done;       /* of the current launch */
	uint64_t ctas_total;      /* of the current launch (0 between launches) */
};
/* fn(ctx, p) is called at every watchdog check (sim.watchdog_cycles) while a launch runs; it
 * must not touch the gpu. Costs one call per period; NULL fn: none. */
void gpu_set_progress(struct gpu *g, void (*fn)(void *ctx, const struct gpu_progress *p), void *ctx);

/* Time series: a CSV row (components/sampler.h) into csv (owned by the caller) every
 * every_cycles core cycles of each launch and one for its tail. Reads counters only; the stats
 * are the same with it. Call before the first launch. */
int gpu_set_sampler(struct gpu *g, uint64_t every_cycles, FILE *csv, struct sim_error *err);

/* Totals over all launches so far. */
uint64_t gpu_core_cycles(const struct gpu *g);
uint64_t gpu_warp_insts(const struct gpu *g);
uint64_t gpu_thread_insts(const struct gpu *g);
struct sim *gpu_sim(struct gpu *g);
struct sim_clock *gpu_core_clock(struct gpu *g);

#endif
