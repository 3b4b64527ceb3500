// SPDX-License-Identifier: MIT
// Inverted index (OWL Type-1, IIX-like): each thread scans one document byte by byte (a warp
// touches 32 lines per load, each thread its own); a byte below 4 starts a link whose next two
// bytes name the target; per link the target's count and the document's bit in the target's
// bitmap are set with global atomics.
extern "C" __global__ void iix_scan(const unsigned char *docs, unsigned int *count,
				    unsigned int *bits, int ndocs, int doclen, int targets)
{
	int doc = blockIdx.x * blockDim.x + threadIdx.x;
	if (doc >= ndocs)
		return;
	const unsigned char *p = docs + doc * doclen;
	int words = ndocs / 32;
	for (int i = 0; i + 2 < doclen; i++) {
		if (p[i] < 4) {
			unsigned int t = (((unsigned int)p[i + 1] << 8) | p[i + 2]) % (unsigned int)targets;
			atomicAdd(&count[t], 1u);
			atomicOr(&bits[t * words + doc / 32], 1u << (doc & 31));
			i += 2;
		}
	}
}
