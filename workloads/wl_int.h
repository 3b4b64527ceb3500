/* SPDX-License-Identifier: MIT */
/* Private to workloads/: the loaded workload, named values and expressions, the built-in
 * reference functions and host routines. */
#ifndef WARPSIM_WL_INT_H
#define WARPSIM_WL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "workload.h"

enum wl_type { WL_U8, WL_S8, WL_U16, WL_S16, WL_U32, WL_S32, WL_U64, WL_S64, WL_F32, WL_F64,
	       WL_N_TYPES };
extern const char *const wl_type_names[WL_N_TYPES];
uint32_t wl_type_bytes(enum wl_type t);
bool wl_type_is_float(enum wl_type t);

/* A named value or an expression's result. */
struct wl_val {
	bool is_float;
	int64_t i;
	double f; /* valid for both kinds (equals i for integers) */
};

struct wl_param {
	char *name;
	struct wl_val v;
	int line;            /* where it is defined in the workload file (host routines' errors) */
	char where[32];      /* "params" or "sizes.<size>" */
};

/* A buffer (device allocation) or a .global/.const symbol with its initial host image. */
struct wl_buffer {
	char *name;
	enum wl_type type;
	uint64_t count;
	uint64_t bytes;     /* count * element size */
	unsigned char *init;/* [bytes], owned */
	bool is_symbol;
	bool zeros;         /* init "zeros": set on the device as a host's memset would, not copied */
};

/* A kernel argument: bytes of the parameter's size, with device addresses patched in at run
 * time (a pointer argument is 8 bytes with one fixup; a struct may hold several). */
struct wl_fixup {
	uint32_t at;   /* byte offset in the argument */
	uint32_t buf;  /* buffer index */
	uint64_t off;  /* byte offset into the buffer */
};
struct wl_arg {
	uint32_t size_bytes;
	unsigned char *bytes;
	uint32_t n_fix;
	struct wl_fixup *fix;
};

struct wl_launch {
	char *kernel;
	struct ws_dim3 grid, block;
	uint32_t shared_bytes;
	uint32_t repeat;
	int swap[2];       /* buffer indices swapped after each repetition, -1 if none */
	uint32_t n_args;
	struct wl_arg *args;
};

struct wl_ref;
struct wl_check {
	uint32_t buf;
	const struct wl_ref *ref;  /* or NULL with file data */
	unsigned char *file_data;  /* [buffer bytes], owned */
	double abs_tol, rel_tol;
};

struct wl_host_routine;

struct workload {
	char *path, *dir, *name, *size;
	struct fe_module *mod;
	const struct wl_host_routine *host;
	uint32_t n_params, n_bufs, n_launches, n_checks, n_regs;
	struct wl_param *params;
	struct wl_buffer *bufs;
	struct wl_launch *launches;
	struct wl_check *checks;
	struct {
		char *kernel;
		uint32_t regs;
	} *regs;
	struct ws_totals totals;
};

/* Evaluate an integer/float expression over w's params: numbers, names, + - * / % ( ) and
 * unary minus. Errors (SIM_ERR_INPUT) carry file/line/setting given. */
int wl_expr_eval(const struct workload *w, const char *text, const char *file, int line,
		 const char *setting, struct wl_val *out, struct sim_error *err);
const struct wl_param *wl_param_find(const struct workload *w, const char *name);
int wl_buffer_find(const struct workload *w, const char *name); /* index or -1 */

/* Reference functions compute the expected contents of a checked buffer from the initial
 * images and params of w. out has count elements of type. */
struct wl_ref {
	const char *name;
	enum wl_type type;
	int (*fn)(const struct workload *w, void *out, uint64_t count, struct sim_error *err);
};
const struct wl_ref *wl_ref_find(const char *name);
/* For reference functions: initial image of a buffer/symbol of the given type, count checked
 * against min_count (SIM_ERR_INPUT naming the reference on mismatch). */
const void *wl_ref_input(const struct workload *w, const char *ref, const char *buf,
			 enum wl_type type, uint64_t min_count, uint64_t *count,
			 struct sim_error *err);
int wl_ref_int(const struct workload *w, const char *ref, const char *name, int64_t *out,
	       struct sim_error *err);
int wl_ref_float(const struct workload *w, const char *ref, const char *name, double *out,
		 struct sim_error *err);

/* Host routines (host = "name"): run the whole program through h and check the result. */
struct wl_host_routine {
	const char *name;
	int (*run)(struct workload *w, struct ws_host *h, FILE *log, struct sim_error *err);
};
const struct wl_host_routine *wl_host_find(const char *name);
int wl_host_bfs(struct workload *w, struct ws_host *h, FILE *log, struct sim_error *err);

/* Deterministic generator for initial data (splitmix64): same seed, same data everywhere. */
#define WL_RNG_STEP 0x9e3779b97f4a7c15ull /* each draw's step of the state */
static inline uint64_t wl_rng_next(uint64_t *s)
{
	uint64_t z = (*s += WL_RNG_STEP);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* n % d for every 64-bit n and a divisor d >= 1 fixed for a loop, exactly, with a multiply-high,
 * an add and two shifts for the quotient instead of a 64-bit div (tens of cycles: a `%` per
 * element was ~10% of a functional reduce's CPU). Granlund and Montgomery, "Division by
 * invariant integers using multiplication" (PLDI 1994), Fig. 4.1: with l = ceil(log2 d),
 * m = floor(2^64 (2^l - d) / d) + 1 (< 2^64, as 2^l - d < d), t = mulhi(m, n), the quotient is
 * (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0). */
__extension__ typedef unsigned __int128 wl_u128;
struct wl_umod { uint64_t d, m; unsigned s1, s2; };

static inline struct wl_umod wl_umod_make(uint64_t d)
{
	unsigned l = 0;
	while (l < 64 && ((wl_u128)1 << l) < d)
		l++;
	wl_u128 m = ((((wl_u128)1 << l) - d) << 64) / d + 1;
	return (struct wl_umod){.d = d, .m = (uint64_t)m, .s1 = l ? 1 : 0, .s2 = l ? l - 1 : 0};
}

static inline uint64_t wl_umod(const struct wl_umod *u, uint64_t n)
{
	uint64_t t = (uint64_t)(((wl_u128)u->m * n) >> 64);
	return n - ((t + ((n - t) >> u->s1)) >> u->s2) * u->d;
}

/* float -> int64 as the GPU's cvt.rzi.s64 does: truncate, saturate out-of-range values, NaN -> 0
 * (a plain C cast of an out-of-range double is undefined behaviour). */
static inline int64_t wl_f2i(double f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	if (f <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)f;
}

#endif
