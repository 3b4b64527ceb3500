// .func with parameters and a return value (noinline keeps the call in PTX)
__device__ __noinline__ int mix(int x, int y) {
  if (x & 1) return x * y + 7;
  return x - y;
}
__device__ __noinline__ float scale(float v, float s) { return v * s; }
__global__ void calls(int *out, float *fo) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  out[t] = mix(t, 3) + mix(t + 1, t);
  fo[t] = scale((float)t, 0.5f);
}
