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
		"ok recursive and mutually recursive calls, divergent depths, frames kept\n",
		"ok an 8 KB kernel parameter\n",
		"\nPASS\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "no '%s' in\n%s", want[i], out);
	free(out);
}

/* A recursion without end: 64 KB of saved frames a lane (here 260 calls) is the stack's limit;
 * the launch faults and the program sees cudaErrorIllegalAddress; warpsim cuda exits 1. */
Test(cuda_ptx, a_runaway_recursion_overflows_the_stack, .timeout = 120)
{
	char *out = buf(), cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/bin/ptx_more overflow", bin());
	cr_assert_eq(run_cuda(cmd, out), 1, "%s", out);
	cr_assert(strstr(out, "call stack overflow: 260 nested calls of recursive functions hold 65585 "
			 "bytes a lane (at most 65536)"), "%s", out);
	cr_assert(strstr(out, "runaway recursion: 700 cudaErrorIllegalAddress\n"), "%s", out);
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
