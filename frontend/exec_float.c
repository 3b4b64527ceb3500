/* SPDX-License-Identifier: MIT */
/* Floating-point semantics of the functional executor: f16 conversions and operations, f32/f64
 * arithmetic with PTX's rounding modes, .ftz and .sat, comparisons, and cvt between any two
 * types. */
#include <fenv.h>
#include <math.h>

#include "exec_int.h"

/* IEEE half <-> float, round to nearest even (cvt.rn.f16.f32). */
float fe_half_to_f32(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, b;
	if (e == 0) {
		float f = ldexpf((float)m, -24);
		return s ? -f : f;
	}
	if (e == 31)
		b = s | 0x7f800000u | (m << 13);
	else
		b = s | ((e + 112) << 23) | (m << 13);
	return as_f32(b);
}

/* Round a double to the nearest half (ties to even); exact for every float input. */
uint16_t fe_double_to_half(double f)
{
	uint16_t s = signbit(f) ? 0x8000 : 0;
	double a = fabs(f);
	if (isnan(f))
		return s | 0x7e00;
	if (a >= 65520.0)
		return s | 0x7c00;
	if (a < ldexp(1.0, -14)) /* subnormal half: multiples of 2^-24 */
		return s | (uint16_t)nearbyint(a * ldexp(1.0, 24));
	int e;
	double fr = frexp(a, &e); /* a = fr * 2^e, fr in [0.5,1) */
	double mant = nearbyint((fr * 2.0 - 1.0) * 1024.0);
	if (mant >= 1024.0) {
		mant = 0;
		e++;
	}
	if (e - 1 + 15 >= 31)
		return s | 0x7c00;
	return s | (uint16_t)(((e - 1 + 15) << 10) | (uint16_t)mant);
}

/* One f16 operation, computed in double (exact for add/sub/mul of halves) and rounded once. */
uint64_t fe_half_op(const struct fe_inst *in, uint64_t a, uint64_t b, uint64_t c)
{
	double x = fe_half_to_f32((uint16_t)a), y = fe_half_to_f32((uint16_t)b), z = fe_half_to_f32((uint16_t)c), d;
	switch (in->op) {
	case FE_OP_ADD: d = x + y; break;
	case FE_OP_SUB: d = x - y; break;
	case FE_OP_MUL: d = x * y; break;
	case FE_OP_FMA: d = fma(x, y, z); break;
	case FE_OP_NEG: return (a ^ 0x8000) & 0xffff;
	case FE_OP_ABS: return a & 0x7fff;
	case FE_OP_MIN: d = fmin(x, y); break;
	case FE_OP_MAX: d = fmax(x, y); break;
	default: d = 0; break;
	}
	if (in->flags & FE_IF_SAT)
		d = isnan(d) ? 0.0 : d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
	return fe_double_to_half(d);
}

static float ftz32(float f, bool ftz)
{
	if (ftz && fpclassify(f) == FP_SUBNORMAL)
		return copysignf(0.0f, f);
	return f;
}

/* Apply a directed rounding mode around a float operation (PTX .rz/.rm/.rp); .rn is the
 * default environment. The FP environment is per thread, so parallel simulations are safe. */
static bool directed(uint8_t rnd)
{
	return rnd == FE_RND_RZ || rnd == FE_RND_RM || rnd == FE_RND_RP || rnd == FE_RND_RZI ||
	       rnd == FE_RND_RMI || rnd == FE_RND_RPI;
}

/* Returns the mode to restore; only directed modes touch the FP environment (it costs two
 * libc calls, and round-to-nearest is the default). */
static int set_round(uint8_t rnd)
{
	if (!directed(rnd))
		return -1;
	int old = fegetround();
	switch (rnd) {
	case FE_RND_RZ: case FE_RND_RZI: fesetround(FE_TOWARDZERO); break;
	case FE_RND_RM: case FE_RND_RMI: fesetround(FE_DOWNWARD); break;
	default: fesetround(FE_UPWARD); break;
	}
	return old;
}

static void restore_round(int old)
{
	if (old != -1)
		fesetround(old);
}


FE_ONE_COPY uint64_t fe_fbin(enum fe_op op, const struct fe_inst *in, uint64_t a, uint64_t b,
				 uint64_t c)
{
	bool ftz = in->flags & FE_IF_FTZ;
	int old = set_round(in->rnd);
	uint64_t r;
	if (in->type == FE_T_F64) {
		volatile double x = as_f64(a), y = as_f64(b), z = as_f64(c), d;
		switch (op) {
		case FE_OP_ADD: d = x + y; break;
		case FE_OP_SUB: d = x - y; break;
		case FE_OP_MUL: d = x * y; break;
		case FE_OP_DIV: d = x / y; break;
		case FE_OP_MAD: case FE_OP_FMA: d = fma(x, y, z); break;
		case FE_OP_MIN: d = fmin(x, y); break;
		case FE_OP_MAX: d = fmax(x, y); break;
		default: d = 0; break;
		}
		r = f64_bits(d);
	} else {
		volatile float x = ftz32(as_f32(a), ftz), y = ftz32(as_f32(b), ftz),
			       z = ftz32(as_f32(c), ftz), d;
		switch (op) {
		case FE_OP_ADD: d = x + y; break;
		case FE_OP_SUB: d = x - y; break;
		case FE_OP_MUL: d = x * y; break;
		case FE_OP_DIV: d = x / y; break;
		case FE_OP_MAD: case FE_OP_FMA: d = fmaf(x, y, z); break;
		case FE_OP_MIN: d = fminf(x, y); break;
		case FE_OP_MAX: d = fmaxf(x, y); break;
		default: d = 0; break;
		}
		float e = ftz32(d, ftz);
		if (in->flags & FE_IF_SAT)
			e = isnan(e) ? 0.0f : e < 0.0f ? 0.0f : e > 1.0f ? 1.0f : e;
		r = f32_bits(e);
	}
	restore_round(old);
	return r;
}

uint64_t fe_funary(const struct fe_inst *in, uint64_t a)
{
	bool ftz = in->flags & FE_IF_FTZ;
	int old = set_round(in->rnd);
	uint64_t r;
	if (in->type == FE_T_F64) {
		volatile double x = as_f64(a), d;
		switch (in->op) {
		case FE_OP_SQRT: d = sqrt(x); break;
		case FE_OP_RCP: d = 1.0 / x; break;
		case FE_OP_RSQRT: d = 1.0 / sqrt(x); break;
		case FE_OP_SIN: d = sin(x); break;
		case FE_OP_COS: d = cos(x); break;
		case FE_OP_EX2: d = exp2(x); break;
		case FE_OP_LG2: d = log2(x); break;
		case FE_OP_TANH: d = tanh(x); break;
		case FE_OP_NEG: d = -x; break;
		case FE_OP_ABS: d = fabs(x); break;
		default: d = 0; break;
		}
		r = f64_bits(d);
	} else {
		volatile float x = ftz32(as_f32(a), ftz), d;
		switch (in->op) {
		case FE_OP_SQRT: d = sqrtf(x); break;
		case FE_OP_RCP: d = 1.0f / x; break;
		case FE_OP_RSQRT: d = 1.0f / sqrtf(x); break;
		case FE_OP_SIN: d = sinf(x); break;
		case FE_OP_COS: d = cosf(x); break;
		case FE_OP_EX2: d = exp2f(x); break;
		case FE_OP_LG2: d = log2f(x); break;
		case FE_OP_TANH: d = tanhf(x); break;
		case FE_OP_NEG: d = -x; break;
		case FE_OP_ABS: d = fabsf(x); break;
		default: d = 0; break;
		}
		float e = ftz32(d, ftz);
		if (in->flags & FE_IF_SAT)
			e = isnan(e) ? 0.0f : e < 0.0f ? 0.0f : e > 1.0f ? 1.0f : e;
		r = f32_bits(e);
	}
	restore_round(old);
	return r;
}

bool fe_fcmp(uint8_t cmp, double x, double y)
{
	bool un = isnan(x) || isnan(y);
	switch (cmp) {
	case FE_CMP_EQ: return !un && x == y;
	case FE_CMP_NE: return !un && x != y;
	case FE_CMP_LT: return !un && x < y;
	case FE_CMP_LE: return !un && x <= y;
	case FE_CMP_GT: return !un && x > y;
	case FE_CMP_GE: return !un && x >= y;
	case FE_CMP_EQU: return un || x == y;
	case FE_CMP_NEU: return un || x != y;
	case FE_CMP_LTU: return un || x < y;
	case FE_CMP_LEU: return un || x <= y;
	case FE_CMP_GTU: return un || x > y;
	case FE_CMP_GEU: return un || x >= y;
	case FE_CMP_NUM: return !un;
	case FE_CMP_NAN: return un;
	default: return false;
	}
}


/* cvt between any two of the integer/float types (PTX ISA 9.7.9.21). */
uint64_t fe_convert(const struct fe_inst *in, uint64_t a)
{
	enum fe_type dt = in->type, st = in->type2;
	uint32_t db = fe_type_bytes(dt), sb = fe_type_bytes(st);
	bool dsig = fe_type_is_signed(dt), ssig = fe_type_is_signed(st);
	bool ftz = in->flags & FE_IF_FTZ, sat = in->flags & FE_IF_SAT;
	if (!fe_type_is_float(dt) && !fe_type_is_float(st)) {
		uint64_t v = ssig ? sext(a, sb) : zext(a, sb);
		if (sat) {
			/* clamp to the destination's range */
			if (ssig) {
				int64_t x = (int64_t)v;
				int64_t lo = dsig ? (db >= 8 ? INT64_MIN : -(1ll << (8 * db - 1))) : 0;
				int64_t hi = dsig ? (db >= 8 ? INT64_MAX : (1ll << (8 * db - 1)) - 1) :
					(db >= 8 ? INT64_MAX : (int64_t)((1ull << (8 * db)) - 1));
				v = (uint64_t)(x < lo ? lo : x > hi ? hi : x);
			} else {
				uint64_t hi = dsig ? (db >= 8 ? (uint64_t)INT64_MAX : (1ull << (8 * db - 1)) - 1) :
					(db >= 8 ? UINT64_MAX : (1ull << (8 * db)) - 1);
				v = v > hi ? hi : v;
			}
		}
		return v;
	}
	/* read the source as a double (exact for every f32/f16 and integers up to 2^53) */
	double x;
	bool src_f = fe_type_is_float(st);
	if (st == FE_T_F32)
		x = ftz32(as_f32(a), ftz);
	else if (st == FE_T_F64)
		x = as_f64(a);
	else if (st == FE_T_F16)
		x = fe_half_to_f32((uint16_t)a);
	else
		x = 0;
	if (!fe_type_is_float(dt))
		return fe_cvt_f2i(x, in->rnd, db, dsig);
	int old = set_round(in->rnd);
	uint64_t res;
	if (!src_f) {
		/* int -> float: convert from the exact integer in the chosen rounding mode */
		if (dt == FE_T_F64) {
			volatile double d = ssig ? (double)(int64_t)sext(a, sb) : (double)zext(a, sb);
			res = f64_bits(d);
		} else {
			volatile float f = ssig ? (float)(int64_t)sext(a, sb) : (float)zext(a, sb);
			res = dt == FE_T_F16 ? fe_double_to_half(f) : f32_bits(ftz32(f, ftz));
		}
	} else if (dt == FE_T_F64) {
		volatile double d = x;
		if (in->rnd >= FE_RND_RNI)
			d = in->rnd == FE_RND_RNI ? nearbyint(d) : in->rnd == FE_RND_RZI ? trunc(d) :
				in->rnd == FE_RND_RMI ? floor(d) : ceil(d);
		res = f64_bits(d);
	} else if (dt == FE_T_F32) {
		volatile double xd = x;
		volatile float f = (float)xd;
		if (in->rnd >= FE_RND_RNI)
			f = in->rnd == FE_RND_RNI ? nearbyintf(f) : in->rnd == FE_RND_RZI ? truncf(f) :
				in->rnd == FE_RND_RMI ? floorf(f) : ceilf(f);
		f = ftz32(f, ftz);
		if (sat)
			f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
		res = f32_bits(f);
	} else {
		res = fe_double_to_half(x);
	}
	restore_round(old);
	return res;
}
