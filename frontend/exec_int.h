/* SPDX-License-Identifier: MIT */
/* Private to frontend/: typed register access, operand helpers and the semantics shared by the
 * executor's files: exec.c (decode, dispatch), exec_opnd.c (operands, special registers),
 * exec_alu.c (per-lane ALU), exec_float.c (floating point), exec_fast.c (fast loops),
 * exec_warp.c (shfl, vote), exec_mem.c (memory spaces, atomics, textures). */
#ifndef WARPSIM_FE_EXEC_INT_H
#define WARPSIM_FE_EXEC_INT_H

#include <math.h>
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

/* exec_opnd.c: special register sr for lane (the clocks: fe_cta_set_clock); immediate o read
 * as type t (float literals converted, 0f/0d bit patterns of the type's width kept). */
uint64_t fe_exec_sreg(const struct fe_warp *w, uint32_t lane, uint8_t sr);
uint64_t fe_exec_imm(const struct fe_opnd *o, enum fe_type t);

/* Value of an operand for lane, read as type t (immediates converted, sregs computed); the
 * per-lane semantics' operand read, inline for registers and integer immediates. */
static inline uint64_t fe_opnd_value(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane,
				     enum fe_type t)
{
	switch (o->kind) {
	case FE_OK_REG: {
		uint64_t v = *reg_slot(w, o->reg, lane);
		return o->neg ? !v : v;
	}
	case FE_OK_IMM:
		return o->imm_is_f || fe_type_is_float(t) ? fe_exec_imm(o, t) : (uint64_t)o->imm;
	case FE_OK_SREG:
		return fe_exec_sreg(w, lane, o->sreg);
	case FE_OK_ADDR:
		return addr_value(w, o, lane);
	default:
		return 0;
	}
}

/* exec_float.c: IEEE half <-> float/double (round to nearest even); one f16 operation of in on
 * the low 16 bits of a, b, c. */
float fe_half_to_f32(uint16_t h);
uint16_t fe_double_to_half(double f);
uint64_t fe_half_op(const struct fe_inst *in, uint64_t a, uint64_t b, uint64_t c);

/* One out-of-line copy, never cloned: when both operands of an add or mul are NaN, which
 * payload comes out depends on the operand order the compiler picked for that instruction,
 * so the fast loops hand NaN operands to this same code instead of computing them. */
#if defined(__clang__)
#define FE_ONE_COPY __attribute__((noinline))
#else
#define FE_ONE_COPY __attribute__((noinline, noclone))
#endif

/* exec_float.c: the f32/f64 binary (add sub mul div mad fma min max, op) and unary (in->op:
 * sqrt rcp rsqrt sin cos ex2 lg2 tanh neg abs) operations with in's rounding, .ftz, .sat;
 * a comparison of two values read as doubles; cvt of a from in->type2 to in->type. */
FE_ONE_COPY uint64_t fe_fbin(enum fe_op op, const struct fe_inst *in, uint64_t a, uint64_t b, uint64_t c);
uint64_t fe_funary(const struct fe_inst *in, uint64_t a);
bool fe_fcmp(uint8_t cmp, double x, double y);
uint64_t fe_convert(const struct fe_inst *in, uint64_t a);

/* exec_alu.c: the per-lane semantics of an ALU instruction (every type and modifier). */
void fe_exec_lane(struct fe_warp *w, const struct fe_inst *in, uint32_t lane);
/* exec_warp.c: shfl.sync; vote.sync and activemask; match.sync; for the lanes of mask. */
void fe_exec_shfl(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask);
void fe_exec_vote(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask);
void fe_exec_match(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask);
/* exec_fast.c: the decoded shape x (kind not FE_X_GENERIC, FE_X_LD, FE_X_ST) for the lanes of
 * mask, through the loop the link chose (x->fast). A setp with one result (no second one, no
 * combining predicate) and predicate logic (and, or, xor, not .pred) return true and their
 * lanes' results in pbits[mask_words]: bit l set when lane l is in mask and its x->d became 1
 * (what fe_exec_pred_bits would read for those lanes); any other returns false and leaves
 * pbits alone. */
static inline bool fe_exec_fast(struct fe_warp *w, const struct fe_xop *x, const uint64_t *mask,
				uint64_t *pbits)
{
	return x->fast(w, x, mask, pbits);
}
/* exec_fast.c: the loop of x's kind (and result form); NULL for FE_X_GENERIC, FE_X_LD, FE_X_ST. */
fe_fast_fn fe_exec_fast_fn(const struct fe_xop *x);

/* Integer div (rem: rem) of n-byte operands, the per-lane semantics and the fast loop's. PTX
 * leaves x/0 machine-specific; we return what NVIDIA GPUs give: all ones for the quotient and
 * the dividend for the remainder. INT_MIN/-1 wraps to INT_MIN. */
static inline uint64_t fe_idiv(uint64_t a, uint64_t b, uint32_t n, bool sgn, bool rem)
{
	if (zext(b, n) == 0)
		return rem ? a : ~0ull;
	if (sgn) {
		int64_t x = (int64_t)sext(a, n), y = (int64_t)sext(b, n);
		if (y == -1)
			return rem ? 0 : (uint64_t)(-(uint64_t)x);
		return rem ? (uint64_t)(x % y) : (uint64_t)(x / y);
	}
	uint64_t x = zext(a, n), y = zext(b, n);
	return rem ? x % y : x / y;
}

/* cvt of float value x (an f16, f32 or f64 read exactly as a double) to a db-byte integer
 * (dsig: signed): rounded per rnd (.rni/.rzi/.rmi/.rpi, truncation otherwise), saturated to the
 * destination's range, NaN -> 0. fe_convert's float -> int and the fast loop's (exec_fast.c)
 * both call it. */
static inline uint64_t fe_cvt_f2i(double x, uint8_t rnd, uint32_t db, bool dsig)
{
	if (isnan(x))
		return 0;
	double r;
	switch (rnd) {
	case FE_RND_RNI: r = nearbyint(x); break;
	case FE_RND_RMI: r = floor(x); break;
	case FE_RND_RPI: r = ceil(x); break;
	default: r = trunc(x); break;
	}
	if (dsig) {
		/* 2^(bits-1) as an exact integer conversion: ldexp is a libm call per lane */
		double lo = db >= 8 ? -9223372036854775808.0 : -(double)(1ull << (8 * db - 1));
		double hi = db >= 8 ? 9223372036854775807.0 : (double)(1ull << (8 * db - 1)) - 1;
		if (r <= lo)
			return (uint64_t)(int64_t)lo;
		if (r >= hi)
			return db >= 8 ? (uint64_t)INT64_MAX : (uint64_t)(int64_t)hi;
		return (uint64_t)(int64_t)r;
	}
	if (r <= 0)
		return 0;
	double hi = db >= 8 ? 18446744073709551615.0 : (double)(1ull << (8 * db)) - 1;
	if (r >= hi)
		return db >= 8 ? UINT64_MAX : (uint64_t)hi;
	return (uint64_t)r;
}


/* fe_opnd_value out of line. */
uint64_t fe_exec_src(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane, enum fe_type t);
/* exec_mem.c: ld/ldu/st, atom/red, tex for the lanes of mask; per-lane addresses into out
 * (ld/st: into addr; NULL: not recorded). fe_exec_ldst goes lane by lane through every space;
 * fe_exec_ldst_fast runs the decoded FE_X_LD/FE_X_ST shapes through the loop the link chose
 * (x->ldst) with the same results, faults included. */
static inline int fe_exec_ldst_fast(struct fe_warp *w, uint32_t pc, const struct fe_xop *x,
				    const uint64_t *mask, uint64_t *addr, struct sim_error *err)
{
	return x->ldst(w, pc, x, mask, addr, err);
}
/* exec_mem.c: the loop of an FE_X_LD/FE_X_ST x; NULL for any other kind. */
fe_ldst_fn fe_exec_ldst_fn(const struct fe_xop *x);
int fe_exec_ldst(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 uint64_t *addr, struct sim_error *err);
int fe_exec_atom(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 struct warp_inst *out, struct sim_error *err);
/* exec_mem.c: host pointer of n bytes at generic address a as lane of w sees it (global,
 * shared, local or param window); NULL when nothing is there. For device printf. */
uint8_t *fe_exec_generic_ptr(struct fe_warp *w, uint32_t lane, uint64_t a, uint32_t n);
/* The same in space sp (WI_SPACE_NONE: generic); *tm gets the address the timing model sees. */
uint8_t *fe_exec_mem_at(struct fe_warp *w, uint32_t lane, uint8_t sp, uint64_t a, uint32_t n,
			uint64_t *tm);
/* exec_wmma.c: wmma.load/wmma.store (addresses into out) and wmma.mma for the whole warp. */
int fe_exec_wmma(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 struct warp_inst *out, struct sim_error *err);
/* printf.c: device printf (vprintf) of lane: format at generic address fmt, arguments packed
 * at args with natural alignment. Printed on out (NULL: only parsed). Returns what CUDA's
 * printf returns: the number of arguments, -1 for a NULL format. */
int fe_exec_printf(struct fe_warp *w, uint32_t lane, uint64_t fmt, uint64_t args, FILE *out);
int fe_exec_tex(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		struct warp_inst *out, struct sim_error *err);

#endif
