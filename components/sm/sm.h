/* SPDX-License-Identifier: MIT */
/* Streaming multiprocessor: fetch (I-cache, I-buffer), issue schedulers, scoreboard, SP/SFU/LDST
 * units, barriers, warp exit, CTA completion and per-cycle stall accounting, on the core clock. */
#ifndef WARPSIM_SM_H
#define WARPSIM_SM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../engine/config.h"
#include "../../engine/sim.h"
#include "../../engine/stats.h"
#include "../../frontend/warp_inst.h"
#include "../../memory/mem_req.h"
#include "../../scheduler/policy.h"
#include "../cta_dispatcher.h"

struct sm;
struct noc;

/* Settings gpu.core.* (count, clock_mhz, warp_size, simt_width, max_warps, max_threads,
 * max_ctas, registers, shared_kb, n_schedulers, ibuf_entries, icache.*, latency.*, units.*). */
int sm_cfg_define(struct cfg *c, struct sim_error *err);

/* Build core core_id of n_cores: its issue and fetch policies (gpu.core.scheduler.*) and its
 * memory unit (memory/mem_req.h), registered as a component on core_clk and attached to the
 * dispatcher d as core core_id. noc may be NULL (perfect-l1 / fixed-latency memory). Stats
 * "sm.<core_id>.*". NULL with err (config errors name the setting). */
struct sm *sm_create(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t core_id,
		     uint32_t n_cores, struct sim_clock *core_clk, struct noc *noc, int noc_node,
		     struct cta_dispatcher *d, struct sim_error *err);

/* Test seams and the assembly's providers. sm_create() fills every member with the real
 * policies (scheduler/) and memory unit (memory/). A test may instead give ops tables for the
 * policies (the SM wraps them in a struct sched and calls init/fini), and a memory double
 * (mem_create NULL: mem_ctx + mem_try_issue), which must call sm_mem_done() exactly once per
 * accepted instruction. With mem_create, mem_try_issue/mem_outstanding act on what it made. */
struct sm_hooks {
	const struct sched_ops *issue_ops, *fetch_ops;
	struct sched *(*issue_create)(const struct cfg *cfg, const struct sched_core_view *core,
				      struct sim_error *err);
	struct sched *(*fetch_create)(const struct cfg *cfg, const struct sched_core_view *core,
				      struct sched *issue, struct sim_error *err);
	void (*sched_destroy)(struct sched *s);
	void *mem_ctx;
	bool (*mem_try_issue)(void *mem_ctx, const struct warp_inst *wi, uint64_t token, uint64_t now_cycle);
	uint64_t (*mem_outstanding)(const void *mem_ctx);
	void *(*mem_create)(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t sm_id,
			    struct sim_clock *core_clk, const struct mem_unit_ports *ports,
			    struct sim_error *err);
	void (*mem_destroy)(void *mem_ctx);
	/* Optional, speed only (memory/mem_req.h "Repeating refusals"): with all three, a cycle
	 * in which every ready warp was refused by memory is repeated cheaply while nothing
	 * changes. NULL: every cycle is simulated in full (results are the same). */
	uint64_t (*mem_epoch)(const void *mem_ctx);
	bool (*mem_refusals_stable)(const void *mem_ctx, uint64_t now_cycle);
	void (*mem_repeat_refusals)(void *mem_ctx);
	/* Optional, speed only (mem_unit_refuse_now): a retried instruction refused without the
	 * SM's issue bookkeeping; true: refused (and counted) as mem_try_issue would. */
	bool (*mem_refuse_now)(void *mem_ctx, const struct warp_inst *wi, uint64_t now_cycle);
	/* Optional, speed only (mem_unit_note_refusal, mem_unit_refuse_again): a note of the
	 * latest refusal, and a later retry of the same instruction refused and counted from its
	 * note when memory would refuse it again. NULL: every retry goes to memory (results are the
	 * same). */
	bool (*mem_note_refusal)(const void *mem_ctx, const struct warp_inst *wi, struct mem_refusal_note *note);
	bool (*mem_refuse_again)(void *mem_ctx, const struct mem_refusal_note *note, uint64_t now_cycle);
	/* Needed by gpu.core.inorder_backend (mem_unit_stage_busy): an earlier memory instruction
	 * still holds the memory access stage at now_cycle. NULL: it never does. */
	bool (*mem_stage_busy)(const void *mem_ctx, uint64_t now_cycle);
	/* Optional (gpu.core.icache.miss_path memory): send an I-cache line read below L1
	 * (mem_unit_ifetch); the memory calls sm_ifetch_done when it arrives. Used only with
	 * mem_create and a NoC; otherwise misses take icache.miss_latency_cycles. */
	bool (*mem_ifetch)(void *mem_ctx, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle);
	/* Optional (mem_unit_kernel_begin): a kernel starts on this SM at now_cycle, before its
	 * first CTA (the L1D flush at launch). NULL: nothing to do. */
	void (*mem_kernel_begin)(void *mem_ctx, uint64_t now_cycle);
	/* Optional (mem_unit_warm): a functionally executed memory instruction applied to the L1
	 * tags without timing. NULL: nothing to warm. */
	void (*mem_warm)(void *mem_ctx, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx);
};
struct sm *sm_create_hooked(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t core_id,
			    uint32_t n_cores, struct sim_clock *core_clk, struct noc *noc, int noc_node,
			    struct cta_dispatcher *d, const struct sm_hooks *hooks, struct sim_error *err);
/* The hooks sm_create uses: the real policies (scheduler/) and memory unit (memory/). Tests
 * start from a copy and replace only what they script. */
extern const struct sm_hooks sm_real_hooks;
void sm_destroy(struct sm *sm);

/* Whether one more CTA of this kernel fits now (threads, warps, CTA slots, registers, shared). */
bool sm_can_accept_cta(const struct sm *sm, const struct fe_launch_info *info);
/* Start CTA cta_id of l (normally called by the dispatcher; may be called from inside the
 * SM's own tick). SIM_ERR_FAULT if it does not fit; front-end errors pass through. */
int sm_launch_cta(struct sm *sm, struct fe_launch *l, uint32_t cta_id, uint64_t launch_seq,
		  struct sim_error *err);

/* sim.functional_launches_cache = warm: memory instruction wi of a CTA the functional
 * executor ran for this core, applied to its L1 (mem_unit_warm); what would go below the L1
 * is handed to below. Nothing with a memory double. */
void sm_warm(struct sm *sm, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx);

/* The engine component (for noc_set_sink and wake-ups). */
struct sim_component *sm_component(struct sm *sm);
/* mem_done_fn for memory/: the instruction behind token completed at now_ps. */
void sm_mem_done(void *sm, uint64_t token, uint64_t now_ps);
/* mem_missed_fn for memory/: its data comes from below L1 (view.waiting_miss). A memory double
 * given without mem_create never calls it: every long-latency load then counts as missed. */
void sm_mem_missed(void *sm, uint64_t token, uint64_t now_ps);
/* mem_ifetch_done_fn for memory/: the I-cache line at line_addr arrived at now_ps. */
void sm_ifetch_done(void *sm, uint64_t line_addr, uint64_t now_ps);
/* First error raised inside a tick (a kernel fault from fe_warp_execute, a failed CTA launch):
 * the SM then requests the simulation to stop. NULL when none. */
const struct sim_error *sm_error(const struct sm *sm);

/* Scheduler-cycle classes. A scheduler cycle is exactly one of these. */
enum sm_cycle_class {
	SM_CYC_ISSUED,
	SM_CYC_STRUCTURAL,  /* a valid, hazard-free instruction found its unit or memory busy */
	SM_CYC_DATA,        /* scoreboard: waiting on a pending register write */
	SM_CYC_CONTROL,     /* I-buffer flushed by a taken branch / reconvergence, not refilled yet */
	SM_CYC_FETCH,       /* I-buffer empty or not decoded yet (fetch order, I-cache miss) */
	SM_CYC_BARRIER,     /* every warp that has an instruction waits at bar.sync */
	SM_CYC_EXIT,        /* only finished warps waiting for their CTA to finish (or for stores) */
	SM_CYC_NO_WARP,     /* no warp on this scheduler */
	SM_CYC_COUNT
};
const char *sm_cycle_class_name(enum sm_cycle_class c);

/* Counters of one SM (totals over the run; the stats registry also scopes them per kernel). */
struct sm_counters {
	uint64_t cycles;                     /* core cycles inside kernels */
	uint64_t warp_insts, thread_insts;
	uint64_t sched_cycles[SM_CYC_COUNT]; /* summed over the SM's schedulers */
	uint64_t issue_cycles;               /* cycles with at least one issue */
	uint64_t memory_block_cycles;        /* OWL: warps present, all waiting on memory */
	uint64_t no_warp_cycles;             /* OWL: no warps while the kernel runs */
	uint64_t rtru_wasted_warp_cycles;    /* BAWS Eq 1 numerator, summed over warp-phases */
	uint64_t rtru_phase_warp_cycles;     /* BAWS Eq 1 denominator N * maxT, summed */
	uint64_t barriers_released, ctas_finished, warps_exited;
	uint64_t fwd_events;                 /* barrier arrivals (memory progress: fe_launch_progress) */
	uint64_t icache_hits, icache_misses, icache_refusals, ibuf_flushes, mem_refusals;
	uint64_t wb_conflicts;               /* issues refused: the unit's result slot was taken */
	/* PAWS Sec V (Fig 10/11): cycles with at least one ALU (SP/SFU) / memory instruction in
	 * flight, both at once, and the in-flight instruction-cycles (load = these / cycles). */
	uint64_t alu_busy_cycles, mem_busy_cycles, alu_mem_overlap_cycles;
	uint64_t alu_inflight_inst_cycles, mem_inflight_inst_cycles;
};
void sm_get_counters(const struct sm *sm, struct sm_counters *out);
/* Counts the cycles before `cycle` that the SM slept through, with the classes they hold, so
 * that its counters cover every cycle before it however long it sleeps (the time series:
 * components/sampler.c). Changes no total and nothing the simulation does. */
void sm_sync_counters(struct sm *sm, uint64_t cycle);
/* sim.check with the kernel finished and the simulation quiet: no CTA, warp, scoreboard entry,
 * barrier count or memory instruction left. 0 or SIM_ERR_FAULT naming the leak. */
int sm_check_kernel_end(const struct sm *sm, struct sim_error *err);
/* For a kernel stopped unfinished: "sm.N CTA c warp w (threads a..b) <state> at pc p '<PTX>'
 * (line l)" for the SM's first unfinished warp into buf; 0 (buf untouched) if it has none. */
int sm_describe_stuck(const struct sm *sm, char *buf, size_t n);
/* The same for the first warp still running (not at a barrier, not draining): a livelock's
 * spinning warp. 0 if none. */
int sm_describe_running(const struct sm *sm, char *buf, size_t n);
/* The CTAs resident now, in CTA-slot order, into out[SCHED_MAX_CTAS]; returns how many. After
 * a budget stopped a launch there, the functional executor finishes them from where their
 * warps stand (the SM executes an instruction when it issues it): at_barrier[k] marks warp k
 * of the CTA held at bar.sync. A memory instruction that memory refused has been executed
 * but not issued (it waits to be retried as is): such instructions are counted in replays
 * (warp instructions) and replay_threads (their active lanes), not in the SM's counters.
 * The CTAs stay the SM's. */
struct sm_resident_cta {
	struct fe_cta *fc;
	uint32_t cta_id;
	uint32_t replays;
	uint64_t replay_threads;
	uint8_t at_barrier[SCHED_MAX_WARPS];
};
uint32_t sm_resident_ctas(const struct sm *sm, struct sm_resident_cta *out);
/* Forward-progress events of the SM so far (part of the livelock watchdog's signature, with
 * the launch's memory progress, components/gpu.c): barrier arrivals, warp exits, CTA
 * completions. Loads do not count (a warp spinning on a flag keeps loading it), nor do stores
 * by themselves: whether they changed memory is the front end's to say. */
uint64_t sm_forward_progress(const struct sm *sm);
uint32_t sm_schedulers(const struct sm *sm);

#endif
