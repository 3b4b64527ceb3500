// SPDX-License-Identifier: MIT
// Correlation host for workloads/bucketsort/bucketsort.cfg: args n nb cap.
#include "wl_host.h"
#include "../../../workloads/bucketsort/bucketsort.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 16384), nb = wlh_arg(argc, argv, 2, 64), cap = wlh_arg(argc, argv, 3, 512);
	unsigned *keys = wlh_dev(wlh_random_int<unsigned>(n, 24, 0, 16777215), n);
	unsigned *buckets = wlh_dev<unsigned>(NULL, nb * cap), *counts = wlh_dev<unsigned>(NULL, nb);
	long w = 16777216 / nb;
	WLH_CHECK(cudaMemcpyToSymbol(splitters, wlh_sequence<unsigned>(nb, (double)w, (double)w), nb * sizeof(unsigned)));
	bucket_scatter<<<(n + 255) / 256, 256>>>(keys, (int)n, (int)nb, (int)cap, buckets, counts);
	bucket_local_sort<<<(nb + 63) / 64, 64>>>(buckets, counts, (int)nb, (int)cap);
	wlh_done("bucketsort");
	return 0;
}
