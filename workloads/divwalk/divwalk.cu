// SPDX-License-Identifier: MIT
// Divergent table walk (large-warp kind: CTAs of 256 threads): each thread takes 1..32 steps
// (from its seed), each step loads a table entry and takes one of two ALU paths on its low bit,
// so lanes differ both in trip count and in path, with compute between the loads.
extern "C" __global__ void div_walk(const unsigned int *seed, const unsigned int *table,
				    unsigned int *out, int n, int mask)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned int acc = seed[i];
	int steps = (int)(acc & 31u) + 1;
	for (int k = 0; k < steps; k++) {
		unsigned int t = table[(acc >> 4) & (unsigned int)mask];
		if (t & 1u) {
			acc = acc * 3u + t;
			acc ^= acc >> 11;
			acc += (unsigned int)k;
		} else {
			acc = (acc ^ t) * 0x2545f491u;
			acc = (acc >> 3) | (acc << 29);
		}
	}
	out[i] = acc;
}
