/* SPDX-License-Identifier: MIT */
/* Tests for components/sm/sm.h: issue timing (latency, initiation interval, SIMT width), the
 * I-buffer/fetch interaction (BAWS Sec 2.2), barriers and exit, LRR/GTO orders, cycle classes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "components/cta_dispatcher.h"
#include "components/sm/sm.h"
#include "components/sm/sm_internal.h" /* quiet_repeats */
#include "frontend/fe.h"
#include "memory/mem_req.h"

#define MAX_EV 4096

/* ---- harness: one SM, real policies and memory unit, events recorded ------------------- */

struct rec {
	enum sched_event_kind kind;
	uint16_t warp, cta_slot;
	uint32_t pc;          /* WARP_ISSUE: pc of the issued instruction */
	uint64_t cycle, arg;
};

static struct {
	struct cfg *cfg;
	struct sim *sim;
	struct stats *st;
	struct sim_clock clk;
	struct cta_dispatcher *d;
	struct sm *sm;
	struct sm *sm1;       /* second core, when built with 2 */
	struct fe_module *mod;
	struct fe_memory *mem;
	struct fe_launch *l;
	uint64_t buf;         /* the kernel's parameter, if it has one: 4 KB of global memory */
	struct rec ev[MAX_EV];
	uint32_t n_ev;
} H;

/* The issue policy as configured, wrapped so that every event the SM reports is logged. */
static void sm_wrap_record(const struct sched *s, const struct sched_event *ev)
{
	if (ev->kind != SCHED_EV_FETCH && H.n_ev < MAX_EV) {
		struct rec *r = &H.ev[H.n_ev++];
		r->kind = ev->kind;
		r->warp = ev->warp_id;
		r->cta_slot = ev->cta_slot;
		r->pc = s->core->warps[ev->warp_id].pc;
		r->cycle = ev->cycle;
		r->arg = ev->arg;
	}
}
#include "sm_wrap.h"

static const char *const base_ov[] = {
	"gpu.core.n_schedulers=1", "gpu.core.units.sp=1", "gpu.core.simt_width=32",
	"gpu.core.units.ldst_width=32", "gpu.core.icache.miss_latency_cycles=0",
	"gpu.core.fetch_decode_cycles=1", "gpu.memory.model=fixed-latency",
	"gpu.memory.fixed_latency_cycles=100", NULL,
};

static uint64_t g_watchdog_cycles; /* 0: off */
/* A shipped machine's core.cfg ("gtx480") in place of base_ov; build_machine sets it. */
static const char *g_machine;

static void build_h(const char *ptx, uint32_t threads, uint32_t ctas, const char *const *ov, uint32_t n_cores,
		    const struct sm_hooks *hooks)
{
	struct sim_error err = {0};
	memset(&H, 0, sizeof H);
	H.cfg = cfg_create();
	cr_assert_eq(sm_cfg_define(H.cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(cta_dispatcher_cfg_define(H.cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(sched_cfg_define(H.cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(mem_unit_cfg_define(H.cfg, &err), 0, "%s", err.msg);
	if (g_machine) {
		char text[256];
		snprintf(text, sizeof text, "gpu: {\n@include \"configs/%s/core.cfg\"\n};\n", g_machine);
		cr_assert_eq(cfg_load_string(H.cfg, "machine.cfg", text, &err), 0, "%s: %s", g_machine, err.msg);
		/* no memory instruction runs: the model only has to build without a NoC */
		cr_assert_eq(cfg_set_override(H.cfg, "gpu.memory.model=fixed-latency", &err), 0, "%s", err.msg);
	} else {
		for (const char *const *o = base_ov; *o; o++)
			cr_assert_eq(cfg_set_override(H.cfg, *o, &err), 0, "%s: %s", *o, err.msg);
	}
	for (; ov && *ov; ov++)
		cr_assert_eq(cfg_set_override(H.cfg, *ov, &err), 0, "%s: %s", *ov, err.msg);
	struct sim_config sc = {.seed = 1, .watchdog_cycles = g_watchdog_cycles, .watchdog_clk = &H.clk};
	H.sim = sim_create(&sc, &err);
	cr_assert_not_null(H.sim);
	H.clk.name = "core";
	H.clk.freq_mhz = 1000;
	cr_assert_eq(sim_clock_add(H.sim, &H.clk, &err), 0);
	H.st = stats_create();
	H.d = cta_dispatcher_create(H.cfg, H.st, n_cores, &err);
	cr_assert_not_null(H.d, "%s", err.msg);
	struct sm_hooks hk = sm_real_hooks; /* real memory unit, recording policies */
	hk.issue_ops = &wrap_issue_ops;
	hk.fetch_ops = &wrap_fetch_ops;
	if (hooks)
		hk = *hooks;
	H.sm = sm_create_hooked(H.cfg, H.sim, H.st, 0, n_cores, &H.clk, NULL, 0, H.d, &hk, &err);
	cr_assert_not_null(H.sm, "%s", err.msg);
	if (n_cores == 2) {
		H.sm1 = sm_create_hooked(H.cfg, H.sim, H.st, 1, n_cores, &H.clk, NULL, 0, H.d, &hk, &err);
		cr_assert_not_null(H.sm1, "%s", err.msg);
	}
	cr_assert_eq(fe_module_parse_string("t.ptx", ptx, &H.mod, &err), 0, "%s:%d: %s", err.file, err.line, err.msg);
	H.mem = fe_memory_create();
	uint64_t buf = H.buf = fe_mem_alloc(H.mem, 4096);
	uint32_t grid[3] = {ctas, 1, 1}, block[3] = {threads, 1, 1};
	uint32_t np = 0;
	cr_assert_eq(fe_kernel_params(H.mod, "k", &np, &err), 0, "%s", err.msg);
	H.l = fe_launch_create(H.mod, H.mem, "k", grid, block, 0, &buf, np ? sizeof buf : 0, 16, &err);
	cr_assert_not_null(H.l, "%s", err.msg);
}

static void build_n(const char *ptx, uint32_t threads, uint32_t ctas, const char *const *ov, uint32_t n_cores)
{
	build_h(ptx, threads, ctas, ov, n_cores, NULL);
}

static void build(const char *ptx, uint32_t threads, uint32_t ctas, const char *const *ov)
{
	build_n(ptx, threads, ctas, ov, 1);
}

/* One SM as a shipped machine's configs/<machine>/core.cfg sets it (no test overrides). */
static void build_machine(const char *machine, const char *ptx, uint32_t threads, uint32_t ctas)
{
	g_machine = machine;
	build_n(ptx, threads, ctas, NULL, 1);
	g_machine = NULL;
}

static void run(void)
{
	struct sim_error err = {0};
	cr_assert_eq(cta_dispatcher_launch_kernel(H.d, H.l, 0, &err), 0, "%s", err.msg);
	enum sim_stop why = sim_run(H.sim, SIM_NEVER, stderr, &err);
	cr_assert_null(sm_error(H.sm), "%s", sm_error(H.sm) ? sm_error(H.sm)->msg : "");
	cr_assert_eq(why, SIM_STOP_QUIESCENT, "stop %d: %s", why, err.msg);
	cr_assert(cta_dispatcher_kernel_done(H.d));
}

static void teardown(void)
{
	stats_destroy(H.st); /* it points into the components: goes first */
	sm_destroy(H.sm);
	sm_destroy(H.sm1);
	cta_dispatcher_destroy(H.d);
	if (H.l)
		fe_launch_destroy(H.l);
	if (H.mem)
		fe_memory_destroy(H.mem);
	if (H.mod)
		fe_module_destroy(H.mod);
	sim_destroy(H.sim);
	cfg_destroy(H.cfg);
}

/* Issue cycles of warp w, in order; returns how many. */
static uint32_t issues(uint16_t w, uint64_t *cyc, uint32_t *pc, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < H.n_ev && n < max; i++)
		if (H.ev[i].kind == SCHED_EV_WARP_ISSUE && H.ev[i].warp == w) {
			cyc[n] = H.ev[i].cycle;
			if (pc)
				pc[n] = H.ev[i].pc;
			n++;
		}
	return n;
}

static const struct rec *find(enum sched_event_kind k, int warp, uint32_t nth)
{
	for (uint32_t i = 0; i < H.n_ev; i++)
		if (H.ev[i].kind == k && (warp < 0 || H.ev[i].warp == warp) && nth-- == 0)
			return &H.ev[i];
	return NULL;
}

/* Every scheduler cycle is in exactly one class: per scheduler, classes sum to the cycles. */
static void check_classes_sum(void)
{
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	uint64_t sum = 0;
	for (int k = 0; k < SM_CYC_COUNT; k++)
		sum += c.sched_cycles[k];
	cr_assert_eq(sum, c.cycles * sm_schedulers(H.sm), "classes %lu vs %lu cycles x %u",
		     (unsigned long)sum, (unsigned long)c.cycles, sm_schedulers(H.sm));
	/* The kernel's cycles are the SM's cycles. */
	cr_assert_eq(c.cycles, cta_dispatcher_kernel_end_cycle(H.d) - cta_dispatcher_kernel_start_cycle(H.d));
}

#define PTX_HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* ---- timing ---------------------------------------------------------------------------- */

Test(sm, issuing_counts_as_progress_for_the_watchdog)
{
	/* A 40-cycle ALU-only kernel under a 25-cycle watchdog: no memory traffic, so only the SM's
	 * issues tell the engine it progresses (gaps here are at most 10 cycles). */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
		" mov.u32 %r1, 7;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n"
		" add.s32 %r4, %r3, 1;\n add.s32 %r5, %r4, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=10", NULL};
	g_watchdog_cycles = 25;
	build(ptx, 32, 1, ov);
	g_watchdog_cycles = 0;
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_gt(c.cycles, 40);
	teardown();
}

Test(sm, dependent_alu_chain_issues_exactly_latency_apart)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
		" mov.u32 %r1, 7;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n"
		" add.s32 %r4, %r3, 1;\n add.s32 %r5, %r4, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=10", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	uint32_t pc[8];
	cr_assert_eq(issues(0, cyc, pc, 8), 6);
	/* Each add reads the previous result: int latency 10 -> issues 10 cycles apart. */
	for (int i = 1; i < 5; i++) {
		cr_assert_eq(pc[i], (uint32_t)i);
		cr_assert_eq(cyc[i] - cyc[i - 1], 10, "inst %d at %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	}
	check_classes_sum();
	teardown();
}

/* Issue gaps between the first n + 1 instructions of a one-warp kernel of n + 2 instructions (a
 * dependent chain, then exit) under the overrides ov. */
static void chain_gaps(const char *ptx, const char *const *ov, uint64_t *gap, int n)
{
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	uint32_t pc[8];
	cr_assert_eq(issues(0, cyc, pc, 8), (uint32_t)n + 2);
	for (int i = 0; i < n; i++)
		gap[i] = cyc[i + 1] - cyc[i];
	check_classes_sum();
	teardown();
}

/* Dependent chain mov, xor (logic), add (int), shl (logic): the issue gaps with int 10 and the
 * given latency.logic. */
static void logic_chain_gaps(const char *logic, uint64_t gap[3])
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
		" mov.u32 %r1, 7;\n xor.b32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n shl.b32 %r4, %r3, 1;\n"
		" exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=10", logic, NULL};
	chain_gaps(ptx, ov, gap, 3);
}

Test(sm, latency_logic_times_logic_ops_and_0_leaves_them_at_int)
{
	uint64_t g[3];
	/* mov -> xor and xor -> add wait a logic result (3), add -> shl an int one (10). */
	logic_chain_gaps("gpu.core.latency.logic=3", g);
	cr_assert(g[0] == 3 && g[1] == 3 && g[2] == 10, "gaps %lu %lu %lu", (unsigned long)g[0],
		  (unsigned long)g[1], (unsigned long)g[2]);
	logic_chain_gaps("gpu.core.latency.logic=0", g);
	cr_assert(g[0] == 10 && g[1] == 10 && g[2] == 10, "gaps %lu %lu %lu", (unsigned long)g[0],
		  (unsigned long)g[1], (unsigned long)g[2]);
}

/* gpu.core.latency.alu_pipeline adds operand collection and write-back to every ALU result:
 * int latency 4 + 6 -> the dependent adds issue 10 cycles apart; ctrl (a branch, an exit)
 * does not pay it: exit follows the last add by 1 cycle as without. */
Test(sm, alu_pipeline_cycles_add_to_each_dependent_result)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
		" mov.u32 %r1, 7;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n"
		" add.s32 %r4, %r3, 1;\n add.s32 %r5, %r4, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=4", "gpu.core.latency.alu_pipeline=6", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 6);
	for (int i = 1; i < 5; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 10, "inst %d at %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	cr_assert_eq(cyc[5] - cyc[4], 1);
	teardown();
}

/* gpu.core.latency.mem_pipeline delays a load's result after the memory's reply: the fixed
 * 100-cycle memory of the test below, + 3: ld.param at 1 (reply 101, usable 104), ld.global at
 * 104 (reply 204, usable 207), add at 207. */
Test(sm, mem_pipeline_cycles_follow_each_memory_reply)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n ld.global.u32 %r1, [%rd1];\n add.s32 %r2, %r1, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.mem_pipeline=3", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[0], 1);
	cr_assert_eq(cyc[1], 104);
	cr_assert_eq(cyc[2], 207);
	check_classes_sum();
	teardown();
}

static const char indep_ptx[] = PTX_HEAD
	".visible .entry k()\n{\n .reg .b32 %r<10>;\n"
	" mov.u32 %r1, 1;\n mov.u32 %r2, 2;\n mov.u32 %r3, 3;\n mov.u32 %r4, 4;\n"
	" mov.u32 %r5, 5;\n mov.u32 %r6, 6;\n mov.u32 %r7, 7;\n mov.u32 %r8, 8;\n exit;\n}\n";

Test(sm, simt_width_8_gives_4_cycle_spacing_for_independent_instructions)
{
	/* warp 32 / SIMT width 8 = initiation interval 4 on the one SP unit (OWL Table 1). */
	const char *const ov[] = {"gpu.core.simt_width=8", "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 8; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 4, "inst %d", i);
	check_classes_sum();
	teardown();
}

Test(sm, independent_instructions_issue_at_the_initiation_interval)
{
	/* SIMT width 16: interval 2 (one SP unit); I-buffer refills in time (fetch at issue of
	 * the second entry, decode 1 cycle < 2). */
	const char *const ov[] = {"gpu.core.simt_width=16", "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 8; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 2, "inst %d", i);
	teardown();
}

/* Independent SP (mov) and LD/ST (ld.param) instructions in turn, one warp. */
static const char mixed_units_ptx[] = PTX_HEAD
	".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<10>;\n .reg .b64 %rd<8>;\n"
	" mov.u32 %r1, 1;\n ld.param.u64 %rd1, [p];\n mov.u32 %r2, 2;\n ld.param.u64 %rd2, [p];\n"
	" mov.u32 %r3, 3;\n ld.param.u64 %rd3, [p];\n mov.u32 %r4, 4;\n exit;\n}\n";

Test(sm, a_shared_pipeline_issues_one_warp_instruction_per_interval_whatever_the_unit)
{
	/* SIMT width 8 on SP and LD/ST: interval 4 each. With separate units a ld.param goes to
	 * the LD/ST unit the cycle after a mov took the SP unit, so the gaps alternate 1, 3; as one
	 * pipeline (OWL Sec 2: every 4 cycles one warp enters the 8-wide SIMT pipeline) every gap
	 * is 4, whatever the unit, the exit's included (separate units: the exit takes none). */
	const char *const sep[] = {"gpu.core.simt_width=8", "gpu.core.units.ldst_width=8", "gpu.core.latency.int=1",
				   NULL};
	build(mixed_units_ptx, 32, 1, sep);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 8);
	for (int i = 1; i < 7; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], i % 2 ? 1 : 3, "separate units, inst %d", i);
	teardown();

	const char *const one[] = {"gpu.core.simt_width=8", "gpu.core.units.ldst_width=8", "gpu.core.latency.int=1",
				   "gpu.core.units.shared_pipeline=true", NULL};
	build(mixed_units_ptx, 32, 1, one);
	run();
	cr_assert_eq(issues(0, cyc, NULL, 16), 8);
	for (int i = 1; i < 8; i++) /* the exit too: every warp instruction passes the pipeline */
		cr_assert_eq(cyc[i] - cyc[i - 1], 4, "shared pipeline, inst %d", i);
	check_classes_sum();
	teardown();
}

/* Most warp instructions at pcs [pc0, pc1] issued in any window of win consecutive cycles
 * (all warps). */
static uint32_t max_issues_in_window(uint64_t win, uint32_t pc0, uint32_t pc1)
{
	uint32_t best = 0;
	for (uint32_t i = 0; i < H.n_ev; i++) {
		if (H.ev[i].kind != SCHED_EV_WARP_ISSUE)
			continue;
		uint32_t n = 0;
		for (uint32_t k = i; k < H.n_ev && H.ev[k].cycle < H.ev[i].cycle + win; k++)
			n += H.ev[k].kind == SCHED_EV_WARP_ISSUE && H.ev[k].pc >= pc0 && H.ev[k].pc <= pc1;
		best = n > best ? n : best;
	}
	return best;
}

Test(sm, gtx480_issues_two_independent_sp_warp_instructions_per_cycle)
{
	/* The shipped gtx480 core (configs/gtx480/core.cfg): GPGPU-Sim's GTX480 runs the core at
	 * 700 MHz (half the 1400 MHz shader clock) so that a 16-lane Fermi SP group takes a whole
	 * 32-thread warp each cycle: simt_width 32 -> initiation interval 32/32 = 1 on each of the
	 * 2 SP units (-gpgpu_num_sp_units 2), and each of the 2 schedulers issues one instruction
	 * a cycle. 48 warps (6 CTAs of 256 threads, within 1536 threads / 8 CTAs) each run 40
	 * independent adds: between I-cache misses (a 128 B line = 16 instructions serves 48 x 16
	 * = 768 warp instructions, 384 cycles at the full rate) any 64 cycles issue exactly
	 * min(2 schedulers x 1, 2 units x 32/32) x 64 = 128 warp instructions, and never more.
	 * With simt_width 16 (interval 2) the two units would give only 64. Only the adds count:
	 * exit uses no unit. */
	char ptx[4096];
	int n = snprintf(ptx, sizeof ptx, PTX_HEAD ".visible .entry k()\n{\n .reg .b32 %%r<48>;\n"
			 " mov.u32 %%r1, 1;\n");
	for (int i = 0; i < 40; i++)
		n += snprintf(ptx + n, sizeof ptx - (size_t)n, " add.s32 %%r%d, %%r1, %d;\n", 2 + i, i);
	snprintf(ptx + n, sizeof ptx - (size_t)n, " exit;\n}\n");
	build_machine("gtx480", ptx, 256, 6);
	run();
	uint32_t total = 0;
	for (uint32_t i = 0; i < H.n_ev; i++)
		total += H.ev[i].kind == SCHED_EV_WARP_ISSUE;
	cr_assert_eq(total, 48 * 42, "every warp issues mov, 40 adds and exit");
	uint32_t best = max_issues_in_window(64, 1, 40); /* the adds: exit needs no unit */
	cr_assert_eq(best, 128, "%u warp instructions in the busiest 64 cycles", best);
	check_classes_sum();
	teardown();
}

Test(sm, warp_without_a_valid_ibuffer_entry_cannot_issue)
{
	/* BAWS Sec 2.2: a warp is fetched only when its 2 I-buffer slots are empty. With interval 1
	 * and fetch+decode 2 cycles one lone warp goes: fetch at 0 (ready 2); issue 2, 3; refetch at
	 * 3 (ready 5); cycle 4 has nothing valid; issue 5, 6; ... exit (pc 8) fetched at 12, issued 14.
	 * Classes: issued 9 (0-based cycles 2,3,5,6,8,9,11,12,14), fetch 6 (0,1,4,7,10,13): 15 cycles. */
	const char *const ov[] = {"gpu.core.fetch_decode_cycles=2", "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	static const uint64_t want[9] = {2, 3, 5, 6, 8, 9, 11, 12, 14};
	for (int i = 0; i < 9; i++)
		cr_assert_eq(cyc[i], want[i], "inst %d at %lu, want %lu", i, (unsigned long)cyc[i],
			     (unsigned long)want[i]);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 15);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 9);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 6);
	cr_assert_eq(c.warp_insts, 9);
	cr_assert_eq(c.thread_insts, 9 * 32);
	check_classes_sum();
	teardown();
}

/* ---- barriers and exit ------------------------------------------------------------------ */

Test(sm, barrier_releases_exactly_when_the_last_live_warp_arrives)
{
	/* Warp 1 (threads 32..63) jumps straight to the barrier; warp 0 first runs a dependent
	 * chain. The release is in the cycle warp 0 arrives, and warp 1 issues nothing between its
	 * own arrival and the release. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 32;\n @%p1 bra SYNC;\n"
		" add.s32 %r2, %r1, 1;\n add.s32 %r2, %r2, 1;\n add.s32 %r2, %r2, 1;\n add.s32 %r2, %r2, 1;\n"
		"SYNC:\n bar.sync 0;\n add.s32 %r3, %r1, 5;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=6", NULL};
	build(ptx, 64, 1, ov);
	run();
	const struct rec *a1 = find(SCHED_EV_BARRIER_ARRIVE, 1, 0);
	const struct rec *a0 = find(SCHED_EV_BARRIER_ARRIVE, 0, 0);
	const struct rec *rel = find(SCHED_EV_BARRIER_RELEASE, -1, 0);
	cr_assert(a0 && a1 && rel);
	cr_assert_lt(a1->cycle, a0->cycle);
	cr_assert_eq(rel->cycle, a0->cycle);
	cr_assert_null(find(SCHED_EV_BARRIER_RELEASE, -1, 1));
	uint64_t cyc[16];
	uint32_t n1 = issues(1, cyc, NULL, 16);
	bool after = false;
	for (uint32_t i = 0; i < n1; i++) {
		cr_assert(cyc[i] <= a1->cycle || cyc[i] > a0->cycle, "warp 1 issued at %lu while waiting",
			  (unsigned long)cyc[i]);
		after |= cyc[i] > a0->cycle;
	}
	cr_assert(after);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.barriers_released, 1);
	/* The cycle classes, by hand (one scheduler, int latency 6, LRR): cycle 0 fetches (FETCH).
	 * mov issues at 1 (warp 0) and 2 (warp 1); setp waits 6 for %r1: 7, 8; the branch waits 6
	 * for %p1: 13, 14. Warp 0 falls through: add at 15, 21, 27, 33 (a chain, 6 apart), bar.sync
	 * at 34; warp 1's taken branch refills its I-buffer: bar.sync at 16. After the release at
	 * 34: add 35 (warp 1), 36 (warp 0), exit 37, 38. 39 cycles, 16 issues; the other 22 (3-6,
	 * 9-12, 17-20, 22-26, 28-32) are DATA, waiting on a register: while warp 1 waits at the
	 * barrier warp 0 still has an instruction that is not bar.sync, so no cycle is BARRIER. */
	cr_assert_eq(a1->cycle, 16);
	cr_assert_eq(a0->cycle, 34);
	cr_assert_eq(c.cycles, 39);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 16);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 1);
	cr_assert_eq(c.sched_cycles[SM_CYC_DATA], 22);
	cr_assert_eq(c.sched_cycles[SM_CYC_BARRIER], 0);
	/* RTRU (BAWS Eq 1) over two warp-phases. Phase 1 (CTA start 0 -> barrier): T1 = a1,
	 * T0 = a0 = maxT, wasted a0 - a1, N*maxT = 2*a0. Phase 2 (release -> exit): Ti = exit_i - a0. */
	const struct rec *x0 = find(SCHED_EV_WARP_EXIT, 0, 0), *x1 = find(SCHED_EV_WARP_EXIT, 1, 0);
	cr_assert(x0 && x1);
	uint64_t e0 = x0->cycle - a0->cycle, e1 = x1->cycle - a0->cycle;
	uint64_t emax = e0 > e1 ? e0 : e1, emin = e0 > e1 ? e1 : e0;
	cr_assert_eq(c.rtru_wasted_warp_cycles, (a0->cycle - a1->cycle) + (emax - emin));
	cr_assert_eq(c.rtru_phase_warp_cycles, 2 * a0->cycle + 2 * emax);
	check_classes_sum();
	teardown();
}

Test(sm, an_exited_warp_does_not_block_a_barrier)
{
	/* Warp 1 exits at once; warp 0 reaches bar.sync later and is released in the same cycle:
	 * the exited warp counts as arrived. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 32;\n @%p1 bra DONE;\n"
		" add.s32 %r2, %r1, 1;\n add.s32 %r2, %r2, 1;\n bar.sync 0;\n add.s32 %r3, %r2, 5;\n"
		"DONE:\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=6", NULL};
	build(ptx, 64, 1, ov);
	run();
	const struct rec *x1 = find(SCHED_EV_WARP_EXIT, 1, 0);
	const struct rec *a0 = find(SCHED_EV_BARRIER_ARRIVE, 0, 0);
	const struct rec *rel = find(SCHED_EV_BARRIER_RELEASE, -1, 0);
	cr_assert(x1 && a0 && rel);
	cr_assert_lt(x1->cycle, a0->cycle);
	cr_assert_eq(rel->cycle, a0->cycle);
	cr_assert_null(find(SCHED_EV_BARRIER_ARRIVE, 1, 0));
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.warps_exited, 2);
	cr_assert_eq(c.ctas_finished, 1);
	check_classes_sum();
	teardown();
}

/* ---- policies ---------------------------------------------------------------------------- */

static void issue_order(const char *policy, uint16_t *order, uint32_t n)
{
	char pol[64];
	snprintf(pol, sizeof pol, "gpu.core.scheduler.policy=%s", policy);
	const char *const ov[] = {pol, "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 64, 1, ov);
	run();
	uint32_t k = 0;
	for (uint32_t i = 0; i < H.n_ev && k < n; i++)
		if (H.ev[i].kind == SCHED_EV_WARP_ISSUE)
			order[k++] = H.ev[i].warp;
	cr_assert_eq(k, n);
	check_classes_sum();
	teardown();
}

Test(sm, lrr_alternates_ready_warps)
{
	/* Two warps, interval 1, fetch+decode 1. Cycle 0 fetches w0 (ready 1); cycle 1 issues w0 and
	 * fetches w1 (ready 2); from then on LRR starts after the last issued warp and both always
	 * have a valid entry (each refetches the cycle it empties, ready the next): w0 w1 w0 w1 ... */
	uint16_t o[18];
	issue_order("lrr", o, 18);
	for (int i = 0; i < 18; i++)
		cr_assert_eq(o[i], i % 2, "issue %d went to w%u", i, o[i]);
}

Test(sm, gto_keeps_the_oldest_warp_until_it_stalls)
{
	/* Same machine: w0 never stalls (its I-buffer refills the cycle it empties, ready the next),
	 * so GTO issues all 9 of w0's instructions, then w1's 9. */
	uint16_t o[18];
	issue_order("gto", o, 18);
	for (int i = 0; i < 18; i++)
		cr_assert_eq(o[i], i < 9 ? 0 : 1, "issue %d went to w%u", i, o[i]);
}

/* ---- memory and accounting ---------------------------------------------------------------- */

Test(sm, memory_wait_is_memory_block_and_classes_sum_over_skipped_cycles)
{
	/* fixed-latency memory, 100 cycles for every access (ld.param included).
	 * 0: fetch pc0,1 (ready 1). 1: ld.param issues (done 101). 2..100: ld.global waits on %rd1
	 * (data, not a long-latency register: not MemoryBlock). 101: ld.global issues (done 201),
	 * pc2,3 fetched (ready 102). 102..200: add waits on the global load: MemoryBlock, 99 cycles.
	 * 201: add, 202: exit, CTA and kernel end. 203 cycles: issued 4, fetch 1, data 198. The SM
	 * sleeps through both waits, so these are mostly skipped cycles. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n ld.global.u32 %r1, [%rd1];\n add.s32 %r2, %r1, 1;\n exit;\n}\n";
	build(ptx, 32, 1, NULL);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[0], 1);
	cr_assert_eq(cyc[1], 101);
	cr_assert_eq(cyc[2], 201);
	cr_assert_eq(cyc[3], 202);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 203);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 4);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 1);
	cr_assert_eq(c.sched_cycles[SM_CYC_DATA], 198);
	cr_assert_eq(c.memory_block_cycles, 99);
	cr_assert_eq(c.issue_cycles, 4);
	/* PAWS pipeline occupancy: memory in flight over [1, 201) = 200 cycles (100 + 100
	 * instruction-cycles); the add (int latency 4) keeps the ALU busy at 201 and 202 of the
	 * kernel, no overlap. */
	cr_assert_eq(c.mem_busy_cycles, 200);
	cr_assert_eq(c.mem_inflight_inst_cycles, 200);
	cr_assert_eq(c.alu_busy_cycles, 2);
	cr_assert_eq(c.alu_inflight_inst_cycles, 4);
	cr_assert_eq(c.alu_mem_overlap_cycles, 0);
	cr_assert_lt(sm_component(H.sm)->ticks, 20, "ticked %lu times", (unsigned long)sm_component(H.sm)->ticks);
	check_classes_sum();
	teardown();
}

Test(sm, no_warp_cycles_count_while_the_kernel_runs_elsewhere)
{
	/* 2 cores, 3 one-warp CTAs, max_ctas 1. A CTA of indep_ptx: fetch at its first cycle, its
	 * 9 instructions issue in the 9 cycles after (interval 1, refetch ready the next cycle).
	 * CTAs 0 and 1 run cycles 0..9 on cores 0 and 1; core 0 ticks first, so CTA 2 goes to core
	 * 0 at cycle 9 and runs 10..19. Kernel: 20 cycles. Core 1 has no warp in 10..19: NoWarp 10. */
	const char *const ov[] = {"gpu.core.max_ctas=1", "gpu.core.latency.int=1", NULL};
	build_n(indep_ptx, 32, 3, ov, 2);
	run();
	struct sm_counters c0, c1;
	sm_get_counters(H.sm, &c0);
	sm_get_counters(H.sm1, &c1);
	cr_assert_eq(cta_dispatcher_kernel_end_cycle(H.d), 20);
	cr_assert_eq(c0.ctas_finished, 2);
	cr_assert_eq(c1.ctas_finished, 1);
	cr_assert_eq(c0.cycles, 20);
	cr_assert_eq(c1.cycles, 20);
	cr_assert_eq(c0.no_warp_cycles, 0);
	cr_assert_eq(c1.no_warp_cycles, 10);
	cr_assert_eq(c1.sched_cycles[SM_CYC_NO_WARP], 10);
	uint64_t n;
	const struct cta_dispatcher_record *r = cta_dispatcher_timeline(H.d, &n);
	cr_assert_eq(n, 3);
	cr_assert_eq(r[2].core, 0);
	cr_assert_eq(r[2].start_cycle, 9);
	cr_assert_eq(r[2].end_cycle, 19);
	check_classes_sum();
	teardown();
}

/* ---- control, structural, multiple schedulers, determinism -------------------------------- */

Test(sm, a_taken_branch_costs_control_cycles_until_the_target_is_fetched)
{
	/* Loop of 3 iterations, fetch+decode 2, int latency 1:
	 * c0,1 fetch; c2 mov; c3 add (refetch pc2,3 -> ready 5); c4 fetch; c5 setp; c6 bra taken
	 * (refetch pc1,2 -> ready 8); c7 CONTROL; c8 add; c9 setp (refetch pc3,4 -> 11); c10 fetch;
	 * c11 bra taken (-> 13); c12 CONTROL; c13 add; c14 setp (-> 16); c15 fetch; c16 bra not
	 * taken; c17 exit. 18 cycles: issued 11, control 2, fetch 5. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, 0;\nLOOP:\n add.s32 %r1, %r1, 1;\n setp.lt.u32 %p1, %r1, 3;\n"
		" @%p1 bra LOOP;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.fetch_decode_cycles=2", "gpu.core.latency.int=1", NULL};
	build(ptx, 32, 1, ov);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 18);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 11);
	cr_assert_eq(c.sched_cycles[SM_CYC_CONTROL], 2);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 5);
	check_classes_sum();
	teardown();
}

Test(sm, fetch_fallthrough_fetches_the_wrong_path_behind_a_taken_branch_first)
{
	/* The loop above with gpu.core.fetch_fallthrough (GPGPU-Sim 4.2). The first taken bra is
	 * the last I-buffer entry, so the next fetch reads the fall-through exit, dropped when it
	 * is due; the second has exit behind it in the I-buffer, flushed at issue as before.
	 * c0,1 fetch (miss, 0 cycles); c2 mov; c3 add (fetch pc2,3 -> ready 5); c4 fetch; c5 setp;
	 * c6 bra taken (fetch pc4 -> 8); c7 CONTROL; c8 pc4 dropped, CONTROL (fetch pc1,2 -> 10);
	 * c9 CONTROL; c10 add; c11 setp (fetch pc3,4 -> 13); c12 fetch; c13 bra taken, pc4 flushed
	 * (fetch pc1,2 -> 15); c14 CONTROL; c15 add; c16 setp (fetch pc3,4 -> 18); c17 fetch;
	 * c18 bra not taken; c19 exit. 20 cycles (18 without): issued 11, control 4, fetch 5;
	 * 2 flushes; 7 fetches, the first a miss. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, 0;\nLOOP:\n add.s32 %r1, %r1, 1;\n setp.lt.u32 %p1, %r1, 3;\n"
		" @%p1 bra LOOP;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.fetch_decode_cycles=2", "gpu.core.latency.int=1",
				  "gpu.core.fetch_fallthrough=true", NULL};
	build(ptx, 32, 1, ov);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 20);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 11);
	cr_assert_eq(c.sched_cycles[SM_CYC_CONTROL], 4);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 5);
	cr_assert_eq(c.ibuf_flushes, 2);
	cr_assert_eq(c.icache_hits, 6);
	cr_assert_eq(c.icache_misses, 1);
	uint64_t cyc[16];
	uint32_t pc[16];
	cr_assert_eq(issues(0, cyc, pc, 16), 11);
	cr_assert_eq(pc[4], 1);
	cr_assert_eq(cyc[4], 10); /* the loop's second add: c8 without the fall-through fetch */
	check_classes_sum();
	teardown();
}

static const char wb_ptx[] = PTX_HEAD
	".visible .entry k()\n{\n .reg .b32 %r<4>;\n"
	" mov.u32 %r1, %tid.x;\n mul.lo.s32 %r2, %r1, 3;\n add.s32 %r3, %r1, 7;\n exit;\n}\n";

/* Cycle of the add (pc 2) in wb_ptx, and the SM's write-back-slot refusals; *mul gets the
 * mul's. owl_pipe: OWL's 8-wide pipeline shared by every unit (one warp instruction per 4
 * cycles) and mul 7; else one SP unit of interval 1 and mul 5. int 4 on both. */
static uint64_t wb_add_cycle(bool owl_pipe, const char *wb, uint64_t *conflicts, uint64_t *mul)
{
	const char *const one_unit[] = {"gpu.core.latency.int=4", "gpu.core.latency.mul=5", wb, NULL};
	const char *const owl[] = {"gpu.core.simt_width=8", "gpu.core.units.ldst_width=8",
				   "gpu.core.units.sfu_width=8", "gpu.core.units.sp=1",
				   "gpu.core.units.shared_pipeline=true", "gpu.core.latency.int=4",
				   "gpu.core.latency.mul=7", wb, NULL};
	build(wb_ptx, 32, 1, owl_pipe ? owl : one_unit);
	run();
	uint64_t cyc[8];
	uint32_t pc[8];
	cr_assert_eq(issues(0, cyc, pc, 8), 4);
	cr_assert_eq(pc[2], 2);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	*conflicts = c.wb_conflicts;
	*mul = cyc[1];
	check_classes_sum();
	teardown();
	return cyc[2];
}

Test(sm, writeback_slots_delay_an_instruction_whose_result_would_collide)
{
	/* One SP unit (interval 1), fetch+decode 1, int 4, mul 5. c0 fetch pc0,1; c1 mov (r1 at
	 * c5); c5 mul (result slot c10), fetch pc2,3 -> ready c6; c6 add would deliver at
	 * c6 + 4 = c10 too: refused; c7 add (slot c11). Without the slots the add goes at c6. */
	uint64_t n_on, n_off, mul;
	cr_assert_eq(wb_add_cycle(false, "gpu.core.units.writeback_slots=true", &n_on, &mul), 7);
	cr_assert_eq(mul, 5);
	cr_assert_eq(n_on, 1);
	cr_assert_eq(wb_add_cycle(false, "gpu.core.units.writeback_slots=false", &n_off, &mul), 6);
	cr_assert_eq(n_off, 0);
}

Test(sm, a_busy_unit_is_a_structural_stall)
{
	/* Two warps, one SP unit with interval 4 (SIMT 8), fetch+decode 1. 16 movs take SP slots
	 * c1, c5, ..., c61; both warps always hold a valid mov, so the 3 cycles between slots are
	 * structural except one, where the first warp to finish issues its exit (no unit); the other
	 * exits at c62. 63 cycles: issued 18, fetch 1 (c0), structural 15*3 - 1 = 44. */
	const char *const ov[] = {"gpu.core.simt_width=8", "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 64, 1, ov);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 63);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 18);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 1);
	cr_assert_eq(c.sched_cycles[SM_CYC_STRUCTURAL], 44);
	check_classes_sum();
	teardown();
}

Test(sm, two_schedulers_issue_in_the_same_cycle)
{
	/* Fermi-style: warp 0 on scheduler 0, warp 1 on scheduler 1, two SP units. w0 is fetched
	 * at c0 and issues at c1; w1 is fetched at c1, so at c2 both issue. */
	const char *const ov[] = {"gpu.core.n_schedulers=2", "gpu.core.units.sp=2", "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 64, 1, ov);
	run();
	uint64_t c0[16], c1[16];
	cr_assert_eq(issues(0, c0, NULL, 16), 9);
	cr_assert_eq(issues(1, c1, NULL, 16), 9);
	cr_assert_eq(c0[0], 1);
	cr_assert_eq(c0[1], 2);
	cr_assert_eq(c1[0], 2);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_lt(c.issue_cycles, c.warp_insts);
	check_classes_sum();
	teardown();
}

/* Issue cycles of warps 0 (scheduler 0) and 1 (scheduler 1) of indep_ptx with one SP unit
 * (both schedulers want it every cycle) under gpu.core.scheduler_order = order. */
static void one_unit_two_schedulers(const char *order, uint64_t c0[16], uint64_t c1[16])
{
	const char *const ov[] = {"gpu.core.n_schedulers=2", "gpu.core.units.sp=1", "gpu.core.latency.int=1",
				  order, NULL};
	build(indep_ptx, 64, 1, ov);
	run();
	cr_assert_eq(issues(0, c0, NULL, 16), 9);
	cr_assert_eq(issues(1, c1, NULL, 16), 9);
	check_classes_sum();
	teardown();
}

/* One SP unit, interval 1, fetch+decode 1: warp 0 is ready from c1, warp 1 from c2; each has 8
 * movs and an exit (no unit). Fixed order: scheduler 0 takes the unit every cycle, so warp 0's
 * movs go at c1..c8 (exit c9) and warp 1 waits until c9 (movs c9..c16, exit c17). Rotating
 * (scheduler cycle % 2 first): c1 warp 0 (warp 1 not ready), then even cycles warp 0 and odd
 * ones warp 1: warp 0 at c2, 4, ..., 14 and its exit at c15 beside warp 1's mov; warp 1 at c3,
 * 5, ..., 15, c16 alone, exit c17. */
Test(sm, scheduler_order_decides_who_takes_a_unit_both_want)
{
	uint64_t c0[16], c1[16];
	one_unit_two_schedulers("gpu.core.scheduler_order=fixed", c0, c1);
	for (int i = 0; i < 9; i++) {
		cr_assert_eq(c0[i], (uint64_t)(1 + i), "fixed, warp 0 inst %d", i);
		cr_assert_eq(c1[i], (uint64_t)(9 + i), "fixed, warp 1 inst %d", i);
	}
	one_unit_two_schedulers("gpu.core.scheduler_order=rotating", c0, c1);
	const uint64_t w0[9] = {1, 2, 4, 6, 8, 10, 12, 14, 15}, w1[9] = {3, 5, 7, 9, 11, 13, 15, 16, 17};
	for (int i = 0; i < 9; i++) {
		cr_assert_eq(c0[i], w0[i], "rotating, warp 0 inst %d at %lu", i, (unsigned long)c0[i]);
		cr_assert_eq(c1[i], w1[i], "rotating, warp 1 inst %d at %lu", i, (unsigned long)c1[i]);
	}
}

static char *run_to_json(void)
{
	const char *const ov[] = {"gpu.core.max_ctas=2", "gpu.core.latency.int=3", NULL};
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<6>;\n"
		" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
		" add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n add.s32 %r3, %r2, %r1;\n"
		" bar.sync 0;\n st.global.u32 [%rd3], %r3;\n exit;\n}\n";
	build(ptx, 128, 5, ov);
	run();
	char *js = stats_to_json_string(H.st);
	teardown();
	return js;
}

Test(sm, same_configuration_gives_identical_stats)
{
	char *a = run_to_json();
	char *b = run_to_json();
	cr_assert_not_null(a);
	cr_assert_str_eq(a, b);
	cr_assert(strstr(a, "\"sm.0.ctas_finished\"") != NULL);
	free(a);
	free(b);
}

/* OWL's 8-wide pipeline with write-back slots: a slot is the pipeline's 4 cycles (GPGPU-Sim's
 * owl28 runs the core at a quarter of the clock, so its `occupied` check compares 325 MHz
 * cycles). int 4, mul 7, fetch+decode 1: c1 mov (r1 at c5); c5 mul (result c12, slot 3); the
 * add, free to go at c9, would deliver at c13: slot 3 too, refused at c9, c10, c11 (c14, c15
 * still slot 3); c12 add (c16, slot 4). Exact cycles (12 against 13) would not collide. Without
 * the slots: c9. */
Test(sm, writeback_slots_of_a_shared_pipeline_last_its_interval)
{
	uint64_t n_on, n_off, mul;
	cr_assert_eq(wb_add_cycle(true, "gpu.core.units.writeback_slots=true", &n_on, &mul), 12);
	cr_assert_eq(mul, 5);
	cr_assert_eq(n_on, 3);
	cr_assert_eq(wb_add_cycle(true, "gpu.core.units.writeback_slots=false", &n_off, &mul), 9);
	cr_assert_eq(n_off, 0);
}

/* gpu.core.latency.ops.*: GPGPU-Sim's per-group latencies over the classes. Chain mov, min,
 * add, mul, add (each reads the one before) with int 4, mul 5 and ops.int 6,13,3,5,145: mov ->
 * min 4 (mov is in no group: its class, int), min -> add 13, add -> mul 6, mul -> add 3. All
 * zero: the classes, 4, 4, 4, 5. */
static void ops_chain_gaps(const char *ops, uint64_t gap[4])
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
		" mov.u32 %r1, 7;\n min.s32 %r2, %r1, 9;\n add.s32 %r3, %r2, 1;\n mul.lo.s32 %r4, %r3, 3;\n"
		" add.s32 %r5, %r4, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=4", "gpu.core.latency.mul=5", ops, NULL};
	chain_gaps(ptx, ov, gap, 4);
}

Test(sm, latency_ops_time_each_opcode_group_over_its_class)
{
	uint64_t g[4];
	ops_chain_gaps("gpu.core.latency.ops.int=6,13,3,5,145", g);
	cr_assert(g[0] == 4 && g[1] == 13 && g[2] == 6 && g[3] == 3, "gaps %lu %lu %lu %lu",
		  (unsigned long)g[0], (unsigned long)g[1], (unsigned long)g[2], (unsigned long)g[3]);
	ops_chain_gaps("gpu.core.latency.ops.int=0,0,0,0,0", g);
	cr_assert(g[0] == 4 && g[1] == 4 && g[2] == 4 && g[3] == 5, "gaps %lu %lu %lu %lu",
		  (unsigned long)g[0], (unsigned long)g[1], (unsigned long)g[2], (unsigned long)g[3]);
}

/* gpu.core.initiation.*: with one SP unit of simt_width 32 (a slot a cycle), integer mul takes 2
 * slots and mad 1 (GTX480's 1,2,2,1,8). Four independent mul.lo.s32 then four mad.lo.s32 (latency
 * int 1, fetch+decode 1, I-buffer 2): the muls issue at c1, c3, c5, c7, the first mad at c9 (the
 * unit busy until then), the next mads one a cycle. Without the setting: c1..c8 back to back
 * (apart from fetch). */
Test(sm, initiation_intervals_hold_the_sp_unit_per_opcode_group)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<20>;\n"
		" mul.lo.s32 %r1, %r10, 3;\n mul.lo.s32 %r2, %r11, 3;\n mul.lo.s32 %r3, %r12, 3;\n"
		" mul.lo.s32 %r4, %r13, 3;\n mad.lo.s32 %r5, %r10, 3, %r11;\n mad.lo.s32 %r6, %r11, 3, %r12;\n"
		" mad.lo.s32 %r7, %r12, 3, %r13;\n mad.lo.s32 %r8, %r13, 3, %r10;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.latency.int=1", "gpu.core.latency.mul=1",
				  "gpu.core.initiation.int=1,2,2,1,8", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	cr_assert_eq(cyc[0], 1);
	for (int i = 1; i < 4; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 2, "mul %d", i);
	cr_assert_eq(cyc[4], cyc[3] + 2, "the first mad waits for the last mul's second slot");
	for (int i = 5; i < 8; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 1, "mad %d", i);
	teardown();
}

/* wmma.mma (gpu.core.latency.tensor, gpu.core.initiation.tensor): on one SP unit of 32 lanes
 * (a slot a cycle) with tensor latency 20 and 5 slots, a product at c1 holds the unit for 5
 * cycles (an independent add goes at c6) and its result is ready 20 cycles on: the product that
 * reads it as C issues at c21. The defaults (64, 64): the add at c65, the second product at
 * c66 (its C ready at c65, when the add takes the unit's slot). */
static void tensor_issue(const char *lat, const char *ii, uint64_t cyc[3])
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<24>;\n .reg .f32 %f<24>;\n"
		" wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15}, "
		"{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
		"{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};\n"
		" add.s32 %r20, %r21, 1;\n"
		" wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f16, %f17, %f18, %f19, %f20, %f21, %f22, %f23}, "
		"{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
		"{%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.units.sp=1", "gpu.core.simt_width=32", "gpu.core.latency.int=1",
				  lat, ii, NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t c[8];
	cr_assert_eq(issues(0, c, NULL, 8), 4);
	memcpy(cyc, c, 3 * sizeof *cyc);
	check_classes_sum();
	teardown();
}

Test(sm, wmma_mma_takes_its_initiation_slots_and_latency)
{
	uint64_t c[3];
	tensor_issue("gpu.core.latency.tensor=20", "gpu.core.initiation.tensor=5", c);
	cr_assert(c[0] == 1 && c[1] == 6 && c[2] == 21, "issued at %lu %lu %lu", (unsigned long)c[0],
		  (unsigned long)c[1], (unsigned long)c[2]);
	tensor_issue("gpu.core.latency.tensor=64", "gpu.core.initiation.tensor=64", c);
	cr_assert(c[0] == 1 && c[1] == 65 && c[2] == 66, "issued at %lu %lu %lu", (unsigned long)c[0],
		  (unsigned long)c[1], (unsigned long)c[2]);
}

/* ---- I-cache and memory refusals ---------------------------------------------------------- */

Test(sm, icache_misses_delay_fetch_by_the_miss_latency)
{
	/* 32-byte lines hold 4 instructions (8 B each), miss latency 10, fetch+decode 1:
	 * c0 miss on line 0 (pc0,1 ready 11); c11,12 issue, refetch pc2,3 (hit) ready 13; c13,14,
	 * pc4 misses line 1 (ready 25); c25,26, pc6,7 hit (27); c27,28, pc8 misses line 2 (39);
	 * c39 exit. 40 cycles: 9 issued, 31 fetch; 3 misses, 2 hits. */
	const char *const ov[] = {"gpu.core.icache.line_bytes=32", "gpu.core.icache.miss_latency_cycles=10",
				  "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 40);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 9);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 31);
	cr_assert_eq(c.icache_misses, 3);
	cr_assert_eq(c.icache_hits, 2);
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	cr_assert_eq(cyc[0], 11);
	cr_assert_eq(cyc[4], 25);
	cr_assert_eq(cyc[8], 39);
	check_classes_sum();
	teardown();
}

Test(sm, icache_keeps_a_kernels_lines_for_its_next_launch)
{
	/* The kernel of icache_misses_delay_fetch_by_the_miss_latency (3 lines of 32 B) launched
	 * twice: the second launch finds its lines (GPGPU-Sim's L1I and real SMs keep them), so
	 * its 5 fetches all hit. Before, the cache was emptied at every kernel start (6 misses). */
	const char *const ov[] = {"gpu.core.icache.line_bytes=32", "gpu.core.icache.miss_latency_cycles=10",
				  "gpu.core.latency.int=1", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	struct sim_error err = {0};
	uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
	uint64_t buf = 0;
	uint32_t np = 0;
	cr_assert_eq(fe_kernel_params(H.mod, "k", &np, &err), 0, "%s", err.msg);
	struct fe_launch *l2 = fe_launch_create(H.mod, H.mem, "k", grid, block, 0, &buf, np ? sizeof buf : 0, 16, &err);
	cr_assert_not_null(l2, "%s", err.msg);
	uint64_t now = sim_clock_cycle_at_or_after(&H.clk, sim_now_ps(H.sim));
	cr_assert_eq(cta_dispatcher_launch_kernel(H.d, l2, now, &err), 0, "%s", err.msg);
	cr_assert_eq(sim_run(H.sim, SIM_NEVER, stderr, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert(cta_dispatcher_kernel_done(H.d));
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.icache_misses, 3);
	cr_assert_eq(c.icache_hits, 2 + 5);
	fe_launch_destroy(l2);
	teardown();
}

/* A memory double: refuses the first `refuse` offers, then completes each accepted
 * instruction `lat` cycles after issue through an engine event. */
static struct {
	struct sim_event ev;
	uint64_t token;
	int refuse, offers;
	uint32_t lat;
	bool busy;
	uint32_t stage_cycles; /* md_issue_staged: cycles the stage stays held after an accept */
	uint64_t stage_from, stage_until; /* ... from, until (excluded) */
} M;

static void md_fire(struct sim *sim, struct sim_event *ev)
{
	(void)ev;
	M.busy = false;
	sm_mem_done(H.sm, M.token, sim_now_ps(sim));
}
static bool md_issue(void *ctx, const struct warp_inst *wi, uint64_t token, uint64_t now)
{
	(void)ctx, (void)wi;
	M.offers++;
	if (M.refuse > 0 || M.busy) {
		M.refuse--;
		return false;
	}
	M.busy = true;
	M.token = token;
	sim_event_schedule(H.sim, &M.ev, sim_clock_edge_ps(&H.clk, now + M.lat));
	return true;
}
static uint64_t md_out(const void *ctx)
{
	(void)ctx;
	return M.busy;
}

Test(sm, a_memory_refusal_is_a_structural_stall_and_the_instruction_is_retried_not_reexecuted)
{
	/* c0 fetch; c1-c3 ld.param refused (structural); c4 accepted, done at 9; c5-c8 the add
	 * waits on it (data); c9 add, refetch (ready 10); c10 exit. 11 cycles: issued 3,
	 * structural 3, data 4, fetch 1. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u32 p)\n{\n .reg .b32 %r<4>;\n"
		" ld.param.u32 %r1, [p];\n add.s32 %r2, %r1, 1;\n exit;\n}\n";
	memset(&M, 0, sizeof M);
	M.refuse = 3;
	M.lat = 5;
	sim_event_init(&M.ev, SIM_PRIO_DELIVERY, md_fire);
	struct sm_hooks hk = {.issue_ops = &wrap_issue_ops, .fetch_ops = &wrap_fetch_ops,
			      .mem_try_issue = md_issue, .mem_outstanding = md_out};
	build_h(ptx, 32, 1, NULL, 1, &hk);
	run();
	cr_assert_eq(M.offers, 4);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.mem_refusals, 3);
	cr_assert_eq(c.cycles, 11);
	cr_assert_eq(c.sched_cycles[SM_CYC_ISSUED], 3);
	cr_assert_eq(c.sched_cycles[SM_CYC_STRUCTURAL], 3);
	cr_assert_eq(c.sched_cycles[SM_CYC_DATA], 4);
	cr_assert_eq(c.sched_cycles[SM_CYC_FETCH], 1);
	uint64_t cyc[4];
	cr_assert_eq(issues(0, cyc, NULL, 4), 3);
	cr_assert_eq(cyc[0], 4);
	cr_assert_eq(cyc[1], 9);
	check_classes_sum();
	teardown();
}

/* gpu.core.inorder_backend: the memory double accepts the load and then holds its stage for
 * M.stage_cycles more cycles; an in-order back end issues nothing during them. */
static bool md_issue_staged(void *ctx, const struct warp_inst *wi, uint64_t token, uint64_t now)
{
	if (!md_issue(ctx, wi, token, now))
		return false;
	M.stage_from = now + 1;
	M.stage_until = now + 1 + M.stage_cycles;
	return true;
}
static bool md_stage_busy(const void *ctx, uint64_t now)
{
	(void)ctx;
	return now >= M.stage_from && now < M.stage_until;
}

static void inorder_run(bool inorder, uint64_t cyc[8], struct sm_counters *c)
{
	/* the load, three movs independent of it, the add that reads it, exit */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u32 p)\n{\n .reg .b32 %r<8>;\n"
		" ld.param.u32 %r1, [p];\n mov.u32 %r2, 2;\n mov.u32 %r3, 3;\n mov.u32 %r4, 4;\n"
		" add.s32 %r5, %r1, 1;\n exit;\n}\n";
	const char *const ov[] = {inorder ? "gpu.core.inorder_backend=true" : "gpu.core.inorder_backend=false", NULL};
	memset(&M, 0, sizeof M);
	M.lat = 12;
	M.stage_cycles = 3;
	sim_event_init(&M.ev, SIM_PRIO_DELIVERY, md_fire);
	struct sm_hooks hk = {.issue_ops = &wrap_issue_ops, .fetch_ops = &wrap_fetch_ops,
			      .mem_try_issue = md_issue_staged, .mem_outstanding = md_out,
			      .mem_stage_busy = md_stage_busy};
	build_h(ptx, 32, 1, ov, 1, &hk);
	run();
	cr_assert_eq(issues(0, cyc, NULL, 8), 6);
	sm_get_counters(H.sm, c);
	check_classes_sum();
	teardown();
}

Test(sm, an_inorder_backend_issues_nothing_while_the_memory_stage_is_held)
{
	/* Separate units: ld c1 (stage held c2-c4), movs c2, c3, c4 beside the passes, the add
	 * when the load is back (c1 + 12 = c13), exit c14. In order: the movs wait for the stage,
	 * c5, c6, c7, three more structural cycles; the add still at c13. */
	uint64_t cyc[8];
	struct sm_counters c0, c1;
	inorder_run(false, cyc, &c0);
	static const uint64_t want0[6] = {1, 2, 3, 4, 13, 14};
	for (int i = 0; i < 6; i++)
		cr_expect_eq(cyc[i], want0[i], "separate units, inst %d at %llu", i, (unsigned long long)cyc[i]);
	inorder_run(true, cyc, &c1);
	static const uint64_t want1[6] = {1, 5, 6, 7, 13, 14};
	for (int i = 0; i < 6; i++)
		cr_expect_eq(cyc[i], want1[i], "in order, inst %d at %llu", i, (unsigned long long)cyc[i]);
	cr_expect_eq(c1.cycles, c0.cycles);
	cr_expect_eq(c1.sched_cycles[SM_CYC_STRUCTURAL], c0.sched_cycles[SM_CYC_STRUCTURAL] + 3);
	cr_expect_eq(c1.sched_cycles[SM_CYC_DATA], c0.sched_cycles[SM_CYC_DATA] - 3);
}

/* An I-cache double (icache.miss_path memory): records each line read, refuses the first
 * `refuse` of them, and delivers each accepted line `lat` cycles later. */
#define IF_MAX 8
static struct {
	struct sim_event ev[IF_MAX];
	uint64_t addr[IF_MAX], cycle[IF_MAX];
	uint32_t bytes[IF_MAX];
	int n, refuse, offers;
	uint32_t lat;
} IF;

static void if_fire(struct sim *sim, struct sim_event *ev)
{
	int i = (int)(ev - IF.ev);
	sm_ifetch_done(H.sm, IF.addr[i], sim_now_ps(sim));
}
static bool if_fetch(void *ctx, uint64_t line_addr, uint32_t bytes, uint64_t now)
{
	(void)ctx;
	IF.offers++;
	if (IF.refuse > 0) {
		IF.refuse--;
		return false;
	}
	cr_assert_lt(IF.n, IF_MAX);
	int i = IF.n++;
	IF.addr[i] = line_addr;
	IF.bytes[i] = bytes;
	IF.cycle[i] = now;
	sim_event_init(&IF.ev[i], SIM_PRIO_DELIVERY, if_fire);
	sim_event_schedule(H.sim, &IF.ev[i], sim_clock_edge_ps(&H.clk, now + IF.lat));
	return true;
}

static void build_ifetch(const char *ptx, uint32_t threads, int refuse)
{
	memset(&M, 0, sizeof M);
	memset(&IF, 0, sizeof IF);
	IF.lat = 10;
	IF.refuse = refuse;
	sim_event_init(&M.ev, SIM_PRIO_DELIVERY, md_fire);
	struct sm_hooks hk = {.issue_ops = &wrap_issue_ops, .fetch_ops = &wrap_fetch_ops,
			      .mem_try_issue = md_issue, .mem_outstanding = md_out, .mem_ifetch = if_fetch};
	const char *const ov[] = {"gpu.core.icache.line_bytes=32", "gpu.core.icache.miss_latency_cycles=0",
				  "gpu.core.icache.miss_path=memory", "gpu.core.latency.int=1", NULL};
	build_h(ptx, threads, 1, ov, 1, &hk);
}

Test(sm, icache_miss_through_memory_waits_for_the_line)
{
	/* The timeline of icache_misses_delay_fetch_by_the_miss_latency, with each line read
	 * from memory and delivered 10 cycles after its request instead of a 10-cycle latency:
	 * lines 0, 1, 2 (32 B, 4 instructions each) requested at c0, c14, c28 and delivered at
	 * c10, c24, c38; issues at c11, c25, c39; 40 cycles. The module's only kernel starts at
	 * instruction 0, so line k is at SM_CODE_BASE_ADDR + 32 k. */
	build_ifetch(indep_ptx, 32, 0);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 40);
	cr_assert_eq(c.icache_misses, 3);
	cr_assert_eq(c.icache_hits, 2);
	cr_assert_eq(IF.n, 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(IF.addr[i], SM_CODE_BASE_ADDR + 32u * (uint64_t)i, "line %d", i);
		cr_assert_eq(IF.bytes[i], 32);
	}
	cr_assert_eq(IF.cycle[0], 0);
	cr_assert_eq(IF.cycle[1], 14);
	cr_assert_eq(IF.cycle[2], 28);
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	cr_assert_eq(cyc[0], 11);
	cr_assert_eq(cyc[4], 25);
	cr_assert_eq(cyc[8], 39);
	check_classes_sum();
	teardown();
}

Test(sm, icache_fetch_of_a_line_in_flight_waits_for_that_read_and_a_refused_read_is_retried)
{
	/* Two warps. c0: warp 0 misses line 0, its read refused (the miss queue full), nothing
	 * fetched; c1: warp 0 again, read sent (delivery at c11); c2: warp 1 hits the line in
	 * flight, no second read. Both are decoded at c12: warp 0 issues pc0 at c12, warp 1 at
	 * c13 (one scheduler). */
	build_ifetch(indep_ptx, 64, 1);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.icache_refusals, 1);
	cr_assert_eq(IF.offers, 1 + 3);
	cr_assert_eq(IF.n, 3);
	cr_assert_eq(IF.cycle[0], 1);
	uint64_t cyc0[16], cyc1[16];
	cr_assert_eq(issues(0, cyc0, NULL, 16), 9);
	cr_assert_eq(issues(1, cyc1, NULL, 16), 9);
	cr_assert_eq(cyc0[0], 12);
	cr_assert_eq(cyc1[0], 13);
	check_classes_sum();
	teardown();
}

/* Two memory instructions in flight at most: the other warps' loads are refused (slots full)
 * until a completion, cycle after cycle. quiet: whether the SM may repeat such cycles by
 * counting and refuse warps from their notes (the memory unit's refusal hooks); the stats must
 * not depend on it. *repeats: cycles repeated, *noted: refusals decided by notes. */
static char *refusal_run_to_json(bool quiet, uint64_t *repeats, uint64_t *noted)
{
	const char *const ov[] = {"gpu.core.max_ctas=2", "gpu.memory.max_inflight_insts=2",
				  "gpu.core.scheduler.policy=lrr", NULL};
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<6>;\n"
		" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
		" add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n add.s32 %r3, %r2, %r1;\n"
		" bar.sync 0;\n st.global.u32 [%rd3], %r3;\n exit;\n}\n";
	struct sm_hooks hk = sm_real_hooks;
	if (!quiet) {
		hk.mem_epoch = NULL;
		hk.mem_refuse_now = NULL; /* every retry through mem_try_issue and its bookkeeping */
		hk.mem_refuse_again = NULL;
	}
	build_h(ptx, 128, 5, ov, 1, &hk);
	run();
	*repeats = H.sm->quiet_repeats;
	*noted = H.sm->rf_repeats;
	char *js = stats_to_json_string(H.st);
	teardown();
	return js;
}

Test(sm, repeating_refused_cycles_by_counting_changes_no_stat)
{
	uint64_t with = 0, without = 0, noted = 0, noted_without = 0;
	char *a = refusal_run_to_json(true, &with, &noted);
	char *b = refusal_run_to_json(false, &without, &noted_without);
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_eq(without, 0);
	cr_assert_eq(noted_without, 0);
	cr_assert_gt(with, 100, "only %llu cycles repeated", (unsigned long long)with);
	/* cycles that are not repeated whole still refuse warps from their notes */
	cr_assert_gt(noted, 10, "only %llu refusals from notes", (unsigned long long)noted);
	cr_assert_str_eq(a, b);
	cr_assert(strstr(a, "\"sm.0.mem_refusals\"") != NULL);
	free(a);
	free(b);
}

/* One 256-thread-CTA kernel of ctas CTAs under ov, to stats JSON (the caller frees it); without
 * shortcuts the policies are wrapped (pure as far as the SM can tell: no SCHED_RANK_* flag) and
 * the memory refusal shortcut is off, so every cycle is ticked in full. *pipe_sleeps (if not
 * NULL) gets the SM's pipeline sleeps. */
static char *hooked_run_to_json(const char *ptx, uint32_t ctas, const char *const *ov, bool shortcuts,
				uint64_t *pipe_sleeps)
{
	struct sm_hooks hk = sm_real_hooks;
	if (!shortcuts) {
		hk.issue_ops = &wrap_issue_ops; /* declares no SCHED_RANK_* flag */
		hk.fetch_ops = &wrap_fetch_ops;
		hk.mem_refuse_now = NULL;
		hk.mem_refuse_again = NULL;
	}
	build_h(ptx, 256, ctas, ov, 1, &hk);
	run();
	if (pipe_sleeps)
		*pipe_sleeps = H.sm->pipe_sleeps;
	char *js = stats_to_json_string(H.st);
	teardown();
	return js;
}

/* The shortcuts the SM takes for a pure policy (policy.h SCHED_RANK_*: no rank call without a
 * ready warp, ranking only the ready warps, READY kept while a unit is busy, quiet cycles)
 * against the same policy behind a wrapper that declares none of it, so every cycle is done
 * in full: the stats must be the same. Two schedulers sharing SIMT-16 units (unit
 * conflicts), two memory instructions in flight (refusals), divergence and barriers. */
static char *policy_run_to_json(const char *policy, bool shortcuts)
{
	char pol[64];
	snprintf(pol, sizeof pol, "gpu.core.scheduler.policy=%s", policy);
	const char *const ov[] = {"gpu.core.max_ctas=2", "gpu.memory.max_inflight_insts=2", "gpu.core.n_schedulers=2",
				  "gpu.core.simt_width=16", "gpu.core.units.sp=1", pol, NULL};
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
		" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
		" add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n add.s32 %r3, %r2, %r1;\n"
		" and.b32 %r4, %r1, 3;\n setp.eq.u32 %p1, %r4, 0;\n @%p1 bra SKIP;\n"
		" mul.lo.u32 %r3, %r3, 3;\n add.s32 %r3, %r3, 7;\n xor.b32 %r3, %r3, %r1;\nSKIP:\n"
		" add.s32 %r5, %r3, 1;\n add.s32 %r6, %r1, 2;\n add.s32 %r7, %r5, %r6;\n"
		" bar.sync 0;\n st.global.u32 [%rd3], %r7;\n exit;\n}\n";
	return hooked_run_to_json(ptx, 4, ov, shortcuts, NULL);
}

Test(sm, pure_policy_shortcuts_change_no_stat)
{
	static const char *const policies[] = {"lrr", "gto", "oldest", "owl-blp", "owl-locality", "mwf-lrr", "paws"};
	sm_wrap_mask_errors = 0;
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
		char *a = policy_run_to_json(policies[i], true);
		char *b = policy_run_to_json(policies[i], false);
		cr_assert_not_null(a);
		cr_assert_not_null(b);
		cr_assert_str_eq(a, b, "%s: stats differ with the shortcuts", policies[i]);
		free(a);
		free(b);
	}
	cr_assert_eq(sm_wrap_mask_errors, 0, "core.blocked_mask out of step with the views");
}

/* gpu.core.inorder_backend under the pure-policy shortcuts: shared stores with 4-way bank
 * conflicts (lane l at byte 16 l: 8 banks, 4 lanes each) hold the shared banks 4 cycles, and
 * an in-order back end issues nothing meanwhile; the shortcuts must still change no stat, and
 * the back end must change some (more structural cycles than with separate units). */
static char *inorder_run_to_json(const char *policy, bool inorder, bool shortcuts)
{
	char pol[64];
	snprintf(pol, sizeof pol, "gpu.core.scheduler.policy=%s", policy);
	const char *const ov[] = {"gpu.core.max_ctas=2", "gpu.core.n_schedulers=2", pol,
				  inorder ? "gpu.core.inorder_backend=true" : "gpu.core.inorder_backend=false", NULL};
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<12>;\n .reg .b64 %rd<6>;\n"
		" .shared .align 4 .b8 s[1024];\n"
		" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 4;\n and.b32 %r2, %r2, 1020;\n"
		" mov.u32 %r3, s;\n add.u32 %r4, %r3, %r2;\n st.shared.u32 [%r4], %r1;\n"
		" add.s32 %r5, %r1, 1;\n add.s32 %r6, %r1, 2;\n st.shared.u32 [%r4], %r5;\n"
		" add.s32 %r7, %r5, %r6;\n mul.wide.u32 %rd2, %r1, 4;\n and.b64 %rd2, %rd2, 4092;\n"
		" add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r8, [%rd3];\n add.s32 %r9, %r8, %r7;\n"
		" st.shared.u32 [%r4], %r9;\n add.s32 %r10, %r9, 3;\n exit;\n}\n";
	return hooked_run_to_json(ptx, 4, ov, shortcuts, NULL);
}

Test(sm, an_inorder_backend_keeps_the_shortcuts_exact)
{
	static const char *const policies[] = {"lrr", "gto"};
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
		char *a = inorder_run_to_json(policies[i], true, true);
		char *b = inorder_run_to_json(policies[i], true, false);
		char *c = inorder_run_to_json(policies[i], false, true);
		cr_assert(a && b && c);
		cr_assert_str_eq(a, b, "%s: stats differ with the shortcuts", policies[i]);
		cr_assert_str_neq(a, c, "%s: the in-order back end changed nothing", policies[i]);
		free(a);
		free(b);
		free(c);
	}
}

/* Pipeline sleeps (struct sm: pipe_sleep): in a shared SIMT-8 pipeline (an instruction every
 * 4 cycles, OWL's baseline) the SM sleeps from an issue to the cycle the pipeline frees while
 * other warps wait READY; the stores' and loads' replies that come in between (fixed latency
 * `lat`, one or two in flight) make the ticks it left out first. Against the same policy ticked
 * in full (the wrapper is not pure): the same stats. */
static char *pipe_run_to_json(const char *policy, bool shortcuts, uint32_t lat, uint64_t *pipe_sleeps)
{
	char pol[64], fixed[64];
	snprintf(pol, sizeof pol, "gpu.core.scheduler.policy=%s", policy);
	snprintf(fixed, sizeof fixed, "gpu.memory.fixed_latency_cycles=%u", lat);
	const char *const ov[] = {"gpu.core.max_ctas=2", "gpu.memory.max_inflight_insts=2", "gpu.core.simt_width=8",
				  "gpu.core.units.ldst_width=8", "gpu.core.units.shared_pipeline=true",
				  "gpu.core.fetch_decode_cycles=2", pol, fixed, NULL};
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<24>;\n .reg .b64 %rd<6>;\n"
		" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
		" add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n"
		" add.s32 %r2, %r1, 1;\n add.s32 %r3, %r1, 2;\n add.s32 %r4, %r1, 3;\n add.s32 %r5, %r1, 4;\n"
		" add.s32 %r6, %r2, %r3;\n add.s32 %r7, %r4, %r5;\n add.s32 %r8, %r1, 5;\n add.s32 %r9, %r1, 6;\n"
		" ld.global.u32 %r10, [%rd3];\n"
		" add.s32 %r11, %r6, %r7;\n add.s32 %r12, %r8, %r9;\n add.s32 %r13, %r1, 7;\n add.s32 %r14, %r1, 8;\n"
		" add.s32 %r15, %r11, %r12;\n add.s32 %r16, %r13, %r14;\n add.s32 %r17, %r15, %r16;\n"
		" add.s32 %r18, %r17, %r10;\n st.global.u32 [%rd3], %r18;\n"
		" add.s32 %r19, %r1, 9;\n add.s32 %r20, %r1, 10;\n add.s32 %r21, %r19, %r20;\n exit;\n}\n";
	return hooked_run_to_json(ptx, 6, ov, shortcuts, pipe_sleeps);
}

Test(sm, pipeline_sleeps_change_no_stat)
{
	static const char *const policies[] = {"lrr", "gto", "owl-blp", "mwf-lrr"};
	static const uint32_t lats[] = {30, 37, 101};
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
		for (size_t j = 0; j < sizeof lats / sizeof lats[0]; j++) {
			uint64_t sleeps = 0, none = 0;
			char *a = pipe_run_to_json(policies[i], true, lats[j], &sleeps);
			char *b = pipe_run_to_json(policies[i], false, lats[j], &none);
			cr_assert_not_null(a);
			cr_assert_not_null(b);
			cr_assert_str_eq(a, b, "%s, latency %u: stats differ with pipeline sleeps", policies[i], lats[j]);
			cr_assert_eq(none, 0, "%s: a policy that is not pure never sleeps so", policies[i]);
			cr_assert_gt(sleeps, 100, "%s: only %llu pipeline sleeps", policies[i], (unsigned long long)sleeps);
			free(a);
			free(b);
		}
}

Test(sm, membar_waits_for_the_warps_outstanding_stores)
{
	/* fixed-latency memory, 100 cycles. c0 fetch; c1 ld.param (done 101); c101 st.global
	 * (acked at 201; pc2,3 fetched, ready 102); membar waits for the ack; c201 membar; c202 exit. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n st.global.u32 [%rd1], 5;\n membar.sys;\n exit;\n}\n";
	build(ptx, 32, 1, NULL);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[1], 101);
	cr_assert_eq(cyc[2], 201);
	cr_assert_eq(cyc[3], 202);
	check_classes_sum();
	teardown();
}

Test(sm, alu_and_memory_occupancy_overlap_is_counted)
{
	/* fixed-latency 100, int latency 4. c1 ld.param (memory 1..100); c101 ld.global (101..200);
	 * c102, c103 two independent movs keep the ALU busy 102..106 while the load is out;
	 * c201 the add (busy 201, 202 of the kernel); c202 exit. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n ld.global.u32 %r1, [%rd1];\n mov.u32 %r2, 2;\n mov.u32 %r3, 3;\n"
		" add.s32 %r4, %r1, 1;\n exit;\n}\n";
	build(ptx, 32, 1, NULL);
	run();
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.cycles, 203);
	cr_assert_eq(c.mem_busy_cycles, 200);
	cr_assert_eq(c.alu_busy_cycles, 5 + 2);
	cr_assert_eq(c.alu_mem_overlap_cycles, 5);
	cr_assert_eq(c.alu_inflight_inst_cycles, 3 * 4);
	check_classes_sum();
	teardown();
}

/* ---- barrel processing (gpu.core.barrel) ------------------------------------------------- */

Test(sm, barrel_processing_refetches_a_warp_only_after_its_instruction_completed)
{
	/* Narasiman Sec 2.1: "once a warp is selected in the fetch stage, it cannot be selected
	 * again until the warp completes execution". One warp, 8 independent moves, int latency 4,
	 * fetch+decode 1, interval 1: each move issues 4 (complete) + 1 (fetch, decode) = 5 cycles
	 * after the previous one. Without barrel processing the I-buffer's two entries go 1 cycle
	 * apart. */
	const char *const ov[] = {"gpu.core.latency.int=4", "gpu.core.barrel=true", NULL};
	build(indep_ptx, 32, 1, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 8; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 5, "inst %d: %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	check_classes_sum();
	teardown();
	const char *const off[] = {"gpu.core.latency.int=4", NULL};
	build(indep_ptx, 32, 1, off);
	run();
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	cr_assert_eq(cyc[1] - cyc[0], 1);
	teardown();
}

Test(sm, barrel_processing_waits_for_a_loads_data_before_an_independent_instruction)
{
	/* fixed-latency 100: the load issued at c completes at c + 100; the independent move is
	 * fetched then and issues at c + 100 + 1 (decode). Without barrel it issues next cycle. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n ld.global.u32 %r1, [%rd1];\n mov.u32 %r2, 2;\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.barrel=true", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[1] - cyc[0], 101, "ld.global after ld.param: %lu", (unsigned long)(cyc[1] - cyc[0]));
	cr_assert_eq(cyc[2] - cyc[1], 101, "mov after ld.global: %lu", (unsigned long)(cyc[2] - cyc[1]));
	check_classes_sum();
	teardown();
	build(ptx, 32, 1, NULL);
	run();
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[2] - cyc[1], 1);
	teardown();
}

/* ---- fetch policies ---------------------------------------------------------------------- */

Test(sm, fef_refills_a_partly_filled_ibuffer_so_one_warp_issues_every_cycle)
{
	/* BAWS Sec 6.2: FEF fetches for "the warp ... that has the fewest entries in the I-Buffer",
	 * so a warp holding one of its two entries may fetch. One warp, 8 independent moves,
	 * interval 1, fetch+decode 2 cycles. rr (BAWS Sec 2.2: only an empty I-buffer fetches):
	 * two issues, the refill takes 2 cycles: gaps 1, 2, 1, 2, ... fef: the instruction after
	 * the buffered one is fetched each cycle: gaps of 1. */
	const char *const ov[] = {"gpu.core.fetch_decode_cycles=2", "gpu.core.scheduler.fetch=fef", NULL};
	struct sm_hooks hk = sm_real_hooks;
	hk.issue_ops = &wrap_issue_ops;
	hk.fetch_ops = &wrap_fetch_partial_ops;
	build_h(indep_ptx, 32, 1, ov, 1, &hk);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 9; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 1, "fef inst %d: %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	check_classes_sum();
	teardown();
	const char *const rr[] = {"gpu.core.fetch_decode_cycles=2", NULL};
	build(indep_ptx, 32, 1, rr);
	run();
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 9; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], i % 2 ? 1u : 2u, "rr inst %d", i);
	teardown();
}

Test(sm, fef_as_built_from_config_saves_the_refill_gaps)
{
	/* The same kernel with the policies as sm_create builds them (no wrapper): fef's 8 gaps of
	 * 1 against rr's 1, 2, 1, 2, ...: exactly 4 cycles fewer. */
	struct sm_counters c_fef, c_rr;
	const char *const ov[] = {"gpu.core.fetch_decode_cycles=2", "gpu.core.scheduler.fetch=fef", NULL};
	build_h(indep_ptx, 32, 1, ov, 1, &sm_real_hooks);
	run();
	sm_get_counters(H.sm, &c_fef);
	teardown();
	const char *const rr[] = {"gpu.core.fetch_decode_cycles=2", NULL};
	build_h(indep_ptx, 32, 1, rr, 1, &sm_real_hooks);
	run();
	sm_get_counters(H.sm, &c_rr);
	teardown();
	cr_assert_eq(c_rr.cycles - c_fef.cycles, 4, "rr %lu fef %lu", (unsigned long)c_rr.cycles,
		     (unsigned long)c_fef.cycles);
}

/* ---- long-latency waits: an L1 hit is not a memory block (OWL Sec 3) -------------------- */

Test(sm, a_load_that_hits_l1_is_not_memory_block_nor_a_miss_wait)
{
	/* perfect-l1 with a 20-cycle hit: the add waits 19 cycles on a global load that hits. OWL
	 * Sec 3 counts MemoryBlockCycles while warps wait "for their memory requests to come back
	 * from L2 cache/DRAM": none here, and the warp is never waiting_miss (so OWL's groups do
	 * not switch on it). With fixed-latency memory (standing for L2/DRAM) the same wait is. */
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
		" ld.param.u64 %rd1, [p];\n ld.global.u32 %r1, [%rd1];\n add.s32 %r2, %r1, 1;\n exit;\n}\n";
	const char *const ov[] = {"gpu.memory.model=perfect-l1", "gpu.memory.l1d.hit_latency_cycles=20", NULL};
	build(ptx, 32, 1, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[2] - cyc[1], 20, "the add waits for the hit");
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.memory_block_cycles, 0);
	cr_assert_eq(sm_wrap_mask_errors, 0);
	teardown();
	build(ptx, 32, 1, (const char *const[]){"gpu.memory.fixed_latency_cycles=20", NULL});
	run();
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.memory_block_cycles, 19);
	teardown();
}

/* ---- clock registers --------------------------------------------------------------------- */

/* %clock64 at pc 0 and pc 4 around a dependent chain, and %clock at pc 5, stored to p[0..2]. */
static const char clock_ptx[] = PTX_HEAD
	".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
	" mov.u64 %rd1, %clock64;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n"
	" add.s32 %r4, %r3, 1;\n mov.u64 %rd2, %clock64;\n mov.u32 %r5, %clock;\n"
	" ld.param.u64 %rd3, [p];\n st.global.u64 [%rd3], %rd1;\n st.global.u64 [%rd3+8], %rd2;\n"
	" st.global.u32 [%rd3+16], %r5;\n exit;\n}\n";

Test(sm, clock64_reads_the_core_cycle_its_instruction_issues_in)
{
	const char *const ov[] = {"gpu.core.latency.int=10", NULL};
	build(clock_ptx, 32, 1, ov);
	run();
	uint64_t cyc[16], v[3] = {0, 0, 0};
	uint32_t pc[16];
	cr_assert_eq(issues(0, cyc, pc, 16), 11);
	struct sim_error err = {0};
	cr_assert_eq(fe_mem_read(H.mem, H.buf, v, sizeof v, &err), 0, "%s", err.msg);
	/* each clock read is the cycle of its own issue, on the SM's core clock */
	cr_assert_eq(pc[0], 0);
	cr_assert_eq(v[0], cyc[0], "clock64 %lu, issued at %lu", (unsigned long)v[0], (unsigned long)cyc[0]);
	cr_assert_eq(v[1], cyc[4], "clock64 %lu, issued at %lu", (unsigned long)v[1], (unsigned long)cyc[4]);
	cr_assert_eq((uint32_t)v[2], (uint32_t)cyc[5]);
	/* by hand: the first add is independent (issued the next cycle, interval 1 at SIMT width
	 * 32), the next two wait for their operand (int latency 10), the second read is
	 * independent again: 1 + 10 + 10 + 1 */
	cr_assert_eq(v[1] - v[0], 22, "clock64 difference %lu", (unsigned long)(v[1] - v[0]));
	teardown();
}

/* while (clock64() - t0 < 500) {}: ends, after the first read at which 500 cycles passed. */
Test(sm, a_clock64_spin_wait_ends)
{
	static const char ptx[] = PTX_HEAD
		".visible .entry k(.param .u64 p)\n{\n .reg .pred %p<2>;\n .reg .b64 %rd<8>;\n"
		" mov.u64 %rd1, %clock64;\n"
		"SPIN:\n mov.u64 %rd2, %clock64;\n sub.s64 %rd3, %rd2, %rd1;\n"
		" setp.lt.u64 %p1, %rd3, 500;\n @%p1 bra SPIN;\n"
		" ld.param.u64 %rd4, [p];\n st.global.u64 [%rd4], %rd3;\n exit;\n}\n";
	build(ptx, 32, 1, NULL);
	run();
	uint64_t waited = 0;
	struct sim_error err = {0};
	cr_assert_eq(fe_mem_read(H.mem, H.buf, &waited, sizeof waited, &err), 0, "%s", err.msg);
	cr_assert_geq(waited, 500);
	/* the loop's last read came less than one iteration after the 500th cycle */
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_lt(waited, 500 + 100, "waited %lu", (unsigned long)waited);
	cr_assert_geq(c.cycles, waited);
	teardown();
}
