/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: every exported call warpsim does not implement (cuda_unsupported.def, made
 * by gen_unsupported.sh from exports.txt), so that a program importing one still loads. */
#include <stdatomic.h>
#include <stdio.h>

#include "cudart_int.h"

/* Each returns cudaErrorNotSupported (and sets the last error) every time, but names itself
 * on stderr only the first time: a program that probes a feature in a loop (Thrust and CUB
 * query attributes per call) would otherwise bury its own output. Arguments are ignored; the
 * x86-64 calling convention lets a caller pass any it likes to a function taking none, and
 * every call here returns cudaError_t (the __cuda* registration calls return nothing, so the
 * value is ignored). */
#define CR_UNSUPPORTED(name)                                                                  \
	cudaError_t name(void);                                                                  \
	cudaError_t name(void)                                                                   \
	{                                                                                        \
		static atomic_flag said = ATOMIC_FLAG_INIT;                                      \
		if (!atomic_flag_test_and_set(&said))                                            \
			fprintf(stderr, "warpsim cudart: %s: not supported by warpsim\n", #name); \
		return cr_ret(cudaErrorNotSupported);                                            \
	}

#include "cuda_unsupported.def"
