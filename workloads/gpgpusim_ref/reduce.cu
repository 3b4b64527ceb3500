#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define BS 256
extern "C" __global__ void reduce(const int* in, int* out, int n) {
  __shared__ int s[BS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
int main() {
  const int n = 1 << 20;
  int* h = (int*)malloc(n * sizeof(int));
  long long ref = 0;
  for (int i = 0; i < n; i++) { h[i] = (i % 17) - 8; ref += h[i]; }
  int blocks = (n + BS * 2 - 1) / (BS * 2);
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int)); cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  reduce<<<blocks, BS>>>(din, dout, n);
  int* hout = (int*)malloc(blocks * sizeof(int));
  cudaMemcpy(hout, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int b = 0; b < blocks; b++) sum += hout[b];
  printf("reduce n=%d blocks=%d sum=%lld ref=%lld %s\n", n, blocks, sum, ref, sum == ref ? "PASS" : "FAIL");
  return sum != ref;
}
