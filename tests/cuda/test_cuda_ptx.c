/* SPDX-License-Identifier: MIT */
/* The PTX of issue 32 in a real program (tests/cuda/ptx_more.cu, built by nvcc 13): bmsk as CUB
 * writes it, match.any/all.sync, recursive device functions, an 8 KB kernel parameter; a
 * runaway recursion faults as a stack overflow. The program checks each result against its
 * host's (the PTX ISA's bmsk, a host match, closed forms). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cuda_test.h"

Test(cuda_ptx, bmsk_match_recursion_and_big_parameters, .timeout = 120)
{
	char *out = buf();
	cr_assert_eq(run_prog("ptx_more", NULL, out), 0, "%s", out);
	static const char *const want[] = {
		"ok bmsk 1, 2 is 0x6\n",
		"ok bmsk.clamp and bmsk.wrap as the PTX ISA defines them\n",
		"ok match.any.sync (b32, b64) and match.all.sync with a partial member mask\n",
		"ok cudaLimitStackSize 1024 by default, 8192 as set\n",
		"ok recursive and mutually recursive calls, divergent depths, frames kept\n",
		"ok an 8 KB kernel parameter\n",
		"\nPASS\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "no '%s' in\n%s", want[i], out);
	free(out);
}

/* A recursion without end overflows the stack cudaLimitStackSize gives: endless(n, stop)'s frame
 * is its 16 bytes of .local, 24 of .param (its own two int arguments and int result, and the
 * same three of the call it makes) and 16 (FE_FRAME_LINK_BYTES): 56 bytes, as ptxas -v says; CUDA's
 * default 1,024 bytes hold 18 calls (the 19th needs 1,064), 4,096 hold 73 (the 74th needs
 * 4,144). The launch faults and the program sees cudaErrorIllegalAddress; warpsim cuda exits 1. */
Test(cuda_ptx, a_runaway_recursion_overflows_the_stack, .timeout = 120)
{
	char *out = buf(), cmd[1024];
	static const struct { const char *arg, *msg; } runs[] = {
		{"", "call stack overflow: 19 nested calls of recursive functions need about 1064 bytes of "
		     "stack a thread (cudaLimitStackSize is 1024)"},
		{" 4096", "call stack overflow: 74 nested calls of recursive functions need about 4144 bytes "
			  "of stack a thread (cudaLimitStackSize is 4096)"}};
	for (size_t i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/bin/ptx_more overflow%s",
			 bin(), runs[i].arg);
		cr_assert_eq(run_cuda(cmd, out), 1, "%s", out);
		cr_assert(strstr(out, runs[i].msg), "%s", out);
		cr_assert(strstr(out, "runaway recursion: 700 cudaErrorIllegalAddress\n"), "%s", out);
	}
	free(out);
}

/* Thrust's sort (CUB's radix sort, whose PTX holds bmsk: loading it failed before) at two
 * sizes: 2000 keys, one block-level sort; 100000, the onesweep radix sort's six launches. */
Test(cuda_ptx, thrust_sort, .timeout = 300)
{
	char *out = buf(), cmd[1024];
	static const struct { const char *n; const char *launches; } runs[] = {
		{"2000", "warpsim cuda: 1 kernel launches, "}, {"100000", "warpsim cuda: 6 kernel launches, "}};
	for (size_t i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/bin/thrust_sort %s",
			 bin(), runs[i].n);
		cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
		cr_assert(strstr(out, "keys sorted, 0 out of place\nPASS\n"), "%s", out);
		cr_assert(strstr(out, runs[i].launches), "%s", out);
	}
	free(out);
}

/* wmma (nvcuda::wmma as nvcc writes it for sm_75): GEMMs of three shapes, f32 and f16
 * accumulators, row and column layouts, element-wise code on fragments, a fragment loaded from
 * shared memory, s8 products: each result checked against the host's by the program (exact on
 * integer inputs, 1e-6 relative on random halves). */
Test(cuda_ptx, wmma_matrix_products_match_the_host, .timeout = 120)
{
	char *out = buf(), cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/bin/wmma", bin());
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	static const char *const want[] = {
		"ok f16 GEMM 64x48x64 into f32, scaled by 2 in the fragment, exact\n",
		"ok A negated element-wise in its fragments\n",
		"ok random halves 64x64x128 within 1e-6\n",
		"ok m16n16k16 f16 accumulator, col x row layouts, A from shared memory\n",
		"ok m32n8k16 f16 accumulator\n", "ok m8n32k16 f16 accumulator\n",
		"ok s8 x s8 + s32 -> s32, m16n16k16\n", "\nPASS\n", "warpsim cuda: 7 kernel launches, ",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "no '%s' in\n%s", want[i], out);
	free(out);
}
