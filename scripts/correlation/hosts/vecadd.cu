// SPDX-License-Identifier: MIT
// Correlation host for workloads/vecadd/vecadd.cfg: args n.
#include "wl_host.h"
#include "../../../workloads/vecadd/vecadd.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 262144);
	float *a = wlh_dev(wlh_random_float<float>(n, 1, -1.0, 1.0), n);
	float *b = wlh_dev(wlh_random_float<float>(n, 2, -1.0, 1.0), n);
	float *c = wlh_dev<float>(NULL, n);
	vecadd<<<(n + 255) / 256, 256>>>(a, b, c, (int)n);
	wlh_done("vecadd");
	return 0;
}
