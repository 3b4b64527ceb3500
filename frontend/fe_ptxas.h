/* SPDX-License-Identifier: MIT */
/* Registers per thread from ptxas: find ptxas, run `ptxas -v` on a module's PTX, parse what it
 * prints, and keep the result in a user cache. Host side only (never on the per-cycle path). */
#ifndef WARPSIM_FE_PTXAS_H
#define WARPSIM_FE_PTXAS_H

#include <stdbool.h>
#include <stdint.h>

#include "fe.h"

/* The architecture the committed regs_per_thread figures were taken for (workloads/Makefile). */
#define FE_PTXAS_ARCH "sm_75"
/* A kernel ptxas reported no count for. */
#define FE_PTXAS_NO_COUNT UINT32_MAX

const char *fe_regs_source_name(enum fe_regs_source s);

/* Where ptxas and the cache are. The strings are borrowed. */
struct fe_ptxas_opts {
	const char *ptxas;     /* program to run: a path, or a name looked up in PATH; NULL: look
	                          for "ptxas" in PATH, then $CUDA_HOME/bin, then
	                          /usr/local/cuda/bin; "" or "none": never run ptxas */
	const char *cache_dir; /* NULL: $XDG_CACHE_HOME/warpsim, else ~/.cache/warpsim;
	                          "" or "none": no cache */
	const char *arch;      /* NULL: FE_PTXAS_ARCH */
};
/* The options the environment gives: WARPSIM_PTXAS and WARPSIM_CACHE_DIR (unset: NULL). */
void fe_ptxas_opts_from_env(struct fe_ptxas_opts *o);

/* What ptxas says about a module, in the module's kernel order. */
struct fe_ptxas_regs {
	enum fe_regs_source source; /* FE_REGS_PTXAS, FE_REGS_PTXAS_CACHE, or FE_REGS_ESTIMATE
	                               when ptxas gave nothing (why says why) */
	uint32_t n_kernels;
	uint32_t *regs;             /* [n_kernels]; FE_PTXAS_NO_COUNT where ptxas printed none */
	char ptxas[512];            /* the ptxas used ("" if none was found) */
	char why[512];              /* FE_REGS_ESTIMATE: why there is no ptxas figure */
	char cache_warning[512];    /* non-empty if the cache could not be written */
};

/* Counts for every kernel of m: from the cache when it holds this PTX text for this arch and
 * this ptxas (same path, size and modification time), otherwise by running
 * `ptxas -arch=ARCH -v` once (output discarded) and storing the result in the cache. Never an
 * error: a missing or failing ptxas gives source FE_REGS_ESTIMATE with why filled in (a PTX
 * file ptxas refuses is not warpsim's error: its own parser has accepted m). Release with
 * fe_ptxas_regs_fini. */
void fe_ptxas_module_regs(const struct fe_module *m, const struct fe_ptxas_opts *o,
			  struct fe_ptxas_regs *out);
void fe_ptxas_regs_fini(struct fe_ptxas_regs *r);

/* The ptxas opts names, resolved as fe_ptxas_module_regs does, into path (false if none is
 * found or opts disable it; why then says which). */
bool fe_ptxas_find(const struct fe_ptxas_opts *o, char *path, size_t path_len, char *why,
		   size_t why_len);

/* One function in `ptxas -v` output. name points into the parsed text (not terminated). */
struct fe_ptxas_func {
	const char *name;
	uint32_t name_len;
	bool entry;                 /* "Compiling entry function" */
	bool has_regs;              /* a "Used N registers" line belonged to it */
	uint32_t regs;
	uint32_t stack_bytes, spill_store_bytes, spill_load_bytes; /* "Function properties" */
};
/* Parse `ptxas -v` output (CUDA 13's layout, and the older one without "used N barriers";
 * lines may carry a prefix such as MSBuild's "1>"): functions in order of first mention, at
 * most max stored; returns how many were stored, or max + 1 if some did not fit. "Used N
 * registers" belongs to the function of the latest "Compiling [entry] function" line; lines
 * not understood are skipped. */
uint32_t fe_ptxas_parse(const char *text, struct fe_ptxas_func *out, uint32_t max);

/* SHA-256 of n bytes as 64 lower-case hex digits and a NUL (the cache key; FIPS 180-4). */
void fe_sha256_hex(const void *data, size_t n, char hex[65]);

#endif
