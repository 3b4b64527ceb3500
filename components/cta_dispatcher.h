/* SPDX-License-Identifier: MIT */
/* CTA dispatcher: runs kernels one at a time, places CTAs on cores round-robin (CTA i to core
 * i mod N first, OWL Sec 2.1), then one CTA per finished CTA, within each core's resource limits.
 * With gpu.cta_dispatcher.concurrent_kernels = on-gpu it also runs several kernels at once, each
 * core running the CTAs of one kernel at a time. */
#ifndef WARPSIM_CTA_DISPATCHER_H
#define WARPSIM_CTA_DISPATCHER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"
#include "../engine/stats.h"
#include "../frontend/warp_inst.h"

struct cta_dispatcher;

/* What the dispatcher asks of a core (an SM, or a test double). Cycles are core-clock cycles. */
struct cta_dispatcher_core_ops {
	/* A kernel starts (before any CTA of it is launched anywhere): the core starts its
	 * per-kernel accounting at now_cycle. May be NULL. */
	void (*kernel_begin)(void *core, const struct fe_launch_info *info, uint64_t now_cycle);
	/* Start CTA cta_id of l on the core; the dispatcher has checked the resource limits.
	 * launch_seq is the global launch order (0, 1, 2, ... over the whole run). */
	int (*launch)(void *core, struct fe_launch *l, uint32_t cta_id, uint64_t launch_seq,
		      uint64_t now_cycle, struct sim_error *err);
	/* The kernel's last CTA finished at now_cycle: close the per-kernel accounting. May be NULL. */
	void (*kernel_end)(void *core, uint64_t now_cycle);
};

/* Per-core limits a CTA of the running kernel is checked against (from gpu.core.*). */
struct cta_dispatcher_limits {
	uint32_t warp_size;        /* lanes */
	uint32_t max_threads;      /* threads resident per core */
	uint32_t max_warps;        /* warp slots per core */
	uint32_t max_ctas;         /* CTA slots per core (already min'ed with max_ctas_per_core) */
	uint32_t registers;        /* 32-bit registers per core */
	uint32_t shared_bytes;     /* shared memory per core */
};

/* One CTA of the timeline (PRO Fig 2): where and when it ran. end_cycle is UINT64_MAX while running. */
struct cta_dispatcher_record {
	uint32_t kernel_idx;       /* 0.. in launch order */
	uint32_t cta_id;
	uint32_t core;
	uint64_t launch_seq;
	uint64_t start_cycle, end_cycle;
};

/* Settings gpu.cta_dispatcher.* (and reads gpu.core.* limits, declared by sm_cfg_define). */
int cta_dispatcher_cfg_define(struct cfg *c, struct sim_error *err);

/* Build for n_cores cores (gpu.core.count is not re-read, so tests may use fewer).
 * Registers stats "cta_dispatcher.*" when st is non-NULL. NULL with err on failure. */
struct cta_dispatcher *cta_dispatcher_create(const struct cfg *cfg, struct stats *st,
					     uint32_t n_cores, struct sim_error *err);
void cta_dispatcher_destroy(struct cta_dispatcher *d);

/* Attach core i (0 <= i < n_cores); core stays owned by the caller. */
void cta_dispatcher_attach_core(struct cta_dispatcher *d, uint32_t i,
				const struct cta_dispatcher_core_ops *ops, void *core);

/* Start kernel l (owned by the caller until cta_dispatcher_kernel_done()) described by info
 * (copied): the initial round-robin fill happens now. SIM_ERR_INPUT when one CTA exceeds a core
 * limit (the setting named is the limit); SIM_ERR_FAULT if a kernel is still running. */
int cta_dispatcher_launch_kernel_info(struct cta_dispatcher *d, struct fe_launch *l,
				      const struct fe_launch_info *info, uint64_t now_cycle,
				      struct sim_error *err);
static inline int cta_dispatcher_launch_kernel(struct cta_dispatcher *d, struct fe_launch *l,
					       uint64_t now_cycle, struct sim_error *err)
{
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	return cta_dispatcher_launch_kernel_info(d, l, &info, now_cycle, err);
}
/* Core `core` finished CTA cta_id at now_cycle: frees its resources and launches the next
 * waiting CTA there (synchronously; the core must accept a launch from inside its tick). */
int cta_dispatcher_cta_finished(struct cta_dispatcher *d, uint32_t core, uint32_t cta_id,
				uint64_t now_cycle, struct sim_error *err);

/* Called after each CTA's end is recorded (e.g. to stream the timeline as CTAs finish). */
void cta_dispatcher_set_finish_hook(struct cta_dispatcher *d,
				    void (*fn)(void *ctx, const struct cta_dispatcher_record *r), void *ctx);

/* CTAs of the running kernel not yet assigned to a core (PRO fast/slow TB phase).
 * Signature fits sched_core_view.ctas_waiting. */
bool cta_dispatcher_ctas_waiting(const void *d);
/* True when no kernel runs (none launched yet, or all CTAs of the last one finished). */
bool cta_dispatcher_kernel_done(const struct cta_dispatcher *d);
/* First cycle of the last kernel, and the first cycle after it (one past the cycle its last
 * CTA finished, UINT64_MAX while it runs): the kernel took end - start cycles. */
uint64_t cta_dispatcher_kernel_start_cycle(const struct cta_dispatcher *d);
uint64_t cta_dispatcher_kernel_end_cycle(const struct cta_dispatcher *d);
/* Limits of the running (or last) kernel and how many of its CTAs fit on one core. */
const struct cta_dispatcher_limits *cta_dispatcher_limits(const struct cta_dispatcher *d);
uint32_t cta_dispatcher_ctas_per_core(const struct cta_dispatcher *d);
/* CTAs of the running (or last) kernel assigned to cores so far: ids 0 .. this - 1 (ids go out
 * in order). */
uint32_t cta_dispatcher_ctas_started(const struct cta_dispatcher *d);
/* The core CTA cta_id of the running (or last) kernel went to; false when it has not gone to
 * one (not started yet, or no such CTA). */
bool cta_dispatcher_cta_core(const struct cta_dispatcher *d, uint32_t cta_id, uint32_t *core);
/* The index the next kernel gets in the timeline (its launch's index among all the run's
 * launches, functional ones included, when some are not given to the dispatcher); without
 * it, the kernels the dispatcher ran before it. */
void cta_dispatcher_set_next_kernel_index(struct cta_dispatcher *d, uint32_t kernel_idx);
/* CTAs resident on a core now. */
uint32_t cta_dispatcher_core_ctas(const struct cta_dispatcher *d, uint32_t core);

/* Timeline of every CTA launched so far, in launch order (valid until the next launch_kernel). */
const struct cta_dispatcher_record *cta_dispatcher_timeline(const struct cta_dispatcher *d, uint64_t *n);
/* CSV "kernel,cta,core,launch_seq,start_cycle,end_cycle" with a header line, every kernel so far.
 * end_cycle is the cycle the CTA's last warp left. */
int cta_dispatcher_write_timeline_csv(const struct cta_dispatcher *d, FILE *out, struct sim_error *err);
/* Only the rows of the last kernel, no header (to append after each launch). */
int cta_dispatcher_write_kernel_timeline_csv(const struct cta_dispatcher *d, FILE *out, struct sim_error *err);

/* Rows of every CTA record from index from on (a concurrent batch's), no header; records of
 * CTAs never placed are left out. record_count: records so far (the next kernel's first). */
int cta_dispatcher_write_timeline_from(const struct cta_dispatcher *d, FILE *out, uint64_t from,
				       struct sim_error *err);
uint64_t cta_dispatcher_record_count(const struct cta_dispatcher *d);

/* ---- concurrent kernels (gpu.cta_dispatcher.concurrent_kernels = on-gpu) -------------
 * Kernels added with cta_dispatcher_add_kernel run side by side, as GPGPU-Sim's do without
 * -gpgpu_concurrent_kernel_sm: an idle core (no CTA resident) takes CTAs of one kernel, up to
 * that kernel's occupancy, and keeps to that kernel until none of its CTAs is left to place and
 * its own have finished; it then takes the oldest running kernel with CTAs left to place
 * (oldest: added first). A kernel added while others run gets the idle cores, round after
 * round as a kernel launched alone, and waits for cores to empty if none is idle. The cores
 * get kernel_begin when they take a kernel and kernel_end when they give it up.
 * Not to be mixed with cta_dispatcher_launch_kernel while any such kernel runs. */
struct cta_dispatcher_kernel_hooks {
	/* core starts (begin) or stops running the CTAs of the kernel tagged tag at now_cycle:
	 * what the core counted in between is that kernel's. May be NULL. */
	void (*core_kernel)(void *ctx, uint32_t core, uint32_t tag, bool begin, uint64_t now_cycle);
	/* every CTA of the kernel tagged tag finished; end_cycle is one past the cycle the last
	 * one finished (called from inside that core's tick: the owner must not touch the
	 * cores from here). May be NULL. */
	void (*kernel_done)(void *ctx, uint32_t tag, uint64_t end_cycle);
};
void cta_dispatcher_set_kernel_hooks(struct cta_dispatcher *d,
				     const struct cta_dispatcher_kernel_hooks *hooks, void *ctx);
/* The setting asks for concurrent kernels. */
bool cta_dispatcher_concurrent(const struct cta_dispatcher *d);
/* Start kernel l (owned by the caller until its kernel_done) alongside the running ones, at
 * now_cycle, tagged tag for the hooks; kernel_idx is its timeline rows' kernel column (the
 * launch's index in stats.json). Errors as cta_dispatcher_launch_kernel_info. A kernel of no
 * CTA is done at once (kernel_done from inside this call). */
int cta_dispatcher_add_kernel(struct cta_dispatcher *d, struct fe_launch *l,
			      const struct fe_launch_info *info, uint32_t tag, uint32_t kernel_idx,
			      uint64_t now_cycle, struct sim_error *err);
/* 0 when one CTA of info fits on a core; else add_kernel's SIM_ERR_INPUT naming the limit
 * (checked for a whole batch before any of it starts). */
int cta_dispatcher_check_fit(struct cta_dispatcher *d, const struct fe_launch_info *info,
			     struct sim_error *err);
/* Kernels added and not done. */
uint32_t cta_dispatcher_running_kernels(const struct cta_dispatcher *d);

#endif
