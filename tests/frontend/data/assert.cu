// assert (__assertfail), printf (vprintf), __threadfence (membar.gl) and __trap in one kernel
#include <cstdio>
#include <cassert>
__global__ void ak(int *out, int n) {
  int i = threadIdx.x;
  assert(i < n);
  if (i == 3) printf("hello %d %f\n", i, 1.5);
  __threadfence();
  out[i] = i;
  if (i > 1000) __trap();
}
