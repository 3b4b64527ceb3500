// SPDX-License-Identifier: MIT
// Correlation host for workloads/longcompute/longcompute.cfg: args n iters.
#include "wl_host.h"
#include "../../../workloads/longcompute/longcompute.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 8192), iters = wlh_arg(argc, argv, 2, 64);
	float *in = wlh_dev(wlh_random_float<float>(n, 21, 0.1, 0.9), n);
	float *out = wlh_dev<float>(NULL, n);
	unsigned *hash = wlh_dev<unsigned>(NULL, n);
	long_compute<<<(n + 255) / 256, 256>>>(in, out, hash, (int)n, (int)iters, 3.7f);
	wlh_done("longcompute");
	return 0;
}
