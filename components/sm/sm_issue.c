/* SPDX-License-Identifier: MIT */
/* The SM's issue stage: a scheduler's pick (policy order over its ready warps), the unit and
 * scoreboard checks, functional execution at issue and the bookkeeping of an issued warp
 * instruction. sm_tick (sm_pipeline.c) calls sm_schedule once per scheduler and cycle. */
#include "sm_internal.h"
#include "sm_lwm.h"
#include "sm_units.h"

#include <string.h>

/* ---- issue ------------------------------------------------------------------------------ */

/* Memory refused an issue attempt: counted, and retried next cycle (the tick does not sleep
 * past it; quiet repeats count tick_refusals again). */
static inline void count_refusal(struct sm *sm)
{
	sm->c.mem_refusals++;
	sm->refused = true;
	sm->tick_refusals++;
}

/* A counted refusal of slot's memory instruction: note it for refuse_again (struct sm:
 * rf_mask). */
static void note_refusal(struct sm *sm, uint16_t slot, const struct warp_inst *wi, unsigned ucls)
{
	if (!sm->mem_refuse_again)
		return;
	if (sm->mem_note_refusal(sm->mem, wi, &sm->rf_note[slot])) {
		sm->rf_mask |= 1ull << slot;
		sm->rf_ucls[slot] = (uint8_t)ucls;
	} else {
		sm->rf_mask &= ~(1ull << slot);
	}
}

/* issue_warp's start for a warp whose instruction memory refused (rf_mask): true when that
 * decides the attempt, a refusal, without reading the warp: its unit is busy, or memory would
 * refuse the instruction again (its note holds) and has counted it, as issue_warp does here.
 * false: go on in full. */
static bool refuse_again(struct sm *sm, uint16_t slot, uint64_t now)
{
	uint64_t free_at;
	if (unit_free(sm, sm->rf_ucls[slot], now, &free_at) < 0)
		return true;
	if (!sm->mem_refuse_again(sm->mem, &sm->rf_note[slot], now))
		return false;
	count_refusal(sm);
	sm->rf_repeats++;
	return true;
}

/* Issue the head instruction of a READY warp. false: a unit went to another scheduler this
 * cycle, or memory refused (the instruction stays executed and is retried as is). */
static bool issue_warp(struct sm *sm, uint16_t slot, uint64_t now)
{
	/* A noted instruction that memory does not refuse again has passed mem_refuse_now's
	 * checks too (mem_unit_refuse_again makes them): it goes straight to mem_try_issue. */
	bool noted = sm->rf_mask >> slot & 1;
	if (noted && refuse_again(sm, slot, now))
		return false;
	struct sm_warp *w = &sm->warps[slot];
	struct sched_warp_view *v = &sm->views[slot];
	const struct sm_ibuf_entry *e = &w->ib[w->ib_head];
	const struct wi_static *si = &sm->insts[e->pc];
	uint64_t free_at;
	int unit = -1;
	unsigned ucls = inst_unit(sm, si);
	uint32_t result_cycles = sm_result_cycles(sm, si);
	uint64_t wb_bit = 64; /* the result slot to mark (64: none) */
	if (sm->wb_slots && (si->unit == WI_UNIT_SP || si->unit == WI_UNIT_SFU)) {
		if ((unit = unit_free_wb(sm, ucls, now, result_cycles, &wb_bit)) == -2)
			return false;
		if (unit < 0) {
			/* Refused with nothing changed; next cycle the slots have moved on. */
			sm->c.wb_conflicts++;
			sm->activity = true;
			return false;
		}
	} else if (ucls != WI_UNIT_NONE && (unit = unit_free(sm, ucls, now, &free_at)) < 0) {
		return false;
	}
	if (w->replay && !noted && !sm->lwm && sm->mem_refuse_now && sm->mem_refuse_now(sm->mem, w->replay, now)) {
		/* Refused again before the scoreboard and counters are touched: the refusal below
		 * without the bookkeeping it undoes (replay, replay_sb and the fetch bit hold). */
		count_refusal(sm);
		note_refusal(sm, slot, w->replay, ucls);
		return false;
	}
	struct warp_inst *wi;
	int idx = -1;
	bool is_mem = si->mem_kind != WI_MEM_NONE;
	if (w->replay) {
		wi = w->replay;
		idx = w->replay_sb;
	} else {
		if (is_mem) {
			idx = sb_alloc(w, now);
			SIM_ASSERT(idx >= 0); /* sb_check blocked a full scoreboard */
			wi = sim_pool_alloc(&sm->wi_pool);
			if (!wi) {
				struct sim_error er;
				sim_error_set(&er, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (warp_inst pool)");
				sm_fail(sm, &er);
				return false;
			}
			wi->addr = (uint64_t *)(wi + 1);
		} else {
			wi = sm->scratch;
		}
		SIM_ASSERT(fe_warp_pc(w->fw) == e->pc);
		if (sm->lwm)
			sm_lwm_before_execute(sm, slot);
		struct sim_error er; /* not zeroed whole: 900 bytes per instruction; set on failure */
		er.code = 0;
		er.file[0] = er.setting[0] = er.msg[0] = '\0';
		er.line = er.column = 0;
		if (fe_warp_execute(w->fw, wi, &er)) {
			if (is_mem)
				sim_pool_free(&sm->wi_pool, wi);
			sm_fail(sm, &er);
			return false;
		}
	}
	bool long_lat = (si->flags & WI_F_LONG_LAT) != 0;
	if (is_mem) {
		struct sm_sb_entry *se = &w->sb[idx];
		sb_set_used(w, idx, true);
		se->mem = true;
		se->long_lat = long_lat;
		/* Without miss reports from memory, every long-latency load counts as missed; else
		 * sm_mem_missed sets it (possibly from inside the try_issue below). */
		se->missed = long_lat && !sm->mem_reports_misses;
		w->miss_pending += se->missed;
		se->release_cycle = UINT64_MAX;
		se->issue_cycle = now;
		se->wi = wi;
		se->n_dst = si->n_dst;
		memcpy(se->dst, si->dst, sizeof se->dst);
		w->sb_used++;
		w->mem_pending++;
		sm->mem_inflight++; /* before try_issue: done() may come from inside it */
		if (long_lat)
			v->long_lat_pending++;
		uint64_t token = ((uint64_t)slot << 8) | (uint64_t)idx;
		/* LWM: the instruction goes to memory as one part per sub-warp (sm_lwm.c). */
		bool ok = sm->lwm ? sm_lwm_mem_issue(sm, slot, (uint8_t)idx, wi, token, now)
				  : sm->mem_try_issue(sm->mem, wi, token, now);
		if (!ok) {
			sb_set_used(w, idx, false);
			se->wi = NULL;
			w->miss_pending -= se->missed;
			se->missed = false;
			w->sb_used--;
			w->mem_pending--;
			sm->mem_inflight--;
			if (long_lat)
				v->long_lat_pending--;
			w->replay = wi;
			w->replay_sb = (uint8_t)idx;
			sm->fetch_mask &= ~(1ull << slot); /* a replay is not fetched for */
			count_refusal(sm);
			if (!sm->lwm)
				note_refusal(sm, slot, wi, ucls);
			return false;
		}
		w->replay = NULL;
		sm->rf_mask &= ~(1ull << slot);
		if (long_lat)
			sm_notify(sm, SCHED_EV_LONG_LAT_ISSUE, slot, w->cta_slot, 0, now);
	} else if (si->n_dst) {
		idx = sb_alloc(w, now);
		SIM_ASSERT(idx >= 0);
		struct sm_sb_entry *se = &w->sb[idx];
		sb_set_used(w, idx, true);
		se->mem = false;
		se->long_lat = false;
		se->missed = false;
		se->wi = NULL;
		se->release_cycle = now + result_cycles;
		se->n_dst = si->n_dst;
		memcpy(se->dst, si->dst, sizeof se->dst);
		w->sb_used++;
	}
	/* Issued: the warp's status changes. (A refused warp's stays as it was: READY, as the
	 * replay skips the scoreboard checks its instruction passed.) */
	sm_status_stale(sm, slot);
	if (unit >= 0) {
		sm_unit_take(sm, ucls, (uint32_t)unit,
			     now + sm->units[ucls].ii_cycles * (ucls == WI_UNIT_SP ? sm->ii_slots[si->ii_class] : 1u));
		if (wb_bit < 64)
			sm->units[ucls].wb_mask[unit] |= 1ull << wb_bit;
		sm->unit_taken_cycle = now;
		/* Every unit of the class busy next cycle: the warps ready for it turn structural.
		 * In a shared pipeline unit_free gives the same answer for every class (pipeline k
		 * is busy when any of its units is), so one check marks the warps of all classes. */
		uint64_t free_at;
		if (!sm->lazy_units && unit_free(sm, ucls, now + 1, &free_at) < 0) {
			if (sm->shared_pipe)
				for (unsigned q = 0; q < WI_UNIT_NONE; q++)
					sm->unit_stale_mask |= sm->unit_ready_mask[q];
			else
				sm->unit_stale_mask |= sm->unit_ready_mask[ucls];
		}
	}
	if (sm->barrel && !is_mem)
		w->barrel_until = now + result_cycles + sm->fetch_decode_cycles;
	if (si->unit == WI_UNIT_SP || si->unit == WI_UNIT_SFU) {
		uint64_t end = now + result_cycles;
		sm->c.alu_inflight_inst_cycles += result_cycles;
		if (end > sm->alu_busy_until)
			sm->alu_busy_until = end;
	}

	uint32_t pc = e->pc;
	sm->c.warp_insts++;
	sm->c.thread_insts += wi->n_active;
	v->insts_issued++;
	v->progress += wi->n_active;
	sm_notify(sm, SCHED_EV_WARP_ISSUE, slot, w->cta_slot, wi->n_active, now);
	w->ib_head = (uint8_t)((w->ib_head + 1) % sm->ibuf_entries);
	w->ib_count--;
	w->ctrl_flush = false;
	w->sb_block_until = 0;
	sm->activity = true;
	if (fe_warp_done(w->fw)) {
		sm_warp_finish(sm, slot, now);
		return true;
	}
	if (si->flags & WI_F_BARRIER) {
		struct sm_cta *cta = &sm->ctas[w->cta_slot];
		w->state = SM_W_BARRIER;
		v->at_barrier = true;
		sm_view_blocked_sync(sm, slot);
		w->mark_cycle = now;
		w->marked = true;
		cta->n_at_barrier++;
		sm->c.fwd_events++;
		sm_notify(sm, SCHED_EV_BARRIER_ARRIVE, slot, w->cta_slot, cta->cta_id, now);
	}
	uint32_t npc = fe_warp_pc(w->fw);
	if (npc != pc + 1) {
		/* Taken branch or reconvergence switch: what was fetched behind it is wrong-path. */
		w->ctrl_flush = true;
		if (w->ib_count && w->ib[w->ib_head].pc != npc) {
			w->ib_count = 0;
			sm->c.ibuf_flushes++;
			sm_notify(sm, SCHED_EV_BRANCH, slot, w->cta_slot, npc, now);
		} else if (!w->ib_count && sm->fetch_fallthrough && pc + 1 < sm->n_insts) {
			w->ft_fetch = true;
			w->ft_pc = pc + 1;
		}
	}
	v->ibuf_count = w->ib_count;
	sm_fetch_bit(sm, slot);
	sm_update_view_pc(sm, slot);
	if (w->state == SM_W_BARRIER)
		sm_barrier_check(sm, w->cta_slot, now);
	return true;
}

/* One scheduler's cycle: rank its live warps, issue the first that can go, classify. */
/* issue_warp, and LWM's bookkeeping after a large warp's sub-warp issued. */
static bool issue_one(struct sm *sm, uint16_t slot, uint64_t now)
{
	if (!issue_warp(sm, slot, now))
		return false;
	if (sm->lwm)
		sm_lwm_after_issue(sm, slot, now);
	return true;
}

/* Issue the first of list[0..n) that can go: by ascending key[warp] (ties to the earlier
 * entry, as the policy's stable sort would order them) when key is given, else in list
 * order. Nearly always the first choice issues, so it is found by one scan; only when it
 * fails (memory refusals) are the rest ordered. */
static bool issue_first(struct sm *sm, const uint16_t *list, uint32_t n, const uint64_t *key, uint64_t now)
{
	if (n == 0 || sm->failed)
		return false;
	if (!key) {
		for (uint32_t t = 0; t < n && !sm->failed; t++)
			if (issue_one(sm, list[t], now))
				return true;
		return false;
	}
	uint32_t b = 0, i;
	for (i = 1; i < n; i++)
		if (key[list[i]] < key[list[b]])
			b = i;
	if (issue_one(sm, list[b], now))
		return true;
	/* The others. Keys below 64, each once (LRR's rotation keys): in order from a bit set, so
	 * only the warps tried are visited (on a memory-bound kernel most are refused). */
	uint64_t bits = 0;
	uint16_t at[SCHED_MAX_WARPS];
	for (i = 0; i < n; i++) {
		uint64_t k = key[list[i]];
		if (k >= 64 || (bits >> k & 1))
			break;
		bits |= 1ull << k;
		at[k] = list[i];
	}
	if (i == n) {
		bits &= bits - 1; /* the first, tried above */
		for (; bits && !sm->failed; bits &= bits - 1)
			if (issue_one(sm, at[__builtin_ctzll(bits)], now))
				return true;
		return false;
	}
	/* Otherwise by (key, position): insertion sort, stable. */
	uint16_t rest[SCHED_MAX_WARPS];
	uint32_t m = 0;
	for (i = 0; i < n; i++) {
		if (i == b)
			continue;
		uint32_t j = m++;
		while (j > 0 && key[rest[j - 1]] > key[list[i]]) {
			rest[j] = rest[j - 1];
			j--;
		}
		rest[j] = list[i];
	}
	for (uint32_t t = 0; t < m && !sm->failed; t++)
		if (issue_one(sm, rest[t], now))
			return true;
	return false;
}

/* The class closest to issue over all of scheduler s's warps (enum order is rank order; a
 * READY warp counts as structural). Read only when nothing issued: the counts change only in
 * the status pass, not while the schedulers run. */
static uint8_t closest_class(const struct sm *sm, uint32_t s)
{
	for (uint8_t k = SM_CYC_STRUCTURAL; k < SM_CYC_NO_WARP; k++)
		if (sm->cls_count[s][k])
			return k;
	return SM_CYC_NO_WARP;
}

uint8_t sm_schedule_blocked(const struct sm *sm, uint32_t s)
{
	return sm->lwm && sm_lwm_splitting(sm, s) ? SM_CYC_STRUCTURAL : closest_class(sm, s);
}

uint8_t sm_schedule(struct sm *sm, uint32_t s, uint64_t now)
{
	if (sm->lwm) {
		/* A large warp being split into sub-warps keeps this scheduler (barrel processing). */
		int c = sm_lwm_continue(sm, s, now);
		if (c >= 0)
			return (uint8_t)c;
	}
	/* A pure policy's order only decides which ready warp goes first: with none it is not
	 * needed, and a per-warp-key policy orders the ready warps alone as in the whole ranking
	 * (policy.h SCHED_RANK_*), whatever their input order. */
	uint8_t rf = sm->issue->ops->rank_flags;
	uint64_t rm = sm->ready_mask[s];
	/* Ready at the status pass: with lazy_units, only warps whose unit was free then. */
	uint64_t not_pass = 0, not_now = 0;
	if ((rf & SCHED_RANK_PURE) && rm) {
		uint8_t pass_ok = sm->lazy_units ? sm->units_free_at_pass : 0xff;
		/* A warp whose unit class another scheduler filled this cycle would fail issue_warp's
		 * unit check (no side effect): leave it out of the ranking. */
		uint8_t unit_ok = 0xff; /* bit per enum wi_unit: a unit is free now */
		if (sm->unit_taken_cycle == now && !sm->lwm) {
			/* The pass saw these units free: only this cycle's issues took any. */
			unit_ok = 1u << WI_UNIT_NONE;
			for (unsigned u = 0; u < SM_UNIT_CLASSES; u++) {
				uint64_t free_at;
				if (unit_free(sm, u, now, &free_at) >= 0)
					unit_ok |= (uint8_t)(1u << u);
			}
		}
		/* Whole unit classes at a time: the warps of a class not free at the pass, and of
		 * one not free now. */
		for (unsigned u = 0; u < SM_UNIT_CLASSES; u++) {
			if (!(pass_ok & (1u << u)))
				not_pass |= sm->unit_ready_mask[u];
			else if (!(unit_ok & (1u << u)))
				not_now |= sm->unit_ready_mask[u];
		}
	}
	bool subset = (rf & SCHED_RANK_ANY_SUBSET) && sm->issue->ops->keys;
	if ((rf & SCHED_RANK_PURE) && (!(rm & ~not_pass) || (rf & SCHED_RANK_NO_LIMIT) || subset)) {
		uint16_t ready[SCHED_MAX_WARPS];
		uint32_t n_ready = 0;
		bool any_ready = (rm & ~not_pass) != 0;
		rm &= ~(not_pass | not_now);
		if (rm && ((rf & SCHED_RANK_NO_LIMIT) || subset) && sm->issue->ops->first && !sm->failed) {
			/* The policy's first choice without ranking the others (policy.h: first). */
			uint16_t f = sm->issue->ops->first(sm->issue, s, rm);
			if (f == UINT16_MAX)
				rm = 0; /* its issue limit lets none of them go */
			else if (issue_one(sm, f, now))
				return SM_CYC_ISSUED;
			else
				rm &= ~(1ull << f);
		}
		for (; rm; rm &= rm - 1)
			ready[n_ready++] = (uint16_t)__builtin_ctzll(rm);
		uint64_t key[SCHED_MAX_WARPS];
		const uint64_t *order_key = NULL;
		if (n_ready > 0 && subset && !(rf & SCHED_RANK_NO_LIMIT)) {
			/* Keys and bound as in the whole ranking (ANY_SUBSET): the ready warps it lets
			 * issue. */
			uint64_t bound = sm->issue->ops->keys(sm->issue, s, ready, n_ready, key);
			uint32_t k = 0;
			for (uint32_t i = 0; i < n_ready; i++)
				if (key[ready[i]] < bound)
					ready[k++] = ready[i];
			n_ready = k;
			order_key = key;
		} else if (n_ready > 1 && sm->issue->ops->keys) {
			sm->issue->ops->keys(sm->issue, s, ready, n_ready, key);
			order_key = key;
		} else if (n_ready > 1) {
			sm->issue->rank_issuable = 0;
			sched_rank(sm->issue, s, now, ready, n_ready);
		}
		if (issue_first(sm, ready, n_ready, order_key, now))
			return SM_CYC_ISSUED;
		if (any_ready)
			sm->left_behind = true;
		return closest_class(sm, s);
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < sm->n_sched_warps[s]; i++) {
		uint16_t slot = sm->sched_warps[s][i];
		if (sm->views[slot].valid)
			sm->rank_buf[n++] = slot;
	}
	if (n == 0)
		return closest_class(sm, s);
	if ((rf & SCHED_RANK_PURE) && sm->issue->ops->keys) {
		/* The ranking as keys (policy.h): the ready warps it lets issue, smallest key first,
		 * without sorting the rest. */
		uint64_t key[SCHED_MAX_WARPS];
		uint64_t bound = sm->issue->ops->keys(sm->issue, s, sm->rank_buf, n, key);
		uint16_t cand[SCHED_MAX_WARPS];
		uint32_t n_cand = 0, below = 0;
		for (uint32_t i = 0; i < n; i++)
			below += key[sm->rank_buf[i]] < bound;
		if (below == 0)
			bound = UINT64_MAX; /* rank_issuable 0: no limit */
		uint64_t ok = rm & ~(not_pass | not_now);
		for (uint32_t i = 0; i < n; i++) {
			uint16_t slot = sm->rank_buf[i];
			if ((ok >> slot & 1) && key[slot] < bound)
				cand[n_cand++] = slot;
		}
		if (issue_first(sm, cand, n_cand, key, now))
			return SM_CYC_ISSUED;
		if (rm & ~not_pass)
			sm->left_behind = true;
		return closest_class(sm, s);
	}
	sm->issue->rank_issuable = 0;
	sched_rank(sm->issue, s, now, sm->rank_buf, n);
	/* Two-level policies may confine issue to the head of their order (policy.h). */
	uint32_t ri = sm->issue->rank_issuable;
	uint32_t lim = ri == SCHED_ISSUABLE_NONE ? 0 : ri && ri < n ? ri : n;
	for (uint32_t i = 0; i < lim && !sm->failed; i++)
		if (sm->wstatus[sm->rank_buf[i]] == SM_WS_READY && issue_one(sm, sm->rank_buf[i], now))
			return SM_CYC_ISSUED;
	/* A ready warp left behind (unit taken, memory refusal, outside rank_issuable) tries again
	 * next cycle: no sleeping past it. */
	if (sm->ready_mask[s])
		sm->left_behind = true;
	return closest_class(sm, s);
}
