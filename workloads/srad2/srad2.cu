// SPDX-License-Identifier: MIT
// SRAD-like diffusion in two kernels on 16x16 tiles (OWL Type-1 SD2-like, BAWS SRAD2 class):
// srad_grad stages J with a one-cell halo in shared memory (edge warps load the halo while the
// rest wait at the barrier), writes the four differences and a diffusion coefficient;
// srad_update stages the coefficients with the south/east halo and updates J in place. Integer
// (fixed-point) arithmetic; image borders are clamped.
#define SR_T 16
extern "C" __global__ void srad_grad(const int *J, int *dN, int *dS, int *dW, int *dE, int *C,
				     int w, int h)
{
	__shared__ int sj[SR_T + 2][SR_T + 2];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * SR_T + tx, y = blockIdx.y * SR_T + ty, i = y * w + x;
	sj[ty + 1][tx + 1] = J[i];
	if (ty == 0)
		sj[0][tx + 1] = J[max(y - 1, 0) * w + x];
	if (ty == SR_T - 1)
		sj[SR_T + 1][tx + 1] = J[min(y + 1, h - 1) * w + x];
	if (tx == 0)
		sj[ty + 1][0] = J[y * w + max(x - 1, 0)];
	if (tx == SR_T - 1)
		sj[ty + 1][SR_T + 1] = J[y * w + min(x + 1, w - 1)];
	__syncthreads();
	int jc = sj[ty + 1][tx + 1];
	int n = sj[ty][tx + 1] - jc, s = sj[ty + 2][tx + 1] - jc;
	int wv = sj[ty + 1][tx] - jc, e = sj[ty + 1][tx + 2] - jc;
	int g2 = (n * n + s * s + wv * wv + e * e) >> 6;
	dN[i] = n;
	dS[i] = s;
	dW[i] = wv;
	dE[i] = e;
	C[i] = 4096 / (64 + g2);
}

extern "C" __global__ void srad_update(int *J, const int *C, const int *dN, const int *dS,
				       const int *dW, const int *dE, int w, int h, int lambda)
{
	__shared__ int sc[SR_T + 1][SR_T + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * SR_T + tx, y = blockIdx.y * SR_T + ty, i = y * w + x;
	sc[ty][tx] = C[i];
	if (ty == SR_T - 1)
		sc[SR_T][tx] = C[min(y + 1, h - 1) * w + x];
	if (tx == SR_T - 1)
		sc[ty][SR_T] = C[y * w + min(x + 1, w - 1)];
	__syncthreads();
	int cc = sc[ty][tx], cs = sc[ty + 1][tx], ce = sc[ty][tx + 1];
	int div = cc * dN[i] + cs * dS[i] + cc * dW[i] + ce * dE[i];
	J[i] = J[i] + ((lambda * div) >> 8);
}
