#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *a = (float*)malloc(bytes), *b = (float*)malloc(bytes), *c = (float*)malloc(bytes);
  for (int i = 0; i < n; i++) { a[i] = i * 0.5f; b[i] = 1.0f + (i % 7); }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes); cudaMalloc(&db, bytes); cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  int threads = 256, blocks = (n + threads - 1) / threads;
  vecadd<<<blocks, threads>>>(da, db, dc, n);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int errs = 0;
  for (int i = 0; i < n; i++) if (fabsf(c[i] - (a[i] + b[i])) > 1e-5f) errs++;
  printf("vecadd n=%d errors=%d %s\n", n, errs, errs ? "FAIL" : "PASS");
  cudaFree(da); cudaFree(db); cudaFree(dc);
  return errs != 0;
}
