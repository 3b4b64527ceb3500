/* SPDX-License-Identifier: MIT */
/* libcudart.so.13 over libwarpsim: kernel launches (<<<>>>'s push/pop of the configuration,
 * cudaLaunchKernel), their checks against the machine, their outcome, refused and empty
 * launches named (cuda_run.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_int.h"

/* ---- launches ------------------------------------------------------------------------ */

unsigned __cudaPushCallConfiguration(struct dim3 grid, struct dim3 block, size_t shared,
				     void *stream)
{
	cr_lock();
	unsigned rc = 1;
	if (cr.cfg_depth < sizeof cr.cfg_stack / sizeof cr.cfg_stack[0]) {
		cr.cfg_stack[cr.cfg_depth].grid = grid;
		cr.cfg_stack[cr.cfg_depth].block = block;
		cr.cfg_stack[cr.cfg_depth].shared = shared;
		cr.cfg_stack[cr.cfg_depth++].stream = stream;
		rc = 0;
	}
	cr_unlock();
	return rc;
}

cudaError_t __cudaPopCallConfiguration(struct dim3 *grid, struct dim3 *block, size_t *shared,
				       void *stream)
{
	cr_lock();
	cudaError_t rc = cudaErrorInvalidConfiguration;
	if (cr.cfg_depth) {
		cr.cfg_depth--;
		*grid = cr.cfg_stack[cr.cfg_depth].grid;
		*block = cr.cfg_stack[cr.cfg_depth].block;
		*shared = cr.cfg_stack[cr.cfg_depth].shared;
		memcpy(stream, &cr.cfg_stack[cr.cfg_depth].stream, sizeof(void *));
		rc = cudaSuccess;
	}
	cr_unlock();
	return rc;
}

cudaError_t __cudaGetKernel(void **kernel, const void *host_fun)
{
	/* the kernel's handle is its host stub, as stable as the program: a pointer into
	 * cr.funcs would dangle when a later registration grows the array */
	cr_lock();
	struct cr_func *f = cr_func_find(host_fun);
	*kernel = f ? (void *)f->host_fun : NULL;
	cr_unlock();
	return f ? cudaSuccess : cr_ret(cudaErrorInvalidDeviceFunction);
}


/* The CUDA code of a kernel fault from its message, "...pc N 'instruction': what" (the
 * frontend's fe_exec_fault): only what is read, so a kernel or file named "assert" or
 * "trap" cannot change the code. */
static cudaError_t fault_code(const char *msg)
{
	const char *what = msg;
	for (const char *p = strstr(msg, "': "); p; p = strstr(p + 1, "': "))
		what = p + 3;
	if (!strncmp(what, "misaligned", 10))
		return cudaErrorMisalignedAddress;
	if (!strncmp(what, "assertion failed", 16))
		return cudaErrorAssert;
	if (!strncmp(what, "trap executed", 13))
		return cudaErrorLaunchFailure;
	return cudaErrorIllegalAddress; /* out of bounds, unallocated texel, bad texture object */
}

static cudaError_t run_launch(struct warpsim_module *m, int k, const char *kname,
			      struct dim3 grid, struct dim3 block, size_t shared,
			      const void *params, uint32_t param_bytes, const char *call);

/* The kernel's demangled name when its module is loaded, else its PTX name (NULL: none). */
static const char *launch_name(const struct cr_func *f)
{
	const char *name = f ? f->ptx_name : NULL;
	if (f && f->fb->mod) {
		int k = warpsim_kernel_find(f->fb->mod, f->ptx_name, NULL);
		if (k >= 0)
			name = warpsim_kernel_name(f->fb->mod, (uint32_t)k);
	}
	return name;
}

/* Refused launches are counted and named (cuda_run.c): the message is cr_fail's. */
static cudaError_t refused(struct cr_func *f, const char *call, cudaError_t e)
{
	const char *name = launch_name(f);
	if (e == cr.sticky_err)
		snprintf(cr.last_msg, sizeof cr.last_msg, "an earlier launch faulted (%s): the device "
			 "runs no more launches", cudaGetErrorName(e));
	cr_run_refused(name, call, e);
	return e;
}

static cudaError_t launch_checked(struct cr_func *f, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream, const char *call);

static cudaError_t launch(struct cr_func *f, struct dim3 grid, struct dim3 block, void **args,
			  size_t shared, void *stream, const char *call)
{
	cudaError_t e = launch_checked(f, grid, block, args, shared, stream, call);
	/* A grid or block with a zero dimension has no thread: CUDA refuses it just the same
	 * (cudaErrorInvalidConfiguration) and no work is lost, so it is listed as an empty
	 * launch and does not make the run's exit status 1 as a refused one does. */
	if (e == cudaErrorInvalidConfiguration &&
	    (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)) {
		cr_run_empty(launch_name(f), call, e);
		return e;
	}
	return e ? refused(f, call, e) : e;
}

static cudaError_t launch_checked(struct cr_func *f, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream, const char *call)
{
	if (cr.sticky_err)
		return cr.sticky_err;
	/* a stream being captured takes the launch into its graph (cr_stream_check refuses
	 * every other use of it) */
	bool capture = cr_capturing(stream);
	cudaError_t se = capture ? cudaSuccess : cr_stream_check(stream, call);
	if (se)
		return se;
	if (!f)
		return cr_fail(cudaErrorInvalidDeviceFunction, call,
			       "the function is no kernel of this program (not registered)");
	cudaError_t e = cr_module(f->fb, call);
	if (e)
		return cr_ret(e);
	struct warpsim_module *m = f->fb->mod;
	struct warpsim_error err;
	int k = warpsim_kernel_find(m, f->ptx_name, &err);
	if (k < 0)
		return cr_fail(cudaErrorInvalidDeviceFunction, call, "kernel %s is not in the PTX: %s",
			       f->ptx_name, err.message);
	const char *kname = warpsim_kernel_name(m, (uint32_t)k);
	struct warpsim_kernel_attrs a;
	if (warpsim_kernel_attrs(m, (uint32_t)k, &a, &err))
		return cr_fail(cudaErrorInvalidDeviceFunction, call, "%s", err.message);
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	if (!threads || block.x > 1024 || block.y > 1024 || block.z > 64 ||
	    threads > a.max_threads_per_block)
		return cr_fail(cudaErrorInvalidConfiguration, call,
			       "%s: block (%u,%u,%u) has %llu threads; at most %u per block, x and y "
			       "1..1024, z 1..64", kname, block.x, block.y, block.z,
			       (unsigned long long)threads, a.max_threads_per_block);
	if (!grid.x || !grid.y || !grid.z || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
		return cr_fail(cudaErrorInvalidConfiguration, call,
			       "%s: grid (%u,%u,%u) out of bounds (x 1..2^31-1, y and z 1..65535)",
			       kname, grid.x, grid.y, grid.z);
	uint32_t dyn_limit = f->max_dyn_shared > cr_shared_per_block_bytes() ? f->max_dyn_shared
									   : cr_shared_per_block_bytes();
	if (shared > dyn_limit || a.shared_static_bytes + shared > dyn_limit)
		return cr_fail(cudaErrorInvalidValue, call,
			       "%s: %u bytes of static and %zu of dynamic shared memory exceed the "
			       "%u bytes a block may have", kname, a.shared_static_bytes, shared,
			       dyn_limit);
	if ((uint64_t)a.regs_per_thread * threads > 65536)
		return cr_fail(cudaErrorLaunchOutOfResources, call,
			       "%s: %u registers x %llu threads exceed 65536 registers per block",
			       kname, a.regs_per_thread, (unsigned long long)threads);
	/* the launch holds cr.lock: one buffer serves every launch */
	unsigned char *params = cr.param_buf;
	if (a.param_bytes > sizeof cr.param_buf)
		return cr_fail(cudaErrorInvalidValue, call, "%s: %u bytes of parameters exceed the %zu "
			       "bytes CUDA allows", kname, a.param_bytes, sizeof cr.param_buf);
	memset(params, 0, a.param_bytes);
	for (uint32_t i = 0; i < a.n_params; i++) {
		uint32_t off, size;
		if (warpsim_kernel_param(m, (uint32_t)k, i, &off, &size, &err))
			return cr_fail(cudaErrorInvalidValue, call, "%s", err.message);
		if (!args || !args[i])
			return cr_fail(cudaErrorInvalidValue, call, "%s: argument %u is missing", kname, i);
		memcpy(params + off, args[i], size);
	}
	if (capture)
		return cr_capture_kernel(f, grid, block, shared, params, a.param_bytes, call);
	if (cr_queue_on())
		return cr_queue_launch(m, (uint32_t)k, grid, block, shared, params, a.param_bytes,
				       stream, call);
	return run_launch(m, k, kname, grid, block, shared, params, a.param_bytes, call);
}

/* Run a launch whose shape and parameters were checked (now or when a graph captured it). */
static cudaError_t run_launch(struct warpsim_module *m, int k, const char *kname,
			      struct dim3 grid, struct dim3 block, size_t shared,
			      const void *params, uint32_t param_bytes, const char *call)
{
	struct warpsim_error err;
	struct warpsim_launch l = {.grid = {grid.x, grid.y, grid.z},
				   .block = {block.x, block.y, block.z},
				   .dynamic_shared_bytes = (uint32_t)shared, .params = params,
				   .params_bytes = param_bytes};
	cr_run_launch_begin(kname);
	int rc = warpsim_launch(m, (uint32_t)k, &l, NULL, &err);
	cr_run_launch_end();
	return cr_launch_outcome(rc, &err, kname, call, 1);
}

cudaError_t cr_launch_outcome(int rc, const struct warpsim_error *err, const char *kname,
			      const char *call, uint64_t n)
{
	if (!rc) {
		cr.launches += n;
		return cudaSuccess;
	}
	/* Shape and resource errors are the launch's; a fault in the kernel is reported, as by
	 * the hardware, at the next call that synchronises, and sticks. */
	switch (err->code) {
	case WARPSIM_ERR_INPUT:
	case WARPSIM_ERR_CONFIG:
		return cr_fail(cudaErrorLaunchOutOfResources, call, "%s: %s", kname, err->message);
	case WARPSIM_ERR_PROGRAM:
		cr.sticky_err = fault_code(err->message);
		break;
	case WARPSIM_ERR_FAULT:
		cr.sticky_err = cudaErrorLaunchTimeout;
		break;
	case WARPSIM_ERR_BUDGET:
		/* sim.on_budget = stop: the program ends here, cleanly (exit 0), with the statistics
		 * of what was simulated (stats.json "budget"); nothing of it runs after the cap,
		 * whose results would be incomplete */
		fprintf(stderr, "warpsim cudart: kernel %s: %s; the program ends here\n", kname,
			err->message);
		cr.launches += n;
		cr_finish(NULL);
		fflush(NULL);
		_exit(0);
	default:
		cr.sticky_err = cudaErrorLaunchFailure;
		break;
	}
	cr.launches += n; /* it ran: its statistics are in the machine's */
	cr_run_faulted(kname, cr.sticky_err, err->message);
	fprintf(stderr, "warpsim cudart: kernel %s: %s\n", kname, err->message);
	return cudaSuccess;
}

cudaError_t cr_launch_params(struct cr_func *f, struct dim3 grid, struct dim3 block,
			     size_t shared, const void *params, uint32_t param_bytes)
{
	if (cr.sticky_err || cr_queue_flush())
		return refused(f, "cudaGraphLaunch", cr.sticky_err);
	cudaError_t e = cr_module(f->fb, "cudaGraphLaunch");
	if (e)
		return refused(f, "cudaGraphLaunch", e);
	struct warpsim_error err;
	int k = warpsim_kernel_find(f->fb->mod, f->ptx_name, &err);
	if (k < 0)
		return refused(f, "cudaGraphLaunch",
			       cr_fail(cudaErrorInvalidDeviceFunction, "cudaGraphLaunch",
				       "kernel %s is not in the PTX: %s", f->ptx_name, err.message));
	return run_launch(f->fb->mod, k, warpsim_kernel_name(f->fb->mod, (uint32_t)k), grid, block,
			  shared, params, param_bytes, "cudaGraphLaunch");
}

cudaError_t __cudaLaunchKernel(void *kernel, struct dim3 grid, struct dim3 block, void **args,
			       size_t shared, void *stream)
{
	/* streams run in order, each launch to completion: the stream is only checked */
	cr_lock();
	struct cr_func *f = kernel ? cr_func_find(kernel) : NULL;
	cudaError_t e = launch(f, grid, block, args, shared, stream, "kernel launch");
	cr_unlock();
	return e;
}

cudaError_t __cudaLaunchKernel_ptsz(void *kernel, struct dim3 grid, struct dim3 block,
				    void **args, size_t shared, void *stream)
{
	return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t cudaLaunchKernel(const void *func, struct dim3 grid, struct dim3 block, void **args,
			     size_t shared, void *stream)
{
	cr_lock();
	cudaError_t e = launch(cr_func_find(func), grid, block, args, shared, stream,
			       "cudaLaunchKernel");
	cr_unlock();
	return e;
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream)
{
	return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

