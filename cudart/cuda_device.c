/* SPDX-License-Identifier: MIT */
/* libcudart.so.13 over libwarpsim: kernels' attributes and the device: its properties and
 * attributes from the configured machine, synchronisation, reset, limits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_int.h"

/* ---- kernels' attributes ------------------------------------------------------------- */

static void put_int(void *base, size_t off, int v) { memcpy((char *)base + off, &v, sizeof v); }
static void put_size(void *base, size_t off, size_t v) { memcpy((char *)base + off, &v, sizeof v); }

cudaError_t cudaFuncGetAttributes(void *attr, const void *func)
{
	cr_lock();
	struct cr_func *f;
	struct warpsim_kernel_attrs a;
	cudaError_t e = cr_kernel(func, &f, &a, "cudaFuncGetAttributes");
	if (!e && !attr)
		e = cudaErrorInvalidValue;
	if (!e) {
		memset(attr, 0, CR_FUNC_ATTR_BYTES);
		put_size(attr, 0, a.shared_static_bytes);
		put_size(attr, 16, a.local_bytes);
		put_int(attr, 24, (int)cr_max_threads_per_block(&a));
		put_int(attr, 28, (int)a.regs_per_thread);
		put_int(attr, 32, 75);
		put_int(attr, 36, 75);
		put_int(attr, 44, (int)(f->max_dyn_shared - a.shared_static_bytes));
		put_int(attr, 48, -1);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
	(void)config; /* the L1/shared split is the machine's configuration */
	cr_lock();
	cudaError_t e = cr_func_find(func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
	cr_lock();
	struct cr_func *f = cr_func_find(func);
	cudaError_t e = f ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	if (f && attr == 8) { /* cudaFuncAttributeMaxDynamicSharedMemorySize */
		int64_t kb = 48;
		if (cr_machine())
			warpsim_config_int(cr.ws, "gpu.core.shared_kb", &kb);
		if (value < 0 || value > kb * 1024)
			e = cr_fail(cudaErrorInvalidValue, "cudaFuncSetAttribute",
				    "%d bytes of dynamic shared memory exceed the core's %lld KB", value,
				    (long long)kb);
		else
			f->max_dyn_shared = (uint32_t)value;
	} else if (f && attr != 9) { /* 9: preferred carveout, a hint */
		e = cr_fail(cudaErrorNotSupported, "cudaFuncSetAttribute", "attribute %d", attr);
	}
	cr_unlock();
	return cr_ret(e);
}

/* ---- devices ------------------------------------------------------------------------- */

/* Per-block limits of the device as cudaGetDeviceProperties reports them. */
uint32_t cr_shared_per_block_bytes(void)
{
	int64_t kb = 48;
	if (cr.ws && warpsim_config_int(cr.ws, "gpu.core.shared_kb", &kb) && kb > 48)
		kb = 48;
	return (uint32_t)kb * 1024u;
}

static int64_t cfg_or(const char *key, int64_t def)
{
	int64_t v = def;
	if (cr.ws)
		warpsim_config_int(cr.ws, key, &v);
	return v;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	cr_lock();
	cudaError_t e = cr_machine() ? cudaSuccess : cr.init_err;
	if (count)
		*count = e ? 0 : 1;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaSetDevice(int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice : cudaSuccess;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGetDevice(int *dev)
{
	if (dev)
		*dev = 0;
	return dev ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
	(void)flags;
	return cudaSuccess;
}

/* Device attributes (cudaDeviceAttr numbers) from the configuration. */
/* A block can use at most a core's register file (32768 on Fermi), and at most 64 K on any
 * CUDA device: a program that sizes its blocks from regsPerBlock must see the config's limit. */
static int64_t regs_per_block(void)
{
	int64_t regs = cfg_or("gpu.core.registers", 32768);
	return regs < 65536 ? regs : 65536;
}

/* The DRAM's clock as CUDA states it: half the transfer rate (GDDR5's 924 MHz command clock at
 * 4 transfers a cycle is the GTX 480's 1848 MHz). */
static int64_t memory_clock_khz(void)
{
	return cfg_or("gpu.dram.clock_mhz", 800) * cfg_or("gpu.dram.data_rate", 2) / 2 * 1000;
}

/* The whole L2: gpu.l2.size_kb is per slice, gpu.l2.sub_partitions slices a channel. */
static int64_t l2_bytes(void)
{
	return cfg_or("gpu.l2.size_kb", 0) * 1024 * cfg_or("gpu.l2.sub_partitions", 1) * cfg_or("gpu.dram.channels", 1);
}

/* Every channel's bus side by side (gtx480: 6 x 64 bits). */
static int64_t memory_bus_bits(void)
{
	return cfg_or("gpu.dram.channels", 8) * cfg_or("gpu.dram.bus_bytes", 8) * 8;
}

static bool device_attr(int attr, int *v)
{
	int64_t cores = cfg_or("gpu.core.count", 15), clk = cfg_or("gpu.core.clock_mhz", 700);
	switch (attr) {
	case 1: *v = 1024; return true;                                   /* max threads/block */
	case 2: case 3: *v = 1024; return true;                           /* max block x, y */
	case 4: *v = 64; return true;                                     /* max block z */
	case 5: *v = 2147483647; return true;                             /* max grid x */
	case 6: case 7: *v = 65535; return true;                          /* max grid y, z */
	case 8: *v = (int)cr_shared_per_block_bytes(); return true;          /* shared/block */
	case 9: *v = 65536; return true;                                  /* constant memory */
	case 10: *v = (int)cfg_or("gpu.core.warp_size", 32); return true; /* warp size */
	case 12: *v = (int)regs_per_block(); return true;
	case 11: *v = 2147483647; return true;                            /* max pitch */
	case 13: *v = (int)(clk * 1000); return true;                     /* clock kHz */
	case 14: *v = 512; return true;                                   /* texture alignment */
	case 16: *v = (int)cores; return true;                            /* SM count */
	case 36: *v = (int)memory_clock_khz(); return true;
	case 37: *v = (int)memory_bus_bits(); return true;
	/* device pickers (the CUDA samples' findCudaDevice) read these: a discrete GPU in the
	 * default compute mode, no watchdog, no mapped host memory, one kernel at a time */
	case 15: case 17: case 18: case 19: case 31: case 32: case 35: case 40:
		*v = 0; return true;
	case 20: *v = 0; return true;                                     /* cudaComputeModeDefault */
	case 38: *v = (int)l2_bytes();
		return true;                                              /* as l2CacheSize */
	case 39: *v = (int)cfg_or("gpu.core.max_threads", 1536); return true;
	case 41: *v = 1; return true;                                     /* unified addressing */
	case 75: *v = 7; return true;                                     /* compute capability */
	case 76: *v = 5; return true;
	case 81: *v = (int)cfg_or("gpu.core.shared_kb", 48) * 1024; return true;
	case 82: *v = (int)cfg_or("gpu.core.registers", 32768); return true;
	case 79: case 80: *v = 1; return true;         /* global and local loads cached in L1 */
	case 97: *v = (int)cfg_or("gpu.core.shared_kb", 48) * 1024; return true; /* opt-in limit */
	case 106: *v = (int)cfg_or("gpu.core.max_ctas", 8); return true;
	case 115: *v = 1; return true;                 /* stream-ordered allocation (default pool) */
	default: return false;
	}
}

/* Whether attr is a cudaDeviceAttr of CUDA 13 (driver_types.h: 1..147 but for the gaps). The
 * ones device_attr does not answer are features the simulated device lacks (managed memory,
 * cooperative launches, clusters, stream priorities, IPC, textures beyond the linear ones...)
 * or figures it has no counterpart of (PCI ids, NUMA): 0, as a device without them says. */
static bool device_attr_known(int attr)
{
	switch (attr) {
	case 44: case 102: case 103: case 104: case 105: case 107: case 110: case 136: case 137:
	case 146:
		return false;
	default:
		return attr >= 1 && attr <= 147;
	}
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice : cudaSuccess;
	if (!e && !value)
		e = cr_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "NULL value pointer");
	else if (!e && !device_attr(attr, value)) {
		if (device_attr_known(attr))
			*value = 0;
		else
			e = cr_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute",
				    "attribute %d is no cudaDeviceAttr of CUDA 13", attr);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGetDeviceProperties(void *prop, int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice :
		       !prop ? cudaErrorInvalidValue : cudaSuccess;
	if (!e) {
		memset(prop, 0, CR_PROP_BYTES);
		const char *name = warpsim_config_str(cr.ws, "gpu.name");
		if (name && *name)
			snprintf(prop, 256, "%s (warpsim)", name);
		else
			snprintf(prop, 256, "warpsim simulated GPU");
		int v;
		put_size(prop, 288, (size_t)4 << 30);                  /* totalGlobalMem */
		put_size(prop, 296, cr_shared_per_block_bytes());         /* sharedMemPerBlock */
		put_int(prop, 304, (int)regs_per_block());             /* regsPerBlock */
		device_attr(10, &v);
		put_int(prop, 308, v);                                 /* warpSize */
		put_size(prop, 312, (size_t)2147483647);               /* memPitch */
		put_int(prop, 320, 1024);                              /* maxThreadsPerBlock */
		put_int(prop, 324, 1024), put_int(prop, 328, 1024), put_int(prop, 332, 64);
		put_int(prop, 336, 2147483647), put_int(prop, 340, 65535), put_int(prop, 344, 65535);
		put_size(prop, 352, 65536);                            /* totalConstMem */
		put_int(prop, 360, 7), put_int(prop, 364, 5);          /* major, minor */
		put_size(prop, 368, 512), put_size(prop, 376, 32);     /* texture alignments */
		device_attr(16, &v);
		put_int(prop, 384, v);                                 /* multiProcessorCount */
		put_int(prop, 588, 1);                                 /* unifiedAddressing */
		put_int(prop, 592, (int)memory_bus_bits());            /* memoryBusWidth */
		put_int(prop, 596, (int)l2_bytes());                   /* l2CacheSize */
		device_attr(39, &v);
		put_int(prop, 604, v);                                 /* maxThreadsPerMultiProcessor */
		put_size(prop, 624, (size_t)cfg_or("gpu.core.shared_kb", 48) * 1024);
		put_int(prop, 632, (int)cfg_or("gpu.core.registers", 32768));
		put_size(prop, 672, (size_t)cfg_or("gpu.core.shared_kb", 48) * 1024);
		put_int(prop, 688, (int)cfg_or("gpu.core.max_ctas", 8));
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaDriverGetVersion(int *v)
{
	if (v)
		*v = 13000;
	return v ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
	return cudaDriverGetVersion(v);
}

cudaError_t cudaDeviceSynchronize(void)
{
	cr_lock();
	cudaError_t e = cr.sticky_err ? cr.sticky_err : cr_machine() ? cr_queue_flush() : cr.init_err;
	cr_unlock();
	return cr_ret(e);
}

/* A fresh device, as after the hardware's reset: the machine (a faulted one must not launch
 * again, libwarpsim says) with its allocations, modules and texture objects is retired and the
 * next call that needs the device builds a new one from the environment; kernels reload their
 * PTX (__device__ variables start from their initial values), events and streams die, the
 * sticky and the last error are cleared. Host buffers of cudaMallocHost stay: the program may
 * still read them, and freeing them here would turn that into a use after free. */
cudaError_t cudaDeviceReset(void)
{
	cr_lock();
	if (cr.ws)
		cr_queue_flush(); /* the work before the reset completes, as CUDA's does */
	cr_queue_reset();
	if (cr.ws && cr.launches) {
		/* kept for the statistics until a launch on the new machine replaces them */
		if (cr.retired) {
			cr.dropped_launches += cr.retired_launches;
			warpsim_destroy(cr.retired);
		}
		cr.retired = cr.ws;
		cr.retired_launches = cr.launches;
	} else if (cr.ws) {
		warpsim_destroy(cr.ws);
	}
	cr.ws = NULL;
	cr.ws_tried = false;
	cr.init_err = cudaSuccess;
	cr.launches = 0;
	for (uint32_t i = 0; i < cr.n_fbs; i++) {
		cr.fbs[i]->mod = NULL; /* owned by the machine just retired */
		cr.fbs[i]->tried = false;
		cr.fbs[i]->load_err = cudaSuccess;
	}
	for (uint32_t i = 0; i < cr.n_funcs; i++)
		cr.funcs[i].max_dyn_shared = 48 * 1024;
	cr_handles_reset();
	cr_pool_reset();
	cr_graph_reset();
	memset(cr.limit_set, 0, sizeof cr.limit_set); /* a new context has the defaults */
	cr.sticky_err = cudaSuccess;
	cr.last_err = cudaSuccess;
	cr_unlock();
	return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(int config)
{
	(void)config;
	return cudaSuccess;
}

/* Programs bracket their timed region for an external profiler (the CUDA samples' matrixMul,
 * asyncAPI); there is none to start, and warpsim's statistics are per launch regardless. */
cudaError_t cudaProfilerStart(void)
{
	return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
	return cudaSuccess;
}

/* cudaLimit values 0-4 (stack, printf FIFO, malloc heap, device-runtime sync depth and pending
 * launches) and CUDA's defaults for them (the CUDA C++ Programming Guide: 1 KB stack, 1 MB printf
 * FIFO, 8 MB heap; dynamic parallelism's depth 2 and 2,048 pending launches). The stack size is
 * honoured: recursion deeper than it faults (frontend/NOTES.md); the others are kept and read
 * back (warpsim's printf output and device heap have no bound, and it has no device runtime).
 * The L2 fetch granularity and persisting-L2 limits are refused as unsupported, named. */
#define CR_LIMITS 5
static const size_t limit_default[CR_LIMITS] = {1024, 1048576, 8388608, 2, 2048};

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
	if (limit < 0 || limit >= CR_LIMITS)
		return cr_fail(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit",
			       "limit %d is not supported by warpsim", limit);
	cr_lock();
	cr.limit[limit] = value;
	cr.limit_set[limit] = true;
	if (limit == 0 && cr.ws)
		warpsim_set_stack_bytes(cr.ws, value);
	cr_unlock();
	return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
	if (!value)
		return cr_ret(cudaErrorInvalidValue);
	if (limit < 0 || limit >= CR_LIMITS)
		return cr_fail(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit",
			       "limit %d is not supported by warpsim", limit);
	cr_lock();
	*value = cr.limit_set[limit] ? cr.limit[limit] : limit_default[limit];
	cr_unlock();
	return cudaSuccess;
}
