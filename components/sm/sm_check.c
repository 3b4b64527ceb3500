/* SPDX-License-Identifier: MIT */
/* The SM outside its cycles. sim.check at the end of a kernel: an SM must hand back every
 * warp, CTA, scoreboard entry, barrier count and memory instruction it took; what is left names
 * the leak. What a kernel stopped unfinished left on the SM: its stuck warps, its resident
 * CTAs. Functional launches warming its L1. */
#include <string.h>

#include "sm_internal.h"

static int leak(const struct sm *sm, struct sim_error *err, const char *what, unsigned long long n)
{
	return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
			     "%s at kernel end: %s is %llu, expected 0", sm->name, what, n);
}

int sm_check_kernel_end(const struct sm *sm, struct sim_error *err)
{
	if (sm->n_resident_ctas)
		return leak(sm, err, "resident CTAs", sm->n_resident_ctas);
	if (sm->n_resident_warps || sm->n_live_warps)
		return leak(sm, err, "resident warps", sm->n_resident_warps + sm->n_live_warps);
	if (sm->mem_inflight)
		return leak(sm, err, "memory instructions in flight (replies missing)", sm->mem_inflight);
	if (sm->mem_outstanding && sm->mem_outstanding(sm->mem))
		return leak(sm, err, "requests held by the memory unit (replies missing)",
			    sm->mem_outstanding(sm->mem));
	if (sm->wi_pool.allocated != sm->wi_pool.freed)
		return leak(sm, err, "warp instructions not returned to the pool",
			    sm->wi_pool.allocated - sm->wi_pool.freed);
	for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) {
		const struct sm_warp *wp = &sm->warps[w];
		char what[96];
		if (wp->state != SM_W_FREE) {
			snprintf(what, sizeof what, "warp slot %u state (not free)", w);
			return leak(sm, err, what, wp->state);
		}
		/* Entries whose writes became visible are freed lazily (next scoreboard look), so
		 * only one still waiting for a memory reply or holding an instruction is a leak. */
		unsigned long long waiting = 0;
		for (uint32_t i = 0; i < SM_SB_ENTRIES; i++)
			waiting += wp->sb[i].used && (wp->sb[i].release_cycle == UINT64_MAX || wp->sb[i].wi);
		if (waiting || wp->mem_pending || wp->replay) {
			snprintf(what, sizeof what,
				 "warp slot %u scoreboard entries awaiting memory + pending memory", w);
			return leak(sm, err, what, waiting + wp->mem_pending + (wp->replay != NULL));
		}
	}
	for (uint32_t c = 0; c < SCHED_MAX_CTAS; c++) {
		const struct sm_cta *ct = &sm->ctas[c];
		if (ct->used || ct->n_at_barrier || ct->n_live) {
			char what[96];
			snprintf(what, sizeof what, "CTA slot %u warps at the barrier + live", c);
			return leak(sm, err, what, (unsigned long long)ct->n_at_barrier + ct->n_live + ct->used);
		}
	}
	return 0;
}

static int describe(const struct sm *sm, bool running_only, char *buf, size_t n)
{
	static const char *const why[] = {"free", "running", "waiting at bar.sync", "draining memory",
					   "exited"};
	for (uint32_t i = 0; i < sm->max_warps; i++) {
		const struct sm_warp *w = &sm->warps[i];
		if (w->state == SM_W_FREE || w->state == SM_W_EXITED)
			continue;
		if (running_only && w->state != SM_W_ACTIVE)
			continue;
		const struct sm_cta *cta = &sm->ctas[w->cta_slot];
		uint32_t idx = 0; /* the warp's index within its CTA gives its threads */
		while (idx < cta->n_warps && cta->warps[idx] != i)
			idx++;
		uint32_t pc = sm->views[i].pc;
		bool known = sm->insts && pc < sm->n_insts;
		snprintf(buf, n, "%s CTA %u warp %u (threads %u..%u) %s at pc %u '%s' (line %u)", sm->name,
			 cta->cta_id, idx, idx * sm->warp_size, idx * sm->warp_size + sm->warp_size - 1,
			 why[w->state], pc, known && sm->insts[pc].text ? sm->insts[pc].text : "?",
			 known ? sm->insts[pc].src_line : 0);
		return 1;
	}
	return 0;
}

int sm_describe_stuck(const struct sm *sm, char *buf, size_t n)
{
	return describe(sm, false, buf, n);
}

int sm_describe_running(const struct sm *sm, char *buf, size_t n)
{
	return describe(sm, true, buf, n);
}

uint64_t sm_forward_progress(const struct sm *sm)
{
	return sm->c.fwd_events + sm->c.warps_exited + sm->c.ctas_finished;
}

uint32_t sm_resident_ctas(const struct sm *sm, struct sm_resident_cta *out)
{
	uint32_t n = 0;
	for (uint32_t c = 0; c < SCHED_MAX_CTAS; c++) {
		const struct sm_cta *ct = &sm->ctas[c];
		if (!ct->used || !ct->fc)
			continue;
		struct sm_resident_cta *r = &out[n++];
		r->fc = ct->fc;
		r->cta_id = ct->cta_id;
		r->replays = 0;
		r->replay_threads = 0;
		memset(r->at_barrier, 0, sizeof r->at_barrier);
		for (uint32_t i = 0; i < ct->n_warps; i++) {
			const struct sm_warp *w = &sm->warps[ct->warps[i]];
			r->at_barrier[i] = w->state == SM_W_BARRIER;
			if (w->replay) {
				r->replays++;
				r->replay_threads += w->replay->n_active;
			}
		}
	}
	return n;
}

void sm_warm(struct sm *sm, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx)
{
	if (sm->mem_warm)
		sm->mem_warm(sm->mem, wi, below, ctx);
}
