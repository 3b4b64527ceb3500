/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: the occupancy calculator, from the configured core and the kernel's own
 * registers and shared memory, counted exactly as the CTA dispatcher places CTAs
 * (components/cta_dispatcher.c occupancy()), so that what it answers is what a launch gets. */
#include "cudart_int.h"

/* The core's limits (gpu.core.*, gpu.cta_dispatcher.max_ctas_per_core); the defaults are the
 * gtx480's, used only when a key is absent. */
struct core_limits {
	int64_t warp_size, max_threads, max_warps, max_ctas, registers, shared_bytes;
};

static int64_t cfg(const char *key, int64_t def)
{
	int64_t v = def;
	if (cr.ws)
		warpsim_config_int(cr.ws, key, &v);
	return v;
}

static struct core_limits core_limits(void)
{
	struct core_limits l = {
		.warp_size = cfg("gpu.core.warp_size", 32),
		.max_threads = cfg("gpu.core.max_threads", 1536),
		.max_warps = cfg("gpu.core.max_warps", 48),
		.max_ctas = cfg("gpu.core.max_ctas", 8),
		.registers = cfg("gpu.core.registers", 32768),
		.shared_bytes = cfg("gpu.core.shared_kb", 48) * 1024,
	};
	int64_t cap = cfg("gpu.cta_dispatcher.max_ctas_per_core", 0);
	if (cap > 0 && cap < l.max_ctas)
		l.max_ctas = cap;
	if (l.warp_size < 1)
		l.warp_size = 1;
	return l;
}

cudaError_t cr_kernel(const void *func, struct cr_func **f, struct warpsim_kernel_attrs *a,
		      const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return e;
	*f = cr_func_find(func);
	if (!*f)
		return cr_fail(cudaErrorInvalidDeviceFunction, call,
			       "the function is no kernel of this program (not registered)");
	if ((e = cr_module((*f)->fb, call)))
		return e;
	struct warpsim_error err;
	int k = warpsim_kernel_find((*f)->fb->mod, (*f)->ptx_name, &err);
	if (k < 0 || warpsim_kernel_attrs((*f)->fb->mod, (uint32_t)k, a, &err))
		return cr_fail(cudaErrorInvalidDeviceFunction, call, "kernel %s: %s",
			       (*f)->ptx_name, err.message);
	return cudaSuccess;
}

uint32_t cr_max_threads_per_block(const struct warpsim_kernel_attrs *a)
{
	struct core_limits l = core_limits();
	int64_t warps = l.max_threads / l.warp_size;
	if (l.max_warps < warps)
		warps = l.max_warps;
	/* a block may use the core's register file up to the 64 K every CUDA device allows */
	int64_t regs = l.registers < 65536 ? l.registers : 65536;
	if (a->regs_per_thread && regs / ((int64_t)a->regs_per_thread * l.warp_size) < warps)
		warps = regs / ((int64_t)a->regs_per_thread * l.warp_size);
	int64_t t = warps * l.warp_size;
	if (t > 1024)
		t = 1024;
	if (t > a->max_threads_per_block)
		t = a->max_threads_per_block;
	return (uint32_t)(t > 0 ? t : 0);
}

/* Blocks of `threads` threads and shared_bytes (static + dynamic) that one core holds at
 * once (at least 1 warp: threads > 0). */
static int64_t blocks_per_core(const struct core_limits *l, int64_t threads, uint32_t regs,
			       int64_t shared_bytes)
{
	int64_t warps = (threads + l->warp_size - 1) / l->warp_size;
	int64_t n = l->max_ctas;
	if (l->max_threads / (warps * l->warp_size) < n)
		n = l->max_threads / (warps * l->warp_size);
	if (l->max_warps / warps < n)
		n = l->max_warps / warps;
	if (regs && l->registers / (warps * l->warp_size * regs) < n)
		n = l->registers / (warps * l->warp_size * regs);
	if (shared_bytes && l->shared_bytes / shared_bytes < n)
		n = l->shared_bytes / shared_bytes;
	return n;
}

/* The most dynamic shared memory one block of f may ask for: what cudaFuncSetAttribute
 * allowed, at least the device's per-block default (as a launch checks it). */
static int64_t dyn_limit(const struct cr_func *f, const struct warpsim_kernel_attrs *a)
{
	int64_t lim = f->max_dyn_shared;
	int64_t dev = 48 * 1024;
	if (cfg("gpu.core.shared_kb", 48) * 1024 < dev)
		dev = cfg("gpu.core.shared_kb", 48) * 1024;
	if (lim < dev)
		lim = dev;
	return lim - a->shared_static_bytes;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n_blocks, const void *func,
								   int block_size, size_t dyn_shared,
								   unsigned flags)
{
	const char *call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
	if (!n_blocks)
		return cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	if (flags > 1) /* cudaOccupancyDefault, cudaOccupancyDisableCachingOverride */
		return cr_fail(cudaErrorInvalidValue, call, "flags 0x%x (0 or 1)", flags);
	if (block_size <= 0)
		return cr_fail(cudaErrorInvalidValue, call, "block size %d", block_size);
	cr_lock();
	struct cr_func *f;
	struct warpsim_kernel_attrs a;
	cudaError_t e = cr_kernel(func, &f, &a, call);
	if (!e) {
		struct core_limits l = core_limits();
		/* a block that cannot launch at all occupies nothing, as CUDA answers */
		if ((uint32_t)block_size > cr_max_threads_per_block(&a) ||
		    (int64_t)dyn_shared > dyn_limit(f, &a))
			*n_blocks = 0;
		else
			*n_blocks = (int)blocks_per_core(&l, block_size, a.regs_per_thread,
							 (int64_t)a.shared_static_bytes +
								 (int64_t)dyn_shared);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n_blocks, const void *func,
							  int block_size, size_t dyn_shared)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n_blocks, func, block_size,
								      dyn_shared, 0);
}

/* The most dynamic shared memory per block with which n_blocks blocks of block_size threads
 * still fit on one core together: 0 when they do not fit for another reason. */
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *func,
						      int n_blocks, int block_size)
{
	const char *call = "cudaOccupancyAvailableDynamicSMemPerBlock";
	if (!bytes)
		return cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	if (block_size <= 0 || n_blocks <= 0)
		return cr_fail(cudaErrorInvalidValue, call, "%d blocks of %d threads", n_blocks,
			       block_size);
	cr_lock();
	struct cr_func *f;
	struct warpsim_kernel_attrs a;
	cudaError_t e = cr_kernel(func, &f, &a, call);
	if (!e) {
		struct core_limits l = core_limits();
		int64_t avail = 0;
		if ((uint32_t)block_size <= cr_max_threads_per_block(&a) &&
		    blocks_per_core(&l, block_size, a.regs_per_thread, 0) >= n_blocks) {
			avail = l.shared_bytes / n_blocks - a.shared_static_bytes;
			if (avail > dyn_limit(f, &a))
				avail = dyn_limit(f, &a);
			if (avail < 0)
				avail = 0;
		}
		*bytes = (size_t)avail;
	}
	cr_unlock();
	return cr_ret(e);
}
