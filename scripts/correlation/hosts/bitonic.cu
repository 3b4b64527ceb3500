// SPDX-License-Identifier: MIT
// Correlation host for workloads/bitonic/bitonic.cfg: args chunks.
#include "wl_host.h"
#include "../../../workloads/bitonic/bitonic.cu"

int main(int argc, char **argv)
{
	long chunks = wlh_arg(argc, argv, 1, 32);
	unsigned *keys = wlh_dev(wlh_random_int<unsigned>(chunks * 1024, 20, 0, 4294967295LL), chunks * 1024);
	bitonic_chunk<<<chunks, 512>>>(keys);
	wlh_done("bitonic");
	return 0;
}
