/* SPDX-License-Identifier: MIT */
/* The SM-side memory unit (memory/mem_req.h): coalescer -> L1D/L1C/L1T (one access per cycle
 * through a single port) -> MSHRs -> miss queue -> NoC, replies back, shared memory, study modes.
 * Tick order within a cycle: replies (fills), the L1 stage, one injection, then completions. */
#include "mem_unit_int.h"

#include <stdlib.h>
#include <string.h>

#include "../noc/noc.h"


/* ---- the L1 stage --------------------------------------------------------------------- */


/* A request a cache sends below at cycle now (a read miss or a store). From the L1D it may not
 * leave before the delay: GPGPU-Sim 4.x's L1 latency queue holds every L1D access for
 * -gpgpu_l1_latency before its tag access, so its misses and stores leave for the NoC that much
 * later (gpu.memory.l1d.miss_delay_cycles). The miss queue (ring) stays in order: requests enter
 * it in cycle order with the same delay, so its head is the first to become ready, and a request
 * behind a waiting one waits too (an instruction-line fetch or a write-back, which GPGPU-Sim
 * sends without that queue: a difference of at most the delay). */
static struct mem_req *req_new_leaving(struct mem_unit *m, enum mem_req_kind kind, uint64_t line_addr,
				       uint32_t bytes, void *owner, uint64_t now)
{
	struct mem_req *r = req_new(m, kind, line_addr, bytes, owner, now);
	if (m->st.cache_id == MU_L1D && m->l1d_miss_delay_cycles)
		r->sm_ready_cycle = now + m->l1d_miss_delay_cycles;
	return r;
}

/* Process one line access of the stage's instruction at cycle now. No side effect on a stall. */
static enum st_result stage_access(struct mem_unit *m, const struct coal_req *cr, uint64_t now)
{
	uint32_t si = m->st.slot;
	struct cache *c = &m->cache[m->st.cache_id];
	uint64_t hit_done = now + c->cfg.hit_latency_cycles;
	/* The constant cache's accesses may be words (l1c.access_granularity, cache_from_cfg);
	 * everything below L1 is in lines. */
	uint64_t line = cache_line_base(c, cr->line_addr);

	if (m->model == MU_PERFECT_L1) {
		slot_served(m, si, hit_done);
		return ST_DONE;
	}
	if (m->st.mem_kind == WI_MEM_ATOMIC) {
		/* Performed at L2 (OWL Sec 3: optimistic atomics); the stale L1 copy is dropped. */
		if (!can_push(m, true, false))
			return ST_STALL_MISSQ;
		cache_invalidate(c, line);
		/* With atomic_segment_bytes, cr is a segment of the line: its own request, carrying
		 * the whole segment both ways as GPGPU-Sim's (its mem_fetch data size is the
		 * segment's, whatever lanes are active); else the active lanes' bytes. */
		uint32_t seg = m->coal_atomic.line_bytes;
		ring_push(m, req_new(m, MEM_REQ_ATOMIC, seg ? cr->line_addr : line, seg ? seg : cr->lane_bytes,
				     &m->slots[si], now));
		note_miss(m, si, now);
		return ST_DONE;
	}
	if (m->st.mem_kind == WI_MEM_STORE) {
		m->mshr_epoch++; /* a written line's sectors may become valid: a probe may now hit */
		if (c->cfg.write_policy == CACHE_WRITE_BACK) {
			/* Write-allocate without fetch: the written sectors become valid and dirty. A
			 * displaced dirty line needs a ring slot, so require one first. */
			if (!can_push(m, false, false))
				return ST_STALL_MISSQ;
			struct cache_outcome o = cache_lookup(c, line, true, cr->sectors);
			if (!o.hit) {
				struct cache_victim v;
				cache_fill(c, line, cr->sectors, true, false, &v);
				if (v.valid && v.dirty)
					ring_push(m, req_new(m, MEM_REQ_WRITEBACK, v.addr, c->cfg.line_bytes, NULL, now));
			}
			slot_served(m, si, hit_done);
			return ST_DONE;
		}
		if (mu_local_store_kept(m, m->st.local, line, cr->sectors, true)) { /* (local is L1D's) */
			slot_served(m, si, hit_done);
			return ST_DONE;
		}
		/* write-through / write-evict: the line state changes per policy, the data goes
		 * below and the store completes on the ack. */
		if (!can_push(m, true, false))
			return ST_STALL_MISSQ;
		cache_lookup(c, line, true, cr->sectors);
		uint32_t bytes = cr->lane_bytes < cr->bytes ? cr->lane_bytes : cr->bytes;
		struct mem_req *r = req_new_leaving(m, MEM_REQ_WRITE, line, bytes, &m->slots[si], now);
		if (m->l2_sector_bytes && m->st.cache_id == MU_L1D) { /* (store_sectors set them) */
			/* GPGPU-Sim's store segment: its sectors travel whole (coal_store_sectors) */
			r->sectors = cr->l2_sectors;
			r->full_sectors = cr->l2_full;
			r->size_bytes = (uint32_t)__builtin_popcount(cr->l2_sectors) * m->l2_sector_bytes;
		}
		ring_push(m, r);
		return ST_DONE;
	}
	/* load */
	if (cache_probe(c, line, cr->sectors)) {
		cache_lookup(c, line, false, cr->sectors);
		slot_served(m, si, hit_done);
		return ST_DONE;
	}
	struct mshr_entry *e = mu_mshr_find(m, m->st.cache_id, line, cr->sectors);
	if (e) {
		if (!mshr_can_merge(&m->mshr, e))
			return ST_STALL_MSHR;
		cache_lookup(c, line, false, cr->sectors);
		mshr_merge(&m->mshr, e, si);
		m->pending_hits[m->st.cache_id]++;
		note_miss(m, si, now);
		return ST_DONE;
	}
	if (!mu_mshr_room(m, m->st.cache_id))
		return ST_STALL_MSHR;
	if (!can_push(m, true, true))
		return ST_STALL_MISSQ;
	bool reserve = m->l1d_alloc_on_miss && m->st.cache_id == MU_L1D;
	if (reserve && !cache_can_reserve(c, line))
		return ST_STALL_MSHR; /* GPGPU-Sim's LINE_ALLOC_FAIL; a fill of the set lifts it */
	cache_lookup(c, line, false, cr->sectors);
	if (reserve) {
		/* The victim leaves now (cache.h: cache_reserve); a dirty one takes the ring place
		 * kept for this entry's fill victim, which the fill then no longer has. */
		struct cache_victim v;
		cache_reserve(c, line, &v);
		if (v.valid && v.dirty)
			ring_push(m, req_new(m, MEM_REQ_WRITEBACK, v.addr, c->cfg.line_bytes, NULL, now));
	}
	e = mshr_alloc(&m->mshr, m->st.cache_id, line, cr->sectors, si, now);
	mf_add(m, e);
	m->mshr_used[e->cache_id]++;
	struct mem_req *r = req_new_leaving(m, MEM_REQ_READ, line,
					    m->st.cache_id == MU_L1C ? c->cfg.line_bytes : cr->bytes, e, now);
	ring_push(m, r);
	note_miss(m, si, now);
	return ST_DONE;
}

/* A stage stalled on the MSHRs is not polled: only a fill frees them, and replies wake the
 * unit. Stall cycles are counted from the first refusal to the success. */
bool mu_stage_step(struct mem_unit *m, uint64_t now)
{
	if (!m->st.busy || m->st.last_cycle == now)
		return false;
	enum st_result r = stage_access(m, &m->st.reqs[m->st.next], now);
	if (r != ST_DONE) {
		if (m->st.stall_on == ST_NOT_STALLED) {
			m->st.stall_since = now;
			m->st.stall_on = r == ST_STALL_MSHR ? ST_ON_MSHR : ST_ON_QUEUE;
		}
		return false;
	}
	if (m->st.stall_on != ST_NOT_STALLED) {
		uint64_t n = now - m->st.stall_since;
		if (m->st.stall_on == ST_ON_MSHR)
			m->stall_mshr_cycles += n;
		else
			m->stall_missq_cycles += n;
		m->st.stall_on = ST_NOT_STALLED;
	}
	m->st.last_cycle = now;
	if (++m->st.next == m->st.n)
		m->st.busy = false;
	return true;
}

/* ---- NoC side ------------------------------------------------------------------------- */

static uint64_t span(const struct mem_req *r, enum mem_stage a, enum mem_stage b)
{
	return (r->t_ps[a] && r->t_ps[b] && r->t_ps[b] >= r->t_ps[a]) ? r->t_ps[b] - r->t_ps[a] : 0;
}

static bool inject_step(struct mem_unit *m, uint64_t now)
{
	if (!m->ring_n || !m->ports.noc)
		return false;
	struct mem_req *r = m->ring[m->ring_head];
	if (r->sm_ready_cycle > now)
		return false; /* still in the L1 latency queue (l1d_ready_cycle) */
	uint32_t size = MU_REQ_HDR_BYTES;
	if (r->kind == MEM_REQ_WRITE || r->kind == MEM_REQ_ATOMIC || r->kind == MEM_REQ_WRITEBACK)
		size += r->size_bytes;
	struct noc *n = m->ports.noc;
	SIM_ASSERT(r->channel < n->n_mcs);
	if (!noc_try_inject(n, m->ports.noc_node, n->mc_node[r->channel], NOC_CLASS_REQ, size, r)) {
		m->inject_retry_cycles++;
		return false;
	}
	r->t_ps[MEM_T_NOC_INJECT] = sim_clock_edge_ps(m->clk, now);
	m->ring_head = (m->ring_head + 1) % m->ring_cap;
	m->ring_n--;
	if (r->kind != MEM_REQ_WRITEBACK)
		m->missq_demand--;
	if (r->no_ack) {
		/* no reply will come (gpu.l2.write_ack = false): a store is done now, and the L2
		 * returns the request to req_pool; r is not touched after this */
		if (r->kind == MEM_REQ_WRITE) {
			stat_avg_add(&m->lat_store, ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_NOC_INJECT)));
			slot_served(m, (uint32_t)((struct mu_slot *)r->owner_ctx - m->slots), now);
		}
		m->reqs_live--;
	}
	return true;
}

/* Round trip of a load miss split as OWL-style breakdowns need: SM miss queue, NoC both ways,
 * L2 (slice time not spent below it), MC queue, DRAM service. */
static void record_latency(struct mem_unit *m, const struct mem_req *r)
{
	uint64_t total = span(r, MEM_T_ISSUE, MEM_T_DONE);
	uint64_t noc = span(r, MEM_T_NOC_INJECT, MEM_T_L2_ARRIVE) + span(r, MEM_T_L2_REPLY, MEM_T_DONE);
	uint64_t mcq = span(r, MEM_T_MC_ENQUEUE, MEM_T_DRAM_ISSUE);
	uint64_t dram = span(r, MEM_T_DRAM_ISSUE, MEM_T_DRAM_DONE);
	uint64_t below = span(r, MEM_T_MC_ENQUEUE, MEM_T_DRAM_DONE);
	uint64_t l2 = span(r, MEM_T_L2_ARRIVE, MEM_T_L2_REPLY);
	l2 = l2 > below ? l2 - below : 0;
	stat_avg_add(&m->lat_total, ps_to_cycles(m, total));
	stat_avg_add(&m->lat_smq, ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_NOC_INJECT)));
	stat_avg_add(&m->lat_noc, ps_to_cycles(m, noc));
	stat_avg_add(&m->lat_l2, ps_to_cycles(m, l2));
	stat_avg_add(&m->lat_mcq, ps_to_cycles(m, mcq));
	stat_avg_add(&m->lat_dram, ps_to_cycles(m, dram));
	uint64_t cyc = (uint64_t)(ps_to_cycles(m, total) + 0.5);
	uint32_t b = 0;
	while (b + 1 < MU_HIST_BUCKETS && cyc >= (32ull << b))
		b++;
	m->lat_hist[b]++;
}

/* Take one reply; false if none. *filled: it was a read's fill (L1, MSHRs and ring changed). */
static bool eject_step(struct mem_unit *m, uint64_t now, bool *filled)
{
	struct noc *n = m->ports.noc;
	if (!n)
		return false;
	struct mem_req *r = noc_try_eject(n, m->ports.noc_node, NOC_CLASS_REPLY);
	if (!r)
		return false;
	SIM_ASSERT(r->is_reply && r->src_sm == m->sm_id);
	if (r->reply_parts > 1) { /* a sectored L2's sector reply; the request is done on the last */
		r->reply_parts--;
		return true;
	}
	r->t_ps[MEM_T_DONE] = sim_clock_edge_ps(m->clk, now);
	if (r->ifetch) {
		/* An instruction line: nothing of the unit's caches or MSHRs changes; the SM's fetch
		 * takes it (sm_ifetch_done wakes the SM). */
		SIM_ASSERT(r->kind == MEM_REQ_READ);
		m->ifetch_lat_sum_cycles += (uint64_t)(ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_DONE)) + 0.5);
		m->ports.ifetch_done(m->ports.sm_ctx, r->addr, sim_now_ps(m->sim));
		sim_pool_free(&m->req_pool, r);
		m->reqs_live--;
		return true;
	}
	switch (r->kind) {
	case MEM_REQ_READ: {
		struct mshr_entry *e = r->owner_ctx;
		SIM_ASSERT(e && e->valid && e->line_addr == r->addr);
		struct cache *c = &m->cache[e->cache_id];
		struct cache_victim v;
		cache_fill(c, e->line_addr, e->sectors, false, false, &v);
		if (v.valid && v.dirty)
			ring_push(m, req_new(m, MEM_REQ_WRITEBACK, v.addr, c->cfg.line_bytes, NULL, now));
		record_latency(m, r);
		for (uint32_t i = 0; i < e->n_targets; i++)
			slot_served(m, e->targets[i], now);
		mf_del(m, e);
		m->mshr_used[e->cache_id]--;
		mshr_release(&m->mshr, e);
		m->mshr_epoch++;
		*filled = true;
		break;
	}
	case MEM_REQ_WRITE:
	case MEM_REQ_ATOMIC: {
		struct mu_slot *s = r->owner_ctx;
		if (r->kind == MEM_REQ_ATOMIC)
			record_latency(m, r);
		else
			stat_avg_add(&m->lat_store, ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_DONE)));
		slot_served(m, (uint32_t)(s - m->slots), now);
		break;
	}
	case MEM_REQ_WRITEBACK:
		break;
	default:
		SIM_ASSERT(0 && "unexpected reply kind at an SM");
	}
	sim_pool_free(&m->req_pool, r);
	m->reqs_live--;
	return true;
}

/* ---- launch flush (gpu.memory.l1d.flush_at_launch) ----------------------------------------- */

/* The flushed dirty lines go below as write-backs, as many as the ring has room for (never
 * the room kept for pending fills' victims: can_push); true when one was queued. */
static bool flush_step(struct mem_unit *m, uint64_t now)
{
	bool any = false;
	while (m->flush_wb_next < m->flush_wb_n && can_push(m, false, false)) {
		uint64_t a = m->flush_wb[m->flush_wb_next++];
		ring_push(m, req_new(m, MEM_REQ_WRITEBACK, a, m->cache[MU_L1D].cfg.line_bytes, NULL, now));
		any = true;
	}
	return any;
}

/* ---- tick ------------------------------------------------------------------------------- */

/* may_have_reply: false when the caller peeked this cycle and found no reply to eject (the
 * reply queue changes only by the NoC's own steps and by eject_step, so the answer holds to
 * the end of the tick and the peek, an indirect call, is not repeated). */
static uint64_t next_need(struct mem_unit *m, uint64_t cycle, bool may_have_reply)
{
	/* A stage waiting on the MSHRs sleeps until a reply wakes the unit; one waiting on the
	 * queue is retried while the queue drains. */
	if ((m->st.busy && m->st.stall_on != ST_ON_MSHR) || m->flush_wb_next < m->flush_wb_n)
		return cycle + 1;
	/* the ring's head leaves first, no earlier than its ready cycle (l1d_ready_cycle) */
	uint64_t ring_next = SIM_NEVER;
	if (m->ring_n) {
		uint64_t ready = m->ring[m->ring_head]->sm_ready_cycle;
		if (ready <= cycle + 1)
			return cycle + 1;
		ring_next = ready;
	}
	if (may_have_reply && m->ports.noc && noc_peek_eject(m->ports.noc, m->ports.noc_node, NOC_CLASS_REPLY))
		return cycle + 1;
	/* Replies still in the NoC wake the unit (noc sink) when they become ejectable. */
	if (m->heap_n) {
		uint64_t done = m->heap[0].cycle > cycle ? m->heap[0].cycle : cycle + 1;
		return done < ring_next ? done : ring_next;
	}
	return ring_next;
}

uint64_t mu_next_need(struct mem_unit *m, uint64_t cycle) { return next_need(m, cycle, true); }

static uint64_t mu_tick(struct sim_component *comp, uint64_t cycle)
{
	struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	/* Whether a refusal could now be decided differently (struct mem_unit: epoch). */
	bool filled = false, was_busy = m->st.busy, slots_full = m->slots_used >= m->n_slots;
	bool ejected = eject_step(m, cycle, &filled);
	mu_stage_step(m, cycle);
	bool moved = filled || (was_busy && !m->st.busy);
	if (m->flush_wb_next < m->flush_wb_n && flush_step(m, cycle))
		moved = true; /* the ring filled: a miss may now be refused (as mem_unit_ifetch) */
	if (inject_step(m, cycle) && m->missq_refused)
		moved = true;
	bool any = false;
	while (m->heap_n && m->heap[0].cycle <= cycle) {
		struct mu_heap_ent e = heap_pop(m);
		struct mu_slot *s = &m->slots[e.slot];
		SIM_ASSERT(s->used && s->pending == 0);
		uint64_t token = s->token;
		slot_free(m, e.slot);
		m->ports.done(m->ports.sm_ctx, token, sim_now_ps(m->sim));
		any = true;
	}
	if (moved || (any && slots_full))
		epoch_move(m);
	if (any) {
		sim_progress(m->sim);
		if (m->ports.sm)
			sim_component_wake(m->ports.sm);
	}
	return next_need(m, cycle, ejected);
}

static uint64_t mu_outstanding(const struct sim_component *comp)
{
	const struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	return mem_unit_outstanding(m);
}

static void mu_dump(const struct sim_component *comp, FILE *out)
{
	const struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	fprintf(out, "%s: %u instructions in flight, stage %s (%u/%u accesses), miss queue %u (%u demand), "
		"MSHR %u/%u used, %llu requests below L1\n",
		m->name, m->slots_used, m->st.busy ? "busy" : "idle", m->st.next, m->st.n, m->ring_n,
		m->missq_demand, m->mshr.used, m->mshr.cfg.entries, (unsigned long long)m->reqs_live);
	for (uint32_t i = 0; i < m->mshr.cfg.entries; i++) {
		const struct mshr_entry *e = &m->mshr.e[i];
		if (e->valid)
			fprintf(out, "  mshr %u: %s line 0x%llx, %u targets, since cycle %llu\n", i,
				mu_cache_names[e->cache_id], (unsigned long long)e->line_addr, e->n_targets,
				(unsigned long long)e->alloc_cycle);
	}
}

const struct sim_component_ops mu_ops = {
	.tick = mu_tick,
	.outstanding = mu_outstanding,
	.dump = mu_dump,
};

void mem_unit_kernel_begin(struct mem_unit *m, uint64_t now_cycle)
{
	if (!m->flush_at_launch)
		return;
	/* A launch starts once the last one drained (the engine ran to quiescence), so no fill is
	 * pending to revive a line after the flush, nor an instruction in the L1 stage. */
	SIM_ASSERT(m->mshr.used == 0 && m->slots_used == 0 && !m->st.busy);
	uint32_t dirty = 0;
	/* a write-back L1D's dirty lines are written back, never dropped (mem_unit_build.c) */
	SIM_ASSERT(m->flush_wb || m->cache[MU_L1D].cfg.write_policy != CACHE_WRITE_BACK);
	m->flushed_lines += cache_invalidate_all(&m->cache[MU_L1D], m->flush_wb, &dirty);
	m->flushes++;
	/* Write-back dirty lines are sent, as GPGPU-Sim 2.x's shader_cache_flush does; a
	 * write-through or write-evict L1D holds none; a local-wb-global-evict one (l1d_local_wb)
	 * has no flush_wb, so its dirty local lines are dropped, as GPGPU-Sim 3.x/4.x's
	 * invalidation drops them. Those of a previous flush still queued were sent before this
	 * launch could start (outstanding work). */
	SIM_ASSERT(m->flush_wb_next == m->flush_wb_n && (!dirty || m->ports.noc));
	m->flush_wb_n = dirty;
	m->flush_wb_next = 0;
	/* The L1D's tags changed: refusals decided before are not repeated from notes. */
	m->mshr_epoch++;
	epoch_move(m);
	if (dirty) {
		flush_step(m, now_cycle);
		sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
	}
}
