// SPDX-License-Identifier: MIT
// warpsim's test of CUDA graphs made by stream capture: a capture records kernel launches,
// async copies and memsets and host functions without running them; an instantiated graph
// replays them in order each time it is launched; a refused call spoils the capture; handles
// of destroyed graphs are refused. Exits 1 at the first failure.
#include <cstdio>

#include "check.cuh"

__global__ void add(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += v;
}

static int host_runs, first_seen[8];

static void note(void *user)
{
	first_seen[host_runs++ & 7] = ((int *)user)[0]; // the copy before it has landed
}

int main()
{
	const int n = 1000;
	int *d, *h;
	CU(cudaMalloc(&d, n * sizeof(int)));
	CU(cudaMallocHost(&h, n * sizeof(int)));
	cudaStream_t s;
	CU(cudaStreamCreate(&s));
	CU(cudaMemset(d, 0, n * sizeof(int)));
	add<<<4, 256>>>(d, n, 100); // before the capture: runs now
	cudaStreamCaptureStatus st;
	CU(cudaStreamIsCapturing(s, &st));
	CHECK(st == cudaStreamCaptureStatusNone, "not capturing yet");

	CU(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CU(cudaStreamIsCapturing(s, &st));
	CHECK(st == cudaStreamCaptureStatusActive, "capturing");
	CU(cudaMemsetAsync(d, 0, n * sizeof(int), s));
	for (int v = 1; v <= 3; v++)
		add<<<4, 256, 0, s>>>(d, n, v); // 1 + 2 + 3: the arguments are captured by value
	CU(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
	CU(cudaLaunchHostFunc(s, note, h));
	cudaGraph_t graph;
	CU(cudaStreamEndCapture(s, &graph));
	CHECK(host_runs == 0, "a captured host function does not run at capture");
	CU(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(h[0] == 100 && h[n - 1] == 100, "captured work does not run at capture");

	cudaGraphExec_t exec;
	CU(cudaGraphInstantiate(&exec, graph, 0));
	CU(cudaGraphDestroy(graph)); // the executable graph is its own copy
	for (int r = 0; r < 3; r++) {
		h[0] = -1;
		CU(cudaGraphLaunch(exec, s));
	}
	CU(cudaStreamSynchronize(s));
	bool all = true;
	for (int i = 0; i < n; i++)
		all = all && h[i] == 6;
	CHECK(all, "each launch: memset, three kernels, the copy");
	CHECK(host_runs == 3 && first_seen[0] == 6 && first_seen[2] == 6,
	      "the host function runs once a launch, after the copy");
	CU(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphLaunch(exec, s) == cudaErrorInvalidValue, "a destroyed graph is refused");
	cudaGetLastError();

	// a call the capture cannot hold spoils it
	CU(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	CHECK(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported,
	      "synchronising a stream being captured is refused");
	CU(cudaStreamIsCapturing(s, &st));
	CHECK(st == cudaStreamCaptureStatusInvalidated, "and spoils the capture");
	CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorStreamCaptureInvalidated,
	      "the capture ends invalidated");
	CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorIllegalState, "no capture to end");
	CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
		      cudaErrorStreamCaptureUnsupported, "the legacy stream cannot be captured");
	cudaGetLastError();

	// an empty graph made by hand launches and does nothing
	CU(cudaGraphCreate(&graph, 0));
	CU(cudaGraphInstantiate(&exec, graph, 0));
	CU(cudaGraphLaunch(exec, 0));
	CU(cudaGraphExecDestroy(exec));
	CU(cudaGraphDestroy(graph));
	CU(cudaStreamDestroy(s));
	CU(cudaFree(d));
	CU(cudaFreeHost(h));
	CU(cudaDeviceSynchronize());
	printf("PASS\n");
	return 0;
}
