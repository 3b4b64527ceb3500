// SPDX-License-Identifier: MIT
// warpsim's own test of the CUDA runtime calls a program makes: memory of every kind, copies
// of every kind (and async on a stream), memset, symbols, events, streams, device queries,
// kernel attributes, launches through <<<>>> and cudaLaunchKernel with dynamic shared memory,
// device printf, profiler start/stop. Prints one line per check; exits 1 at the first failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_profiler_api.h>

#include "check.cuh"

__device__ int dev_table[64];
__constant__ float coeffs[4];

// out[i] = in[i] * coeffs[i % 4] + dev_table[i % 64], staged through dynamic shared memory.
__global__ void stage(const float *in, float *out, int n)
{
	extern __shared__ float buf[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	buf[threadIdx.x] = i < n ? in[i] : 0.0f;
	__syncthreads();
	int j = blockDim.x - 1 - threadIdx.x; // read a neighbour's slot: the barrier matters
	int gi = blockIdx.x * blockDim.x + j;
	if (gi < n)
		out[gi] = buf[j] * coeffs[gi % 4] + dev_table[gi % 64];
}

__global__ void fill_table(int base)
{
	dev_table[threadIdx.x] = base + threadIdx.x;
}

__global__ void hello(int tag)
{
	if (threadIdx.x < 2)
		printf("device says %d from thread %d of block %d, pi %.3f\n", tag, threadIdx.x,
		       blockIdx.x, 3.14159);
}

int main()
{
	int count = 0;
	CU(cudaGetDeviceCount(&count));
	CHECK(count == 1, "one device");
	CU(cudaSetDevice(0));
	CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice, "cudaSetDevice(1) is invalid");
	cudaGetLastError();
	cudaDeviceProp prop;
	CU(cudaGetDeviceProperties(&prop, 0));
	CHECK(prop.warpSize == 32 && prop.multiProcessorCount > 0 && prop.maxThreadsPerBlock == 1024,
	      "properties");
	printf("device %s: %d SMs, %zu bytes shared per block\n", prop.name, prop.multiProcessorCount,
	       prop.sharedMemPerBlock);
	int smc = 0;
	CU(cudaDeviceGetAttribute(&smc, cudaDevAttrMultiProcessorCount, 0));
	CHECK(smc == prop.multiProcessorCount, "attribute = property");
	// what the CUDA samples' device picker reads before anything else
	int mode = -1, integrated = -1, clock_khz = 0, l2 = -1;
	CU(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
	CU(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, 0));
	CU(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	CU(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	CHECK(mode == cudaComputeModeDefault && integrated == 0 && clock_khz > 0 &&
		      l2 == prop.l2CacheSize,
	      "compute mode default, discrete, clock, L2 as the property");
	// the configured machine's figures, printed for the test to compare with the config's
	int mem_khz = 0, bus_bits = 0;
	CU(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
	CU(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
	CHECK(bus_bits == prop.memoryBusWidth, "bus width attribute = property");
	printf("identity: cc %d.%d, clock %d kHz, memory %d kHz, bus %d bits, L2 %d B, %d threads "
	       "%d blocks %d registers %zu B shared per SM\n", prop.major, prop.minor, clock_khz,
	       mem_khz, bus_bits, prop.l2CacheSize, prop.maxThreadsPerMultiProcessor,
	       prop.maxBlocksPerMultiProcessor, prop.regsPerMultiprocessor,
	       prop.sharedMemPerMultiprocessor);
	int regs_block = 0;
	CU(cudaDeviceGetAttribute(&regs_block, cudaDevAttrMaxRegistersPerBlock, 0));
	CHECK(regs_block == prop.regsPerBlock && prop.regsPerBlock <= prop.regsPerMultiprocessor,
	      "a block's registers fit in a core's");

	const int n = 1000;
	size_t free0, total;
	CU(cudaMemGetInfo(&free0, &total));
	float *h_in, *h_out, *d_in, *d_out, *d_copy;
	CU(cudaMallocHost(&h_in, n * sizeof(float)));
	CU(cudaHostAlloc(&h_out, n * sizeof(float), cudaHostAllocDefault));
	CU(cudaMalloc(&d_in, n * sizeof(float)));
	CU(cudaMalloc(&d_out, n * sizeof(float)));
	CU(cudaMalloc(&d_copy, n * sizeof(float)));
	size_t free1;
	CU(cudaMemGetInfo(&free1, &total));
	CHECK(free0 - free1 == 3 * n * sizeof(float), "cudaMemGetInfo sees the allocations");
	for (int i = 0; i < n; i++)
		h_in[i] = (float)i;
	float h_tmp[n];
	CU(cudaMemcpy(h_tmp, h_in, n * sizeof(float), cudaMemcpyHostToHost));
	CU(cudaMemcpy(d_copy, h_tmp, n * sizeof(float), cudaMemcpyHostToDevice));
	CU(cudaMemcpy(d_in, d_copy, n * sizeof(float), cudaMemcpyDeviceToDevice));
	CU(cudaMemset(d_out, 0, n * sizeof(float)));
	float c[4] = {1.0f, 2.0f, 0.5f, -1.0f};
	CU(cudaMemcpyToSymbol(coeffs, c, sizeof c));
	float cback[4];
	CU(cudaMemcpyFromSymbol(cback, coeffs, sizeof c));
	CHECK(!memcmp(c, cback, sizeof c), "constant symbol round trip");
	fill_table<<<1, 64>>>(1000);
	CU(cudaGetLastError());
	int table[64];
	CU(cudaMemcpyFromSymbol(table, dev_table, sizeof table));
	CHECK(table[0] == 1000 && table[63] == 1063, "kernel wrote a __device__ variable");
	int *table_addr = nullptr;
	CU(cudaGetSymbolAddress((void **)&table_addr, dev_table));
	int t5 = 0;
	CU(cudaMemcpy(&t5, table_addr + 5, sizeof t5, cudaMemcpyDefault));
	CHECK(t5 == 1005, "cudaGetSymbolAddress + cudaMemcpyDefault");
	int patch = 7;
	CU(cudaMemcpyToSymbol(dev_table, &patch, sizeof patch, 3 * sizeof(int)));

	CU(cudaProfilerStart());
	cudaStream_t s;
	CU(cudaStreamCreate(&s));
	cudaEvent_t e0, e1;
	CU(cudaEventCreate(&e0));
	CU(cudaEventCreate(&e1));
	CU(cudaEventRecord(e0, s));
	int block = 128, grid = (n + block - 1) / block;
	void *args[] = {&d_in, &d_out, (void *)&n};
	CU(cudaLaunchKernel((const void *)stage, dim3(grid), dim3(block), args,
			    block * sizeof(float), s));
	CU(cudaEventRecord(e1, s));
	CU(cudaMemcpyAsync(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, s));
	CU(cudaStreamSynchronize(s));
	CU(cudaEventSynchronize(e1));
	float ms = 0;
	CU(cudaEventElapsedTime(&ms, e0, e1));
	CHECK(ms > 0.0f, "the kernel took simulated time");
	int bad = 0;
	for (int i = 0; i < n; i++) {
		float want = h_in[i] * c[i % 4] + (i % 64 == 3 ? 7 : 1000 + i % 64);
		if (h_out[i] != want && bad++ < 3)
			printf("out[%d] = %f, want %f\n", i, h_out[i], want);
	}
	CHECK(bad == 0, "stage() through cudaLaunchKernel with dynamic shared memory");

	cudaFuncAttributes fa;
	CU(cudaFuncGetAttributes(&fa, stage));
	CHECK(fa.numRegs > 0 && fa.maxThreadsPerBlock == 1024, "cudaFuncGetAttributes");
	printf("stage uses %d registers\n", fa.numRegs);
	CU(cudaFuncSetCacheConfig(stage, cudaFuncCachePreferShared));
	CU(cudaFuncSetAttribute(stage, cudaFuncAttributeMaxDynamicSharedMemorySize, 40000));
	stage<<<grid, block, 40000>>>(d_in, d_out, n);
	CU(cudaGetLastError());

	hello<<<2, 32>>>(42);
	CU(cudaDeviceSynchronize());
	fflush(stdout);
	CU(cudaProfilerStop());

	CU(cudaEventDestroy(e0));
	CU(cudaEventDestroy(e1));
	CU(cudaStreamDestroy(s));
	CU(cudaFree(d_in));
	CU(cudaFree(d_out));
	CU(cudaFree(d_copy));
	CU(cudaFreeHost(h_in));
	CU(cudaFreeHost(h_out));
	CU(cudaPeekAtLastError());
	printf("PASS\n");
	return 0;
}
