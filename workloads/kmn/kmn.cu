// SPDX-License-Identifier: MIT
// k-means assignment with centroids in global memory (OWL Type-1, KMN-like): features are
// feature-major (feat[f*n + i]) and reread for every centroid, centroids are read by every CTA.
// Squared distances are integers; ties keep the lowest centroid.
extern "C" __global__ void kmn_assign(const int *feat, const int *clusters, int *member, int n,
				      int k, int d)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned int best_d = 0xffffffffu;
	int best = 0;
#pragma unroll 1
	for (int c = 0; c < k; c++) {
		unsigned int dist = 0;
#pragma unroll 1
		for (int f = 0; f < d; f++) {
			int df = feat[f * n + i] - clusters[c * d + f];
			dist += (unsigned int)(df * df);
		}
		if (dist < best_d) {
			best_d = dist;
			best = c;
		}
	}
	member[i] = best;
}
