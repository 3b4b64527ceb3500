// SPDX-License-Identifier: MIT
// warpsim's own test of texture objects: a 1D float texture over linear memory and a 2D
// float4-less (one channel) texture over pitched memory, read with point sampling and
// clamped coordinates.
#include <cstdio>

__global__ void read1d(cudaTextureObject_t t, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n + 4)
		out[i] = tex1Dfetch<float>(t, i); // past the end: 0 (linear memory reads as border)
}

__global__ void read2d(cudaTextureObject_t t, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) + tex2D<float>(t, -3.0f, y + 0.5f);
}

int main()
{
	const int n = 300, w = 40, h = 20;
	float hx[n];
	for (int i = 0; i < n; i++)
		hx[i] = i * 0.5f;
	float *dx, *dout;
	cudaMalloc(&dx, sizeof hx);
	cudaMalloc(&dout, (n + 4) * sizeof(float) + w * h * sizeof(float));
	cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
	cudaResourceDesc r = {};
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = dx;
	r.res.linear.desc = cudaCreateChannelDesc<float>();
	r.res.linear.sizeInBytes = sizeof hx;
	cudaTextureDesc td = {};
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t t1;
	cudaError_t e = cudaCreateTextureObject(&t1, &r, &td, nullptr);
	printf("create 1D: %s\n", cudaGetErrorString(e));
	read1d<<<(n + 4 + 127) / 128, 128>>>(t1, dout, n);
	float got[n];
	cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
	int fails = 0;
	for (int i = 0; i < n; i++)
		fails += got[i] != hx[i];
	printf("1D: %d mismatches\n", fails);

	float *dimg;
	size_t pitch;
	cudaMallocPitch(&dimg, &pitch, w * sizeof(float), h);
	float img[h][w];
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			img[y][x] = y * 100 + x;
	cudaMemcpy2D(dimg, pitch, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
	cudaResourceDesc r2 = {};
	r2.resType = cudaResourceTypePitch2D;
	r2.res.pitch2D.devPtr = dimg;
	r2.res.pitch2D.desc = cudaCreateChannelDesc<float>();
	r2.res.pitch2D.width = w;
	r2.res.pitch2D.height = h;
	r2.res.pitch2D.pitchInBytes = pitch;
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
	cudaTextureObject_t t2;
	e = cudaCreateTextureObject(&t2, &r2, &td, nullptr);
	printf("create 2D: %s\n", cudaGetErrorString(e));
	float *dout2 = dout + n + 4;
	read2d<<<dim3((w + 31) / 32, h), 32>>>(t2, dout2, w, h);
	float got2[h][w];
	cudaMemcpy(got2, dout2, sizeof got2, cudaMemcpyDeviceToHost);
	int fails2 = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			fails2 += got2[y][x] != img[y][x] + img[y][0]; // x = -3 clamps to column 0
	printf("2D: %d mismatches\n", fails2);
	cudaDestroyTextureObject(t1);
	cudaDestroyTextureObject(t2);
	printf(fails || fails2 ? "FAIL\n" : "PASS\n");
	return fails || fails2;
}
