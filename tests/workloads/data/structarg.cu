// SPDX-License-Identifier: MIT
// Test kernel for struct-by-value arguments: y[i] = alpha * x[i] for i < n, all from a struct.
struct scale_args {
	float alpha;
	int n;
	const float *x;
};
extern "C" __global__ void scale_struct(struct scale_args p, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		y[i] = __fmul_rn(p.alpha, p.x[i]);
}
