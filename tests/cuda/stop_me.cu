// SPDX-License-Identifier: MIT
// A program stopped part way (test_cmd_cuda.c): one short launch, then by argv[1] a host sleep
// (sleep, for SIGTERM between launches), a kernel that runs for hours (spin, for SIGINT during a
// launch) or a store through a null pointer on the host (segv, a fault).
#include <cstring>
#include <unistd.h>

#include "check.cuh"

__global__ void count(volatile int *p, long long n)
{
	for (long long i = 0; i < n; i++)
		p[threadIdx.x] = (int)i; // a new value each time: progress to the livelock watchdog
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "sleep";
	volatile int *d;
	CU(cudaMalloc((void **)&d, 32 * sizeof(int)));
	count<<<1, 32>>>(d, 10);
	CU(cudaDeviceSynchronize());
	printf("first launch done\n");
	fflush(stdout);
	if (!strcmp(mode, "spin")) {
		count<<<1, 32>>>(d, 1ll << 40);
		cudaDeviceSynchronize();
	} else if (!strcmp(mode, "segv")) {
		volatile int *bad = nullptr;
		*bad = 1;
	} else {
		sleep(600);
	}
	return 0;
}
