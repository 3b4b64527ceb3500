/* SPDX-License-Identifier: MIT */
/* The SM's cycle: drain finished warps, compute each warp's status, let every scheduler issue
 * (sm_issue.c), fetch into one warp's I-buffer, finish CTAs; barriers and warp exits. Stages
 * run back to front (issue before fetch), so an instruction fetched at cycle t is seen by issue
 * at t + fetch_decode_cycles at the earliest. No allocation on this path except the warp_inst
 * pool (sm_issue.c). */
#include "sm_internal.h"
#include "sm_lwm.h"
#include "sm_units.h"

#include <string.h>

/* Classification priority when nothing issued: the class of the warp closest to issuing
 * (GPGPU-Sim: pipeline beats scoreboard beats idle). Index: enum sm_wstat. */
static const uint8_t wstat_class[] = {
	[SM_WS_NONE] = SM_CYC_NO_WARP,    [SM_WS_READY] = SM_CYC_STRUCTURAL,
	[SM_WS_STRUCT] = SM_CYC_STRUCTURAL, [SM_WS_DATA] = SM_CYC_DATA,
	[SM_WS_CONTROL] = SM_CYC_CONTROL, [SM_WS_FETCH] = SM_CYC_FETCH,
	[SM_WS_BARRIER] = SM_CYC_BARRIER, [SM_WS_EXIT] = SM_CYC_EXIT,
};
/* The classes are declared closest-to-issue first: schedule() takes the smallest present. */
_Static_assert(SM_CYC_ISSUED < SM_CYC_STRUCTURAL && SM_CYC_STRUCTURAL < SM_CYC_DATA && SM_CYC_DATA < SM_CYC_CONTROL &&
		       SM_CYC_CONTROL < SM_CYC_FETCH && SM_CYC_FETCH < SM_CYC_BARRIER && SM_CYC_BARRIER < SM_CYC_EXIT &&
		       SM_CYC_EXIT < SM_CYC_NO_WARP,
	       "cycle classes in order of closeness to issue");


void sm_account_skipped(struct sm *sm, uint64_t end)
{
	if (!sm->in_kernel || end <= sm->acct_next)
		return;
	uint64_t k = end - sm->acct_next;
	sm->c.cycles += k;
	for (uint32_t s = 0; s < sm->n_sched; s++) {
		sm->sched_cyc[s][sm->sleep_class[s]] += k;
		sm->c.sched_cycles[sm->sleep_class[s]] += k;
	}
	if (sm->sleep_memblock)
		sm->c.memory_block_cycles += k;
	if (sm->sleep_nowarp)
		sm->c.no_warp_cycles += k;
	/* Pipeline occupancy: memory in flight is constant while asleep (a completion wakes the
	 * SM after accounting up to it); the ALU drains by alu_busy_until. */
	uint64_t alu = sm->alu_busy_until > sm->acct_next ? min_u64(sm->alu_busy_until, end) - sm->acct_next : 0;
	sm->c.alu_busy_cycles += alu;
	if (sm->mem_inflight) {
		sm->c.mem_busy_cycles += k;
		sm->c.alu_mem_overlap_cycles += alu;
	}
	sm->acct_next = end;
}

/* ---- statuses -------------------------------------------------------------------------- */

/* The warp's status at now. *until: the status holds for every cycle before it unless an event
 * touches the warp (struct sm: wst_until); it is also the cycle the SM must wake for this warp
 * (UINT64_MAX: only an event changes it). READY gives 0: recomputed every cycle, as another
 * warp's issue may take the unit. */
static inline __attribute__((always_inline)) uint8_t warp_status(struct sm *sm, uint16_t slot, uint64_t now,
								 uint64_t *until, bool check_unit)
{
	struct sm_warp *w = &sm->warps[slot];
	struct sched_warp_view *v = &sm->views[slot];
	v->ready = false;
	v->unit_busy = false;
	v->waiting_long_lat = false;
	v->waiting_miss = false;
	v->at_barrier = w->state == SM_W_BARRIER;
	*until = UINT64_MAX;
	switch (w->state) {
	case SM_W_EXITED:
	case SM_W_DRAINING:
		return SM_WS_EXIT;
	case SM_W_BARRIER:
		return SM_WS_BARRIER;
	default:
		break;
	}
	if (w->ib_count == 0)
		return w->ctrl_flush ? SM_WS_CONTROL : SM_WS_FETCH;
	const struct sm_ibuf_entry *e = &w->ib[w->ib_head];
	if (e->ready_cycle > now) {
		*until = e->ready_cycle;
		return w->ctrl_flush ? SM_WS_CONTROL : SM_WS_FETCH;
	}
	if (w->wrong_path) {
		/* gpu.core.fetch_fallthrough: the fall-through fetch reached issue; drop it, so
		 * this cycle's fetch stage may fetch the target. */
		w->wrong_path = false;
		w->ib_count = 0;
		sm->views[slot].ibuf_count = 0;
		sm->c.ibuf_flushes++;
		sm_fetch_bit(sm, slot);
		return SM_WS_CONTROL;
	}
	const struct wi_static *si = &sm->insts[e->pc];
	uint64_t free_at = UINT64_MAX;
	if (!w->replay) {
		if (now < w->sb_block_until) {
			v->waiting_long_lat = w->sb_block_ll;
			v->waiting_miss = w->sb_block_miss;
			*until = w->sb_block_until;
			return SM_WS_DATA;
		}
		/* Barrel processing (Narasiman Sec 2.1): the warp is not selected again until its
		 * instruction completed and it was fetched and decoded again. */
		if (sm->barrel && (w->mem_pending || now < w->barrel_until)) {
			if (w->mem_pending) {
				w->sb_block_until = UINT64_MAX; /* the last reply resets it */
				w->sb_block_ll = v->waiting_long_lat = v->long_lat_pending > 0;
				w->sb_block_miss = v->waiting_miss = w->miss_pending > 0;
			} else {
				w->sb_block_until = *until = w->barrel_until;
				w->sb_block_ll = w->sb_block_miss = false;
			}
			return SM_WS_DATA;
		}
		/* membar: the warp's earlier memory instructions must complete first (as GPGPU-Sim's
		 * memory barrier); the last reply resets sb_block_until. */
		if ((si->flags & WI_F_MEMBAR) && w->mem_pending) {
			w->sb_block_until = UINT64_MAX;
			w->sb_block_ll = v->waiting_long_lat = v->long_lat_pending > 0;
			w->sb_block_miss = v->waiting_miss = w->miss_pending > 0;
			return SM_WS_DATA;
		}
		bool ll, missed;
		uint64_t blocked = sb_check(w, si, now, &ll, &missed);
		if (blocked) {
			w->sb_block_until = blocked;
			w->sb_block_ll = v->waiting_long_lat = ll;
			w->sb_block_miss = v->waiting_miss = missed;
			*until = blocked;
			return SM_WS_DATA;
		}
	}
	unsigned ucls = inst_unit(sm, si);
	if (check_unit && ucls != WI_UNIT_NONE && unit_free(sm, ucls, now, &free_at) < 0) {
		*until = free_at; /* units only get busier until then */
		v->unit_busy = true; /* two-level policies let other groups use the free units */
		return SM_WS_STRUCT;
	}
	v->ready = true;
	*until = 0;
	return SM_WS_READY;
}

/* ---- the status cache --------------------------------------------------------------- */

/* The warp's cached status (wstatus, wflags, wunit) enters (status_add) or leaves
 * (status_remove) its scheduler's aggregates. Inlined: a refresh that changes a status makes
 * both, about 2.8 M times on gtx480 reduce large. */
static inline __attribute__((always_inline)) void status_add(struct sm *sm, uint16_t slot)
{
	uint32_t s = sm->sched_of[slot];
	uint8_t f = sm->wflags[slot], st = sm->wstatus[slot];
	uint64_t bit = 1ull << slot;
	sm->cls_count[s][wstat_class[st]]++;
	sm->n_mem_wait += (f & SM_WF_MEM) != 0;
	sm->n_other_wait += (f & SM_WF_OTHER) != 0;
	sm->counted_mask |= bit;
	if (st == SM_WS_READY) {
		sm->ready_mask[s] |= bit;
		if (sm->wunit[slot] != WI_UNIT_NONE)
			sm->unit_ready_mask[sm->wunit[slot]] |= bit;
	}
}

static inline __attribute__((always_inline)) void status_remove(struct sm *sm, uint16_t slot)
{
	uint32_t s = sm->sched_of[slot];
	uint8_t f = sm->wflags[slot], st = sm->wstatus[slot];
	uint64_t bit = 1ull << slot;
	sm->cls_count[s][wstat_class[st]]--;
	sm->n_mem_wait -= (f & SM_WF_MEM) != 0;
	sm->n_other_wait -= (f & SM_WF_OTHER) != 0;
	sm->counted_mask &= ~bit;
	sm->ready_mask[s] &= ~bit;
	if (sm->wunit[slot] != WI_UNIT_NONE)
		sm->unit_ready_mask[sm->wunit[slot]] &= ~bit;
}

/* Recompute the warp's status; returns the cycle it holds until (kept in wst_until, except
 * under LWM, whose sub-warp bookkeeping refreshes every warp every cycle). */
static inline __attribute__((always_inline)) uint64_t status_refresh(struct sm *sm, uint16_t slot, uint64_t now)
{
	const struct sm_warp *w = &sm->warps[slot];
	uint64_t until;
	uint8_t st = warp_status(sm, slot, now, &until, !sm->lazy_units);
	sm_view_blocked_sync(sm, slot);
	/* A ready warp stays ready until an event touches it or its unit class fills up
	 * (issue_warp marks those due). */
	uint8_t unit = st == SM_WS_READY ? (uint8_t)inst_unit(sm, &sm->insts[w->ib[w->ib_head].pc]) : WI_UNIT_NONE;
	if (st == SM_WS_READY)
		until = UINT64_MAX;
	sm_set_until(sm, slot, sm->lwm ? 0 : until);
	uint8_t f = 0;
	/* OWL Sec 3 MemoryBlockCycles: waiting "for their memory requests to come back from L2
	 * cache/DRAM" (an L1 miss, not a long-latency opcode that hit). */
	if (st == SM_WS_DATA && sm->views[slot].waiting_miss)
		f |= SM_WF_MEM;
	else if (w->state == SM_W_DRAINING)
		f |= SM_WF_MEM;
	else if (st != SM_WS_BARRIER && st != SM_WS_EXIT)
		f |= SM_WF_OTHER;
	SIM_ASSERT(st != SM_WS_READY || sm->views[slot].valid);
	bool counted = (sm->counted_mask >> slot) & 1;
	if (counted && sm->wstatus[slot] == st && sm->wflags[slot] == f && sm->wunit[slot] == unit)
		return until; /* the aggregates already count it so */
	if (counted)
		status_remove(sm, slot);
	sm->wstatus[slot] = st;
	sm->wunit[slot] = unit;
	sm->wflags[slot] = f;
	status_add(sm, slot);
	return until;
}

/* A ready warp's status after its unit class filled up, nothing else having changed: what
 * warp_status would return (STRUCT until the first unit frees, or READY still). Returns the
 * cycle it holds until. */
static uint64_t status_unit_recheck(struct sm *sm, uint16_t slot, uint64_t now)
{
	if (sm->wstatus[slot] != SM_WS_READY || sm->wunit[slot] == WI_UNIT_NONE)
		return UINT64_MAX;
	uint64_t free_at;
	if (unit_free(sm, sm->wunit[slot], now, &free_at) >= 0)
		return UINT64_MAX;
	status_remove(sm, slot);
	struct sched_warp_view *v = &sm->views[slot];
	v->ready = false;
	v->unit_busy = true;
	sm->wstatus[slot] = SM_WS_STRUCT;
	sm->wunit[slot] = WI_UNIT_NONE;
	sm->wflags[slot] = SM_WF_OTHER;
	sm_set_until(sm, slot, free_at);
	status_add(sm, slot);
	return free_at;
}

/* With exact_unit_views: the views of READY warps say ready, or unit_busy for the classes not
 * free at this pass, as warp_status with its unit check would have set them. A warp refreshed
 * since the last pass already has warp_status's view. */
static void unit_views(struct sm *sm)
{
	uint64_t busy = 0;
	for (unsigned u = 0; u < SM_UNIT_CLASSES; u++)
		if (!(sm->units_free_at_pass & (1u << u)))
			busy |= sm->unit_ready_mask[u];
	for (uint64_t m = sm->view_busy_mask & ~busy; m; m &= m - 1) {
		uint32_t slot = (uint32_t)__builtin_ctzll(m);
		if (sm->wstatus[slot] == SM_WS_READY) {
			sm->views[slot].ready = true;
			sm->views[slot].unit_busy = false;
		}
	}
	for (uint64_t m = busy; m; m &= m - 1) {
		uint32_t slot = (uint32_t)__builtin_ctzll(m);
		sm->views[slot].ready = false;
		sm->views[slot].unit_busy = true;
	}
	sm->view_busy_mask = busy;
}

/* The status pass: statuses for every resident warp, before anyone issues (a warp released
 * by a barrier or a unit freed by this cycle's issue changes nothing until the next cycle).
 * Returns the cycle the SM must wake for a status to change (SIM_NEVER: only an event).
 * Inlined, with status_refresh, warp_status and sb_check, into both its callers, the tick
 * and sm_pipe_catch_up: called, it cost the tick about 25 instructions more. */
static inline __attribute__((always_inline)) uint64_t status_pass(struct sm *sm, uint64_t now)
{
	/* Only the statuses due (ready, touched by an event, or timed out) are recomputed; the
	 * rest and the per-scheduler aggregates stay as they are (struct sm: status cache). One
	 * walk over the live warps with a status that expires: the due ones, and the earliest time
	 * a cached status expires (the wake, completed below with what the refreshes return). */
	uint64_t due = 0, wake = SIM_NEVER;
	if (sm->lwm || sm->next_due_dirty || now >= sm->next_due) {
		for (uint64_t m = sm->live_mask & sm->timed_mask; m; m &= m - 1) {
			uint32_t slot = (uint32_t)__builtin_ctzll(m);
			uint64_t u = sm->wst_until[slot];
			if (u <= now)
				due |= 1ull << slot;
			else if (u < wake)
				wake = u;
		}
	} else {
		due = sm->stale_mask & sm->live_mask; /* each at wst_until 0 */
		wake = sm->next_due;
	}
	sm->stale_mask = 0;
	/* Ready warps whose unit class filled up (issue_warp) and nothing else touched: only the
	 * unit check of warp_status can change its answer. */
	for (uint64_t m = sm->unit_stale_mask & ~due & sm->counted_mask; m; m &= m - 1)
		wake = min_u64(wake, status_unit_recheck(sm, (uint16_t)__builtin_ctzll(m), now));
	sm->unit_stale_mask = 0;
	for (; due; due &= due - 1) {
		uint64_t u = status_refresh(sm, (uint16_t)__builtin_ctzll(due), now);
		wake = u > now && u < wake ? u : wake;
	}
	sm->next_due = wake;
	sm->next_due_dirty = false;
	if (sm->lazy_units) {
		/* Ready warps stay READY while their unit is busy (struct sm: lazy_units): the
		 * structural ones are those whose class has no free unit now; they wake the SM
		 * when the first unit frees, as STRUCT statuses would. */
		sm->units_free_at_pass = 1u << WI_UNIT_NONE;
		for (unsigned u = 0; u < SM_UNIT_CLASSES; u++) {
			uint64_t free_at;
			if (!sm->unit_ready_mask[u])
				continue;
			if (unit_free(sm, u, now, &free_at) >= 0)
				sm->units_free_at_pass |= (uint8_t)(1u << u);
			else
				wake = min_u64(wake, free_at);
		}
		if (sm->exact_unit_views)
			unit_views(sm);
	}
	return wake;
}

/* ---- barriers, exit, CTA completion -------------------------------------------------- */

/* BAWS Eq 1 over the warps marked in the phase that ends now: Ti = mark - phase start,
 * wasted = sum(maxT - Ti), denominator N * maxT. */
static void rtru_phase_end(struct sm *sm, struct sm_cta *cta, uint64_t now)
{
	uint64_t max_t = 0, sum_t = 0, n = 0;
	for (uint32_t i = 0; i < cta->n_warps; i++) {
		struct sm_warp *w = &sm->warps[cta->warps[i]];
		if (!w->marked)
			continue;
		uint64_t t = w->mark_cycle - cta->phase_start_cycle;
		if (t > max_t)
			max_t = t;
		sum_t += t;
		n++;
		w->marked = false;
	}
	sm->c.rtru_wasted_warp_cycles += n * max_t - sum_t;
	sm->c.rtru_phase_warp_cycles += n * max_t;
	cta->phase_start_cycle = now;
}

/* A barrier releases when every live warp of the CTA has arrived; warps that finished count
 * as arrived (they will never arrive). Released warps issue from the next cycle. */
void sm_barrier_check(struct sm *sm, uint16_t cs, uint64_t now)
{
	struct sm_cta *cta = &sm->ctas[cs];
	if (cta->n_at_barrier == 0 || cta->n_at_barrier < cta->n_live)
		return;
	rtru_phase_end(sm, cta, now);
	for (uint32_t i = 0; i < cta->n_warps; i++) {
		uint16_t slot = cta->warps[i];
		if (sm->warps[slot].state == SM_W_BARRIER) {
			sm_status_stale(sm, slot);
			sm->warps[slot].state = SM_W_ACTIVE;
			sm->views[slot].at_barrier = false;
			sm_view_blocked_sync(sm, slot);
		}
	}
	cta->n_at_barrier = 0;
	sm->c.barriers_released++;
	sm_notify(sm, SCHED_EV_BARRIER_RELEASE, 0, cs, cta->cta_id, now);
}

static void warp_exit(struct sm *sm, uint16_t slot)
{
	struct sm_warp *w = &sm->warps[slot];
	struct sm_cta *cta = &sm->ctas[w->cta_slot];
	sm_status_stale(sm, slot);
	w->state = SM_W_EXITED;
	cta->n_exited++;
	if (cta->n_exited == cta->n_warps) {
		cta->finish_pending = true;
		sm->finish_ready = true;
	}
}

/* The warp executed its last instruction (functionally done) at now. */
void sm_warp_finish(struct sm *sm, uint16_t slot, uint64_t now)
{
	struct sm_warp *w = &sm->warps[slot];
	struct sm_cta *cta = &sm->ctas[w->cta_slot];
	sm_status_stale(sm, slot);
	cta->n_live--;
	sm->n_live_warps--;
	w->ib_count = 0;
	w->mark_cycle = now;
	w->marked = true;
	sm->views[slot].valid = false;
	sm_view_blocked_sync(sm, slot);
	sm->views[slot].ibuf_count = 0;
	sm->fetch_mask &= ~(1ull << slot);
	sm->c.warps_exited++;
	sm_notify(sm, SCHED_EV_WARP_EXIT, slot, w->cta_slot, 0, now);
	/* Outstanding stores/loads must complete before its resources can go (GPGPU-Sim does the same). */
	if (w->mem_pending)
		w->state = SM_W_DRAINING;
	else
		warp_exit(sm, slot);
	sm_barrier_check(sm, w->cta_slot, now);
}

static void remove_from_sched(struct sm *sm, uint16_t slot)
{
	uint32_t s = slot % sm->n_sched;
	if (sm->counted_mask & (1ull << slot))
		status_remove(sm, slot);
	sm_next_due_leave(sm, slot);
	sm_set_until(sm, slot, UINT64_MAX); /* a free slot is never due */
	sm->stale_mask &= ~(1ull << slot);
	sm->live_mask &= ~(1ull << slot);
	sm->fetch_mask &= ~(1ull << slot);
	for (uint32_t i = 0; i < sm->n_sched_warps[s]; i++)
		if (sm->sched_warps[s][i] == slot) {
			memmove(&sm->sched_warps[s][i], &sm->sched_warps[s][i + 1],
				(sm->n_sched_warps[s] - i - 1) * sizeof(uint16_t));
			sm->n_sched_warps[s]--;
			return;
		}
	SIM_ASSERT(0);
}

static void finish_ctas(struct sm *sm, uint64_t now)
{
	if (!sm->finish_ready)
		return;
	sm->finish_ready = false;
	for (uint16_t cs = 0; cs < SCHED_MAX_CTAS; cs++) {
		struct sm_cta *cta = &sm->ctas[cs];
		if (!cta->used || !cta->finish_pending)
			continue;
		rtru_phase_end(sm, cta, now);
		for (uint32_t i = 0; i < cta->n_warps; i++) {
			uint16_t slot = cta->warps[i];
			SIM_ASSERT(sm->warps[slot].state == SM_W_EXITED && sm->warps[slot].sb_used <= SM_SB_ENTRIES);
			sm->warps[slot].state = SM_W_FREE;
			sm->views[slot].valid = false;
			sm_view_blocked_sync(sm, slot);
			remove_from_sched(sm, slot);
		}
		SIM_ASSERT(sm->n_spare_ctas + sm->n_resident_ctas <= SCHED_MAX_CTAS);
		sm->spare_ctas[sm->n_spare_ctas++] = cta->fc; /* for the next launch here */
		cta->fc = NULL;
		cta->used = false;
		uint32_t cta_id = cta->cta_id;
		sm->n_resident_ctas--;
		sm->n_resident_warps -= cta->n_warps;
		sm->c.ctas_finished++;
		sm->activity = true;
		sm_notify(sm, SCHED_EV_CTA_FINISH, 0, cs, cta_id, now);
		if (sm->disp) {
			struct sim_error e = {0};
			if (cta_dispatcher_cta_finished(sm->disp, sm->id, cta_id, now, &e))
				sm_fail(sm, &e);
		}
	}
}

/* ---- fetch ------------------------------------------------------------------------------ */

static void fetch_warp(struct sm *sm, uint16_t slot, uint64_t now)
{
	struct sm_warp *w = &sm->warps[slot];
	/* A partial fetch (SCHED_FETCH_PARTIAL) appends after the buffered instructions, which are
	 * consecutive from the warp's PC (a control transfer flushes them). */
	uint32_t kept = w->ib_count;
	bool wrong = w->ft_fetch && !kept;
	uint32_t pc0 = kept ? w->ib[(w->ib_head + kept - 1u) % sm->ibuf_entries].pc + 1u :
		       wrong ? w->ft_pc : fe_warp_pc(w->fw);
	if (pc0 >= sm->n_insts) {
		struct sim_error er;
		sim_error_set(&er, SIM_ERR_PROGRAM, NULL, 0, 0, NULL,
			      "%s: warp %u of CTA %u ran past the kernel's last instruction (pc %u)", sm->name,
			      slot, sm->ctas[w->cta_slot].cta_id, pc0);
		sm_fail(sm, &er);
		return;
	}
	uint64_t line = sm_ic_line(sm, pc0);
	uint32_t set = (uint32_t)(line % sm->ic_sets);
	uint64_t *tag = &sm->ic_tag[(size_t)set * sm->ic_assoc];
	uint64_t *lru = &sm->ic_lru[(size_t)set * sm->ic_assoc];
	uint64_t *fill = &sm->ic_fill[(size_t)set * sm->ic_assoc];
	/* The victim is the LRU way among those not waiting for memory (a pending line stays until
	 * its data arrives). */
	uint32_t way = UINT32_MAX, victim = UINT32_MAX;
	for (uint32_t k = 0; k < sm->ic_assoc; k++) {
		if (tag[k] == line) {
			way = k;
			break;
		}
		if (tag[k] != UINT64_MAX && fill[k] == SM_IC_PENDING)
			continue;
		if (victim == UINT32_MAX || tag[k] == UINT64_MAX ||
		    (tag[victim] != UINT64_MAX && lru[k] < lru[victim]))
			victim = k;
	}
	uint64_t arrive;
	if (way == UINT32_MAX && sm->mem_ifetch) {
		/* A miss read through memory: refused (every way of the set waiting, or the miss
		 * queue full) it fetches nothing this cycle, and the fetch stage tries again. */
		if (victim == UINT32_MAX ||
		    !sm->mem_ifetch(sm->mem, SM_CODE_BASE_ADDR + line * sm->ic_line_bytes, sm->ic_line_bytes, now)) {
			sm->c.icache_refusals++;
			sm->activity = true;
			return;
		}
	}
	/* A current cached FETCH or CONTROL status of an empty I-buffer (until UINT64_MAX: not
	 * stale, not under LWM) stays what warp_status would say after this fill (ctrl_flush,
	 * the views and the flags unchanged) until the first entry is decoded: it only gets that
	 * end (ready, below), instead of a refresh at the next pass. */
	bool keep = !kept && sm->wst_until[slot] == UINT64_MAX && !(sm->stale_mask >> slot & 1) &&
		    (sm->counted_mask >> slot & 1) &&
		    (sm->wstatus[slot] == SM_WS_FETCH || sm->wstatus[slot] == SM_WS_CONTROL);
	if (!keep)
		sm_status_stale(sm, slot);
	if (wrong)
		w->wrong_path = true;
	w->ft_fetch = false;
	if (way != UINT32_MAX) {
		sm->c.icache_hits++;
		arrive = fill[way] > now ? fill[way] : now; /* a line still being filled: wait for it */
	} else {
		sm->c.icache_misses++;
		SIM_ASSERT(victim != UINT32_MAX); /* only lines read from memory stay pending */
		way = victim;
		tag[way] = line;
		fill[way] = sm->mem_ifetch ? SM_IC_PENDING : now + sm->ic_miss_cycles;
		arrive = fill[way];
	}
	lru[way] = ++sm->ic_stamp;
	uint64_t ready = arrive == SM_IC_PENDING ? SM_IC_PENDING : arrive + sm->fetch_decode_cycles;
	if (keep) {
		/* SM_IC_PENDING: until sm_ifetch_done stales it. The earliest expiry may drop. */
		sm_set_until(sm, slot, ready);
		sm->next_due = min_u64(sm->next_due, ready);
	}
	uint32_t per_line = sm->ic_line_bytes / sm->ic_inst_bytes;
	uint32_t last = (uint32_t)((line + 1) * per_line - 1 - sm->ic_code_first_inst);
	if (!kept)
		w->ib_head = 0;
	/* pc0 on: up to the line's and the kernel's last instruction, into the free slots (pc0 is
	 * below both ends, and kept below ibuf_entries: at least one), after the kept ones. */
	uint32_t end = last + 1 < sm->n_insts ? last + 1 : sm->n_insts;
	uint32_t n = end - pc0 < sm->ibuf_entries - kept ? end - pc0 : sm->ibuf_entries - kept;
	uint32_t at = w->ib_head + kept;
	at = at >= sm->ibuf_entries ? at - sm->ibuf_entries : at;
	for (uint32_t k = 0; k < n; k++) {
		w->ib[at].pc = pc0 + k;
		w->ib[at].ready_cycle = ready;
		at = at + 1 == sm->ibuf_entries ? 0 : at + 1;
	}
	w->ib_count = (uint8_t)(kept + n);
	sm->views[slot].ibuf_count = w->ib_count;
	sm_fetch_bit(sm, slot);
	sm->activity = true;
	sm_notify(sm, SCHED_EV_FETCH, slot, w->cta_slot, pc0, now);
}

/* BAWS Sec 2.2: a warp may fetch only when its I-buffer holds no valid instruction. One warp
 * is fetched per cycle, the first eligible one in the fetch policy's order. */
static void fetch_stage(struct sm *sm, uint64_t now)
{
	uint64_t fm = sm->fetch_mask;
	if (!fm)
		return;
	uint32_t n = 0;
	if ((sm->fetch->ops->rank_flags & (SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT)) ==
	    (SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT)) {
		/* A per-warp-key order: its first eligible warp is the first of the eligible alone. */
		if (sm->fetch->ops->first) {
			fetch_warp(sm, sm->fetch->ops->first(sm->fetch, 0, fm), now);
			return;
		}
		for (; fm; fm &= fm - 1)
			sm->rank_buf[n++] = (uint16_t)__builtin_ctzll(fm);
		if (n > 1)
			sched_rank(sm->fetch, 0, now, sm->rank_buf, n);
		fetch_warp(sm, sm->rank_buf[0], now);
		return;
	}
	for (uint16_t slot = 0; slot < sm->max_warps; slot++)
		if (sm->views[slot].valid)
			sm->rank_buf[n++] = slot;
	sched_rank(sm->fetch, 0, now, sm->rank_buf, n);
	for (uint32_t i = 0; i < n; i++)
		if (sm->fetch_mask & (1ull << sm->rank_buf[i])) {
			fetch_warp(sm, sm->rank_buf[i], now);
			return;
		}
}

/* ---- the tick ---------------------------------------------------------------------------- */

/* A repeat of the recorded quiet cycle (see struct sm): exactly what the full tick would count. */
static void quiet_repeat(struct sm *sm, uint64_t now)
{
	for (uint32_t s = 0; s < sm->n_sched; s++) {
		sm->sched_cyc[s][sm->quiet.cls[s]]++;
		sm->c.sched_cycles[sm->quiet.cls[s]]++;
	}
	sm->c.cycles++;
	bool alu_busy = sm->alu_busy_until > now;
	sm->c.alu_busy_cycles += alu_busy;
	if (sm->mem_inflight) {
		sm->c.mem_busy_cycles++;
		sm->c.alu_mem_overlap_cycles += alu_busy;
	}
	if (sm->quiet.memblock)
		sm->c.memory_block_cycles++;
	if (sm->quiet.refusals) {
		sm->c.mem_refusals += sm->quiet.refusals;
		sm->mem_repeat_refusals(sm->mem);
	}
	sm->acct_next = now + 1;
	sm->quiet_repeats++;
}

/* Whether the cycle just ticked may be repeated by quiet_repeat (see struct sm). */
static bool quiet_cycle(const struct sm *sm, bool issued, uint64_t now)
{
	if (issued || sm->activity || sm->lwm || sm->failed || !sm->in_kernel || sm->n_resident_warps == 0 ||
	    !(sm->issue->ops->rank_flags & SCHED_RANK_PURE) || !sm->mem_epoch || !(sm->refused || sm->left_behind))
		return false;
	return !sm->tick_refusals || sm->mem_refusals_stable(sm->mem, now);
}

/* Pipeline sleep (speed only; struct sm: pipe_sleep). In a shared pipeline every instruction
 * needs one of its units, so while none is free nothing issues. With no fetch to make, and in
 * every scheduler a READY warp whose cached status no event has touched since the pass (READY
 * holds until an event, and events wake the SM), each cycle until then is a structural stall,
 * the class closest to issue, whatever the other warps' statuses do: full ticking would tick
 * in them only to refresh statuses (the tick after an issue or fetch, the cycle a fetched
 * instruction is decoded). The tick at the free cycle refreshes them as well (a status
 * computed later than due is the one the chain of refreshes would hold). Needs a pure policy
 * (no ranking without an issue), no wrong-path drop in the pass (fetch_fallthrough), no LWM,
 * nothing to retry, drain or finish, and every unit class freeing at the same cycle (so full
 * ticking wakes then too: a ready warp's class). Returns that cycle, or 0. */
static uint64_t pipe_busy_until(const struct sm *sm, uint64_t now)
{
	if (!sm->shared_pipe || sm->lwm || sm->fetch_fallthrough || sm->fetch_mask || sm->refused ||
	    sm->left_behind || sm->drain_ready || sm->finish_ready || !(sm->issue->ops->rank_flags & SCHED_RANK_PURE))
		return 0;
	for (uint32_t s = 0; s < sm->n_sched; s++)
		if (!(sm->ready_mask[s] & ~sm->stale_mask))
			return 0;
	uint64_t first = UINT64_MAX, last = 0;
	for (unsigned u = 0; u < SM_UNIT_CLASSES; u++) {
		uint64_t free_at;
		if (!sm->units[u].count)
			continue;
		if (unit_free(sm, u, now + 1, &free_at) >= 0)
			return 0;
		first = min_u64(first, free_at);
		last = free_at > last ? free_at : last;
	}
	return first == last ? first : 0;
}

void sm_pipe_ticks_before(struct sm *sm, uint64_t end)
{
	if (!sm->pipe_sleep)
		return;
	/* Each such tick: its cycle counted with the sleep classes (structural, as it would have
	 * classified it) and a status pass; it would have slept to what the pass returns. */
	for (uint64_t t = sm->pipe_next; t < end; t = sm->pipe_next) {
		sm_account_skipped(sm, t + 1);
		sm->pipe_next = status_pass(sm, t);
		SIM_ASSERT(sm->pipe_next > t);
	}
}

void sm_pipe_catch_up(struct sm *sm, uint64_t cycle)
{
	sm_pipe_ticks_before(sm, cycle + 1);
	sm->pipe_sleep = false;
}

uint64_t sm_tick(struct sim_component *comp, uint64_t now)
{
	struct sm *sm = (struct sm *)comp;
	sm->pipe_sleep = false; /* this tick refreshes what the ones left out would have */
	if (!sm->in_kernel || sm->failed)
		return SIM_NEVER;
	if (now < sm->acct_next) /* an event's cycle, which sm_pipe_catch_up found full ticking ticked */
		return sm->acct_next;
	if (sm->quiet.valid && now < sm->quiet.until && sm->acct_next == now &&
	    sm->mem_epoch(sm->mem) == sm->quiet.mem_epoch) {
		quiet_repeat(sm, now);
		return now + 1;
	}
	sm->quiet.valid = false;
	sm->in_tick = true;
	sm->activity = false;
	sm->refused = false;
	sm->left_behind = false;
	sm->tick_refusals = 0;
	if (now > sm->acct_next) /* cycles slept through since the last tick (most ticks follow one) */
		sm_account_skipped(sm, now);

	/* Warps whose last memory instructions completed leave now. */
	if (sm->drain_ready) {
		sm->drain_ready = false;
		for (uint16_t slot = 0; slot < sm->max_warps; slot++) {
			struct sm_warp *w = &sm->warps[slot];
			if (w->state == SM_W_DRAINING && w->mem_pending == 0) {
				warp_exit(sm, slot);
				sm->activity = true;
			}
		}
	}

	uint64_t wake = status_pass(sm, now);
	uint32_t n_other = sm->n_other_wait, n_mem = sm->n_mem_wait;

	bool issued = false;
	uint8_t cls[SM_MAX_SCHED];
	/* gpu.core.inorder_backend: an earlier memory instruction holding the memory stage holds
	 * every instruction behind it. Retried each cycle (refused): the stage frees in the memory
	 * unit's own ticks, which do not wake the SM. */
	bool blocked = sm->inorder_backend && sm->mem_stage_busy && sm->mem_stage_busy(sm->mem, now);
	sm->refused |= blocked;
	/* The first scheduler wins a unit another one also wants this cycle. Rotating by the cycle
	 * (not by a counter) keeps the order the same whether or not the SM slept before now. */
	uint32_t first = sm->sched_rotating ? (uint32_t)(now % sm->n_sched) : 0;
	for (uint32_t i = 0; i < sm->n_sched; i++) {
		uint32_t s = first + i < sm->n_sched ? first + i : first + i - sm->n_sched;
		cls[s] = blocked ? sm_schedule_blocked(sm, s) : sm_schedule(sm, s, now);
		issued |= cls[s] == SM_CYC_ISSUED;
		sm->sched_cyc[s][cls[s]]++;
		sm->c.sched_cycles[cls[s]]++;
	}
	sm->c.cycles++;
	bool alu_busy = sm->alu_busy_until > now;
	sm->c.alu_busy_cycles += alu_busy;
	if (sm->mem_inflight) {
		sm->c.mem_busy_cycles++;
		sm->c.alu_mem_overlap_cycles += alu_busy;
	}
	bool nowarp = sm->n_resident_warps == 0;
	/* OWL Sec 3: warps present, all stalled on memory (warps at a barrier or finished wait for
	 * those, so they do not break the condition). */
	bool memblock = !issued && n_mem > 0 && n_other == 0;
	if (issued) {
		sm->c.issue_cycles++;
		sim_progress(sm->sim); /* the watchdog counts cycles without any */
	}
	if (memblock)
		sm->c.memory_block_cycles++;
	if (nowarp)
		sm->c.no_warp_cycles++;
	sm->acct_next = now + 1;

	if (!sm->failed)
		fetch_stage(sm, now);
	if (!sm->failed)
		finish_ctas(sm, now);
	sm->in_tick = false;

	/* What holds while asleep: this cycle's classes, except that schedulers left without
	 * warps by finished CTAs are idle for lack of warps. */
	for (uint32_t s = 0; s < sm->n_sched; s++)
		sm->sleep_class[s] = sm->n_sched_warps[s] ? cls[s] : SM_CYC_NO_WARP;
	sm->sleep_nowarp = sm->n_resident_warps == 0;
	sm->sleep_memblock = memblock && !sm->sleep_nowarp;

	if (sm->failed || !sm->in_kernel)
		return SIM_NEVER;
	if (!blocked && quiet_cycle(sm, issued, now)) {
		sm->quiet.valid = true;
		sm->quiet.until = wake;
		sm->quiet.mem_epoch = sm->mem_epoch(sm->mem);
		sm->quiet.refusals = sm->tick_refusals;
		sm->quiet.memblock = memblock;
		memcpy(sm->quiet.cls, cls, sm->n_sched * sizeof *cls);
	}
	uint64_t next = sm->activity || sm->refused || sm->left_behind ? now + 1 : wake;
	uint64_t busy_until = pipe_busy_until(sm, now);
	if (busy_until > next) {
		for (uint32_t s = 0; s < sm->n_sched; s++)
			sm->sleep_class[s] = SM_CYC_STRUCTURAL;
		sm->sleep_memblock = false; /* the READY warps are not memory stalls */
		sm->pipe_sleep = true;
		sm->pipe_next = next;
		sm->pipe_sleeps++;
		return busy_until;
	}
	SIM_ASSERT(next > now);
	return next;
}
