// SPDX-License-Identifier: MIT
// Batched radix-2 decimation-in-frequency FFT of 1024-point complex signals (OWL Type-1,
// FFT-like): one launch per stage, each thread one butterfly reading two points and a twiddle
// from a table every CTA shares; the output is in bit-reversed order. Explicit _rn intrinsics
// keep the rounding of each operation fixed (no contraction), so the C reference is exact.
#define FFT_N 1024
extern "C" __global__ void fft_dif_stage(float2 *x, const float2 *tw, int half)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int sig = j / (FFT_N / 2), t = j % (FFT_N / 2);
	int lo = t % half, i0 = sig * FFT_N + (t / half) * 2 * half + lo, i1 = i0 + half;
	float2 a = x[i0], b = x[i1], w = tw[lo * (FFT_N / 2 / half)];
	float dr = __fsub_rn(a.x, b.x), di = __fsub_rn(a.y, b.y);
	x[i0] = make_float2(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y));
	x[i1] = make_float2(__fsub_rn(__fmul_rn(dr, w.x), __fmul_rn(di, w.y)),
			    __fadd_rn(__fmul_rn(dr, w.y), __fmul_rn(di, w.x)));
}
