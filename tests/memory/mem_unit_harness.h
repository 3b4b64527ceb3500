/* SPDX-License-Identifier: MIT */
/* Test harness for memory/mem_req.h's mem_unit, shared by tests/memory/test_mem_unit.c and
 * test_l1_flush.c: one SM's unit on a core clock of 1000 MHz (1 cycle = 1000 ps) behind a fake
 * NoC (fixed latency each way) whose memory nodes act as an always-hitting L2 with a fixed
 * latency, or route to real mem_channels. One fixture, H, built by setup_text. */
#ifndef WARPSIM_TEST_MEM_UNIT_HARNESS_H
#define WARPSIM_TEST_MEM_UNIT_HARNESS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "memory/mem_channel.h"
#include "memory/mem_req.h"
#include "noc/noc.h"

#define NOC_LAT 10 /* cycles each way */
#define L2_LAT 20  /* cycles in the fake L2 */

/* ---- fake NoC + L2 ------------------------------------------------------------------- */
struct fpkt {
	bool used, arrived;
	int dst, cls;
	uint64_t ready_cycle;
	void *p;
};
struct fake_noc {
	struct noc base;
	struct sim_component comp;
	int core_node[1], mc_node[2];
	enum noc_node_kind kinds[3];
	struct sim_component *sinks[3];
	struct fpkt pk[512];
	bool refuse;
	bool to_sinks;  /* requests go to the memory node's sink (a real mem_channel) */
	bool early_wake; /* like the cycle NoC: wake the sink in advance for the arrival cycle */
	uint64_t req_pkts[5], req_bytes[5]; /* per mem_req_kind, as injected by the SM */
	uint64_t first_inject_cycle[5];     /* per mem_req_kind, UINT64_MAX before the first */
};

static struct fake_noc *FN(struct noc *n) { return (struct fake_noc *)n; }

static bool fn_inject(struct noc *n, int src, int dst, enum noc_class cls, uint32_t size, void *payload)
{
	(void)src;
	struct fake_noc *f = FN(n);
	if (f->refuse)
		return false;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		if (f->pk[i].used)
			continue;
		uint64_t now = sim_component_cycle(&f->comp);
		f->pk[i] = (struct fpkt){true, false, dst, cls, now + NOC_LAT, payload};
		struct mem_req *r = payload;
		if (f->first_inject_cycle[r->kind] == UINT64_MAX)
			f->first_inject_cycle[r->kind] = now;
		f->req_pkts[r->kind]++;
		f->req_bytes[r->kind] += size;
		sim_component_wake_at_cycle(&f->comp, now + NOC_LAT);
		return true;
	}
	return false;
}

static struct fpkt *fn_first(struct noc *n, int node, enum noc_class cls)
{
	struct fake_noc *f = FN(n);
	struct fpkt *best = NULL;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		struct fpkt *p = &f->pk[i];
		if (p->used && p->arrived && p->dst == node && p->cls == (int)cls &&
		    (!best || p->ready_cycle < best->ready_cycle))
			best = p;
	}
	return best;
}

static void *fn_peek(struct noc *n, int node, enum noc_class cls)
{
	struct fpkt *p = fn_first(n, node, cls);
	return p ? p->p : NULL;
}

static void *fn_eject(struct noc *n, int node, enum noc_class cls)
{
	struct fpkt *p = fn_first(n, node, cls);
	if (!p)
		return NULL;
	p->used = false;
	return p->p;
}

static uint64_t fn_outstanding(const struct noc *n)
{
	const struct fake_noc *f = (const struct fake_noc *)n;
	uint64_t k = 0;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++)
		k += f->pk[i].used;
	return k;
}

static void fn_destroy(struct noc *n) { (void)n; }

static const struct noc_ops fn_ops = {"fake", fn_inject, fn_eject, fn_peek, fn_outstanding, fn_destroy};

/* Deliveries: a request reaching a memory node is answered by the fake L2 after L2_LAT and
 * travels back NOC_LAT; a reply reaching the core node becomes ejectable and wakes the sink. */
static uint64_t fn_tick(struct sim_component *c, uint64_t cycle)
{
	struct fake_noc *f = SIM_CONTAINER_OF(c, struct fake_noc, comp);
	uint64_t next = SIM_NEVER;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		struct fpkt *p = &f->pk[i];
		if (!p->used || p->arrived)
			continue;
		if (p->ready_cycle <= cycle) {
			if (p->cls == NOC_CLASS_REQ && !f->to_sinks) {
				struct mem_req *r = p->p;
				r->t_ps[MEM_T_L2_ARRIVE] = sim_clock_edge_ps(c->clk, cycle);
				r->t_ps[MEM_T_L2_REPLY] = sim_clock_edge_ps(c->clk, cycle + L2_LAT);
				r->is_reply = 1;
				p->cls = NOC_CLASS_REPLY;
				p->dst = f->core_node[r->src_sm];
				p->ready_cycle = cycle + L2_LAT + NOC_LAT;
				if (f->early_wake && f->sinks[p->dst])
					sim_component_wake_at_cycle(f->sinks[p->dst], p->ready_cycle);
			} else {
				p->arrived = true;
				if (f->sinks[p->dst] && !f->early_wake)
					sim_component_wake(f->sinks[p->dst]);
				continue;
			}
		}
		if (p->ready_cycle < next)
			next = p->ready_cycle;
	}
	return next;
}

static uint64_t fn_comp_outstanding(const struct sim_component *c)
{
	const struct fake_noc *f = SIM_CONTAINER_OF(c, struct fake_noc, comp);
	return fn_outstanding(&f->base);
}

static const struct sim_component_ops fn_comp_ops = {fn_tick, fn_comp_outstanding, NULL};

static uint64_t timer_tick(struct sim_component *c, uint64_t cycle)
{
	(void)c;
	(void)cycle;
	return SIM_NEVER;
}
static const struct sim_component_ops timer_ops = {timer_tick, NULL, NULL};

/* ---- harness ------------------------------------------------------------------------- */
#define MAX_DONE 64
struct harness {
	struct sim *sim;
	struct sim_clock clk;
	struct cfg *cfg;
	struct stats *st;
	struct fake_noc fn;
	struct sim_component timer; /* does nothing: woken by run_to to carry time forward */
	struct mem_unit *mu;
	struct mem_channel *ch[2];
	uint32_t n_done;
	uint64_t done_token[MAX_DONE], done_ps[MAX_DONE];
	uint64_t last_done_ps;        /* the latest completion's */
	uint64_t done_hash;           /* over every completion's token and time, in order */
	struct wi_static si;
	uint64_t addr[WI_MAX_LANES];
	struct warp_inst wi;
};
static struct harness H;

static uint32_t n_missed;
static uint64_t missed_token[MAX_DONE];
static uint32_t n_ifetched;
static uint64_t ifetch_addr[MAX_DONE], ifetch_ps[MAX_DONE];

/* mem_ifetch_done_fn: the instruction lines delivered. */
static void on_ifetch(void *ctx, uint64_t line_addr, uint64_t now_ps)
{
	(void)ctx;
	if (n_ifetched < MAX_DONE) {
		ifetch_addr[n_ifetched] = line_addr;
		ifetch_ps[n_ifetched] = now_ps;
	}
	n_ifetched++;
}

/* mem_missed_fn: the tokens reported as getting their data from below L1. */
static void on_missed(void *ctx, uint64_t token, uint64_t now_ps)
{
	(void)ctx;
	(void)now_ps;
	if (n_missed < MAX_DONE)
		missed_token[n_missed] = token;
	n_missed++;
}

static void on_done(void *ctx, uint64_t token, uint64_t now_ps)
{
	struct harness *h = ctx;
	if (h->n_done < MAX_DONE) {
		h->done_token[h->n_done] = token;
		h->done_ps[h->n_done] = now_ps;
	}
	h->n_done++;
	h->last_done_ps = now_ps;
	h->done_hash = (h->done_hash ^ (token * 0x9e3779b97f4a7c15ull + now_ps)) * 0x100000001b3ull;
}

/* The address-map settings belong to the DRAM side; defined here only if nobody has. */
static const struct cfg_key_def dram_keys[] = {
	CFG_KEY_INT("gpu.dram.channels", "", 2, 1, 64, "test"),
	CFG_KEY_INT("gpu.dram.banks", "", 4, 1, 64, "test"),
	CFG_KEY_INT("gpu.dram.row_bytes", "bytes", 2048, 64, 65536, "test"),
	CFG_KEY_INT("gpu.dram.addrmap.chan_interleave_bytes", "bytes", 2048, 64, 65536, "test"),
	CFG_KEY_STR("gpu.dram.addrmap.local_map", "BBCCCCCCCCCCC", "test"),
	CFG_KEY_BOOL("gpu.dram.addrmap.xor_bank", false, "test"),
	CFG_KEY_INT("gpu.l2.sub_partitions", "slices", 1, 1, 64, "test"),
};

/* L1D 1 KiB, 2-way, 64 B lines = 8 sets: lines 0, 512 and 1024 (0x1000, 0x2000) share set 0.
 * Hit latency 5, shared latency 7, fixed latency 100, 4 MSHRs x 2 targets, miss queue 4. */
static const char *base_cfg =
	"gpu: { memory: { l1d: { size_kb = 1; assoc = 2; line_bytes = 64; hit_latency_cycles = 5; };"
	" l1c: { hit_latency_cycles = 3; };"
	" mshr: { entries = 4; merges_per_entry = 2; }; miss_queue_entries = 4;"
	" shared: { latency_cycles = 7; }; fixed_latency_cycles = 100; }; };";

static bool with_channels; /* build real mem_channels (L2 + DRAM) behind the fake NoC */
static const char *const *extra_overrides; /* NULL-terminated, applied after the others */

/* Builds H from base_cfg, then machine_text (when given), overrides (one "key=value", when
 * given) and extra_overrides; with_noc: the unit is on the fake NoC (else a model without it). */
static inline void setup_text(const char *overrides, bool with_noc, const char *machine_text)
{
	struct sim_error err = {0};
	memset(&H, 0, sizeof H);
	H.clk = (struct sim_clock){.name = "core", .freq_mhz = 1000};
	struct sim_config sc = {.seed = 1};
	H.sim = sim_create(&sc, &err);
	cr_assert_not_null(H.sim);
	cr_assert_eq(sim_clock_add(H.sim, &H.clk, &err), 0);
	H.cfg = cfg_create();
	cr_assert_eq(mem_unit_cfg_define(H.cfg, &err), 0);
	if (with_channels)
		cr_assert_eq(mem_channel_cfg_define(H.cfg, &err), 0);
	if (!cfg_is_defined(H.cfg, "gpu.dram.channels"))
		cr_assert_eq(cfg_define(H.cfg, dram_keys, SIM_ARRAY_LEN(dram_keys), &err), 0);
	cr_assert_eq(cfg_load_string(H.cfg, "test.cfg", base_cfg, &err), 0, "%s", err.msg);
	if (machine_text)
		cr_assert_eq(cfg_load_string(H.cfg, "machine.cfg", machine_text, &err), 0, "%s:%d %s", err.file,
			     err.line, err.msg);
	if (overrides)
		cr_assert_eq(cfg_set_override(H.cfg, overrides, &err), 0, "%s", err.msg);
	for (const char *const *o = extra_overrides; o && *o; o++)
		cr_assert_eq(cfg_set_override(H.cfg, *o, &err), 0, "%s: %s", *o, err.msg);
	H.st = stats_create();

	struct fake_noc *f = &H.fn;
	f->base.ops = &fn_ops;
	f->base.n_nodes = 3;
	f->base.n_cores = 1;
	f->base.n_mcs = 2;
	f->core_node[0] = 0;
	f->mc_node[0] = 1;
	f->mc_node[1] = 2;
	f->kinds[0] = NOC_NODE_CORE;
	f->kinds[1] = f->kinds[2] = NOC_NODE_MC;
	f->base.core_node = f->core_node;
	f->base.mc_node = f->mc_node;
	f->base.node_kind = f->kinds;
	f->base.sink = f->sinks;
	for (int k = 0; k < 5; k++)
		f->first_inject_cycle[k] = UINT64_MAX;
	f->comp = (struct sim_component){.ops = &fn_comp_ops, .name = "fake-noc", .clk = &H.clk};
	cr_assert_eq(sim_component_add(H.sim, &f->comp, &err), 0);
	H.timer = (struct sim_component){.ops = &timer_ops, .name = "timer", .clk = &H.clk};
	cr_assert_eq(sim_component_add(H.sim, &H.timer, &err), 0);

	n_missed = 0;
	n_ifetched = 0;
	struct mem_unit_ports ports = {.done = on_done, .missed = on_missed, .ifetch_done = on_ifetch, .sm_ctx = &H,
				       .noc = with_noc ? &f->base : NULL, .noc_node = 0};
	H.mu = mem_unit_create(H.cfg, H.sim, H.st, 0, &H.clk, &ports, &err);
	cr_assert_not_null(H.mu, "%s", err.msg);
	if (with_noc)
		cr_assert_eq(f->sinks[0], mem_unit_component(H.mu)); /* the unit made itself the sink */
	if (with_channels) {
		f->to_sinks = true;
		for (int c = 0; c < 2; c++) {
			H.ch[c] = mem_channel_create(H.cfg, H.sim, H.st, (uint32_t)c, &f->base, &err);
			cr_assert_not_null(H.ch[c], "%s: %s", err.setting, err.msg);
		}
	}
	H.wi.addr = H.addr;
	H.wi.si = &H.si;
}

/* With the NoC and a machine's L1 settings (configs/<name>/l1.cfg) loaded after base_cfg. */
static inline void setup_machine(const char *name)
{
	char text[256];
	snprintf(text, sizeof text, "gpu: {\n@include \"configs/%s/l1.cfg\"\n};\n", name);
	setup_text(NULL, true, text);
}

static inline void teardown(void)
{
	for (int c = 0; c < 2; c++)
		mem_channel_destroy(H.ch[c]);
	stats_destroy(H.st); /* before the fields it points at */
	if (H.sim)
		sim_destroy(H.sim);
	mem_unit_destroy(H.mu);
	cfg_destroy(H.cfg);
	memset(&H, 0, sizeof H);
}

/* n lanes, lane l at base + l*stride, 4 bytes each. */
static inline const struct warp_inst *inst(enum wi_mem_kind kind, enum wi_space space, uint32_t n, uint64_t base, uint64_t stride)
{
	H.si.mem_kind = (uint8_t)kind;
	H.si.space = (uint8_t)space;
	memset(H.wi.mask, 0, sizeof H.wi.mask);
	H.wi.n_lanes = 32;
	H.wi.n_active = n;
	H.wi.access_bytes = 4;
	for (uint32_t l = 0; l < n; l++) {
		H.wi.mask[l / 64] |= 1ull << (l % 64);
		H.addr[l] = base + l * stride;
	}
	return &H.wi;
}

static inline void run_to(uint64_t cycle)
{
	struct sim_error err = {0};
	/* An idle simulation stops at once; a tick of the timer at that cycle carries time there. */
	sim_component_wake_at_cycle(&H.timer, cycle);
	sim_run(H.sim, cycle * 1000, NULL, &err);
	cr_assert_eq(sim_now_ps(H.sim), cycle * 1000);
}

/* Runs to cycle and issues wi there with token; the unit must accept it. */
static inline void issue_at(uint64_t cycle, const struct warp_inst *wi, uint64_t token)
{
	run_to(cycle);
	cr_assert(mem_unit_try_issue(H.mu, wi, token, cycle), "token %llu at cycle %llu refused",
		  (unsigned long long)token, (unsigned long long)cycle);
}

/* To quiescence, as the GPU runs a launch: nothing may be left in flight. */
static inline void run_all(void)
{
	struct sim_error err = {0};
	cr_assert_eq(sim_run(H.sim, SIM_NEVER, stderr, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert_eq(mem_unit_outstanding(H.mu), 0);
}

static inline uint64_t stat(const char *name)
{
	uint64_t v = 0;
	cr_assert(stats_get_u64(H.st, name, &v), "no stat %s", name);
	return v;
}

static inline double statd(const char *name)
{
	double v = 0;
	cr_assert(stats_get_double(H.st, name, &v), "no stat %s", name);
	return v;
}


#endif
