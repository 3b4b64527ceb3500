// SPDX-License-Identifier: MIT
// Page-view count (OWL Type-1, PVC-like): one thread per 16-byte log record {time, client, page,
// bytes} (page taken modulo the page count); records inside the time window count a view of
// their page and add their bytes to the page's category, both with global atomics on tables
// every CTA shares.
extern "C" __global__ void pvc_count(const unsigned int *log, const int *page_cat,
				     unsigned int *views, unsigned int *cat_bytes, int n,
				     unsigned int t0, unsigned int t1, unsigned int pages)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned int t = log[4 * i];
	if (t < t0 || t >= t1)
		return;
	unsigned int page = log[4 * i + 2] % pages;
	atomicAdd(&views[page], 1u);
	atomicAdd(&cat_bytes[page_cat[page]], log[4 * i + 3]);
}
