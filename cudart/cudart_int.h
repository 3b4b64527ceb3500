/* SPDX-License-Identifier: MIT */
/* Private to cudart/: the CUDA ABI as a program built by nvcc 13 sees it (error codes, dim3,
 * byte offsets of the structs the program allocates), and the runtime's one state. */
#ifndef WARPSIM_CUDART_INT_H
#define WARPSIM_CUDART_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/warpsim.h"
#include "fatbin.h"

/* cudaError_t values (driver_types.h of CUDA 13). */
enum {
	cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
	cudaErrorInitializationError = 3, cudaErrorInvalidConfiguration = 9,
	cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13,
	cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidTexture = 18,
	cudaErrorInvalidMemcpyDirection = 21, cudaErrorInvalidDeviceFunction = 98,
	cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101, cudaErrorInvalidKernelImage = 200,
	cudaErrorNoKernelImageForDevice = 209, cudaErrorUnsupportedLimit = 215,
	cudaErrorInvalidPtx = 218,
	cudaErrorInvalidResourceHandle = 400, cudaErrorSymbolNotFound = 500,
	cudaErrorIllegalState = 401, cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,
	cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
	cudaErrorAssert = 710, cudaErrorMisalignedAddress = 716, cudaErrorLaunchFailure = 719,
	cudaErrorNotSupported = 801, cudaErrorStreamCaptureUnsupported = 900,
	cudaErrorStreamCaptureInvalidated = 901,
	cudaErrorUnknown = 999,
};
typedef int cudaError_t;

struct dim3 {
	unsigned x, y, z;
};

/* Byte offsets in the structs the program passes (measured on CUDA 13's headers). */
#define CR_PROP_BYTES 1008
#define CR_FUNC_ATTR_BYTES 144

/* A kernel registered by __cudaRegisterFunction: the host stub's address is its identity. */
struct cr_func {
	const void *host_fun;
	struct cr_fatbin *fb;
	char *ptx_name;              /* mangled, as in the PTX */
	uint32_t max_dyn_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize */
};
struct cr_var {
	const void *host_var;        /* the program's shadow variable */
	struct cr_fatbin *fb;
	char *name;
	size_t size;
};
/* One registered fat binary (a translation unit's device code), loaded at first use. */
struct cr_fatbin {
	const void *wrapper;
	struct warpsim_module *mod;  /* NULL until loaded */
	bool tried;                  /* loading was attempted (mod or load_err set) */
	cudaError_t load_err;
	bool registered;
};
struct cr_slot; /* an event or a stream (cuda_handles.c) */

struct cr_state {
	pthread_mutex_t lock;
	struct warpsim *ws;          /* created at the first call that needs the device */
	bool ws_tried;
	cudaError_t init_err;
	uint64_t launches;           /* launches that ran on ws (a fault included) */
	/* The last machine cudaDeviceReset retired after it ran launches: its statistics are the
	 * run's when no launch follows the reset (programs reset just before they exit). */
	struct warpsim *retired;
	uint64_t retired_launches;
	uint64_t dropped_launches;   /* of machines retired before that one */
	struct cr_slot *slots;       /* events and streams; a handle names a slot and its life */
	uint32_t n_slots, cap_slots;
	uint32_t free_head;          /* index + 1 of the first free slot, 0: none */
	void **host_allocs;          /* cudaMallocHost/cudaHostAlloc buffers not yet freed */
	size_t n_host_allocs, cap_host_allocs;
	cudaError_t last_err;        /* cudaGetLastError */
	cudaError_t sticky_err;      /* a kernel fault: every later call returns it */
	struct cr_fatbin **fbs;
	uint32_t n_fbs, live_fbs;
	struct cr_func *funcs;
	uint32_t n_funcs;
	struct cr_var *vars;
	uint32_t n_vars;
	struct { struct dim3 grid, block; size_t shared; void *stream; } cfg_stack[16];
	uint32_t cfg_depth;
	bool finished;
	/* cudaDeviceSetLimit's values, by cudaLimit (cudart.c CR_LIMITS); set[i]: given since the
	 * last reset, else the default */
	size_t limit[5];
	bool limit_set[5];
	int device;
	pthread_t holder;            /* the thread in the lock, while depth > 0 */
	volatile uint32_t depth;     /* the lock's recursion depth (a signal handler reads it) */
	char last_msg[320];          /* cr_fail's latest message */
	/* a launch's parameters, laid out (CUDA 12.1+ allows 32,764 bytes, FE_MAX_PARAM_BYTES) */
	unsigned char param_buf[32764];
};

/* The runtime's state: one per process, as the CUDA runtime's own (the program's calls name
 * no context). Every entry point holds its lock. */
extern struct cr_state cr;

void cr_lock(void);
void cr_unlock(void);
/* Whether this thread holds cr.lock (a fault's signal handler asks). */
bool cr_lock_held_here(void);
/* Write the outputs to WARPSIM_OUTDIR, once (later calls do nothing); incomplete (may be NULL)
 * says why the statistics stop short, recorded in stats.json. cr.lock held. */
void cr_finish(const char *incomplete);

/* cuda_run.c: the run as `warpsim cuda` reports it. cr_run_machine: a new machine gets the
 * progress line and the signal check (its periodic call). begin/end bracket a launch that runs;
 * refused: a launch call that returned e without running (its message is cr.last_msg);
 * faulted: one that ran and faulted. provenance: ws's stats.json gets "provenance" (counts, the first
 * CR_RUN_LISTED of each, incomplete, launches a reset left out). finished: the counts to
 * `warpsim cuda` (WARPSIM_STATUS_FD). */
void cr_run_machine(struct warpsim *ws);
/* A signal that stopped the program and was not yet acted on: the outputs, marked, and (for
 * SIGINT and SIGTERM) the process ends by it. cr.lock held. */
void cr_run_signal_check(void);
void cr_run_launch_begin(const char *kernel);
void cr_run_launch_end(void);
void cr_run_refused(const char *kernel, const char *call, cudaError_t e);
/* A launch refused because its grid or block has no thread, as CUDA refuses it: listed in
 * stats.json ("launches_empty") but, unlike a refused launch, not a reason for exit status 1. */
void cr_run_empty(const char *kernel, const char *call, cudaError_t e);
void cr_run_faulted(const char *kernel, cudaError_t e, const char *msg);
void cr_run_provenance(struct warpsim *ws, const char *incomplete, uint64_t launches_left_out);
void cr_run_finished(void);
/* Record err as the last error (unless cudaSuccess) and return it; with msg, print
 * "warpsim cudart: CALL: msg" on stderr. */
cudaError_t cr_ret(cudaError_t e);
cudaError_t cr_fail(cudaError_t e, const char *call, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The machine, created from the environment at first use; NULL with cr.init_err set. */
struct warpsim *cr_machine(void);
/* For every call that touches the device: the sticky error, else the machine's (cudaSuccess
 * with cr.ws set). */
cudaError_t cr_ready(void);
/* cudaSuccess for the default streams (0, cudaStreamLegacy, cudaStreamPerThread) and live
 * streams; else cudaErrorInvalidResourceHandle, with a message naming call. */
cudaError_t cr_stream_check(const void *stream, const char *call);
/* cudaDeviceReset: every event and stream handle dies. */
void cr_handles_reset(void);
/* Stream capture (cuda_graph.c). cr_capturing: stream is being captured into a graph (then
 * cr_stream_check refuses it, so only the calls that capture can use it). The cr_capture_*
 * record an operation, checked already, into the graph. */
bool cr_capturing(const void *stream);
cudaError_t cr_capture_kernel(struct cr_func *f, struct dim3 grid, struct dim3 block,
			      size_t shared, const void *params, uint32_t param_bytes,
			      const char *call);
cudaError_t cr_capture_copy(void *dst, const void *src, size_t n, int kind);
cudaError_t cr_capture_memset(void *p, int value, size_t n);
cudaError_t cr_capture_host(void (*fn)(void *), void *user);
/* A refused operation on the stream being captured spoils the capture, as in CUDA. */
void cr_capture_invalidate(void);
/* cudaStreamDestroy of a stream being captured ends its capture; cudaDeviceReset: all. */
void cr_capture_stream_gone(const void *stream);
void cr_graph_reset(void);
/* Run a kernel launch a graph captured (cr.lock held). */
cudaError_t cr_launch_params(struct cr_func *f, struct dim3 grid, struct dim3 block,
			     size_t shared, const void *params, uint32_t param_bytes);
/* The result of a launch (or n launches run together) as the program sees it: success, a
 * refusal (returned), a fault (sticky, reported later), a budget (the program ends). */
cudaError_t cr_launch_outcome(int rc, const struct warpsim_error *err, const char *kname,
			      const char *call, uint64_t n);
/* Concurrent streams (cuda_streams.c; gpu.cta_dispatcher.concurrent_kernels = on-gpu).
 * queue_on: launches are queued (the machine exists and asks for it). queue_launch: a checked
 * launch queued after what its stream and the events it waits for order before it.
 * queue_last: index + 1 of the stream's last queued launch (0: none); queue_wait: the stream's
 * next launch waits for queued launch entry. flush: run the queue (every call that touches the
 * device does, through cr_ready); returns the sticky error after it. reset: forget it. */
bool cr_queue_on(void);
bool cr_queue_pending(void);
cudaError_t cr_queue_launch(struct warpsim_module *m, uint32_t k, struct dim3 grid,
			    struct dim3 block, size_t shared, const void *params,
			    uint32_t param_bytes, void *stream, const char *call);
uint32_t cr_queue_last(const void *stream);
cudaError_t cr_queue_wait(const void *stream, uint32_t entry);
cudaError_t cr_queue_flush(void);
void cr_queue_reset(void);
/* A stream's number for the queue and the statistics: 0 the legacy default stream (0,
 * cudaStreamLegacy), 1 the per-thread one, 2.. the program's (slot + 2); *nonblocking (may be
 * NULL): created with cudaStreamNonBlocking. The stream is checked already. */
uint32_t cr_stream_key(const void *stream, bool *nonblocking);
/* Events recorded after queued launches take the end of that launch (end_ps[entry], NULL: the
 * batch failed and they keep their record time); n entries ran. */
void cr_events_settle(const uint64_t *end_ps, uint32_t n);
/* cudaDeviceReset: the default memory pool forgets its allocations and attributes. */
void cr_pool_reset(void);
/* The kernel whose host stub is func, loaded, and its attributes; an error names call. */
cudaError_t cr_kernel(const void *func, struct cr_func **f, struct warpsim_kernel_attrs *a,
		      const char *call);
/* The most threads a block of a kernel with these attributes can have on the configured core
 * (cudaFuncAttributes.maxThreadsPerBlock): its own bound, the device's 1024, and what one core
 * holds of threads, warps and registers (allocated per whole warp, as the CTA dispatcher does). */
uint32_t cr_max_threads_per_block(const struct warpsim_kernel_attrs *a);
/* The module of fb, loaded at first use (its PTX, or WARPSIM_PTX). */
cudaError_t cr_module(struct cr_fatbin *fb, const char *call);
struct cr_func *cr_func_find(const void *host_fun);
struct cr_var *cr_var_find(const void *host_var);
/* Device address of [p, p+n): true when p is inside a device allocation. */
bool cr_is_device(const void *p);
uint64_t cr_dev(const void *p);

/* Entry points that other entry points or the tests (tests/reliability/test_cudart_*.c) call
 * directly; the handle types of CUDA's headers (cudaEvent_t, cudaStream_t) are void * here. */
cudaError_t cudaEventCreate(void **ev);
cudaError_t cudaEventCreateWithFlags(void **ev, unsigned flags);
cudaError_t cudaEventDestroy(void *ev);
cudaError_t cudaEventRecord(void *ev, void *stream);
cudaError_t cudaEventRecordWithFlags(void *ev, void *stream, unsigned flags);
cudaError_t cudaEventSynchronize(void *ev);
cudaError_t cudaEventQuery(void *ev);
cudaError_t cudaEventElapsedTime(float *ms, void *start, void *end);
cudaError_t cudaStreamCreate(void **s);
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(void **s, unsigned flags, int priority);
cudaError_t cudaStreamDestroy(void *s);
cudaError_t cudaStreamSynchronize(void *s);
cudaError_t cudaStreamQuery(void *s);
cudaError_t cudaStreamWaitEvent(void *s, void *ev, unsigned flags);
cudaError_t cudaStreamGetFlags(void *s, unsigned *flags);
cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			 size_t height, int kind);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset, int kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t offset,
				    int kind, void *stream);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
				      int kind, void *stream);
cudaError_t cudaDestroyTextureObject(unsigned long long obj);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int dev);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);

/* Shared memory a block may have on the configured core, in bytes (cuda_device.c). */
uint32_t cr_shared_per_block_bytes(void);

#endif
