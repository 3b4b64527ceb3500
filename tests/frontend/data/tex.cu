// texture objects: tex2D on a 2-channel float texture, tex1D (float coordinate) and
// tex1Dfetch (integer index) on 1-channel textures
__global__ void texk(float *out, cudaTextureObject_t t2, cudaTextureObject_t tf, cudaTextureObject_t ti) {
  int i = threadIdx.x;
  float2 v = tex2D<float2>(t2, i + 0.5f, 1.5f);
  float u = tex1D<float>(tf, i * 0.5f);
  int w = tex1Dfetch<int>(ti, i);
  out[i] = v.x + v.y * 10.0f + u * 100.0f + w * 1000.0f;
}
