// SPDX-License-Identifier: MIT
// warpsim's test of the runtime calls libraries (Thrust, CUB) and newer programs make: the
// occupancy calculator, cudaFuncGetAttributes' maxThreadsPerBlock, device attributes of absent
// features, 2D memsets, host callbacks, stream priorities, stream-ordered allocation on the
// default pool, and a call warpsim does not implement. Numbers that depend on the machine are
// printed as "value NAME N" for the test to compare with its hand-computed figures; the rest
// is checked here. Built twice (Makefile): also with --default-stream per-thread, which calls
// the _ptsz/_ptds entry points. Exits 1 at the first failure.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "check.cuh"

// 8 KB of static shared memory, few registers: shared memory bounds its occupancy.
__global__ void shared_8k(float *out)
{
	__shared__ float buf[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x)
		buf[i] = (float)i;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x * 7) % 2048];
}

// Many values live at once: registers bound its occupancy and its block size.
__global__ void many_regs(const float *in, float *out, int n)
{
	float acc[24];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
	for (int k = 0; k < 24; k++)
		acc[k] = in[(i + k * 97) % n];
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int k = 0; k < 24; k++)
			acc[k] = acc[k] * acc[(k + r + 1) % 24] + acc[(k + 5) % 24];
	float s = 0;
#pragma unroll
	for (int k = 0; k < 24; k++)
		s += acc[k] * (float)(k + 1);
	out[i] = s;
}

__global__ void put(int *p, int v)
{
	*p = v;
}

static int order[8], n_order, seen_by_host_fn = -1, callback_status = -1;

static void host_fn(void *user)
{
	seen_by_host_fn = *(int *)user; // written by the copy enqueued before this function
	order[n_order++] = 1;
}

static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *)
{
	callback_status = (int)status;
	order[n_order++] = 2;
}

int main()
{
	// ---- occupancy ------------------------------------------------------------------
	int n = 0;
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, shared_8k, 128, 0));
	printf("value shared_8k.128.0 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, shared_8k, 128, 8192));
	printf("value shared_8k.128.8192 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, shared_8k, 1024, 0,
								    cudaOccupancyDisableCachingOverride));
	printf("value shared_8k.1024.0 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, shared_8k, 33, 0));
	printf("value shared_8k.33.0 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, many_regs, 32, 0));
	printf("value many_regs.32.0 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, many_regs, 256, 0));
	printf("value many_regs.256.0 %d\n", n);
	CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, many_regs, 1024, 0));
	printf("value many_regs.1024.0 %d\n", n);
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, many_regs, 32, 0, 8) ==
		      cudaErrorInvalidValue, "unknown occupancy flags are refused");
	cudaGetLastError();
	int min_grid = 0, block = 0;
	CU(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, many_regs, 0, 0));
	printf("value many_regs.potential %d %d\n", min_grid, block);
	CU(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, shared_8k, 0, 0));
	printf("value shared_8k.potential %d %d\n", min_grid, block);
	size_t avail = 0;
	CU(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, shared_8k, 4, 128));
	printf("value shared_8k.avail.4.128 %zu\n", avail);

	cudaFuncAttributes fa;
	CU(cudaFuncGetAttributes(&fa, many_regs));
	printf("value many_regs.regs %d max_threads %d\n", fa.numRegs, fa.maxThreadsPerBlock);
	CU(cudaFuncGetAttributes(&fa, shared_8k));
	printf("value shared_8k.regs %d max_threads %d shared %zu\n", fa.numRegs,
	       fa.maxThreadsPerBlock, fa.sharedSizeBytes);

	// ---- device attributes of features the device lacks: 0, not an error ----------------
	int v = -1;
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, 0));
	CHECK(v == 0, "no cooperative launches");
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
	CHECK(v == 0, "no managed memory");
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0));
	CHECK(v == 0, "no clusters");
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrStreamPrioritiesSupported, 0));
	CHECK(v == 0, "no stream priorities");
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
	CHECK(v == 1, "memory pools");
	CU(cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
	printf("value max_blocks_per_sm %d\n", v);
	CHECK(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)44, 0) == cudaErrorInvalidValue,
	      "a number that is no attribute is refused");
	cudaGetLastError();

	// ---- 2D memsets ------------------------------------------------------------------
	unsigned char *img;
	size_t pitch;
	CU(cudaMallocPitch((void **)&img, &pitch, 100, 4));
	CU(cudaMemset(img, 0, pitch * 4));
	CU(cudaMemset2D(img, pitch, 0x11, 100, 3));
	cudaStream_t s;
	CU(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1));
	CU(cudaMemset2DAsync(img + pitch + 10, pitch, 0x22, 5, 2, s));
	unsigned char host[4][512];
	CU(cudaMemcpy2D(host, 512, img, pitch, 512, 4, cudaMemcpyDeviceToHost));
	bool ok = pitch == 512;
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 512; c++) {
			int want = r < 3 && c < 100 ? 0x11 : 0;
			if (r >= 1 && r <= 2 && c >= 10 && c < 15)
				want = 0x22;
			ok = ok && host[r][c] == want;
		}
	CHECK(ok, "cudaMemset2D and cudaMemset2DAsync fill their rectangles only");
	CHECK(cudaMemset2D(img, 16, 0, 100, 2) == cudaErrorInvalidValue, "width over pitch refused");
	cudaGetLastError();

	// ---- stream priorities: accepted, one level -----------------------------------------
	int least = -9, greatest = -9, prio = -9;
	CU(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	CHECK(least == 0 && greatest == 0, "priority range 0..0");
	CU(cudaStreamGetPriority(s, &prio));
	CHECK(prio == 0, "a priority is clamped into the range");

	// ---- host callbacks in stream order ----------------------------------------------------
	int *d_val, *h_val;
	CU(cudaMalloc(&d_val, sizeof(int)));
	CU(cudaMallocHost(&h_val, sizeof(int)));
	*h_val = 0;
	put<<<1, 1, 0, s>>>(d_val, 7);
	CU(cudaMemcpyAsync(h_val, d_val, sizeof(int), cudaMemcpyDeviceToHost, s));
	CU(cudaLaunchHostFunc(s, host_fn, h_val));
	CU(cudaStreamAddCallback(s, stream_cb, nullptr, 0));
	CU(cudaStreamSynchronize(s));
	CHECK(seen_by_host_fn == 7, "the host function sees the copy before it");
	CHECK(n_order == 2 && order[0] == 1 && order[1] == 2 && callback_status == 0,
	      "host function and callback run in stream order, status cudaSuccess");
	CHECK(cudaStreamAddCallback(s, stream_cb, nullptr, 1) == cudaErrorInvalidValue,
	      "callback flags must be 0");
	cudaGetLastError();

	// ---- stream-ordered allocation on the default pool --------------------------------------
	cudaMemPool_t pool, cur;
	CU(cudaDeviceGetDefaultMemPool(&pool, 0));
	CU(cudaDeviceGetMemPool(&cur, 0));
	CHECK(pool == cur, "the current pool is the default one");
	uint64_t thr = UINT64_MAX, got = 0;
	CU(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
	CHECK(got == UINT64_MAX, "release threshold kept");
	int reuse = -1;
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
	CHECK(reuse == 1, "reuse flags default to 1");
	int *a, *b;
	CU(cudaMallocAsync(&a, 1 << 20, s));
	CU(cudaMallocAsync(&b, 4096, s));
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &got));
	CHECK(got == (1 << 20) + 4096, "used memory counts both allocations");
	put<<<1, 1, 0, s>>>(a + 1000, 42);
	int back = 0;
	CU(cudaMemcpyAsync(&back, a + 1000, sizeof back, cudaMemcpyDeviceToHost, s));
	CU(cudaFreeAsync(a, s));
	CU(cudaStreamSynchronize(s));
	CHECK(back == 42, "a kernel writes an async allocation");
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &got));
	CHECK(got == 4096, "freed memory leaves the count");
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &got));
	CHECK(got == (1 << 20) + 4096, "the peak stays");
	uint64_t zero = 0;
	CU(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
	CU(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &got));
	CHECK(got == 4096, "resetting the peak sets it to the current use");
	CU(cudaFreeAsync(b, 0));
	CU(cudaMemPoolTrimTo(pool, 0));
	CHECK(cudaFreeAsync(b, 0) != cudaSuccess, "a second free is refused");
	cudaGetLastError();

	// ---- a call warpsim does not implement: NotSupported, named once ------------------------
	int can = -1;
	CHECK(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaErrorNotSupported,
	      "cudaDeviceCanAccessPeer not supported");
	CHECK(cudaGetLastError() == cudaErrorNotSupported, "and it is the last error");
	CHECK(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaErrorNotSupported, "every time");
	cudaGetLastError();

	CU(cudaStreamDestroy(s));
	CU(cudaFree(img));
	CU(cudaFree(d_val));
	CU(cudaFreeHost(h_val));
	CU(cudaDeviceSynchronize());
	printf("PASS\n");
	return 0;
}
