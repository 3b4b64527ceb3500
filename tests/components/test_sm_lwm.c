/* SPDX-License-Identifier: MIT */
/* Tests for components/sm/sm_lwm.h: the large warp microarchitecture (002_eff04bc2401aa813 Sec 3.1,
 * 3.1.2): sub-warp packing (Fig 7), issue cycles per large-warp instruction, the unconditional-
 * branch and memory-row optimisations, barrel processing, and that LWM with large = SIMD width
 * times exactly like the baseline. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "components/cta_dispatcher.h"
#include "components/sm/sm_lwm.h"
#include "frontend/fe.h"
#include "memory/mem_req.h"

/* ---- pure sub-warp formation ---------------------------------------------------------- */

static void set_lanes(uint64_t m[WI_MASK_WORDS], const int *lanes, int n)
{
	memset(m, 0, WI_MASK_WORDS * sizeof *m);
	for (int i = 0; i < n; i++)
		m[lanes[i] >> 6] |= 1ull << (lanes[i] & 63);
}

/* The Fig 7 mask used here: a 32-thread large warp on a 4-wide SIMD (8 rows x 4 columns), 16
 * threads active after divergence, none of the 8 rows (the baseline's 4-thread warps) full:
 *        col 0 1 2 3
 *   row 0:   1 0 1 0     lanes 0, 2
 *   row 1:   0 1 0 1     lanes 5, 7
 *   row 2:   1 1 0 0     lanes 8, 9
 *   row 3:   0 0 1 1     lanes 14, 15
 *   row 4:   1 0 0 1     lanes 16, 19
 *   row 5:   0 1 1 0     lanes 21, 22
 *   row 6:   1 0 1 1     lanes 24, 26, 27
 *   row 7:   0 1 0 0     lane 29
 * (The paper's figure is a picture the text copy does not hold; this mask has its properties:
 * every column holds 4 active threads, so 4 fully packed sub-warps replace the baseline's 8.)
 * Each cycle every column gives its lowest remaining active row:
 *   cycle 1: rows (0,1,0,1) -> lanes 0, 5, 2, 7
 *   cycle 2: rows (2,2,3,3) -> lanes 8, 9, 14, 15
 *   cycle 3: rows (4,5,5,4) -> lanes 16, 21, 22, 19
 *   cycle 4: rows (6,7,6,6) -> lanes 24, 29, 26, 27 */
static const int fig7_lanes[] = {0, 2, 5, 7, 8, 9, 14, 15, 16, 19, 21, 22, 24, 26, 27, 29};
#define FIG7_PATTERN "0x2D69C3A5" /* the same lanes as a 32-bit mask */

Test(sm_lwm, fig7_mask_becomes_four_packed_subwarps_over_four_cycles)
{
	static const int rows[4][4] = {{0, 1, 0, 1}, {2, 2, 3, 3}, {4, 5, 5, 4}, {6, 7, 6, 6}};
	uint64_t rem[WI_MASK_WORDS], sub[WI_MASK_WORDS], want[WI_MASK_WORDS];
	set_lanes(rem, fig7_lanes, 16);
	cr_assert_eq(rem[0], 0x2D69C3A5ull);
	cr_assert_eq(sm_lwm_count_subwarps(rem, 32, 4, false), 4);
	for (int c = 0; c < 4; c++) {
		int lanes[4];
		for (int col = 0; col < 4; col++)
			lanes[col] = rows[c][col] * 4 + col; /* row ID and column give the thread */
		set_lanes(want, lanes, 4);
		cr_assert_eq(sm_lwm_next_subwarp(rem, 32, 4, false, sub), 4, "cycle %d", c + 1);
		cr_assert_eq(sub[0], want[0], "cycle %d: %#lx, want %#lx", c + 1, (unsigned long)sub[0],
			     (unsigned long)want[0]);
	}
	cr_assert_eq(rem[0], 0, "every bit of the copied mask is cleared after the 4th sub-warp");
	cr_assert_eq(sm_lwm_next_subwarp(rem, 32, 4, false, sub), 0);
}

Test(sm_lwm, memory_rows_form_one_subwarp_per_nonempty_row)
{
	/* Sec 3.1.2: the same mask row by row: 8 non-empty rows -> 8 sub-warps, the first row 0. */
	uint64_t rem[WI_MASK_WORDS], sub[WI_MASK_WORDS];
	set_lanes(rem, fig7_lanes, 16);
	cr_assert_eq(sm_lwm_count_subwarps(rem, 32, 4, true), 8);
	cr_assert_eq(sm_lwm_next_subwarp(rem, 32, 4, true, sub), 2);
	cr_assert_eq(sub[0], 0x5ull); /* lanes 0 and 2 */
	cr_assert_eq(sm_lwm_next_subwarp(rem, 32, 4, true, sub), 2);
	cr_assert_eq(sub[0], 0xA0ull); /* lanes 5 and 7 */
}

Test(sm_lwm, rows_of_32_in_a_1024_lane_mask)
{
	/* 1024 threads (32 rows of 32): rows 0 and 31 full plus thread 40 (row 1, column 8).
	 * Column 8 holds 3 threads -> 3 sub-warps: row 0; then per column the lowest remaining row,
	 * thread 40 for column 8 and row 31 for the other 31 columns; last thread 1000 (31*32 + 8). */
	uint64_t m[WI_MASK_WORDS] = {0}, sub[WI_MASK_WORDS];
	m[0] = 0xFFFFFFFFull | (1ull << 40);
	m[15] = 0xFFFFFFFF00000000ull;        /* row 31: lanes 992..1023 */
	cr_assert_eq(sm_lwm_count_subwarps(m, 1024, 32, false), 3);
	cr_assert_eq(sm_lwm_next_subwarp(m, 1024, 32, false, sub), 32);
	cr_assert_eq(sub[0], 0xFFFFFFFFull);
	cr_assert_eq(sm_lwm_next_subwarp(m, 1024, 32, false, sub), 32);
	cr_assert_eq(sub[0], 1ull << 40);
	cr_assert_eq(sub[15], 0xFFFFFFFF00000000ull & ~(1ull << (1000 - 960)));
	cr_assert_eq(sm_lwm_next_subwarp(m, 1024, 32, false, sub), 1);
	cr_assert_eq(sub[15], 1ull << (1000 - 960));
	/* Width 48 (rows cross 64-bit words): lanes 40 (row 0, col 40) and 88 (row 1, col 40) share
	 * a column -> 2 sub-warps; lane 50 (row 1, col 2) joins the first. */
	uint64_t w[WI_MASK_WORDS] = {0};
	w[0] = (1ull << 40) | (1ull << 50);
	w[1] = 1ull << (88 - 64);
	cr_assert_eq(sm_lwm_count_subwarps(w, 96, 48, false), 2);
	cr_assert_eq(sm_lwm_next_subwarp(w, 96, 48, false, sub), 2);
	cr_assert_eq(sub[0], (1ull << 40) | (1ull << 50));
	cr_assert_eq(sm_lwm_next_subwarp(w, 96, 48, false, sub), 1);
	cr_assert_eq(sub[1], 1ull << 24);
}

/* ---- one SM with the real policies and memory unit ------------------------------------- */

#define MAX_EV 4096
struct rec {
	uint16_t warp;
	uint32_t pc;
	uint64_t cycle;
};
static struct {
	struct cfg *cfg;
	struct sim *sim;
	struct stats *st;
	struct sim_clock clk;
	struct cta_dispatcher *d;
	struct sm *sm;
	struct fe_module *mod;
	struct fe_memory *mem;
	struct fe_launch *l;
	struct rec ev[MAX_EV];
	uint32_t n_ev;
} H;

static void sm_wrap_record(const struct sched *s, const struct sched_event *ev)
{
	if (ev->kind == SCHED_EV_WARP_ISSUE && H.n_ev < MAX_EV)
		H.ev[H.n_ev++] = (struct rec){ev->warp_id, s->core->warps[ev->warp_id].pc, ev->cycle};
}
#include "sm_wrap.h"
/* One scheduler, one SP unit as wide as the SIMD (interval 1), fixed-latency memory. */
static const char *const base_ov[] = {
	"gpu.core.n_schedulers=1", "gpu.core.units.sp=1", "gpu.core.simt_width=32",
	"gpu.core.units.ldst_width=32", "gpu.core.icache.miss_latency_cycles=0",
	"gpu.core.fetch_decode_cycles=1", "gpu.core.latency.int=1", "gpu.memory.model=fixed-latency",
	"gpu.memory.fixed_latency_cycles=100", "gpu.core.scheduler.policy=lrr", NULL,
};

static const char *g_text; /* a config file "lwm.cfg" loaded before the overrides, or NULL */

static int build_e(const char *ptx, uint32_t threads, const char *const *ov, struct sim_error *err)
{
	memset(&H, 0, sizeof H);
	H.cfg = cfg_create();
	cr_assert_eq(sm_cfg_define(H.cfg, err), 0, "%s", err->msg);
	cr_assert_eq(cta_dispatcher_cfg_define(H.cfg, err), 0, "%s", err->msg);
	cr_assert_eq(sched_cfg_define(H.cfg, err), 0, "%s", err->msg);
	cr_assert_eq(mem_unit_cfg_define(H.cfg, err), 0, "%s", err->msg);
	if (g_text)
		cr_assert_eq(cfg_load_string(H.cfg, "lwm.cfg", g_text, err), 0, "%s", err->msg);
	for (const char *const *o = base_ov; *o; o++)
		cr_assert_eq(cfg_set_override(H.cfg, *o, err), 0, "%s: %s", *o, err->msg);
	for (; ov && *ov; ov++)
		cr_assert_eq(cfg_set_override(H.cfg, *ov, err), 0, "%s: %s", *ov, err->msg);
	struct sim_config sc = {.seed = 1, .watchdog_clk = &H.clk};
	H.sim = sim_create(&sc, err);
	cr_assert_not_null(H.sim);
	H.clk.name = "core";
	H.clk.freq_mhz = 1000;
	cr_assert_eq(sim_clock_add(H.sim, &H.clk, err), 0);
	H.st = stats_create();
	H.d = cta_dispatcher_create(H.cfg, H.st, 1, err);
	cr_assert_not_null(H.d, "%s", err->msg);
	struct sm_hooks hk = sm_real_hooks; /* real memory unit, recording policies */
	hk.issue_ops = &wrap_issue_ops;
	hk.fetch_ops = &wrap_fetch_ops;
	H.sm = sm_create_hooked(H.cfg, H.sim, H.st, 0, 1, &H.clk, NULL, 0, H.d, &hk, err);
	if (!H.sm)
		return err->code;
	cr_assert_eq(fe_module_parse_string("t.ptx", ptx, &H.mod, err), 0, "%s:%d: %s", err->file, err->line,
		     err->msg);
	H.mem = fe_memory_create();
	uint64_t buf = fe_mem_alloc(H.mem, 4096);
	uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
	uint32_t np = 0;
	cr_assert_eq(fe_kernel_params(H.mod, "k", &np, err), 0, "%s", err->msg);
	H.l = fe_launch_create(H.mod, H.mem, "k", grid, block, 0, &buf, np ? sizeof buf : 0, 16, err);
	cr_assert_not_null(H.l, "%s", err->msg);
	return 0;
}

static void build(const char *ptx, uint32_t threads, const char *const *ov)
{
	struct sim_error err = {0};
	cr_assert_eq(build_e(ptx, threads, ov, &err), 0, "%s", err.msg);
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
	stats_destroy(H.st);
	sm_destroy(H.sm);
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

static uint32_t issues(int warp, uint64_t *cyc, uint32_t *pc, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < H.n_ev && n < max; i++)
		if (warp < 0 || H.ev[i].warp == warp) {
			cyc[n] = H.ev[i].cycle;
			if (pc)
				pc[n] = H.ev[i].pc;
			n++;
		}
	return n;
}

#define PTX_HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* Eight independent moves and exit. */
static const char indep_ptx[] = PTX_HEAD
	".visible .entry k()\n{\n .reg .b32 %r<10>;\n"
	" mov.u32 %r1, 1;\n mov.u32 %r2, 2;\n mov.u32 %r3, 3;\n mov.u32 %r4, 4;\n"
	" mov.u32 %r5, 5;\n mov.u32 %r6, 6;\n mov.u32 %r7, 7;\n mov.u32 %r8, 8;\n exit;\n}\n";

Test(sm_lwm, fully_active_256_thread_warp_issues_8_subwarps_per_instruction)
{
	/* 256 threads / SIMD 32 = 8 rows, all active: every instruction is 8 sub-warps of 32 lanes,
	 * one per cycle, so warp 0's 9 instructions issue exactly 8 cycles apart (the SP unit's
	 * interval is 32/32 = 1, the moves are independent). 8 x 8 + 1 (an exit of all threads
	 * is one sub-warp) = 65 sub-warps, all full. */
	const char *const ov[] = {"gpu.core.large_warp_size=256", NULL};
	build(indep_ptx, 256, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 9; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 8, "inst %d: %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	const struct sm_lwm *L = H.sm->lwm;
	cr_assert_eq(L->large_insts, 9);
	cr_assert_eq(L->sub_warps, 65, "%lu", (unsigned long)L->sub_warps);
	cr_assert_eq(L->lanes[SM_LWM_BUCKETS - 1], 65);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.thread_insts, 9 * 256);
	cr_assert_eq(c.warp_insts, 9);
	cr_assert_eq(c.issue_cycles, 65, "one issue cycle per sub-warp");
	teardown();
}

Test(sm_lwm, fig7_divergent_instruction_takes_four_issue_cycles)
{
	/* 32 threads as one large warp on a 4-wide SIMD; the lanes of FIG7_PATTERN take the
	 * not-taken path and execute the add, so the add has the Fig 7 mask: 4 sub-warps in 4
	 * cycles, after which exit issues (exit does not depend on the add): exit - add = 4.
	 * Sub-warps (formed from the mask before the guard): mov, mov, shr, and, setp, bra with all
	 * 32 threads: 6 x 8; add 4; exit of all (reconverged) threads 1 -> 53, and 53 issue cycles.
	 * Full sub-warps: the 5 full ALU instructions 40 + add 4 + exit 1 = 45 (the guarded bra's lanes
	 * whose guard held are the other 16, spread over its 8 sub-warps). */
	static const char ptx[] = PTX_HEAD
		".visible .entry k()\n{\n .reg .b32 %r<8>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, %tid.x;\n mov.u32 %r2, " FIG7_PATTERN ";\n shr.u32 %r3, %r2, %r1;\n"
		" and.b32 %r4, %r3, 1;\n setp.eq.u32 %p1, %r4, 0;\n @%p1 bra DONE;\n"
		" add.s32 %r5, %r1, 1;\nDONE:\n exit;\n}\n";
	const char *const ov[] = {"gpu.core.warp_size=4", "gpu.core.simt_width=4", "gpu.core.units.ldst_width=4",
				  "gpu.core.large_warp_size=32", NULL};
	build(ptx, 32, ov);
	run();
	uint64_t cyc[16];
	uint32_t pc[16];
	cr_assert_eq(issues(0, cyc, pc, 16), 8);
	cr_assert_eq(pc[6], 6);
	cr_assert_eq(pc[7], 7);
	cr_assert_eq(cyc[7] - cyc[6], 4, "add at %lu, exit at %lu", (unsigned long)cyc[6], (unsigned long)cyc[7]);
	cr_assert_geq(cyc[6] - cyc[5], 8, "the bra's 8 sub-warps come first");
	const struct sm_lwm *L = H.sm->lwm;
	cr_assert_eq(L->sub_warps, 53, "%lu", (unsigned long)L->sub_warps);
	cr_assert_eq(L->lanes[SM_LWM_BUCKETS - 1], 45);
	struct sm_counters c;
	sm_get_counters(H.sm, &c);
	cr_assert_eq(c.issue_cycles, 53);
	teardown();
}

static const char uncond_ptx[] = PTX_HEAD
	".visible .entry k()\n{\n .reg .b32 %r<4>;\n"
	" mov.u32 %r1, 1;\n bra.uni L1;\nL1:\n mov.u32 %r2, 2;\n exit;\n}\n";

Test(sm_lwm, unconditional_branch_is_one_subwarp)
{
	/* Sec 3.1.2: the jump writes one PC: 1 sub-warp, so the next mov issues 1 cycle after it
	 * (the target is the next instruction: no refetch). Sub-warps: 8 + 1 + 8 + 1 (exit) = 18. */
	const char *const ov[] = {"gpu.core.large_warp_size=256", NULL};
	build(uncond_ptx, 256, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[1] - cyc[0], 8);
	cr_assert_eq(cyc[2] - cyc[1], 1);
	cr_assert_eq(H.sm->lwm->sub_warps, 18);
	cr_assert_eq(H.sm->lwm->uncond_single, 1);
	teardown();
}

Test(sm_lwm, without_the_optimisation_the_jump_takes_8_subwarps)
{
	/* Same kernel, gpu.core.lwm.uncond_single=false: the jump is 8 sub-warps (8 + 8 + 8 + 1 = 25). */
	const char *const ov[] = {"gpu.core.large_warp_size=256", "gpu.core.lwm.uncond_single=false", NULL};
	build(uncond_ptx, 256, ov);
	run();
	uint64_t cyc[8];
	cr_assert_eq(issues(0, cyc, NULL, 8), 4);
	cr_assert_eq(cyc[2] - cyc[1], 8);
	cr_assert_eq(H.sm->lwm->sub_warps, 25);
	cr_assert_eq(H.sm->lwm->uncond_single, 0);
	teardown();
}

Test(sm_lwm, barrel_processing_no_other_warp_issues_between_subwarps)
{
	/* 512 threads = 2 large warps of 256 on one scheduler (lrr). A large warp keeps the issue
	 * stage for its 8 sub-warps, so the 18 instructions of both warps issue exactly 8 cycles
	 * apart, never overlapping (the last gap is 1: warp 0's exit is one sub-warp), and each
	 * warp's next instruction waits for its sub-warps. 2 x (8 x 8 + 1) = 130 sub-warps. */
	const char *const ov[] = {"gpu.core.large_warp_size=256", NULL};
	build(indep_ptx, 512, ov);
	run();
	uint64_t cyc[32], c0[16];
	cr_assert_eq(issues(-1, cyc, NULL, 32), 18);
	cr_assert_eq(cyc[17] - cyc[16], 1);
	for (int i = 1; i < 17; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 8, "issue %d at %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	cr_assert_eq(issues(0, c0, NULL, 16), 9);
	for (int i = 1; i < 9; i++)
		cr_assert_geq(c0[i] - c0[i - 1], 8);
	cr_assert_eq(H.sm->lwm->sub_warps, 130);
	teardown();
}

Test(sm_lwm, with_barrel_processing_the_next_instruction_waits_for_every_subwarp_to_complete)
{
	/* Sec 3.1.1: "once a large warp is selected it is not considered for scheduling again until
	 * all sub-warps have completed execution". 256 threads, 8 sub-warps at t..t+7; the last
	 * completes at t+7+4 (int latency 4), is fetched and decoded in 1: the next instruction at
	 * t+12. Without barrel processing it follows the last sub-warp's issue: t+8. */
	const char *const ov[] = {"gpu.core.large_warp_size=256", "gpu.core.latency.int=4", "gpu.core.barrel=true",
				  NULL};
	build(indep_ptx, 256, ov);
	run();
	uint64_t cyc[16];
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	for (int i = 1; i < 9; i++)
		cr_assert_eq(cyc[i] - cyc[i - 1], 12, "inst %d: %lu after %lu", i, (unsigned long)cyc[i],
			     (unsigned long)cyc[i - 1]);
	teardown();
	build(indep_ptx, 256, (const char *const[]){"gpu.core.large_warp_size=256", "gpu.core.latency.int=4", NULL});
	run();
	cr_assert_eq(issues(0, cyc, NULL, 16), 9);
	cr_assert_eq(cyc[1] - cyc[0], 8);
	teardown();
}

/* A global load under divergence: active threads have bit 4 of tid equal to bit 5 (rows of 32:
 * even rows active in columns 0-15, odd rows in columns 16-31). */
static const char memdiv_ptx[] = PTX_HEAD
	".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n"
	" ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n shr.u32 %r2, %r1, 4;\n shr.u32 %r3, %r1, 5;\n"
	" xor.b32 %r4, %r2, %r3;\n and.b32 %r5, %r4, 1;\n setp.ne.u32 %p1, %r5, 0;\n @%p1 bra DONE;\n"
	" mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r6, [%rd3];\nDONE:\n exit;\n}\n";

static uint64_t memdiv_subwarps(bool rows, uint64_t *row_insts)
{
	const char *const ov[] = {"gpu.core.large_warp_size=256",
				  rows ? "gpu.core.lwm.mem_rows=true" : "gpu.core.lwm.mem_rows=false", NULL};
	build(memdiv_ptx, 256, ov);
	run();
	uint64_t n = H.sm->lwm->sub_warps;
	*row_insts = H.sm->lwm->mem_row_insts;
	teardown();
	return n;
}

Test(sm_lwm, memory_row_optimisation_keeps_rows_apart_for_global_loads)
{
	/* The divergent load's 128 threads: every column holds 4 (packing: 4 sub-warps of 32 lanes
	 * from 2 rows each) but all 8 rows are non-empty (rows: 8 sub-warps of 16 lanes). The
	 * other instructions are the same either way (ld.param is not global: packed), so the
	 * totals differ by exactly 8 - 4 = 4. */
	uint64_t r_on, r_off;
	uint64_t on = memdiv_subwarps(true, &r_on), off = memdiv_subwarps(false, &r_off);
	cr_assert_eq(on - off, 4, "rows %lu, packed %lu", (unsigned long)on, (unsigned long)off);
	cr_assert_eq(r_on, 1);
	cr_assert_eq(r_off, 0);
}

Test(sm_lwm, large_warp_of_simd_width_times_like_the_baseline)
{
	/* large_warp_size = warp_size: one row, one sub-warp per instruction: the same cycles and
	 * issue cycles as without LWM (the divergent kernel, loads included). */
	struct sm_counters base, lwm;
	build(memdiv_ptx, 256, NULL);
	run();
	sm_get_counters(H.sm, &base);
	teardown();
	const char *const ov[] = {"gpu.core.large_warp_size=32", NULL};
	build(memdiv_ptx, 256, ov);
	run();
	sm_get_counters(H.sm, &lwm);
	cr_assert_eq(H.sm->lwm->sub_warps, base.warp_insts);
	teardown();
	cr_assert_eq(lwm.cycles, base.cycles);
	cr_assert_eq(lwm.issue_cycles, base.issue_cycles);
	cr_assert_eq(lwm.thread_insts, base.thread_insts);
	cr_assert_eq(memcmp(lwm.sched_cycles, base.sched_cycles, sizeof base.sched_cycles), 0);
}

Test(sm_lwm, kernel_warp_size_fits_the_cta)
{
	/* Large warps never span CTAs: 128-thread CTAs give 128-thread warps; 384 threads (12 rows)
	 * give the largest divisor of 12 rows within 8 rows, 6 rows = 192; 100 threads round up to
	 * 4 rows = 128; 1024 give 256. */
	build(indep_ptx, 256, (const char *const[]){"gpu.core.large_warp_size=256", NULL});
	cr_assert_eq(sm_lwm_kernel_warp_size(H.sm, 128), 128);
	cr_assert_eq(sm_lwm_kernel_warp_size(H.sm, 384), 192);
	cr_assert_eq(sm_lwm_kernel_warp_size(H.sm, 100), 128);
	cr_assert_eq(sm_lwm_kernel_warp_size(H.sm, 1024), 256);
	cr_assert_eq(sm_lwm_kernel_warp_size(H.sm, 32), 32);
	teardown();
}

Test(sm_lwm, large_warp_not_a_multiple_of_the_simd_width_is_a_config_error)
{
	struct sim_error err = {0};
	const char *const ov[] = {"gpu.core.large_warp_size=48", NULL};
	cr_assert_eq(build_e(indep_ptx, 256, ov, &err), SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "not a multiple of gpu.core.warp_size"), "%s", err.msg);
	cr_assert_str_eq(err.setting, "gpu.core.large_warp_size");
	stats_destroy(H.st);
	cta_dispatcher_destroy(H.d);
	sim_destroy(H.sim);
	cfg_destroy(H.cfg);
}

Test(sm_lwm, large_warp_beyond_the_cores_threads_is_refused_at_its_file_and_line)
{
	/* The legal range: 0 (off) or a multiple of warp_size up to max_threads (1024 in
	 * the paper's core, Table 1); a kernel's CTA caps it further at run time. */
	struct sim_error err = {0};
	g_text = "gpu: {\n core: {\n  max_threads = 512;\n  large_warp_size = 1024;\n };\n};\n";
	int rc = build_e(indep_ptx, 256, NULL, &err);
	g_text = NULL;
	cr_assert_eq(rc, SIM_ERR_CONFIG, "%d %s", rc, err.msg);
	cr_assert_str_eq(err.file, "lwm.cfg");
	cr_assert_eq(err.line, 4);
	cr_assert_str_eq(err.setting, "gpu.core.large_warp_size");
	cr_assert(strstr(err.msg, "exceed gpu.core.max_threads"), "%s", err.msg);
	stats_destroy(H.st);
	cta_dispatcher_destroy(H.d);
	sim_destroy(H.sim);
	cfg_destroy(H.cfg);
}
