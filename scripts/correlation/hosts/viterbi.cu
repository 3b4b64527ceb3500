// SPDX-License-Identifier: MIT
// Correlation host for workloads/viterbi/viterbi.cfg: args n T.
#include "wl_host.h"
#include "../../../workloads/viterbi/viterbi.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 2048), T = wlh_arg(argc, argv, 2, 16);
	unsigned char *obs = wlh_dev(wlh_random_int<unsigned char>(n * T, 25, 0, 15), n * T);
	unsigned char *path = wlh_dev<unsigned char>(NULL, n * T);
	int *score = wlh_dev<int>(NULL, n);
	WLH_CHECK(cudaMemcpyToSymbol(trans, wlh_random_int<int>(VT_S * VT_S, 26, -12, 0), sizeof(int) * VT_S * VT_S));
	WLH_CHECK(cudaMemcpyToSymbol(emit, wlh_random_int<int>(VT_S * VT_M, 27, -12, 0), sizeof(int) * VT_S * VT_M));
	viterbi<<<(n + 63) / 64, 64>>>(obs, path, score, (int)n, (int)T, 12);
	wlh_done("viterbi");
	return 0;
}
