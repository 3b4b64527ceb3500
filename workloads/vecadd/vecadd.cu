// SPDX-License-Identifier: MIT
// Vector add: one global load pair and one store per thread; memory streaming baseline.
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = __fadd_rn(a[i], b[i]);
}
