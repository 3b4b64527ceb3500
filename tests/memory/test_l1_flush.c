/* SPDX-License-Identifier: MIT */
/* Tests memory/mem_req.h's mem_unit_kernel_begin (gpu.memory.l1d.flush_at_launch): two
 * "launches" reading the same lines against a fake NoC + L2 that answers every request 40
 * cycles after its injection. Core clock 1000 MHz: 1 cycle = 1000 ps. */
#include <criterion/criterion.h>
#include <string.h>

#include "memory/mem_req.h"
#include "noc/noc.h"

#define ROUND_TRIP 40 /* cycles from injection to the reply being ejectable */

/* ---- a NoC + L2 in one: each request's reply is ejectable ROUND_TRIP cycles later ------ */
struct rt_pkt {
	bool used;
	uint64_t ready_cycle;
	struct mem_req *r;
};
struct rt_noc {
	struct noc base;
	struct sim_component comp;
	int core_node[1], mc_node[2];
	enum noc_node_kind kinds[3];
	struct sim_component *sinks[3];
	struct rt_pkt pk[64];
	uint64_t pkts[5], bytes[5];     /* injected, by mem_req_kind */
	uint64_t first_inject_cycle[5]; /* of each kind, UINT64_MAX before */
};

static struct rt_noc *RT(struct noc *n) { return (struct rt_noc *)n; }

static bool rt_inject(struct noc *n, int src, int dst, enum noc_class cls, uint32_t size, void *payload)
{
	(void)src;
	(void)dst;
	(void)cls;
	struct rt_noc *f = RT(n);
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		if (f->pk[i].used)
			continue;
		uint64_t now = sim_component_cycle(&f->comp);
		struct mem_req *r = payload;
		f->pk[i] = (struct rt_pkt){true, now + ROUND_TRIP, r};
		if (f->first_inject_cycle[r->kind] == UINT64_MAX)
			f->first_inject_cycle[r->kind] = now;
		f->pkts[r->kind]++;
		f->bytes[r->kind] += size;
		r->t_ps[MEM_T_L2_ARRIVE] = r->t_ps[MEM_T_L2_REPLY] = sim_clock_edge_ps(f->comp.clk, now);
		sim_component_wake_at_cycle(&f->comp, now + ROUND_TRIP);
		return true;
	}
	return false;
}

static struct rt_pkt *rt_ready(struct noc *n)
{
	struct rt_noc *f = RT(n);
	uint64_t now = sim_component_cycle(&f->comp);
	struct rt_pkt *best = NULL;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		struct rt_pkt *p = &f->pk[i];
		if (p->used && p->ready_cycle <= now && (!best || p->ready_cycle < best->ready_cycle))
			best = p;
	}
	return best;
}

static void *rt_peek(struct noc *n, int node, enum noc_class cls)
{
	(void)node;
	(void)cls;
	struct rt_pkt *p = rt_ready(n);
	return p ? p->r : NULL;
}

static void *rt_eject(struct noc *n, int node, enum noc_class cls)
{
	(void)node;
	(void)cls;
	struct rt_pkt *p = rt_ready(n);
	if (!p)
		return NULL;
	p->used = false;
	p->r->is_reply = 1;
	return p->r;
}

static uint64_t rt_outstanding(const struct noc *n)
{
	const struct rt_noc *f = (const struct rt_noc *)n;
	uint64_t k = 0;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++)
		k += f->pk[i].used;
	return k;
}

static void rt_destroy(struct noc *n) { (void)n; }

static const struct noc_ops rt_ops = {"round-trip", rt_inject, rt_eject, rt_peek, rt_outstanding, rt_destroy};

/* At a reply's cycle: wake the unit (its sink) to eject it. */
static uint64_t rt_tick(struct sim_component *c, uint64_t cycle)
{
	struct rt_noc *f = SIM_CONTAINER_OF(c, struct rt_noc, comp);
	uint64_t next = SIM_NEVER;
	for (size_t i = 0; i < SIM_ARRAY_LEN(f->pk); i++) {
		struct rt_pkt *p = &f->pk[i];
		if (!p->used)
			continue;
		if (p->ready_cycle <= cycle)
			sim_component_wake(f->sinks[0]);
		else if (p->ready_cycle < next)
			next = p->ready_cycle;
	}
	return next;
}

static uint64_t rt_comp_outstanding(const struct sim_component *c)
{
	return rt_outstanding(&SIM_CONTAINER_OF(c, struct rt_noc, comp)->base);
}

static const struct sim_component_ops rt_comp_ops = {rt_tick, rt_comp_outstanding, NULL};

static uint64_t idle_tick(struct sim_component *c, uint64_t cycle)
{
	(void)c;
	(void)cycle;
	return SIM_NEVER;
}
static const struct sim_component_ops idle_ops = {idle_tick, NULL, NULL};

/* ---- harness ----------------------------------------------------------------------------- */
static struct {
	struct sim *sim;
	struct sim_clock clk;
	struct cfg *cfg;
	struct stats *st;
	struct rt_noc noc;
	struct sim_component timer; /* woken by run_to to carry time forward */
	struct mem_unit *mu;
	uint32_t n_done;
	uint64_t last_done_ps;
	struct wi_static si;
	uint64_t addr[WI_MAX_LANES];
	struct warp_inst wi;
} H;

static void on_done(void *ctx, uint64_t token, uint64_t now_ps)
{
	(void)ctx;
	(void)token;
	H.n_done++;
	H.last_done_ps = now_ps;
}

static const struct cfg_key_def dram_keys[] = {
	CFG_KEY_INT("gpu.dram.channels", "", 2, 1, 64, "test"),
	CFG_KEY_INT("gpu.dram.banks", "", 4, 1, 64, "test"),
	CFG_KEY_INT("gpu.dram.row_bytes", "bytes", 2048, 64, 65536, "test"),
	CFG_KEY_INT("gpu.dram.addrmap.chan_interleave_bytes", "bytes", 2048, 64, 65536, "test"),
	CFG_KEY_STR("gpu.dram.addrmap.local_map", "BBCCCCCCCCCCC", "test"),
	CFG_KEY_BOOL("gpu.dram.addrmap.xor_bank", false, "test"),
};

/* L1D 1 KiB, 2-way, 64 B lines = 8 sets (line addresses 0x1000 and 0x2000 share set 0), hit
 * latency 5; 4 MSHRs, miss queue 4. machine_text, when given, is loaded after these. */
static const char *base_cfg =
	"gpu: { memory: { l1d: { size_kb = 1; assoc = 2; line_bytes = 64; hit_latency_cycles = 5; };"
	" l1c: { hit_latency_cycles = 3; }; mshr: { entries = 4; merges_per_entry = 2; };"
	" miss_queue_entries = 4; }; };";

static void setup_text(const char *overrides, const char *machine_text)
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
	cr_assert_eq(cfg_define(H.cfg, dram_keys, SIM_ARRAY_LEN(dram_keys), &err), 0);
	cr_assert_eq(cfg_load_string(H.cfg, "test.cfg", base_cfg, &err), 0, "%s", err.msg);
	if (machine_text)
		cr_assert_eq(cfg_load_string(H.cfg, "machine.cfg", machine_text, &err), 0, "%s:%d %s", err.file,
			     err.line, err.msg);
	if (overrides)
		cr_assert_eq(cfg_set_override(H.cfg, overrides, &err), 0, "%s", err.msg);
	H.st = stats_create();
	struct rt_noc *f = &H.noc;
	f->base = (struct noc){.ops = &rt_ops, .n_nodes = 3, .n_cores = 1, .n_mcs = 2, .core_node = f->core_node,
			       .mc_node = f->mc_node, .node_kind = f->kinds, .sink = f->sinks};
	f->mc_node[0] = 1;
	f->mc_node[1] = 2;
	f->kinds[0] = NOC_NODE_CORE;
	f->kinds[1] = f->kinds[2] = NOC_NODE_MC;
	for (int k = 0; k < 5; k++)
		f->first_inject_cycle[k] = UINT64_MAX;
	f->comp = (struct sim_component){.ops = &rt_comp_ops, .name = "rt-noc", .clk = &H.clk};
	cr_assert_eq(sim_component_add(H.sim, &f->comp, &err), 0);
	H.timer = (struct sim_component){.ops = &idle_ops, .name = "timer", .clk = &H.clk};
	cr_assert_eq(sim_component_add(H.sim, &H.timer, &err), 0);
	struct mem_unit_ports ports = {.done = on_done, .sm_ctx = &H, .noc = &f->base, .noc_node = 0};
	H.mu = mem_unit_create(H.cfg, H.sim, H.st, 0, &H.clk, &ports, &err);
	cr_assert_not_null(H.mu, "%s", err.msg);
	H.wi.addr = H.addr;
	H.wi.si = &H.si;
}

static void teardown(void)
{
	stats_destroy(H.st);
	if (H.sim)
		sim_destroy(H.sim);
	mem_unit_destroy(H.mu);
	cfg_destroy(H.cfg);
	memset(&H, 0, sizeof H);
}

/* n lanes of 4 bytes, lane l at base + 4 l: 32 lanes cover two 64 B lines. */
static const struct warp_inst *inst(enum wi_mem_kind kind, enum wi_space space, uint32_t n, uint64_t base)
{
	H.si.mem_kind = (uint8_t)kind;
	H.si.space = (uint8_t)space;
	memset(H.wi.mask, 0, sizeof H.wi.mask);
	H.wi.n_lanes = 32;
	H.wi.n_active = n;
	H.wi.access_bytes = 4;
	for (uint32_t l = 0; l < n; l++) {
		H.wi.mask[l / 64] |= 1ull << (l % 64);
		H.addr[l] = base + 4 * l;
	}
	return &H.wi;
}

static void run_to(uint64_t cycle)
{
	struct sim_error err = {0};
	sim_component_wake_at_cycle(&H.timer, cycle);
	sim_run(H.sim, cycle * 1000, NULL, &err);
	cr_assert_eq(sim_now_ps(H.sim), cycle * 1000);
}

/* To quiescence, as the GPU runs a launch: nothing may be left in flight. */
static void run_all(void)
{
	struct sim_error err = {0};
	cr_assert_eq(sim_run(H.sim, SIM_NEVER, stderr, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert_eq(mem_unit_outstanding(H.mu), 0);
}

static uint64_t stat(const char *name)
{
	uint64_t v = 0;
	cr_assert(stats_get_u64(H.st, name, &v), "no stat %s", name);
	return v;
}

/* Launch 1 at cycle 10 and launch 2 at cycle 200, each one load of 32 lanes over lines 0x1000
 * and 0x1040 (sets 0 and 1): launch 1 misses both. Returns launch 2's completion cycle. */
static uint64_t two_launches(void)
{
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 1, 10));
	run_all();
	cr_assert_eq(H.n_done, 1);
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 2, 200));
	run_all();
	cr_assert_eq(H.n_done, 2);
	return H.last_done_ps / 1000;
}

TestSuite(l1_flush, .fini = teardown);

/* Off (the default): launch 2 hits both lines, the second access a cycle after the first:
 * done at 201 + 5. L1D: 4 accesses, 2 misses (launch 1), 2 hits (launch 2); 2 reads sent. */
Test(l1_flush, off_the_second_launch_hits_the_lines_the_first_left)
{
	setup_text("gpu.memory.l1d.write_policy=write-evict", NULL);
	cr_expect_eq(two_launches(), 206);
	cr_expect_eq(stat("sm.0.l1d.accesses"), 4);
	cr_expect_eq(stat("sm.0.l1d.hits"), 2);
	cr_expect_eq(stat("sm.0.l1d.misses"), 2);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushes"), 0);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 0);
}

/* On: launch 2 misses both again, as launch 1 did. Its misses are queued at 200 and 201,
 * injected at 201 and 202, replies ejectable at 241 and 242: done at 242. 4 accesses, 4
 * misses, 4 reads; 2 flushes (the first of an empty L1D), 2 lines dropped by the second.
 * A write-evict L1D holds no dirty line: no write-back. */
Test(l1_flush, on_the_second_launch_misses_as_the_first)
{
	setup_text("gpu.memory.l1d.write_policy=write-evict", "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	cr_expect_eq(two_launches(), 242);
	cr_expect_eq(stat("sm.0.l1d.accesses"), 4);
	cr_expect_eq(stat("sm.0.l1d.hits"), 0);
	cr_expect_eq(stat("sm.0.l1d.misses"), 4);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 4);
	cr_expect_eq(stat("sm.0.l1d.flushes"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 2);
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), 0);
	cr_expect_eq(H.noc.pkts[MEM_REQ_WRITEBACK], 0);
}

/* Write-back L1D, flush on. Launch 1 at 10: a store of 32 lanes at 0x2000 allocates lines
 * 0x2000 and 0x2040 dirty (sets 0 and 1, no traffic); a load at 0x1000 misses lines 0x1000
 * and 0x1040 (the sets' other ways: no eviction). Launch 2 at 200 drops the 4 lines and
 * queues the 2 dirty ones as write-backs (72-byte packets: 8 + 64) ahead of its own load of
 * 0x1000, whose 2 misses are queued at 200 and 201: injections at 201, 202 (write-backs),
 * 203, 204 (reads), replies at 243 and 244: done at 244 (with the flush off: hits, done at
 * 206, and no write-back). */
Test(l1_flush, a_write_back_l1d_writes_its_dirty_lines_back_first)
{
	setup_text(NULL, "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x2000), 1, 10));
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 2, 12));
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.noc.pkts[MEM_REQ_WRITEBACK], 0);
	cr_expect_eq(H.noc.pkts[MEM_REQ_WRITE], 0);
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_expect_eq(mem_unit_outstanding(H.mu), 2); /* the two write-backs, queued */
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 3, 200));
	run_all();
	cr_assert_eq(H.n_done, 3);
	cr_expect_eq(H.last_done_ps, 244 * 1000);
	cr_expect_eq(H.noc.pkts[MEM_REQ_WRITEBACK], 2);
	cr_expect_eq(H.noc.bytes[MEM_REQ_WRITEBACK], 2 * 72);
	cr_expect_eq(H.noc.first_inject_cycle[MEM_REQ_WRITEBACK], 201);
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 4);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 4);
	cr_expect_eq(stat("sm.0.l1d.read_hits"), 0);
}

/* The same two launches with the flush off: launch 2 hits (done at 206), nothing is written. */
Test(l1_flush, a_write_back_l1d_keeps_its_dirty_lines_without_the_flush)
{
	setup_text(NULL, NULL);
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x2000), 1, 10));
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 2, 12));
	run_all();
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_expect_eq(mem_unit_outstanding(H.mu), 0);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000), 3, 200));
	run_all();
	cr_expect_eq(H.last_done_ps, 206 * 1000);
	cr_expect_eq(H.noc.pkts[MEM_REQ_WRITEBACK], 0);
	cr_expect_eq(stat("sm.0.l1d.read_hits"), 2);
}

/* GPGPU-Sim flushes only the L1D (ldst_unit::invalidate): a constant line read in launch 1
 * (one lane: one 4-byte word, one 64 B line) still hits in launch 2 (done at 200 + 3). */
Test(l1_flush, the_constant_cache_keeps_its_lines)
{
	setup_text(NULL, "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x3000), 1, 10));
	run_all();
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x3000), 2, 200));
	run_all();
	cr_expect_eq(H.last_done_ps, 203 * 1000);
	cr_expect_eq(stat("sm.0.l1c.hits"), 1);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 0);
}

/* The machines' settings (configs/README.md): gtx480 flushes as GPGPU-Sim 4.2's SM2_GTX480
 * (-gpgpu_flush_l1_cache 1); m2090 (3.2.2's TeslaC2050) and owl-28 (2.x's -gpgpu_flush_cache
 * default) do not. */
static bool machine_flushes(const char *name)
{
	char text[256];
	snprintf(text, sizeof text, "gpu: {\n@include \"configs/%s/l1.cfg\"\n};\n", name);
	setup_text(NULL, text);
	bool on = cfg_bool(H.cfg, "gpu.memory.l1d.flush_at_launch");
	teardown();
	return on;
}

Test(l1_flush, machine_settings_follow_their_gpgpusim)
{
	cr_expect(machine_flushes("gtx480"));
	cr_expect(!machine_flushes("m2090"));
	cr_expect(!machine_flushes("owl-28"));
}
