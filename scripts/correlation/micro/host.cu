// SPDX-License-Identifier: MIT
// Host for micro.cu: args k (1 = short, 3 = long: the chains three times as long). The launches
// are those of micro.cfg at size short / long.
#include <cstdio>
#include <cstdlib>
#include "micro.cu"
int main(int argc, char **argv)
{
	const int n = 262144, k = argc > 1 ? atoi(argv[1]) : 1;
	int *h = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		h[i] = i;
	int *buf, *out;
	cudaMalloc(&buf, n * sizeof(int));
	cudaMalloc(&out, n * sizeof(int));
	cudaMemcpy(buf, h, n * sizeof(int), cudaMemcpyHostToDevice);
	m_alu<<<1, 32>>>(out, 8 * k);
	m_alu<<<1, 256>>>(out, 8);
	m_alu4<<<1, 32>>>(out, 8 * k);
	m_fma<<<1, 32>>>((float *)out, 8 * k);
	m_shm<<<1, 32>>>(out, 16 * k);
	m_bar<<<1, 256>>>(out, 64 * k);
	m_gld<<<1, 32>>>(buf, out, 256 * k, 1023, 32);
	m_gld<<<1, 32>>>(buf, out, 256, n - 1, 32 * 97);
	m_gld<<<1, 32>>>(buf, out, 1024, 16383, 32 * 5);
	cudaDeviceSynchronize();
	printf("micro done\n");
	return 0;
}
