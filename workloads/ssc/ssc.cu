// SPDX-License-Identifier: MIT
// Similarity score (OWL Type-1, SSC-like): score[i][j] = dot(doc i, doc j) over d integer
// features, one thread per pair, 16x16 pairs per CTA, documents read from global memory in the
// inner loop (no shared tiling): CTAs in one block row or column reread the same documents.
extern "C" __global__ void ssc_score(const int *docs, unsigned int *score, int n, int d)
{
	int i = blockIdx.y * 16 + (int)(threadIdx.x >> 4);
	int j = blockIdx.x * 16 + (int)(threadIdx.x & 15);
	const int *a = docs + i * d, *b = docs + j * d;
	unsigned int s = 0;
#pragma unroll 1
	for (int f = 0; f < d; f++)
		s += (unsigned int)(a[f] * b[f]);
	score[i * n + j] = s;
}
