/* SPDX-License-Identifier: MIT */
/* frontend/functional.c: a launch's CTAs run one after another in one reused fe_cta
 * (fe_cta_restart); each CTA starts from its own ids, a fresh SIMT stack (after a CTA whose
 * stack grew onto the heap), its partial last warp's mask and fresh bar.red counts; a warp's
 * turn (straight-line runs, uniform branches and bar.sync arrivals without the timing path's
 * record) executes and counts what the timing model's per-instruction path does; a CTA
 * restarted or recycled after one that wrote its registers, shared memory, carry flags and
 * predicates reads what a fresh CTA reads. */
#include "fe_test.h"
#include "frontend/warp_inst.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* CTA 0 only: nested ifs on the low six bits of tid (a lane adds bit b while bits 0..b are all
 * set), so the SIMT stack of warp 1 grows past its inline entries; every CTA: bar.red.popc of
 * the odd threads. out[global thread] = nest << 16 | popc << 8 | ctaid. */
static const char *nest =
	HDR ".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
	"mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, 0;\n"
	"setp.ne.u32 %p1, %r2, 0;\n @%p1 bra FLAT;\n"
	"and.b32 %r4, %r1, 1;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J1;\n add.u32 %r3, %r3, 1;\n"
	"and.b32 %r4, %r1, 2;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J2;\n add.u32 %r3, %r3, 2;\n"
	"and.b32 %r4, %r1, 4;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J3;\n add.u32 %r3, %r3, 4;\n"
	"and.b32 %r4, %r1, 8;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J4;\n add.u32 %r3, %r3, 8;\n"
	"and.b32 %r4, %r1, 16;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J5;\n add.u32 %r3, %r3, 16;\n"
	"and.b32 %r4, %r1, 32;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra J6;\n add.u32 %r3, %r3, 32;\n"
	"J6:\n add.u32 %r3, %r3, 0;\nJ5:\n add.u32 %r3, %r3, 0;\nJ4:\n add.u32 %r3, %r3, 0;\n"
	"J3:\n add.u32 %r3, %r3, 0;\nJ2:\n add.u32 %r3, %r3, 0;\nJ1:\n add.u32 %r3, %r3, 0;\n"
	"FLAT:\n and.b32 %r6, %r1, 1;\n setp.ne.u32 %p3, %r6, 0;\n"
	"bar.red.popc.u32 %r7, 0, %p3;\n"
	"shl.b32 %r8, %r3, 16;\n shl.b32 %r9, %r7, 8;\n or.b32 %r8, %r8, %r9;\n or.b32 %r8, %r8, %r2;\n"
	"mov.u32 %r10, %ntid.x;\n mad.lo.u32 %r11, %r2, %r10, %r1;\n"
	"ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r11, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r8;\n ret;\n}\n";

#define CTAS 5
#define THREADS 80 /* warps of 32, 32 and 16 lanes */

static uint64_t run_nest(uint32_t *res)
{
	struct fe_module *m = fe_t_load_str(nest);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, CTAS * THREADS * 4);
	uint64_t wi = 0;
	cr_assert_eq(fe_t_launch(m, mem, "k", CTAS, THREADS, 0, &out, 1, &wi, &err), 0, "%s", err.msg);
	fe_t_read(mem, out, res, CTAS * THREADS * 4);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
	return wi;
}

Test(functional, ctas_after_the_first_start_fresh_in_the_reused_cta)
{
	uint32_t res[CTAS * THREADS];
	uint64_t wi = run_nest(res);
	for (uint32_t c = 0; c < CTAS; c++) {
		for (uint32_t t = 0; t < THREADS; t++) {
			uint32_t ones = 0; /* trailing one bits of t, at most six */
			while (ones < 6 && (t >> ones) & 1)
				ones++;
			uint32_t nest_v = c == 0 ? (1u << ones) - 1 : 0;
			uint32_t want = nest_v << 16 | (THREADS / 2) << 8 | c;
			cr_assert_eq(res[c * THREADS + t], want, "CTA %u thread %u: 0x%x, want 0x%x", c, t,
				     res[c * THREADS + t], want);
		}
	}
	/* the same again: the same memory and the same count */
	uint32_t again[CTAS * THREADS];
	cr_assert_eq(run_nest(again), wi);
	cr_assert_eq(memcmp(res, again, sizeof res), 0);
}

/* One turn of one warp (straight-line code, no branch): guards that read a predicate as the
 * last write left it, whatever wrote it (functional.c's guard cache): a setp of all lanes, a
 * guarded setp of some (the other lanes keep their values), and.pred, a setp's second result,
 * a negated guard. out[tid] = the sum of the adds whose guard held. */
static const char *guards =
	HDR ".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"mov.u32 %r1, %tid.x;\n mov.u32 %r5, 0;\n"
	"setp.lt.u32 %p1, %r1, 16;\n @%p1 add.u32 %r5, %r5, 1;\n"
	"and.b32 %r2, %r1, 1;\n setp.eq.u32 %p2, %r2, 0;\n"
	"@%p2 setp.lt.u32 %p1, %r1, 8;\n @%p1 add.u32 %r5, %r5, 2;\n"
	"@%p1 setp.ge.u32 %p1, %r1, 4;\n @%p1 add.u32 %r5, %r5, 4;\n"
	"and.pred %p1, %p1, %p2;\n @%p1 add.u32 %r5, %r5, 8;\n"
	"setp.lt.and.u32 %p3|%p1, %r1, 20, %p2;\n @%p1 add.u32 %r5, %r5, 16;\n"
	"@!%p1 add.u32 %r5, %r5, 32;\n @%p3 add.u32 %r5, %r5, 64;\n"
	"ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r5;\n ret;\n}\n";

Test(functional, a_guard_reads_the_predicate_its_last_write_left)
{
	struct fe_module *m = fe_t_load_str(guards);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 32 * 4);
	uint64_t wi = 0;
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, 32, 0, &out, 1, &wi, &err), 0, "%s", err.msg);
	uint32_t res[32];
	fe_t_read(mem, out, res, sizeof res);
	for (uint32_t t = 0; t < 32; t++) {
		bool even = t % 2 == 0, p1 = t < 16, p3;
		uint32_t want = p1 ? 1 : 0;
		if (even)
			p1 = t < 8;          /* @%p2 setp: odd lanes keep t < 16 */
		want += p1 ? 2 : 0;
		p1 = p1 && t >= 4;           /* @%p1 setp: lanes with p1 false keep false */
		want += p1 ? 4 : 0;
		p1 = p1 && even;
		want += p1 ? 8 : 0;
		p3 = t < 20 && even;
		p1 = !(t < 20) && even;
		want += p1 ? 16 : 32;
		want += p3 ? 64 : 0;
		cr_assert_eq(res[t], want, "thread %u: %u, want %u", t, res[t], want);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* Each thread: a loop of four rounds that hands values between warps through shared memory
 * (two bar.sync a round, a uniform branch back), an if/else on the lane's parity that
 * reconverges inside straight-line code, a guarded add, and a straight run of 80 adds (longer
 * than a turn). out[global thread] = the sum. */
static char *turns_ptx(void)
{
	static char buf[8192];
	int n = snprintf(buf, sizeof buf,
		HDR ".visible .entry k(.param .u64 out)\n{\n"
		".reg .pred %%p<4>;\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<4>;\n"
		".shared .align 4 .b8 sh[512];\n"
		"mov.u32 %%r1, %%tid.x;\n mov.u32 %%r2, %%ntid.x;\n mov.u32 %%r3, 0;\n mov.u32 %%r4, 0;\n"
		"mov.u32 %%r12, sh;\n shl.b32 %%r5, %%r1, 2;\n add.u32 %%r5, %%r12, %%r5;\n"
		"add.u32 %%r6, %%r1, 32;\n rem.u32 %%r6, %%r6, %%r2;\n shl.b32 %%r6, %%r6, 2;\n"
		"add.u32 %%r6, %%r12, %%r6;\n"
		"LOOP:\n mad.lo.u32 %%r7, %%r1, %%r4, %%r3;\n st.shared.u32 [%%r5], %%r7;\n bar.sync 0;\n"
		"ld.shared.u32 %%r8, [%%r6];\n add.u32 %%r3, %%r3, %%r8;\n bar.sync 0;\n"
		"add.u32 %%r4, %%r4, 1;\n setp.lt.u32 %%p1, %%r4, 4;\n @%%p1 bra LOOP;\n"
		"and.b32 %%r9, %%r1, 1;\n setp.eq.u32 %%p2, %%r9, 0;\n @%%p2 bra EVEN;\n"
		"add.u32 %%r3, %%r3, 3;\n mul.lo.u32 %%r3, %%r3, 5;\n bra JOIN;\n"
		"EVEN:\n add.u32 %%r3, %%r3, 7;\n"
		"JOIN:\n add.u32 %%r3, %%r3, 1;\n setp.lt.u32 %%p3, %%r1, 40;\n @%%p3 add.u32 %%r3, %%r3, 100;\n");
	for (int i = 0; i < 80; i++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "add.u32 %%r3, %%r3, %d;\n", i);
	snprintf(buf + n, sizeof buf - (size_t)n,
		 "mov.u32 %%r10, %%ctaid.x;\n mad.lo.u32 %%r11, %%r10, %%r2, %%r1;\n"
		 "ld.param.u64 %%rd1, [out];\n mul.wide.u32 %%rd2, %%r11, 4;\n add.s64 %%rd3, %%rd1, %%rd2;\n"
		 "st.global.u32 [%%rd3], %%r3;\n ret;\n}\n");
	return buf;
}

/* The reference: each CTA in a fresh fe_cta (or, with recycle, in the previous CTA's, as an SM
 * reuses them: fe_cta_recycle), every instruction through fe_warp_execute (the timing model's
 * path), the warps one instruction each in turn; a warp that arrived at a barrier waits until
 * every live warp has. */
static void run_stepped(struct fe_launch *l, uint32_t n_ctas, bool recycle, uint64_t *wn, uint64_t *tn)
{
	struct sim_error err;
	uint64_t addr[WI_MAX_LANES];
	struct warp_inst wi;
	memset(&wi, 0, sizeof wi);
	wi.addr = addr;
	*wn = *tn = 0;
	struct fe_cta *c = NULL;
	for (uint32_t id = 0; id < n_ctas; id++) {
		if (recycle) {
			c = fe_cta_recycle(c, l, id, 32, 0, &err);
		} else {
			fe_cta_destroy(c);
			c = fe_cta_create(l, id, 32, 0, &err);
		}
		cr_assert_not_null(c);
		uint8_t waiting[8] = {0};
		cr_assert_leq(fe_cta_warp_count(c), 8);
		for (;;) {
			bool live = false, progress = false;
			for (uint32_t i = 0; i < fe_cta_warp_count(c); i++) {
				struct fe_warp *w = fe_cta_warp(c, i);
				if (fe_warp_done(w))
					continue;
				live = true;
				if (waiting[i])
					continue;
				cr_assert_eq(fe_warp_execute(w, &wi, &err), 0, "%s", err.msg);
				progress = true;
				(*wn)++;
				*tn += wi.n_active;
				if (wi.si->flags & WI_F_BARRIER)
					waiting[i] = 1;
			}
			if (!live)
				break;
			if (!progress)
				memset(waiting, 0, sizeof waiting);
		}
	}
	fe_cta_destroy(c);
}

Test(functional, a_turn_runs_and_counts_as_the_per_instruction_path)
{
	enum { N_CTAS = 3, N_THREADS = 112 }; /* warps of 32, 32, 32 and 16 lanes */
	struct fe_module *m = fe_t_load_str(turns_ptx());
	uint32_t grid[3] = {N_CTAS, 1, 1}, block[3] = {N_THREADS, 1, 1};
	uint32_t turn_res[N_CTAS * N_THREADS], step_res[N_CTAS * N_THREADS];
	uint64_t turn_wn = 0, turn_tn = 0, step_wn = 0, step_tn = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct fe_memory *mem = fe_memory_create();
		struct sim_error err;
		uint64_t out = fe_t_buf(mem, NULL, sizeof turn_res);
		uint8_t pbuf[8];
		memcpy(pbuf, &out, 8);
		struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, pbuf, 8, 0, &err);
		cr_assert_not_null(l, "%s", err.msg);
		if (pass == 0)
			cr_assert_eq(fe_launch_run_functional(l, &turn_wn, &turn_tn, &err), 0, "%s", err.msg);
		else
			run_stepped(l, N_CTAS, false, &step_wn, &step_tn);
		fe_t_read(mem, out, pass == 0 ? turn_res : step_res, sizeof turn_res);
		fe_launch_destroy(l);
		fe_memory_destroy(mem);
	}
	for (uint32_t t = 0; t < N_CTAS * N_THREADS; t++)
		cr_assert_eq(turn_res[t], step_res[t], "thread %u: %u, stepped %u", t, turn_res[t], step_res[t]);
	cr_assert_eq(turn_wn, step_wn);
	cr_assert_eq(turn_tn, step_tn);
	/* per warp: 11 before the loop, 4 rounds of 9, then 3 + (odd 3 | even 1) + 3 + 80 + 7;
	 * the 16-lane warp's lanes 96..111 are all at or past 40 */
	cr_assert_eq(turn_wn, (uint64_t)N_CTAS * 4 * (11 + 4 * 9 + 3 + 3 + 3 + 80 + 7) + N_CTAS * 4 * 1);
	fe_module_destroy(m);
}

/* Reads before any write: %clock64 (the CTA's warp instructions so far), %r2 (added to), the
 * thread's shared word, CC.CF (addc) and %p1 (a guard); then, past a barrier, every thread
 * writes its shared word, sets the carry and %p1, so that the next CTA in the same fe_cta finds
 * them all changed. out[4 * global thread + i] = %r2 (5), the shared word (0), the addc and
 * guarded add (0), the clock's low word. */
static const char *stale =
	HDR ".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 sh[320];\n"
	"mov.u64 %rd1, %clock64;\n mov.u32 %r1, %tid.x;\n add.u32 %r2, %r2, 5;\n"
	"mov.u32 %r3, sh;\n shl.b32 %r4, %r1, 2;\n add.u32 %r3, %r3, %r4;\n ld.shared.u32 %r5, [%r3];\n"
	"mov.u32 %r6, 0;\n addc.u32 %r6, %r6, %r6;\n @%p1 add.u32 %r6, %r6, 64;\n bar.sync 0;\n"
	"mov.u32 %r7, -1;\n st.shared.u32 [%r3], %r7;\n add.cc.u32 %r8, %r7, 1;\n setp.eq.u32 %p1, %r1, %r1;\n"
	"mov.u32 %r9, %ctaid.x;\n mov.u32 %r10, %ntid.x;\n mad.lo.u32 %r11, %r9, %r10, %r1;\n"
	"ld.param.u64 %rd2, [out];\n mul.wide.u32 %rd3, %r11, 16;\n add.s64 %rd4, %rd2, %rd3;\n"
	"cvt.u32.u64 %r8, %rd1;\n st.global.v4.u32 [%rd4], {%r2, %r5, %r6, %r8};\n ret;\n}\n";

Test(functional, a_restarted_cta_reads_what_a_fresh_one_reads)
{
	enum { N_CTAS = 4, N_THREADS = 80 }; /* warps of 32, 32 and 16 lanes */
	struct fe_module *m = fe_t_load_str(stale);
	uint32_t grid[3] = {N_CTAS, 1, 1}, block[3] = {N_THREADS, 1, 1};
	/* the functional run (one fe_cta restarted), the stepped one with fresh CTAs, with recycled */
	uint32_t res[3][N_CTAS * N_THREADS * 4];
	for (int pass = 0; pass < 3; pass++) {
		struct fe_memory *mem = fe_memory_create();
		struct sim_error err;
		uint64_t out = fe_t_buf(mem, NULL, sizeof res[pass]);
		uint8_t pbuf[8];
		memcpy(pbuf, &out, 8);
		struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, pbuf, 8, 0, &err);
		cr_assert_not_null(l, "%s", err.msg);
		uint64_t wn = 0, tn = 0;
		if (pass == 0)
			cr_assert_eq(fe_launch_run_functional(l, &wn, &tn, &err), 0, "%s", err.msg);
		else
			run_stepped(l, N_CTAS, pass == 2, &wn, &tn);
		fe_t_read(mem, out, res[pass], sizeof res[pass]);
		fe_launch_destroy(l);
		fe_memory_destroy(mem);
	}
	for (int pass = 0; pass < 3; pass++) {
		for (uint32_t c = 0; c < N_CTAS; c++) {
			for (uint32_t t = 0; t < N_THREADS; t++) {
				const uint32_t *r = &res[pass][(c * N_THREADS + t) * 4], *r0 = &res[pass][t * 4];
				cr_assert_eq(r[0], 5, "pass %d CTA %u thread %u: %%r2 %u", pass, c, t, r[0]);
				cr_assert_eq(r[1], 0, "pass %d CTA %u thread %u: shared 0x%x", pass, c, t, r[1]);
				cr_assert_eq(r[2], 0, "pass %d CTA %u thread %u: carry and %%p1 %u", pass, c, t, r[2]);
				cr_assert_eq(r[3], r0[3], "pass %d CTA %u thread %u: clock %u, CTA 0's %u", pass, c,
					     t, r[3], r0[3]);
			}
		}
	}
	/* warp 0's first instruction reads the CTA's count with itself in it, in every CTA */
	cr_assert_eq(res[0][3], 1, "%u", res[0][3]);
	/* the recycled CTAs step as the fresh ones: the same clocks */
	cr_assert_eq(memcmp(res[1], res[2], sizeof res[1]), 0);
	fe_module_destroy(m);
}
