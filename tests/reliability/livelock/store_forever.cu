// SPDX-License-Identifier: MIT
// tests/reliability/test_livelock.c through `warpsim cuda`: a kernel whose threads store the
// same value forever (volatile, so that nvcc keeps every store). Built by nvcc 13 with
// -cudart shared -O2 into bin/store_forever (committed: the tests need no CUDA toolkit).
#include <cstdio>

__global__ void store_forever(volatile int *p)
{
	for (;;)
		p[threadIdx.x] = 7;
}

int main()
{
	int *p;
	if (cudaMalloc(&p, 64 * sizeof(int)) != cudaSuccess)
		return 2;
	store_forever<<<1, 64>>>(p);
	cudaError_t e = cudaDeviceSynchronize();
	printf("cudaDeviceSynchronize: %s\n", cudaGetErrorString(e));
	return e == cudaSuccess ? 0 : 1;
}
