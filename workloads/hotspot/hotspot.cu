// SPDX-License-Identifier: MIT
// Hotspot-like 2D stencil: out = c0*t + c1*(n+s+e+w) + p over an nx x ny grid (edges clamp),
// 16x16 tiles staged in shared memory with a one-cell halo; the host swaps in/out per step.
#define HS_TILE 16
extern "C" __global__ void hotspot_step(const float *in, const float *power, float *out, int nx,
					int ny, float c0, float c1)
{
	__shared__ float s[HS_TILE + 2][HS_TILE + 2];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * HS_TILE + tx, y = blockIdx.y * HS_TILE + ty;
	int xc = min(x, nx - 1), yc = min(y, ny - 1);
	s[ty + 1][tx + 1] = in[yc * nx + xc];
	if (tx == 0)
		s[ty + 1][0] = in[yc * nx + max(xc - 1, 0)];
	if (tx == HS_TILE - 1)
		s[ty + 1][HS_TILE + 1] = in[yc * nx + min(xc + 1, nx - 1)];
	if (ty == 0)
		s[0][tx + 1] = in[max(yc - 1, 0) * nx + xc];
	if (ty == HS_TILE - 1)
		s[HS_TILE + 1][tx + 1] = in[min(yc + 1, ny - 1) * nx + xc];
	__syncthreads();
	if (x < nx && y < ny) {
		float nsum = __fadd_rn(__fadd_rn(s[ty][tx + 1], s[ty + 2][tx + 1]),
				       __fadd_rn(s[ty + 1][tx + 2], s[ty + 1][tx]));
		float v = __fmaf_rn(c1, nsum, __fmul_rn(c0, s[ty + 1][tx + 1]));
		out[y * nx + x] = __fadd_rn(v, power[y * nx + x]);
	}
}
