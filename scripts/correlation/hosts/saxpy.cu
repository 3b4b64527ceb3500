// SPDX-License-Identifier: MIT
// Correlation host for workloads/saxpy/saxpy.cfg: args n blocks.
#include "wl_host.h"
#include "../../../workloads/saxpy/saxpy.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 524288), blocks = wlh_arg(argc, argv, 2, 112);
	float *x = wlh_dev(wlh_random_float<float>(n, 3), n);
	float *y = wlh_dev(wlh_sequence<float>(n, 0.0, 0.25), n);
	saxpy<<<blocks, 256>>>((int)n, 2.5f, x, y);
	wlh_done("saxpy");
	return 0;
}
