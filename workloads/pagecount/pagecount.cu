// SPDX-License-Identifier: MIT
// Page-view count as map/reduce: map parses 4-word log records (page, user, time, status) and
// emits the page id of each successful view inside the time window (or -1); reduce counts the
// keys per page with a shared-memory table merged into global counts.
extern "C" __global__ void pv_map(const unsigned *records, int *keys, int n, int pages,
				  unsigned t_begin, unsigned t_end)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned *r = records + 4 * i;
	unsigned page = r[0] % pages, t = r[2], status = r[3] & 7u;
	int key = -1;
	if (status != 0 && status != 5 && t >= t_begin && t < t_end)
		key = (int)page;
	keys[i] = key;
}

extern "C" __global__ void pv_reduce(const int *keys, unsigned *counts, int n, int pages)
{
	extern __shared__ unsigned table[];
	for (int p = threadIdx.x; p < pages; p += blockDim.x)
		table[p] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		int k = keys[i];
		if (k >= 0)
			atomicAdd(&table[k], 1u);
	}
	__syncthreads();
	for (int p = threadIdx.x; p < pages; p += blockDim.x)
		if (table[p])
			atomicAdd(&counts[p], table[p]);
}
