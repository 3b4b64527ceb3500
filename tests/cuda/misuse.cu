// SPDX-License-Identifier: MIT
// warpsim's own test of the runtime against misuse: destroyed, made-up and mixed-up handles
// (events, streams, texture objects, host buffers), kernel faults and their codes, and
// cudaDeviceReset after them. Each case prints "what: code name string"; the test compares
// them with the codes CUDA defines. Ends with a reset after launches, as the samples do.
#include <cassert>
#include <cstdio>

__device__ int counter = 5;

__global__ void touch(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += 1;
}

__global__ void misaligned(int *p)
{
	int *q = (int *)((char *)p + 2);
	q[threadIdx.x] = 1;
}

__global__ void bump(int *out)
{
	out[0] = counter++;
}

__global__ void traps()
{
	__trap();
}

__global__ void fails_assert(int v)
{
	assert(v == 0);
}

// out of bounds: the name must not turn the fault into cudaErrorAssert
__global__ void assert_trap_named(int *p)
{
	p[1 << 20] = 1;
}

static void report(const char *what, cudaError_t e)
{
	printf("%s: %d %s %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
	cudaGetLastError(); // clear it for the next case
}

static void name_of(int code)
{
	printf("name of %d: %s / %s\n", code, cudaGetErrorName((cudaError_t)code),
	       cudaGetErrorString((cudaError_t)code));
}

// A fault, the sticky error, a reset, and a device that works again.
static void fault_then_reset(const char *kind, void (*fault)(int *))
{
	int *d;
	cudaMalloc(&d, 64 * sizeof(int));
	fault(d);
	char what[128];
	snprintf(what, sizeof what, "%s: synchronise", kind);
	report(what, cudaDeviceSynchronize());
	snprintf(what, sizeof what, "%s: reset", kind);
	report(what, cudaDeviceReset());
	snprintf(what, sizeof what, "%s: synchronise after the reset", kind);
	report(what, cudaDeviceSynchronize());
	int *f;
	cudaMalloc(&f, 64 * sizeof(int));
	cudaMemset(f, 0, 64 * sizeof(int));
	touch<<<1, 64>>>(f, 64);
	snprintf(what, sizeof what, "%s: launch after the reset", kind);
	report(what, cudaGetLastError());
	int h[64];
	cudaError_t e = cudaMemcpy(h, f, sizeof h, cudaMemcpyDeviceToHost);
	snprintf(what, sizeof what, "%s: result after the reset (h[63] = %d)", kind, h[63]);
	report(what, e);
	cudaFree(f);
}

static void fault_misaligned(int *d) { misaligned<<<1, 32>>>(d); }
static void fault_trap(int *) { traps<<<1, 1>>>(); }
static void fault_assert(int *) { fails_assert<<<1, 1>>>(1); }
static void fault_named(int *d) { assert_trap_named<<<1, 1>>>(d); }

int main()
{
	// whole lines between the runtime's messages on stderr, for the test that reads both
	setvbuf(stdout, nullptr, _IOLBF, 0);
	int *d, h[16] = {0}, local = 0;
	cudaMalloc(&d, sizeof h);
	cudaMemset(d, 0, sizeof h);

	// ---- events
	cudaEvent_t ev, ev2, live;
	cudaEventCreate(&ev);
	cudaEventDestroy(ev);
	report("record on a destroyed event", cudaEventRecord(ev, 0));
	report("destroy of a destroyed event", cudaEventDestroy(ev));
	report("synchronise on a destroyed event", cudaEventSynchronize(ev));
	report("query of a destroyed event", cudaEventQuery(ev));
	cudaEventCreate(&live); // may reuse the destroyed event's slot
	report("record on a new event", cudaEventRecord(live, 0));
	report("record on the old event again", cudaEventRecord(ev, 0));
	float ms = -1;
	report("elapsed time from a destroyed event", cudaEventElapsedTime(&ms, ev, live));
	report("record on a made-up event", cudaEventRecord((cudaEvent_t)0x1234, 0));
	report("record on a host pointer as event", cudaEventRecord((cudaEvent_t)&local, 0));
	report("record on a NULL event", cudaEventRecord(nullptr, 0));
	report("event with flags 0x80", cudaEventCreateWithFlags(&ev2, 0x80));
	cudaEventCreate(&ev2);
	report("elapsed time to an event never recorded", cudaEventElapsedTime(&ms, live, ev2));
	cudaEvent_t nt;
	cudaEventCreateWithFlags(&nt, cudaEventDisableTiming);
	cudaEventRecord(nt, 0);
	report("elapsed time of a timing-disabled event", cudaEventElapsedTime(&ms, live, nt));
	cudaEventRecord(ev2, 0);
	report("elapsed time of two live events", cudaEventElapsedTime(&ms, live, ev2));

	// ---- streams
	cudaStream_t s, s2;
	cudaStreamCreate(&s);
	cudaStreamDestroy(s);
	report("synchronise on a destroyed stream", cudaStreamSynchronize(s));
	report("query of a destroyed stream", cudaStreamQuery(s));
	report("destroy of a destroyed stream", cudaStreamDestroy(s));
	report("copy on a destroyed stream", cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s));
	touch<<<1, 16, 0, s>>>(d, 16);
	report("launch on a destroyed stream", cudaGetLastError());
	report("record on a destroyed stream", cudaEventRecord(live, s));
	touch<<<1, 16, 0, (cudaStream_t)0x1234>>>(d, 16);
	report("launch on a made-up stream", cudaGetLastError());
	report("memset on a made-up stream", cudaMemsetAsync(d, 0, sizeof h, (cudaStream_t)0x1234));
	report("copy on a host pointer as stream",
	       cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, (cudaStream_t)&local));
	report("destroy of the default stream", cudaStreamDestroy(0));
	report("an event as a stream", cudaStreamSynchronize((cudaStream_t)live));
	cudaStreamCreate(&s2);
	report("a stream as an event", cudaEventRecord((cudaEvent_t)s2, 0));
	report("wait on a destroyed event", cudaStreamWaitEvent(s2, ev, 0));
	report("stream with flags 0x10", cudaStreamCreateWithFlags(&s, 0x10));
	report("copy on cudaStreamPerThread", cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice,
							      cudaStreamPerThread));
	report("memset on cudaStreamLegacy", cudaMemsetAsync(d, 0, sizeof h, cudaStreamLegacy));
	touch<<<1, 16, 0, s2>>>(d, 16);
	report("launch on a live stream", cudaGetLastError());

	// ---- host buffers and texture objects
	void *hb;
	cudaMallocHost(&hb, 256);
	report("free of a host buffer", cudaFreeHost(hb));
	report("free of a host buffer again", cudaFreeHost(hb));
	report("host free of a device pointer", cudaFreeHost(d));
	report("host free of a stack pointer", cudaFreeHost(&local));
	cudaResourceDesc r = {};
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = d;
	r.res.linear.desc = cudaCreateChannelDesc<int>();
	r.res.linear.sizeInBytes = sizeof h;
	cudaTextureDesc t = {};
	cudaTextureObject_t tex;
	report("texture object", cudaCreateTextureObject(&tex, &r, &t, nullptr));
	report("destroy of the texture object", cudaDestroyTextureObject(tex));
	report("destroy of the texture object again", cudaDestroyTextureObject(tex));
	report("destroy of a made-up texture object", cudaDestroyTextureObject(12345));

	// ---- names of codes
	name_of(709);
	name_of(715);
	name_of(716);
	name_of(718);
	name_of(999);
	name_of(12345);
	name_of(-1);

	// ---- faults and resets
	fault_then_reset("misaligned", fault_misaligned);
	fault_then_reset("trap", fault_trap);
	fault_then_reset("assert", fault_assert);
	fault_then_reset("out of bounds in a kernel named assert", fault_named);
	// handles and allocations from before the last reset
	report("copy from an allocation made before the reset", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	report("free of an allocation made before the reset", cudaFree(d));
	report("record on an event made before the reset", cudaEventRecord(live, 0));
	report("synchronise on a stream made before the reset", cudaStreamSynchronize(s2));
	report("destroy of a texture object made before the reset", cudaDestroyTextureObject(tex));
	report("reset of a clean device", cudaDeviceReset());
	// __device__ variables start again from their initial values
	int *o, v[2] = {-1, -1};
	cudaMalloc(&o, sizeof v);
	bump<<<1, 1>>>(o);
	cudaMemcpy(&v[0], o, sizeof(int), cudaMemcpyDeviceToHost);
	bump<<<1, 1>>>(o);
	cudaMemcpy(&v[1], o, sizeof(int), cudaMemcpyDeviceToHost);
	cudaDeviceReset();
	cudaMalloc(&o, sizeof v);
	bump<<<1, 1>>>(o);
	int after = -1;
	report("copy after the last reset", cudaMemcpy(&after, o, sizeof(int), cudaMemcpyDeviceToHost));
	printf("counter %d %d, after a reset %d\n", v[0], v[1], after);
	// launches since the previous reset: 1; the program resets at its end, as the samples do
	report("reset at the end", cudaDeviceReset());
	printf("PASS\n");
	return 0;
}
