/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: memory, copies, symbols and texture objects. Every operation completes
 * before its call returns; copies take no simulated time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"

enum { H2H = 0, H2D = 1, D2H = 2, D2D = 3, DEFAULT = 4 };

uint64_t cr_dev(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

bool cr_is_device(const void *p)
{
	return cr.ws && warpsim_allocation(cr.ws, cr_dev(p), NULL, NULL);
}

cudaError_t cr_ready(void)
{
	if (cr.sticky_err)
		return cr.sticky_err;
	if (!cr_machine())
		return cr.init_err;
	/* launches still queued end before anything that touches the device (cuda_streams.c) */
	return cr_queue_pending() ? cr_queue_flush() : cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t bytes)
{
	cr_lock();
	cudaError_t e = cr_ready();
	uint64_t a = 0;
	struct warpsim_error err;
	if (!e && !p)
		e = cudaErrorInvalidValue;
	else if (!e && warpsim_malloc(cr.ws, bytes, &a, &err))
		e = cr_fail(cudaErrorMemoryAllocation, "cudaMalloc", "%s", err.message);
	if (!e)
		*p = (void *)(uintptr_t)a;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	if (!pitch)
		return cr_ret(cudaErrorInvalidValue);
	*pitch = (width + 511) & ~(size_t)511;
	return cudaMalloc(p, *pitch * height);
}

cudaError_t cudaFree(void *p)
{
	if (!p)
		return cudaSuccess;
	cr_lock();
	cudaError_t e = cr_ready();
	struct warpsim_error err;
	if (!e && warpsim_free(cr.ws, cr_dev(p), &err))
		e = cr_fail(cudaErrorInvalidValue, "cudaFree", "%s", err.message);
	cr_unlock();
	return cr_ret(e);
}

/* Page-locked memory is ordinary host memory here. The runtime remembers what it handed out,
 * so cudaFreeHost of anything else (a device or stack pointer, a buffer freed already) is
 * refused instead of corrupting the heap; O(live buffers) per free, programs keep a few. */
cudaError_t cudaMallocHost(void **p, size_t bytes)
{
	if (!p)
		return cr_fail(cudaErrorInvalidValue, "cudaMallocHost", "NULL result pointer");
	cr_lock();
	cudaError_t e = cudaSuccess;
	if (cr.n_host_allocs == cr.cap_host_allocs) {
		size_t nc = cr.cap_host_allocs ? 2 * cr.cap_host_allocs : 16;
		void **na = realloc(cr.host_allocs, nc * sizeof *na);
		if (na) {
			cr.host_allocs = na;
			cr.cap_host_allocs = nc;
		}
	}
	void *m = NULL;
	if (cr.n_host_allocs == cr.cap_host_allocs || posix_memalign(&m, 4096, bytes ? bytes : 1))
		e = cr_fail(cudaErrorMemoryAllocation, "cudaMallocHost", "%zu bytes of host memory",
			    bytes);
	else
		cr.host_allocs[cr.n_host_allocs++] = *p = m;
	cr_unlock();
	return e;
}

cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
	if (flags & 2u) /* cudaHostAllocMapped: the device cannot see host memory */
		return cr_fail(cudaErrorNotSupported, "cudaHostAlloc",
			       "cudaHostAllocMapped (device access to host memory)");
	if (flags & ~7u) /* Portable 1, Mapped 2, WriteCombined 4 */
		return cr_fail(cudaErrorInvalidValue, "cudaHostAlloc", "flags 0x%x (at most 0x7)",
			       flags);
	return cudaMallocHost(p, bytes);
}

cudaError_t cudaFreeHost(void *p)
{
	if (!p)
		return cudaSuccess;
	cr_lock();
	size_t i = 0;
	while (i < cr.n_host_allocs && cr.host_allocs[i] != p)
		i++;
	cudaError_t e = cudaSuccess;
	if (i == cr.n_host_allocs) {
		e = cr_fail(cudaErrorInvalidValue, "cudaFreeHost", "%p is no buffer of cudaMallocHost or "
			    "cudaHostAlloc that is still allocated", p);
	} else {
		cr.host_allocs[i] = cr.host_allocs[--cr.n_host_allocs];
		free(p);
	}
	cr_unlock();
	return e;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	cr_lock();
	cudaError_t e = cr_ready();
	const uint64_t total = (uint64_t)4 << 30; /* as cudaGetDeviceProperties reports */
	if (!e) {
		uint64_t used = warpsim_allocated_bytes(cr.ws);
		if (free_bytes)
			*free_bytes = used < total ? total - used : 0;
		if (total_bytes)
			*total_bytes = total;
	}
	cr_unlock();
	return cr_ret(e);
}

/* One copy of n bytes; the kind is checked against where the pointers are. */
static cudaError_t copy(void *dst, const void *src, size_t n, int kind, const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return e;
	if (kind < H2H || kind > DEFAULT)
		return cr_fail(cudaErrorInvalidMemcpyDirection, call, "copy kind %d is none of "
			       "cudaMemcpyHostToHost..cudaMemcpyDefault (0..4)", kind);
	if (!n)
		return cudaSuccess;
	if (kind == DEFAULT)
		kind = (cr_is_device(dst) ? 2 : 0) + (cr_is_device(src) ? 1 : 0) == 3 ? D2D :
		       cr_is_device(dst) ? H2D : cr_is_device(src) ? D2H : H2H;
	if (!dst || !src)
		return cr_fail(cudaErrorInvalidValue, call, "NULL %s", dst ? "source" : "destination");
	struct warpsim_error err;
	int rc = 0;
	switch (kind) {
	case H2H:
		memmove(dst, src, n);
		break;
	case H2D:
		rc = warpsim_write(cr.ws, cr_dev(dst), src, n, &err);
		break;
	case D2H:
		rc = warpsim_read(cr.ws, dst, cr_dev(src), n, &err);
		break;
	default:
		rc = warpsim_copy(cr.ws, cr_dev(dst), cr_dev(src), n, &err);
		break;
	}
	if (rc)
		return cr_fail(cudaErrorInvalidValue, call, "%s", err.message);
	return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
	cr_lock();
	cudaError_t e = copy(dst, src, n, kind, "cudaMemcpy");
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
	cr_lock();
	if (cr_capturing(stream)) { /* the copy happens when the graph runs */
		cudaError_t e = cr_capture_copy(dst, src, n, kind);
		cr_unlock();
		return cr_ret(e);
	}
	cudaError_t e = cr_stream_check(stream, "cudaMemcpyAsync");
	if (!e)
		e = copy(dst, src, n, kind, "cudaMemcpyAsync");
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			 size_t height, int kind)
{
	if (width > dpitch || width > spitch)
		return cr_fail(cudaErrorInvalidPitchValue, "cudaMemcpy2D",
			       "width %zu exceeds a pitch (%zu, %zu)", width, dpitch, spitch);
	cr_lock();
	cudaError_t e = cudaSuccess;
	for (size_t r = 0; !e && r < height; r++)
		e = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind,
			 "cudaMemcpy2D");
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemset(void *p, int value, size_t n)
{
	cr_lock();
	cudaError_t e = cr_ready();
	struct warpsim_error err;
	if (!e && n && warpsim_memset(cr.ws, cr_dev(p), value, n, &err))
		e = cr_fail(cudaErrorInvalidValue, "cudaMemset", "%s", err.message);
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream)
{
	cr_lock();
	if (cr_capturing(stream)) {
		cudaError_t e = cr_capture_memset(p, value, n);
		cr_unlock();
		return cr_ret(e);
	}
	cudaError_t e = cr_stream_check(stream, "cudaMemsetAsync");
	cr_unlock();
	return e ? e : cudaMemset(p, value, n);
}

/* The device address of the variable whose shadow is symbol, plus offset, for n bytes. */
static cudaError_t symbol(const void *sym, size_t n, size_t offset, uint64_t *addr,
			  uint64_t *size, const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return e;
	struct cr_var *v = cr_var_find(sym);
	if (!v)
		return cr_fail(cudaErrorInvalidSymbol, call,
			       "the address is no __device__ or __constant__ variable of this program");
	if ((e = cr_module(v->fb, call)))
		return e;
	struct warpsim_error err;
	uint64_t bytes;
	if (warpsim_symbol(v->fb->mod, v->name, addr, &bytes, &err))
		return cr_fail(cudaErrorInvalidSymbol, call, "%s", err.message);
	if (offset > bytes || n > bytes - offset)
		return cr_fail(cudaErrorInvalidValue, call,
			       "%zu bytes at offset %zu exceed %s's %llu bytes", n, offset, v->name,
			       (unsigned long long)bytes);
	*addr += offset;
	if (size)
		*size = bytes;
	return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset, int kind)
{
	cr_lock();
	uint64_t a;
	cudaError_t e = symbol(sym, n, offset, &a, NULL, "cudaMemcpyToSymbol");
	if (!e && kind != H2D && kind != D2D && kind != DEFAULT)
		e = cr_fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpyToSymbol", "kind %d", kind);
	if (!e)
		e = copy((void *)(uintptr_t)a, src, n, kind == DEFAULT ? DEFAULT : kind,
			 "cudaMemcpyToSymbol");
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset, int kind)
{
	cr_lock();
	uint64_t a;
	cudaError_t e = symbol(sym, n, offset, &a, NULL, "cudaMemcpyFromSymbol");
	if (!e && kind != D2H && kind != D2D && kind != DEFAULT)
		e = cr_fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpyFromSymbol", "kind %d", kind);
	if (!e)
		e = copy(dst, (const void *)(uintptr_t)a, n, kind, "cudaMemcpyFromSymbol");
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t offset,
				    int kind, void *stream)
{
	cr_lock();
	cudaError_t e = cr_stream_check(stream, "cudaMemcpyToSymbolAsync");
	cr_unlock();
	return e ? e : cudaMemcpyToSymbol(sym, src, n, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
				      int kind, void *stream)
{
	cr_lock();
	cudaError_t e = cr_stream_check(stream, "cudaMemcpyFromSymbolAsync");
	cr_unlock();
	return e ? e : cudaMemcpyFromSymbol(dst, sym, n, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **p, const void *sym)
{
	cr_lock();
	uint64_t a;
	cudaError_t e = symbol(sym, 0, 0, &a, NULL, "cudaGetSymbolAddress");
	if (!e && p)
		*p = (void *)(uintptr_t)a;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
	cr_lock();
	uint64_t a, bytes = 0;
	cudaError_t e = symbol(sym, 0, 0, &a, &bytes, "cudaGetSymbolSize");
	if (!e && size)
		*size = bytes;
	cr_unlock();
	return cr_ret(e);
}

/* ---- texture objects ----------------------------------------------------------------- */

struct cr_channel_desc {
	int x, y, z, w;
	int f; /* cudaChannelFormatKind */
};

struct cr_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
	return (struct cr_channel_desc){x, y, z, w, f};
}

static int get_int(const void *b, size_t off) { int v; memcpy(&v, (const char *)b + off, sizeof v); return v; }
static size_t get_size(const void *b, size_t off) { size_t v; memcpy(&v, (const char *)b + off, sizeof v); return v; }

cudaError_t cudaCreateTextureObject(unsigned long long *obj, const void *res, const void *tex,
				    const void *view)
{
	const char *call = "cudaCreateTextureObject";
	if (!obj || !res || !tex)
		return cr_ret(cudaErrorInvalidValue);
	if (view)
		return cr_fail(cudaErrorNotSupported, call, "resource views");
	int type = get_int(res, 0);
	if (type != 2 && type != 3) /* linear, pitch2D */
		return cr_fail(cudaErrorNotSupported, call,
			       "resource type %d (CUDA arrays and mipmaps; linear and pitch2D work)",
			       type);
	struct cr_channel_desc d;
	memcpy(&d, (const char *)res + 16, sizeof d);
	int nch = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
	if ((d.x != 32) || (d.y && d.y != 32) || (d.z && d.z != 32) || (d.w && d.w != 32) || nch == 3)
		return cr_fail(cudaErrorNotSupported, call,
			       "channels of %d,%d,%d,%d bits (1, 2 or 4 channels of 32 bits work)",
			       d.x, d.y, d.z, d.w);
	if (get_int(tex, 12) != 0) /* filterMode: point only */
		return cr_fail(cudaErrorNotSupported, call, "linear filtering");
	if (get_int(tex, 16) != 0) /* readMode: element type only */
		return cr_fail(cudaErrorNotSupported, call, "cudaReadModeNormalizedFloat");
	struct warpsim_texture t = {.addr = cr_dev(*(void *const *)((const char *)res + 8)),
				    .channels = (uint8_t)nch,
				    .normalized_coords = get_int(tex, 40) != 0};
	if (type == 2) {
		t.width = (uint32_t)(get_size(res, 40) / (4u * nch));
		t.height = 1;
	} else {
		t.width = (uint32_t)get_size(res, 40);
		t.height = (uint32_t)get_size(res, 48);
		t.pitch_bytes = (uint32_t)get_size(res, 56);
	}
	cr_lock();
	cudaError_t e = cr_ready();
	struct warpsim_error err;
	uint64_t h = 0;
	if (!e && warpsim_texture_create(cr.ws, &t, &h, &err))
		e = cr_fail(cudaErrorInvalidValue, call, "%s", err.message);
	if (!e)
		*obj = h;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaDestroyTextureObject(unsigned long long obj)
{
	cr_lock();
	cudaError_t e = cr_ready();
	struct warpsim_error err;
	/* texture objects are the machine's handles (the kernel reads them as they are): it
	 * refuses destroyed ones and, after cudaDeviceReset, all but those created since */
	if (!e && warpsim_texture_destroy(cr.ws, obj, &err))
		e = cr_fail(cudaErrorInvalidResourceHandle, "cudaDestroyTextureObject", "%s",
			    err.message);
	cr_unlock();
	return cr_ret(e);
}
