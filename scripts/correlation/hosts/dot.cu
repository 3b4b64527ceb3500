// SPDX-License-Identifier: MIT
// Correlation host for workloads/dot/dot.cfg: args n blocks.
#include "wl_host.h"
#include "../../../workloads/dot/dot.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 524288), blocks = wlh_arg(argc, argv, 2, 112);
	float *a = wlh_dev(wlh_random_float<float>(n, 4, -1.0, 1.0), n);
	float *b = wlh_dev(wlh_random_float<float>(n, 5, -1.0, 1.0), n);
	float *part = wlh_dev<float>(NULL, blocks), *res = wlh_dev<float>(NULL, 1);
	dot_partial<<<blocks, 256>>>(a, b, part, (int)n);
	dot_final<<<1, 256>>>(part, res, (int)blocks);
	wlh_done("dot");
	return 0;
}
