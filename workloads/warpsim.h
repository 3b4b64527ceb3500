/* SPDX-License-Identifier: MIT */
/* Host API for host-driven programs (BFS-style loops): device memory, copies, symbol copies and
 * kernel launches on one PTX module, all through an fe_device so the same host code runs on the
 * functional executor or the timing model. CUDA host code ports line for line. */
#ifndef WARPSIM_WARPSIM_H
#define WARPSIM_WARPSIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/sim_error.h"
#include "../frontend/fe.h"

/* Limits checked by ws_launch (SIM_ERR_INPUT), as CUDA defines them for sm_75. */
#define WS_MAX_GRID_X 2147483647u
#define WS_MAX_GRID_YZ 65535u
#define WS_MAX_BLOCK_XY 1024u
#define WS_MAX_BLOCK_Z 64u
#define WS_MAX_THREADS_PER_BLOCK 1024u
#define WS_MAX_DYN_SHARED_BYTES 65536u
#define WS_MAX_PARAM_BYTES 4096u /* kernel parameter space */

struct ws_host;

struct ws_dim3 {
	uint32_t x, y, z;
};
#define WS_DIM3(X, Y, Z) ((struct ws_dim3){(X), (Y), (Z)})

/* A kernel argument. Its size must equal the kernel parameter's size (pointers are 8 bytes:
 * device addresses from ws_malloc). BYTES passes a struct by value (bytes are copied). */
enum ws_arg_kind { WS_ARG_PTR, WS_ARG_U32, WS_ARG_S32, WS_ARG_F32, WS_ARG_U64, WS_ARG_S64,
		   WS_ARG_F64, WS_ARG_BYTES };
struct ws_arg {
	enum ws_arg_kind kind;
	union {
		uint64_t u;
		int64_t s;
		float f;
		double d;
	} v;
	const void *bytes;   /* WS_ARG_BYTES: borrowed for the call */
	uint32_t size_bytes; /* WS_ARG_BYTES only */
};
#define WS_PTR(p) ((struct ws_arg){.kind = WS_ARG_PTR, .v.u = (p)})
#define WS_U32(x) ((struct ws_arg){.kind = WS_ARG_U32, .v.u = (uint32_t)(x)})
#define WS_S32(x) ((struct ws_arg){.kind = WS_ARG_S32, .v.s = (int32_t)(x)})
#define WS_F32(x) ((struct ws_arg){.kind = WS_ARG_F32, .v.f = (float)(x)})
#define WS_U64(x) ((struct ws_arg){.kind = WS_ARG_U64, .v.u = (uint64_t)(x)})
#define WS_S64(x) ((struct ws_arg){.kind = WS_ARG_S64, .v.s = (int64_t)(x)})
#define WS_F64(x) ((struct ws_arg){.kind = WS_ARG_F64, .v.d = (double)(x)})
#define WS_BYTES(p, n) ((struct ws_arg){.kind = WS_ARG_BYTES, .bytes = (p), .size_bytes = (n)})
/* ws_launch(h, "k", g, b, 0, WS_ARGS(WS_PTR(d), WS_S32(n)), err): the array and its length. */
#define WS_ARGS(...)                                                                         \
	(const struct ws_arg[]){__VA_ARGS__},                                                \
		(uint32_t)(sizeof((struct ws_arg[]){__VA_ARGS__}) / sizeof(struct ws_arg))

/* Host over module m (borrowed, must outlive the host) and device dev (copied). Creates device
 * memory and binds m's .global/.const symbols into it. NULL with err on failure. */
struct ws_host *ws_host_create(const struct fe_module *m, const struct fe_device *dev,
			       struct sim_error *err);
/* Same over device memory mem (borrowed: several hosts, one per module, may share it; m is
 * bound into it). */
struct ws_host *ws_host_create_in(const struct fe_module *m, const struct fe_device *dev,
				  struct fe_memory *mem, struct sim_error *err);
struct fe_memory *ws_host_memory(const struct ws_host *h);
/* Device printf of later launches goes to out (NULL, the default: not printed). */
void ws_host_set_printf(struct ws_host *h, FILE *out);
/* Stack bytes per thread of later launches (fe_launch_set_stack_bytes; 0: its default). */
void ws_host_set_stack_bytes(struct ws_host *h, uint64_t bytes);
/* Same, loading the PTX file at ptx_path (the host owns that module). */
struct ws_host *ws_host_open(const char *ptx_path, const struct fe_device *dev,
			     struct sim_error *err);
void ws_host_destroy(struct ws_host *h);
const struct fe_module *ws_host_module(const struct ws_host *h);

/* Registers per thread for later launches of kernel (0: the module's own figure); kernel by
 * any name fe_module_kernel_index takes; SIM_ERR_INPUT if the module has no such kernel. */
int ws_set_regs_per_thread(struct ws_host *h, const char *kernel, uint32_t regs,
			   struct sim_error *err);
/* The module's own figure, on a device with .timing set: ptxas's count (fe_ptxas.h: one ptxas
 * run or cache read per host, at the first launch that needs it), else the front end's estimate
 * with one warning per kernel on warn (NULL: stderr). The default options come from the
 * environment (fe_ptxas_opts_from_env); o's strings must outlive the host. */
struct fe_ptxas_opts;
void ws_host_set_ptxas(struct ws_host *h, const struct fe_ptxas_opts *o, FILE *warn);

/* cudaMalloc: *dptr receives a device address (256-byte aligned). SIM_ERR_NOMEM on failure. */
int ws_malloc(struct ws_host *h, uint64_t *dptr, uint64_t bytes, struct sim_error *err);
int ws_memset(struct ws_host *h, uint64_t dptr, int value, uint64_t bytes, struct sim_error *err);
int ws_memcpy_h2d(struct ws_host *h, uint64_t dst, const void *src, uint64_t bytes,
		  struct sim_error *err);
int ws_memcpy_d2h(struct ws_host *h, void *dst, uint64_t src, uint64_t bytes,
		  struct sim_error *err);
/* cudaMemcpyToSymbol: bytes at offset of a .global/.const symbol; SIM_ERR_INPUT if the symbol
 * is unknown or the range exceeds it. */
int ws_memcpy_to_symbol(struct ws_host *h, const char *symbol, const void *src, uint64_t bytes,
			uint64_t offset, struct sim_error *err);
int ws_memcpy_from_symbol(struct ws_host *h, void *dst, const char *symbol, uint64_t bytes,
			  uint64_t offset, struct sim_error *err);

/* Launch kernel and run it to completion on the device. SIM_ERR_INPUT for an unknown kernel,
 * a wrong argument count or size, or grid/block/shared limits exceeded (messages name the
 * kernel and argument); device errors are passed through (SIM_ERR_PROGRAM for kernel faults). */
int ws_launch(struct ws_host *h, const char *kernel, struct ws_dim3 grid, struct ws_dim3 block,
	      uint32_t dyn_shared_bytes, const struct ws_arg *args, uint32_t n_args,
	      struct sim_error *err);
/* The same with the parameter buffer already laid out (fe_kernel_param offsets). */
int ws_launch_params(struct ws_host *h, const char *kernel, struct ws_dim3 grid,
		     struct ws_dim3 block, uint32_t dyn_shared_bytes, const void *params,
		     uint32_t params_bytes, struct sim_error *err);
/* The launch ws_launch_params would run, built and not run (caller destroys it; NULL with err:
 * the same input errors). */
struct fe_launch *ws_launch_create(struct ws_host *h, const char *kernel, struct ws_dim3 grid,
				   struct ws_dim3 block, uint32_t dyn_shared_bytes, const void *params,
				   uint32_t params_bytes, struct sim_error *err);
/* Registers per thread a launch of kernel would use, and their source (given, ptxas: found
 * as ws_launch finds them, with its warning; 0 with FE_REGS_ESTIMATE: the module's estimate). */
uint32_t ws_kernel_regs(struct ws_host *h, const char *kernel, enum fe_regs_source *src);
/* Launches complete before ws_launch returns; kept so ported host code reads the same. */
int ws_synchronize(struct ws_host *h, struct sim_error *err);

/* Work done through this host so far. */
struct ws_totals {
	uint64_t launches, ctas, threads;
};
void ws_host_totals(const struct ws_host *h, struct ws_totals *out);

/* The functional device: launches run by fe_launch_run_functional. stats (may be NULL) must
 * outlive the device and accumulates over its launches. */
struct ws_func_stats {
	uint64_t launches, warp_insts, thread_insts;
	/* in: fe_launch_run_functional_limit's livelock limit; 0 = FE_LIVELOCK_WARP_INSTS,
	 * UINT64_MAX = none */
	uint64_t livelock_warp_insts;
	/* in, optional: called after every memory instruction (fe_launch_run_functional_observe) */
	fe_mem_observe_fn observe;
	void *observe_ctx;
	/* in, optional: each launch's fe_launch_set_poll */
	fe_poll_fn poll;
	void *poll_ctx;
};
struct fe_device ws_functional_device(struct ws_func_stats *stats);
/* The livelock limit stats asks for, as fe_launch_run_functional_limit takes it. */
uint64_t ws_func_livelock_limit(const struct ws_func_stats *stats);

#endif
