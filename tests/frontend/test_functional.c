/* SPDX-License-Identifier: MIT */
/* frontend/functional.c: a launch's CTAs run one after another in one reused fe_cta
 * (fe_cta_restart); each CTA starts from its own ids, a fresh SIMT stack (after a CTA whose
 * stack grew onto the heap), its partial last warp's mask and fresh bar.red counts. */
#include "fe_test.h"

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
