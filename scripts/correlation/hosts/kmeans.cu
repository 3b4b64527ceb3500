// SPDX-License-Identifier: MIT
// Correlation host for workloads/kmeans/kmeans.cfg: args n k d.
#include "wl_host.h"
#include "../../../workloads/kmeans/kmeans.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 16384), k = wlh_arg(argc, argv, 2, 8), d = wlh_arg(argc, argv, 3, 4);
	float *pts = wlh_dev(wlh_random_float<float>(n * d, 9), n * d);
	int *mem = wlh_dev(wlh_value<int>(n, -1), n);
	WLH_CHECK(cudaMemcpyToSymbol(centroids, wlh_random_float<float>(k * d, 10), k * d * sizeof(float)));
	kmeans_assign<<<(n + 255) / 256, 256>>>(pts, mem, (int)n, (int)k, (int)d);
	wlh_done("kmeans");
	return 0;
}
