// control flow: nested loops with break/continue, early return, a dense switch, goto-like flow
__device__ __noinline__ int classify(int v) {
  switch (v & 7) {
  case 0: return v * 3;
  case 1: return v + 11;
  case 2: return v - 4;
  case 3: return v ^ 0x55;
  case 4: return v << 2;
  case 5: return v >> 1;
  case 6: return -v;
  default: return 7;
  }
}
extern "C" __global__ void ctrl(int *out, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int acc = 0;
  if (t % 17 == 16) { out[t] = -1; return; }
  for (int i = 0; i < n; i++) {
    if ((i + t) % 5 == 0) continue;
    for (int j = 0; j < i; j++) {
      if (((t ^ j) & 3) == 3) break;
      acc += classify(t + i * j);
      if (acc > 100000) goto done;
    }
    if (acc & 1) acc = acc * 3 + 1; else acc >>= 1;
    while (acc > 5000) acc -= 777;
  }
done:
  out[t] = acc;
}
