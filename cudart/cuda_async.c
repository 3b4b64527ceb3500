/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: 2D memsets, host callbacks, stream priorities, stream-ordered allocation on
 * the default memory pool, and the per-thread-default-stream entry points (_ptsz, _ptds). Each
 * stream operation completes before its call returns, so "in stream order" is call order. */
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"

/* ---- 2D memsets and copies ----------------------------------------------------------- */

static cudaError_t memset_2d(void *p, size_t pitch, int value, size_t width, size_t height,
			     void *stream, const char *call)
{
	if (width > pitch && height > 1)
		return cr_fail(cudaErrorInvalidValue, call, "width %zu exceeds the pitch %zu", width,
			       pitch);
	cr_lock();
	cudaError_t e = cr_stream_check(stream, call);
	if (!e)
		e = cr_ready();
	struct warpsim_error err;
	/* one call for a rectangle without gaps, else a row at a time */
	size_t rows = width == pitch ? 1 : height, row_bytes = width == pitch ? width * height : width;
	for (size_t r = 0; !e && width && r < rows; r++)
		if (warpsim_memset(cr.ws, cr_dev((char *)p + r * pitch), value, row_bytes, &err))
			e = cr_fail(cudaErrorInvalidValue, call, "row %zu: %s", r, err.message);
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
	return memset_2d(p, pitch, value, width, height, NULL, "cudaMemset2D");
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
			      void *stream)
{
	return memset_2d(p, pitch, value, width, height, stream, "cudaMemset2DAsync");
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
			      size_t width, size_t height, int kind, void *stream)
{
	cr_lock();
	cudaError_t e = cr_stream_check(stream, "cudaMemcpy2DAsync");
	cr_unlock();
	return e ? cr_ret(e) : cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

/* ---- host callbacks ------------------------------------------------------------------ */

typedef void (*stream_callback)(void *stream, cudaError_t status, void *user);
typedef void (*host_fn)(void *user);

/* Everything before the callback in its stream is done when it is enqueued, so it runs at
 * once, outside the runtime's lock (a callback that calls the runtime, which CUDA forbids but
 * programs do, must not find it held by another thread waiting on this one). */
cudaError_t cudaStreamAddCallback(void *stream, stream_callback fn, void *user, unsigned flags)
{
	const char *call = "cudaStreamAddCallback";
	if (!fn)
		return cr_fail(cudaErrorInvalidValue, call, "NULL callback");
	if (flags)
		return cr_fail(cudaErrorInvalidValue, call, "flags 0x%x (must be 0)", flags);
	cr_lock();
	cudaError_t e = cr_stream_check(stream, call);
	if (!e && cr_queue_pending())
		cr_queue_flush(); /* the callback runs after the stream's work */
	cudaError_t status = cr.sticky_err; /* the stream's error, which CUDA hands the callback */
	cr_unlock();
	if (e)
		return cr_ret(e);
	fn(stream, status, user);
	return cudaSuccess;
}

/* Unlike a stream callback, a host function is not told of an error: after a kernel fault it
 * does not run and the call returns the fault, as later work on a faulted context does. */
cudaError_t cudaLaunchHostFunc(void *stream, host_fn fn, void *user)
{
	const char *call = "cudaLaunchHostFunc";
	if (!fn)
		return cr_fail(cudaErrorInvalidValue, call, "NULL function");
	cr_lock();
	if (cr_capturing(stream)) {
		cudaError_t e = cr_capture_host(fn, user);
		cr_unlock();
		return cr_ret(e);
	}
	cudaError_t e = cr_stream_check(stream, call);
	if (!e)
		e = cr_queue_pending() ? cr_queue_flush() : cr.sticky_err;
	cr_unlock();
	if (e)
		return cr_ret(e);
	fn(user);
	return cudaSuccess;
}

/* ---- stream priorities: accepted, not modelled ---------------------------------------- */

/* The simulated device has one priority (the kernels of a device run one at a time), which is
 * what CUDA reports as the range 0..0 for a device without priorities; cudaStreamCreateWith-
 * Priority clamps any priority into it. */
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	if (least)
		*least = 0;
	if (greatest)
		*greatest = 0;
	return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(void *stream, int *priority)
{
	cr_lock();
	cudaError_t e = cr_stream_check(stream, "cudaStreamGetPriority");
	if (!e && !priority)
		e = cr_fail(cudaErrorInvalidValue, "cudaStreamGetPriority", "NULL result pointer");
	if (!e)
		*priority = 0;
	cr_unlock();
	return cr_ret(e);
}

/* ---- stream-ordered allocation on the default pool ------------------------------------- */

/* cudaMemPoolAttr values (driver_types.h). */
enum {
	POOL_REUSE_FOLLOW_EVENTS = 1, POOL_REUSE_OPPORTUNISTIC = 2, POOL_REUSE_INTERNAL_DEPS = 3,
	POOL_RELEASE_THRESHOLD = 4, POOL_RESERVED_CURRENT = 5, POOL_RESERVED_HIGH = 6,
	POOL_USED_CURRENT = 7, POOL_USED_HIGH = 8,
};

/* The device's one pool. Memory goes back to the device when freed (nothing is cached, so the
 * release threshold is kept but changes nothing, and reserved memory equals used memory).
 * Its handle is the address of this object: never dereferenced from a program's value. */
static struct pool {
	int reuse[3];                 /* the three reuse flags, by attribute - 1 */
	uint64_t release_threshold;   /* bytes */
	uint64_t used, used_high;     /* bytes of live allocations, and their peak */
	uint64_t reserved_high;       /* peak, reset independently of used_high */
	struct { uint64_t addr, bytes; } *live;
	size_t n_live, cap_live;
} pool = {.reuse = {1, 1, 1}};

static void *pool_handle(void) { return &pool; }

void cr_pool_reset(void)
{
	free(pool.live);
	pool = (struct pool){.reuse = {1, 1, 1}};
}

static cudaError_t pool_check(const void *h, const char *call)
{
	return h == pool_handle() ? cudaSuccess :
		cr_fail(cudaErrorInvalidValue, call, "%p is not the device's memory pool (the "
			"only one warpsim has)", h);
}

cudaError_t cudaDeviceGetDefaultMemPool(void **h, int dev)
{
	if (!h)
		return cr_fail(cudaErrorInvalidValue, "cudaDeviceGetDefaultMemPool", "NULL result");
	if (dev)
		return cr_fail(cudaErrorInvalidDevice, "cudaDeviceGetDefaultMemPool", "device %d", dev);
	*h = pool_handle();
	return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(void **h, int dev)
{
	return cudaDeviceGetDefaultMemPool(h, dev);
}

cudaError_t cudaDeviceSetMemPool(int dev, void *h)
{
	if (dev)
		return cr_fail(cudaErrorInvalidDevice, "cudaDeviceSetMemPool", "device %d", dev);
	return cr_ret(pool_check(h, "cudaDeviceSetMemPool"));
}

cudaError_t cudaMemPoolTrimTo(void *h, size_t keep_bytes)
{
	(void)keep_bytes; /* nothing is held beyond the live allocations */
	return cr_ret(pool_check(h, "cudaMemPoolTrimTo"));
}

cudaError_t cudaMemPoolSetAttribute(void *h, int attr, void *value)
{
	const char *call = "cudaMemPoolSetAttribute";
	cudaError_t e = pool_check(h, call);
	if (!e && !value)
		e = cr_fail(cudaErrorInvalidValue, call, "NULL value");
	if (e)
		return cr_ret(e);
	uint64_t v64;
	cr_lock();
	switch (attr) {
	case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
		memcpy(&pool.reuse[attr - 1], value, sizeof(int));
		break;
	case POOL_RELEASE_THRESHOLD:
		memcpy(&pool.release_threshold, value, sizeof(uint64_t));
		break;
	case POOL_RESERVED_HIGH: case POOL_USED_HIGH:
		/* a peak can only be reset (to the current amount), by setting it to 0 */
		memcpy(&v64, value, sizeof v64);
		if (v64)
			e = cr_fail(cudaErrorInvalidValue, call, "attribute %d can only be reset to 0",
				    attr);
		else if (attr == POOL_USED_HIGH)
			pool.used_high = pool.used;
		else
			pool.reserved_high = pool.used;
		break;
	default:
		e = cr_fail(cudaErrorInvalidValue, call, "attribute %d (settable: 1..4, 6, 8)", attr);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemPoolGetAttribute(void *h, int attr, void *value)
{
	const char *call = "cudaMemPoolGetAttribute";
	cudaError_t e = pool_check(h, call);
	if (!e && !value)
		e = cr_fail(cudaErrorInvalidValue, call, "NULL value");
	if (e)
		return cr_ret(e);
	cr_lock();
	uint64_t v64 = 0;
	switch (attr) {
	case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
		memcpy(value, &pool.reuse[attr - 1], sizeof(int));
		break;
	case POOL_RELEASE_THRESHOLD: v64 = pool.release_threshold; break;
	case POOL_RESERVED_CURRENT: case POOL_USED_CURRENT: v64 = pool.used; break;
	case POOL_RESERVED_HIGH: v64 = pool.reserved_high; break;
	case POOL_USED_HIGH: v64 = pool.used_high; break;
	default:
		e = cr_fail(cudaErrorInvalidValue, call, "attribute %d (1..8)", attr);
	}
	if (!e && attr >= POOL_RELEASE_THRESHOLD)
		memcpy(value, &v64, sizeof v64);
	cr_unlock();
	return cr_ret(e);
}

static cudaError_t malloc_async(void **p, size_t bytes, void *h, void *stream, const char *call)
{
	cudaError_t e = pool_check(h, call);
	if (e)
		return cr_ret(e);
	if (!p)
		return cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	cr_lock();
	e = cr_stream_check(stream, call);
	if (!e && pool.n_live == pool.cap_live) {
		size_t nc = pool.cap_live ? 2 * pool.cap_live : 16;
		void *nl = realloc(pool.live, nc * sizeof *pool.live);
		if (!nl)
			e = cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
		else
			pool.live = nl, pool.cap_live = nc;
	}
	if (!e)
		e = cudaMalloc(p, bytes);
	if (!e) {
		pool.live[pool.n_live].addr = cr_dev(*p);
		pool.live[pool.n_live++].bytes = bytes;
		pool.used += bytes;
		if (pool.used > pool.used_high)
			pool.used_high = pool.used;
		if (pool.used > pool.reserved_high)
			pool.reserved_high = pool.used;
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMallocAsync(void **p, size_t bytes, void *stream)
{
	return malloc_async(p, bytes, pool_handle(), stream, "cudaMallocAsync");
}

cudaError_t cudaMallocFromPoolAsync(void **p, size_t bytes, void *h, void *stream)
{
	return malloc_async(p, bytes, h, stream, "cudaMallocFromPoolAsync");
}

/* Frees any device allocation, as CUDA allows for cudaMalloc's too; the pool counts only its
 * own. O(live pool allocations) per free: programs hold a few. */
cudaError_t cudaFreeAsync(void *p, void *stream)
{
	cr_lock();
	cudaError_t e = cr_stream_check(stream, "cudaFreeAsync");
	if (!e && p)
		e = cudaFree(p); /* names the pointer if it is no live allocation */
	for (size_t i = 0; !e && p && i < pool.n_live; i++)
		if (pool.live[i].addr == cr_dev(p)) {
			pool.used -= pool.live[i].bytes;
			pool.live[i] = pool.live[--pool.n_live];
			break;
		}
	cr_unlock();
	return cr_ret(e);
}

/* ---- the per-thread default stream ----------------------------------------------------- */

/* A program built with --default-stream per-thread calls these. Every stream here is in order
 * and complete at each call's return, so the per-thread stream behaves as the legacy one. */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, int kind)
{ return cudaMemcpy(dst, src, n, kind); }
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind, void *s)
{ return cudaMemcpyAsync(dst, src, n, kind, s); }
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dp, const void *src, size_t sp, size_t w,
			      size_t h, int kind)
{ return cudaMemcpy2D(dst, dp, src, sp, w, h, kind); }
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dp, const void *src, size_t sp, size_t w,
				   size_t h, int kind, void *s)
{ return cudaMemcpy2DAsync(dst, dp, src, sp, w, h, kind, s); }
cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n, size_t off, int kind)
{ return cudaMemcpyToSymbol(sym, src, n, off, kind); }
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n, size_t off, int kind)
{ return cudaMemcpyFromSymbol(dst, sym, n, off, kind); }
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *src, size_t n, size_t off,
					 int kind, void *s)
{ return cudaMemcpyToSymbolAsync(sym, src, n, off, kind, s); }
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *sym, size_t n, size_t off,
					   int kind, void *s)
{ return cudaMemcpyFromSymbolAsync(dst, sym, n, off, kind, s); }
cudaError_t cudaMemset_ptds(void *p, int v, size_t n)
{ return cudaMemset(p, v, n); }
cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, void *s)
{ return cudaMemsetAsync(p, v, n, s); }
cudaError_t cudaMemset2D_ptds(void *p, size_t pitch, int v, size_t w, size_t h)
{ return cudaMemset2D(p, pitch, v, w, h); }
cudaError_t cudaMemset2DAsync_ptsz(void *p, size_t pitch, int v, size_t w, size_t h, void *s)
{ return cudaMemset2DAsync(p, pitch, v, w, h, s); }
cudaError_t cudaEventRecord_ptsz(void *ev, void *s)
{ return cudaEventRecord(ev, s); }
cudaError_t cudaEventRecordWithFlags_ptsz(void *ev, void *s, unsigned flags)
{ return cudaEventRecordWithFlags(ev, s, flags); }
cudaError_t cudaStreamSynchronize_ptsz(void *s)
{ return cudaStreamSynchronize(s); }
cudaError_t cudaStreamQuery_ptsz(void *s)
{ return cudaStreamQuery(s); }
cudaError_t cudaStreamWaitEvent_ptsz(void *s, void *ev, unsigned flags)
{ return cudaStreamWaitEvent(s, ev, flags); }
cudaError_t cudaStreamGetFlags_ptsz(void *s, unsigned *flags)
{ return cudaStreamGetFlags(s, flags); }
cudaError_t cudaStreamGetPriority_ptsz(void *s, int *priority)
{ return cudaStreamGetPriority(s, priority); }
cudaError_t cudaStreamAddCallback_ptsz(void *s, stream_callback fn, void *user, unsigned flags)
{ return cudaStreamAddCallback(s, fn, user, flags); }
cudaError_t cudaLaunchHostFunc_ptsz(void *s, host_fn fn, void *user)
{ return cudaLaunchHostFunc(s, fn, user); }
cudaError_t cudaMallocAsync_ptsz(void **p, size_t bytes, void *s)
{ return cudaMallocAsync(p, bytes, s); }
cudaError_t cudaMallocFromPoolAsync_ptsz(void **p, size_t bytes, void *h, void *s)
{ return cudaMallocFromPoolAsync(p, bytes, h, s); }
cudaError_t cudaFreeAsync_ptsz(void *p, void *s)
{ return cudaFreeAsync(p, s); }

/* Undocumented; NVIDIA's answers NULL (no entry) to every query, and so does this one. */
void *__cudaGetProcAddress(void);
void *__cudaGetProcAddress(void)
{
	return NULL;
}
