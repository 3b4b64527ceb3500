// SPDX-License-Identifier: MIT
// warpsim's own test of a host loop over several kernels: Jacobi relaxation of a 1D rod with
// fixed ends until no point moves more than a tolerance (a device flag read back each round),
// then a checksum kernel. The host computes the same in double precision to compare.
#include <cmath>
#include <cstdio>

__global__ void relax(const float *u, float *v, int n, int *moved, float tol)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i == 0 || i >= n - 1) {
		if (i < n)
			v[i] = u[i];
		return;
	}
	float nv = 0.5f * (u[i - 1] + u[i + 1]);
	v[i] = nv;
	if (fabsf(nv - u[i]) > tol)
		*moved = 1;
}

__global__ void checksum(const float *u, int n, float *sum)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(sum, u[i]);
}

int main()
{
	const int n = 64;
	const float tol = 1e-3f;
	float h[n];
	for (int i = 0; i < n; i++)
		h[i] = i == n - 1 ? 100.0f : 0.0f;
	float *a, *b, *sum;
	int *moved;
	cudaMalloc(&a, sizeof h);
	cudaMalloc(&b, sizeof h);
	cudaMalloc(&moved, sizeof(int));
	cudaMalloc(&sum, sizeof(float));
	cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
	int rounds = 0, flag = 1;
	while (flag && rounds < 100000) {
		cudaMemset(moved, 0, sizeof(int));
		relax<<<1, n>>>(a, b, n, moved, tol);
		float *t = a;
		a = b;
		b = t;
		cudaMemcpy(&flag, moved, sizeof flag, cudaMemcpyDeviceToHost);
		rounds++;
	}
	// the same iteration on the host, in float, must stop after the same number of rounds
	float u[n], v[n];
	for (int i = 0; i < n; i++)
		u[i] = h[i];
	int host_rounds = 0, hm = 1;
	while (hm) {
		hm = 0;
		v[0] = u[0];
		v[n - 1] = u[n - 1];
		for (int i = 1; i < n - 1; i++) {
			v[i] = 0.5f * (u[i - 1] + u[i + 1]);
			if (fabsf(v[i] - u[i]) > tol)
				hm = 1;
		}
		for (int i = 0; i < n; i++)
			u[i] = v[i];
		host_rounds++;
	}
	cudaMemset(sum, 0, sizeof(float));
	checksum<<<1, n>>>(a, n, sum);
	float dsum, res[n];
	cudaMemcpy(&dsum, sum, sizeof dsum, cudaMemcpyDeviceToHost);
	cudaMemcpy(res, a, sizeof res, cudaMemcpyDeviceToHost);
	double hsum = 0;
	int diff = 0;
	for (int i = 0; i < n; i++) {
		hsum += u[i];
		diff += res[i] != u[i];
	}
	printf("rounds %d (host %d), %d points differ, checksum %.3f (host %.3f)\n", rounds,
	       host_rounds, diff, dsum, hsum);
	bool ok = rounds == host_rounds && !diff && fabs(dsum - hsum) < 1e-2 * fabs(hsum);
	printf(ok ? "PASS\n" : "FAIL\n");
	return !ok;
}
