// a struct passed by value (.param .align 8 .b8 p[32]) copied to a .local depot and indexed
struct P { int a; float b; double c; int arr[4]; };
__global__ void sk(P p, float *out, int k) {
  int i = threadIdx.x;
  out[i] = p.a + p.b + (float)p.c + p.arr[(i + k) & 3];
}
