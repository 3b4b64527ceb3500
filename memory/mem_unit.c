/* SPDX-License-Identifier: MIT */
/* The SM-side memory unit (memory/mem_req.h): coalescer -> L1D/L1C/L1T (one access per cycle
 * through a single port) -> MSHRs -> miss queue -> NoC, replies back, shared memory, study modes.
 * Tick order within a cycle: replies (fills), the L1 stage, one injection, then completions. */
#include "mem_unit_int.h"

#include <stdlib.h>
#include <string.h>

#include "../noc/noc.h"

/* ---- small helpers ---------------------------------------------------------------- */

static double ps_to_cycles(const struct mem_unit *m, uint64_t ps)
{
	return (double)ps * (double)m->clk->freq_mhz / 1e6;
}

static void heap_push(struct mem_unit *m, uint64_t cycle, uint32_t slot)
{
	SIM_ASSERT(m->heap_n < m->n_slots);
	uint32_t i = m->heap_n++;
	struct mu_heap_ent e = {cycle, m->heap_seq++, slot};
	while (i) {
		uint32_t p = (i - 1) / 2;
		struct mu_heap_ent *pe = &m->heap[p];
		if (pe->cycle < e.cycle || (pe->cycle == e.cycle && pe->seq < e.seq))
			break;
		m->heap[i] = *pe;
		i = p;
	}
	m->heap[i] = e;
}

static struct mu_heap_ent heap_pop(struct mem_unit *m)
{
	struct mu_heap_ent top = m->heap[0];
	struct mu_heap_ent last = m->heap[--m->heap_n];
	uint32_t i = 0, n = m->heap_n;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, s = i;
		struct mu_heap_ent *best = &last;
		if (l < n && (m->heap[l].cycle < best->cycle ||
			      (m->heap[l].cycle == best->cycle && m->heap[l].seq < best->seq))) {
			s = l;
			best = &m->heap[l];
		}
		if (r < n && (m->heap[r].cycle < best->cycle ||
			      (m->heap[r].cycle == best->cycle && m->heap[r].seq < best->seq)))
			s = r;
		if (s == i)
			break;
		m->heap[i] = m->heap[s];
		i = s;
	}
	if (n)
		m->heap[i] = last;
	return top;
}

static uint32_t slot_alloc(struct mem_unit *m, uint64_t token, uint64_t now_cycle)
{
	SIM_ASSERT(m->slots_used < m->n_slots);
	uint32_t i = m->slot_free[m->n_slots - 1 - m->slots_used];
	struct mu_slot *s = &m->slots[i];
	SIM_ASSERT(!s->used);
	memset(s, 0, sizeof *s);
	s->used = true;
	s->token = token;
	s->issue_cycle = now_cycle;
	m->slots_used++;
	return i;
}

static void slot_free(struct mem_unit *m, uint32_t i)
{
	m->slots[i].used = false;
	m->slots_used--;
	m->slot_free[m->n_slots - 1 - m->slots_used] = i;
}

/* Slot si's data comes from below L1 (mem_missed_fn): tell the SM once. */
static void note_miss(struct mem_unit *m, uint32_t si, uint64_t now_cycle)
{
	struct mu_slot *s = &m->slots[si];
	if (s->missed || !m->ports.missed)
		return;
	s->missed = true;
	m->ports.missed(m->ports.sm_ctx, s->token, sim_clock_edge_ps(m->clk, now_cycle));
}

/* One access of slot done at ready; when none is left, queue the completion. */
static void slot_served(struct mem_unit *m, uint32_t si, uint64_t ready_cycle)
{
	struct mu_slot *s = &m->slots[si];
	SIM_ASSERT(s->used && s->pending > 0);
	if (ready_cycle > s->ready_cycle)
		s->ready_cycle = ready_cycle;
	if (--s->pending == 0)
		heap_push(m, s->ready_cycle, si);
}

static struct mem_req *req_new(struct mem_unit *m, enum mem_req_kind kind, uint64_t line_addr,
			       uint32_t bytes, void *owner, uint64_t now_cycle)
{
	struct mem_req *r = sim_pool_alloc(&m->req_pool);
	SIM_ASSERT(r); /* the pool grows only when the system is out of memory */
	r->addr = line_addr;
	r->size_bytes = bytes;
	r->kind = (uint8_t)kind;
	r->ifetch = 0;
	r->src_sm = (uint16_t)m->sm_id;
	r->channel = m->have_addrmap ? (uint16_t)mem_addr_slice(&m->amap, line_addr) : 0;
	r->id = ((uint64_t)m->sm_id << 40) | m->next_req_id++;
	r->t_ps[MEM_T_ISSUE] = sim_clock_edge_ps(m->clk, now_cycle);
	r->owner_ctx = owner;
	m->reqs_live++;
	m->sent[kind]++;
	return r;
}

/* A store's requests to a sectored L2 get the sectors they write (coalescer.h). */
static void store_sectors(struct mem_unit *m, uint8_t mem_kind, uint8_t cid, const struct warp_inst *wi)
{
	if (!m->l2_sector_bytes || mem_kind != WI_MEM_STORE || cid != MU_L1D)
		return;
	for (uint32_t i = 0; i < m->st.n; i++) {
		struct coal_req *r = &m->st.reqs[i];
		r->l2_sectors = coal_store_sectors(wi, r, m->coal[MU_L1D].line_bytes, m->l2_line_bytes,
						   m->l2_sector_bytes, &r->l2_full);
	}
}

static void ring_push(struct mem_unit *m, struct mem_req *r)
{
	SIM_ASSERT(m->ring_n < m->ring_cap);
	m->ring[(m->ring_head + m->ring_n) % m->ring_cap] = r;
	m->ring_n++;
	if (r->kind != MEM_REQ_WRITEBACK)
		m->missq_demand++;
}

/* Room for a push other than a fill's victim. Invariant: ring_n + mshr.used <= ring_cap, so
 * every pending fill (each holds an MSHR entry) always finds room for its dirty victim and
 * replies are ejected unconditionally: the reply network never waits on the request network
 * (no protocol deadlock through the SM). demand: counts against the miss queue; new_mshr: the
 * push also takes an MSHR entry. */
static bool can_push(const struct mem_unit *m, bool demand, bool new_mshr)
{
	if (demand && m->missq_demand >= m->missq_cap)
		return false;
	return m->ring_n + m->mshr.used + 1 + (new_mshr ? 1 : 0) <= m->ring_cap;
}

/* The memo entry for token. Any token works (entries are validated), but the index is chosen
 * for the SM's tokens, (warp slot << 8) | scoreboard entry: a warp has one instruction refused
 * at a time, so the slot bits give each waiting warp its own entry. Mixing in the low bits
 * made warps collide ((slot ^ entry) & 63) and evict each other's requests every cycle. */
static inline uint32_t memo_index(uint64_t token)
{
	return (uint32_t)((token >> 8) ^ (token >> 14) ^ (token >> 20)) & (MU_MEMO_ENTRIES - 1);
}

static inline void epoch_move(struct mem_unit *m)
{
	m->epoch++;
	m->missq_refused = false;
}

/* ---- MSHR line filter (struct mem_unit: mf_*) ---------------------------------------- */

static inline uint32_t mf_bucket(const struct mem_unit *m, uint64_t line)
{
	uint64_t x = line >> m->mf_shift;
	return (uint32_t)(x ^ (x >> 8) ^ (x >> 16)) & (MU_MF_BUCKETS - 1);
}

static inline void mf_add(struct mem_unit *m, const struct mshr_entry *e)
{
	uint32_t b = mf_bucket(m, e->line_addr);
	m->mf_x[b] ^= (uint16_t)(e - m->mshr.e);
	if (m->mf_cnt[b]++ == 0)
		m->mf_bits[b / 64] |= UINT64_C(1) << (b % 64);
}

static inline void mf_del(struct mem_unit *m, const struct mshr_entry *e)
{
	uint32_t b = mf_bucket(m, e->line_addr);
	SIM_ASSERT(m->mf_cnt[b] > 0);
	m->mf_x[b] ^= (uint16_t)(e - m->mshr.e);
	if (--m->mf_cnt[b] == 0)
		m->mf_bits[b / 64] &= ~(UINT64_C(1) << (b % 64));
}

/* mshr_find, without its scan when no entry can hold the line. */
static inline struct mshr_entry *mu_mshr_find(struct mem_unit *m, uint8_t cache_id, uint64_t line,
					      uint32_t sectors)
{
	uint32_t b = mf_bucket(m, line);
	if (!(m->mf_bits[b / 64] >> (b % 64) & 1))
		return NULL;
	if (m->mf_cnt[b] == 1) {
		/* The only entry whose line falls here: mshr_find's answer is it or none. */
		struct mshr_entry *e = &m->mshr.e[m->mf_x[b]];
		SIM_ASSERT(e->valid);
		return e->line_addr == line && e->cache_id == cache_id && (e->sectors & sectors) == sectors ? e : NULL;
	}
	return mshr_find(&m->mshr, cache_id, line, sectors);
}

/* ---- the L1 stage --------------------------------------------------------------------- */

enum st_result { ST_DONE, ST_STALL_MSHR, ST_STALL_MISSQ };

/* Process one line access of the stage's instruction at cycle now. No side effect on a stall. */
static enum st_result stage_access(struct mem_unit *m, const struct coal_req *cr, uint64_t now)
{
	uint32_t si = m->st.slot;
	struct cache *c = &m->cache[m->st.cache_id];
	uint64_t hit_done = now + c->cfg.hit_latency_cycles;
	/* The constant cache's accesses are words (see cache_from_cfg); everything below L1 is
	 * in lines. */
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
		/* write-through / write-evict: the line state changes per policy, the data goes
		 * below and the store completes on the ack. */
		if (!can_push(m, true, false))
			return ST_STALL_MISSQ;
		cache_lookup(c, line, true, cr->sectors);
		uint32_t bytes = cr->lane_bytes < cr->bytes ? cr->lane_bytes : cr->bytes;
		struct mem_req *r = req_new(m, MEM_REQ_WRITE, line, bytes, &m->slots[si], now);
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
	if (!mshr_free_entries(&m->mshr))
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
	ring_push(m, req_new(m, MEM_REQ_READ, line, m->st.cache_id == MU_L1C ? c->cfg.line_bytes : cr->bytes, e, now));
	note_miss(m, si, now);
	return ST_DONE;
}

/* A stage stalled on the MSHRs is not polled: only a fill frees them, and replies wake the
 * unit. Stall cycles are counted from the first refusal to the success. */
static bool stage_step(struct mem_unit *m, uint64_t now)
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

static bool inject_step(struct mem_unit *m, uint64_t now)
{
	if (!m->ring_n || !m->ports.noc)
		return false;
	struct mem_req *r = m->ring[m->ring_head];
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
	return true;
}

static uint64_t span(const struct mem_req *r, enum mem_stage a, enum mem_stage b)
{
	return (r->t_ps[a] && r->t_ps[b] && r->t_ps[b] >= r->t_ps[a]) ? r->t_ps[b] - r->t_ps[a] : 0;
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
	struct mem_req *r = noc_peek_eject(n, m->ports.noc_node, NOC_CLASS_REPLY);
	if (!r)
		return false;
	noc_try_eject(n, m->ports.noc_node, NOC_CLASS_REPLY);
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
	if ((m->st.busy && m->st.stall_on != ST_ON_MSHR) || m->ring_n || m->flush_wb_next < m->flush_wb_n)
		return cycle + 1;
	if (may_have_reply && m->ports.noc && noc_peek_eject(m->ports.noc, m->ports.noc_node, NOC_CLASS_REPLY))
		return cycle + 1;
	/* Replies still in the NoC wake the unit (noc sink) when they become ejectable. */
	if (m->heap_n)
		return m->heap[0].cycle > cycle ? m->heap[0].cycle : cycle + 1;
	return SIM_NEVER;
}

static uint64_t mu_next_need(struct mem_unit *m, uint64_t cycle) { return next_need(m, cycle, true); }

static uint64_t mu_tick(struct sim_component *comp, uint64_t cycle)
{
	struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	/* Whether a refusal could now be decided differently (struct mem_unit: epoch). */
	bool filled = false, was_busy = m->st.busy, slots_full = m->slots_used >= m->n_slots;
	bool ejected = eject_step(m, cycle, &filled);
	stage_step(m, cycle);
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
	m->flushed_lines += cache_invalidate_all(&m->cache[MU_L1D], m->flush_wb, &dirty);
	m->flushes++;
	/* Write-back dirty lines are sent, as GPGPU-Sim 2.x's shader_cache_flush does; a
	 * write-through or write-evict L1D holds none. Those of a previous flush still queued
	 * were sent before this launch could start (outstanding work). */
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
		if (e || !mshr_free_entries(&m->mshr))
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
		stage_step(m, now_cycle);
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
