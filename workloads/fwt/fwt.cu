// SPDX-License-Identifier: MIT
// Fast Walsh-Hadamard transform of independent 1024-element chunks, one chunk per block of 512
// threads in shared memory: ten butterfly stages, a barrier after each.
#define FWT_N 1024
extern "C" __global__ void fwt_chunk(float *data)
{
	__shared__ float s[FWT_N];
	float *d = data + blockIdx.x * FWT_N;
	int t = threadIdx.x;
	s[t] = d[t];
	s[t + FWT_N / 2] = d[t + FWT_N / 2];
	__syncthreads();
	for (int h = 1; h < FWT_N; h <<= 1) {
		int i = (t / h) * 2 * h + (t % h);
		float x = s[i], y = s[i + h];
		s[i] = __fadd_rn(x, y);
		s[i + h] = __fsub_rn(x, y);
		__syncthreads();
	}
	d[t] = s[t];
	d[t + FWT_N / 2] = s[t + FWT_N / 2];
}
