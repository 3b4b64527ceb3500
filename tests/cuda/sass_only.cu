// SPDX-License-Identifier: MIT
// warpsim's own test program built with device code as SASS only (no PTX in the fat binary):
// the launch fails with cudaErrorNoKernelImageForDevice unless WARPSIM_PTX names the PTX.
#include <cstdio>

__global__ void inc(int *p)
{
	p[threadIdx.x] += threadIdx.x;
}

int main()
{
	int h[32] = {0}, *d;
	cudaMalloc(&d, sizeof h);
	cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
	inc<<<1, 32>>>(d);
	cudaError_t e = cudaGetLastError();
	printf("launch: %d %s\n", (int)e, cudaGetErrorName(e));
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	printf("h[31] = %d\n", h[31]);
	return e != cudaSuccess;
}
