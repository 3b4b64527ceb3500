// SPDX-License-Identifier: MIT
// The test programs' checks: each prints "ok WHAT" or "FAIL WHAT (line N)" and returns 1 from
// main at the first failure; test_cuda_programs.c reads these lines.
#ifndef WARPSIM_TESTS_CUDA_CHECK_CUH
#define WARPSIM_TESTS_CUDA_CHECK_CUH

#include <cstdio>

#define CHECK(cond, what)                                                              \
	do {                                                                           \
		if (!(cond)) {                                                         \
			printf("FAIL %s (line %d)\n", what, __LINE__);                  \
			return 1;                                                      \
		}                                                                      \
		printf("ok %s\n", what);                                               \
	} while (0)
#define CU(call) CHECK((call) == cudaSuccess, #call)

#endif
