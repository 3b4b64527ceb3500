// SPDX-License-Identifier: MIT
// Correlation host for workloads/fwt/fwt.cfg: args chunks.
#include "wl_host.h"
#include "../../../workloads/fwt/fwt.cu"

int main(int argc, char **argv)
{
	long chunks = wlh_arg(argc, argv, 1, 32);
	float *data = wlh_dev(wlh_random_float<float>(chunks * 1024, 16, -1.0, 1.0), chunks * 1024);
	fwt_chunk<<<chunks, 512>>>(data);
	wlh_done("fwt");
	return 0;
}
