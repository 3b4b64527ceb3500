#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < N / TILE; t++) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
int main() {
  const int N = 256;
  size_t bytes = N * N * sizeof(float);
  float *A = (float*)malloc(bytes), *B = (float*)malloc(bytes), *C = (float*)malloc(bytes);
  for (int i = 0; i < N * N; i++) { A[i] = (i % 13) * 0.25f; B[i] = ((i * 7) % 11) * 0.5f - 2.0f; }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, bytes); cudaMalloc(&dB, bytes); cudaMalloc(&dC, bytes);
  cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, N);
  cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost);
  int errs = 0;
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
    float r = 0; for (int k = 0; k < N; k++) r += A[i * N + k] * B[k * N + j];
    if (fabsf(r - C[i * N + j]) > 1e-2f * fmaxf(1.0f, fabsf(r))) errs++;
  }
  printf("matmul N=%d errors=%d %s\n", N, errs, errs ? "FAIL" : "PASS");
  return errs != 0;
}
