// SPDX-License-Identifier: MIT
// Bucket sort: scatter keys into fixed-capacity buckets (binary search over splitters in
// constant memory, slot by global atomic), then one thread insertion-sorts each bucket; both
// steps have data-dependent trip counts. Up to 4096 buckets (bucketsort1k.cfg).
#define BK_MAX_BUCKETS 4096
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

/* The sort of the large-warp paper's kind (002 Table 2: divergent, compute bound, its data on
 * chip): a CTA copies its buckets into shared memory with coalesced loads, each thread
 * insertion-sorts its own bucket there (a per-thread private memory, as the paper's core has),
 * and the CTA copies them back. Key k of the CTA's bucket t lies at slices[k * 256 + (t ^ k)]: the
 * copies (one bucket's keys across a row's lanes) and the sorts (one key slot across buckets)
 * both hit 32 distinct banks. Needs cap <= BK_PRIV_KEYS and CTAs of at most 256 threads. */
#define BK_PRIV_KEYS 32
extern "C" __global__ void bucket_private_sort(unsigned *buckets, const unsigned *counts, int nb,
					       int cap)
{
	__shared__ unsigned slices[BK_PRIV_KEYS * 256];
	int base = blockIdx.x * blockDim.x;
	int nt = min((int)blockDim.x, nb - base);
	unsigned *d = buckets + (size_t)base * cap;
	for (int g = threadIdx.x; g < nt * cap; g += blockDim.x) {
		int t = g / cap, k = g % cap;
		slices[k * 256 + (t ^ k)] = d[g];
	}
	__syncthreads();
	int t = threadIdx.x;
	if (t < nt) {
		int m = (int)min(counts[base + t], (unsigned)cap);
		for (int j = 1; j < m; j++) {
			unsigned v = slices[j * 256 + (t ^ j)];
			int p = j - 1;
			while (p >= 0 && slices[p * 256 + (t ^ p)] > v) {
				slices[(p + 1) * 256 + (t ^ (p + 1))] = slices[p * 256 + (t ^ p)];
				p--;
			}
			slices[(p + 1) * 256 + (t ^ (p + 1))] = v;
		}
	}
	__syncthreads();
	for (int g = threadIdx.x; g < nt * cap; g += blockDim.x) {
		int t2 = g / cap, k = g % cap;
		d[g] = slices[k * 256 + (t2 ^ k)];
	}
}
