// SPDX-License-Identifier: MIT
// Load phase then ALU phase, repeated (two-level idle-FU kind; PAWS phase kinds): each round a
// thread loads one word (grid-stride, coalesced) and runs `work` dependent hash steps on it.
// Under round-robin every warp reaches its load at about the same time, so the functional units
// idle while all wait; `work` sets the ALU phase's length.
extern "C" __global__ void phase_loop(const unsigned int *in, unsigned int *out, int rounds,
				      int work)
{
	int stride = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int acc = (unsigned int)i;
#pragma unroll 1
	for (int r = 0; r < rounds; r++) {
		unsigned int v = in[r * stride + i];
#pragma unroll 1
		for (int k = 0; k < work; k++)
			v = (v ^ (v >> 7)) * 0x9e3779b1u + (unsigned int)k;
		acc += v;
	}
	out[i] = acc;
}
