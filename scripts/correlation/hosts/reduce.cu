// SPDX-License-Identifier: MIT
// Correlation host for workloads/reduce/reduce.cfg: args n.
#include "wl_host.h"
#include "../../../workloads/reduce/reduce.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 262144), threads = 256, blocks = (n + 2 * threads - 1) / (2 * threads);
	int *in = wlh_dev(wlh_random_int<int>(n, 15, -1000, 1000), n);
	int *part = wlh_dev<int>(NULL, blocks);
	reduce_block<<<blocks, threads, 4 * threads>>>(in, part, (int)n);
	wlh_done("reduce");
	return 0;
}
