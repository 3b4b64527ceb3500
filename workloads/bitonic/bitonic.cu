// SPDX-License-Identifier: MIT
// Bitonic sort of independent 1024-key chunks in shared memory, one chunk per block of 512
// threads (each thread owns one compare-exchange per step); 55 barrier-separated steps.
#define BS_N 1024
extern "C" __global__ void bitonic_chunk(unsigned *keys)
{
	__shared__ unsigned s[BS_N];
	unsigned *d = keys + blockIdx.x * BS_N;
	int t = threadIdx.x;
	s[t] = d[t];
	s[t + BS_N / 2] = d[t + BS_N / 2];
	__syncthreads();
	for (int k = 2; k <= BS_N; k <<= 1) {
		for (int j = k >> 1; j > 0; j >>= 1) {
			int i = 2 * j * (t / j) + (t % j);
			unsigned a = s[i], b = s[i + j];
			bool up = (i & k) == 0;
			if ((a > b) == up) {
				s[i] = b;
				s[i + j] = a;
			}
			__syncthreads();
		}
	}
	d[t] = s[t];
	d[t + BS_N / 2] = s[t + BS_N / 2];
}
