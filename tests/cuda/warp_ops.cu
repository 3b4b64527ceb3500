// SPDX-License-Identifier: MIT
// warpsim's own test of the warp-level behaviours programs rely on: shuffles (up, down, xor,
// idx), votes (any, all, ballot), atomics (int, float, CAS, max), dynamic shared memory,
// templates (two instances of one kernel), several kernels. Each result is checked on the host.
#include <cstdio>

__global__ void shuffles(int *out)
{
	int lane = threadIdx.x & 31, v = threadIdx.x * 3;
	int up = __shfl_up_sync(0xffffffff, v, 1);
	int down = __shfl_down_sync(0xffffffff, v, 2);
	int x = __shfl_xor_sync(0xffffffff, v, 5);
	int idx = __shfl_sync(0xffffffff, v, 7);
	int sum = v;
	for (int o = 16; o > 0; o >>= 1)
		sum += __shfl_xor_sync(0xffffffff, sum, o);
	out[threadIdx.x * 5 + 0] = up;
	out[threadIdx.x * 5 + 1] = down;
	out[threadIdx.x * 5 + 2] = x;
	out[threadIdx.x * 5 + 3] = idx;
	out[threadIdx.x * 5 + 4] = lane == 0 ? sum : 0;
}

__global__ void votes(const int *in, unsigned *out)
{
	int v = in[blockIdx.x * 32 + threadIdx.x];
	unsigned b = __ballot_sync(0xffffffff, v > 0);
	int any = __any_sync(0xffffffff, v > 100);
	int all = __all_sync(0xffffffff, v >= 0);
	if (threadIdx.x == 0) {
		out[blockIdx.x * 3 + 0] = b;
		out[blockIdx.x * 3 + 1] = any;
		out[blockIdx.x * 3 + 2] = all;
	}
}

__global__ void atomics(const int *in, int n, int *isum, float *fsum, int *imax, int *cas_count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	atomicAdd(isum, in[i]);
	atomicAdd(fsum, 0.5f);
	atomicMax(imax, in[i]);
	int old = *cas_count, assumed;
	do { // increment through compare-and-swap
		assumed = old;
		old = atomicCAS(cas_count, assumed, assumed + 1);
	} while (old != assumed);
}

// Block sum of T through dynamic shared memory (tree reduction, then one atomic).
template <typename T>
__global__ void block_sum(const T *in, int n, T *out)
{
	extern __shared__ unsigned char smem[];
	T *s = reinterpret_cast<T *>(smem);
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? in[i] : T(0);
	__syncthreads();
	for (int h = blockDim.x / 2; h > 0; h >>= 1) {
		if (threadIdx.x < h)
			s[threadIdx.x] += s[threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

static int fails = 0;
#define EXPECT(cond, ...)                                                                   \
	do {                                                                                \
		if (!(cond)) {                                                              \
			printf("FAIL line %d: ", __LINE__);                                  \
			printf(__VA_ARGS__);                                                 \
			printf("\n");                                                        \
			fails++;                                                             \
		}                                                                           \
	} while (0)

int main()
{
	int *d_sh, h_sh[64 * 5];
	cudaMalloc(&d_sh, sizeof h_sh);
	shuffles<<<1, 64>>>(d_sh);
	cudaMemcpy(h_sh, d_sh, sizeof h_sh, cudaMemcpyDeviceToHost);
	for (int t = 0; t < 64; t++) {
		int lane = t & 31, base = t - lane, v = t * 3;
		int *r = &h_sh[t * 5];
		EXPECT(r[0] == (lane >= 1 ? v - 3 : v), "shfl_up thread %d: %d", t, r[0]);
		EXPECT(r[1] == (lane + 2 < 32 ? v + 6 : v), "shfl_down thread %d: %d", t, r[1]);
		EXPECT(r[2] == (base + (lane ^ 5)) * 3, "shfl_xor thread %d: %d", t, r[2]);
		EXPECT(r[3] == (base + 7) * 3, "shfl_idx thread %d: %d", t, r[3]);
		int sum = 0;
		for (int k = 0; k < 32; k++)
			sum += (base + k) * 3;
		EXPECT(r[4] == (lane == 0 ? sum : 0), "butterfly sum thread %d: %d", t, r[4]);
	}
	printf("shuffles checked\n");

	int h_in[64];
	for (int i = 0; i < 64; i++)
		h_in[i] = i < 32 ? (i % 3 == 0 ? 5 : -1) : 200 + i;
	int *d_in;
	unsigned *d_votes, h_votes[6];
	cudaMalloc(&d_in, sizeof h_in);
	cudaMalloc(&d_votes, sizeof h_votes);
	cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
	votes<<<2, 32>>>(d_in, d_votes);
	cudaMemcpy(h_votes, d_votes, sizeof h_votes, cudaMemcpyDeviceToHost);
	unsigned want_ballot = 0;
	for (int i = 0; i < 32; i++)
		want_ballot |= (unsigned)(i % 3 == 0) << i;
	EXPECT(h_votes[0] == want_ballot, "ballot %08x want %08x", h_votes[0], want_ballot);
	EXPECT(h_votes[1] == 0 && h_votes[2] == 0, "warp 0 any %u all %u", h_votes[1], h_votes[2]);
	EXPECT(h_votes[3] == 0xffffffffu && h_votes[4] == 1 && h_votes[5] == 1,
	       "warp 1 ballot %08x any %u all %u", h_votes[3], h_votes[4], h_votes[5]);
	printf("votes checked\n");

	const int n = 3000;
	int *h_a = new int[n], *d_a, *d_res;
	float *d_f;
	long long want_sum = 0;
	int want_max = 0;
	for (int i = 0; i < n; i++) {
		h_a[i] = (i * 7919) % 1000 - 300;
		want_sum += h_a[i];
		want_max = h_a[i] > want_max ? h_a[i] : want_max;
	}
	cudaMalloc(&d_a, n * sizeof(int));
	cudaMalloc(&d_res, 3 * sizeof(int));
	cudaMalloc(&d_f, sizeof(float));
	cudaMemcpy(d_a, h_a, n * sizeof(int), cudaMemcpyHostToDevice);
	cudaMemset(d_res, 0, 3 * sizeof(int));
	cudaMemset(d_f, 0, sizeof(float));
	atomics<<<(n + 255) / 256, 256>>>(d_a, n, d_res, d_f, d_res + 1, d_res + 2);
	int h_res[3];
	float h_f;
	cudaMemcpy(h_res, d_res, sizeof h_res, cudaMemcpyDeviceToHost);
	cudaMemcpy(&h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
	EXPECT(h_res[0] == want_sum, "atomicAdd sum %d want %lld", h_res[0], want_sum);
	EXPECT(h_f == n * 0.5f, "atomicAdd float %f", h_f);
	EXPECT(h_res[1] == want_max, "atomicMax %d want %d", h_res[1], want_max);
	EXPECT(h_res[2] == n, "atomicCAS loop count %d want %d", h_res[2], n);
	printf("atomics checked\n");

	float *h_x = new float[n], *d_x, *d_fs, h_fs;
	double want_f = 0;
	for (int i = 0; i < n; i++) {
		h_x[i] = (float)(i % 17) * 0.25f;
		want_f += h_x[i];
	}
	cudaMalloc(&d_x, n * sizeof(float));
	cudaMalloc(&d_fs, sizeof(float));
	cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemset(d_fs, 0, sizeof(float));
	cudaMemset(d_res, 0, sizeof(int));
	block_sum<float><<<(n + 127) / 128, 128, 128 * sizeof(float)>>>(d_x, n, d_fs);
	block_sum<int><<<(n + 255) / 256, 256, 256 * sizeof(int)>>>(d_a, n, d_res);
	cudaMemcpy(&h_fs, d_fs, sizeof h_fs, cudaMemcpyDeviceToHost);
	cudaMemcpy(h_res, d_res, sizeof(int), cudaMemcpyDeviceToHost);
	EXPECT(h_fs == (float)want_f, "block_sum<float> %f want %f", h_fs, want_f);
	EXPECT(h_res[0] == want_sum, "block_sum<int> %d want %lld", h_res[0], want_sum);
	printf("templates checked\n");
	cudaError_t e = cudaDeviceSynchronize();
	EXPECT(e == cudaSuccess, "%s", cudaGetErrorString(e));
	printf(fails ? "FAILED %d\n" : "PASS\n", fails);
	delete[] h_a; // the sanitizer build checks these programs for leaks too
	delete[] h_x;
	return fails != 0;
}
