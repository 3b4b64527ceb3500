// __syncthreads_count / _and / _or (bar.red) and __ffs/__clz-style bit finding (bfind)
__global__ void syncred(int *out) {
  int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t < 1000);
  int o = __syncthreads_or(t == 77);
  int c2 = __syncthreads_count(t & 1);
  out[blockIdx.x * blockDim.x + t] = c + 1000 * a + 10000 * o + 100000 * c2;
}
