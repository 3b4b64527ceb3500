// SPDX-License-Identifier: MIT
// Correlation host for workloads/spmv/spmv.cfg: args n nnz_row.
#include "wl_host.h"
#include "../../../workloads/spmv/spmv.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 16384), nnz = wlh_arg(argc, argv, 2, 8);
	int *rp = wlh_dev(wlh_sequence<int>(n + 1, 0, (double)nnz), n + 1);
	int *cols = wlh_dev(wlh_random_int<int>(n * nnz, 6, 0, n - 1), n * nnz);
	float *vals = wlh_dev(wlh_random_float<float>(n * nnz, 7, -1.0, 1.0), n * nnz);
	float *x = wlh_dev(wlh_random_float<float>(n, 8), n);
	float *y = wlh_dev<float>(NULL, n);
	spmv_csr<<<(n + 127) / 128, 128>>>((int)n, rp, cols, vals, x, y);
	wlh_done("spmv");
	return 0;
}
