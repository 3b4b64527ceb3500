// SPDX-License-Identifier: MIT
// warpsim's own test program: conjugate gradients for the 2D Poisson equation (5-point
// stencil, zero boundary) on an N x N grid. Per iteration: the stencil on a 2D grid of blocks,
// two dot products (a templated block reduction with warp shuffles and dynamic shared memory,
// launched through cudaLaunchKernel, then one block summing the partials), the vector updates
// reading their scalars on the device; a device-to-device copy and the residual read back each
// round drive the host loop. The host checks the answer's residual in double precision and
// compares it with its own double-precision CG.
// usage: cg_poisson [N]   (default 32)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// y = A x, A the 5-point negative Laplacian (4 on the diagonal, -1 to each neighbour)
__global__ void stencil(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= n || j >= n)
		return;
	int c = j * n + i;
	float s = 4.0f * x[c];
	if (i > 0)
		s -= x[c - 1];
	if (i < n - 1)
		s -= x[c + 1];
	if (j > 0)
		s -= x[c - n];
	if (j < n - 1)
		s -= x[c + n];
	y[c] = s;
}

template <typename T> __device__ T warp_sum(T v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

// partial[b] = sum over block b's grid-stride share of a[i] * b[i]; warp sums go through
// dynamic shared memory (one slot per warp)
template <typename T> __global__ void dot_partial(const T *a, const T *b, int m, T *partial)
{
	extern __shared__ unsigned char raw[];
	T *ws = reinterpret_cast<T *>(raw);
	T s = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x)
		s += a[i] * b[i];
	s = warp_sum(s);
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	if (lane == 0)
		ws[w] = s;
	__syncthreads();
	if (w == 0) {
		s = lane < nw ? ws[lane] : T(0);
		s = warp_sum(s);
		if (lane == 0)
			partial[blockIdx.x] = s;
	}
}

// *out = the sum of parts[0..k), k <= 32: one warp
__global__ void finish(const float *parts, int k, float *out)
{
	float s = threadIdx.x < k ? parts[threadIdx.x] : 0.0f;
	s = warp_sum(s);
	if (threadIdx.x == 0)
		*out = s;
}

// scal[0] = rho (r.r), scal[1] = p.Ap, scal[2] = the new rho
__global__ void update_xr(float *x, float *r, const float *p, const float *ap, const float *scal, int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float alpha = scal[0] / scal[1];
	if (i < m) {
		x[i] += alpha * p[i];
		r[i] -= alpha * ap[i];
	}
}

__global__ void update_p(float *p, const float *r, const float *scal, int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float beta = scal[2] / scal[0];
	if (i < m)
		p[i] = r[i] + beta * p[i];
}

static void apply_host(const std::vector<double> &x, std::vector<double> &y, int n)
{
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			int c = j * n + i;
			double s = 4.0 * x[c];
			if (i > 0)
				s -= x[c - 1];
			if (i < n - 1)
				s -= x[c + 1];
			if (j > 0)
				s -= x[c - n];
			if (j < n - 1)
				s -= x[c + n];
			y[c] = s;
		}
}

static double dot_host(const std::vector<double> &a, const std::vector<double> &b)
{
	double s = 0;
	for (size_t i = 0; i < a.size(); i++)
		s += a[i] * b[i];
	return s;
}

#define PARTS 16
#define THREADS 128

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 32;
	if (n < 2 || n > 512) {
		fprintf(stderr, "usage: cg_poisson [N], 2 <= N <= 512\n");
		return 2;
	}
	int m = n * n;
	const float tol = 1e-4f; // relative residual norm
	std::vector<float> hb(m);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) // a point load and a smooth one
			hb[j * n + i] = (i == n / 3 && j == n / 2 ? 10.0f : 0.0f) +
					sinf(3.14159265f * (i + 1) / (n + 1)) * sinf(3.14159265f * (j + 1) / (n + 1));
	float *x, *r, *p, *ap, *parts, *scal;
	cudaMalloc(&x, m * sizeof(float));
	cudaMalloc(&r, m * sizeof(float));
	cudaMalloc(&p, m * sizeof(float));
	cudaMalloc(&ap, m * sizeof(float));
	cudaMalloc(&parts, PARTS * sizeof(float));
	cudaMalloc(&scal, 3 * sizeof(float));
	cudaMemset(x, 0, m * sizeof(float));
	cudaMemcpy(r, hb.data(), m * sizeof(float), cudaMemcpyHostToDevice); // x = 0: r = b
	cudaMemcpy(p, r, m * sizeof(float), cudaMemcpyDeviceToDevice);

	dim3 sb(16, 8), sg((n + 15) / 16, (n + 7) / 8);
	int vb = (m + THREADS - 1) / THREADS;
	size_t dyn = THREADS / 32 * sizeof(float);
	// dot(u, v) into *out through cudaLaunchKernel (dynamic shared memory) and finish
	auto dot = [&](const float *u, const float *v, float *out) {
		void *args[] = {(void *)&u, (void *)&v, (void *)&m, (void *)&parts};
		cudaLaunchKernel((const void *)dot_partial<float>, dim3(PARTS), dim3(THREADS), args, dyn, 0);
		finish<<<1, 32>>>(parts, PARTS, out);
	};
	dot(r, r, scal);
	float rho0 = 0, rho = 0;
	cudaMemcpy(&rho0, scal, sizeof(float), cudaMemcpyDeviceToHost);
	rho = rho0;
	int it = 0, launches = 2;
	while (rho > tol * tol * rho0 && it < 4 * m) {
		stencil<<<sg, sb>>>(p, ap, n);
		dot(p, ap, scal + 1);
		update_xr<<<vb, THREADS>>>(x, r, p, ap, scal, m);
		dot(r, r, scal + 2);
		update_p<<<vb, THREADS>>>(p, r, scal, m);
		cudaMemcpy(scal, scal + 2, sizeof(float), cudaMemcpyDeviceToDevice); // rho = new rho
		cudaMemcpy(&rho, scal, sizeof(float), cudaMemcpyDeviceToHost);
		launches += 7;
		it++;
	}
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		printf("cg: %s\n", cudaGetErrorString(e));
		return 1;
	}
	std::vector<float> hx(m);
	cudaMemcpy(hx.data(), x, m * sizeof(float), cudaMemcpyDeviceToHost);

	// the device's answer in double precision, and the host's own CG
	std::vector<double> dx(hx.begin(), hx.end()), b(hb.begin(), hb.end()), ax(m);
	apply_host(dx, ax, n);
	double res = 0;
	for (int i = 0; i < m; i++)
		res += (b[i] - ax[i]) * (b[i] - ax[i]);
	double bnorm = sqrt(dot_host(b, b)), rel = sqrt(res) / bnorm;
	std::vector<double> hxr(m, 0.0), hr = b, hp = b, hap(m);
	double hrho = dot_host(hr, hr);
	int hit = 0;
	while (hrho > 1e-24 * dot_host(b, b) && hit < 4 * m) {
		apply_host(hp, hap, n);
		double alpha = hrho / dot_host(hp, hap);
		for (int i = 0; i < m; i++) {
			hxr[i] += alpha * hp[i];
			hr[i] -= alpha * hap[i];
		}
		double nr = dot_host(hr, hr);
		for (int i = 0; i < m; i++)
			hp[i] = hr[i] + nr / hrho * hp[i];
		hrho = nr;
		hit++;
	}
	double err = 0, xmax = 0;
	for (int i = 0; i < m; i++) {
		err = fmax(err, fabs(hx[i] - hxr[i]));
		xmax = fmax(xmax, fabs(hxr[i]));
	}
	printf("%dx%d grid: %d iterations, %d launches; residual %.2e of |b| (goal %.0e)\n", n, n, it, launches,
	       rel, (double)tol);
	printf("largest difference from the host's solution %.2e of its largest value\n", err / xmax);
	for (float *q : {x, r, p, ap, parts, scal})
		cudaFree(q);
	bool ok = rel < 2 * tol && err / xmax < 1e-3 && it < 4 * m;
	printf(ok ? "PASS\n" : "FAIL\n");
	return ok ? 0 : 1;
}
