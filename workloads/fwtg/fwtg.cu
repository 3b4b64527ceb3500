// SPDX-License-Identifier: MIT
// Batched Walsh-Hadamard transform of 4096-element integer signals (OWL Type-1, FWT-like):
// two global-memory radix-4 passes (strides 1024 and 256, each element read and written once
// per pass) then the 8 remaining stages on 256-element chunks in shared memory.
#define FWT_N 4096
extern "C" __global__ void fwt_radix4(int *d, int stride)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x; // one radix-4 butterfly, FWT_N/4 per signal
	int sig = t / (FWT_N / 4), u = t % (FWT_N / 4);
	int base = sig * FWT_N + (u / stride) * 4 * stride + u % stride;
	int a0 = d[base], a1 = d[base + stride], a2 = d[base + 2 * stride], a3 = d[base + 3 * stride];
	int b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
	d[base] = b0 + b2;
	d[base + stride] = b1 + b3;
	d[base + 2 * stride] = b0 - b2;
	d[base + 3 * stride] = b1 - b3;
}

extern "C" __global__ void fwt_chunk256(int *d)
{
	__shared__ int s[256];
	int *p = d + blockIdx.x * 256;
	int t = threadIdx.x; // 128 threads, one pair each per stage
	s[t] = p[t];
	s[t + 128] = p[t + 128];
	__syncthreads();
	for (int st = 1; st < 256; st <<= 1) {
		int i = (t / st) * 2 * st + t % st;
		int x = s[i], y = s[i + st];
		s[i] = x + y;
		s[i + st] = x - y;
		__syncthreads();
	}
	p[t] = s[t];
	p[t + 128] = s[t + 128];
}
