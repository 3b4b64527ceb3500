// SPDX-License-Identifier: MIT
// Many short phases: a chain of dependent loads, each result used at once to form the next
// address (n must be a power of two), so every iteration is a load followed by a short use.
extern "C" __global__ void short_phases(const int *data, int *out, int n, int steps)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int idx = i, acc = 0;
	for (int s = 0; s < steps; s++) {
		int v = data[idx];
		acc += v ^ s;
		idx = (idx + v + 1) & (n - 1);
	}
	out[i] = acc;
}
