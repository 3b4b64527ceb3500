/* SPDX-License-Identifier: MIT */
/* libwarpsim: the cycle-level GPU simulator as a library. A struct warpsim is one machine
 * (configuration, timing model or functional executor, device memory, statistics); PTX modules
 * are loaded into it and their kernels launched on it. Link with `pkg-config --libs warpsim`.
 * Not thread-safe: one thread at a time uses a machine. */
#ifndef WARPSIM_PUBLIC_H
#define WARPSIM_PUBLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WARPSIM_API_VERSION 1

/* Every call that can fail returns 0 or one of these (negative) and fills *err if non-NULL.
 * Each also records its failure for warpsim_last_error, the only way to learn why a call
 * without err (a bool, count, name or void) failed. Statuses a call does not list below are
 * USAGE for a NULL pointer argument (unless it "may be NULL"), a negative count, or a machine
 * or module that is NULL or already destroyed; NOMEM, which any call that allocates may give. */
enum warpsim_status {
	WARPSIM_OK = 0,
	WARPSIM_ERR_CONFIG = -1,  /* bad configuration file or override */
	WARPSIM_ERR_INPUT = -2,   /* bad PTX, kernel name, argument, address, launch shape */
	WARPSIM_ERR_USAGE = -3,   /* API misuse: NULL or destroyed handle, NULL pointer */
	WARPSIM_ERR_IO = -4,      /* a file could not be read or written */
	WARPSIM_ERR_NOMEM = -5,   /* host or device memory exhausted */
	WARPSIM_ERR_FAULT = -6,   /* simulator fault: deadlock, livelock, limit, invariant */
	WARPSIM_ERR_PROGRAM = -7, /* the kernel is at fault: bad address, trap, failed assert */
	WARPSIM_ERR_BUDGET = -8,  /* no failure: the run's budget (sim.max_*) is spent with
				   * sim.on_budget = stop; end the program (stats are complete) */
};
struct warpsim_error {
	int code;            /* enum warpsim_status */
	char message[1024];  /* one line: "file:line: setting: what" (parts only when known) */
};

/* This thread's latest failure since the previous call (copied to *out if non-NULL): its
 * status, or WARPSIM_OK if none; reading clears it. */
int warpsim_last_error(struct warpsim_error *out);

struct warpsim;        /* a machine */
struct warpsim_module; /* a PTX module loaded into a machine (owned by it) */

/* Build a machine: configs in order (later files override earlier, as presets do), then each
 * "key=value" override (`warpsim config --list` names every key). functional: no timing model,
 * launches run on the functional executor (configs may then be empty). NULL on error: CONFIG
 * for a configuration file that is missing, unreadable or wrong, or an override that is not
 * key=value, names no setting or has a bad value; USAGE for a NULL array or entry, or no
 * configs without functional. destroy: NULL, or a machine already destroyed, does nothing;
 * its modules, addresses and textures die with it. */
struct warpsim_options {
	const char *const *configs;
	int n_configs;
	const char *const *overrides;
	int n_overrides;
	bool functional;
};
struct warpsim *warpsim_create(const struct warpsim_options *o, struct warpsim_error *err);
void warpsim_destroy(struct warpsim *ws);
const char *warpsim_version(void);

/* Resolved configuration values (false: no such key or not of that type; NULL arguments). */
bool warpsim_config_int(const struct warpsim *ws, const char *key, int64_t *out);
bool warpsim_config_float(const struct warpsim *ws, const char *key, double *out);
const char *warpsim_config_str(const struct warpsim *ws, const char *key);

/* Load PTX text (name, used in messages, may be NULL) or a PTX file; its .global/.const
 * variables are allocated in the machine's memory. The module lives until warpsim_destroy.
 * INPUT: the PTX is wrong; IO: the file cannot be read. *out is NULL on failure. */
int warpsim_module_load_ptx(struct warpsim *ws, const char *name, const char *ptx,
			    struct warpsim_module **out, struct warpsim_error *err);
int warpsim_module_load_file(struct warpsim *ws, const char *path, struct warpsim_module **out,
			     struct warpsim_error *err);

/* Kernels are numbered 0..count-1 (an index past them: INPUT, NULL names). Names: as in the
 * PTX ("_Z3addPfi") and as in C++ without return type ("add(float*, int)"). find accepts
 * either, or the C++ name without parameters when one kernel has it ("add", "scale<float>");
 * -1 with err INPUT when none or several match. */
uint32_t warpsim_kernel_count(const struct warpsim_module *m);
const char *warpsim_kernel_ptx_name(const struct warpsim_module *m, uint32_t k);
const char *warpsim_kernel_name(const struct warpsim_module *m, uint32_t k);
int warpsim_kernel_find(const struct warpsim_module *m, const char *name,
			struct warpsim_error *err);
struct warpsim_kernel_attrs {
	uint32_t n_params;
	uint32_t param_bytes;          /* size of the parameter buffer */
	uint32_t regs_per_thread;      /* given, else ptxas's count, else warpsim's estimate */
	uint32_t shared_static_bytes;
	uint32_t local_bytes;          /* per thread */
	uint32_t max_threads_per_block;/* .maxntid/.reqntid, else 1024 */
};
int warpsim_kernel_attrs(struct warpsim_module *m, uint32_t k, struct warpsim_kernel_attrs *out,
			 struct warpsim_error *err);
/* Byte offset and size of parameter i in the parameter buffer (INPUT: no parameter i). */
int warpsim_kernel_param(const struct warpsim_module *m, uint32_t k, uint32_t i,
			 uint32_t *offset, uint32_t *size_bytes, struct warpsim_error *err);
/* Registers per thread for later launches of k (from a cubin or `ptxas -v`; 0 = the default;
 * INPUT past 255). */
int warpsim_kernel_set_regs(struct warpsim_module *m, uint32_t k, uint32_t regs,
			    struct warpsim_error *err);

/* Device memory: addresses are simulated device addresses, never host pointers. An access
 * outside a live allocation is WARPSIM_ERR_INPUT; 0 bytes do nothing (pointers may then be
 * NULL). free takes what malloc returned (else INPUT). malloc: 0 bytes is a minimal block,
 * more than 2^40 NOMEM. Addresses of another machine are not told apart from this one's. */
int warpsim_malloc(struct warpsim *ws, uint64_t bytes, uint64_t *addr, struct warpsim_error *err);
int warpsim_free(struct warpsim *ws, uint64_t addr, struct warpsim_error *err);
/* The live allocation holding addr: its start and size (each may be NULL); false if none. */
bool warpsim_allocation(const struct warpsim *ws, uint64_t addr, uint64_t *base, uint64_t *bytes);
uint64_t warpsim_allocated_bytes(const struct warpsim *ws);
int warpsim_write(struct warpsim *ws, uint64_t dst, const void *src, uint64_t bytes,
		  struct warpsim_error *err);
int warpsim_read(struct warpsim *ws, void *dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err);
int warpsim_memset(struct warpsim *ws, uint64_t dst, int value, uint64_t bytes,
		   struct warpsim_error *err);
int warpsim_copy(struct warpsim *ws, uint64_t dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err);
/* Address and size (bytes may be NULL) of a module's .global/.const variable; INPUT: none. */
int warpsim_symbol(const struct warpsim_module *m, const char *name, uint64_t *addr,
		   uint64_t *bytes, struct warpsim_error *err);

/* Texture objects for tex.1d/tex.2d: width x height texels of 1, 2 or 4 32-bit channels at
 * addr (one allocation), point sampling, clamped coordinates, values as stored. *handle is
 * what the kernel's texture argument receives. INPUT: another shape, texels outside one
 * allocation, or (destroy) a handle that is no live texture of this machine. */
struct warpsim_texture {
	uint64_t addr;
	uint32_t width, height;   /* height 1 for 1D */
	uint32_t pitch_bytes;     /* bytes between rows; 0 = width * texel size */
	uint8_t channels;
	bool normalized_coords;
};
int warpsim_texture_create(struct warpsim *ws, const struct warpsim_texture *t, uint64_t *handle,
			   struct warpsim_error *err);
int warpsim_texture_destroy(struct warpsim *ws, uint64_t handle, struct warpsim_error *err);

/* Run kernel k to completion. params: the parameter buffer laid out per warpsim_kernel_param,
 * params_bytes exactly attrs.param_bytes (params may be NULL when that is 0). r may be NULL.
 * INPUT: no kernel k, another buffer size, a grid, block or shared size out of bounds or
 * over the machine's resources. PROGRAM: the kernel faulted (on the functional executor, a
 * livelock too); FAULT: the simulator did (deadlock, livelock). After either, every launch (and workload) on the machine
 * fails with that status and the fault's message; memory, stats and outputs still work.
 * A timing machine may run the launch functionally instead (sim.timing_launches,
 * sim.sample_launches, sim.on_budget = functional: exact results, no cycles). BUDGET: a
 * budget (sim.max_thread_insts, _warp_insts, _cycles, _launches) was reached with
 * sim.on_budget = stop: the launch was cut there, its statistics recorded up to the cap
 * (stats.json "budget"), and every later launch returns BUDGET; write the outputs and end. */
struct warpsim_launch {
	uint32_t grid[3], block[3];
	uint32_t dynamic_shared_bytes;
	const void *params;
	size_t params_bytes;
};
struct warpsim_launch_result {
	uint64_t launch;              /* index among this machine's launches (stats "launch") */
	uint64_t start_ps, end_ps;    /* simulated time (0 on the functional executor) */
	uint64_t core_cycles;
	uint64_t warp_insts;
};
int warpsim_launch(struct warpsim_module *m, uint32_t k, const struct warpsim_launch *l,
		   struct warpsim_launch_result *r, struct warpsim_error *err);
/* Launches of several streams (gpu.cta_dispatcher.concurrent_kernels): the n entries of b run
 * to completion, entry i starting after every entry after[0..n_after-1] (indices below i) has
 * ended; with the setting on-gpu on a timing machine (no budget, launch selection, sampling or
 * time series) the kernels run side by side, else one at a time in index order (an order the
 * dependencies allow). stream is the caller's number for the stream, recorded with each
 * launch in stats.json ("stream" in its record; "streams": launches and cycles per stream;
 * "concurrent": each batch run side by side). r (may be NULL) gets n results; a launch's
 * core_cycles are its own span (start to end), which overlaps others'. Errors as
 * warpsim_launch's (INPUT: an entry's module is another machine's or after[] names no
 * earlier entry); nothing runs when an entry is refused before the run. */
struct warpsim_batch_launch {
	struct warpsim_module *m;
	uint32_t kernel;
	struct warpsim_launch launch;
	const uint32_t *after;
	uint32_t n_after;
	uint32_t stream;
};
int warpsim_launch_batch(struct warpsim *ws, const struct warpsim_batch_launch *b, uint32_t n,
			 struct warpsim_launch_result *r, struct warpsim_error *err);
/* Simulated time so far: the end of the last launch (0 for no machine). */
uint64_t warpsim_now_ps(const struct warpsim *ws);
/* Device printf goes to out (NULL, the default: discarded). */
void warpsim_set_printf(struct warpsim *ws, FILE *out);
/* Stack bytes per thread of later launches for calls of recursive functions (CUDA's
 * cudaLimitStackSize; default 1,024): deeper recursion faults as a stack overflow. */
void warpsim_set_stack_bytes(struct warpsim *ws, uint64_t bytes);

/* Statistics: a stat by name (`gpu.cycles`, `sm.0.l1d.misses`...), the stats.json document
 * (caller frees; NULL on failure), and the run's files in dir (created with its parents):
 * stats.json (totals and one record per launch), config.cfg (resolved configuration),
 * cta_timeline.csv. write_outputs: USAGE for an empty dir; IO when it cannot be written. */
bool warpsim_stat(const struct warpsim *ws, const char *name, double *out);
char *warpsim_stats_json(const struct warpsim *ws);
int warpsim_write_outputs(struct warpsim *ws, const char *dir, struct warpsim_error *err);
/* Summary table of the gpu.* stats and the speed of the run so far. */
void warpsim_print_summary(const struct warpsim *ws, FILE *out);

/* A workload file (workloads/README.md) run on the machine, as `warpsim run` does: its own
 * device memory, launches, check. size NULL: the file's. log (may be NULL): one line a launch.
 * IO: the file cannot be opened; INPUT: its text, or size, is wrong; PROGRAM: a kernel
 * faulted or the check failed; FAULT and BUDGET as for warpsim_launch (BUDGET: the check is
 * not made). */
int warpsim_run_workload(struct warpsim *ws, const char *path, const char *size, FILE *log,
			 struct warpsim_error *err);

#ifdef __cplusplus
}
#endif
#endif
