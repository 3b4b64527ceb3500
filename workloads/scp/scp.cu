// SPDX-License-Identifier: MIT
// Scalar products of many vector pairs (OWL Type-1, SCP-like): one CTA of 128 threads per pair
// of len-element integer vectors, strided partial sums and a shared-memory tree (7 barriers).
#define SCP_T 128
extern "C" __global__ void scp_dot(const int *a, const int *b, unsigned int *out, int len)
{
	__shared__ unsigned int part[SCP_T];
	const int *va = a + blockIdx.x * len, *vb = b + blockIdx.x * len;
	unsigned int s = 0;
#pragma unroll 1
	for (int e = threadIdx.x; e < len; e += SCP_T)
		s += (unsigned int)(va[e] * vb[e]);
	part[threadIdx.x] = s;
	__syncthreads();
	for (int st = SCP_T / 2; st > 0; st >>= 1) {
		if ((int)threadIdx.x < st)
			part[threadIdx.x] += part[threadIdx.x + st];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = part[0];
}
