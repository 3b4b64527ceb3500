// SPDX-License-Identifier: MIT
// Correlation host for workloads/pagecount/pagecount.cfg: args n pages blocks.
#include "wl_host.h"
#include "../../../workloads/pagecount/pagecount.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 131072), pages = wlh_arg(argc, argv, 2, 512), blocks = wlh_arg(argc, argv, 3, 112);
	unsigned *rec = wlh_dev(wlh_random_int<unsigned>(4 * n, 12, 0, 1048575), 4 * n);
	int *keys = wlh_dev<int>(NULL, n);
	unsigned *counts = wlh_dev<unsigned>(NULL, pages);
	pv_map<<<(n + 255) / 256, 256>>>(rec, keys, (int)n, (int)pages, 262144u, 786432u);
	pv_reduce<<<blocks, 256, 4 * pages>>>(keys, counts, (int)n, (int)pages);
	wlh_done("pagecount");
	return 0;
}
