// SPDX-License-Identifier: MIT
// Matrix transpose out = in^T (h rows x w columns in, w x h out; both multiples of 16), two ways:
// naive (coalesced reads, each warp's stores strided by h floats: a store per line) and tiled
// through a padded shared-memory tile (coalesced both ways). Write-heavy: every output line is
// written piecewise by several CTAs, which a write-back L2 must merge.
#define TR_TILE 16
extern "C" __global__ void transpose_naive(const float *in, float *out, int w, int h)
{
	int x = blockIdx.x * TR_TILE + threadIdx.x;
	int y = blockIdx.y * TR_TILE + threadIdx.y;
	out[x * h + y] = in[y * w + x];
}

extern "C" __global__ void transpose_tiled(const float *in, float *out, int w, int h)
{
	__shared__ float tile[TR_TILE][TR_TILE + 1]; // +1: column reads hit 16 different banks
	int x = blockIdx.x * TR_TILE + threadIdx.x;
	int y = blockIdx.y * TR_TILE + threadIdx.y;
	tile[threadIdx.y][threadIdx.x] = in[y * w + x];
	__syncthreads();
	x = blockIdx.y * TR_TILE + threadIdx.x;
	y = blockIdx.x * TR_TILE + threadIdx.y;
	out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
