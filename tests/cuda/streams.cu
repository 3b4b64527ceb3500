// SPDX-License-Identifier: MIT
// warpsim's test of concurrent streams, in the style of the SDK's concurrentKernels and
// simpleHyperQ: kernels of one CTA that spin on clock64 for a fixed number of cycles, launched
// in several streams. It prints what depends on the machine's setting
// (gpu.cta_dispatcher.concurrent_kernels) as "value NAME N" / "order NAME yes|no" for the test to
// compare with figures computed by hand, and checks here what holds in every setting: stream
// order, cudaStreamWaitEvent, the legacy default stream's synchronisation with blocking streams,
// results of every kernel. Argument: the cycles each kernel spins (default 20000).
#include <cstdio>
#include <cstdlib>

#include "check.cuh"

// out[2*id] = the SM cycle the spin began, out[2*id+1] = the cycle it ended.
__global__ void spin(long long cycles, long long *out, int id)
{
	long long t0 = clock64(), t = t0;
	while (t - t0 < cycles)
		t = clock64();
	if (threadIdx.x == 0) {
		out[2 * id] = t0;
		out[2 * id + 1] = t;
	}
}

enum { NS = 4, SLOTS = 16 };

static long long h[2 * SLOTS];

static int fetch(long long *d)
{
	CU(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	return 0;
}

// Kernel a ended before kernel b began.
static bool before(int a, int b) { return h[2 * a + 1] < h[2 * b]; }
static bool overlap(int a, int b) { return h[2 * a] < h[2 * b + 1] && h[2 * b] < h[2 * a + 1]; }

int main(int argc, char **argv)
{
	long long cycles = argc > 1 ? atoll(argv[1]) : 20000;
	int khz = 0;
	CU(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
	long long *d;
	CU(cudaMalloc(&d, sizeof h));
	CU(cudaMemset(d, 0, sizeof h));
	cudaStream_t s[NS], nb;
	for (int i = 0; i < NS; i++)
		CU(cudaStreamCreate(&s[i]));
	CU(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
	cudaEvent_t start, stop, ev;
	CU(cudaEventCreate(&start));
	CU(cudaEventCreate(&stop));
	CU(cudaEventCreate(&ev));

	// 1. one kernel in each of NS streams between two events of the legacy stream
	CU(cudaEventRecord(start, 0));
	for (int i = 0; i < NS; i++)
		spin<<<1, 32, 0, s[i]>>>(cycles, d, i);
	CU(cudaGetLastError());
	CU(cudaEventRecord(stop, 0));
	CU(cudaEventSynchronize(stop));
	float ms = 0;
	CU(cudaEventElapsedTime(&ms, start, stop));
	printf("value elapsed_cycles %lld\n", (long long)(ms * khz + 0.5));
	if (fetch(d))
		return 1;
	for (int i = 0; i < NS; i++)
		CHECK(h[2 * i + 1] - h[2 * i] >= cycles, "each kernel spun its cycles");
	long long first = h[0], last = h[1];
	for (int i = 1; i < NS; i++) {
		first = h[2 * i] < first ? h[2 * i] : first;
		last = h[2 * i + 1] > last ? h[2 * i + 1] : last;
	}
	printf("value spin_span_cycles %lld\n", last - first);
	bool all = true;
	for (int i = 1; i < NS; i++)
		all = all && overlap(0, i);
	printf("order streams_overlap %s\n", all ? "yes" : "no");

	// 2. stream order: two kernels in one stream run one after the other
	spin<<<1, 32, 0, s[0]>>>(cycles, d, 4);
	spin<<<1, 32, 0, s[0]>>>(cycles, d, 5);
	// 3. an event of s[1] after kernel 6, waited for by s[2] before kernel 7
	spin<<<1, 32, 0, s[1]>>>(cycles, d, 6);
	CU(cudaEventRecord(ev, s[1]));
	CU(cudaStreamWaitEvent(s[2], ev, 0));
	spin<<<1, 32, 0, s[2]>>>(cycles, d, 7);
	// kernel 8 in s[3] waits for nothing: it runs beside the others when streams overlap
	spin<<<1, 32, 0, s[3]>>>(cycles, d, 8);
	cudaError_t q = cudaStreamQuery(s[0]);
	printf("value stream_query_while_queued %d\n", (int)q);
	CHECK(q == cudaSuccess || q == cudaErrorNotReady, "cudaStreamQuery: done or not ready");
	CU(cudaStreamQuery(s[0])); // whatever it said, it is done when asked again
	CU(cudaEventQuery(ev));
	CU(cudaDeviceSynchronize());
	if (fetch(d))
		return 1;
	CHECK(before(4, 5), "two kernels of one stream run in order");
	CHECK(before(6, 7), "a kernel after cudaStreamWaitEvent starts after the event's kernel");
	printf("order independent_overlap %s\n", overlap(6, 8) ? "yes" : "no");

	// 4. the legacy default stream waits for blocking streams and they wait for it; a
	// cudaStreamNonBlocking stream takes no part
	spin<<<1, 32, 0, s[1]>>>(cycles, d, 9);
	spin<<<1, 32>>>(cycles, d, 10);
	spin<<<1, 32, 0, s[2]>>>(cycles, d, 11);
	spin<<<1, 32, 0, nb>>>(3 * cycles, d, 12); // spans kernel 10 if it does not wait
	CU(cudaDeviceSynchronize());
	if (fetch(d))
		return 1;
	CHECK(before(9, 10), "the legacy stream's kernel waits for a blocking stream's");
	CHECK(before(10, 11), "a blocking stream's kernel waits for the legacy stream's");
	printf("order nonblocking_beside_legacy %s\n", overlap(10, 12) ? "yes" : "no");

	for (int i = 0; i < NS; i++)
		CU(cudaStreamDestroy(s[i]));
	CU(cudaStreamDestroy(nb));
	CU(cudaFree(d));
	printf("PASS\n");
	return 0;
}
