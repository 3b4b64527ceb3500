// SPDX-License-Identifier: MIT
// Correlation host for workloads/shortphases/shortphases.cfg: args n steps.
#include "wl_host.h"
#include "../../../workloads/shortphases/shortphases.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 16384), steps = wlh_arg(argc, argv, 2, 32);
	int *data = wlh_dev(wlh_random_int<int>(n, 22, 0, n - 1), n);
	int *out = wlh_dev<int>(NULL, n);
	short_phases<<<(n + 255) / 256, 256>>>(data, out, (int)n, (int)steps);
	wlh_done("shortphases");
	return 0;
}
