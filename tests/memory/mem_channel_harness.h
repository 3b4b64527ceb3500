/* SPDX-License-Identifier: MIT */
/* Test harness for memory/mem_channel.h, shared by tests/memory/test_mem_channel.c and
 * test_l2_sector.c: one channel (L2 slices + MC as engine components) behind a fake
 * zero-latency NoC; build() / build_ch() make the fixture, send() injects a request. */
#ifndef WARPSIM_TEST_MEM_CHANNEL_HARNESS_H
#define WARPSIM_TEST_MEM_CHANNEL_HARNESS_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/config.h"
#include "engine/sim.h"
#include "engine/stats.h"
#include "memory/addrmap.h"
#include "memory/mem_channel.h"
#include "memory/mem_req.h"
#include "noc/noc.h"

/* ---- a fake NoC: node 0 = core 0, node 1 + s = the channel's slice s (sub-partition);
 * delivery is immediate ------------------------------------------------------------------- */
#define FQ 256
#define FN 3 /* nodes: the core and up to two slices */
struct fake_pkt {
	void *payload;
	uint32_t size;
	uint64_t t_ps;
};
struct fake_noc {
	struct noc base;
	struct sim *sim;
	struct fake_pkt q[FN][NOC_NUM_CLASSES][FQ];
	uint32_t n[FN][NOC_NUM_CLASSES];
	uint32_t cap;     /* packets per queue accepted */
	uint64_t delay_ps; /* a packet is ejectable this long after injection; its sink is woken then */
	int core_node[1], mc_node[64]; /* slice i at node 1 + i % sub_partitions (fake_noc_place) */
	enum noc_node_kind kind[FN];
	struct sim_component *sinks[FN];
};

static bool fk_inject(struct noc *n, int src, int dst, enum noc_class cls, uint32_t size, void *p)
{
	(void)src;
	struct fake_noc *f = (struct fake_noc *)n;
	if (f->n[dst][cls] >= f->cap)
		return false;
	f->q[dst][cls][f->n[dst][cls]++] = (struct fake_pkt){p, size, sim_now_ps(f->sim)};
	if (n->sink[dst])
		sim_component_wake_at_ps(n->sink[dst], sim_now_ps(f->sim) + f->delay_ps);
	return true;
}

static void *fk_peek(struct noc *n, int node, enum noc_class cls)
{
	struct fake_noc *f = (struct fake_noc *)n;
	if (!f->n[node][cls] || f->q[node][cls][0].t_ps + f->delay_ps > sim_now_ps(f->sim))
		return NULL;
	return f->q[node][cls][0].payload;
}

static void *fk_eject(struct noc *n, int node, enum noc_class cls)
{
	struct fake_noc *f = (struct fake_noc *)n;
	if (!fk_peek(n, node, cls))
		return NULL;
	void *p = f->q[node][cls][0].payload;
	memmove(&f->q[node][cls][0], &f->q[node][cls][1], (f->n[node][cls] - 1) * sizeof(struct fake_pkt));
	f->n[node][cls]--;
	return p;
}

/* Requests on their way to the channel (replies to the core are never ejected here). */
static uint64_t fk_outstanding(const struct noc *n)
{
	const struct fake_noc *f = (const struct fake_noc *)n;
	return f->n[1][NOC_CLASS_REQ] + f->n[2][NOC_CLASS_REQ];
}

static const struct noc_ops fk_ops = {"fake", fk_inject, fk_eject, fk_peek, fk_outstanding, NULL};

/* Every slice number of the machine on node 1 + its sub-partition. */
static void fake_noc_place(struct fake_noc *f, const struct cfg *c)
{
	uint32_t n_sub = (uint32_t)cfg_int(c, "gpu.l2.sub_partitions");
	cr_assert_leq(n_sub, FN - 1);
	f->base.n_nodes = 1 + (int)n_sub;
	f->base.n_mcs = 64;
	for (int i = 0; i < 64; i++)
		f->mc_node[i] = 1 + i % (int)n_sub;
	for (uint32_t s = 0; s < n_sub; s++)
		f->kind[1 + s] = NOC_NODE_MC;
}

/* ---- fixture ------------------------------------------------------------------------------ */
static struct fake_noc NOC;
static struct sim *SIM;
static struct stats *ST;
static struct cfg *CFG;
static struct mem_channel *CH;
static struct sim_clock L2CLK = {.name = "t-l2", .freq_mhz = 650};
static struct mem_req REQ[64];

static const char *const models[] = {"full", "perfect-l1", "perfect-l2", "fixed-latency", NULL};
static const struct cfg_key_def model_key[] = {
	/* declared by mem_unit_cfg_define in the real build; redeclared so this test links alone */
	CFG_KEY_ENUM("gpu.memory.model", "full", models, "memory model"),
};

static void build_ch(const char *const *overrides, uint32_t channel)
{
	struct sim_error err = {0};
	memset(&NOC, 0, sizeof NOC);
	NOC.base.ops = &fk_ops;
	NOC.base.n_nodes = 2;
	NOC.base.n_cores = 1;
	NOC.base.n_mcs = 1;
	NOC.core_node[0] = 0;
	NOC.mc_node[0] = 1;
	NOC.base.core_node = NOC.core_node;
	NOC.base.mc_node = NOC.mc_node;
	NOC.kind[0] = NOC_NODE_CORE;
	NOC.kind[1] = NOC_NODE_MC;
	NOC.base.node_kind = NOC.kind;
	NOC.base.sink = NOC.sinks;
	NOC.cap = FQ;
	CFG = cfg_create();
	cr_assert_eq(mem_channel_cfg_define(CFG, &err), 0);
	cr_assert_eq(cfg_define(CFG, model_key, 1, &err), 0);
	cr_assert_eq(cfg_set_override(CFG, "gpu.dram.channels=1", &err), 0, "%s", err.msg);
	for (int i = 0; overrides && overrides[i]; i++)
		cr_assert_eq(cfg_set_override(CFG, overrides[i], &err), 0, "%s", err.msg);
	fake_noc_place(&NOC, CFG);
	struct sim_config sc = {.seed = 1};
	SIM = sim_create(&sc, &err);
	cr_assert(SIM);
	NOC.sim = SIM;
	ST = stats_create();
	CH = mem_channel_create(CFG, SIM, ST, channel, &NOC.base, &err);
	cr_assert(CH, "%s", err.msg);
	cr_assert_eq(NOC.base.sink[1] != NULL, true);
	cr_assert_eq(sim_clock_add(SIM, &L2CLK, &err), 0);
}

static void build(const char *const *overrides) { build_ch(overrides, 0); }

static void teardown(void)
{
	mem_channel_destroy(CH);
	if (ST)
		stats_destroy(ST);
	if (SIM)
		sim_destroy(SIM);
	if (CFG)
		cfg_destroy(CFG);
	CH = NULL;
	ST = NULL;
	SIM = NULL;
	CFG = NULL;
}


static struct mem_req *send(int id, enum mem_req_kind kind, uint64_t addr)
{
	struct mem_req *r = &REQ[id];
	memset(r, 0, sizeof *r);
	r->id = (uint64_t)id;
	r->addr = addr;
	r->size_bytes = 64;
	r->kind = (uint8_t)kind;
	r->src_sm = 0;
	uint32_t size = 8 + (kind == MEM_REQ_READ ? 0 : 64);
	cr_assert(noc_try_inject(&NOC.base, 0, 1, NOC_CLASS_REQ, size, r));
	return r;
}

static void run(void)
{
	struct sim_error err = {0};
	enum sim_stop s = sim_run(SIM, SIM_NEVER, stderr, &err);
	cr_assert_eq(s, SIM_STOP_QUIESCENT, "%s", err.msg);
}

static struct fake_pkt *reply(int i)
{
	cr_assert_lt((uint32_t)i, NOC.n[0][NOC_CLASS_REPLY]);
	return &NOC.q[0][NOC_CLASS_REPLY][i];
}

static uint64_t stat(const char *name)
{
	uint64_t v = 0;
	cr_assert(stats_get_u64(ST, name, &v), "no stat %s", name);
	return v;
}


#endif
