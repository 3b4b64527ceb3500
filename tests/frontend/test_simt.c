/* SPDX-License-Identifier: MIT */
/* frontend/warp_inst.h SIMT execution: reconvergence at immediate post-dominators (masks step
 * by step), barriers with diverged warps, shfl/vote, large warps. */
#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* if/else inside a loop of 2 iterations; lanes with (tid + i) odd take the "then" side */
static const char *ifelse =
	HDR ".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"mov.u32 %r1, %tid.x;\n"          /* 0 */
	"mov.u32 %r2, 0;\n"               /* 1  i */
	"mov.u32 %r3, 0;\n"               /* 2  acc */
	"LOOP:\n"
	"add.u32 %r4, %r1, %r2;\n"        /* 3 */
	"and.b32 %r5, %r4, 1;\n"          /* 4 */
	"setp.eq.u32 %p1, %r5, 0;\n"      /* 5 */
	"@%p1 bra ELSE;\n"                /* 6 */
	"add.u32 %r3, %r3, 1;\n"          /* 7  then */
	"bra.uni JOIN;\n"                 /* 8 */
	"ELSE:\n"
	"add.u32 %r3, %r3, 10;\n"         /* 9  else */
	"JOIN:\n"
	"add.u32 %r2, %r2, 1;\n"          /* 10 */
	"setp.lt.u32 %p2, %r2, 2;\n"      /* 11 */
	"@%p2 bra LOOP;\n"                /* 12 */
	"ld.param.u64 %rd1, [out];\n"     /* 13 */
	"mul.wide.u32 %rd2, %r1, 4;\n"    /* 14 */
	"add.s64 %rd3, %rd1, %rd2;\n"     /* 15 */
	"st.global.u32 [%rd3], %r3;\n"    /* 16 */
	"ret;\n"                          /* 17 */
	"}\n";

Test(simt, if_else_in_loop_reconverges_at_the_post_dominator)
{
	struct fe_module *m = fe_t_load_str(ifelse);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 16);
	uint32_t grid[3] = {1, 1, 1}, block[3] = {4, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, &out, 8, 0, &err);
	cr_assert_not_null(l, "%s", err.msg);
	struct fe_cta *c = fe_cta_create(l, 0, 4, 0, &err);
	cr_assert_not_null(c);
	cr_assert_eq(fe_cta_warp_count(c), 1);
	struct fe_warp *w = fe_cta_warp(c, 0);
	/* Expected (pc, mask) per step. Lanes 0..3. Iteration 0: lanes 0,2 have tid+0 even and
	 * branch to ELSE (mask 0x5); 1,3 fall through first (0xa), then ELSE runs, then all meet
	 * at JOIN (pc 10). Iteration 1 swaps the sides. */
	/* mask: lanes at the pc (fe_warp_next_mask); emask: lanes that executed it, the guard
	 * applied (for a branch: the lanes that take it) */
	static const struct { uint32_t pc; uint64_t mask, emask; bool div; } steps[] = {
		{0, 0xf, 0xf, 0}, {1, 0xf, 0xf, 0}, {2, 0xf, 0xf, 0},
		{3, 0xf, 0xf, 0}, {4, 0xf, 0xf, 0}, {5, 0xf, 0xf, 0}, {6, 0xf, 0x5, 1},
		{7, 0xa, 0xa, 0}, {8, 0xa, 0xa, 0}, {9, 0x5, 0x5, 0}, {10, 0xf, 0xf, 0},
		{11, 0xf, 0xf, 0}, {12, 0xf, 0xf, 0},
		{3, 0xf, 0xf, 0}, {4, 0xf, 0xf, 0}, {5, 0xf, 0xf, 0}, {6, 0xf, 0xa, 1},
		{7, 0x5, 0x5, 0}, {8, 0x5, 0x5, 0}, {9, 0xa, 0xa, 0}, {10, 0xf, 0xf, 0},
		{11, 0xf, 0xf, 0}, {12, 0xf, 0x0, 0},
		{13, 0xf, 0xf, 0}, {14, 0xf, 0xf, 0}, {15, 0xf, 0xf, 0}, {16, 0xf, 0xf, 0}, {17, 0xf, 0xf, 0},
	};
	uint64_t addr[4];
	struct warp_inst wi;
	memset(&wi, 0, sizeof wi);
	wi.addr = addr;
	for (size_t s = 0; s < SIM_ARRAY_LEN(steps); s++) {
		uint64_t next[WI_MASK_WORDS];
		cr_assert(!fe_warp_done(w), "step %zu: warp done early", s);
		cr_assert_eq(fe_warp_pc(w), steps[s].pc, "step %zu: pc %u want %u", s, fe_warp_pc(w), steps[s].pc);
		fe_warp_next_mask(w, next);
		cr_assert_eq(next[0], steps[s].mask, "step %zu: next mask 0x%llx", s, (unsigned long long)next[0]);
		cr_assert_eq(fe_warp_next_active(w), (uint32_t)__builtin_popcountll(steps[s].mask), "step %zu", s);
		cr_assert_eq(fe_warp_execute(w, &wi, &err), 0);
		cr_assert_eq(wi.pc, steps[s].pc);
		cr_assert_eq(wi.mask[0], steps[s].emask, "step %zu: mask 0x%llx", s, (unsigned long long)wi.mask[0]);
		cr_assert_eq(wi.n_active, (uint32_t)__builtin_popcountll(steps[s].emask));
		cr_assert_eq(wi.diverged, steps[s].div, "step %zu", s);
		if (s + 1 < SIM_ARRAY_LEN(steps))
			cr_assert_eq(wi.next_pc, steps[s + 1].pc, "step %zu next_pc %u", s, wi.next_pc);
	}
	cr_assert(fe_warp_done(w));
	cr_assert_eq(fe_warp_next_active(w), 0);
	/* the store (step 26) gave each lane its own address: out + 4 * lane */
	uint32_t res[4];
	fe_t_read(mem, out, res, sizeof res);
	for (int t = 0; t < 4; t++)
		cr_assert_eq(res[t], 11); /* one "then" (+1) and one "else" (+10) each */
	fe_cta_destroy(c);
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* Warp 1 goes straight to the barrier; warp 0's odd lanes first run a 20-trip loop (divergence)
 * and reconverge before it. After the barrier each thread reads the other warp's value. */
static const char *barrier =
	HDR ".visible .entry bk(.param .u64 out)\n{\n"
	".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
	".shared .align 4 .b8 s[256];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r9, s;\nshl.b32 %r2, %r1, 2;\nadd.u32 %r3, %r9, %r2;\n"
	"mov.u32 %r4, %r1;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra STORE;\n"
	"and.b32 %r5, %r1, 1;\nsetp.eq.u32 %p2, %r5, 0;\n@%p2 bra STORE;\n"
	"mov.u32 %r6, 0;\n"
	"LOOP:\nadd.u32 %r4, %r4, 1000;\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p3, %r6, 20;\n@%p3 bra LOOP;\n"
	"STORE:\nst.shared.u32 [%r3], %r4;\n"
	"bar.sync 0;\n"
	"add.u32 %r7, %r1, 32;\nand.b32 %r7, %r7, 63;\nshl.b32 %r7, %r7, 2;\nadd.u32 %r8, %r9, %r7;\n"
	"ld.shared.u32 %r10, [%r8];\n"
	"ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;\nret;\n}\n";

static uint32_t barrier_value(uint32_t u)
{
	return (u >= 32 || !(u & 1)) ? u : u + 20 * 1000;
}

Test(simt, barrier_waits_for_a_diverged_warp)
{
	struct fe_module *m = fe_t_load_str(barrier);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 64 * 4);
	uint64_t args[1] = {out};
	cr_assert_eq(fe_t_launch(m, mem, "bk", 1, 64, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t res[64];
	fe_t_read(mem, out, res, sizeof res);
	for (uint32_t t = 0; t < 64; t++)
		cr_assert_eq(res[t], barrier_value((t + 32) % 64), "thread %u: %u", t, res[t]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(simt, barrier_arrival_order_step_by_step)
{
	struct fe_module *m = fe_t_load_str(barrier);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 64 * 4);
	uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "bk", grid, block, 0, &out, 8, 0, &err);
	struct fe_cta *c = fe_cta_create(l, 0, 32, 0, &err);
	cr_assert_eq(fe_cta_warp_count(c), 2);
	uint64_t addr[32];
	struct warp_inst wi = {.addr = addr};
	/* warp 1: pcs 0..6 (branch taken, uniform), 15 store, 16 bar: 9 instructions */
	struct fe_warp *w1 = fe_cta_warp(c, 1);
	int n1 = 0;
	do {
		cr_assert_eq(fe_warp_execute(w1, &wi, &err), 0);
		n1++;
		cr_assert(!wi.diverged);
	} while (!(wi.si->flags & WI_F_BARRIER));
	cr_assert_eq(n1, 9);
	cr_assert_eq(wi.pc, 16);
	cr_assert_eq(wi.mask[0], 0xffffffffull);
	/* warp 0: diverges at pc 9 (even lanes jump to STORE), odd lanes loop 20 times:
	 * 0..9 (10), mov at 10 (1), 20 x 4 loop instructions (80), then the even lanes' STORE
	 * is the reconvergence point: store + bar = 2 -> 93 instructions */
	struct fe_warp *w0 = fe_cta_warp(c, 0);
	int n0 = 0, divs = 0;
	uint64_t loop_mask = 0;
	do {
		cr_assert_eq(fe_warp_execute(w0, &wi, &err), 0);
		n0++;
		divs += wi.diverged;
		if (wi.pc == 12)
			loop_mask = wi.mask[0];
	} while (!(wi.si->flags & WI_F_BARRIER));
	cr_assert_eq(divs, 1);
	cr_assert_eq(loop_mask, 0xaaaaaaaaull); /* odd lanes only in the loop */
	cr_assert_eq(n0, 93);
	cr_assert_eq(wi.mask[0], 0xffffffffull); /* reconverged before the barrier */
	fe_cta_destroy(c);
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* shfl up/down/bfly/idx and vote all/any/uni/ballot inside a branch taken by lanes 0..15 */
static const char *warpsync =
	HDR ".visible .entry ws(.param .u64 out)\n{\n"
	".reg .pred %p<6>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n"
	"mov.u32 %r1, %tid.x;\nmul.lo.u32 %r2, %r1, 10;\n"
	"shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, -1;\n"
	"shfl.sync.down.b32 %r4|%p2, %r2, 2, 31, -1;\n"
	"shfl.sync.bfly.b32 %r5, %r2, 1, 31, -1;\n"
	"shfl.sync.idx.b32 %r6, %r2, 7, 31, -1;\n"
	"selp.u32 %r7, 1, 0, %p1;\nselp.u32 %r8, 1, 0, %p2;\n"
	"mov.u32 %r9, 0;\nmov.u32 %r10, 0;\n"
	"setp.ge.u32 %p3, %r1, 16;\n@%p3 bra SKIP;\n"
	"setp.lt.u32 %p4, %r1, 4;\n"
	"vote.sync.ballot.b32 %r9, %p4, 65535;\n"
	"vote.sync.any.pred %p5, %p4, 65535;\nselp.u32 %r10, 1, 0, %p5;\n"
	"vote.sync.all.pred %p5, %p4, 65535;\nselp.u32 %r11, 2, 0, %p5;\nadd.u32 %r10, %r10, %r11;\n"
	"vote.sync.uni.pred %p5, %p4, 65535;\nselp.u32 %r11, 4, 0, %p5;\nadd.u32 %r10, %r10, %r11;\n"
	"SKIP:\n"
	"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
	"st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r10};\nret;\n}\n";

Test(simt, shfl_and_vote)
{
	struct fe_module *m = fe_t_load_str(warpsync);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 32 * 32);
	uint64_t args[1] = {out};
	cr_assert_eq(fe_t_launch(m, mem, "ws", 1, 32, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t r[32][8];
	fe_t_read(mem, out, r, sizeof r);
	for (uint32_t t = 0; t < 32; t++) {
		/* up 1: lane 0 keeps its own value (p false); down 2: lanes 30,31 keep theirs */
		cr_assert_eq(r[t][0], t >= 1 ? (t - 1) * 10 : 0, "lane %u up", t);
		cr_assert_eq(r[t][1], t + 2 <= 31 ? (t + 2) * 10 : t * 10, "lane %u down", t);
		cr_assert_eq(r[t][2], (t ^ 1) * 10, "lane %u bfly", t);
		cr_assert_eq(r[t][3], 70, "lane %u idx", t);
		cr_assert_eq(r[t][4], t >= 1);
		cr_assert_eq(r[t][5], t + 2 <= 31);
		/* lanes 0..15 active in the branch, 0..3 vote true: ballot 0xf, any yes, all no, uni no */
		cr_assert_eq(r[t][6], t < 16 ? 0xfu : 0u, "lane %u ballot", t);
		cr_assert_eq(r[t][7], t < 16 ? 1u : 0u, "lane %u votes", t);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(simt, large_warps_run_all_lanes_in_one_instruction)
{
	struct fe_module *m = fe_t_load_str(ifelse);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 4 * 200);
	uint32_t grid[3] = {1, 1, 1}, block[3] = {200, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, &out, 8, 0, &err);
	/* warp size 128: 200 threads -> 2 warps, the second with 72 live lanes */
	struct fe_cta *c = fe_cta_create(l, 0, 128, 0, &err);
	cr_assert_eq(fe_cta_warp_count(c), 2);
	uint64_t addr[128];
	struct warp_inst wi = {.addr = addr};
	struct fe_warp *w = fe_cta_warp(c, 1);
	cr_assert_eq(fe_warp_execute(w, &wi, &err), 0);
	cr_assert_eq(wi.n_lanes, 128);
	cr_assert_eq(wi.n_active, 72);
	cr_assert_eq(wi.mask[0], ~0ull);
	cr_assert_eq(wi.mask[1], (1ull << 8) - 1);
	while (!fe_warp_done(w)) {
		cr_assert_eq(fe_warp_execute(w, &wi, &err), 0);
		if (wi.si->mem_kind == WI_MEM_STORE) {
			cr_assert_eq(wi.access_bytes, 4);
			cr_assert_eq(addr[5], out + 4 * (128 + 5)); /* lane 5 of warp 1 is thread 133 */
		}
	}
	fe_cta_destroy(c);
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* A .func returning from two places on divergent paths plus a guarded early "@%p ret", and a
 * kernel whose lanes exit at different points ("@%p exit" and exit on one side of a branch). */
static const char *rets =
	HDR ".func (.param .b32 r) f(.param .b32 x)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<6>;\n"
	"ld.param.b32 %r1, [x];\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"mov.u32 %r2, 500;\n"
	"@%p1 st.param.b32 [r], %r2;\n"
	"@%p1 ret;\n"                       /* lane with x == 0 returns early */
	"and.b32 %r3, %r1, 1;\n"
	"setp.eq.u32 %p2, %r3, 0;\n"
	"@%p2 bra EVEN;\n"
	"mul.lo.u32 %r4, %r1, 3;\n"
	"st.param.b32 [r], %r4;\n"
	"ret;\n"                            /* odd x: 3x */
	"EVEN:\n"
	"add.u32 %r4, %r1, 100;\n"
	"st.param.b32 [r], %r4;\n"
	"ret;\n"                            /* even x: x + 100 */
	"}\n"
	".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"mov.u32 %r1, %tid.x;\n"
	"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 res;\n"
	"  call.uni (res), f, (a); ld.param.b32 %r2, [res]; }\n"
	"st.global.u32 [%rd3], %r2;\n"
	"setp.eq.u32 %p1, %r1, 5;\n"
	"@%p1 exit;\n"                      /* lane 5 leaves here */
	"setp.lt.u32 %p2, %r1, 3;\n"
	"@%p2 bra LOW;\n"
	"add.u32 %r3, %r2, 1000;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"exit;\n"                           /* lanes >= 3 (but 5) leave here */
	"LOW:\n"
	"add.u32 %r3, %r2, 2000;\n"
	"st.global.u32 [%rd3], %r3;\n"
	"ret;\n"                            /* ret from the entry ends lanes 0..2 */
	"}\n";

Test(simt, divergent_returns_and_exits)
{
	struct fe_module *m = fe_t_load_str(rets);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint64_t out = fe_t_buf(mem, NULL, 8 * 4);
	uint64_t args[1] = {out};
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, 8, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t r[8];
	fe_t_read(mem, out, r, sizeof r);
	/* f(0) = 500, f(odd) = 3x, f(even) = x + 100; then lanes < 3 add 2000, lane 5 stops,
	 * the others add 1000 */
	static const uint32_t want[8] = {2500, 2003, 2102, 1009, 1104, 15, 1106, 1021};
	for (int t = 0; t < 8; t++)
		cr_assert_eq(r[t], want[t], "lane %d: %u want %u", t, r[t], want[t]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(simt, body_without_ret_ends_at_the_closing_brace)
{
	/* the branch target END labels the closing brace: an implicit ret is appended (pc 5) */
	const char *ptx = HDR ".visible .entry k(.param .u64 out)\n{\n"
		".reg .pred %p<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
		"mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra END;\n"
		"ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r1;\nEND:\n}\n";
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "k", &info, &err), 0);
	cr_assert_eq(info.n_insts, 6);
	cr_assert(info.insts[5].flags & WI_F_BRANCH); /* ret */
	struct fe_memory *mem = fe_memory_create();
	uint64_t out = fe_t_buf(mem, NULL, 4);
	uint64_t args[1] = {out};
	uint64_t wi = 0;
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, 2, 0, args, 1, &wi, &err), 0, "%s", err.msg);
	uint32_t v;
	fe_t_read(mem, out, &v, 4);
	cr_assert_eq(v, 1); /* thread 1 stored its id; thread 0 skipped the store */
	/* one warp: pcs 0,1,2 (diverges), 3,4 for lane 1, then 5 (ret) reconverged = 6 */
	cr_assert_eq(wi, 6);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* Nested divergent branches five deep: the SIMT stack grows past the entries kept inside the
 * warp (FE_SIMT_INLINE) onto the heap and back. Each lane adds 1 << i for every bit i of its
 * id that is set while all lower bits are set, and 100 * (level + 1) at each join it reaches. */
static const char *nested =
	HDR ".visible .entry k(.param .u64 out)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
	"and.b32 %r3, %r1, 1;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra J0;\nadd.u32 %r2, %r2, 1;\n"
	"and.b32 %r3, %r1, 2;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra J1;\nadd.u32 %r2, %r2, 2;\n"
	"and.b32 %r3, %r1, 4;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra J2;\nadd.u32 %r2, %r2, 4;\n"
	"and.b32 %r3, %r1, 8;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra J3;\nadd.u32 %r2, %r2, 8;\n"
	"and.b32 %r3, %r1, 16;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra J4;\nadd.u32 %r2, %r2, 16;\n"
	"J4:\nadd.u32 %r2, %r2, 500;\n"
	"J3:\nadd.u32 %r2, %r2, 400;\n"
	"J2:\nadd.u32 %r2, %r2, 300;\n"
	"J1:\nadd.u32 %r2, %r2, 200;\n"
	"J0:\nadd.u32 %r2, %r2, 100;\n"
	"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r2;\nret;\n}\n";

Test(simt, deeply_nested_divergence_grows_the_stack)
{
	struct fe_module *m = fe_t_load_str(nested);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	const uint32_t n = 64;
	uint64_t out = fe_t_buf(mem, NULL, n * 4);
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, n, 0, &out, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t got[64];
	fe_t_read(mem, out, got, sizeof got);
	for (uint32_t t = 0; t < n; t++) {
		uint32_t want = 0, level = 0;
		while (level < 5 && ((t >> level) & 1)) {
			want += 1u << level;
			level++;
		}
		/* the joins of the levels entered, and J0 for everyone */
		for (uint32_t j = 0; j <= level && j < 5; j++)
			want += 100 * (j + 1);
		cr_assert_eq(got[t], want, "thread %u: %u, expected %u", t, got[t], want);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* The timing address of a .local access (frontend/exec_mem.c): words interleaved across the
 * CTA's threads, padded to whole warps, as GPGPU-Sim's translate_local_memaddr. 40 threads
 * (2 warps of 32: 64 padded), 8 local bytes each (2 words), CTA 1: its region starts at
 * 1 x 64 x 8 = 512 past the local window; byte 5 is word 1 (+ 1 x 4 x 64 = 256), byte 1 of
 * it; thread 35 (lane 3 of warp 1) adds 4 x 35 = 140: window + 909. Neighbouring lanes are 4
 * bytes apart, so a warp's byte store is one 128 B line (per-thread blocks of 8 bytes made
 * it 2). */
Test(simt, local_timing_addresses_interleave_words_across_threads)
{
	static const char *ptx =
		HDR ".visible .entry k()\n{\n.local .align 4 .b8 buf[8];\n.reg .b16 %h<2>;\n"
		"mov.u16 %h1, 7;\nst.local.u8 [buf+5], %h1;\nret;\n}\n";
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	uint32_t grid[3] = {2, 1, 1}, block[3] = {40, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, NULL, 0, 0, &err);
	cr_assert_not_null(l, "%s", err.msg);
	struct fe_cta *c = fe_cta_create(l, 1, 32, 0, &err);
	cr_assert_not_null(c, "%s", err.msg);
	uint64_t addr[32];
	struct warp_inst wi = {.addr = addr};
	struct fe_warp *w = fe_cta_warp(c, 1);
	bool seen = false;
	while (!fe_warp_done(w)) {
		cr_assert_eq(fe_warp_execute(w, &wi, &err), 0, "%s", err.msg);
		if (wi.si->mem_kind != WI_MEM_STORE)
			continue;
		seen = true;
		cr_assert_eq(wi.n_active, 8); /* threads 32..39 */
		cr_expect_eq(addr[3] - addr[0], 12);
		cr_expect_eq(addr[3] & 0xffffffffull, 909, "got %#llx", (unsigned long long)addr[3]);
	}
	cr_assert(seen);
	fe_cta_destroy(c);
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}
