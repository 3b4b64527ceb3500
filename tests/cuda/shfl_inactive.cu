// SPDX-License-Identifier: MIT
// warpsim's own test of a shuffle whose source lanes do not take part: the last warp of a
// block reduction runs with only blockDim/32 lanes active and shuffles down from lanes beyond
// them (the pattern of the CUDA samples' reduction kernel 7). Hardware returns 0 for such
// lanes, so the sum is exact; earlier values in those lanes' registers must not leak in.
#include <cstdio>

__global__ void reduce_warps(const int *in, int *out)
{
	__shared__ int partial[32];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	int v = in[blockIdx.x * blockDim.x + tid];
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffff, v, o);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	int nwarps = blockDim.x / 32;
	// every lane now holds a large stale value from the first reduction
	unsigned mask = __ballot_sync(0xffffffff, tid < nwarps);
	if (tid < nwarps) {
		int s = partial[tid];
		for (int o = 16; o > 0; o >>= 1)
			s += __shfl_down_sync(mask, s, o);
		if (tid == 0)
			out[blockIdx.x] = s;
	}
}

int main()
{
	const int blocks = 4, threads = 256, n = blocks * threads;
	int h[n], sums[blocks];
	for (int i = 0; i < n; i++)
		h[i] = 1000 + i % 13;
	int *d_in, *d_out;
	cudaMalloc(&d_in, sizeof h);
	cudaMalloc(&d_out, sizeof sums);
	cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
	reduce_warps<<<blocks, threads>>>(d_in, d_out);
	cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost);
	int fails = 0;
	for (int b = 0; b < blocks; b++) {
		int want = 0;
		for (int i = 0; i < threads; i++)
			want += h[b * threads + i];
		printf("block %d sum %d want %d\n", b, sums[b], want);
		fails += sums[b] != want;
	}
	printf(fails ? "FAIL\n" : "PASS\n");
	return fails != 0;
}
