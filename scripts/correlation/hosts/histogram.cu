// SPDX-License-Identifier: MIT
// Correlation host for workloads/histogram/histogram.cfg: args n blocks.
#include "wl_host.h"
#include "../../../workloads/histogram/histogram.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 262144), blocks = wlh_arg(argc, argv, 2, 112);
	unsigned char *data = wlh_dev(wlh_random_int<unsigned char>(n, 17, 0, 255), n);
	unsigned *hist = wlh_dev<unsigned>(NULL, 256);
	histogram256<<<blocks, 256>>>(data, hist, (int)n);
	wlh_done("histogram");
	return 0;
}
