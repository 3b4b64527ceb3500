// SPDX-License-Identifier: MIT
// warpsim's own test program: k-means clustering of 2D points. Each round: the centroids go to
// constant memory (cudaMemcpyToSymbol from the device), one kernel labels each point with its
// nearest centroid and counts changes, one sums the clusters (shared-memory then global
// atomics), one divides; the host loops until no label changes. Coordinates are whole numbers,
// so every sum is exact and the host, doing the same in the same order of rounding, must agree
// bit for bit on every label and centroid.
// usage: kmeans [POINTS [K]]   (default 4096 points, 8 clusters; K <= 16)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define KMAX 16
#define BLOCK 256

__constant__ float2 c_centroids[KMAX];

// squared distance without contraction into fma, so that the host computes the same value
__device__ __host__ inline float dist2(float px, float py, float cx, float cy)
{
#ifdef __CUDA_ARCH__
	float dx = __fsub_rn(px, cx), dy = __fsub_rn(py, cy);
	return __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));
#else
	volatile float dx = px - cx, dy = py - cy, xx = dx * dx, yy = dy * dy;
	return xx + yy;
#endif
}

__global__ void assign(const float2 *pts, int n, int k, int *label, int *changed)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float2 p = pts[i];
	int best = 0;
	float bd = dist2(p.x, p.y, c_centroids[0].x, c_centroids[0].y);
	for (int c = 1; c < k; c++) {
		float d = dist2(p.x, p.y, c_centroids[c].x, c_centroids[c].y);
		if (d < bd) {
			bd = d;
			best = c;
		}
	}
	if (label[i] != best) {
		label[i] = best;
		atomicAdd(changed, 1);
	}
}

// per-cluster sums of x, y and counts: each block in shared memory first, then once per
// cluster into global memory
__global__ void accumulate(const float2 *pts, const int *label, int n, int k, float *sx, float *sy,
			   int *cnt)
{
	__shared__ float bx[KMAX], by[KMAX];
	__shared__ int bc[KMAX];
	if (threadIdx.x < k) {
		bx[threadIdx.x] = 0.0f;
		by[threadIdx.x] = 0.0f;
		bc[threadIdx.x] = 0;
	}
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int c = label[i];
		atomicAdd(&bx[c], pts[i].x);
		atomicAdd(&by[c], pts[i].y);
		atomicAdd(&bc[c], 1);
	}
	__syncthreads();
	if (threadIdx.x < k && bc[threadIdx.x]) {
		atomicAdd(&sx[threadIdx.x], bx[threadIdx.x]);
		atomicAdd(&sy[threadIdx.x], by[threadIdx.x]);
		atomicAdd(&cnt[threadIdx.x], bc[threadIdx.x]);
	}
}

// the new centroids (an empty cluster keeps its old one)
__global__ void divide(const float *sx, const float *sy, const int *cnt, int k, float2 *cent)
{
	int c = threadIdx.x;
	if (c < k && cnt[c])
		cent[c] = make_float2(__fdiv_rn(sx[c], (float)cnt[c]), __fdiv_rn(sy[c], (float)cnt[c]));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4096, k = argc > 2 ? atoi(argv[2]) : 8;
	if (n < 1 || n > 16384 || k < 1 || k > KMAX || k > n) {
		// 16384 points of coordinates below 1024 keep every sum below 2^24: exact in float
		fprintf(stderr, "usage: kmeans [POINTS [K]], 1 <= K <= 16, K <= POINTS <= 16384\n");
		return 2;
	}
	std::vector<float2> hp(n);
	unsigned s = 7u;
	for (int i = 0; i < n; i++) {
		// k blobs around whole-number centres, whole-number coordinates in [0, 1024)
		s = s * 1103515245u + 12345u;
		int blob = (s >> 16) % k;
		s = s * 1103515245u + 12345u;
		int ox = (int)((s >> 16) % 161) - 80;
		s = s * 1103515245u + 12345u;
		int oy = (int)((s >> 16) % 161) - 80;
		hp[i] = make_float2((float)(100 + (blob * 397) % 824 + ox), (float)(100 + (blob * 613) % 824 + oy));
	}
	float2 *pts, *cent;
	float *sums;
	int *label, *counters; // counters[0..k): cluster sizes, counters[k]: labels changed
	cudaMalloc(&pts, n * sizeof(float2));
	cudaMalloc(&cent, k * sizeof(float2));
	cudaMalloc(&sums, 2 * k * sizeof(float));
	cudaMalloc(&label, n * sizeof(int));
	cudaMalloc(&counters, (k + 1) * sizeof(int));
	cudaMemcpy(pts, hp.data(), n * sizeof(float2), cudaMemcpyHostToDevice);
	cudaMemcpy(cent, hp.data(), k * sizeof(float2), cudaMemcpyHostToDevice); // first k points
	cudaMemset(label, 0xff, n * sizeof(int));                               // -1: none yet
	cudaFuncAttributes fa;
	cudaFuncGetAttributes(&fa, assign);
	int blocks = (n + BLOCK - 1) / BLOCK, rounds = 0, changed = 1, launches = 0;
	while (changed && rounds < 100) {
		cudaMemcpyToSymbol(c_centroids, cent, k * sizeof(float2), 0, cudaMemcpyDeviceToDevice);
		cudaMemset(counters, 0, (k + 1) * sizeof(int));
		cudaMemset(sums, 0, 2 * k * sizeof(float));
		assign<<<blocks, BLOCK>>>(pts, n, k, label, counters + k);
		accumulate<<<blocks, BLOCK>>>(pts, label, n, k, sums, sums + k, counters);
		divide<<<1, KMAX>>>(sums, sums + k, counters, k, cent);
		launches += 3;
		cudaMemcpy(&changed, counters + k, sizeof(int), cudaMemcpyDeviceToHost);
		rounds++;
	}
	cudaError_t e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		printf("kmeans: %s\n", cudaGetErrorString(e));
		return 1;
	}
	std::vector<int> dl(n);
	std::vector<float2> dc(k), check(k);
	cudaMemcpy(dl.data(), label, n * sizeof(int), cudaMemcpyDeviceToHost);
	cudaMemcpy(dc.data(), cent, k * sizeof(float2), cudaMemcpyDeviceToHost);
	cudaMemcpyFromSymbol(check.data(), c_centroids, k * sizeof(float2));

	// the host: the same rounds
	std::vector<int> hl(n, -1);
	std::vector<float2> hc(hp.begin(), hp.begin() + k), used(k);
	int hrounds = 0, hchanged = 1;
	while (hchanged && hrounds < 100) {
		used = hc;
		hchanged = 0;
		std::vector<double> x(k, 0.0), y(k, 0.0);
		std::vector<int> c(k, 0);
		for (int i = 0; i < n; i++) {
			int best = 0;
			float bd = dist2(hp[i].x, hp[i].y, used[0].x, used[0].y);
			for (int j = 1; j < k; j++) {
				float d = dist2(hp[i].x, hp[i].y, used[j].x, used[j].y);
				if (d < bd) {
					bd = d;
					best = j;
				}
			}
			hchanged += hl[i] != best;
			hl[i] = best;
			x[best] += hp[i].x;
			y[best] += hp[i].y;
			c[best]++;
		}
		for (int j = 0; j < k; j++)
			if (c[j]) {
				volatile float fx = (float)x[j], fy = (float)y[j], fc = (float)c[j];
				hc[j] = make_float2(fx / fc, fy / fc);
			}
		hrounds++;
	}
	int bad_labels = 0, bad_cent = 0;
	for (int i = 0; i < n; i++)
		bad_labels += dl[i] != hl[i];
	for (int j = 0; j < k; j++) {
		bad_cent += dc[j].x != hc[j].x || dc[j].y != hc[j].y;
		bad_cent += check[j].x != used[j].x || check[j].y != used[j].y; // the last round's
	}
	printf("%d points, %d clusters: %d rounds (host %d), %d launches; assign uses %d registers\n", n, k,
	       rounds, hrounds, launches, fa.numRegs);
	printf("%d labels and %d centroids differ from the host's; centroid 0 at (%.3f, %.3f)\n", bad_labels,
	       bad_cent, dc[0].x, dc[0].y);
	cudaFree(pts);
	cudaFree(cent);
	cudaFree(sums);
	cudaFree(label);
	cudaFree(counters);
	bool ok = !bad_labels && !bad_cent && rounds == hrounds && !changed;
	printf(ok ? "PASS\n" : "FAIL\n");
	return ok ? 0 : 1;
}
