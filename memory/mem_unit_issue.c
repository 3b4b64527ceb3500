/* SPDX-License-Identifier: MIT */
/* The memory unit's issue side (memory/mem_req.h): an SM's memory instruction is coalesced,
 * prechecked against the MSHRs and the miss queue, refused or accepted into the L1 stage
 * (mem_unit.c runs the stage, the NoC side and the tick); refusal notes and queries. */
#include "mem_unit_int.h"

#include <string.h>

/* ---- issue ------------------------------------------------------------------------------ */

/* Would stage_access need a new MSHR entry (or miss-queue slot) for any access of the
 * coalesced instruction? Used to refuse up front rather than accept and stall. */
static enum st_result precheck(struct mem_unit *m, uint8_t cache_id, uint8_t kind)
{
	if (m->model == MU_PERFECT_L1)
		return ST_DONE;
	if (kind == WI_MEM_STORE)
		return can_push(m, m->cache[cache_id].cfg.write_policy != CACHE_WRITE_BACK, false) ? ST_DONE
												 : ST_STALL_MISSQ;
	if (kind == WI_MEM_ATOMIC)
		return can_push(m, true, false) ? ST_DONE : ST_STALL_MISSQ;
	for (uint32_t i = 0; i < m->st.n; i++) {
		const struct coal_req *cr = &m->st.reqs[i];
		uint64_t line = cache_line_base(&m->cache[cache_id], cr->line_addr);
		if (cache_probe(&m->cache[cache_id], line, cr->sectors))
			continue;
		struct mshr_entry *e = mu_mshr_find(m, cache_id, line, cr->sectors);
		if (e && mshr_can_merge(&m->mshr, e))
			continue;
		if (e || !mu_mshr_room(m, cache_id))
			return ST_STALL_MSHR;
		if (!can_push(m, true, true))
			return ST_STALL_MISSQ;
		if (m->l1d_alloc_on_miss && cache_id == MU_L1D && !cache_can_reserve(&m->cache[cache_id], line))
			return ST_STALL_MSHR;
	}
	return ST_DONE;
}

/* Starts the refusal record of cycle now on its first refusal. */
static void rf_begin(struct mem_unit *m, uint64_t now)
{
	if (m->rf_cycle == now)
		return;
	m->rf_cycle = now;
	memset(m->rf, 0, sizeof m->rf);
}

/* Count a refusal at cycle now under its reason (in this cycle's record and in the stat);
 * false, for `return refuse(...)`. */
static bool refuse(struct mem_unit *m, uint64_t now, enum mem_refusal why)
{
	rf_begin(m, now);
	m->rf[why]++;
	m->refused[why]++;
	m->rf_last = (uint8_t)why;
	m->rf_last_full = why == MEM_REFUSE_MSHR && !mshr_free_entries(&m->mshr);
	if (why == MEM_REFUSE_MISSQ)
		m->missq_refused = true;
	return false;
}

/* A refusal by the precheck: MSHRs or the miss queue. */
static bool refuse_stall(struct mem_unit *m, uint64_t now, enum st_result pre)
{
	return refuse(m, now, pre == ST_STALL_MSHR ? MEM_REFUSE_MSHR : MEM_REFUSE_MISSQ);
}

/* Everything but a refusal for a busy stage (mem_unit_try_issue). */
static __attribute__((noinline)) bool try_issue(struct mem_unit *m, const struct warp_inst *wi, uint64_t token,
						uint64_t now_cycle)
{
	const struct wi_static *si = wi->si;
	/* (mem_unit_refuse_now has refused for a full slot table, busy banks or a busy stage) */
	if (si->space == WI_SPACE_SHARED) {
		/* Banks serve one word each per pass; a k-way conflict takes k passes, and the
		 * banks are busy for all of them. */
		uint32_t passes = shmem_passes(&m->shm, wi, m->shm_scratch);
		if (!passes)
			passes = 1;
		uint32_t s = slot_alloc(m, token, now_cycle);
		m->shm_free_cycle = now_cycle + passes;
		m->shared_insts++;
		m->shared_conflict_cycles += passes - 1;
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + (passes - 1) + m->shm.latency_cycles);
		sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
		epoch_move(m);
		return true;
	}
	if (m->model == MU_FIXED) {
		uint32_t s = slot_alloc(m, token, now_cycle);
		m->insts[si->mem_kind]++;
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + m->fixed_latency_cycles);
		if (si->mem_kind != WI_MEM_STORE)
			note_miss(m, s, now_cycle); /* the fixed latency stands for L2 / DRAM */
		sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
		epoch_move(m);
		return true;
	}
	SIM_ASSERT(!m->st.busy);
	uint8_t cid = mu_space_cache(si->space);
	const struct coal_cfg *cc =
		si->mem_kind == WI_MEM_ATOMIC && m->coal_atomic.line_bytes ? &m->coal_atomic : &m->coal[cid];
	struct mu_memo *mo = NULL;
	bool hit = false;
	if (wi->n_lanes <= MU_MEMO_LANES) {
		mo = &m->memo[memo_index(token)];
		/* (mem_kind too: an atomic's requests may be segments, a load's the same lanes' lines) */
		if (mo->valid && mo->token == token && mo->cache_id == cid && mo->mem_kind == si->mem_kind &&
		    mo->n_lanes == wi->n_lanes &&
		    mo->access_bytes == wi->access_bytes && mo->mask == wi->mask[0] &&
		    !memcmp(mo->addr, wi->addr, wi->n_lanes * sizeof *wi->addr)) {
			hit = true;
			if (mo->epoch == m->epoch && mo->mem_kind == si->mem_kind && mo->pre != ST_DONE) {
				/* Refused at this epoch: refused again for the same reason (the stage's
				 * request list is only needed by an accepted instruction). */
				m->st.n = mo->n_reqs;
				m->st.next = 0;
				m->st.cache_id = cid;
				m->st.mem_kind = si->mem_kind;
				m->st.local = si->space == WI_SPACE_LOCAL;
				return refuse_stall(m, now_cycle, (enum st_result)mo->pre);
			}
			m->st.n = mo->n_reqs;
			memcpy(m->st.reqs, mo->reqs, mo->n_reqs * sizeof *mo->reqs);
		} else {
			m->st.n = coal_run(cc, wi, m->st.reqs);
			store_sectors(m, si->mem_kind, cid, wi);
			mo->valid = false;
		}
	} else {
		m->st.n = coal_run(cc, wi, m->st.reqs);
		store_sectors(m, si->mem_kind, cid, wi);
	}
	m->st.next = 0;
	m->st.cache_id = cid;
	m->st.mem_kind = si->mem_kind;
	m->st.local = si->space == WI_SPACE_LOCAL;
	enum st_result pre = hit && mo->epoch == m->epoch && mo->mem_kind == si->mem_kind
				     ? (enum st_result)mo->pre
				     : precheck(m, cid, si->mem_kind);
	if (pre != ST_DONE && !m->hold_on_fail) {
		if (mo) {
			mo->mem_kind = si->mem_kind;
			mo->pre = (uint8_t)pre;
			mo->epoch = m->epoch;
		}
		/* (an access wider than a constant-cache word can give more requests than an entry
		 * holds: not memoised) */
		if (mo && !hit && m->st.n <= 2 * MU_MEMO_LANES) {
			mo->valid = true;
			mo->token = token;
			mo->cache_id = cid;
			mo->n_lanes = wi->n_lanes;
			mo->access_bytes = wi->access_bytes;
			mo->mask = wi->mask[0];
			memcpy(mo->addr, wi->addr, wi->n_lanes * sizeof *wi->addr);
			mo->n_reqs = m->st.n;
			memcpy(mo->reqs, m->st.reqs, m->st.n * sizeof *mo->reqs);
		}
		return refuse_stall(m, now_cycle, pre);
	}
	uint32_t s = slot_alloc(m, token, now_cycle);
	m->insts[si->mem_kind]++;
	m->line_accesses += m->st.n;
	stat_avg_add(&m->reqs_per_inst, m->st.n);
	if (m->st.n == 0) {
		/* No active lane: completes at once (next cycle). */
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + 1);
	} else {
		m->slots[s].pending = m->st.n;
		m->slots[s].is_load = si->mem_kind == WI_MEM_LOAD;
		m->st.slot = s;
		m->st.busy = true;
		m->st.last_cycle = UINT64_MAX;
		/* The first access uses the port in the issue cycle; the precheck guarantees it
		 * is accepted (unless hold_on_fail: then it may wait in the stage), the rest follow
		 * one per cycle from the unit's own ticks. */
		mu_stage_step(m, now_cycle);
	}
	sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
	epoch_move(m);
	return true;
}

/* The refusals that need no look at the addresses are decided first, without the full
 * function's register saves (about 40 % of the calls on a streaming kernel are refused for a
 * busy stage). */
bool mem_unit_try_issue(struct mem_unit *m, const struct warp_inst *wi, uint64_t token, uint64_t now_cycle)
{
	SIM_ASSERT(wi->si->mem_kind != WI_MEM_NONE);
	if (mem_unit_refuse_now(m, wi, now_cycle))
		return false;
	return try_issue(m, wi, token, now_cycle);
}

/* The two parts of the access stage an accepted instruction may still hold: the shared banks
 * serialising a conflict, and (not in the fixed model) the L1 stage's further line passes. */
static inline bool shm_held(const struct mem_unit *m, uint64_t now_cycle)
{
	return now_cycle < m->shm_free_cycle;
}

static inline bool l1_stage_held(const struct mem_unit *m)
{
	return m->model != MU_FIXED && m->st.busy;
}

/* The refusals of an instruction that is not shared that read no address, in try_issue's
 * order: a full slot table, then the stage busy. */
static bool refuse_unaddressed(struct mem_unit *m, uint64_t now_cycle)
{
	if (m->slots_used >= m->n_slots)
		return !refuse(m, now_cycle, MEM_REFUSE_SLOTS);
	if (l1_stage_held(m))
		return !refuse(m, now_cycle, MEM_REFUSE_BUSY);
	return false;
}

/* try_issue's first checks, in its order: a full slot table, then shared banks still
 * serialising, then (not shared, not the fixed model) the stage busy. */
bool mem_unit_refuse_now(struct mem_unit *m, const struct warp_inst *wi, uint64_t now_cycle)
{
	if (wi->si->space != WI_SPACE_SHARED)
		return refuse_unaddressed(m, now_cycle);
	if (m->slots_used >= m->n_slots)
		return !refuse(m, now_cycle, MEM_REFUSE_SLOTS);
	return shm_held(m, now_cycle) && !refuse(m, now_cycle, MEM_REFUSE_SHARED);
}

bool mem_unit_stage_busy(const struct mem_unit *m, uint64_t now_cycle)
{
	return shm_held(m, now_cycle) || l1_stage_held(m);
}

bool mem_unit_has_ifetch(const struct mem_unit *m) { return m->ports.noc && m->ports.ifetch_done; }

bool mem_unit_ifetch(struct mem_unit *m, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle)
{
	SIM_ASSERT(mem_unit_has_ifetch(m));
	if (!can_push(m, true, false))
		return false;
	struct mem_req *r = req_new(m, MEM_REQ_READ, line_addr, bytes, NULL, now_cycle);
	r->ifetch = 1;
	m->ifetch_sent++;
	ring_push(m, r);
	sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
	epoch_move(m); /* the miss queue filled by one: a data miss may now be refused */
	return true;
}

uint64_t mem_unit_outstanding(const struct mem_unit *m)
{
	return m->slots_used + m->reqs_live + (m->flush_wb_n - m->flush_wb_next);
}

struct sim_component *mem_unit_component(struct mem_unit *m) { return &m->comp; }

uint64_t mem_unit_epoch(const struct mem_unit *m) { return m->epoch; }

bool mem_unit_refusals_stable(const struct mem_unit *m, uint64_t now_cycle)
{
	return m->rf_cycle == now_cycle && m->rf[MEM_REFUSE_SHARED] == 0;
}

void mem_unit_repeat_refusals(struct mem_unit *m)
{
	for (int why = 0; why < MEM_REFUSE_N; why++)
		m->refused[why] += m->rf[why];
}

bool mem_unit_note_refusal(const struct mem_unit *m, const struct warp_inst *wi, struct mem_refusal_note *note)
{
	if (wi->si->space == WI_SPACE_SHARED)
		return false;
	note->epoch = m->epoch;
	note->mshr_epoch = m->mshr_epoch;
	note->why = m->rf_last;
	note->full = m->rf_last_full;
	return true;
}

bool mem_unit_refuse_again(struct mem_unit *m, const struct mem_refusal_note *note, uint64_t now_cycle)
{
	if (note->epoch == m->epoch)
		return !refuse(m, now_cycle, (enum mem_refusal)note->why);
	if (refuse_unaddressed(m, now_cycle)) /* notes are of instructions that are not shared */
		return true;
	if (note->full && note->mshr_epoch == m->mshr_epoch)
		return !refuse(m, now_cycle, MEM_REFUSE_MSHR);
	return false;
}
