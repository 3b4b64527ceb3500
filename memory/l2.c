/* SPDX-License-Identifier: MIT */
/* L2 slice: one tag access per L2 cycle, MSHR merging, write-back write-allocate (writes validate
 * the whole line without a fetch), atomics done at L2 (OWL's optimistic model), prefetch fills. */
#include "l2.h"

#include <stdlib.h>
#include <string.h>

#include "addrmap.h"

/* The slice's tag store, MSHRs and prefetch filter work on slice-local line addresses
 * (addrmap.h: mem_addr_slice_local), so every set is reachable; requests keep their global
 * address, which the MC decodes, and a victim's local address is turned back into a global one. */
static uint64_t slice_line(const struct l2_slice *l2, uint64_t addr)
{
	return cache_line_base(&l2->cache, mem_addr_slice_local(l2->map, addr));
}

int l2_slice_init(struct l2_slice *l2, const struct l2_cfg *cfg, uint32_t slice,
		  const struct mem_addrmap *map, struct dram_mc *mc, struct sim_component *mc_comp,
		  struct noc *noc, int node, struct sim_error *err)
{
	struct sim_component keep = l2->comp; /* set by the caller before init */
	memset(l2, 0, sizeof *l2);
	l2->comp = keep;
	l2->cfg = *cfg;
	l2->slice = slice;
	l2->channel = slice / map->sub_partitions;
	l2->map = map;
	l2->mc = mc;
	l2->mc_comp = mc_comp;
	l2->noc = noc;
	l2->node = node;
	l2->blocked_since = UINT64_MAX;
	if (cfg->mshr_entries == 0 || cfg->mshr_merges == 0 || cfg->reply_queue == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.l2.mshr_entries",
				     "MSHR entries, merges and the reply queue must be at least 1");
	int rc = cache_init(&l2->cache, &cfg->cache, err);
	if (rc)
		return rc;
	uint32_t rq_cap = cfg->reply_queue + cfg->mshr_entries * cfg->mshr_merges;
	l2->wbq_cap = cfg->mshr_entries + 2;
	l2->mshr = calloc(cfg->mshr_entries, sizeof *l2->mshr);
	l2->rq = calloc(rq_cap, sizeof *l2->rq);
	l2->mq = calloc(cfg->mshr_entries, sizeof *l2->mq);
	l2->wbq = calloc(l2->wbq_cap, sizeof *l2->wbq);
	if (!l2->mshr || !l2->rq || !l2->wbq || !l2->mq)
		goto nomem;
	for (uint32_t i = 0; i < cfg->mshr_entries; i++) {
		l2->mshr[i].targets = calloc(cfg->mshr_merges, sizeof *l2->mshr[i].targets);
		if (!l2->mshr[i].targets)
			goto nomem;
	}
	rc = sim_pool_init(&l2->wb_pool, sizeof(struct mem_req), 64, err);
	if (rc) {
		l2_slice_fini(l2);
		return rc;
	}
	return 0;
nomem:
	l2_slice_fini(l2);
	return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "L2 slice %u", slice);
}

void l2_slice_fini(struct l2_slice *l2)
{
	if (l2->mshr)
		for (uint32_t i = 0; i < l2->cfg.mshr_entries; i++)
			free(l2->mshr[i].targets);
	free(l2->mshr);
	free(l2->rq);
	free(l2->wbq);
	free(l2->mq);
	l2->mq = NULL;
	l2->mshr = NULL;
	l2->rq = NULL;
	l2->wbq = NULL;
	cache_fini(&l2->cache);
	if (l2->wb_pool.obj_bytes)
		sim_pool_fini(&l2->wb_pool);
	memset(&l2->wb_pool, 0, sizeof l2->wb_pool);
}

static uint32_t rq_cap(const struct l2_slice *l2)
{
	return l2->cfg.reply_queue + l2->cfg.mshr_entries * l2->cfg.mshr_merges;
}

static void rq_push(struct l2_slice *l2, struct mem_req *r, uint64_t ready)
{
	uint32_t cap = rq_cap(l2);
	SIM_ASSERT(l2->rq_n < cap);
	/* Keep ready cycles non-decreasing (a fill reply, ready now, may follow a hit still in
	 * the pipe): the reply takes the later of the two so order is FIFO. */
	if (l2->rq_n) {
		uint64_t last = l2->rq[(l2->rq_head + l2->rq_n - 1) % cap].ready_cycle;
		if (ready < last)
			ready = last;
	}
	l2->rq[(l2->rq_head + l2->rq_n) % cap] = (struct l2_reply){r, ready};
	l2->rq_n++;
}

static uint32_t mshr_bucket(const struct l2_slice *l2, uint64_t line)
{
	uint64_t x = line >> l2->cache.set_shift;
	return (uint32_t)(x ^ (x >> 8) ^ (x >> 16)) & (L2_MSHR_BUCKETS - 1);
}

static struct l2_mshr *mshr_find(struct l2_slice *l2, uint64_t line)
{
	uint32_t b = mshr_bucket(l2, line);
	if (!(l2->mshr_bits[b / 64] >> (b % 64) & 1))
		return NULL;
	if (l2->mshr_cnt[b] == 1) {
		/* The only entry whose line falls here (l2.h: mshr_x). */
		struct l2_mshr *m = &l2->mshr[l2->mshr_x[b]];
		SIM_ASSERT(m->valid);
		return m->line_addr == line ? m : NULL;
	}
	for (uint32_t i = 0; i < l2->cfg.mshr_entries; i++)
		if (l2->mshr[i].valid && l2->mshr[i].line_addr == line)
			return &l2->mshr[i];
	return NULL;
}

static struct l2_mshr *mshr_alloc(struct l2_slice *l2, uint64_t line, uint32_t sectors)
{
	for (uint32_t i = 0; i < l2->cfg.mshr_entries; i++)
		if (!l2->mshr[i].valid) {
			struct l2_mshr *m = &l2->mshr[i];
			m->valid = true;
			m->line_addr = line;
			m->sectors = sectors;
			m->n = 0;
			l2->mshr_used++;
			l2->mshr_version++;
			uint32_t b = mshr_bucket(l2, line);
			l2->mshr_x[b] ^= (uint16_t)i;
			if (l2->mshr_cnt[b]++ == 0)
				l2->mshr_bits[b / 64] |= UINT64_C(1) << (b % 64);
			return m;
		}
	return NULL;
}

/* Sectored: the sectors of line being fetched (by every MSHR entry of it), and in *cover the
 * entry that a request missing the sectors `want` merges into: one fetching all of them, else
 * one fetching some (the request then waits only for that one), else NULL. */
static uint32_t mshr_line_sectors(struct l2_slice *l2, uint64_t line, uint32_t want, struct l2_mshr **cover)
{
	*cover = NULL;
	uint32_t b = mshr_bucket(l2, line);
	if (!(l2->mshr_bits[b / 64] >> (b % 64) & 1))
		return 0;
	uint32_t pend = 0;
	for (uint32_t i = l2->mshr_cnt[b] == 1 ? l2->mshr_x[b] : 0; i < l2->cfg.mshr_entries; i++) {
		struct l2_mshr *m = &l2->mshr[i];
		if (m->valid && m->line_addr == line) {
			pend |= m->sectors;
			if ((m->sectors & want) == want || (!*cover && (m->sectors & want)))
				*cover = m;
		}
		if (l2->mshr_cnt[b] == 1)
			break;
	}
	return pend;
}

/* The MSHR entry whose fetch is req (a sectored line may have several entries). */
static struct l2_mshr *mshr_of_req(struct l2_slice *l2, uint64_t line, const struct mem_req *req)
{
	uint32_t b = mshr_bucket(l2, line);
	if (l2->mshr_cnt[b] == 1)
		return &l2->mshr[l2->mshr_x[b]];
	for (uint32_t i = 0; i < l2->cfg.mshr_entries; i++)
		if (l2->mshr[i].valid && l2->mshr[i].line_addr == line && l2->mshr[i].targets[0] == req)
			return &l2->mshr[i];
	return NULL;
}

static bool sectored(const struct l2_slice *l2) { return l2->cache.n_sectors > 1; }

/* A line left the slice: count an unused prefetch, write a dirty one back. A sectored slice
 * reads the written-back line out of its data array a sector a cycle before the tag stage
 * takes the next request (GPGPU-Sim's data port of one sector: use_data_port on a
 * write-back), from L2 cycle now on. */
static void victim(struct l2_slice *l2, const struct cache_victim *v, uint64_t now)
{
	if (!v->valid)
		return;
	if (v->user)
		l2->pf_unused_evicted++;
	if (!v->dirty)
		return;
	if (sectored(l2))
		l2->tag_free_cycle = (l2->tag_free_cycle > now ? l2->tag_free_cycle : now) + l2->cache.n_sectors;
	struct mem_req *w = sim_pool_alloc(&l2->wb_pool);
	SIM_ASSERT(w);
	w->addr = mem_addr_slice_global(l2->map, l2->slice, v->addr);
	w->size_bytes = l2->cache.cfg.line_bytes;
	w->kind = MEM_REQ_WRITEBACK;
	w->src_sm = UINT16_MAX;
	w->channel = (uint16_t)l2->slice;
	w->id = ((uint64_t)0xFFFF << 40) | (((uint64_t)l2->slice) << 32) | l2->next_id++;
	w->pool = &l2->wb_pool;
	SIM_ASSERT(l2->wbq_n < l2->wbq_cap);
	l2->wbq[(l2->wbq_head + l2->wbq_n) % l2->wbq_cap] = w;
	l2->wbq_n++;
	l2->writebacks++;
}

static bool mc_enqueue(struct l2_slice *l2, struct mem_req *r)
{
	if (dram_mc_full(l2->mc))
		return false;
	struct mem_dram_addr d;
	mem_addr_decode(l2->map, r->addr, &d);
	SIM_ASSERT(d.channel == l2->channel);
	r->bank = (uint16_t)d.bank;
	r->row = d.row;
	r->col = d.col;
	uint64_t now = sim_now_ps(l2->comp.sim);
	r->t_ps[MEM_T_MC_ENQUEUE] = now;
	/* It is in the queue from the MC's next edge (an MC that already ticked at an edge equal
	 * to now sees it at its next tick, which the engine guarantees is later). */
	bool ok = dram_mc_try_enqueue(l2->mc, r, sim_clock_cycle_at_or_after(l2->mc_comp->clk, now));
	SIM_ASSERT(ok);
	sim_component_wake(l2->mc_comp);
	return true;
}

enum l2_step { L2_DONE, L2_BLOCKED, L2_BLOCKED_BELOW /* waits for the MC or a fill: no polling */ };

/* A sectored slice (GPGPU-Sim 4's sector cache, dl2 type S, as memory_sub_partition::push
 * breaks a request into one access per 32 B sector, each a cycle of the tag stage): the
 * request's k sectors take the tag stage for k cycles from now; each is a hit (valid), a
 * pending hit (being fetched: GPGPU-Sim's HIT_RESERVED, an access but no miss) or a miss.
 * Writes (write-back, GPGPU-Sim's LAZY_FETCH_ON_READ allocation): the sectors written whole
 * become valid, the others written in part unread (fetched by the next read of them); no
 * DRAM read. Reads and atomics: all sectors valid is a hit; all missing ones being fetched
 * merges into the entry fetching them; else an MSHR entry fetches the missing sectors no
 * entry fetches (dram_bytes: the DRAM reads only those). The reply leaves after the last
 * sector's tag access (one reply for the request, as the L1 waits for all its sectors). */
static enum l2_step process_sectored(struct l2_slice *l2, struct mem_req *r, uint64_t now, uint64_t line,
				     bool is_write)
{
	struct cache *c = &l2->cache;
	uint32_t want = r->sectors ? r->sectors : cache_sector_mask(c, r->addr, r->size_bytes);
	uint32_t k = (uint32_t)__builtin_popcount(want);
	uint64_t last = now + k - 1; /* its last sector's tag cycle */
	const struct cache_line *cl = cache_find_(c, line >> c->set_shift);
	bool user = cl && cl->user;
	/* (the L2 reserves no line: fills allocate). A write hits a sector written before but
	 * never fetched (GPGPU-Sim: a MODIFIED sector is a write hit, readable or not). */
	uint32_t valid = cl ? cl->sectors | (is_write ? cl->unread : 0) : 0;
	uint32_t missing = want & ~valid;
	struct l2_mshr *cover = NULL;
	uint32_t pend = missing ? mshr_line_sectors(l2, line, missing, &cover) : 0;
	uint32_t fetch = missing & ~pend;
	uint32_t hits = k - (uint32_t)__builtin_popcount(missing);
	uint32_t misses = (uint32_t)__builtin_popcount(fetch);
	if (!is_write) {
		if (fetch && l2->mshr_used == l2->cfg.mshr_entries)
			return L2_BLOCKED_BELOW;
		if (missing && !fetch && cover->n >= l2->cfg.mshr_merges)
			return L2_BLOCKED_BELOW;
	}
	cache_count_sectors(c, is_write, k, hits, misses, cl ? misses : 0);
	l2->pending_hits += k - hits - misses;
	l2->tag_free_cycle = now + k;
	l2->accesses++;
	if (user && !missing) {
		l2->pf_useful++; /* OWL 4.4: a prefetched line used by a demand */
		cache_set_user(c, line, false);
	}
	if (is_write) {
		uint32_t full = r->sectors ? r->full_sectors & want : want;
		struct cache_victim v;
		cache_write_sectors(c, line, full, want & ~full, &v);
		victim(l2, &v, now);
		l2->writes++;
		rq_push(l2, r, last + c->cfg.hit_latency_cycles);
		return L2_DONE;
	}
	bool atomic = r->kind == MEM_REQ_ATOMIC;
	l2->reads += !atomic;
	l2->atomics += atomic;
	cache_touch(c, line, false, want); /* the LRU order, as a read hit */
	if (!missing) {
		if (atomic)
			cache_mark_dirty(c, line); /* read-modify-write at L2 */
		rq_push(l2, r, last + c->cfg.hit_latency_cycles);
	} else if (!fetch) {
		cover->targets[cover->n++] = r;
		l2->mshr_merges++;
	} else {
		struct l2_mshr *m = mshr_alloc(l2, line, fetch);
		m->targets[m->n++] = r;
		r->dram_bytes = (uint32_t)__builtin_popcount(fetch) << c->sector_shift;
		SIM_ASSERT(l2->mq_n < l2->cfg.mshr_entries);
		l2->mq[(l2->mq_head + l2->mq_n) % l2->cfg.mshr_entries] =
			(struct l2_reply){r, last + l2->cfg.miss_latency_cycles};
		l2->mq_n++;
	}
	return L2_DONE;
}

/* Process one request at cycle now. No side effect unless it returns L2_DONE. */
static enum l2_step process(struct l2_slice *l2, struct mem_req *r, uint64_t now)
{
	uint64_t hit_ready = now + l2->cache.cfg.hit_latency_cycles;
	if (l2->rq_n >= l2->cfg.reply_queue)
		return L2_BLOCKED;
	if (l2->wbq_n + l2->mshr_used + 1 >= l2->wbq_cap)
		return L2_BLOCKED_BELOW;
	bool is_write = r->kind == MEM_REQ_WRITE || r->kind == MEM_REQ_WRITEBACK;
	uint64_t line = slice_line(l2, r->addr);
	if (l2->cfg.perfect) {
		l2->accesses++;
		l2->reads += r->kind == MEM_REQ_READ;
		l2->writes += is_write;
		l2->atomics += r->kind == MEM_REQ_ATOMIC;
		rq_push(l2, r, hit_ready);
		return L2_DONE;
	}
	if (l2->cfg.none) {
		/* No L2 (the large-warp paper's machine): the request itself goes to the MC, each one
		 * on its own (nothing merges, nothing is cached); mshr_used counts those on their way
		 * and its entries bound them; the reply, write acks included, leaves when the DRAM is
		 * done (l2_slice_dram_done). */
		if (l2->mshr_used == l2->cfg.mshr_entries)
			return L2_BLOCKED_BELOW;
		l2->mshr_used++;
		SIM_ASSERT(l2->mq_n < l2->cfg.mshr_entries);
		l2->mq[(l2->mq_head + l2->mq_n) % l2->cfg.mshr_entries] =
			(struct l2_reply){r, now + l2->cfg.miss_latency_cycles};
		l2->mq_n++;
		l2->accesses++;
		l2->reads += r->kind == MEM_REQ_READ;
		l2->writes += is_write;
		l2->atomics += r->kind == MEM_REQ_ATOMIC;
		return L2_DONE;
	}
	if (sectored(l2))
		return process_sectored(l2, r, now, line, is_write);
	if (is_write) {
		struct cache_outcome o = cache_lookup(&l2->cache, line, true, 0);
		if (!o.hit) {
			struct cache_victim v;
			cache_fill(&l2->cache, line, 0, true, false, &v);
			victim(l2, &v, now);
		} else if (o.user) {
			l2->pf_useful++; /* overwritten before use still saved nothing; count as used */
			cache_set_user(&l2->cache, line, false);
		}
		l2->accesses++;
		l2->writes++;
		rq_push(l2, r, hit_ready);
		return L2_DONE;
	}
	/* READ or ATOMIC */
	bool atomic = r->kind == MEM_REQ_ATOMIC;
	struct l2_mshr *m = mshr_find(l2, line);
	if (m) {
		/* Merge without a tag access counted twice: the line is on its way. */
		if (m->n >= l2->cfg.mshr_merges)
			return L2_BLOCKED_BELOW;
		cache_lookup(&l2->cache, line, atomic, 0);
		m->targets[m->n++] = r;
		l2->mshr_merges++;
	} else {
		if (!cache_probe(&l2->cache, line, 0) && l2->mshr_used == l2->cfg.mshr_entries)
			return L2_BLOCKED_BELOW;
		struct cache_outcome o = cache_lookup(&l2->cache, line, atomic, 0);
		if (o.hit) {
			if (o.user) {
				l2->pf_useful++; /* OWL 4.4: a prefetched line used by a demand */
				cache_set_user(&l2->cache, line, false);
			}
			rq_push(l2, r, hit_ready);
		} else {
			m = mshr_alloc(l2, line, 1);
			m->targets[m->n++] = r;
			/* the MC sees it once the tag lookup is over; mq has a slot per MSHR entry */
			SIM_ASSERT(l2->mq_n < l2->cfg.mshr_entries);
			l2->mq[(l2->mq_head + l2->mq_n) % l2->cfg.mshr_entries] =
				(struct l2_reply){r, now + l2->cfg.miss_latency_cycles};
			l2->mq_n++;
		}
	}
	l2->accesses++;
	l2->reads += !atomic;
	l2->atomics += atomic;
	return L2_DONE;
}

static uint32_t reply_bytes(const struct l2_slice *l2, const struct mem_req *r)
{
	if (r->kind == MEM_REQ_READ || r->kind == MEM_REQ_ATOMIC)
		return l2->cfg.reply_header_bytes + r->size_bytes;
	return L2_HDR_BYTES; /* write ack */
}

/* Reply packets of r: one per sector it covers for a sectored slice's read or atomic
 * (mem_req.h: reply_parts), else one. */
static uint32_t reply_parts(const struct l2_slice *l2, const struct mem_req *r)
{
	if (!sectored(l2) || (r->kind != MEM_REQ_READ && r->kind != MEM_REQ_ATOMIC))
		return 1;
	return (uint32_t)__builtin_popcount(r->sectors ? r->sectors
						      : cache_sector_mask(&l2->cache, r->addr, r->size_bytes));
}

uint64_t l2_slice_tick(struct l2_slice *l2, uint64_t cycle)
{
	uint64_t now_ps = sim_now_ps(l2->comp.sim);
	/* 1. dirty victims to the MC first: they hold slots the fills need */
	while (l2->wbq_n && mc_enqueue(l2, l2->wbq[l2->wbq_head])) {
		l2->wbq_head = (l2->wbq_head + 1) % l2->wbq_cap;
		l2->wbq_n--;
	}
	/* 1b. misses whose tag lookup is over, in order, while the MC has room */
	while (l2->mq_n && l2->mq[l2->mq_head].ready_cycle <= cycle &&
	       mc_enqueue(l2, l2->mq[l2->mq_head].req)) {
		l2->mq_head = (l2->mq_head + 1) % l2->cfg.mshr_entries;
		l2->mq_n--;
	}
	/* 2. replies whose hit latency has passed, while the NoC takes them */
	uint32_t cap = rq_cap(l2);
	bool refused = false;
	for (int k = 0; k < 2 && l2->rq_n; k++) {
		struct l2_reply *h = &l2->rq[l2->rq_head];
		if (h->ready_cycle > cycle)
			break;
		struct mem_req *r = h->req;
		if (r->no_ack) {
			/* GPGPU-Sim 2.x's partition pops a write off its output queue in the
			 * interconnect cycle it reaches the head, sending nothing (gpu-sim.cc
			 * 1470-1476): it takes that turn of the port, no flit */
			SIM_ASSERT(!l2->rq_parts_sent && r->pool);
			l2->rq_head = (l2->rq_head + 1) % cap;
			l2->rq_n--;
			l2->unacked_writes++;
			sim_pool_free(r->pool, r);
			sim_progress(l2->comp.sim);
			continue;
		}
		if (!l2->rq_head_parts)
			l2->rq_head_parts = reply_parts(l2, r);
		uint32_t parts = l2->rq_head_parts;
		if (!l2->rq_parts_sent) {
			r->is_reply = 1;
			r->t_ps[MEM_T_L2_REPLY] = now_ps;
			r->reply_parts = parts;
		}
		SIM_ASSERT(r->src_sm < l2->noc->n_cores);
		uint32_t bytes = parts > 1 ? L2_HDR_BYTES + l2->cache.cfg.sector_bytes : reply_bytes(l2, r);
		if (!noc_try_inject(l2->noc, l2->node, l2->noc->core_node[r->src_sm], NOC_CLASS_REPLY, bytes, r)) {
			if (!l2->rq_parts_sent)
				r->is_reply = 0;
			l2->noc_refused++;
			refused = true;
			break;
		}
		sim_progress(l2->comp.sim);
		if (++l2->rq_parts_sent < parts)
			continue; /* (r may be gone once its last packet left: not touched after) */
		l2->rq_parts_sent = 0;
		l2->rq_head_parts = 0;
		l2->rq_head = (l2->rq_head + 1) % cap;
		l2->rq_n--;
	}
	/* 3. one new request per cycle */
	enum l2_step st = L2_DONE;
	if (!l2->pending && l2->noc) {
		l2->pending = noc_try_eject(l2->noc, l2->node, NOC_CLASS_REQ);
		if (l2->pending)
			l2->pending->t_ps[MEM_T_L2_ARRIVE] = now_ps;
	}
	/* a sectored slice's tag stage still busy with the last request's sectors */
	bool stage_wait = l2->pending && cycle < l2->tag_free_cycle;
	if (l2->pending && !stage_wait) {
		st = process(l2, l2->pending, cycle);
		if (st == L2_DONE) {
			l2->pending = NULL;
			sim_progress(l2->comp.sim);
			if (l2->blocked_since != UINT64_MAX) {
				/* counted at the end: a slice blocked below is not ticked meanwhile */
				l2->mshr_full_cycles += cycle - l2->blocked_since;
				l2->blocked_since = UINT64_MAX;
			}
		} else if (l2->blocked_since == UINT64_MAX) {
			l2->blocked_since = cycle;
		}
	}
	/* Next cycle with work: the earliest of each part's own (a pending request processed
	 * this cycle is DONE and gone, or waits: for the reply queue, polled; below, woken). Only
	 * what no one will wake us for is polled. */
	bool more_in = !l2->pending && l2->noc && noc_peek_eject(l2->noc, l2->node, NOC_CLASS_REQ);
	if (more_in || (l2->pending && st == L2_BLOCKED) || refused || (l2->wbq_n && !dram_mc_full(l2->mc)))
		return cycle + 1;
	/* a request waiting for the sectored tag stage is taken when it frees */
	uint64_t next = stage_wait ? l2->tag_free_cycle : SIM_NEVER;
	if (l2->mq_n && !dram_mc_full(l2->mc)) { /* a full MC wakes us when it takes one */
		uint64_t m = l2->mq[l2->mq_head].ready_cycle;
		next = m < next ? m : next;
	}
	/* New requests in the NoC wake the slice (noc sink) when they become ejectable. */
	if (l2->rq_n) {
		uint64_t r = l2->rq[l2->rq_head].ready_cycle;
		next = r < next ? r : next;
	}
	if (next <= cycle)
		return cycle + 1;
	return next; /* SIM_NEVER when blocked below: the MC wakes us when it frees room or fills */
}

void l2_slice_dram_done(struct l2_slice *l2, struct mem_req *r, uint64_t now_ps)
{
	uint64_t l2_cycle = sim_component_cycle(&l2->comp);
	uint64_t line = slice_line(l2, r->addr);
	struct cache_victim v;
	if (r->kind == MEM_REQ_PREFETCH) {
		/* OWL 4.4: the prefetched line goes to the slice, marked until a demand uses it. */
		if (cache_probe(&l2->cache, line, 0) || l2->wbq_n + l2->mshr_used + 1 >= l2->wbq_cap) {
			l2->pf_dropped++; /* present already, or no room to write a victim back */
			return;
		}
		/* The prefetcher skips lines with a miss pending, so a pending miss now means the
		 * demand came while the prefetch was on its way: late (the demand's own fetch
		 * serves it; the line is not marked). */
		bool late = mshr_find(l2, line) != NULL;
		l2->pf_late += late;
		cache_fill(&l2->cache, line, 0, false, !late, &v);
		victim(l2, &v, l2_cycle);
		l2->pf_fills++;
		return;
	}
	if (r->src_sm == UINT16_MAX) { /* our own write-back is on the DRAM */
		sim_pool_free(&l2->wb_pool, r);
		sim_component_wake(&l2->comp);
		return;
	}
	r->t_ps[MEM_T_DRAM_DONE] = now_ps;
	if (l2->cfg.none) {
		SIM_ASSERT(l2->mshr_used > 0);
		l2->mshr_used--;
		rq_push(l2, r, l2_cycle);
		sim_component_wake(&l2->comp);
		return;
	}
	struct l2_mshr *m = mshr_of_req(l2, line, r);
	SIM_ASSERT(m && m->valid && m->targets[0] == r);
	bool dirty = false;
	for (uint32_t i = 0; i < m->n; i++)
		dirty |= m->targets[i]->kind == MEM_REQ_ATOMIC; /* read-modify-write at L2 */
	cache_fill(&l2->cache, line, sectored(l2) ? m->sectors : 0, dirty, false, &v);
	victim(l2, &v, l2_cycle);
	for (uint32_t i = 0; i < m->n; i++)
		rq_push(l2, m->targets[i], l2_cycle);
	m->valid = false;
	l2->mshr_used--;
	l2->mshr_version++;
	uint32_t b = mshr_bucket(l2, line);
	SIM_ASSERT(l2->mshr_cnt[b] > 0);
	l2->mshr_x[b] ^= (uint16_t)(m - l2->mshr);
	if (--l2->mshr_cnt[b] == 0)
		l2->mshr_bits[b / 64] &= ~(UINT64_C(1) << (b % 64));
	l2->fills++;
	sim_component_wake(&l2->comp);
}

bool l2_slice_pf_filter(void *p, uint64_t addr)
{
	struct l2_slice *l2 = p;
	uint64_t line = slice_line(l2, addr);
	return cache_probe(&l2->cache, line, 0) || mshr_find(l2, line) != NULL;
}

void l2_slice_copy_fill(struct l2_slice *l2, uint64_t addr)
{
	struct cache_victim v;
	if (l2->cfg.none)
		return; /* nothing to hold the copied line */
	cache_fill(&l2->cache, slice_line(l2, addr), 0, false, false, &v);
	l2->copy_fills++;
	l2->copy_dirty_drops += v.valid && v.dirty;
}

uint64_t l2_slice_pf_version(const void *p)
{
	const struct l2_slice *l2 = p;
	return l2->cache.version + l2->mshr_version; /* both only grow */
}

uint64_t l2_slice_outstanding(const struct l2_slice *l2)
{
	return l2->rq_n + l2->wbq_n + l2->mshr_used + (l2->pending != NULL); /* mq: in mshr_used */
}

static double st_pf_accuracy(const void *p)
{
	const struct l2_slice *l2 = p;
	return l2->pf_fills ? (double)l2->pf_useful / (double)l2->pf_fills : 0.0;
}

void l2_slice_stats_register(struct l2_slice *l2, struct stats *st)
{
	uint32_t c = l2->slice;
	char prefix[32];
	snprintf(prefix, sizeof prefix, "l2.%u", c);
	cache_stats_register(&l2->cache, st, prefix);
	stats_counter(st, &l2->accesses, "requests", "requests served by the slice", "l2.%u.requests", c);
	stats_counter(st, &l2->atomics, "requests", "atomics performed at L2", "l2.%u.atomics", c);
	stats_counter(st, &l2->copy_fills, "lines", "lines installed by host copies (gpu.l2.fill_on_copy)",
		      "l2.%u.copy_fills", c);
	stats_counter(st, &l2->copy_dirty_drops, "lines",
		      "dirty lines a host copy displaced without write-back (GPGPU-Sim's perf_sim_memcpy)",
		      "l2.%u.copy_dirty_drops", c);
	stats_counter(st, &l2->mshr_merges, "requests", "misses merged into a pending line",
		      "l2.%u.mshr_merges", c);
	if (sectored(l2))
		stats_counter(st, &l2->pending_hits, "accesses",
			      "sector accesses that found the sector being fetched (GPGPU-Sim's HIT_RESERVED; in accesses, not misses)",
			      "l2.%u.pending_hits", c);
	stats_counter(st, &l2->mshr_full_cycles, "cycles",
		      "L2 cycles the head request waited (MSHR, MC queue or reply queue full)",
		      "l2.%u.stall_cycles", c);
	stats_counter(st, &l2->noc_refused, "attempts", "replies refused by the NoC",
		      "l2.%u.noc_refused", c);
	stats_counter(st, &l2->unacked_writes, "requests",
		      "writes from the cores taken off the reply queue without a reply (gpu.l2.write_ack = false)",
		      "l2.%u.unacked_writes", c);
	stats_counter(st, &l2->writebacks, "lines", "dirty victims written to DRAM",
		      "l2.%u.writebacks", c);
	stats_counter(st, &l2->fills, "lines", "demand fills from DRAM", "l2.%u.dram_fills", c);
	stats_counter(st, &l2->pf_fills, "lines", "prefetched lines installed (OWL 4.4)",
		      "l2.%u.prefetch.fills", c);
	stats_counter(st, &l2->pf_useful, "lines", "prefetched lines later used by a demand",
		      "l2.%u.prefetch.useful", c);
	stats_counter(st, &l2->pf_late, "lines",
		      "prefetches that arrived after a demand for the line had missed",
		      "l2.%u.prefetch.late", c);
	stats_counter(st, &l2->pf_unused_evicted, "lines", "prefetched lines evicted unused",
		      "l2.%u.prefetch.unused_evicted", c);
	stats_counter(st, &l2->pf_dropped, "lines", "prefetches that found the line present",
		      "l2.%u.prefetch.dropped", c);
	stats_derived(st, st_pf_accuracy, l2, "ratio", "useful / installed prefetches",
		      "l2.%u.prefetch.accuracy", c);
}
