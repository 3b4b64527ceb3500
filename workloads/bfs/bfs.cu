// SPDX-License-Identifier: MIT
// Level-synchronous BFS over a CSR graph: one thread per vertex; the host relaunches until no
// vertex changed (the flag clears). Irregular, data-dependent loads and divergence.
extern "C" __global__ void bfs_step(const int *row_ptr, const int *cols, int *level, int cur,
				    int n, int *changed)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || level[v] != cur)
		return;
	int end = row_ptr[v + 1];
	for (int e = row_ptr[v]; e < end; e++) {
		int u = cols[e];
		if (level[u] < 0) {
			// Every writer stores the same value, so the race is benign.
			level[u] = cur + 1;
			*changed = 1;
		}
	}
}
