// SPDX-License-Identifier: MIT
// 256-bin histogram of bytes: per-block table updated with shared-memory atomics, merged into
// the global histogram with global atomics.
#define HIST_BINS 256
extern "C" __global__ void histogram256(const unsigned char *data, unsigned *hist, int n)
{
	__shared__ unsigned s[HIST_BINS];
	for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
		s[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&s[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
		if (s[b])
			atomicAdd(&hist[b], s[b]);
}
