// SPDX-License-Identifier: MIT
// The workload matmul's kernel (workloads/matmul/matmul.cu, the same source) driven by a host
// program: `warpsim cuda` against `warpsim run -w workloads/matmul/matmul.cfg` on the same
// kernel (cudart/NOTES.md, speed). Checks every element against the host's product.
// usage: matmul_app [N]   (N a multiple of 16, default 256: the workload's size large)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../workloads/matmul/matmul.cu"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256;
	if (n < 16 || n > 2048 || n % 16) {
		fprintf(stderr, "usage: matmul_app [N], N a multiple of 16 up to 2048\n");
		return 2;
	}
	std::vector<float> a(n * n), b(n * n), c(n * n);
	unsigned s = 1;
	for (int i = 0; i < n * n; i++) {
		s = s * 1664525u + 1013904223u;
		a[i] = (float)(s >> 8) / 16777216.0f * 2.0f - 1.0f;
		s = s * 1664525u + 1013904223u;
		b[i] = (float)(s >> 8) / 16777216.0f * 2.0f - 1.0f;
	}
	float *da, *db, *dc;
	size_t bytes = (size_t)n * n * sizeof(float);
	cudaMalloc(&da, bytes);
	cudaMalloc(&db, bytes);
	cudaMalloc(&dc, bytes);
	cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
	matmul_tiled<<<dim3(n / MM_TILE, n / MM_TILE), dim3(MM_TILE, MM_TILE)>>>(da, db, dc, n);
	cudaError_t e = cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);
	if (e != cudaSuccess) {
		printf("matmul: %s\n", cudaGetErrorString(e));
		return 1;
	}
	int bad = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double r = 0;
			for (int k = 0; k < n; k++)
				r += (double)a[i * n + k] * b[k * n + j];
			bad += fabs(r - c[i * n + j]) > 1e-4 * n;
		}
	printf("%dx%d product, %d elements differ from the host's\n", n, n, bad);
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	printf(bad ? "FAIL\n" : "PASS\n");
	return bad ? 1 : 0;
}
