// SPDX-License-Identifier: MIT
// Bucket sort: scatter keys into fixed-capacity buckets (binary search over splitters in
// constant memory, slot by global atomic), then one thread insertion-sorts each bucket; both
// steps have data-dependent trip counts. Up to 1024 buckets (bucketsort1k.cfg).
#define BK_MAX_BUCKETS 1024
__constant__ unsigned splitters[BK_MAX_BUCKETS]; /* exclusive upper bounds, ascending */

extern "C" __global__ void bucket_scatter(const unsigned *keys, int n, int nb, int cap,
					  unsigned *buckets, unsigned *counts)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned k = keys[i];
	int lo = 0, hi = nb - 1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (k < splitters[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	unsigned slot = atomicAdd(&counts[lo], 1u);
	if (slot < (unsigned)cap)
		buckets[lo * cap + slot] = k;
}

extern "C" __global__ void bucket_local_sort(unsigned *buckets, const unsigned *counts, int nb,
					     int cap)
{
	int b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= nb)
		return;
	unsigned m = min(counts[b], (unsigned)cap);
	unsigned *d = buckets + b * cap;
	for (unsigned j = 1; j < m; j++) {
		unsigned v = d[j];
		int p = (int)j - 1;
		while (p >= 0 && d[p] > v) {
			d[p + 1] = d[p];
			p--;
		}
		d[p + 1] = v;
	}
}
