// SPDX-License-Identifier: MIT
// Microbenchmarks for pipeline calibration against GPGPU-Sim (scripts/correlation/micro/README.md):
// one mechanism each, as dependent chains.
extern "C" __global__ void m_alu(int *out, int iters)
{
	int x = threadIdx.x, y = blockIdx.x + 1;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < 32; k++)
			asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void m_alu4(int *out, int iters)
{
	int a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, y = blockIdx.x + 1;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			asm volatile("add.s32 %0, %0, %1;" : "+r"(a) : "r"(y));
			asm volatile("add.s32 %0, %0, %1;" : "+r"(b) : "r"(y));
			asm volatile("add.s32 %0, %0, %1;" : "+r"(c) : "r"(y));
			asm volatile("add.s32 %0, %0, %1;" : "+r"(d) : "r"(y));
		}
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}
extern "C" __global__ void m_fma(float *out, int iters)
{
	float x = threadIdx.x, y = 1.0001f, z = 0.5f;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < 32; k++)
			asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void m_shm(int *out, int iters)
{
	__shared__ int s[1024];
	for (int i = threadIdx.x; i < 1024; i += blockDim.x)
		s[i] = (i + 33) & 1023;
	__syncthreads();
	int x = threadIdx.x;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			x = s[x];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void m_bar(int *out, int iters)
{
	__shared__ int s[1024];
	int x = threadIdx.x;
	for (int i = 0; i < iters; i++) {
		s[threadIdx.x] = x;
		__syncthreads();
		x += s[(threadIdx.x + 32) % blockDim.x];
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
// Global load chain: buf[i] = i (the host fills it), next index (buf[x] + stride) & mask; lane 0
// alone, so each step is one line.
extern "C" __global__ void m_gld(const int *buf, int *out, int iters, int mask, int stride)
{
	int x = 0;
	if (threadIdx.x == 0) {
		for (int i = 0; i < iters; i++)
			x = (buf[x] + stride) & mask;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
