__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__device__ int helper(int x, int y) { return x * y + (x >> 3); }
__global__ void k2(int *out, const double *d, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int v = s[(t + 1) % 128];
  for (int i = 0; i < n; i++) { if (t & 1) v += i; else v -= helper(v, i); }
  v += __shfl_down_sync(0xffffffff, v, 1);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  atomicAdd(out + 200, (int)b);
  out[t] = v + (int)(d[t] * 2.5) + __popc(b) + (int)sqrtf((float)t) + (int)__sinf(t);
  long long w = (long long)t * 12345678901LL; out[t+300] = (int)(w >> 40) + t / (n+1) + t % 7;
}
