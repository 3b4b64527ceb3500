/* SPDX-License-Identifier: MIT */
/* frontend phase analysis (PAWS Sec III-A, IV-B1) and `ptx-info` output (fe_module_print_info). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* PAWS Fig 4: c[i] = a[i] + b[i] without a bounds check, one basic block. */
static const char *fig4 =
	HDR ".visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c)\n{\n"
	".reg .b32 %r<5>;\n.reg .b64 %rd<12>;\n.reg .f32 %f<4>;\n"
	"ld.param.u64 %rd1, [a];\n"          /*  0 const  8 */
	"ld.param.u64 %rd2, [b];\n"          /*  1 const  8 */
	"ld.param.u64 %rd3, [c];\n"          /*  2 const  8 */
	"mov.u32 %r1, %ctaid.x;\n"           /*  3 int    4 */
	"mov.u32 %r2, %ntid.x;\n"            /*  4 int    4 */
	"mov.u32 %r3, %tid.x;\n"             /*  5 int    4 */
	"mad.lo.s32 %r4, %r1, %r2, %r3;\n"   /*  6 mul    4 */
	"mul.wide.s32 %rd4, %r4, 4;\n"       /*  7 mul    4 */
	"add.s64 %rd5, %rd1, %rd4;\n"        /*  8 int    4 */
	"add.s64 %rd6, %rd2, %rd4;\n"        /*  9 int    4 */
	"ld.global.f32 %f1, [%rd5];\n"       /* 10 mem    4  long-op: %f1 */
	"ld.global.f32 %f2, [%rd6];\n"       /* 11 mem    4  long-op: %f2 */
	"add.f32 %f3, %f1, %f2;\n"           /* 12 fp32   4  reads %f1: phase 2 begins */
	"add.s64 %rd7, %rd3, %rd4;\n"        /* 13 int    4 */
	"st.global.f32 [%rd7], %f3;\n"       /* 14 mem    4 */
	"ret;\n"                             /* 15 ctrl   4 */
	"}\n";

Test(phase, paws_fig4_vector_add_has_two_phases)
{
	struct fe_module *m = fe_t_load_str(fig4);
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "vadd", &info, &err), 0);
	cr_assert_eq(info.n_insts, 16);
	/* phase 0 = pcs 0..11: 3 x 8 + 9 x 4 = 60 cycles; phase 1 = pcs 12..15: 4 x 4 = 16 */
	for (uint32_t pc = 0; pc < 16; pc++) {
		const struct wi_static *s = &info.insts[pc];
		cr_assert_eq(s->phase_id, pc < 12 ? 0u : 1u, "pc %u phase %u", pc, s->phase_id);
		cr_assert_eq(s->phase_len_cycles, pc < 12 ? 60u : 16u, "pc %u", pc);
		cr_assert_eq(s->next_phase_len_cycles, pc < 12 ? 16u : 0u, "pc %u", pc);
	}
	/* distance = latencies from the instruction to the end of its phase, itself included */
	cr_assert_eq(info.insts[0].phase_distance_cycles, 60);
	cr_assert_eq(info.insts[3].phase_distance_cycles, 36); /* 60 - 3 x 8 */
	cr_assert_eq(info.insts[11].phase_distance_cycles, 4);
	cr_assert_eq(info.insts[12].phase_distance_cycles, 16);
	cr_assert_eq(info.insts[15].phase_distance_cycles, 4);
	cr_assert(info.insts[10].flags & WI_F_LONG_LAT);
	cr_assert(!(info.insts[14].flags & WI_F_LONG_LAT)); /* stores produce no long-op register */
	fe_module_destroy(m);
}

Test(phase, a_block_start_clears_the_set_but_starts_no_phase)
{
	/* nvcc's vadd with the i < n guard: blocks [0..9], [10..20], [21 ret]; block 1 splits at
	 * pc 17 (add.f32 reads the loaded %f1/%f2); the blocks at pcs 10 and 21 start no phase
	 * (link_cfg.c phase_starts: the paper's Table II counts leave blocks out). Lengths with 4/8-cycle
	 * classes: P0 = 4 ld.param x 8 + 3 mov + mad + setp + bra (6 x 4) = 56, + cvta, mul.wide,
	 * add, cvta, add, ld, ld (7 x 4) = 84; P1 = add.f32, cvta, add, st, ret = 20 */
	struct fe_module *m = fe_t_load_file("tests/frontend/data/misc.ptx");
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "_Z4vaddPKfS0_Pfi", &info, &err), 0);
	cr_assert_eq(info.n_insts, 22);
	static const uint32_t first_pc[] = {0, 17, 22}, len[] = {84, 20};
	for (uint32_t p = 0; p < 2; p++)
		for (uint32_t pc = first_pc[p]; pc < first_pc[p + 1]; pc++) {
			cr_assert_eq(info.insts[pc].phase_id, p, "pc %u", pc);
			cr_assert_eq(info.insts[pc].phase_len_cycles, len[p], "pc %u", pc);
		}
	fe_module_destroy(m);
}

static void want_phases(const char *ptx, const uint32_t *want, uint32_t n)
{
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "k", &info, &err), 0);
	cr_assert_eq(info.n_insts, n);
	for (uint32_t pc = 0; pc < n; pc++)
		cr_assert_eq(info.insts[pc].phase_id, want[pc], "pc %u: phase %u", pc, info.insts[pc].phase_id);
	fe_module_destroy(m);
}

Test(phase, long_op_set_is_cleared_at_each_phase_start)
{
	/* Three loads of addresses known at pc 0: scheduled, all three issue together (pc 5's load
	 * goes up beside pcs 1 and 2), so the first use of load A starts a phase and clears the
	 * set, and the uses of B (pc 4) and C (pc 6) stay in that phase (PAWS IV-B1: loads issued
	 * together complete together). The atomic (it needs pc 6's sum) issues after that phase
	 * start; its result, read by the store, starts phase 2. In PTX order without scheduling
	 * pc 6 would start a phase of its own. */
	const char *ptx =
		HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [p];\n"      /* 0 */
		"ld.global.u32 %r1, [%rd1];\n"   /* 1 long: %r1 */
		"ld.global.u32 %r2, [%rd1+4];\n" /* 2 long: %r2 */
		"add.u32 %r3, %r1, 1;\n"         /* 3 reads %r1 -> phase 1, set cleared */
		"add.u32 %r4, %r2, 1;\n"         /* 4 reads %r2, no longer in the set: phase 1 */
		"ld.global.u32 %r5, [%rd1+8];\n" /* 5 long: %r5, scheduled beside 1 and 2 */
		"add.u32 %r6, %r5, %r4;\n"       /* 6 reads %r5, cleared with the others: phase 1 */
		"atom.global.add.u32 %r7, [%rd1], %r6;\n" /* 7 long: %r7 (atomics count) */
		"st.global.u32 [%rd1+12], %r7;\n" /* 8 reads %r7 -> phase 2 */
		"ret;\n}\n";
	static const uint32_t want[] = {0, 0, 0, 1, 1, 1, 1, 1, 2, 2};
	want_phases(ptx, want, 10);
}

Test(phase, loads_move_up_only_as_far_as_ptxas_could_move_them)
{
	/* pc 4's global load may not pass pc 3's global store (no alias analysis): it issues after
	 * pc 2 has started phase 1, and its use at 5 starts phase 2. Were it free to move it would
	 * issue beside pc 1 and be cleared with it. A shared store does not hold a global load back:
	 * pc 8 goes up beside pcs 4 and 6, is cleared at pc 5 with them, and its use at 9 starts
	 * nothing (held behind pc 7 it would start phase 3 there). */
	const char *ptx =
		HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n"
		".shared .align 4 .b8 s[16];\n"
		"ld.param.u64 %rd1, [p];\n"       /* 0 */
		"ld.global.u32 %r1, [%rd1];\n"    /* 1 long: %r1 */
		"add.u32 %r3, %r1, 1;\n"          /* 2 reads %r1 -> phase 1 */
		"st.global.u32 [%rd1+4], %r3;\n"  /* 3 */
		"ld.global.u32 %r5, [%rd1+8];\n"  /* 4 long, after the store */
		"add.u32 %r6, %r5, 1;\n"          /* 5 reads %r5 -> phase 2 */
		"ld.global.u32 %r7, [%rd1+12];\n" /* 6 long, up to pc 4's place */
		"st.shared.u32 [s], %r6;\n"       /* 7 */
		"ld.global.u32 %r8, [%rd1+16];\n" /* 8 long, passes the shared store */
		"add.u32 %r9, %r7, %r8;\n"        /* 9 reads %r7, %r8: cleared at pc 5 */
		"ret;\n}\n";
	static const uint32_t want[] = {0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2};
	want_phases(ptx, want, 11);
}

Test(phase, ptx_info_prints_kernels_resources_and_phases)
{
	struct fe_module *m = fe_t_load_str(fig4);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	fe_module_print_info(m, f, false, NULL);
	fclose(f);
	cr_assert(strstr(buf, "kernel vadd"), "%s", buf);
	cr_assert(strstr(buf, "params            3 (24 bytes)"), "%s", buf);
	cr_assert(strstr(buf, "instructions      16 in 1 basic blocks"), "%s", buf);
	cr_assert(strstr(buf, "phases            2, length min 16 / avg 38.0 / max 60 cycles"), "%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	fe_module_print_info(m, f, true, NULL);
	fclose(f);
	json_error_t je;
	json_t *root = json_loads(buf, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	json_t *k = json_array_get(json_object_get(root, "kernels"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "vadd");
	json_t *ph = json_object_get(k, "phases");
	cr_assert_eq(json_integer_value(json_object_get(ph, "count")), 2);
	json_t *lens = json_object_get(ph, "lengths_cycles");
	cr_assert_eq(json_integer_value(json_array_get(lens, 0)), 60);
	cr_assert_eq(json_integer_value(json_array_get(lens, 1)), 16);
	/* register estimate: most 32-bit units live at once + 2. Just before the mad (pc 6) live are
	 * %rd1..%rd3 (2 units each) and %r1..%r3: 9 units -> 11 */
	cr_assert_eq(json_integer_value(json_object_get(k, "regs_per_thread_estimate")), 11);
	json_decref(root);
	free(buf);
	fe_module_destroy(m);
}

Test(phase, phase_listing_names_first_pc_line_and_length)
{
	struct fe_module *m = fe_t_load_str(fig4);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	fe_module_print_phases(m, f);
	fclose(f);
	/* the first instruction is on line 9 (3 header lines, .entry, '{', 3 .reg lines); phase 1
	 * starts at pc 12, line 9 + 12 = 21, with 4 instructions and 16 cycles */
	cr_assert(strstr(buf, "kernel vadd: 2 phases"), "%s", buf);
	cr_assert(strstr(buf, "      0         0     9     12      60  ld.param.u64 %rd1, [a];"), "%s", buf);
	cr_assert(strstr(buf, "      1        12    21      4      16  add.f32 %f3, %f1, %f2;"), "%s", buf);
	free(buf);
	fe_module_destroy(m);
}
