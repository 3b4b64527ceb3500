// SPDX-License-Identifier: MIT
// Block reduction of integers: each block sums 2*blockDim consecutive elements with a shared
// tree (one barrier per level) and writes its partial sum.
extern "C" __global__ void reduce_block(const int *in, int *out, int n)
{
	extern __shared__ int s[];
	unsigned tid = threadIdx.x;
	unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
	int v = 0;
	if (i < (unsigned)n)
		v = in[i];
	if (i + blockDim.x < (unsigned)n)
		v += in[i + blockDim.x];
	s[tid] = v;
	__syncthreads();
	for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
		if (tid < st)
			s[tid] += s[tid + st];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = s[0];
}
