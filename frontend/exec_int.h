/* SPDX-License-Identifier: MIT */
/* Private to frontend/: typed register access and operand helpers shared by exec.c (ALU,
 * warp-synchronous) and exec_mem.c (memory spaces, atomics, textures). */
#ifndef WARPSIM_FE_EXEC_INT_H
#define WARPSIM_FE_EXEC_INT_H

#include <string.h>

#include "fe_rt.h"

static inline uint64_t sext(uint64_t v, uint32_t bytes)
{
	if (bytes >= 8)
		return v;
	uint32_t sh = 64 - 8 * bytes;
	return (uint64_t)((int64_t)(v << sh) >> sh);
}

static inline uint64_t zext(uint64_t v, uint32_t bytes)
{
	return bytes >= 8 ? v : v & ((1ull << (8 * bytes)) - 1);
}

/* Registers hold values extended to 64 bits by the writing type (signed types sign-extend),
 * so a narrower load into a wider register reads back correctly at any width. */
static inline uint64_t norm(uint64_t v, enum fe_type t)
{
	if (t == FE_T_PRED)
		return v != 0;
	uint32_t b = fe_type_bytes(t);
	return fe_type_is_signed(t) ? sext(v, b) : zext(v, b);
}

static inline float as_f32(uint64_t v)
{
	uint32_t b = (uint32_t)v;
	float f;
	memcpy(&f, &b, 4);
	return f;
}

static inline double as_f64(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t f32_bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static inline uint64_t f64_bits(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

static inline uint64_t *reg_slot(const struct fe_warp *w, uint16_t r, uint32_t lane)
{
	return &w->regs[(size_t)r * w->n_lanes + lane];
}

static inline uint32_t tid_linear(const struct fe_warp *w, uint32_t lane)
{
	return w->id * w->n_lanes + lane;
}

/* Address of FE_OK_ADDR (without the register part's space translation). */
static inline uint64_t addr_value(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane)
{
	uint64_t a = (uint64_t)o->imm;
	if (o->reg != FE_NO_REG)
		a += *reg_slot(w, o->reg, lane);
	if (o->abase == FE_AB_GSYM)
		a += w->cta->l->gsym_addr[o->sym];
	return a;
}

static inline void dst(struct fe_warp *w, uint16_t r, uint32_t lane, uint64_t v, enum fe_type t)
{
	if (r != FE_NO_REG)
		*reg_slot(w, r, lane) = norm(v, t);
}

/* A register column of zeros (read only): what an operand without a register, or an immediate
 * 0, reads in the fast loops, which index every operand by lane alike. */
extern const uint64_t fe_zero_column[WI_MAX_LANES];

/* Value of an operand for lane, read as type t (immediates converted, sregs computed). */
uint64_t fe_exec_src(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane, enum fe_type t);
/* exec_mem.c: ld/ldu/st, atom/red, tex for the lanes of mask; per-lane addresses into out.
 * fe_exec_ldst goes lane by lane through every space; fe_exec_ldst_fast runs the decoded
 * FE_X_LD/FE_X_ST shapes with the same results, faults included. */
int fe_exec_ldst_fast(struct fe_warp *w, uint32_t pc, const struct fe_xop *x, const uint64_t *mask,
		      struct warp_inst *out, struct sim_error *err);
int fe_exec_ldst(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 struct warp_inst *out, struct sim_error *err);
int fe_exec_atom(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 struct warp_inst *out, struct sim_error *err);
/* exec_mem.c: host pointer of n bytes at generic address a as lane of w sees it (global,
 * shared, local or param window); NULL when nothing is there. For device printf. */
uint8_t *fe_exec_generic_ptr(struct fe_warp *w, uint32_t lane, uint64_t a, uint32_t n);
/* printf.c: device printf (vprintf) of lane: format at generic address fmt, arguments packed
 * at args with natural alignment. Printed on out (NULL: only parsed). Returns what CUDA's
 * printf returns: the number of arguments, -1 for a NULL format. */
int fe_exec_printf(struct fe_warp *w, uint32_t lane, uint64_t fmt, uint64_t args, FILE *out);
int fe_exec_tex(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		struct warp_inst *out, struct sim_error *err);

#endif
