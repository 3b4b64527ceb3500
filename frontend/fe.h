/* SPDX-License-Identifier: MIT */
/* PTX front end, host-facing side: load a PTX module, manage functional device memory, build
 * kernel launches, run them functionally. The timing side is in warp_inst.h. */
#ifndef WARPSIM_FE_H
#define WARPSIM_FE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/sim_error.h"
#include "warp_inst.h"

struct fe_module;   /* a parsed, decoded PTX file (immutable after load) */
struct fe_memory;   /* device memory image: sparse paged global memory + symbols */

/* Parse and decode a PTX file. Errors (SIM_ERR_INPUT) give file:line:column and what was
 * expected; unsupported opcodes are refused here with opcode and line, never at run time. */
int fe_module_load(const char *path, struct fe_module **out, struct sim_error *err);
int fe_module_parse_string(const char *name, const char *text, struct fe_module **out,
			   struct sim_error *err);
void fe_module_destroy(struct fe_module *m);

const char *fe_module_path(const struct fe_module *m); /* the name it was loaded under */
uint32_t fe_module_kernel_count(const struct fe_module *m);
const char *fe_module_kernel_name(const struct fe_module *m, uint32_t i);
/* C++ name of kernel i without return type ("f<32>(float*, int)"); its PTX name when that is
 * not a mangled C++ name. Every call taking a kernel name also takes this, or this without
 * the parameter list when one kernel has it ("f<32>"). */
const char *fe_module_kernel_cxx_name(const struct fe_module *m, uint32_t i);
/* Index of a kernel so named; negative SIM_ERR_INPUT naming the candidates otherwise. */
int fe_module_kernel_index(const struct fe_module *m, const char *name, struct sim_error *err);
/* .maxntid / .reqntid of kernel i (threads per block; 0 when the PTX gives none). */
uint32_t fe_module_kernel_max_threads(const struct fe_module *m, uint32_t i);
/* Kernel parameters: count, and byte offset/size/alignment of parameter i in the param buffer.
 * Returns SIM_ERR_INPUT if the kernel does not exist. */
int fe_kernel_params(const struct fe_module *m, const char *kernel, uint32_t *n_params,
		     struct sim_error *err);
int fe_kernel_param(const struct fe_module *m, const char *kernel, uint32_t i, uint32_t *offset,
		    uint32_t *size_bytes, uint32_t *align, struct sim_error *err);
/* What parameter i of a kernel holds, for checking host arguments against it: an integer
 * (.u/.s types, pointers among them), a float (.f16/.f32/.f64), or untyped bytes (.b types,
 * arrays such as a by-value struct's .b8 p[N]). SIM_ERR_INPUT if there is no such parameter. */
enum fe_param_kind { FE_PARAM_INT, FE_PARAM_FLOAT, FE_PARAM_BYTES };
int fe_kernel_param_kind(const struct fe_module *m, const char *kernel, uint32_t i,
			 enum fe_param_kind *kind, struct sim_error *err);
/* Static instructions and resource use of a kernel (phase data included). */
int fe_kernel_info(const struct fe_module *m, const char *kernel, struct fe_launch_info *out,
		   struct sim_error *err);
/* `warpsim ptx-info`: kernels, registers (ptxas's count from px, which may be NULL, beside the
 * estimate), shared/local memory, phases. */
struct fe_ptxas_regs;
void fe_module_print_info(const struct fe_module *m, FILE *out, bool json,
			  const struct fe_ptxas_regs *px);
/* `warpsim ptx-info --phases`: every phase of every kernel (first pc and PTX line, instruction
 * count, length in cycles). */
void fe_module_print_phases(const struct fe_module *m, FILE *out);

/* Device memory. Addresses are device virtual addresses (global space), never host pointers. */
struct fe_memory *fe_memory_create(void);
void fe_memory_destroy(struct fe_memory *mem);
/* Allocate bytes (aligned to 256); 0 on failure. */
uint64_t fe_mem_alloc(struct fe_memory *mem, uint64_t bytes);
/* cudaFree: addr must be an address fe_mem_alloc returned (SIM_ERR_INPUT otherwise); its pages
 * are unmapped, so later accesses fault. Addresses are never handed out again. */
int fe_mem_free(struct fe_memory *mem, uint64_t addr, struct sim_error *err);
/* The live allocation holding addr (its start and the bytes asked for); false if none. */
bool fe_mem_allocation(const struct fe_memory *mem, uint64_t addr, uint64_t *base,
		       uint64_t *bytes);
/* Bytes in live allocations. */
uint64_t fe_mem_live_bytes(const struct fe_memory *mem);
int fe_mem_write(struct fe_memory *mem, uint64_t addr, const void *src, uint64_t n, struct sim_error *err);
int fe_mem_read(const struct fe_memory *mem, uint64_t addr, void *dst, uint64_t n, struct sim_error *err);
/* Bind a module's .global/.const variables into mem (allocating and initialising them). A module
 * is bound once: binding it again does nothing; on failure none of its variables is bound. */
int fe_memory_bind_module(struct fe_memory *mem, const struct fe_module *m, struct sim_error *err);
/* Address and size of a .global/.const symbol after binding (cudaMemcpyToSymbol). */
int fe_symbol(const struct fe_memory *mem, const struct fe_module *m, const char *name,
	      uint64_t *addr, uint64_t *size_bytes, struct sim_error *err);

/* Texture objects (cudaTextureObject_t) for tex.1d / tex.2d: a 1D or 2D array of 32-bit
 * channels in device memory, read with point sampling, coordinates clamped to the edge, and
 * values returned as stored (cudaReadModeElementType). Channels a texel lacks read as 0. */
struct fe_tex_desc {
	uint64_t addr;           /* device address of texel (0,0) */
	uint32_t width, height;  /* texels; height 1 for 1D */
	uint32_t pitch_bytes;    /* bytes between rows; 0 = width * texel bytes */
	uint8_t channels;        /* 1, 2 or 4 channels of 4 bytes each */
	bool normalized_coords;  /* float coordinates in [0,1) scaled by width/height */
};
/* Register a texture object in mem; *handle (nonzero) is what the kernel's u64 argument gets.
 * SIM_ERR_INPUT when the description is invalid or the texels are not all in one allocation. */
int fe_texture_create(struct fe_memory *mem, const struct fe_tex_desc *d, uint64_t *handle,
		      struct sim_error *err);
/* Later tex instructions on handle fault; SIM_ERR_INPUT if it is no live texture. */
int fe_texture_destroy(struct fe_memory *mem, uint64_t handle, struct sim_error *err);

/* A launch: kernel of module m over mem with grid/block, dynamic shared bytes and a parameter
 * buffer laid out per fe_kernel_param. regs_per_thread = 0 takes the module's estimate (source
 * FE_REGS_ESTIMATE), any other value is given (FE_REGS_GIVEN). */
struct fe_launch *fe_launch_create(const struct fe_module *m, struct fe_memory *mem,
				   const char *kernel, const uint32_t grid[3], const uint32_t block[3],
				   uint32_t dyn_shared_bytes, const void *params, size_t params_bytes,
				   uint32_t regs_per_thread, struct sim_error *err);
void fe_launch_destroy(struct fe_launch *l);
/* Set l's registers per thread and their source (the host API's ptxas figure). */
void fe_launch_set_regs(struct fe_launch *l, uint32_t regs_per_thread, enum fe_regs_source src);
/* Device printf of l's threads is printed on out (NULL, the default: parsed, not printed). */
void fe_launch_set_printf(struct fe_launch *l, FILE *out);
/* Stack bytes per thread for calls of recursive functions (cudaLimitStackSize; default
 * FE_DEFAULT_STACK_BYTES, CUDA's): nested frames past it fault as a stack overflow. */
#define FE_DEFAULT_STACK_BYTES 1024u
void fe_launch_set_stack_bytes(struct fe_launch *l, uint64_t bytes);
/* Forward progress of l so far, for the livelock rules (timing: components/gpu.c; functional:
 * below). *mem_state hashes what l's stores and atomics left in memory: rewriting a location
 * with the value it holds leaves it unchanged, and memory that returns to earlier contents
 * returns it to the earlier hash (equal contents, equal hash; unequal contents collide with
 * probability about 2^-64). *atomic_changes counts atomic instructions that changed memory. */
void fe_launch_progress(const struct fe_launch *l, uint64_t *mem_state, uint64_t *atomic_changes);

/* The last FE_STATE_RING memory-state samples. A livelock rule takes a sample as progress only
 * when it differs from all of them, so a loop that keeps storing cycles through at most that
 * many sampled contents (x = 1; x = 2; forever) makes none. Zero-initialise before use. */
#define FE_STATE_RING 8
struct fe_state_ring {
	uint64_t h[FE_STATE_RING];
	uint32_t n, next;        /* samples held (<= FE_STATE_RING); slot the next one replaces */
};
/* True, and h recorded, when h is none of the samples held; false otherwise. */
bool fe_state_ring_new(struct fe_state_ring *r, uint64_t h);

/* Execute every CTA functionally (no timing): CTAs one after another, a CTA's warps round-robin
 * in turns of up to 64 instructions (a turn ends early at a barrier arrival or exit), barriers
 * honoured. Counts warp and thread instructions. */
int fe_launch_run_functional(struct fe_launch *l, uint64_t *warp_insts, uint64_t *thread_insts,
			     struct sim_error *err);
/* The same with a livelock limit: a CTA that executes livelock_warp_insts warp instructions
 * without changing memory (the memory state, sampled every FE_STATE_SAMPLE_INSTS of them, is
 * none of the last FE_STATE_RING samples), an atomic that changed memory, a barrier arrival
 * or a warp exit (a warp spinning on a flag keeps loading it; one storing the same value keeps
 * rewriting it) ends the run with SIM_ERR_PROGRAM naming a spinning warp's pc and line.
 * 0 = no limit; fe_launch_run_functional uses FE_LIVELOCK_WARP_INSTS. */
#define FE_STATE_SAMPLE_INSTS 4096u
#define FE_LIVELOCK_WARP_INSTS (UINT64_C(1) << 27) /* = sim.functional_livelock_warp_insts */
int fe_launch_run_functional_limit(struct fe_launch *l, uint64_t livelock_warp_insts,
				   uint64_t *warp_insts, uint64_t *thread_insts, struct sim_error *err);
/* The same, calling observe(ctx, cta, wi) after every executed memory instruction (wi->addr
 * holds its active lanes' addresses; cta is the CTA's linear id in the grid). A nonzero return
 * ends the run with that code (observe sets err). */
typedef int (*fe_mem_observe_fn)(void *ctx, uint32_t cta, const struct warp_inst *wi, struct sim_error *err);
int fe_launch_run_functional_observe(struct fe_launch *l, uint64_t livelock_warp_insts, fe_mem_observe_fn observe,
				     void *ctx, uint64_t *warp_insts, uint64_t *thread_insts,
				     struct sim_error *err);

/* A check the functional runner makes while a launch runs, between turns of its warps once
 * every FE_POLL_WARP_INSTS warp instructions (a few milliseconds): a signal that should end
 * the program is taken there instead of when the launch ends (`warpsim cuda`, cudart/cuda_run.c).
 * A nonzero return ends the run with that code (poll sets err); poll may also not return. It
 * must not change what the launch computes. NULL: none (the default). */
#define FE_POLL_WARP_INSTS (UINT64_C(1) << 16)
typedef int (*fe_poll_fn)(void *ctx, struct sim_error *err);
void fe_launch_set_poll(struct fe_launch *l, fe_poll_fn poll, void *ctx);

/* Finish functionally a launch the timing model ran part of (a budget stopped it there): the
 * CTAs it had started and not finished, ctas[0..n), run on from where their warps stand (warp
 * k of ctas[i].cta waits at a barrier when ctas[i].at_barrier[k] is nonzero), in that order,
 * then CTAs first_new .. n_ctas - 1 from their start, as fe_launch_run_functional_observe
 * runs them. The timing model executes an instruction when it issues it, so the warps' state
 * holds every issued instruction's effect and nothing of the rest. The CTAs stay the
 * caller's; their clock registers read the functional clock from here on. Counts the warp and
 * thread instructions executed here. */
struct fe_resume_cta {
	struct fe_cta *cta;
	const uint8_t *at_barrier;    /* [fe_cta_warp_count(cta)] */
};
int fe_launch_finish_functional(struct fe_launch *l, const struct fe_resume_cta *ctas, uint32_t n,
				uint32_t first_new, uint64_t livelock_warp_insts, fe_mem_observe_fn observe,
				void *ctx, uint64_t *warp_insts, uint64_t *thread_insts, struct sim_error *err);

/* Where a launch is executed: functionally (fe_launch_run_functional) or by the timing model
 * (components/gpu). The host API and workload runner only see this. */
struct fe_device {
	int (*launch)(void *ctx, struct fe_launch *l, struct sim_error *err);
	void *ctx;
	bool timing; /* launches use regs_per_thread: the host looks for ptxas counts (fe_ptxas.h) */
	/* Optional: the host copied bytes at device address addr (either direction), between
	 * launches; a timing device may warm its caches (gpu.l2.fill_on_copy). */
	void (*copied)(void *ctx, uint64_t addr, uint64_t bytes);
};

#endif
