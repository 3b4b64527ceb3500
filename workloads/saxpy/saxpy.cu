// SPDX-License-Identifier: MIT
// SAXPY y = alpha*x + y, grid-stride loop (each thread handles several elements).
extern "C" __global__ void saxpy(int n, float alpha, const float *x, float *y)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		y[i] = __fmaf_rn(alpha, x[i], y[i]);
}
