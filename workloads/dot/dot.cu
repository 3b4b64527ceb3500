// SPDX-License-Identifier: MIT
// Scalar product in two launches: per-block partial sums (grid-stride + shared tree), then one
// block reduces the partials. Block size must be 256 (shared array size, power of two).
#define DOT_THREADS 256

__device__ static float dot_block_sum(float v, float *s)
{
	int tid = threadIdx.x;
	s[tid] = v;
	__syncthreads();
	for (int st = blockDim.x / 2; st > 0; st >>= 1) {
		if (tid < st)
			s[tid] = __fadd_rn(s[tid], s[tid + st]);
		__syncthreads();
	}
	return s[0];
}

extern "C" __global__ void dot_partial(const float *a, const float *b, float *partial, int n)
{
	__shared__ float s[DOT_THREADS];
	float sum = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		sum = __fmaf_rn(a[i], b[i], sum);
	float t = dot_block_sum(sum, s);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = t;
}

extern "C" __global__ void dot_final(const float *partial, float *result, int m)
{
	__shared__ float s[DOT_THREADS];
	float sum = 0.0f;
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		sum = __fadd_rn(sum, partial[i]);
	float t = dot_block_sum(sum, s);
	if (threadIdx.x == 0)
		result[0] = t;
}
