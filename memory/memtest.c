/* SPDX-License-Identifier: MIT */
/* memtest: a generator component (on the L2 clock, one read per cycle within a window) and a
 * zero-latency NoC in front of channel 0 (a node per L2 slice), so only the L2 and DRAM shape
 * the results. */
#include "memtest.h"

#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "addrmap.h"
#include "mem_channel.h"
#include "mem_req.h"

int memtest_pattern_parse(const char *s)
{
	if (!strcmp(s, "stream"))
		return MEMTEST_STREAM;
	if (!strcmp(s, "random"))
		return MEMTEST_RANDOM;
	if (!strcmp(s, "rows"))
		return MEMTEST_ROWS;
	return -1;
}

const char *memtest_pattern_name(enum memtest_pattern p)
{
	return p == MEMTEST_STREAM ? "stream" : p == MEMTEST_RANDOM ? "random" : "rows";
}

/* Node 0: the generator; nodes 1..: the channel's slices. Queues hold at most the window. */
#define MT_MAX_SLICES 64 /* gpu.l2.sub_partitions at most */
struct mt_ring {
	void **v;
	uint32_t head, n, cap;
};

struct mt {
	struct noc noc;
	int core_node[1], mc_node[MT_MAX_SLICES];
	enum noc_node_kind kind[1 + MT_MAX_SLICES];
	struct sim_component *sinks[1 + MT_MAX_SLICES];
	struct mt_ring q[1 + MT_MAX_SLICES]; /* q[0]: replies to the generator, q[1 + s]: requests to slice s */
	struct sim_component gen;
	struct sim_clock clk;
	struct sim *sim;
	struct mem_addrmap map;
	struct memtest_opts o;
	uint32_t line_bytes;
	struct mem_req *reqs;            /* [outstanding] */
	uint32_t *free_ids, n_free;
	uint64_t issued, done, rng, rng_rw;
	uint64_t first_ps, last_ps;
	double lat_ps_sum;
};

static bool ring_push(struct mt_ring *r, void *p)
{
	if (r->n == r->cap)
		return false;
	r->v[(r->head + r->n++) % r->cap] = p;
	return true;
}

static void *ring_peek(struct mt_ring *r) { return r->n ? r->v[r->head] : NULL; }

static void *ring_pop(struct mt_ring *r)
{
	if (!r->n)
		return NULL;
	void *p = r->v[r->head];
	r->head = (r->head + 1) % r->cap;
	r->n--;
	return p;
}

static bool mt_inject(struct noc *n, int src, int dst, enum noc_class cls, uint32_t size, void *p)
{
	(void)src;
	(void)cls;
	(void)size;
	struct mt *t = SIM_CONTAINER_OF(n, struct mt, noc);
	if (!ring_push(&t->q[dst], p))
		return false;
	if (n->sink[dst])
		sim_component_wake(n->sink[dst]);
	return true;
}

static void *mt_eject(struct noc *n, int node, enum noc_class cls)
{
	(void)cls;
	return ring_pop(&SIM_CONTAINER_OF(n, struct mt, noc)->q[node]);
}

static void *mt_peek(struct noc *n, int node, enum noc_class cls)
{
	(void)cls;
	return ring_peek(&SIM_CONTAINER_OF(n, struct mt, noc)->q[node]);
}

static uint64_t mt_outstanding(const struct noc *n)
{
	const struct mt *t = SIM_CONTAINER_OF(n, struct mt, noc);
	uint64_t k = 0;
	for (int i = 0; i < n->n_nodes; i++)
		k += t->q[i].n;
	return k;
}

static const struct noc_ops mt_ops = {"memtest", mt_inject, mt_eject, mt_peek, mt_outstanding, NULL};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Address of the i-th request, always in channel 0. */
static uint64_t mt_addr(struct mt *t, uint64_t i)
{
	const struct mem_addrmap *m = &t->map;
	struct mem_dram_addr a = {0, 0, 0, 0};
	uint32_t lines_per_row = m->row_bytes / t->line_bytes;
	switch (t->o.pattern) {
	case MEMTEST_STREAM: {
		/* channel-local byte i*line, put back among the other channels' chunks */
		uint64_t local = i * t->line_bytes, il = m->chan_interleave_bytes;
		return (local / il) * m->n_channels * il + local % il;
	}
	case MEMTEST_ROWS:
		a.bank = (uint32_t)(i % m->banks);
		a.row = (uint32_t)(i / m->banks);
		break;
	case MEMTEST_RANDOM: {
		uint64_t rows = (1ull << 30) / m->row_bytes / m->banks; /* 1 GiB of the channel */
		uint64_t x = splitmix(&t->rng);
		a.bank = (uint32_t)(x % m->banks);
		a.row = (uint32_t)((x >> 8) % rows);
		a.col = (uint32_t)((x >> 40) % lines_per_row) * t->line_bytes;
		break;
	}
	}
	return mem_addr_encode(m, &a);
}

static uint64_t mt_tick(struct sim_component *c, uint64_t cycle)
{
	struct mt *t = SIM_CONTAINER_OF(c, struct mt, gen);
	uint64_t now = sim_now_ps(t->sim);
	struct mem_req *r;
	while ((r = ring_pop(&t->q[0]))) {
		t->lat_ps_sum += (double)(now - r->t_ps[MEM_T_ISSUE]);
		t->done++;
		t->last_ps = now;
		t->free_ids[t->n_free++] = (uint32_t)(r - t->reqs);
		sim_progress(t->sim);
	}
	if (t->issued < t->o.requests && t->n_free) {
		uint32_t id = t->free_ids[t->n_free - 1];
		r = &t->reqs[id];
		memset(r, 0, sizeof *r);
		r->addr = mt_addr(t, t->issued);
		r->size_bytes = t->line_bytes;
		bool wr = t->o.write_percent && splitmix(&t->rng_rw) % 100 < t->o.write_percent;
		r->kind = wr ? MEM_REQ_WRITE : MEM_REQ_READ;
		r->src_sm = 0;
		r->channel = (uint16_t)mem_addr_slice(&t->map, r->addr);
		r->id = t->issued;
		r->t_ps[MEM_T_ISSUE] = now;
		if (mt_inject(&t->noc, 0, t->mc_node[r->channel], NOC_CLASS_REQ, wr ? 8 + t->line_bytes : 8, r)) {
			if (!t->issued)
				t->first_ps = now;
			t->n_free--;
			t->issued++;
		}
	}
	return t->issued < t->o.requests && t->n_free ? cycle + 1 : SIM_NEVER;
}

static uint64_t mt_gen_outstanding(const struct sim_component *c)
{
	const struct mt *t = SIM_CONTAINER_OF(c, struct mt, gen);
	return t->issued - t->done;
}

static const struct sim_component_ops mt_gen_ops = {mt_tick, mt_gen_outstanding, NULL};

int memtest_run(const struct cfg *cfg, const struct memtest_opts *o, struct memtest_result *out,
		struct sim_error *err)
{
	memset(out, 0, sizeof *out);
	if (o->outstanding == 0 || o->requests == 0)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
				     "memtest needs at least one request and a window of at least one");
	struct mt *t = calloc(1, sizeof *t);
	struct sim *sim = NULL;
	struct mem_channel *ch = NULL;
	int rc = 0;
	if (!t)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "memtest");
	t->o = *o;
	t->rng = o->seed;
	t->rng_rw = o->seed ^ 0x5DEECE66Dull;
	if (o->write_percent > 100)
		return free(t), sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--write-percent",
					      "must be 0..100, got %u", o->write_percent);
	t->line_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.line_bytes");
	if ((rc = mem_addrmap_init(&t->map, cfg, err)))
		goto out;
	uint32_t n_sub = t->map.sub_partitions, cap = o->outstanding + 1;
	SIM_ASSERT(n_sub <= MT_MAX_SLICES); /* the key's range */
	bool nomem = false;
	for (uint32_t i = 0; i <= n_sub; i++) {
		t->q[i].v = calloc(cap, sizeof(void *));
		t->q[i].cap = cap;
		nomem |= !t->q[i].v;
	}
	t->reqs = calloc(o->outstanding, sizeof *t->reqs);
	t->free_ids = calloc(o->outstanding, sizeof *t->free_ids);
	if (nomem || !t->reqs || !t->free_ids) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "memtest");
		goto out;
	}
	for (uint32_t i = 0; i < o->outstanding; i++)
		t->free_ids[i] = o->outstanding - 1 - i;
	t->n_free = o->outstanding;

	t->noc.ops = &mt_ops;
	t->noc.n_nodes = 1 + (int)n_sub;
	t->noc.n_cores = 1;
	t->noc.n_mcs = (int)n_sub; /* channel 0's slices are 0 .. n_sub-1 */
	t->noc.core_node = t->core_node;
	t->noc.mc_node = t->mc_node;
	t->core_node[0] = 0;
	t->kind[0] = NOC_NODE_CORE;
	for (uint32_t s = 0; s < n_sub; s++) {
		t->mc_node[s] = 1 + (int)s;
		t->kind[1 + s] = NOC_NODE_MC;
	}
	t->noc.node_kind = t->kind;
	t->noc.sink = t->sinks;

	struct sim_config sc = {.seed = o->seed};
	if (!(sim = sim_create(&sc, err))) {
		rc = err->code ? (int)err->code : SIM_ERR_NOMEM;
		goto out;
	}
	t->sim = sim;
	t->clk.name = "memtest";
	t->clk.freq_mhz = (uint32_t)cfg_int(cfg, "gpu.l2.clock_mhz");
	if ((rc = sim_clock_add(sim, &t->clk, err)))
		goto out;
	t->gen.ops = &mt_gen_ops;
	t->gen.name = "memtest.gen";
	t->gen.clk = &t->clk;
	if ((rc = sim_component_add(sim, &t->gen, err)))
		goto out;
	t->sinks[0] = &t->gen;
	if (!(ch = mem_channel_create(cfg, sim, NULL, 0, &t->noc, err))) {
		rc = err->code ? (int)err->code : SIM_ERR_CONFIG;
		goto out;
	}
	sim_component_wake(&t->gen);
	enum sim_stop s = sim_run(sim, SIM_NEVER, stderr, err);
	if (s != SIM_STOP_QUIESCENT || t->done != o->requests) {
		if (!err->code)
			sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				      "memtest stopped with %llu of %llu reads answered",
				      (unsigned long long)t->done, (unsigned long long)o->requests);
		rc = err->code;
		goto out;
	}
	struct mem_channel_summary cs;
	mem_channel_summary(ch, &cs);
	out->requests = t->done;
	out->bytes = t->done * t->line_bytes;
	out->sim_seconds = (double)(t->last_ps - t->first_ps) * 1e-12;
	out->bandwidth_gbs = out->sim_seconds > 0 ? (double)out->bytes / out->sim_seconds / 1e9 : 0;
	out->peak_gbs = cs.peak_bytes_per_s / 1e9;
	out->avg_latency_ns = t->lat_ps_sum / (double)t->done / 1000.0;
	out->avg_latency_dram_cycles = out->avg_latency_ns * cs.dram_clock_mhz / 1000.0;
	out->row_hit_rate = cs.row_hit_rate;
	out->blp = cs.blp;
	out->bus_util = cs.bus_util;
	out->avg_queue_len = cs.avg_queue_len;
	out->queue_latency_dram_cycles = cs.queue_latency_cycles;
	out->service_latency_dram_cycles = cs.service_latency_cycles;
	out->row_hits = cs.row_hits;
	out->row_misses = cs.row_misses;
	out->row_conflicts = cs.row_conflicts;
	out->dram_reads = cs.reads;
	out->dram_writes = cs.writes;
	out->l2_hits = cs.l2_hits;
	out->l2_misses = cs.l2_misses;
	out->dram_clock_mhz = cs.dram_clock_mhz;
out:
	mem_channel_destroy(ch);
	if (sim)
		sim_destroy(sim);
	for (uint32_t i = 0; i <= MT_MAX_SLICES; i++)
		free(t->q[i].v);
	free(t->reqs);
	free(t->free_ids);
	free(t);
	return rc;
}
