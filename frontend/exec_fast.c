/* SPDX-License-Identifier: MIT */
/* The fast loops of the functional executor: the decoded shapes (struct fe_xop) of the common
 * ALU instructions, each one loop over the active lanes with every per-instruction decision
 * taken at decode. They compute exactly what the per-lane semantics (exec_alu.c) do;
 * tests/frontend/test_fastpath.c compares the two. */
#include <math.h>

#include "exec_int.h"

static inline bool xboolop(uint8_t op, bool a, bool c)
{
	return op == FE_BOOL_AND ? a && c : op == FE_BOOL_OR ? a || c : op == FE_BOOL_XOR ? a != c : a;
}

static inline unsigned setp_idx_u(uint64_t a, uint64_t b)
{
	return (unsigned)(a > b) * 2 + (a == b);
}

static inline unsigned setp_idx_f(float a, float b)
{
	return isnan(a) || isnan(b) ? 3 : (unsigned)(a > b) * 2 + (a == b);
}

static inline unsigned setp_idx_d(double a, double b)
{
	return isnan(a) || isnan(b) ? 3 : (unsigned)(a > b) * 2 + (a == b);
}

/* One loop over the active lanes; operand i is a register column or, through an index mask
 * of 0, the immediate. */
/* The shapes of the write's norm() that fast loops are specialised for: a 64-bit result, a
 * 32- or 16-bit result zero- or sign-extended (PTX keeps bools and chars in 16-bit
 * registers), any other through the shift pair. */
enum { RF_64, RF_U32, RF_S32, RF_U16, RF_S16, RF_ANY, RF_COUNT };

static inline __attribute__((always_inline)) uint64_t rnorm(uint64_t v, int rf, unsigned rsh, bool rs)
{
	switch (rf) {
	case RF_64: return v;
	case RF_U32: return (uint32_t)v;
	case RF_S32: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	case RF_U16: return (uint16_t)v;
	case RF_S16: return (uint64_t)(int64_t)(int16_t)(uint16_t)v;
	default: return rs ? (uint64_t)((int64_t)(v << rsh) >> rsh) : (v << rsh) >> rsh;
	}
}

const uint64_t fe_zero_column[WI_MAX_LANES];

/* fma.rn.f32 on a CPU with FMA instructions: the same loop as FE_X_FFMA's in exec_fast with
 * fmaf as one instruction instead of a libm call per lane. Both are the correctly rounded
 * fused multiply-add, so they agree on every result that is not a NaN; NaNs go to fbin in
 * both. (Without FMA, exec_fast's own loop runs.) */
#if defined(__x86_64__) && defined(__GNUC__)
#define FE_FMA_CLONE 1
static __attribute__((target("fma"))) void ffma_fma3(const struct fe_warp *w, const uint64_t *mask,
						     uint64_t *D, const uint64_t *S0,
						     const uint64_t *S1, const uint64_t *S2,
						     const struct fe_inst *in)
{
	FE_FOR_LANES(w, mask, lane,
		uint64_t a = S0[lane], b = S1[lane], c = S2[lane];
		float r = fmaf(as_f32(a), as_f32(b), as_f32(c));
		D[lane] = r == r ? f32_bits(r) : fe_fbin(FE_OP_FMA, in, a, b, c);
	);
}
#endif
/* The names the loops use (unused ones are fine, and cost nothing): the destination column D
 * and the source columns S0-S2 (a register's, or the immediate's column the link made:
 * fe_xop.icol), the decoded fields. */
#define FAST_LOCALS                                                                            \
	const size_t nl __attribute__((unused)) = w->n_lanes;                                  \
	uint64_t *const D __attribute__((unused)) = &w->regs[(size_t)x->d * nl];              \
	const uint64_t *const S0 __attribute__((unused)) =                                    \
		x->r[0] != FE_NO_REG ? &w->regs[(size_t)x->r[0] * nl] : x->icol[0];            \
	const uint64_t *const S1 __attribute__((unused)) =                                    \
		x->r[1] != FE_NO_REG ? &w->regs[(size_t)x->r[1] * nl] : x->icol[1];            \
	const uint64_t *const S2 __attribute__((unused)) =                                    \
		x->r[2] != FE_NO_REG ? &w->regs[(size_t)x->r[2] * nl] : x->icol[2];            \
	const struct fe_inst *const in __attribute__((unused)) = x->in;                       \
	const unsigned rsh __attribute__((unused)) = x->rsh, ssh __attribute__((unused)) = x->ssh, \
		       bits __attribute__((unused)) = x->bits;                                \
	const bool rs __attribute__((unused)) = x->rsigned, ss __attribute__((unused)) = x->ssigned; \
	const bool n0 __attribute__((unused)) = x->neg[0], n1 __attribute__((unused)) = x->neg[1], \
		   n2 __attribute__((unused)) = x->neg[2]

#define A (S0[lane])
#define B (S1[lane])
#define C (S2[lane])
/* the write's norm(): sign- or zero-extend the result type's bytes (RF: the form, a constant
 * in each function FAST_FN_R makes) */
#define PUT(v) (D[lane] = rnorm((v), RF, rsh, rs))
#define LOOP_R(...) FE_FOR_LANES(w, mask, lane, __VA_ARGS__)
#define SEXT(v) ((int64_t)((v) << ssh) >> ssh)
#define ZEXT(v) (((v) << ssh) >> ssh)

/* Integer arithmetic, logic, shifts, multiplies, selp, mov (registers, immediates, the thread
 * index registers), cvta and cvt (but for the float arithmetic's rounding, one shape each). Called with kind a constant: one case remains. */
static inline __attribute__((always_inline)) void fast_int(struct fe_warp *w, const struct fe_xop *x,
							 const uint64_t *mask, const int kind,
							 const int RF)
{
	FAST_LOCALS;
	switch (kind) {
	case FE_X_ADD: LOOP_R(PUT(A + B);); break;
	case FE_X_SUB: LOOP_R(PUT(A - B);); break;
	case FE_X_AND: LOOP_R(PUT(A & B);); break;
	case FE_X_OR: LOOP_R(PUT(A | B);); break;
	case FE_X_XOR: LOOP_R(PUT(A ^ B);); break;
	case FE_X_NOT: LOOP_R(PUT(~A);); break;
	case FE_X_SHL:
		if (x->r[1] == FE_NO_REG) { /* an immediate count: one shift for every lane */
			const uint64_t s = x->imm[1] & 0xffffffffu;
			if (s >= bits)
				LOOP_R(PUT(0););
			else
				LOOP_R(PUT(A << s););
			break;
		}
		LOOP_R(
			uint64_t s = B & 0xffffffffu;
			PUT(s >= bits ? 0 : A << s);
		);
		break;
	case FE_X_SHR:
		if (x->r[1] == FE_NO_REG) {
			/* an immediate count, as the loops below compute it: a signed shift of
			 * bits or more leaves the sign, which a shift by bits - 1 (32-bit) or 63
			 * (sign-extended to 64) also gives; an unsigned one leaves 0 */
			const uint64_t s = x->imm[1] & 0xffffffffu;
			if (ssh == 32 && ss) {
				const unsigned c = s >= 32 ? 31 : (unsigned)s;
				LOOP_R(PUT((uint64_t)((int64_t)(int32_t)(uint32_t)A >> c)););
			} else if (ss) {
				const unsigned c = s >= bits ? 63 : (unsigned)s;
				LOOP_R(uint64_t a = A; PUT((uint64_t)(SEXT(a) >> c)););
			} else if (s >= (ssh == 32 ? 32 : bits)) {
				LOOP_R(PUT(0););
			} else if (ssh == 32) {
				LOOP_R(PUT((uint64_t)(uint32_t)A >> s););
			} else {
				LOOP_R(uint64_t a = A; PUT(ZEXT(a) >> s););
			}
			break;
		}
		if (ssh == 32 && ss)
			LOOP_R(
				uint64_t s = B & 0xffffffffu;
				int64_t a = (int32_t)(uint32_t)A;
				PUT(s >= 32 ? (uint64_t)(a >> 63) : (uint64_t)(a >> s));
			);
		else if (ssh == 32)
			LOOP_R(
				uint64_t s = B & 0xffffffffu;
				PUT(s >= 32 ? 0 : (uint64_t)(uint32_t)A >> s);
			);
		else if (ss)
			LOOP_R(
				uint64_t s = B & 0xffffffffu, a = A;
				PUT(s >= bits ? (uint64_t)(SEXT(a) >> 63) : (uint64_t)(SEXT(a) >> s));
			);
		else
			LOOP_R(
				uint64_t s = B & 0xffffffffu, a = A;
				PUT(s >= bits ? 0 : ZEXT(a) >> s);
			);
		break;
	case FE_X_MUL_LO: LOOP_R(PUT(A * B);); break;
	case FE_X_MAD_LO: LOOP_R(PUT(A * B + C);); break;
	case FE_X_MUL_WIDE: case FE_X_MAD_WIDE: {
		const bool mad = kind == FE_X_MAD_WIDE;
		/* .wide of 32-bit operands into 64 bits, the common case, without the shift pairs */
		if (ssh == 32 && RF == RF_64 && ss) {
			FE_FOR_LANES(w, mask, lane,
				uint64_t p = (uint64_t)((int64_t)(int32_t)(uint32_t)A * (int32_t)(uint32_t)B);
				D[lane] = mad ? p + C : p;
			);
		} else if (ssh == 32 && RF == RF_64) {
			FE_FOR_LANES(w, mask, lane,
				uint64_t p = (uint64_t)(uint32_t)A * (uint32_t)B;
				D[lane] = mad ? p + C : p;
			);
		} else {
			LOOP_R(
				uint64_t a = A, b = B;
				uint64_t p = ss ? (uint64_t)(SEXT(a) * SEXT(b)) : ZEXT(a) * ZEXT(b);
				PUT(mad ? p + C : p);
			);
		}
		break;
	}
	case FE_X_SELP: LOOP_R(PUT(((C != 0) != n2) ? A : B);); break;
	case FE_X_MOV: LOOP_R(PUT(A);); break;
	case FE_X_MOV_SREG: {
		/* the thread index registers, read once or more by every thread, as sreg_value
		 * computes them but without its call and switch per lane */
		const struct fe_launch *l = w->cta->l;
		const uint32_t t0 = w->id * w->n_lanes, bx = l->block[0], by = l->block[1];
		switch (x->sreg) {
		case FE_SR_TID_X: LOOP_R(PUT((t0 + lane) % bx);); break;
		case FE_SR_TID_Y: LOOP_R(PUT(((t0 + lane) / bx) % by);); break;
		case FE_SR_TID_Z: LOOP_R(PUT((t0 + lane) / (bx * by));); break;
		case FE_SR_NTID_X: case FE_SR_NTID_Y: case FE_SR_NTID_Z:
		case FE_SR_CTAID_X: case FE_SR_CTAID_Y: case FE_SR_CTAID_Z: {
			const uint64_t v = fe_exec_sreg(w, 0, x->sreg); /* the same for every lane */
			LOOP_R(PUT(v););
			break;
		}
		default: LOOP_R(PUT(fe_exec_sreg(w, lane, x->sreg));); break;
		}
		break;
	}
	case FE_X_CVTA_TO: {
		const uint64_t base = x->imm[2];
		LOOP_R(uint64_t a = A; PUT(base + ZEXT(a)););
		break;
	}
	case FE_X_CVTA_FROM: {
		const uint64_t base = x->imm[2];
		LOOP_R(
			uint64_t a = A;
			PUT((base && a >= base && a < base + FE_WIN_BYTES) ? a - base : (base ? 0 : a));
		);
		break;
	}
	case FE_X_MIN: case FE_X_MAX: {
		/* exec_alu.c: the lesser (greater) of the two in the source type's order; the
		 * result is the operand itself, normalised as the write does */
		const bool mx = kind == FE_X_MAX;
		if (ssh == 32 && ss)
			LOOP_R(uint64_t a = A, b = B; PUT(((int32_t)(uint32_t)a < (int32_t)(uint32_t)b) != mx ? a : b););
		else if (ssh == 32)
			LOOP_R(uint64_t a = A, b = B; PUT(((uint32_t)a < (uint32_t)b) != mx ? a : b););
		else if (ss)
			LOOP_R(uint64_t a = A, b = B; PUT((SEXT(a) < SEXT(b)) != mx ? a : b););
		else
			LOOP_R(uint64_t a = A, b = B; PUT((ZEXT(a) < ZEXT(b)) != mx ? a : b););
		break;
	}
	case FE_X_DIV: case FE_X_REM: {
		/* the per-lane semantics' own fe_idiv, without its operand reads and dispatch */
		const bool rem = kind == FE_X_REM;
		const uint32_t nb = (64 - ssh) / 8;
		LOOP_R(PUT(fe_idiv(A, B, nb, ss, rem)););
		break;
	}
	case FE_X_CVT_I2F:
		/* exec_float.c fe_convert's integer -> f32 in the default rounding */
		if (ss)
			FE_FOR_LANES(w, mask, lane, uint64_t a = A; D[lane] = f32_bits((float)SEXT(a)););
		else
			FE_FOR_LANES(w, mask, lane, uint64_t a = A; D[lane] = f32_bits((float)ZEXT(a)););
		break;
	case FE_X_CVT_F2I: {
		/* the per-lane semantics' own fe_cvt_f2i on the source read exactly as a double;
		 * truncation (.rzi, C's float-to-int casts) gets its own copy with the rounding
		 * fixed */
		const uint8_t rnd = x->rnd;
		const uint32_t db = (64 - rsh) / 8;
#define F2I_LOOP(RND)                                                                          \
	do {                                                                                   \
		if (ssh == 32)                                                                 \
			LOOP_R(PUT(fe_cvt_f2i(as_f32(A), (RND), db, rs)););                    \
		else                                                                           \
			LOOP_R(PUT(fe_cvt_f2i(as_f64(A), (RND), db, rs)););                    \
	} while (0)
		if (rnd == FE_RND_RZI)
			F2I_LOOP(FE_RND_RZI);
		else
			F2I_LOOP(rnd);
#undef F2I_LOOP
		break;
	}
	case FE_X_CVT_F2F:
		/* f32 -> f64 is exact; f64 -> f32 rounds to nearest, the default environment that
		 * fe_convert keeps for .rn. A NaN goes to fe_convert for its payload, as in the
		 * float loops below. */
		if (ssh == 32)
			LOOP_R(uint64_t a = A; float f = as_f32(a); PUT(f == f ? f64_bits((double)f) : fe_convert(in, a)););
		else
			LOOP_R(uint64_t a = A; float f = (float)as_f64(a); PUT(f == f ? f32_bits(f) : fe_convert(in, a)););
		break;
	case FE_X_CVT_INT:
		if (ss)
			LOOP_R(uint64_t a = A; PUT((uint64_t)SEXT(a)););
		else
			LOOP_R(uint64_t a = A; PUT(ZEXT(a)););
		break;
	default:
		break;
	}
}

/* After the statements PRE, the lane's setp result R (0 or 1) into D and into pbits, for the
 * lanes of mask as FE_FOR_LANES visits them but for the order within a word whose lanes are
 * all active: from the top, so that each result shifts in at the bottom of the word (one
 * instruction a lane; lanes are independent, so the order does not matter). */
#define SETP_PUT(PRE, R)                                                                       \
	for (uint32_t wd_ = 0; wd_ < w->mask_words; wd_++) {                                    \
		uint32_t b_ = wd_ * 64, n_ = w->n_lanes - b_ < 64 ? w->n_lanes - b_ : 64;       \
		uint64_t all_ = n_ == 64 ? ~0ull : (1ull << n_) - 1, m_ = mask[wd_] & all_;     \
		uint64_t acc_ = 0;                                                             \
		if (m_ == all_) {                                                              \
			_Pragma("GCC unroll 4")                                                \
			for (uint32_t lane = b_ + n_; lane-- > b_;) {                           \
				PRE uint64_t r_ = (R);                                         \
				D[lane] = r_;                                                  \
				acc_ = acc_ * 2 + r_;                                          \
			}                                                                      \
		} else {                                                                       \
			for (; m_; m_ &= m_ - 1) {                                             \
				uint32_t j_ = (uint32_t)__builtin_ctzll(m_), lane = b_ + j_;   \
				PRE uint64_t r_ = (R);                                         \
				D[lane] = r_;                                                  \
				acc_ |= r_ << j_;                                              \
			}                                                                      \
		}                                                                              \
		pbits[wd_] = acc_;                                                             \
	}

/* setp of integers, f32 and f64, with or without a combining predicate and second result.
 * Without them (one result), it returns true and its lanes' results in pbits, as
 * fe_exec_fast says. */
static inline __attribute__((always_inline)) bool fast_setp(struct fe_warp *w, const struct fe_xop *x,
							  const uint64_t *mask, uint64_t *pbits,
							  const int kind)
{
	FAST_LOCALS;
	switch (kind) {
	case FE_X_SETP_INT: case FE_X_SETP_F32: case FE_X_SETP_F64: {
		uint64_t *D2 = x->d2 != FE_NO_REG ? &w->regs[(size_t)x->d2 * nl] : NULL;
		const unsigned tbl = x->tbl;
		const uint8_t bop = x->boolop;
		if (kind == FE_X_SETP_INT && bop == FE_BOOL_NONE && !D2 && tbl >= 0x1 && tbl <= 0x6) {
			/* one predicate from an integer comparison (16, 32 or 64 bits: setp has no
			 * 8-bit types), the common case: the comparison itself instead of the outcome
			 * table */
#define SETP_CMP(KA, KB)                                                                       \
	do {                                                                                   \
		switch (tbl) {                                                                 \
		case 0x1: SETP_PUT(, (KA) < (KB)); break;                                        \
		case 0x2: SETP_PUT(, (KA) == (KB)); break;                                       \
		case 0x3: SETP_PUT(, (KA) <= (KB)); break;                                       \
		case 0x4: SETP_PUT(, (KA) > (KB)); break;                                        \
		case 0x5: SETP_PUT(, (KA) != (KB)); break;                                       \
		default: /* 0x6 */ SETP_PUT(, (KA) >= (KB)); break;                              \
		}                                                                              \
	} while (0)
			if (ssh == 32 && ss)
				SETP_CMP((int32_t)(uint32_t)A, (int32_t)(uint32_t)B);
			else if (ssh == 32)
				SETP_CMP((uint32_t)A, (uint32_t)B);
			else if (ssh == 48 && ss)
				SETP_CMP((int16_t)(uint16_t)A, (int16_t)(uint16_t)B);
			else if (ssh == 48)
				SETP_CMP((uint16_t)A, (uint16_t)B);
			else if (ss)
				SETP_CMP((int64_t)A, (int64_t)B);
			else
				SETP_CMP(A, B);
#undef SETP_CMP
			return true;
		}
		/* the outcome index (less 0, equal 1, greater 2, unordered 3) of A against B */
#define SETP_LOOP(IDX)                                                                         \
	do {                                                                                   \
		if (bop == FE_BOOL_NONE && !D2) {                                              \
			SETP_PUT(uint64_t a = A; uint64_t b = B;, (tbl >> (IDX)) & 1);          \
			return true;                                                           \
		} else {                                                                       \
			FE_FOR_LANES(w, mask, lane,                                            \
				uint64_t a = A, b = B;                                         \
				bool p = (tbl >> (IDX)) & 1, cc = (C != 0) != n2;               \
				D[lane] = xboolop(bop, p, cc);                                 \
				if (D2)                                                        \
					D2[lane] = xboolop(bop, !p, cc);                       \
			);                                                                     \
		}                                                                              \
	} while (0)
		if (kind == FE_X_SETP_INT && ss) {
			/* signed order: sign-extend, then flip the sign bit for an unsigned compare */
			SETP_LOOP(setp_idx_u((uint64_t)SEXT(a) ^ (1ull << 63), (uint64_t)SEXT(b) ^ (1ull << 63)));
		} else if (kind == FE_X_SETP_INT) {
			SETP_LOOP(setp_idx_u(ZEXT(a), ZEXT(b)));
		} else if (kind == FE_X_SETP_F32) {
			SETP_LOOP(setp_idx_f(as_f32(a), as_f32(b)));
		} else {
			SETP_LOOP(setp_idx_d(as_f64(a), as_f64(b)));
		}
#undef SETP_LOOP
		break;
	}
	default:
		break;
	}
	return false;
}
/* Predicate logic (and, or, xor, not of predicates, each operand possibly negated): one
 * predicate result, whose lanes come back in pbits as a one-result setp's do (fe_exec_fast),
 * so that a guard on it finds them in the turn's cache. Bitwise, not && and ||: both operands
 * are read anyway, and a lane's result is then free of branches. */
static inline __attribute__((always_inline)) bool fast_pred(struct fe_warp *w, const struct fe_xop *x,
							  const uint64_t *mask, uint64_t *pbits,
							  const int kind)
{
	FAST_LOCALS;
	switch (kind) {
	case FE_X_PAND: SETP_PUT(, (uint64_t)(((A != 0) != n0) & ((B != 0) != n1))); break;
	case FE_X_POR: SETP_PUT(, (uint64_t)(((A != 0) != n0) | ((B != 0) != n1))); break;
	case FE_X_PXOR: SETP_PUT(, (uint64_t)(((A != 0) != n0) ^ ((B != 0) != n1))); break;
	default: /* FE_X_PNOT */ SETP_PUT(, (uint64_t)((A != 0) == n0)); break;
	}
	return true;
}
#undef SETP_PUT

/* f32/f64 add, sub, mul, fma in round-to-nearest. */
static inline __attribute__((always_inline)) void fast_float(struct fe_warp *w, const struct fe_xop *x,
							   const uint64_t *mask, const int kind)
{
	FAST_LOCALS;
	switch (kind) {
	/* round-to-nearest IEEE arithmetic is exact to compute here, except for the NaN payload
	 * of two NaN operands (see fbin): a lane whose result is a NaN is recomputed by fbin.
	 * That covers every NaN operand (add, sub, mul and fma propagate a NaN), and for the
	 * rest, the default NaN of an invalid operation, fbin computes the same operation. */
#define FLOAT_LOOP(OP, EXPR)                                                                   \
	FE_FOR_LANES(w, mask, lane,                                                            \
		uint64_t a = A, b = B;                                                         \
		float fa = as_f32(a), fb = as_f32(b), r = (EXPR);                              \
		D[lane] = r == r ? f32_bits(r) : fe_fbin(OP, in, a, b, C);                        \
	)
#define DOUBLE_LOOP(OP, EXPR)                                                                  \
	FE_FOR_LANES(w, mask, lane,                                                            \
		uint64_t a = A, b = B;                                                         \
		double da = as_f64(a), db = as_f64(b), r = (EXPR);                             \
		D[lane] = r == r ? f64_bits(r) : fe_fbin(OP, in, a, b, C);                        \
	)
	case FE_X_FADD: FLOAT_LOOP(FE_OP_ADD, fa + fb); break;
	case FE_X_FSUB: FLOAT_LOOP(FE_OP_SUB, fa - fb); break;
	case FE_X_FMUL: FLOAT_LOOP(FE_OP_MUL, fa * fb); break;
	case FE_X_FFMA:
#ifdef FE_FMA_CLONE
		if (__builtin_cpu_supports("fma")) {
			ffma_fma3(w, mask, D, S0, S1, S2, in);
			break;
		}
#endif
		FLOAT_LOOP(FE_OP_FMA, fmaf(fa, fb, as_f32(C)));
		break;
	case FE_X_DADD: DOUBLE_LOOP(FE_OP_ADD, da + db); break;
	case FE_X_DSUB: DOUBLE_LOOP(FE_OP_SUB, da - db); break;
	case FE_X_DMUL: DOUBLE_LOOP(FE_OP_MUL, da * db); break;
	case FE_X_DFMA: DOUBLE_LOOP(FE_OP_FMA, fma(da, db, as_f64(C))); break;
#undef FLOAT_LOOP
#undef DOUBLE_LOOP
	default:
		break;
	}
}
#undef A
#undef B
#undef C
#undef PUT
#undef LOOP_R
#undef SEXT
#undef ZEXT

/* One function per kind (and for the integer kinds, per form of the result's norm()), each its
 * group's loop for that case alone, never inlined into a caller: in one function holding
 * every kind's loops, GCC kept the column pointers on the stack and reloaded them for every
 * lane (13 instructions a lane for a setp, against 7). The link picks the function
 * (fe_exec_fast_fn), so a call sets nothing up but its columns. */
#define FAST_FN(GROUP, K)                                                                      \
	static __attribute__((noinline)) bool fast_##K(struct fe_warp *w, const struct fe_xop *x, \
						       const uint64_t *mask, uint64_t *pbits)   \
	{                                                                                      \
		(void)pbits;                                                                   \
		GROUP(w, x, mask, K);                                                          \
		return false;                                                                  \
	}
#define FAST_FN_RF(K, RF)                                                                      \
	static __attribute__((noinline)) bool fast_##K##_##RF(struct fe_warp *w, const struct fe_xop *x, \
							      const uint64_t *mask, uint64_t *pbits) \
	{                                                                                      \
		(void)pbits;                                                                   \
		fast_int(w, x, mask, K, RF);                                                   \
		return false;                                                                  \
	}
#define FAST_FN_R(K)                                                                           \
	FAST_FN_RF(K, RF_64) FAST_FN_RF(K, RF_U32) FAST_FN_RF(K, RF_S32) FAST_FN_RF(K, RF_U16)   \
	FAST_FN_RF(K, RF_S16) FAST_FN_RF(K, RF_ANY)
FAST_FN_R(FE_X_ADD) FAST_FN_R(FE_X_SUB) FAST_FN_R(FE_X_AND) FAST_FN_R(FE_X_OR) FAST_FN_R(FE_X_XOR)
FAST_FN_R(FE_X_NOT) FAST_FN_R(FE_X_SHL) FAST_FN_R(FE_X_SHR) FAST_FN_R(FE_X_MUL_LO)
FAST_FN_R(FE_X_MAD_LO) FAST_FN_R(FE_X_MUL_WIDE) FAST_FN_R(FE_X_MAD_WIDE) FAST_FN_R(FE_X_SELP)
FAST_FN_R(FE_X_MOV) FAST_FN_R(FE_X_MOV_SREG) FAST_FN_R(FE_X_CVTA_TO) FAST_FN_R(FE_X_CVTA_FROM)
FAST_FN_R(FE_X_CVT_INT) FAST_FN_R(FE_X_MIN) FAST_FN_R(FE_X_MAX) FAST_FN_R(FE_X_CVT_I2F)
FAST_FN_R(FE_X_DIV) FAST_FN_R(FE_X_REM) FAST_FN_R(FE_X_CVT_F2I) FAST_FN_R(FE_X_CVT_F2F)
FAST_FN(fast_float, FE_X_FADD) FAST_FN(fast_float, FE_X_FSUB) FAST_FN(fast_float, FE_X_FMUL)
FAST_FN(fast_float, FE_X_FFMA) FAST_FN(fast_float, FE_X_DADD) FAST_FN(fast_float, FE_X_DSUB)
FAST_FN(fast_float, FE_X_DMUL) FAST_FN(fast_float, FE_X_DFMA)
#define FAST_FN_SETP(K)                                                                        \
	static __attribute__((noinline)) bool fast_##K(struct fe_warp *w, const struct fe_xop *x, \
						       const uint64_t *mask, uint64_t *pbits)   \
	{                                                                                      \
		return fast_setp(w, x, mask, pbits, K);                                        \
	}
FAST_FN_SETP(FE_X_SETP_INT) FAST_FN_SETP(FE_X_SETP_F32) FAST_FN_SETP(FE_X_SETP_F64)
#undef FAST_FN_SETP
#define FAST_FN_PRED(K)                                                                        \
	static __attribute__((noinline)) bool fast_##K(struct fe_warp *w, const struct fe_xop *x, \
						       const uint64_t *mask, uint64_t *pbits)   \
	{                                                                                      \
		return fast_pred(w, x, mask, pbits, K);                                        \
	}
FAST_FN_PRED(FE_X_PAND) FAST_FN_PRED(FE_X_POR) FAST_FN_PRED(FE_X_PXOR) FAST_FN_PRED(FE_X_PNOT)
#undef FAST_FN_PRED
#undef FAST_FN
#undef FAST_FN_RF
#undef FAST_FN_R

fe_fast_fn fe_exec_fast_fn(const struct fe_xop *x)
{
	/* the write's norm() as fast_int's loops specialise it */
	const int rf = x->rsh == 0 ? RF_64 : x->rsh == 32 ? (x->rsigned ? RF_S32 : RF_U32) :
		x->rsh == 48 ? (x->rsigned ? RF_S16 : RF_U16) : RF_ANY;
#define R(K) [K] = {fast_##K##_RF_64, fast_##K##_RF_U32, fast_##K##_RF_S32, fast_##K##_RF_U16, \
		    fast_##K##_RF_S16, fast_##K##_RF_ANY}
#define F(K) [K] = {fast_##K, fast_##K, fast_##K, fast_##K, fast_##K, fast_##K}
	static const fe_fast_fn fns[FE_X_COUNT][RF_COUNT] = {
		R(FE_X_ADD), R(FE_X_SUB), R(FE_X_AND), R(FE_X_OR), R(FE_X_XOR), R(FE_X_NOT),
		R(FE_X_SHL), R(FE_X_SHR), R(FE_X_MUL_LO), R(FE_X_MAD_LO), R(FE_X_MUL_WIDE),
		R(FE_X_MAD_WIDE), R(FE_X_SELP), R(FE_X_MOV), R(FE_X_MOV_SREG), R(FE_X_CVTA_TO),
		R(FE_X_CVTA_FROM), R(FE_X_CVT_INT), R(FE_X_MIN), R(FE_X_MAX), R(FE_X_CVT_I2F),
		R(FE_X_DIV), R(FE_X_REM), R(FE_X_CVT_F2I), R(FE_X_CVT_F2F),
		F(FE_X_SETP_INT), F(FE_X_SETP_F32), F(FE_X_SETP_F64),
		F(FE_X_FADD), F(FE_X_FSUB), F(FE_X_FMUL), F(FE_X_FFMA), F(FE_X_DADD), F(FE_X_DSUB),
		F(FE_X_DMUL), F(FE_X_DFMA), F(FE_X_PAND), F(FE_X_POR), F(FE_X_PXOR), F(FE_X_PNOT),
	};
#undef R
#undef F
	return x->kind < FE_X_COUNT ? fns[x->kind][rf] : NULL;
}
