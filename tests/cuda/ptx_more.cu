// SPDX-License-Identifier: MIT
// PTX the front end once refused (issue 32): bmsk (inline, as CUB's radix sort has it),
// match.any.sync / match.all.sync, recursive device functions (self and mutual, with local
// arrays live across the calls) and a kernel parameter of 8 KB (CUDA 12.1 allows 32,764
// bytes). Each result is checked against the host's. `ptx_more overflow [STACK_BYTES]`: a
// recursion that never ends, which must fault (a stack overflow) rather than exhaust the host,
// after as many calls as the stack size (cudaLimitStackSize) holds.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "check.cuh"

__device__ unsigned bmsk_clamp(unsigned a, unsigned b)
{
	unsigned d;
	asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
	return d;
}

__device__ unsigned bmsk_wrap(unsigned a, unsigned b)
{
	unsigned d;
	asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
	return d;
}

// the PTX ISA's semantics, on the host
static unsigned host_bmsk(unsigned a, unsigned b, bool clamp)
{
	unsigned a1 = a & 31, b1 = b & 31, sum = a1 + b1;
	unsigned mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
	bool pos_over = clamp && a >= 32, width_over = clamp && b >= 32;
	if (pos_over)
		mask0 = 0;
	if (sum >= 32 || pos_over || width_over)
		mask1 = 0;
	else if (b1 == 0)
		mask1 = ~0u;
	return mask0 & ~mask1;
}

#define NB 64
__global__ void bmsks(const unsigned *a, const unsigned *b, unsigned *clamp, unsigned *wrap)
{
	int i = threadIdx.x;
	clamp[i] = bmsk_clamp(a[i], b[i]);
	wrap[i] = bmsk_wrap(a[i], b[i]);
}

// lanes of a warp matched by value: v = lane / 3 (groups of 3), and a 64-bit value equal in the
// upper half only for lanes < 16; lanes >= 24 sit out (a partial member mask)
__global__ void matches(unsigned *any32, unsigned *any64, unsigned *all_eq, int *all_pred,
			unsigned *all_ne, int *ne_pred)
{
	unsigned lane = threadIdx.x & 31;
	if (lane >= 24)
		return;
	unsigned mask = 0x00ffffffu;
	any32[threadIdx.x] = __match_any_sync(mask, lane / 3);
	unsigned long long v = lane < 16 ? 0x100000000ull : 0x100000000ull + (lane & 1);
	any64[threadIdx.x] = __match_any_sync(mask, v);
	int p;
	all_eq[threadIdx.x] = __match_all_sync(mask, 7u, &p);
	all_pred[threadIdx.x] = p;
	all_ne[threadIdx.x] = __match_all_sync(mask, lane == 5 ? 1u : 0u, &p);
	ne_pred[threadIdx.x] = p;
}

// recursion: a local array that must survive the inner calls (a stack frame in local memory)
__device__ __noinline__ int tri(int n, volatile int *trace)
{
	int keep[4];
	for (int k = 0; k < 4; k++)
		keep[k] = n * 10 + k;
	trace[n] = n;
	int r = n <= 0 ? 0 : n + tri(n - 1, trace);
	for (int k = 0; k < 4; k++)
		r += keep[(k + n) & 3] - (n * 10 + ((k + n) & 3)); // 0 unless the frame was lost
	return r;
}

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

__device__ __noinline__ unsigned long long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__global__ void recursive(int *tris, int *parity, unsigned long long *fibs, int *trace)
{
	int i = threadIdx.x; // lanes recurse to different depths: divergent calls
	tris[i] = tri(i, trace + 64 * i);
	parity[i] = is_even(i * 7) ? 2 : is_odd(i * 7) ? 1 : 0;
	fibs[i] = fib(i % 16);
}

__device__ __noinline__ int endless(int n, int stop)
{
	volatile int pad[4] = {n, n, n, n};
	return n == stop ? pad[0] : 1 + endless(n + 1, stop) + pad[n & 3] - n;
}

__global__ void runaway(int stop, int *out)
{
	out[threadIdx.x] = endless(threadIdx.x, stop);
}

struct big {
	int v[2048]; // 8 KB
};

__global__ void big_param(struct big b, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = b.v[i] * 3 + b.v[2047 - i];
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "overflow")) {
		if (argc > 2) // a stack size in bytes (CUDA's default, 1 KB, otherwise)
			CU(cudaDeviceSetLimit(cudaLimitStackSize, (size_t)atol(argv[2])));
		int *d;
		CU(cudaMalloc(&d, 32 * sizeof(int)));
		runaway<<<1, 32>>>(1 << 30, d);
		cudaError_t e = cudaDeviceSynchronize();
		printf("runaway recursion: %d %s\n", (int)e, cudaGetErrorName(e));
		return 0;
	}
	// bmsk: every position and width 0..40 on both sides of 32
	unsigned ha[NB], hb[NB], hc[NB], hw[NB];
	for (int i = 0; i < NB; i++)
		ha[i] = (i * 7) % 41, hb[i] = (i * 13) % 41;
	ha[0] = 1, hb[0] = 2; // the ISA's example: 0x6
	unsigned *da, *db, *dc, *dw;
	CU(cudaMalloc(&da, sizeof ha));
	CU(cudaMalloc(&db, sizeof hb));
	CU(cudaMalloc(&dc, sizeof hc));
	CU(cudaMalloc(&dw, sizeof hw));
	CU(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
	CU(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
	bmsks<<<1, NB>>>(da, db, dc, dw);
	CU(cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
	CU(cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost));
	CHECK(hw[0] == 0x6 && hc[0] == 0x6, "bmsk 1, 2 is 0x6");
	bool ok = true;
	for (int i = 0; i < NB; i++)
		if (hc[i] != host_bmsk(ha[i], hb[i], true) || hw[i] != host_bmsk(ha[i], hb[i], false)) {
			printf("bmsk %u %u: clamp %08x (want %08x) wrap %08x (want %08x)\n", ha[i], hb[i],
			       hc[i], host_bmsk(ha[i], hb[i], true), hw[i], host_bmsk(ha[i], hb[i], false));
			ok = false;
		}
	CHECK(ok, "bmsk.clamp and bmsk.wrap as the PTX ISA defines them");

	// match: two warps
	unsigned *m[6];
	for (int k = 0; k < 6; k++) {
		CU(cudaMalloc(&m[k], 64 * sizeof(unsigned)));
		CU(cudaMemset(m[k], 0xff, 64 * sizeof(unsigned)));
	}
	matches<<<1, 64>>>(m[0], m[1], m[2], (int *)m[3], m[4], (int *)m[5]);
	unsigned hm[6][64];
	for (int k = 0; k < 6; k++)
		CU(cudaMemcpy(hm[k], m[k], sizeof hm[k], cudaMemcpyDeviceToHost));
	ok = true;
	for (int t = 0; t < 64; t++) {
		unsigned lane = t & 31;
		if (lane >= 24) {
			for (int k = 0; k < 6; k++)
				ok &= hm[k][t] == 0xffffffffu;
			continue;
		}
		unsigned want_any = 0, want64 = 0;
		for (unsigned j = 0; j < 24; j++) {
			want_any |= (j / 3 == lane / 3) << j;
			unsigned long long vj = j < 16 ? 0x100000000ull : 0x100000000ull + (j & 1);
			unsigned long long vl = lane < 16 ? 0x100000000ull : 0x100000000ull + (lane & 1);
			want64 |= (vj == vl) << j;
		}
		if (hm[0][t] != want_any || hm[1][t] != want64 || hm[2][t] != 0x00ffffffu || hm[3][t] != 1 ||
		    hm[4][t] != 0 || hm[5][t] != 0) {
			printf("match thread %d: any %08x (want %08x) any64 %08x (want %08x) all %08x %d "
			       "%08x %d\n", t, hm[0][t], want_any, hm[1][t], want64, hm[2][t], (int)hm[3][t],
			       hm[4][t], (int)hm[5][t]);
			ok = false;
		}
	}
	CHECK(ok, "match.any.sync (b32, b64) and match.all.sync with a partial member mask");

	// recursion: 32 threads, depths 0..31, and is_even/is_odd down to 217 calls: ptxas gives
	// is_even a 16-byte frame, 3.5 KB at that depth, past CUDA's 1 KB default stack
	size_t stack0 = 0, stack1 = 0;
	CU(cudaDeviceGetLimit(&stack0, cudaLimitStackSize));
	CU(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
	CU(cudaDeviceGetLimit(&stack1, cudaLimitStackSize));
	CHECK(stack0 == 1024 && stack1 == 8192, "cudaLimitStackSize 1024 by default, 8192 as set");
	int *dt, *dp, *dtr;
	unsigned long long *df;
	CU(cudaMalloc(&dt, 32 * sizeof(int)));
	CU(cudaMalloc(&dp, 32 * sizeof(int)));
	CU(cudaMalloc(&df, 32 * sizeof(unsigned long long)));
	CU(cudaMalloc(&dtr, 32 * 64 * sizeof(int)));
	recursive<<<1, 32>>>(dt, dp, df, dtr);
	CU(cudaDeviceSynchronize());
	int ht[32], hp[32];
	unsigned long long hf[32];
	CU(cudaMemcpy(ht, dt, sizeof ht, cudaMemcpyDeviceToHost));
	CU(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
	CU(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
	ok = true;
	unsigned long long fibs[16] = {0, 1};
	for (int i = 2; i < 16; i++)
		fibs[i] = fibs[i - 1] + fibs[i - 2];
	for (int i = 0; i < 32; i++)
		if (ht[i] != i * (i + 1) / 2 || hp[i] != ((i * 7) % 2 ? 1 : 2) || hf[i] != fibs[i % 16]) {
			printf("recursion thread %d: tri %d parity %d fib %llu\n", i, ht[i], hp[i], hf[i]);
			ok = false;
		}
	CHECK(ok, "recursive and mutually recursive calls, divergent depths, frames kept");

	// an 8 KB parameter
	static struct big hbig;
	for (int i = 0; i < 2048; i++)
		hbig.v[i] = i * 5 + 1;
	int *dout, hout[2048];
	CU(cudaMalloc(&dout, sizeof hout));
	big_param<<<16, 128>>>(hbig, dout);
	CU(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
	ok = true;
	for (int i = 0; i < 2048; i++)
		ok &= hout[i] == hbig.v[i] * 3 + hbig.v[2047 - i];
	CHECK(ok, "an 8 KB kernel parameter");
	printf("PASS\n");
	return 0;
}
