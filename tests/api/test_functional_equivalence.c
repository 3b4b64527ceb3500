/* SPDX-License-Identifier: MIT */
/* The functional executor (frontend/functional.c: warps in turns, no timing) and the timing
 * model (gtx480) give bit-identical memory for the same race-free kernel: fast loops and
 * per-lane semantics (integer, min, rem, cvt, f32 fma/sqrt), shared memory across a barrier,
 * divergence and reconvergence, shfl, and an atomic total. */
#include <criterion/criterion.h>
#include <string.h>

#include "include/warpsim.h"

static const char ptx[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
	" .reg .pred %p<4>;\n .reg .b32 %r<40>;\n .reg .f32 %f<8>;\n .reg .b64 %rd<16>;\n"
	" .shared .align 4 .b32 s[256];\n"
	" ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [in];\n"
	" mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
	" mad.lo.u32 %r4, %r2, %r3, %r1;\n"                       /* global thread t */
	" mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd4, %rd2, %rd3;\n ld.global.u32 %r5, [%rd4];\n"
	" mad.lo.u32 %r6, %r5, -1640531535, %r4;\n rem.u32 %r7, %r6, 13;\n"
	" shr.u32 %r8, %r5, 3;\n min.s32 %r9, %r7, %r8;\n"        /* m */
	" cvt.rn.f32.u32 %f1, %r5;\n fma.rn.f32 %f2, %f1, 0f3F000000, 0f3FA00000;\n"
	" sqrt.rn.f32 %f3, %f2;\n mov.b32 %r10, %f3;\n"           /* bits of sqrt(x/2 + 1.25) */
	" mul.wide.u32 %rd5, %r1, 4;\n mov.u64 %rd6, s;\n add.s64 %rd7, %rd6, %rd5;\n"
	" st.shared.u32 [%rd7], %r9;\n bar.sync 0;\n"
	" add.u32 %r11, %r1, 1;\n rem.u32 %r12, %r11, %r3;\n mul.wide.u32 %rd8, %r12, 4;\n"
	" add.s64 %rd9, %rd6, %rd8;\n ld.shared.u32 %r13, [%rd9];\n"   /* the neighbour's m */
	" and.b32 %r14, %r4, 1;\n setp.eq.u32 %p1, %r14, 0;\n @%p1 bra EVEN;\n"
	" add.u32 %r13, %r13, 3;\n bra.uni JOIN;\n"
	"EVEN:\n xor.b32 %r13, %r13, 7;\n"
	"JOIN:\n shfl.sync.down.b32 %r15|%p2, %r6, 1, 31, -1;\n"
	" atom.global.add.u32 %r16, [%rd1], %r9;\n"
	" mul.wide.u32 %rd10, %r4, 16;\n add.s64 %rd11, %rd1, %rd10;\n"
	" st.global.u32 [%rd11+16], %r9;\n st.global.u32 [%rd11+20], %r10;\n"
	" st.global.u32 [%rd11+24], %r13;\n st.global.u32 [%rd11+28], %r15;\n"
	" ret;\n}\n";

#define CTAS 6
#define THREADS 160                 /* 5 warps: the CTA's last warp is full, the barrier waits */
#define N (CTAS * THREADS)
#define OUT_BYTES (16 + 16 * N)     /* the atomic total, then 4 words a thread */

/* kernel 0 of ptx on a functional machine or gtx480's timing model, over ctas x threads, its
 * parameters (out, in) or (out) when in_bytes is 0; out (filled with fill first) read back */
static uint64_t launch(bool functional, const char *src, const void *in, size_t in_bytes, uint32_t ctas,
		       uint32_t threads, uint8_t fill, uint8_t *result, size_t out_bytes)
{
	static const char *const cfgs[] = {"configs/gtx480.cfg"};
	struct warpsim_options o = {.configs = cfgs, .n_configs = functional ? 0 : 1, .functional = functional};
	struct warpsim_error err;
	struct warpsim *ws = warpsim_create(&o, &err);
	cr_assert_not_null(ws, "%s", err.message);
	struct warpsim_module *m;
	cr_assert_eq(warpsim_module_load_ptx(ws, "eq.ptx", src, &m, &err), 0, "%s", err.message);
	uint64_t params[2] = {0, 0};
	cr_assert_eq(warpsim_malloc(ws, out_bytes, &params[0], &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_memset(ws, params[0], fill, out_bytes, &err), 0, "%s", err.message);
	if (in_bytes) {
		cr_assert_eq(warpsim_malloc(ws, in_bytes, &params[1], &err), 0, "%s", err.message);
		cr_assert_eq(warpsim_write(ws, params[1], in, in_bytes, &err), 0, "%s", err.message);
	}
	struct warpsim_launch l = {.grid = {ctas, 1, 1}, .block = {threads, 1, 1}, .params = params,
				   .params_bytes = in_bytes ? 16 : 8};
	struct warpsim_launch_result r;
	cr_assert_eq(warpsim_launch(m, 0, &l, &r, &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_read(ws, result, params[0], out_bytes, &err), 0, "%s", err.message);
	warpsim_destroy(ws);
	return r.warp_insts;
}

static void run(bool functional, uint8_t *result)
{
	uint32_t in[N];
	uint32_t x = 12345;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		in[i] = x;
	}
	uint64_t warp_insts = launch(functional, ptx, in, sizeof in, CTAS, THREADS, 0, result, OUT_BYTES);
	cr_assert_eq(warp_insts, (uint64_t)CTAS * (THREADS / 32) * 42, "%llu warp instructions",
		     (unsigned long long)warp_insts);
}

Test(functional_equivalence, functional_and_timing_leave_identical_memory)
{
	static uint8_t f[OUT_BYTES], t[OUT_BYTES];
	run(true, f);
	run(false, t);
	for (int i = 0; i < OUT_BYTES; i++)
		cr_assert_eq(f[i], t[i], "byte %d: functional 0x%02x, timing 0x%02x", i, f[i], t[i]);
	/* and the values are what the kernel computes: thread 0's m, and the atomic total */
	uint32_t tot, m0, sum = 0;
	memcpy(&tot, f, 4);
	memcpy(&m0, f + 16, 4);
	uint32_t x = 12345u * 1103515245u + 12345u;
	uint32_t want_m0 = (x * 2654435761u) % 13u < (x >> 3) ? (x * 2654435761u) % 13u : x >> 3;
	cr_assert_eq(m0, want_m0);
	for (int i = 0; i < N; i++) {
		uint32_t m;
		memcpy(&m, f + 16 + 16 * i, 4);
		sum += m;
	}
	cr_assert_eq(tot, sum);
}

/* A kernel that reads its shared memory, .local memory and a register before writing them, then
 * writes its CTA number + 1 there: each CTA reads zeros in both modes (the timing model starts
 * every CTA zeroed; the functional executor reuses one CTA's buffers and must zero them too). */
static const char ptx_unwritten[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry k(.param .u64 out)\n{\n"
	" .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n"
	" .shared .align 4 .b32 s[64];\n .local .align 4 .b32 loc[1];\n"
	" ld.param.u64 %rd1, [out];\n"
	" mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
	" mad.lo.u32 %r4, %r2, %r3, %r1;\n"
	" mul.wide.u32 %rd2, %r1, 4;\n mov.u64 %rd3, s;\n add.s64 %rd4, %rd3, %rd2;\n"
	" ld.shared.u32 %r5, [%rd4];\n ld.local.u32 %r6, [loc];\n add.u32 %r7, %r9, 0;\n"
	" add.u32 %r8, %r2, 1;\n st.shared.u32 [%rd4], %r8;\n st.local.u32 [loc], %r8;\n"
	" mov.u32 %r9, %r8;\n"
	" mul.wide.u32 %rd5, %r4, 12;\n add.s64 %rd6, %rd1, %rd5;\n"
	" st.global.u32 [%rd6], %r5;\n st.global.u32 [%rd6+4], %r6;\n st.global.u32 [%rd6+8], %r7;\n"
	" ret;\n}\n";

#define U_CTAS 3
#define U_THREADS 64
#define U_BYTES (12 * U_CTAS * U_THREADS)

Test(functional_equivalence, every_cta_starts_zeroed_in_both_modes)
{
	static uint8_t f[U_BYTES], t[U_BYTES];
	launch(false, ptx_unwritten, NULL, 0, U_CTAS, U_THREADS, 0xa5, t, U_BYTES);
	launch(true, ptx_unwritten, NULL, 0, U_CTAS, U_THREADS, 0xa5, f, U_BYTES);
	for (int i = 0; i < U_BYTES; i++) {
		cr_assert_eq(t[i], 0, "timing: byte %d (CTA %d) is 0x%02x", i, i / (12 * U_THREADS), t[i]);
		cr_assert_eq(f[i], 0, "functional: byte %d (CTA %d) is 0x%02x", i, i / (12 * U_THREADS), f[i]);
	}
}
