// SPDX-License-Identifier: MIT
// Sparse matrix-vector product, CSR, one thread per row (scalar kernel): gathers from x.
extern "C" __global__ void spmv_csr(int n, const int *row_ptr, const int *cols, const float *vals,
				    const float *x, float *y)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n)
		return;
	float s = 0.0f;
	for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++)
		s = __fmaf_rn(vals[e], x[cols[e]], s);
	y[r] = s;
}
