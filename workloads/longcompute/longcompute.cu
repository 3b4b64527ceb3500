// SPDX-License-Identifier: MIT
// Long compute phase: one load, then `iters` iterations of a chaotic logistic map and an integer
// hash (pure ALU, no memory), then one store. Few long-op registers, so one long phase.
extern "C" __global__ void long_compute(const float *in, float *out, unsigned *hash, int n,
					int iters, float r)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i], acc = 0.0f;
	unsigned h = (unsigned)i * 2654435761u;
	/* Unrolled so one basic block holds ~16 iterations: a long phase between loads. */
#pragma unroll 16
	for (int k = 0; k < iters; k++) {
		x = __fmul_rn(__fmul_rn(r, x), __fsub_rn(1.0f, x));
		acc = __fadd_rn(acc, x);
		h = (h ^ (h >> 15)) * 2246822519u + (unsigned)k;
	}
	out[i] = acc;
	hash[i] = h;
}
