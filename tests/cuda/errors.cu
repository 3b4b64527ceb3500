// SPDX-License-Identifier: MIT
// warpsim's own test of the runtime's error paths: each call that must fail prints its code
// and message; the test compares them with the codes CUDA defines. The last case faults in a
// kernel: the error appears at the next synchronising call and sticks.
#include <cstdio>

__global__ void touch(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += 1;
}

__global__ void big_shared(float *out)
{
	__shared__ float s[8192]; // 32 KB static
	extern __shared__ float dyn[];
	s[threadIdx.x] = dyn[threadIdx.x];
	out[threadIdx.x] = s[threadIdx.x];
}

static void host_function(int *, int) {}

static void report(const char *what, cudaError_t e)
{
	printf("%s: %d %s %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
	cudaGetLastError(); // clear it for the next case
}

int main()
{
	int *d, h[16] = {0};
	cudaMalloc(&d, sizeof h);
	report("memcpy to a host pointer as device", cudaMemcpy(h, h, sizeof h, cudaMemcpyHostToDevice));
	report("memcpy past the allocation", cudaMemcpy(d, h, 2 * sizeof h, cudaMemcpyHostToDevice));
	report("bad copy kind", cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)7));
	report("free of a pointer inside an allocation", cudaFree(d + 1));
	touch<<<1, 2048>>>(d, 16);
	report("launch with 2048 threads", cudaGetLastError());
	touch<<<dim3(1, 70000), 32>>>(d, 16);
	report("launch with grid.y 70000", cudaGetLastError());
	touch<<<0, 32>>>(d, 16); /* CUDA refuses an empty grid too; warpsim lists it as empty */
	report("launch of an empty grid", cudaGetLastError());
	float *f;
	cudaMalloc(&f, 1024 * sizeof(float));
	big_shared<<<1, 32, 20000>>>(f);
	report("launch with 32 KB static + 20000 B dynamic shared", cudaGetLastError());
	void *args[] = {&d, &h[0]};
	report("launch of a host function", cudaLaunchKernel((const void *)host_function, dim3(1), dim3(1), args, 0, 0));
	report("symbol that is no device variable", cudaMemcpyToSymbol(h, h, 4));
	report("texture object over host memory", [] {
		cudaResourceDesc r = {};
		r.resType = cudaResourceTypeLinear;
		static float hostbuf[16];
		r.res.linear.devPtr = hostbuf;
		r.res.linear.desc = cudaCreateChannelDesc<float>();
		r.res.linear.sizeInBytes = sizeof hostbuf;
		cudaTextureDesc t = {};
		cudaTextureObject_t o;
		return cudaCreateTextureObject(&o, &r, &t, nullptr);
	}());
	report("unsupported call", cudaMallocManaged(&d, 64));
	report("state is clean before the fault", cudaDeviceSynchronize());
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	// 64 MB past a 64-byte allocation, far from anything mapped (an overrun of a few KB reads
	// the allocations and slack beside it, as on a GPU)
	touch<<<16, 256>>>(d + (64 << 20) / sizeof(int), 4096);
	report("launch of the faulting kernel", cudaSuccess);
	report("synchronise after the fault", cudaDeviceSynchronize());
	report("memcpy after the fault", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	return 0;
}
