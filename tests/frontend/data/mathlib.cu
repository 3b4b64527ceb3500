// libdevice math expanded by nvcc into plain PTX: float and double functions
extern "C" __global__ void mathf(const float *in, float *out) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float x = in[t];
  out[t * 12 + 0] = expf(x);
  out[t * 12 + 1] = logf(x + 2.0f);
  out[t * 12 + 2] = sinf(x);
  out[t * 12 + 3] = cosf(x * 3.0f);
  out[t * 12 + 4] = tanhf(x);
  out[t * 12 + 5] = powf(x + 2.0f, 1.7f);
  out[t * 12 + 6] = erff(x);
  out[t * 12 + 7] = atan2f(x, 2.0f);
  out[t * 12 + 8] = fmodf(x * 10.0f, 0.3f);
  out[t * 12 + 9] = sqrtf(x + 2.0f);
  out[t * 12 + 10] = roundf(x * 7.0f);
  out[t * 12 + 11] = cbrtf(x);
}
extern "C" __global__ void mathd(const double *in, double *out) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  double x = in[t];
  out[t * 6 + 0] = exp(x);
  out[t * 6 + 1] = log(x + 2.0);
  out[t * 6 + 2] = sin(x);
  out[t * 6 + 3] = pow(x + 2.0, 1.7);
  out[t * 6 + 4] = x / (x + 3.0);
  out[t * 6 + 5] = sqrt(x + 2.0);
}
