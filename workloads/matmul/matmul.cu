// SPDX-License-Identifier: MIT
// Tiled matrix multiply C = A*B (n x n, n a multiple of 16) with 16x16 shared-memory tiles and
// two barriers per tile.
#define MM_TILE 16
extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[MM_TILE][MM_TILE];
	__shared__ float tb[MM_TILE][MM_TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * MM_TILE + ty, col = blockIdx.x * MM_TILE + tx;
	float sum = 0.0f;
	for (int t = 0; t < n / MM_TILE; t++) {
		ta[ty][tx] = a[row * n + t * MM_TILE + tx];
		tb[ty][tx] = b[(t * MM_TILE + ty) * n + col];
		__syncthreads();
		for (int k = 0; k < MM_TILE; k++)
			sum = __fmaf_rn(ta[ty][k], tb[k][tx], sum);
		__syncthreads();
	}
	c[row * n + col] = sum;
}
