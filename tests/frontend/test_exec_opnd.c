/* SPDX-License-Identifier: MIT */
/* Tests for frontend/exec_opnd.c: the clock registers on the functional executor (the CTA's
 * warp instructions so far); on an SM they read its cycle (tests/components/test_sm.c). */
#include "fe_test.h"

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* One warp: %clock64 at its 1st and 5th instruction, %clock at its 6th, %globaltimer at its
 * 7th; each thread stores the four values. */
static const char straight_ptx[] = HEAD
	".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<12>;\n"
	" mov.u64 %rd1, %clock64;\n add.s32 %r2, %r1, 1;\n add.s32 %r3, %r2, 1;\n"
	" add.s32 %r4, %r3, 1;\n mov.u64 %rd2, %clock64;\n mov.u32 %r5, %clock;\n"
	" mov.u64 %rd5, %globaltimer;\n"
	" ld.param.u64 %rd3, [p];\n mov.u32 %r6, %tid.x;\n mul.wide.u32 %rd4, %r6, 32;\n"
	" add.s64 %rd3, %rd3, %rd4;\n st.global.u64 [%rd3], %rd1;\n st.global.u64 [%rd3+8], %rd2;\n"
	" cvt.u64.u32 %rd6, %r5;\n st.global.u64 [%rd3+16], %rd6;\n st.global.u64 [%rd3+24], %rd5;\n"
	" exit;\n}\n";

Test(exec_opnd, functional_clock_counts_the_ctas_warp_instructions)
{
	struct fe_module *m = fe_t_load_str(straight_ptx);
	struct fe_memory *mem = fe_memory_create();
	uint64_t out = fe_t_buf(mem, NULL, 32 * 32);
	struct sim_error err;
	uint64_t wi = 0;
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, 32, 0, &out, 1, &wi, &err), 0, "%s", err.msg);
	uint64_t v[32][4];
	fe_t_read(mem, out, v, sizeof v);
	for (int t = 0; t < 32; t++) {
		/* the instruction reading it counts: 1st, 5th, 6th and 7th instruction */
		cr_assert_eq(v[t][0], 1, "thread %d: %lu", t, (unsigned long)v[t][0]);
		cr_assert_eq(v[t][1], 5);
		cr_assert_eq(v[t][2], 6);
		cr_assert_eq(v[t][3], 7); /* %globaltimer: the same count, read as nanoseconds */
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* Every thread spins until 2000 ticks of the clock passed since its first read, then stores
 * how many passed. With 4 warps, each warp's wait also sees the others' instructions: between
 * two reads of one warp lie its 4-instruction loop and at most the three others' turns (64
 * instructions each). */
static const char spin_ptx[] = HEAD
	".visible .entry k(.param .u64 p)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<8>;\n"
	" mov.u64 %rd1, %clock64;\n"
	"SPIN:\n mov.u64 %rd2, %clock64;\n sub.s64 %rd3, %rd2, %rd1;\n"
	" setp.lt.u64 %p1, %rd3, 2000;\n @%p1 bra SPIN;\n"
	" ld.param.u64 %rd4, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd5, %r1, 8;\n"
	" add.s64 %rd4, %rd4, %rd5;\n st.global.u64 [%rd4], %rd3;\n exit;\n}\n";

Test(exec_opnd, functional_clock64_spin_wait_ends)
{
	struct fe_module *m = fe_t_load_str(spin_ptx);
	struct fe_memory *mem = fe_memory_create();
	uint64_t out = fe_t_buf(mem, NULL, 128 * 8);
	struct sim_error err;
	uint64_t wi = 0;
	cr_assert_eq(fe_t_launch(m, mem, "k", 2, 128, 0, &out, 1, &wi, &err), 0, "%s", err.msg);
	uint64_t v[128];
	fe_t_read(mem, out, v, sizeof v);
	for (int t = 0; t < 128; t++)
		cr_assert(v[t] >= 2000 && v[t] < 2000 + 4 + 3 * 64, "thread %d waited %lu", t, (unsigned long)v[t]);
	/* per CTA, about 2000 instructions of waiting, then 9 per warp after its loop */
	cr_assert_lt(wi, 2 * (2000 + 4 + 3 * 64 + 4 * 10), "%lu warp instructions", (unsigned long)wi);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}
