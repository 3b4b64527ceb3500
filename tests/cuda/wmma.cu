// SPDX-License-Identifier: MIT
// Tensor-core warp matrix operations (nvcuda::wmma, sm_75): GEMMs checked against the host.
// Inputs are small integers and halves, so every product and sum is exact in f16 and f32 and
// any GPU must give exactly the host's answer; one run on random halves compares within a
// relative 1e-6 instead. Covered: the three f16 shapes with f32 and f16 accumulators, row and
// column layouts on both sides, fill_fragment, element-wise code on fragments (scaling the
// accumulator, negating A), a load from shared memory, and s8 x s8 -> s32.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>
#include <mma.h>

#include "check.cuh"

using namespace nvcuda;

// C (M x N, row-major f32) = 2 * A (M x K, row-major) x B (K x N, col-major: B[n*K + k]) over
// 16x16x16 tiles: one warp a tile of C. neg: A negated element-wise in its fragments first.
__global__ void gemm_f32(const half *a, const half *b, float *c, int M, int N, int K, bool neg)
{
	int tm = blockIdx.y, tn = blockIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
	wmma::fill_fragment(fc, 0.0f);
	for (int k0 = 0; k0 < K; k0 += 16) {
		wmma::load_matrix_sync(fa, a + tm * 16 * K + k0, K);
		wmma::load_matrix_sync(fb, b + tn * 16 * K + k0, K);
		if (neg)
			for (int i = 0; i < fa.num_elements; i++)
				fa.x[i] = -fa.x[i];
		wmma::mma_sync(fc, fa, fb, fc);
	}
	for (int i = 0; i < fc.num_elements; i++)
		fc.x[i] *= 2.0f;
	wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, fc, N, wmma::mem_row_major);
}

// D (col-major f16) = A (col-major) x B (row-major) + C (row-major f16), one shape (MM x NN x 16),
// K = 16; A staged through shared memory.
template <int MM, int NN>
__global__ void mma_f16(const half *a, const half *b, const half *c, half *d)
{
	__shared__ half sa[MM * 16];
	for (int i = threadIdx.x; i < MM * 16; i += 32)
		sa[i] = a[i];
	__syncwarp();
	wmma::fragment<wmma::matrix_a, MM, NN, 16, half, wmma::col_major> fa;
	wmma::fragment<wmma::matrix_b, MM, NN, 16, half, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, MM, NN, 16, half> fc;
	wmma::load_matrix_sync(fa, sa, MM);
	wmma::load_matrix_sync(fb, b, NN);
	wmma::load_matrix_sync(fc, c, NN, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, MM, wmma::mem_col_major);
}

// s32 D (row-major) = s8 A (row-major) x s8 B (col-major) + s32 C (col-major), 16x16x16
__global__ void mma_s8(const signed char *a, const signed char *b, const int *c, int *d)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_col_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

template <int MM, int NN>
static bool check_f16_shape(unsigned seed)
{
	half ha[MM * 16], hb[16 * NN], hc[MM * NN], hd[MM * NN];
	srand(seed);
	for (int i = 0; i < MM * 16; i++)
		ha[i] = __float2half((float)(rand() % 7 - 3) * 0.5f);
	for (int i = 0; i < 16 * NN; i++)
		hb[i] = __float2half((float)(rand() % 5 - 2));
	for (int i = 0; i < MM * NN; i++)
		hc[i] = __float2half((float)(rand() % 9 - 4));
	half *da, *db, *dc, *dd;
	cudaMalloc(&da, sizeof ha);
	cudaMalloc(&db, sizeof hb);
	cudaMalloc(&dc, sizeof hc);
	cudaMalloc(&dd, sizeof hd);
	cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
	cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
	cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice);
	mma_f16<MM, NN><<<1, 32>>>(da, db, dc, dd);
	if (cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost) != cudaSuccess)
		return false;
	int bad = 0;
	for (int i = 0; i < MM; i++)
		for (int j = 0; j < NN; j++) {
			float s = __half2float(hc[i * NN + j]); // C row-major
			for (int k = 0; k < 16; k++) // A col-major (MM rows), B row-major
				s += __half2float(ha[k * MM + i]) * __half2float(hb[k * NN + j]);
			if (__half2float(hd[j * MM + i]) != s) // D col-major
				bad++;
		}
	cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dd);
	if (bad)
		printf("m%dn%dk16: %d of %d elements differ\n", MM, NN, bad, MM * NN);
	return bad == 0;
}

// the f32 GEMM; exact: inputs small integers; else random halves within a relative 1e-6
static bool check_gemm(int M, int N, int K, bool exact, bool neg, double *max_rel)
{
	size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
	half *ha = new half[na], *hb = new half[nb];
	float *hc = new float[nc];
	srand(7);
	for (size_t i = 0; i < na; i++)
		ha[i] = __float2half(exact ? (float)(rand() % 5 - 2) : (float)rand() / RAND_MAX - 0.5f);
	for (size_t i = 0; i < nb; i++)
		hb[i] = __float2half(exact ? (float)(rand() % 7 - 3) : (float)rand() / RAND_MAX - 0.5f);
	half *da, *db;
	float *dc;
	cudaMalloc(&da, na * sizeof(half));
	cudaMalloc(&db, nb * sizeof(half));
	cudaMalloc(&dc, nc * sizeof(float));
	cudaMemcpy(da, ha, na * sizeof(half), cudaMemcpyHostToDevice);
	cudaMemcpy(db, hb, nb * sizeof(half), cudaMemcpyHostToDevice);
	gemm_f32<<<dim3(N / 16, M / 16), 32>>>(da, db, dc, M, N, K, neg);
	bool ok = cudaMemcpy(hc, dc, nc * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
	int bad = 0;
	*max_rel = 0;
	for (int i = 0; ok && i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0, mag = 0;
			for (int k = 0; k < K; k++) {
				double p = (double)__half2float(ha[(size_t)i * K + k]) * __half2float(hb[(size_t)j * K + k]);
				s += neg ? -p : p;
				mag += fabs(p);
			}
			s *= 2;
			double got = hc[(size_t)i * N + j], err = fabs(got - s) / (2 * mag > 0 ? 2 * mag : 1);
			*max_rel = err > *max_rel ? err : *max_rel;
			if (exact ? got != s : err > 1e-6)
				bad++;
		}
	cudaFree(da), cudaFree(db), cudaFree(dc);
	delete[] ha, delete[] hb, delete[] hc;
	if (bad)
		printf("gemm %dx%dx%d: %d elements differ\n", M, N, K, bad);
	return ok && bad == 0;
}

int main()
{
	double rel;
	bool ok = check_gemm(64, 48, 64, true, false, &rel);
	CHECK(ok, "f16 GEMM 64x48x64 into f32, scaled by 2 in the fragment, exact");
	ok = check_gemm(32, 32, 32, true, true, &rel);
	CHECK(ok, "A negated element-wise in its fragments");
	ok = check_gemm(64, 64, 128, false, false, &rel);
	CHECK(ok, "random halves 64x64x128 within 1e-6");
	printf("random halves: largest error %.3g of the sum of |products|\n", rel);
	ok = check_f16_shape<16, 16>(1);
	CHECK(ok, "m16n16k16 f16 accumulator, col x row layouts, A from shared memory");
	ok = check_f16_shape<32, 8>(2);
	CHECK(ok, "m32n8k16 f16 accumulator");
	ok = check_f16_shape<8, 32>(3);
	CHECK(ok, "m8n32k16 f16 accumulator");

	signed char ha[256], hb[256];
	int hc[256], hd[256];
	for (int i = 0; i < 256; i++)
		ha[i] = (signed char)((i * 37) % 255 - 127), hb[i] = (signed char)((i * 91) % 251 - 125),
		hc[i] = i * 1000 - 128000;
	signed char *da, *db;
	int *dc, *dd;
	CU(cudaMalloc(&da, 256));
	CU(cudaMalloc(&db, 256));
	CU(cudaMalloc(&dc, sizeof hc));
	CU(cudaMalloc(&dd, sizeof hd));
	CU(cudaMemcpy(da, ha, 256, cudaMemcpyHostToDevice));
	CU(cudaMemcpy(db, hb, 256, cudaMemcpyHostToDevice));
	CU(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
	mma_s8<<<1, 32>>>(da, db, dc, dd);
	CU(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			int s = hc[j * 16 + i];
			for (int k = 0; k < 16; k++)
				s += ha[i * 16 + k] * hb[j * 16 + k];
			bad += hd[i * 16 + j] != s;
		}
	CHECK(bad == 0, "s8 x s8 + s32 -> s32, m16n16k16");
	printf("\nPASS\n");
	return 0;
}
