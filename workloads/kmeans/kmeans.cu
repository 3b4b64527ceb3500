// SPDX-License-Identifier: MIT
// k-means assignment step: each thread finds the nearest centroid (constant memory) of one
// point. Points are feature-major (points[f*n + i]) so loads coalesce.
#define KM_MAX_K 16
#define KM_MAX_D 8
__constant__ float centroids[KM_MAX_K * KM_MAX_D];

extern "C" __global__ void kmeans_assign(const float *points, int *membership, int n, int k, int d)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float best = 3.0e38f;
	int best_c = 0;
	for (int c = 0; c < k; c++) {
		float dist = 0.0f;
		for (int f = 0; f < d; f++) {
			float df = __fsub_rn(points[f * n + i], centroids[c * d + f]);
			dist = __fmaf_rn(df, df, dist);
		}
		if (dist < best) {
			best = dist;
			best_c = c;
		}
	}
	membership[i] = best_c;
}
