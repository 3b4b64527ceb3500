// SPDX-License-Identifier: MIT
// ELL sparse matrix-vector product (OWL Type-1, SPMV-like): one thread per row, rows of 1..k
// entries stored entry-major (coalesced), banded columns (row + offset, wrapped at n, a power of
// two) so x is gathered near the diagonal and shared by neighbouring CTAs.
extern "C" __global__ void spmv_ell(const int *rowlen, const int *off, const int *val, const int *x,
				    int *y, int n)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n)
		return;
	int len = rowlen[r], s = 0;
#pragma unroll 1
	for (int e = 0; e < len; e++) {
		int c = (r + off[e * n + r]) & (n - 1);
		s += val[e * n + r] * x[c];
	}
	y[r] = s;
}
