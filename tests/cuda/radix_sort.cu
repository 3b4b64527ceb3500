// SPDX-License-Identifier: MIT
// warpsim's own test program: a stable LSD radix sort of 32-bit keys with their indices as
// values, 4 bits a pass (8 passes of three kernels: per-block digit counts with shared-memory
// atomics, one scan of all counts in dynamic shared memory, a stable scatter ranked with warp
// ballots), driven by a host loop on a stream. Checked against the host's stable sort.
// usage: radix_sort [N]   (N keys, default 3000)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define RADIX 16
#define BLOCK 128
#define WARPS (BLOCK / 32)

// counts[d * nblocks + b]: how many keys of block b have digit d (the digit-major order makes
// one exclusive scan give every block's first position for every digit)
__global__ void digit_counts(const unsigned *keys, int n, int shift, unsigned *counts)
{
	__shared__ unsigned c[RADIX];
	if (threadIdx.x < RADIX)
		c[threadIdx.x] = 0;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&c[(keys[i] >> shift) & (RADIX - 1)], 1u);
	__syncthreads();
	if (threadIdx.x < RADIX)
		counts[threadIdx.x * gridDim.x + blockIdx.x] = c[threadIdx.x];
}

// Exclusive scan of m values in place by one block: each thread sums a contiguous chunk, the
// chunk sums are scanned in dynamic shared memory (Hillis-Steele, two buffers), then each
// thread writes its chunk's prefixes.
__global__ void scan_counts(unsigned *v, int m)
{
	extern __shared__ unsigned sums[]; // 2 * blockDim.x
	int t = threadIdx.x, chunk = (m + blockDim.x - 1) / blockDim.x;
	int lo = t * chunk, hi = min(lo + chunk, m);
	unsigned s = 0;
	for (int i = lo; i < hi; i++)
		s += v[i];
	unsigned *a = sums, *b = sums + blockDim.x;
	a[t] = s;
	__syncthreads();
	for (int off = 1; off < (int)blockDim.x; off <<= 1) {
		b[t] = a[t] + (t >= off ? a[t - off] : 0u);
		__syncthreads();
		unsigned *x = a;
		a = b;
		b = x;
	}
	unsigned run = a[t] - s; // exclusive prefix of this chunk
	for (int i = lo; i < hi; i++) {
		unsigned k = v[i];
		v[i] = run;
		run += k;
	}
}

// Each key to its place: the block's first position for its digit (the scan), plus the keys
// of that digit in earlier warps of the block, plus those in earlier lanes of its warp.
__global__ void scatter(const unsigned *keys, const unsigned *vals, int n, int shift,
			const unsigned *starts, unsigned *okeys, unsigned *ovals)
{
	__shared__ unsigned warp_counts[WARPS][RADIX];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	bool valid = i < n;
	unsigned key = valid ? keys[i] : 0u, d = (key >> shift) & (RADIX - 1);
	unsigned below = (1u << lane) - 1u, rank = 0;
	for (unsigned e = 0; e < RADIX; e++) {
		unsigned m = __ballot_sync(0xffffffffu, valid && d == e);
		if (lane == 0)
			warp_counts[w][e] = __popc(m);
		if (valid && d == e)
			rank = __popc(m & below);
	}
	__syncthreads();
	if (!valid)
		return;
	for (int u = 0; u < w; u++)
		rank += warp_counts[u][d];
	unsigned pos = starts[d * gridDim.x + blockIdx.x] + rank;
	okeys[pos] = key;
	ovals[pos] = vals[i];
}

// the i-th key: 13 varying bits spread over the word, so that many keys are equal (stability
// matters) and every pass moves keys
static unsigned key_of(unsigned &s)
{
	s = s * 1664525u + 1013904223u;
	return (s >> 1) & 0xf10f00f0u;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3000;
	if (n < 1 || n > (1 << 20)) {
		fprintf(stderr, "usage: radix_sort [N], 1 <= N <= 1048576\n");
		return 2;
	}
	int nblocks = (n + BLOCK - 1) / BLOCK, m = RADIX * nblocks;
	std::vector<unsigned> hk(n), hv(n);
	unsigned seed = 12345u;
	for (int i = 0; i < n; i++) {
		hk[i] = key_of(seed);
		hv[i] = (unsigned)i;
	}
	unsigned *k[2], *v[2], *counts;
	for (int b = 0; b < 2; b++) {
		cudaMalloc(&k[b], n * sizeof(unsigned));
		cudaMalloc(&v[b], n * sizeof(unsigned));
	}
	cudaMalloc(&counts, m * sizeof(unsigned));
	cudaStream_t st;
	cudaStreamCreate(&st);
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	cudaMemcpyAsync(k[0], hk.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice, st);
	cudaMemcpyAsync(v[0], hv.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice, st);
	cudaEventRecord(t0, st);
	int cur = 0, launches = 0, scan_threads = 64;
	for (int shift = 0; shift < 32; shift += 4) {
		digit_counts<<<nblocks, BLOCK, 0, st>>>(k[cur], n, shift, counts);
		scan_counts<<<1, scan_threads, 2 * scan_threads * sizeof(unsigned), st>>>(counts, m);
		scatter<<<nblocks, BLOCK, 0, st>>>(k[cur], v[cur], n, shift, counts, k[1 - cur], v[1 - cur]);
		launches += 3;
		cur = 1 - cur;
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess) {
			printf("pass %d: %s\n", shift / 4, cudaGetErrorString(e));
			return 1;
		}
	}
	cudaEventRecord(t1, st);
	cudaMemcpyAsync(hk.data(), k[cur], n * sizeof(unsigned), cudaMemcpyDeviceToHost, st);
	cudaMemcpyAsync(hv.data(), v[cur], n * sizeof(unsigned), cudaMemcpyDeviceToHost, st);
	cudaError_t e = cudaStreamSynchronize(st);
	if (e != cudaSuccess) {
		printf("sort: %s\n", cudaGetErrorString(e));
		return 1;
	}
	float ms = 0;
	cudaEventElapsedTime(&ms, t0, t1);

	// the host's stable sort of the same keys, indices as values
	std::vector<unsigned> rk(n), order(n);
	seed = 12345u;
	for (int i = 0; i < n; i++) {
		rk[i] = key_of(seed);
		order[i] = (unsigned)i;
	}
	std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return rk[a] < rk[b]; });
	int bad = 0, dups = 0;
	for (int i = 0; i < n; i++) {
		if (hv[i] != order[i] || hk[i] != rk[order[i]])
			bad++;
		if (i && rk[order[i]] == rk[order[i - 1]])
			dups++;
	}
	printf("sorted %d keys (%d equal to their predecessor) in %d passes, %d launches, %d blocks\n", n,
	       dups, 8, launches, nblocks);
	printf("first %08x last %08x, %d out of place, simulated %s\n", hk[0], hk[n - 1], bad,
	       ms > 0 ? "time > 0" : "time 0");
	for (int b = 0; b < 2; b++) {
		cudaFree(k[b]);
		cudaFree(v[b]);
	}
	cudaFree(counts);
	cudaEventDestroy(t0);
	cudaEventDestroy(t1);
	cudaStreamDestroy(st);
	printf(bad || ms <= 0 ? "FAIL\n" : "PASS\n");
	return bad || ms <= 0 ? 1 : 0;
}
