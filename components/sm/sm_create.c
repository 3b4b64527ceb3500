/* SPDX-License-Identifier: MIT */
/* sm_create: an SM wired to the real policies (scheduler/) and memory unit (memory/). Kept apart
 * from sm.c so tests that use doubles link without those modules. */
#include "sm_internal.h"

static void *mem_create(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t sm_id,
			struct sim_clock *clk, const struct mem_unit_ports *ports, struct sim_error *err)
{
	return mem_unit_create(cfg, sim, st, sm_id, clk, ports, err);
}

static void mem_destroy(void *m) { mem_unit_destroy(m); }

static bool mem_try_issue(void *m, const struct warp_inst *wi, uint64_t token, uint64_t now_cycle)
{
	return mem_unit_try_issue(m, wi, token, now_cycle);
}

static uint64_t mem_outstanding(const void *m) { return mem_unit_outstanding(m); }
static bool mem_ifetch(void *m, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle)
{
	return mem_unit_ifetch(m, line_addr, bytes, now_cycle);
}
static void mem_kernel_begin(void *m, uint64_t now) { mem_unit_kernel_begin(m, now); }
static void mem_warm(void *m, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx)
{
	mem_unit_warm(m, wi, below, ctx);
}
static uint64_t mem_epoch(const void *m) { return mem_unit_epoch(m); }
static bool mem_refusals_stable(const void *m, uint64_t now) { return mem_unit_refusals_stable(m, now); }
static void mem_repeat_refusals(void *m) { mem_unit_repeat_refusals(m); }
static bool mem_refuse_now(void *m, const struct warp_inst *wi, uint64_t now)
{
	return mem_unit_refuse_now(m, wi, now);
}
static bool mem_stage_busy(const void *m, uint64_t now) { return mem_unit_stage_busy(m, now); }
static bool mem_note_refusal(const void *m, const struct warp_inst *wi, struct mem_refusal_note *note)
{
	return mem_unit_note_refusal(m, wi, note);
}
static bool mem_refuse_again(void *m, const struct mem_refusal_note *note, uint64_t now)
{
	return mem_unit_refuse_again(m, note, now);
}

const struct sm_hooks sm_real_hooks = {
	.issue_create = sched_issue_create,
	.fetch_create = sched_fetch_create,
	.sched_destroy = sched_destroy,
	.mem_try_issue = mem_try_issue,
	.mem_outstanding = mem_outstanding,
	.mem_create = mem_create,
	.mem_destroy = mem_destroy,
	.mem_epoch = mem_epoch,
	.mem_refusals_stable = mem_refusals_stable,
	.mem_repeat_refusals = mem_repeat_refusals,
	.mem_refuse_now = mem_refuse_now,
	.mem_stage_busy = mem_stage_busy,
	.mem_note_refusal = mem_note_refusal,
	.mem_refuse_again = mem_refuse_again,
	.mem_ifetch = mem_ifetch,
	.mem_kernel_begin = mem_kernel_begin,
	.mem_warm = mem_warm,
};

struct sm *sm_create(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t core_id,
		     uint32_t n_cores, struct sim_clock *core_clk, struct noc *noc, int noc_node,
		     struct cta_dispatcher *d, struct sim_error *err)
{
	struct sm_hooks h = sm_real_hooks;
	return sm_create_hooked(cfg, sim, st, core_id, n_cores, core_clk, noc, noc_node, d, &h, err);
}
