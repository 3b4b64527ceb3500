// SPDX-License-Identifier: MIT
// Unequal CTA work (PRO kind): CTA b of 64 threads processes work[b] items (1..wmax, from the
// data), each a coalesced load and a few ALU operations, so CTAs on one core progress at
// different rates and finish at different times.
extern "C" __global__ void cta_work(const int *work, const unsigned int *in, unsigned int *out,
				    int wmax)
{
	int b = blockIdx.x, t = threadIdx.x;
	int items = work[b];
	unsigned int acc = 0;
#pragma unroll 1
	for (int it = 0; it < items; it++) {
		unsigned int v = in[(b * wmax + it) * 64 + t];
		acc = acc * 31u + (v ^ (v >> 5));
		acc ^= acc << 7;
	}
	out[b * 64 + t] = acc;
}
