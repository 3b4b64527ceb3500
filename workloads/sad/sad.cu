// SPDX-License-Identifier: MIT
// Sum of absolute differences for motion search (OWL Type-1, SAD-like): one CTA per 4x4 block of
// the current frame, one thread per candidate vector (dx, dy) in [-8, 7]^2. Neighbouring CTAs
// read overlapping 19x19 windows of the reference frame: inter-CTA locality in byte loads.
#define SAD_B 4
#define SAD_R 8
extern "C" __global__ void sad4x4(const unsigned char *cur, const unsigned char *ref,
				  unsigned int *sad, int w, int h)
{
	int bx = blockIdx.x, by = blockIdx.y;
	int dx = (int)(threadIdx.x & 15) - SAD_R, dy = (int)(threadIdx.x >> 4) - SAD_R;
	unsigned int s = 0;
#pragma unroll 1
	for (int i = 0; i < SAD_B; i++) {
		int cy = by * SAD_B + i;
		int ry = min(max(cy + dy, 0), h - 1);
		for (int j = 0; j < SAD_B; j++) {
			int cx = bx * SAD_B + j;
			int rx = min(max(cx + dx, 0), w - 1);
			s += (unsigned int)abs((int)cur[cy * w + cx] - (int)ref[ry * w + rx]);
		}
	}
	sad[(by * gridDim.x + bx) * 256 + threadIdx.x] = s;
}
