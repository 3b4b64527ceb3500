// SPDX-License-Identifier: MIT
// 3D 7-point stencil (BAWS STN class): a CTA of 32x8 threads owns a 32x8 column of the grid and
// marches along z, staging each plane with its x/y halo in shared memory (edge warps load the
// halo) and keeping the planes below and above in registers: two barriers per plane. Cells on
// the grid's faces are copied.
#define ST_X 32
#define ST_Y 8
extern "C" __global__ void stencil7(const int *in, int *out, int nx, int ny, int nz, int c0, int c1)
{
	__shared__ int sp[ST_Y + 2][ST_X + 2];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * ST_X + tx, y = blockIdx.y * ST_Y + ty;
	int plane = nx * ny, xy = y * nx + x;
	bool face = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
	int below = in[xy], cur = in[plane + xy];
	out[xy] = below;
	for (int z = 1; z < nz - 1; z++) {
		const int *p = in + z * plane;
		int above = in[(z + 1) * plane + xy];
		sp[ty + 1][tx + 1] = cur;
		if (tx == 0)
			sp[ty + 1][0] = x > 0 ? p[xy - 1] : 0;
		if (tx == ST_X - 1)
			sp[ty + 1][ST_X + 1] = x < nx - 1 ? p[xy + 1] : 0;
		if (ty == 0)
			sp[0][tx + 1] = y > 0 ? p[xy - nx] : 0;
		if (ty == ST_Y - 1)
			sp[ST_Y + 1][tx + 1] = y < ny - 1 ? p[xy + nx] : 0;
		__syncthreads();
		int r = cur;
		if (!face)
			r = c0 * cur + c1 * (sp[ty + 1][tx] + sp[ty + 1][tx + 2] + sp[ty][tx + 1] +
					     sp[ty + 2][tx + 1] + below + above);
		out[z * plane + xy] = r;
		__syncthreads();
		below = cur;
		cur = above;
	}
	out[(nz - 1) * plane + xy] = cur;
}
