// SPDX-License-Identifier: MIT
// Correlation host for workloads/matmul/matmul.cfg: args n.
#include "wl_host.h"
#include "../../../workloads/matmul/matmul.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 128);
	float *a = wlh_dev(wlh_random_float<float>(n * n, 13, -1.0, 1.0), n * n);
	float *b = wlh_dev(wlh_random_float<float>(n * n, 14, -1.0, 1.0), n * n);
	float *c = wlh_dev<float>(NULL, n * n);
	matmul_tiled<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, (int)n);
	wlh_done("matmul");
	return 0;
}
