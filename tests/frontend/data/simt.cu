// divergence inside a loop, a barrier after divergence, shared-memory atomics
__global__ void diverge(int *out, int n) {
  int t = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < n; i++) {
    if ((t + i) & 1) acc += i; else acc -= 2 * i;
  }
  out[t] = acc;
}
__global__ void hist(const int *in, int *bins, int n) {
  __shared__ int sb[16];
  int t = threadIdx.x;
  if (t < 16) sb[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sb[in[i] & 15], 1);
  __syncthreads();
  if (t < 16) atomicAdd(&bins[t], sb[t]);
}
__global__ void reduce(const float *in, float *out) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
__constant__ float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int gcount;
__global__ void constk(float *out) {
  int t = threadIdx.x;
  out[t] = coef[t & 3] * t;
  atomicAdd(&gcount, 1);
}
