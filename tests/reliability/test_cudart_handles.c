/* SPDX-License-Identifier: MIT */
/* cudart/ (libcudart's handles, reset, error names, environment) in-process on the functional
 * machine, no CUDA program needed: destroyed, made-up, mixed-up and pre-reset handles are
 * refused and never read (the sanitizer build checks the latter), nothing is dropped. */
/* before Criterion, whose cr_fail macro would rewrite the runtime's declaration of its own */
#include "cudart/cudart_int.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Criterion runs each test in a process of its own: the runtime's state starts fresh. */
static void functional(void)
{
	setenv("WARPSIM_FUNCTIONAL", "1", 1);
	unsetenv("WARPSIM_CONFIG");
	unsetenv("WARPSIM_OVERRIDES");
	unsetenv("WARPSIM_OUTDIR");
}

TestSuite(cudart, .init = functional);

/* Each refusal prints a line (tests/cuda checks their words): the tests that make hundreds of
 * thousands send them nowhere rather than into ctest's log. */
static void quiet(void)
{
	cr_assert_not_null(freopen("/dev/null", "w", stderr));
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* 200,000 values that no call handed out (random 64-bit words, small integers, the live
 * handles' neighbours and their other generations) with 100 events and 100 streams live:
 * every call refuses each, and the live ones still work. */
Test(cudart, made_up_handles_are_refused)
{
	quiet();
	void *ev[100], *st[100];
	for (int i = 0; i < 100; i++) {
		cr_assert_eq(cudaEventCreate(&ev[i]), cudaSuccess);
		cr_assert_eq(cudaStreamCreate(&st[i]), cudaSuccess);
	}
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	long refused = 0;
	for (long n = 0; n < 200000; n++) {
		uint64_t live = (uint64_t)(uintptr_t)(n & 1 ? ev[n % 100] : st[n % 100]);
		uint64_t v = n % 4 == 0 ? xorshift(&seed) :
			     n % 4 == 1 ? (uint64_t)(n % 5000) + 3 :
			     n % 4 == 2 ? live + (uint64_t)(n % 7 + 1) * (1ull << 32) :
					  live ^ (uint64_t)(1u << (n % 32));
		int same = 0;
		for (int i = 0; i < 100; i++)
			same |= v == (uint64_t)(uintptr_t)ev[i] || v == (uint64_t)(uintptr_t)st[i];
		if (same)
			continue;
		void *h = (void *)(uintptr_t)v;
		cr_assert_eq(cudaEventRecord(h, NULL), cudaErrorInvalidResourceHandle, "%#llx",
			     (unsigned long long)v);
		cr_assert_eq(cudaEventQuery(h), cudaErrorInvalidResourceHandle);
		cr_assert_eq(cudaEventDestroy(h), cudaErrorInvalidResourceHandle);
		cr_assert_eq(cudaStreamSynchronize(h), v <= 2 ? cudaSuccess : cudaErrorInvalidResourceHandle);
		cr_assert_eq(cudaStreamDestroy(h), cudaErrorInvalidResourceHandle);
		refused++;
	}
	/* flipping a bit of the slot field names another live handle of the 200: those are skipped */
	cr_assert_gt(refused, 180000, "%ld", refused);
	/* an event is no stream, a stream no event */
	cr_assert_eq(cudaStreamSynchronize(ev[0]), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaEventRecord(st[0], NULL), cudaErrorInvalidResourceHandle);
	for (int i = 0; i < 100; i++) {
		cr_assert_eq(cudaEventRecord(ev[i], st[i]), cudaSuccess);
		cr_assert_eq(cudaEventDestroy(ev[i]), cudaSuccess);
		cr_assert_eq(cudaStreamDestroy(st[i]), cudaSuccess);
	}
}

/* One slot lives 10,000 times: each earlier handle stays dead, only the latest works. */
Test(cudart, a_reused_slot_does_not_revive_old_handles)
{
	quiet();
	enum { N = 10000 };
	void **old = calloc(N, sizeof *old);
	cr_assert_not_null(old);
	for (int i = 0; i < N; i++) {
		cr_assert_eq(cudaEventCreate(&old[i]), cudaSuccess);
		cr_assert_eq(cudaEventDestroy(old[i]), cudaSuccess);
	}
	void *cur;
	cr_assert_eq(cudaEventCreate(&cur), cudaSuccess);
	for (int i = 0; i < N; i++) {
		cr_assert_neq(old[i], cur);
		cr_assert_eq(cudaEventRecord(old[i], NULL), cudaErrorInvalidResourceHandle);
		cr_assert_eq(cudaEventDestroy(old[i]), cudaErrorInvalidResourceHandle);
	}
	cr_assert_eq(cudaEventRecord(cur, NULL), cudaSuccess);
	float ms = -1;
	cr_assert_eq(cudaEventElapsedTime(&ms, cur, cur), cudaSuccess);
	cr_assert_eq(ms, 0);
	cr_assert_eq(cudaEventElapsedTime(&ms, old[0], cur), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaEventElapsedTime(NULL, cur, cur), cudaErrorInvalidValue);
	free(old);
}

/* 100,000 live events (the table grows with no limit short of 2^30), all distinct and usable. */
Test(cudart, many_live_handles)
{
	quiet();
	enum { N = 100000 };
	void **h = calloc(N, sizeof *h);
	cr_assert_not_null(h);
	for (int i = 0; i < N; i++)
		cr_assert_eq(cudaEventCreateWithFlags(&h[i], i % 3), cudaSuccess);
	for (int i = 0; i < N; i++)
		cr_assert_eq(cudaEventRecord(h[i], NULL), cudaSuccess);
	for (int i = 0; i < N; i += 2)
		cr_assert_eq(cudaEventDestroy(h[i]), cudaSuccess);
	for (int i = 0; i < N; i++)
		cr_assert_eq(cudaEventQuery(h[i]), i % 2 ? cudaSuccess : cudaErrorInvalidResourceHandle);
	free(h);
}

/* cudaDeviceReset kills every handle and allocation, clears the errors, and the device works. */
Test(cudart, reset_gives_a_fresh_device)
{
	void *ev, *st, *d;
	int *before;
	cr_assert_eq(cudaEventCreate(&ev), cudaSuccess);
	cr_assert_eq(cudaStreamCreateWithFlags(&st, 1), cudaSuccess);
	cr_assert_eq(cudaMalloc((void **)&before, 256), cudaSuccess);
	cr_assert_eq(cudaMemcpy(before, "x", 1, 3), cudaErrorInvalidValue); /* host source as device */
	cr_assert_eq(cudaPeekAtLastError(), cudaErrorInvalidValue);
	cr_assert_eq(cudaDeviceReset(), cudaSuccess);
	cr_assert_eq(cudaPeekAtLastError(), cudaSuccess);
	cr_assert_eq(cudaEventRecord(ev, NULL), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaEventDestroy(ev), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaStreamQuery(st), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaMemsetAsync(before, 0, 4, st), cudaErrorInvalidResourceHandle);
	char hbuf[256];
	cr_assert_eq(cudaMemcpy(hbuf, before, sizeof hbuf, 2), cudaErrorInvalidValue);
	cr_assert_eq(cudaFree(before), cudaErrorInvalidValue);
	cr_assert_eq(cudaDeviceReset(), cudaSuccess); /* twice, and on a device never used */
	cr_assert_eq(cudaMalloc(&d, 256), cudaSuccess);
	cr_assert_eq(cudaMemcpy(d, hbuf, sizeof hbuf, 1), cudaSuccess);
	cr_assert_eq(cudaEventCreate(&ev), cudaSuccess);
	cr_assert_eq(cudaEventRecord(ev, NULL), cudaSuccess);
	cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
	cr_assert_eq(cudaFree(d), cudaSuccess);
}

/* cudaFreeHost frees only what cudaMallocHost/cudaHostAlloc gave and has not freed. */
Test(cudart, host_free_of_other_pointers_is_refused)
{
	void *p, *q;
	cr_assert_eq(cudaMallocHost(&p, 100), cudaSuccess);
	cr_assert_eq(cudaHostAlloc(&q, 100, 4), cudaSuccess);
	cr_assert_eq(cudaHostAlloc(&q, 100, 0x40), cudaErrorInvalidValue);
	cr_assert_eq(cudaHostAlloc(&q, 100, 2), cudaErrorNotSupported);
	char *m = malloc(16), local;
	cr_assert_eq(cudaFreeHost((char *)p + 1), cudaErrorInvalidValue);
	cr_assert_eq(cudaFreeHost(m), cudaErrorInvalidValue);
	cr_assert_eq(cudaFreeHost(&local), cudaErrorInvalidValue);
	cr_assert_eq(cudaFreeHost(p), cudaSuccess);
	cr_assert_eq(cudaFreeHost(p), cudaErrorInvalidValue);
	cr_assert_eq(cudaFreeHost(NULL), cudaSuccess);
	cr_assert_eq(cudaDeviceReset(), cudaSuccess); /* host buffers outlive a reset */
	memset(q, 1, 100);
	cr_assert_eq(cudaFreeHost(q), cudaSuccess);
	free(m);
	cr_assert_eq(cudaMallocHost(NULL, 1), cudaErrorInvalidValue);
}

/* Flags that CUDA does not define are refused; the valid ones work. */
Test(cudart, bad_flags_are_refused)
{
	void *h = NULL;
	cr_assert_eq(cudaEventCreateWithFlags(&h, 8), cudaErrorInvalidValue);
	cr_assert_eq(cudaEventCreateWithFlags(&h, 4), cudaErrorInvalidValue); /* interprocess needs 2 */
	cr_assert_eq(cudaEventCreateWithFlags(&h, 6), cudaSuccess);
	cr_assert_eq(cudaEventRecordWithFlags(h, NULL, 2), cudaErrorInvalidValue);
	cr_assert_eq(cudaEventCreateWithFlags(NULL, 0), cudaErrorInvalidValue);
	void *s;
	cr_assert_eq(cudaStreamCreateWithFlags(&s, 2), cudaErrorInvalidValue);
	cr_assert_eq(cudaStreamCreateWithPriority(&s, 1, -5), cudaSuccess);
	unsigned f = 9;
	cr_assert_eq(cudaStreamGetFlags(s, &f), cudaSuccess);
	cr_assert_eq(f, 1);
	cr_assert_eq(cudaStreamGetFlags((void *)2, &f), cudaSuccess);
	cr_assert_eq(f, 0);
	cr_assert_eq(cudaStreamGetFlags(s, NULL), cudaErrorInvalidValue);
	cr_assert_eq(cudaStreamWaitEvent(s, h, 2), cudaErrorInvalidValue);
	cr_assert_eq(cudaStreamWaitEvent(s, h, 0), cudaSuccess);
	cr_assert_eq(cudaStreamCreate(NULL), cudaErrorInvalidValue);
	cr_assert_eq(cudaDestroyTextureObject(0), cudaErrorInvalidResourceHandle);
	cr_assert_eq(cudaDestroyTextureObject(~0ull), cudaErrorInvalidResourceHandle);
}

/* Every code of CUDA 13's driver_types.h has its name; the rest are unrecognized, not
 * "cudaErrorUnknown" (999's name). */
Test(cudart, every_code_has_its_name)
{
	static const struct { int e; const char *name; } some[] = {
		{0, "cudaSuccess"}, {400, "cudaErrorInvalidResourceHandle"},
		{709, "cudaErrorContextIsDestroyed"}, {715, "cudaErrorIllegalInstruction"},
		{716, "cudaErrorMisalignedAddress"}, {718, "cudaErrorInvalidPc"},
		{719, "cudaErrorLaunchFailure"}, {915, "cudaErrorInvalidResourceConfiguration"},
		{999, "cudaErrorUnknown"}, {34, "cudaErrorStubLibrary"}, {226, "cudaErrorContained"},
	};
	for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
		cr_assert_str_eq(cudaGetErrorName(some[i].e), some[i].name);
	cr_assert_str_eq(cudaGetErrorString(716), "misaligned address");
	int named = 0;
	for (int e = -1000; e < 2000; e++) {
		const char *n = cudaGetErrorName(e), *t = cudaGetErrorString(e);
		cr_assert(n && t && *t);
		if (strcmp(n, "unrecognized error code")) {
			named++;
			cr_assert(!strncmp(n, "cudaError", 9) || !e, "%d: %s", e, n);
			cr_assert_str_neq(t, "unrecognized error code");
		} else {
			cr_assert_str_eq(t, "unrecognized error code", "%d", e);
		}
	}
	cr_assert_eq(named, 133, "%d", named); /* the 132 cudaError* values and cudaSuccess */
	cr_assert_str_eq(cudaGetErrorName(INT32_MIN), "unrecognized error code");
}

/* WARPSIM_OVERRIDES has no limit on its lines and WARPSIM_CONFIG none on its files: the last
 * of 1,000 lines / 40 files decides; a bad line anywhere fails the start, by its words. */
Test(cudart, the_environment_has_no_limits)
{
	size_t cap = 1000 * 24;
	char *ov = malloc(cap);
	cr_assert_not_null(ov);
	ov[0] = '\0';
	for (int i = 0; i < 999; i++)
		strcat(ov, "gpu.core.count=2\n");
	strcat(ov, "gpu.core.count=7");
	setenv("WARPSIM_OVERRIDES", ov, 1);
	int v = 0;
	cr_assert_eq(cudaDeviceGetAttribute(&v, 16, 0), cudaSuccess);
	cr_assert_eq(v, 7);
	free(ov);
}

Test(cudart, forty_config_files)
{
	char path[] = "/tmp/warpsim-test-cudart-XXXXXX.cfg";
	int fd = mkstemps(path, 4);
	cr_assert_geq(fd, 0);
	dprintf(fd, "gpu: { core: { count = 3; }; };\n");
	close(fd);
	char *cfgs = malloc(40 * 64);
	cr_assert_not_null(cfgs);
	cfgs[0] = '\0';
	for (int i = 0; i < 39; i++)
		strcat(cfgs, "configs/gtx480.cfg::");
	strcat(cfgs, path);
	setenv("WARPSIM_CONFIG", cfgs, 1);
	unsetenv("WARPSIM_FUNCTIONAL");
	int v = 0;
	cr_assert_eq(cudaDeviceGetAttribute(&v, 16, 0), cudaSuccess);
	unlink(path);
	cr_assert_eq(v, 3);
	free(cfgs);
}

Test(cudart, a_bad_override_among_many_fails_the_start)
{
	size_t cap = 600 * 24;
	char *ov = malloc(cap);
	cr_assert_not_null(ov);
	ov[0] = '\0';
	for (int i = 0; i < 600; i++)
		strcat(ov, i == 500 ? "gpu.core.count=zero\n" : "gpu.core.count=2\n");
	setenv("WARPSIM_OVERRIDES", ov, 1);
	int v = 0;
	cr_assert_eq(cudaDeviceGetAttribute(&v, 16, 0), cudaErrorInitializationError);
	cr_assert_eq(cudaDeviceReset(), cudaSuccess); /* nothing to retire */
	cr_assert_eq(cudaDeviceGetAttribute(&v, 16, 0), cudaErrorInitializationError);
	free(ov);
}
