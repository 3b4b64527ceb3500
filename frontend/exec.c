/* SPDX-License-Identifier: MIT */
/* Instruction semantics of the functional executor: per-lane arithmetic, conversions, special
 * registers and the warp-synchronous shfl/vote. Memory instructions are in exec_mem.c, control
 * flow in launch.c. */
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "exec_int.h"

/* ---- typed values ------------------------------------------------------------------ */

/* IEEE half <-> float, round to nearest even (cvt.rn.f16.f32). */
static float half_to_f32(uint16_t h)
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
static uint16_t double_to_half(double f)
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
static uint64_t half_op(const struct fe_inst *in, uint64_t a, uint64_t b, uint64_t c)
{
	double x = half_to_f32((uint16_t)a), y = half_to_f32((uint16_t)b), z = half_to_f32((uint16_t)c), d;
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
	return double_to_half(d);
}

static float ftz32(float f, bool ftz)
{
	if (ftz && fpclassify(f) == FP_SUBNORMAL)
		return copysignf(0.0f, f);
	return f;
}

/* ---- operands --------------------------------------------------------------------------- */

static uint64_t sreg_value(const struct fe_warp *w, uint32_t lane, uint8_t sr)
{
	const struct fe_cta *c = w->cta;
	const struct fe_launch *l = c->l;
	uint32_t t = tid_linear(w, lane), bx = l->block[0], by = l->block[1];
	uint32_t l32 = lane & 31;
	switch (sr) {
	case FE_SR_TID_X: return t % bx;
	case FE_SR_TID_Y: return (t / bx) % by;
	case FE_SR_TID_Z: return t / (bx * by);
	case FE_SR_NTID_X: case FE_SR_NTID_Y: case FE_SR_NTID_Z: return l->block[sr - FE_SR_NTID_X];
	case FE_SR_CTAID_X: case FE_SR_CTAID_Y: case FE_SR_CTAID_Z: return c->ctaid[sr - FE_SR_CTAID_X];
	case FE_SR_NCTAID_X: case FE_SR_NCTAID_Y: case FE_SR_NCTAID_Z: return l->grid[sr - FE_SR_NCTAID_X];
	case FE_SR_LANEID: return l32;
	case FE_SR_WARPID: return t / 32;
	case FE_SR_NWARPID: return (l->threads_per_cta + 31) / 32;
	case FE_SR_SMID: return c->sm_id;
	case FE_SR_NSMID: return c->sm_id + 1;
	case FE_SR_CLOCK: case FE_SR_CLOCK64: case FE_SR_GLOBALTIMER: return w->n_insts;
	case FE_SR_GRIDID: return 0;
	case FE_SR_LANEMASK_EQ: return 1ull << l32;
	case FE_SR_LANEMASK_LT: return (1ull << l32) - 1;
	case FE_SR_LANEMASK_LE: return (2ull << l32) - 1;
	case FE_SR_LANEMASK_GT: return 0xffffffffull & ~((2ull << l32) - 1);
	case FE_SR_LANEMASK_GE: return 0xffffffffull & ~((1ull << l32) - 1);
	case FE_SR_WARPSZ: return 32;
	default: return 0;
	}
}

/* An immediate operand read as type t. */
static uint64_t imm_value(const struct fe_opnd *o, enum fe_type t)
{
	if (o->imm_is_f) {
		/* a 0f/0d literal of the instruction's own width is used bit for bit (NaN payloads) */
		if ((t == FE_T_F32 && o->n == 32) || (t == FE_T_F64 && o->n == 64))
			return (uint64_t)o->imm;
		if (t == FE_T_F32)
			return f32_bits((float)o->fval);
		if (t == FE_T_F64)
			return f64_bits(o->fval);
		if (t == FE_T_F16)
			return double_to_half(o->fval);
		return (uint64_t)o->imm;   /* 0f bit pattern into .b32 */
	}
	if (t == FE_T_F32)
		return f32_bits((float)o->imm);
	if (t == FE_T_F64)
		return f64_bits((double)o->imm);
	return (uint64_t)o->imm;
}

static uint64_t src(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane, enum fe_type t)
{
	switch (o->kind) {
	case FE_OK_REG: {
		uint64_t v = *reg_slot(w, o->reg, lane);
		return o->neg ? !v : v;
	}
	case FE_OK_IMM:
		return imm_value(o, t);
	case FE_OK_SREG:
		return sreg_value(w, lane, o->sreg);
	case FE_OK_ADDR:
		return addr_value(w, o, lane);
	default:
		return 0;
	}
}

uint64_t fe_exec_src(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane, enum fe_type t)
{
	return src(w, o, lane, t);
}

bool fe_exec_read_pred(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane)
{
	return src(w, o, lane, FE_T_PRED) != 0;
}

void fe_exec_write(struct fe_warp *w, uint16_t reg, uint32_t lane, uint64_t v, enum fe_type t)
{
	dst(w, reg, lane, v, t);
}

int fe_exec_fault(const struct fe_warp *w, uint32_t lane, uint32_t pc, struct sim_error *err,
		  const char *fmt, ...)
{
	const struct fe_cta *c = w->cta;
	const struct fe_launch *l = c->l;
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	uint32_t t = tid_linear(w, lane);
	const struct wi_static *ws = &l->k->wi[pc];
	return sim_error_set(err, SIM_ERR_PROGRAM, l->m->path, (int)ws->src_line, 0,
			     l->m->funcs[l->k->func].name,
			     "block (%u,%u,%u) thread (%u,%u,%u) pc %u '%s': %s", c->ctaid[0],
			     c->ctaid[1], c->ctaid[2], t % l->block[0], (t / l->block[0]) % l->block[1],
			     t / (l->block[0] * l->block[1]), pc, ws->text, what);
}

void fe_exec_guard(const struct fe_warp *w, uint16_t guard, bool guard_neg, const uint64_t *mask,
		   uint64_t *out)
{
	fe_mask_zero(out);
	if (guard == FE_NO_REG) {
		for (uint32_t i = 0; i < w->mask_words; i++)
			out[i] = mask[i];
		return;
	}
	/* a lane stays when its predicate differs from the guard's negation; computed for every
	 * lane without branches (the predicate often differs between lanes) */
	const uint64_t *g = reg_slot(w, guard, 0);
	for (uint32_t i = 0; i < w->mask_words; i++) {
		uint32_t b = i * 64, n = w->n_lanes - b < 64 ? w->n_lanes - b : 64;
		const uint64_t *gw = g + b;
		uint64_t nz = 0; /* bit j: lane b + j's predicate is nonzero; gathered from the top */
#pragma GCC unroll 8
		for (uint32_t j = n; j-- > 0;)
			nz = nz * 2 + (gw[j] != 0);
		uint64_t lanes = n == 64 ? ~0ull : (1ull << n) - 1;
		out[i] = mask[i] & ~((guard_neg ? nz : ~nz) & lanes);
	}
}

/* ---- arithmetic ---------------------------------------------------------------------- */

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

/* One out-of-line copy, never cloned: when both operands of an add or mul are NaN, which
 * payload comes out depends on the operand order the compiler picked for that instruction,
 * so the fast loops hand NaN operands to this same code instead of computing them. */
#if defined(__clang__)
#define FE_ONE_COPY __attribute__((noinline))
#else
#define FE_ONE_COPY __attribute__((noinline, noclone))
#endif

static FE_ONE_COPY uint64_t fbin(enum fe_op op, const struct fe_inst *in, uint64_t a, uint64_t b,
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

static uint64_t funary(const struct fe_inst *in, uint64_t a)
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

static bool fcmp(uint8_t cmp, double x, double y)
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

static bool icmp(uint8_t cmp, uint64_t a, uint64_t b, enum fe_type t)
{
	uint32_t n = fe_type_bytes(t);
	bool sgn = fe_type_is_signed(t);
	int64_t sa = (int64_t)sext(a, n), sb = (int64_t)sext(b, n);
	uint64_t ua = zext(a, n), ub = zext(b, n);
	switch (cmp) {
	case FE_CMP_EQ: return ua == ub;
	case FE_CMP_NE: return ua != ub;
	case FE_CMP_LT: return sgn ? sa < sb : ua < ub;
	case FE_CMP_LE: return sgn ? sa <= sb : ua <= ub;
	case FE_CMP_GT: return sgn ? sa > sb : ua > ub;
	case FE_CMP_GE: return sgn ? sa >= sb : ua >= ub;
	case FE_CMP_LO: return ua < ub;
	case FE_CMP_LS: return ua <= ub;
	case FE_CMP_HI: return ua > ub;
	case FE_CMP_HS: return ua >= ub;
	default: return false;
	}
}

static bool compare(uint8_t cmp, enum fe_type t, uint64_t a, uint64_t b)
{
	if (t == FE_T_F16)
		return fcmp(cmp, half_to_f32((uint16_t)a), half_to_f32((uint16_t)b));
	if (t == FE_T_F32)
		return fcmp(cmp, as_f32(a), as_f32(b));
	if (t == FE_T_F64)
		return fcmp(cmp, as_f64(a), as_f64(b));
	return icmp(cmp, a, b, t);
}

static bool boolop(uint8_t op, bool a, bool c)
{
	switch (op) {
	case FE_BOOL_AND: return a && c;
	case FE_BOOL_OR: return a || c;
	case FE_BOOL_XOR: return a != c;
	default: return a;
	}
}

static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static uint64_t mulhi_s64(int64_t a, int64_t b)
{
	return (uint64_t)(((__int128)a * b) >> 64);
}

/* Integer multiply by part: .lo, .hi, .wide (result bytes double the operand's). */
static uint64_t imul(const struct fe_inst *in, uint64_t a, uint64_t b)
{
	uint32_t n = fe_type_bytes(in->type);
	bool s = fe_type_is_signed(in->type);
	if (in->part == FE_PART_WIDE || in->part == FE_PART_HI) {
		if (n == 8)
			return in->part == FE_PART_HI ? (s ? mulhi_s64((int64_t)a, (int64_t)b) : mulhi_u64(a, b)) : a * b;
		uint64_t p = s ? (uint64_t)((int64_t)sext(a, n) * (int64_t)sext(b, n)) : zext(a, n) * zext(b, n);
		return in->part == FE_PART_HI ? p >> (8 * n) : p;
	}
	return a * b;
}

static uint64_t idiv(const struct fe_inst *in, uint64_t a, uint64_t b, bool rem)
{
	uint32_t n = fe_type_bytes(in->type);
	/* PTX leaves x/0 machine-specific; we return what NVIDIA GPUs give: all ones for the
	 * quotient and the dividend for the remainder. INT_MIN/-1 wraps to INT_MIN. */
	if (zext(b, n) == 0)
		return rem ? a : ~0ull;
	if (fe_type_is_signed(in->type)) {
		int64_t x = (int64_t)sext(a, n), y = (int64_t)sext(b, n);
		if (y == -1)
			return rem ? 0 : (uint64_t)(-(uint64_t)x);
		return rem ? (uint64_t)(x % y) : (uint64_t)(x / y);
	}
	uint64_t x = zext(a, n), y = zext(b, n);
	return rem ? x % y : x / y;
}

static uint64_t sat_s32(int64_t v)
{
	return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, uint32_t width, bool sgn)
{
	uint32_t msb = width - 1;
	uint64_t sbit = 0;
	if (sgn && len) {
		uint32_t sp = pos + len - 1 > msb ? msb : pos + len - 1;
		sbit = (a >> sp) & 1;
	}
	uint64_t d = 0;
	for (uint32_t i = 0; i < width; i++) {
		uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, uint32_t width)
{
	uint64_t f = b;
	for (uint32_t i = 0; i < len && pos + i < width; i++)
		f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
	return f;
}

static uint64_t brev(uint64_t a, uint32_t width)
{
	uint64_t d = 0;
	for (uint32_t i = 0; i < width; i++)
		d |= ((a >> i) & 1) << (width - 1 - i);
	return d;
}

/* cvt between any two of the integer/float types (PTX ISA 9.7.9.21). */
static uint64_t convert(const struct fe_inst *in, uint64_t a)
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
		x = half_to_f32((uint16_t)a);
	else
		x = 0;
	if (!fe_type_is_float(dt)) {
		/* float -> int: round per .rni/.rzi/.rmi/.rpi, saturate, NaN -> 0 */
		if (isnan(x))
			return 0;
		double r;
		switch (in->rnd) {
		case FE_RND_RNI: r = nearbyint(x); break;
		case FE_RND_RMI: r = floor(x); break;
		case FE_RND_RPI: r = ceil(x); break;
		default: r = trunc(x); break;
		}
		if (dsig) {
			double lo = db >= 8 ? -9223372036854775808.0 : -ldexp(1.0, (int)(8 * db - 1));
			double hi = db >= 8 ? 9223372036854775807.0 : ldexp(1.0, (int)(8 * db - 1)) - 1;
			if (r <= lo)
				return (uint64_t)(int64_t)lo;
			if (r >= hi)
				return db >= 8 ? (uint64_t)INT64_MAX : (uint64_t)(int64_t)hi;
			return (uint64_t)(int64_t)r;
		}
		if (r <= 0)
			return 0;
		double hi = db >= 8 ? 18446744073709551615.0 : ldexp(1.0, (int)(8 * db)) - 1;
		if (r >= hi)
			return db >= 8 ? UINT64_MAX : (uint64_t)hi;
		return (uint64_t)r;
	}
	int old = set_round(in->rnd);
	uint64_t res;
	if (!src_f) {
		/* int -> float: convert from the exact integer in the chosen rounding mode */
		if (dt == FE_T_F64) {
			volatile double d = ssig ? (double)(int64_t)sext(a, sb) : (double)zext(a, sb);
			res = f64_bits(d);
		} else {
			volatile float f = ssig ? (float)(int64_t)sext(a, sb) : (float)zext(a, sb);
			res = dt == FE_T_F16 ? double_to_half(f) : f32_bits(ftz32(f, ftz));
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
		res = double_to_half(x);
	}
	restore_round(old);
	return res;
}

/* ---- warp-synchronous ------------------------------------------------------------------ */

/* shfl.sync (PTX ISA 9.7.8.6): lanes exchange within groups of 32, whatever the warp size. */
static void exec_shfl(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask)
{
	uint32_t n = w->n_lanes;
	uint64_t vals[64];
	for (uint32_t g = 0; g < n; g += 32) {
		uint32_t gl = n - g < 32 ? n - g : 32;
		for (uint32_t i = 0; i < gl; i++)
			vals[i] = src(w, &in->o[1], g + i, FE_T_B32);
		uint64_t res[32];
		bool pv[32];
		for (uint32_t i = 0; i < gl; i++) {
			uint32_t lane = g + i;
			if (!fe_mask_test(mask, lane))
				continue;
			uint32_t b = (uint32_t)src(w, &in->o[2], lane, FE_T_B32) & 31;
			uint32_t c = (uint32_t)src(w, &in->o[3], lane, FE_T_B32);
			uint32_t seg = (c >> 8) & 31, cl = c & 31;
			int32_t maxl = (int32_t)((i & seg) | (cl & ~seg)), minl = (int32_t)(i & seg), j;
			bool p;
			switch (in->part) {
			case FE_SHFL_UP: j = (int32_t)i - (int32_t)b; p = j >= maxl; break;
			case FE_SHFL_DOWN: j = (int32_t)i + (int32_t)b; p = j <= maxl; break;
			case FE_SHFL_BFLY: j = (int32_t)(i ^ b); p = j <= maxl; break;
			default: j = minl | (int32_t)(b & ~seg); p = j <= maxl; break;
			}
			if (!p || j < 0 || (uint32_t)j >= gl)
				j = (int32_t)i;
			/* a source lane that does not execute the shfl gives 0 (PTX leaves it
			 * undefined; hardware reads 0, frontend/NOTES.md), never its stale register */
			res[i] = fe_mask_test(mask, g + (uint32_t)j) ? vals[j] : 0;
			pv[i] = p;
		}
		for (uint32_t i = 0; i < gl; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			dst(w, in->o[0].reg, g + i, res[i], FE_T_B32);
			dst(w, in->o[0].reg2, g + i, pv[i], FE_T_PRED);
		}
	}
}

static void exec_vote(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask)
{
	for (uint32_t g = 0; g < w->n_lanes; g += 32) {
		uint32_t ballot = 0, act = 0;
		for (uint32_t i = 0; i < 32 && g + i < w->n_lanes; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			act |= 1u << i;
			if (in->op == FE_OP_VOTE && src(w, &in->o[1], g + i, FE_T_PRED))
				ballot |= 1u << i;
		}
		uint64_t v;
		if (in->op == FE_OP_ACTIVEMASK)
			v = act;
		else if (in->part == FE_VOTE_BALLOT)
			v = ballot;
		else if (in->part == FE_VOTE_ALL)
			v = ballot == act;
		else if (in->part == FE_VOTE_ANY)
			v = ballot != 0;
		else
			v = ballot == 0 || ballot == act;
		enum fe_type t = (in->op == FE_OP_VOTE && in->part != FE_VOTE_BALLOT) ? FE_T_PRED : FE_T_B32;
		for (uint32_t i = 0; i < 32 && g + i < w->n_lanes; i++)
			if (fe_mask_test(mask, g + i))
				dst(w, in->o[0].reg, g + i, v, t);
	}
}

/* ---- one lane of an ALU instruction ------------------------------------------------------ */

static void exec_lane(struct fe_warp *w, const struct fe_inst *in, uint32_t lane)
{
	enum fe_type t = (enum fe_type)in->type;
	uint32_t n = fe_type_bytes(t), bits = 8 * n;
	bool flt = fe_type_is_float(t), sg = fe_type_is_signed(t);
	const struct fe_opnd *o = in->o;
	uint16_t d = o[0].reg;
	uint64_t a = 0, b = 0, c = 0, r = 0;
	enum fe_type st = t; /* source type */
	if ((in->op == FE_OP_MUL || in->op == FE_OP_MAD || in->op == FE_OP_MUL24 ||
	     in->op == FE_OP_MAD24) && in->part == FE_PART_WIDE)
		t = (enum fe_type)(t + 1); /* s32 -> s64, u16 -> u32: the result type */
	if (in->op == FE_OP_SETP || in->op == FE_OP_SET)
		st = in->op == FE_OP_SET ? (enum fe_type)in->type2 : t;
	if (in->n_opnd > 1 && in->op != FE_OP_MOV && in->op != FE_OP_CVT)
		a = src(w, &o[1], lane, st);
	if (in->n_opnd > 2)
		b = src(w, &o[2], lane, in->op == FE_OP_SHL || in->op == FE_OP_SHR ? FE_T_U32 : st);
	if (in->n_opnd > 3)
		c = src(w, &o[3], lane, (in->op == FE_OP_SELP || in->op == FE_OP_SETP ||
					in->op == FE_OP_SET) ? FE_T_PRED :
			(in->part == FE_PART_WIDE && in->op != FE_OP_MUL24) ? t : st);
	uint8_t *cf = &w->carry[lane];
	if ((t == FE_T_F16 || t == FE_T_F16X2) && in->op != FE_OP_MOV && in->op != FE_OP_CVT &&
	    in->op != FE_OP_SETP) {
		r = half_op(in, a, b, c);
		if (t == FE_T_F16X2) /* the high halves, independently */
			r |= half_op(in, a >> 16, b >> 16, c >> 16) << 16;
		dst(w, d, lane, r, t);
		return;
	}
	switch (in->op) {
	case FE_OP_ADD: case FE_OP_SUB:
		if (flt) {
			r = fbin(in->op, in, a, b, 0);
		} else if (in->flags & FE_IF_SAT) {
			int64_t x = (int64_t)sext(a, 4), y = (int64_t)sext(b, 4);
			r = sat_s32(in->op == FE_OP_ADD ? x + y : x - y);
		} else if (in->op == FE_OP_ADD) {
			r = a + b;
			if (in->flags & FE_IF_CC)
				*cf = zext(r, n) < zext(a, n);
		} else {
			r = a - b;
			if (in->flags & FE_IF_CC)
				*cf = zext(a, n) < zext(b, n);
		}
		break;
	case FE_OP_ADDC: {
		uint64_t ci = *cf, s = zext(a, n) + zext(b, n) + ci;
		r = s;
		if (in->flags & FE_IF_CC)
			*cf = n == 8 ? (s < a || (ci && s == a)) : (s >> bits) & 1;
		break;
	}
	case FE_OP_SUBC: {
		uint64_t bi = *cf, x = zext(a, n), y = zext(b, n);
		r = x - y - bi;
		if (in->flags & FE_IF_CC)
			*cf = x < y || (x == y && bi);
		break;
	}
	case FE_OP_MUL:
		r = flt ? fbin(FE_OP_MUL, in, a, b, 0) : imul(in, a, b);
		break;
	case FE_OP_MAD: case FE_OP_MADC: case FE_OP_FMA:
		if (flt) {
			r = fbin(FE_OP_FMA, in, a, b, c);
		} else {
			uint64_t p = imul(in, a, b);
			uint64_t ci = in->op == FE_OP_MADC ? *cf : 0;
			uint32_t rn = in->part == FE_PART_WIDE ? 2 * n : n;
			uint64_t s = zext(p, rn) + zext(c, rn) + ci;
			if (in->flags & FE_IF_SAT && in->part == FE_PART_HI && t == FE_T_S32)
				s = sat_s32((int64_t)sext(p, 4) + (int64_t)sext(c, 4));
			if (in->flags & FE_IF_CC)
				*cf = rn == 8 ? (s < zext(p, rn) || (ci && s == zext(p, rn))) : (s >> (8 * rn)) & 1;
			r = s;
		}
		break;
	case FE_OP_MUL24: case FE_OP_MAD24: {
		int64_t x = sg ? (int64_t)sext(a, 3) : (int64_t)zext(a, 3);
		int64_t y = sg ? (int64_t)sext(b, 3) : (int64_t)zext(b, 3);
		uint64_t p = (uint64_t)(x * y);
		r = in->part == FE_PART_HI ? p >> 16 : p;
		if (in->op == FE_OP_MAD24)
			r += c;
		break;
	}
	case FE_OP_SAD: {
		uint64_t x = a, y = b;
		bool lt = sg ? (int64_t)sext(x, n) < (int64_t)sext(y, n) : zext(x, n) < zext(y, n);
		r = (lt ? y - x : x - y) + c;
		break;
	}
	case FE_OP_DIV:
		r = flt ? fbin(FE_OP_DIV, in, a, b, 0) : idiv(in, a, b, false);
		break;
	case FE_OP_REM:
		r = idiv(in, a, b, true);
		break;
	case FE_OP_NEG:
		r = flt ? funary(in, a) : 0 - a; /* wraps: -INT_MIN = INT_MIN */
		break;
	case FE_OP_ABS:
		if (flt)
			r = funary(in, a);
		else
			r = (int64_t)sext(a, n) < 0 ? 0 - sext(a, n) : a;
		break;
	case FE_OP_MIN: case FE_OP_MAX:
		if (flt) {
			r = fbin(in->op, in, a, b, 0);
		} else {
			bool lt = sg ? (int64_t)sext(a, n) < (int64_t)sext(b, n) : zext(a, n) < zext(b, n);
			r = (in->op == FE_OP_MIN) == lt ? a : b;
		}
		break;
	case FE_OP_AND: r = t == FE_T_PRED ? (a && b) : a & b; break;
	case FE_OP_OR: r = t == FE_T_PRED ? (a || b) : a | b; break;
	case FE_OP_XOR: r = t == FE_T_PRED ? ((a != 0) != (b != 0)) : a ^ b; break;
	case FE_OP_NOT: r = t == FE_T_PRED ? !a : ~a; break;
	case FE_OP_CNOT: r = zext(a, n) == 0; break;
	case FE_OP_SHL:
		r = (b & 0xffffffffu) >= bits ? 0 : a << (b & 0xffffffffu);
		break;
	case FE_OP_SHR: {
		uint64_t s = b & 0xffffffffu;
		if (sg)
			r = s >= bits ? (uint64_t)((int64_t)sext(a, n) >> 63) : (uint64_t)((int64_t)sext(a, n) >> s);
		else
			r = s >= bits ? 0 : zext(a, n) >> s;
		break;
	}
	case FE_OP_BFE:
		r = bfe(zext(a, n), (uint32_t)b & 0xff, (uint32_t)c & 0xff, bits, sg);
		break;
	case FE_OP_BFI: {
		uint64_t pos = src(w, &o[3], lane, FE_T_U32) & 0xff, len = src(w, &o[4], lane, FE_T_U32) & 0xff;
		r = bfi(a, b, (uint32_t)pos, (uint32_t)len, bits);
		break;
	}
	case FE_OP_DP4A: {
		/* c + sum of the four byte products, bytes signed or not per .atype/.btype */
		int64_t s = (int32_t)c;
		bool as = in->type == FE_T_S32, bs = in->type2 == FE_T_S32;
		for (int i = 0; i < 4; i++) {
			uint64_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
			s += (as ? (int64_t)sext(x, 1) : (int64_t)x) * (bs ? (int64_t)sext(y, 1) : (int64_t)y);
		}
		r = (uint64_t)s;
		t = (as || bs) ? FE_T_S32 : FE_T_U32;
		break;
	}
	case FE_OP_BFIND: {
		/* most significant bit that differs from the sign (signed) or is set (unsigned) */
		uint64_t v = zext(sg && (int64_t)sext(a, n) < 0 ? ~a : a, n);
		if (!v) {
			r = 0xffffffffu;
		} else {
			uint32_t pos = 63 - (uint32_t)__builtin_clzll(v);
			r = (in->flags & FE_IF_SHIFTAMT) ? bits - 1 - pos : pos;
		}
		t = FE_T_U32;
		break;
	}
	case FE_OP_CLZ:
		r = zext(a, n) == 0 ? bits : (uint64_t)__builtin_clzll(zext(a, n)) - (64 - bits);
		t = FE_T_U32;
		break;
	case FE_OP_POPC:
		r = (uint64_t)__builtin_popcountll(zext(a, n));
		t = FE_T_U32;
		break;
	case FE_OP_BREV:
		r = brev(a, bits);
		break;
	case FE_OP_PRMT: {
		uint64_t bytes = zext(a, 4) | (zext(b, 4) << 32);
		r = 0;
		for (int i = 0; i < 4; i++) {
			uint32_t sel = (uint32_t)(c >> (4 * i)) & 0xf;
			uint64_t by = (bytes >> (8 * (sel & 7))) & 0xff;
			if (sel & 8)
				by = (by & 0x80) ? 0xff : 0;
			r |= by << (8 * i);
		}
		break;
	}
	case FE_OP_LOP3: {
		uint64_t lut = src(w, &o[4], lane, FE_T_U32) & 0xff;
		r = 0;
		for (int i = 0; i < 8; i++)
			if ((lut >> i) & 1)
				r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
		break;
	}
	case FE_OP_SHF: {
		uint32_t sh = (uint32_t)c;
		sh = (in->flags & FE_IF_SHF_WRAP) ? sh & 31 : (sh > 32 ? 32 : sh);
		uint64_t v = zext(a, 4) | (zext(b, 4) << 32);
		r = (in->flags & FE_IF_SHF_L) ? (v << sh) >> 32 : v >> sh;
		break;
	}
	case FE_OP_COPYSIGN:
		if (t == FE_T_F64)
			r = f64_bits(copysign(as_f64(b), as_f64(a)));
		else
			r = f32_bits(copysignf(as_f32(b), as_f32(a)));
		break;
	case FE_OP_TESTP: {
		double x = t == FE_T_F64 ? as_f64(a) : as_f32(a);
		int cl = fpclassify(x);
		if (t == FE_T_F32)
			cl = fpclassify(as_f32(a));
		switch (in->part) {
		case FE_TESTP_FINITE: r = isfinite(x); break;
		case FE_TESTP_INFINITE: r = isinf(x); break;
		case FE_TESTP_NUMBER: r = !isnan(x); break;
		case FE_TESTP_NOTANUMBER: r = isnan(x); break;
		case FE_TESTP_NORMAL: r = cl == FP_NORMAL; break;
		default: r = cl == FP_SUBNORMAL; break;
		}
		t = FE_T_PRED;
		break;
	}
	case FE_OP_SETP: {
		bool p = compare(in->cmp, st, a, b);
		bool cc = in->n_opnd > 3 ? c != 0 : false;
		dst(w, d, lane, boolop(in->boolop, p, cc), FE_T_PRED);
		dst(w, o[0].reg2, lane, boolop(in->boolop, !p, cc), FE_T_PRED);
		return;
	}
	case FE_OP_SET: {
		bool p = boolop(in->boolop, compare(in->cmp, st, a, b), in->n_opnd > 3 ? c != 0 : false);
		r = t == FE_T_F32 ? (p ? f32_bits(1.0f) : 0) : (p ? ~0ull : 0);
		break;
	}
	case FE_OP_SELP:
		r = c ? a : b;
		break;
	case FE_OP_SLCT: {
		uint64_t s = src(w, &o[3], lane, (enum fe_type)in->type2);
		bool ge = in->type2 == FE_T_F32 ? as_f32(s) >= 0.0f : (int32_t)s >= 0;
		r = ge ? a : b;
		break;
	}
	case FE_OP_MOV:
		if (o[1].kind == FE_OK_VEC) { /* pack {a,b,...} into d */
			uint32_t eb = n / o[1].n;
			r = 0;
			for (int i = 0; i < o[1].n; i++) {
				uint64_t v = o[1].vec[i] == FE_NO_REG ? (uint64_t)o[1].vimm[i] :
					*reg_slot(w, o[1].vec[i], lane);
				r |= zext(v, eb) << (8 * eb * (uint32_t)i);
			}
		} else if (o[0].kind == FE_OK_VEC) { /* unpack a into {d0,d1,...} */
			uint64_t v = src(w, &o[1], lane, t);
			uint32_t eb = n / o[0].n;
			enum fe_type et = eb == 2 ? FE_T_B16 : eb == 4 ? FE_T_B32 : eb == 1 ? FE_T_B8 : FE_T_B64;
			for (int i = 0; i < o[0].n; i++)
				dst(w, o[0].vec[i], lane, v >> (8 * eb * (uint32_t)i), et);
			return;
		} else {
			r = src(w, &o[1], lane, t);
		}
		break;
	case FE_OP_CVT:
		r = convert(in, src(w, &o[1], lane, (enum fe_type)in->type2));
		break;
	case FE_OP_CVTA: {
		uint64_t base = in->space == WI_SPACE_SHARED ? FE_SHARED_WIN :
			in->space == WI_SPACE_LOCAL ? FE_LOCAL_WIN :
			in->space == WI_SPACE_PARAM ? FE_PARAM_WIN : 0;
		if (in->part == FE_CVTA_FROM_GENERIC)
			r = (base && a >= base && a < base + FE_WIN_BYTES) ? a - base : (base ? 0 : a);
		else
			r = base + zext(a, n);
		break;
	}
	case FE_OP_SQRT: case FE_OP_RCP: case FE_OP_RSQRT: case FE_OP_SIN: case FE_OP_COS:
	case FE_OP_EX2: case FE_OP_LG2: case FE_OP_TANH:
		r = funary(in, a);
		break;
	default:
		return;
	}
	dst(w, d, lane, r, t);
}

/* ---- the fast loops (struct fe_xop) ------------------------------------------------------ */

/* Source i of x read as type t: a register (predicates may be negated) or an immediate. */
static bool xsrc(struct fe_xop *x, int i, const struct fe_opnd *o, enum fe_type t)
{
	if (o->kind == FE_OK_REG) {
		if (o->neg && t != FE_T_PRED)
			return false;
		x->r[i] = o->reg;
		x->neg[i] = o->neg;
		return true;
	}
	if (o->kind == FE_OK_IMM) {
		x->imm[i] = imm_value(o, t);
		return true;
	}
	if (o->kind == FE_OK_ADDR && o->reg == FE_NO_REG && o->abase == FE_AB_NONE) {
		x->imm[i] = (uint64_t)o->imm; /* a shared/local/param symbol's address: a constant */
		return true;
	}
	return false;
}

/* Truth table of setp's comparison over the outcomes less, equal, greater, unordered (bits
 * 0-3), as icmp and fcmp decide them; 0 for a comparison they answer false for. */
static uint8_t cmp_table(uint8_t cmp, bool flt)
{
	static const uint8_t ftab[] = {
		[FE_CMP_EQ] = 0x2, [FE_CMP_NE] = 0x5, [FE_CMP_LT] = 0x1, [FE_CMP_LE] = 0x3,
		[FE_CMP_GT] = 0x4, [FE_CMP_GE] = 0x6, [FE_CMP_EQU] = 0xa, [FE_CMP_NEU] = 0xd,
		[FE_CMP_LTU] = 0x9, [FE_CMP_LEU] = 0xb, [FE_CMP_GTU] = 0xc, [FE_CMP_GEU] = 0xe,
		[FE_CMP_NUM] = 0x7, [FE_CMP_NAN] = 0x8,
	};
	static const uint8_t itab[] = {
		[FE_CMP_EQ] = 0x2, [FE_CMP_NE] = 0x5, [FE_CMP_LT] = 0x1, [FE_CMP_LE] = 0x3,
		[FE_CMP_GT] = 0x4, [FE_CMP_GE] = 0x6, [FE_CMP_LO] = 0x1, [FE_CMP_LS] = 0x3,
		[FE_CMP_HI] = 0x4, [FE_CMP_HS] = 0x6,
	};
	if (flt)
		return cmp < sizeof ftab ? ftab[cmp] : 0;
	return cmp < sizeof itab ? itab[cmp] : 0;
}

static void xresult(struct fe_xop *x, enum fe_type t)
{
	x->rsh = (uint8_t)(64 - 8 * fe_type_bytes(t));
	x->rsigned = fe_type_is_signed(t);
}

/* ld/ldu/st of one plain register to or from a space without generic addressing (shared
 * memory, the kernel's parameters, global/const memory), the shapes fe_exec_ldst_fast runs;
 * the timing model's address is then the address itself. */
static uint8_t xldst(const struct fe_inst *in, struct fe_xop *x)
{
	bool st = in->op == FE_OP_ST;
	const struct fe_opnd *ao = st ? &in->o[0] : &in->o[1], *vo = st ? &in->o[1] : &in->o[0];
	enum fe_type t = (enum fe_type)in->type;
	uint32_t tb = fe_type_bytes(t);
	bool flat = in->space == WI_SPACE_SHARED || (in->space == WI_SPACE_PARAM && ao->kparam);
	if (in->n_opnd != 2 || in->vec != 1 || !(tb == 1 || tb == 2 || tb == 4 || tb == 8) ||
	    t == FE_T_PRED || vo->kind != FE_OK_REG || vo->reg == FE_NO_REG || vo->neg ||
	    ao->kind != FE_OK_ADDR || (ao->abase != FE_AB_NONE && ao->abase != FE_AB_GSYM) ||
	    !(flat || in->space == WI_SPACE_GLOBAL || in->space == WI_SPACE_CONST))
		return FE_X_GENERIC;
	x->r[0] = ao->reg;
	x->imm[0] = (uint64_t)ao->imm;
	x->gsym = ao->abase == FE_AB_GSYM ? ao->sym : UINT32_MAX;
	x->d = vo->reg;
	x->bits = (uint8_t)(8 * tb);
	x->ssigned = fe_type_is_signed(t);
	x->f16 = t == FE_T_F16;
	x->space = in->space;
	return st ? FE_X_ST : FE_X_LD;
}

/* Mirrors exec_lane: a shape gets a kind only where its loop computes exactly what exec_lane
 * does (same operand types, same result normalisation); the rest stay generic. */
void fe_exec_decode(const struct fe_inst *in, struct fe_xop *x)
{
	memset(x, 0, sizeof *x);
	x->d = x->d2 = FE_NO_REG;
	x->r[0] = x->r[1] = x->r[2] = FE_NO_REG;
	enum fe_type t = (enum fe_type)in->type, t2 = (enum fe_type)in->type2;
	uint32_t n = fe_type_bytes(t);
	const struct fe_opnd *o = in->o;
	bool shape = n && t != FE_T_F16 && t != FE_T_F16X2 && in->n_opnd >= 2 &&
		     o[0].kind == FE_OK_REG && o[0].reg != FE_NO_REG;
	bool flt = fe_type_is_float(t), pred = t == FE_T_PRED, ok = false;
	bool rn = in->rnd == FE_RND_NONE || in->rnd == FE_RND_RN;
	bool plain = !(in->flags & (FE_IF_FTZ | FE_IF_SAT)) && rn && in->part == FE_PART_NONE;
	uint8_t kind = FE_X_GENERIC;
	x->d = o[0].reg;
	x->ssh = (uint8_t)(64 - 8 * n);
	x->ssigned = fe_type_is_signed(t);
	xresult(x, t);
	switch (shape ? in->op : FE_OP_COUNT) {
	case FE_OP_ADD: case FE_OP_SUB: case FE_OP_MUL: case FE_OP_MAD: case FE_OP_FMA:
		if (in->n_opnd != (in->op == FE_OP_MAD || in->op == FE_OP_FMA ? 4 : 3) || pred)
			break;
		if (flt) {
			if (!plain)
				break;
			static const uint8_t f[] = {[FE_OP_ADD] = FE_X_FADD, [FE_OP_SUB] = FE_X_FSUB,
						    [FE_OP_MUL] = FE_X_FMUL, [FE_OP_MAD] = FE_X_FFMA,
						    [FE_OP_FMA] = FE_X_FFMA};
			kind = f[in->op] + (t == FE_T_F64 ? FE_X_DADD - FE_X_FADD : 0);
		} else if (in->op == FE_OP_ADD || in->op == FE_OP_SUB) {
			if (in->flags & (FE_IF_SAT | FE_IF_CC))
				break;
			kind = in->op == FE_OP_ADD ? FE_X_ADD : FE_X_SUB;
		} else if (in->op == FE_OP_FMA) {
			break;
		} else if (in->part == FE_PART_NONE || in->part == FE_PART_LO) {
			if (in->op == FE_OP_MAD && (in->flags & (FE_IF_SAT | FE_IF_CC)))
				break;
			kind = in->op == FE_OP_MUL ? FE_X_MUL_LO : FE_X_MAD_LO;
		} else if (in->part == FE_PART_WIDE && (n == 2 || n == 4)) {
			if (in->op == FE_OP_MAD && (in->flags & (FE_IF_SAT | FE_IF_CC)))
				break;
			kind = in->op == FE_OP_MUL ? FE_X_MUL_WIDE : FE_X_MAD_WIDE;
			xresult(x, (enum fe_type)(t + 1));
		} else {
			break;
		}
		/* exec_lane reads the addend of a .wide mad at the result type */
		ok = xsrc(x, 0, &o[1], t) && xsrc(x, 1, &o[2], t) &&
		     (in->n_opnd < 4 || xsrc(x, 2, &o[3], kind == FE_X_MAD_WIDE ? (enum fe_type)(t + 1) : t));
		break;
	case FE_OP_AND: case FE_OP_OR: case FE_OP_XOR: case FE_OP_NOT:
		if (in->n_opnd != (in->op == FE_OP_NOT ? 2 : 3) || flt)
			break;
		kind = pred ? FE_X_PAND + (in->op - FE_OP_AND) : FE_X_AND + (in->op - FE_OP_AND);
		ok = xsrc(x, 0, &o[1], t) && (in->op == FE_OP_NOT || xsrc(x, 1, &o[2], t));
		break;
	case FE_OP_SHL: case FE_OP_SHR:
		if (in->n_opnd != 3 || flt || pred)
			break;
		kind = in->op == FE_OP_SHL ? FE_X_SHL : FE_X_SHR;
		x->bits = (uint8_t)(8 * n);
		ok = xsrc(x, 0, &o[1], t) && xsrc(x, 1, &o[2], FE_T_U32);
		break;
	case FE_OP_SETP:
		if ((in->n_opnd != 3 && in->n_opnd != 4) || pred)
			break;
		kind = t == FE_T_F32 ? FE_X_SETP_F32 : t == FE_T_F64 ? FE_X_SETP_F64 : FE_X_SETP_INT;
		x->tbl = cmp_table(in->cmp, flt);
		/* signed order compares sign-extended values with the sign bit flipped */
		x->ssigned = fe_type_is_signed(t) && in->cmp >= FE_CMP_LT && in->cmp <= FE_CMP_GE;
		x->boolop = in->boolop;
		x->d2 = o[0].reg2;
		ok = xsrc(x, 0, &o[1], t) && xsrc(x, 1, &o[2], t) &&
		     (in->n_opnd < 4 || xsrc(x, 2, &o[3], FE_T_PRED));
		break;
	case FE_OP_SELP:
		if (in->n_opnd != 4 || pred)
			break;
		kind = FE_X_SELP;
		ok = xsrc(x, 0, &o[1], t) && xsrc(x, 1, &o[2], t) && xsrc(x, 2, &o[3], FE_T_PRED);
		break;
	case FE_OP_MOV:
		if (in->n_opnd != 2 || pred)
			break;
		if (o[1].kind == FE_OK_SREG) {
			kind = FE_X_MOV_SREG;
			x->sreg = o[1].sreg;
			ok = true;
		} else {
			kind = FE_X_MOV;
			ok = xsrc(x, 0, &o[1], t);
		}
		break;
	case FE_OP_CVTA:
		if (in->n_opnd != 2 || flt || pred)
			break;
		kind = in->part == FE_CVTA_FROM_GENERIC ? FE_X_CVTA_FROM : FE_X_CVTA_TO;
		/* the space's generic window, as exec_lane picks it */
		x->imm[2] = in->space == WI_SPACE_SHARED ? FE_SHARED_WIN :
			in->space == WI_SPACE_LOCAL ? FE_LOCAL_WIN :
			in->space == WI_SPACE_PARAM ? FE_PARAM_WIN : 0;
		ok = xsrc(x, 0, &o[1], t);
		break;
	case FE_OP_CVT: {
		uint32_t sb = fe_type_bytes(t2);
		if (in->n_opnd != 2 || flt || pred || (in->flags & FE_IF_SAT) || !sb ||
		    fe_type_is_float(t2) || t2 == FE_T_PRED || t2 == FE_T_F16X2)
			break;
		kind = FE_X_CVT_INT;
		x->ssh = (uint8_t)(64 - 8 * sb);
		x->ssigned = fe_type_is_signed(t2);
		ok = xsrc(x, 0, &o[1], t2);
		break;
	}
	default:
		break;
	}
	if (!ok) {
		memset(x, 0, sizeof *x);
		kind = FE_X_GENERIC;
	}
	x->gsym = UINT32_MAX;
	if (in->op == FE_OP_LD || in->op == FE_OP_LDU || in->op == FE_OP_ST)
		kind = xldst(in, x);
	x->kind = kind;
	x->op = in->op;
	x->guard = in->guard;
	x->guard_neg = in->guard_neg;
	x->target = in->op == FE_OP_BRA ? in->o[0].sym : 0;
}

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
 * 32-bit result zero- or sign-extended, any other through the shift pair. */
enum { RF_64, RF_U32, RF_S32, RF_ANY };

static inline __attribute__((always_inline)) uint64_t rnorm(uint64_t v, int rf, unsigned rsh, bool rs)
{
	switch (rf) {
	case RF_64: return v;
	case RF_U32: return (uint32_t)v;
	case RF_S32: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
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
		D[lane] = r == r ? f32_bits(r) : fbin(FE_OP_FMA, in, a, b, c);
	);
}
#endif

/* One loop over the active lanes; operand i is a register column or a column holding the
 * immediate. */
static void exec_fast(struct fe_warp *w, const struct fe_xop *x, const struct fe_inst *in,
		      const uint64_t *mask)
{
	const size_t nl = w->n_lanes;
	uint64_t *D = &w->regs[(size_t)x->d * nl];
	/* an immediate operand reads a column filled with it, so that every loop indexes its
	 * operands by lane alike (cheaper than masking each lane's index) */
	uint64_t icol[3][WI_MAX_LANES];
	const uint64_t *S[3];
	for (int i = 0; i < 3; i++) {
		if (x->r[i] != FE_NO_REG) {
			S[i] = &w->regs[(size_t)x->r[i] * nl];
		} else if (x->imm[i] == 0) {
			S[i] = fe_zero_column;
		} else {
#pragma GCC unroll 8
			for (size_t j = 0; j < nl; j++)
				icol[i][j] = x->imm[i];
			S[i] = icol[i];
		}
	}
	const uint64_t *S0 = S[0], *S1 = S[1], *S2 = S[2];
	const unsigned rsh = x->rsh, ssh = x->ssh, bits = x->bits;
	const bool rs = x->rsigned, ss = x->ssigned;
	const bool n0 = x->neg[0], n1 = x->neg[1], n2 = x->neg[2];
	const int rform = rsh == 0 ? RF_64 : rsh == 32 ? (rs ? RF_S32 : RF_U32) : RF_ANY;
#define A (S0[lane])
#define B (S1[lane])
#define C (S2[lane])
/* the write's norm(): sign- or zero-extend the result type's bytes (RF: the form, a constant
 * in each copy BY_RESULT makes) */
#define PUT(v) (D[lane] = rnorm((v), RF, rsh, rs))
#define BY_RESULT(...)                                                                         \
	do {                                                                                   \
		switch (rform) {                                                               \
		case RF_64: { const int RF = RF_64; __VA_ARGS__ } break;                       \
		case RF_U32: { const int RF = RF_U32; __VA_ARGS__ } break;                     \
		case RF_S32: { const int RF = RF_S32; __VA_ARGS__ } break;                     \
		default: { const int RF = RF_ANY; __VA_ARGS__ } break;                         \
		}                                                                              \
	} while (0)
#define LOOP_R(...) BY_RESULT(FE_FOR_LANES(w, mask, lane, __VA_ARGS__);)
#define SEXT(v) ((int64_t)((v) << ssh) >> ssh)
#define ZEXT(v) (((v) << ssh) >> ssh)
	switch (x->kind) {
	case FE_X_ADD: LOOP_R(PUT(A + B);); break;
	case FE_X_SUB: LOOP_R(PUT(A - B);); break;
	case FE_X_AND: LOOP_R(PUT(A & B);); break;
	case FE_X_OR: LOOP_R(PUT(A | B);); break;
	case FE_X_XOR: LOOP_R(PUT(A ^ B);); break;
	case FE_X_NOT: LOOP_R(PUT(~A);); break;
	case FE_X_SHL:
		LOOP_R(
			uint64_t s = B & 0xffffffffu;
			PUT(s >= bits ? 0 : A << s);
		);
		break;
	case FE_X_SHR:
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
		bool mad = x->kind == FE_X_MAD_WIDE;
		/* .wide of 32-bit operands into 64 bits, the common case, without the shift pairs */
		if (ssh == 32 && rform == RF_64 && ss) {
			FE_FOR_LANES(w, mask, lane,
				uint64_t p = (uint64_t)((int64_t)(int32_t)(uint32_t)A * (int32_t)(uint32_t)B);
				D[lane] = mad ? p + C : p;
			);
		} else if (ssh == 32 && rform == RF_64) {
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
	case FE_X_SETP_INT: case FE_X_SETP_F32: case FE_X_SETP_F64: {
		uint64_t *D2 = x->d2 != FE_NO_REG ? &w->regs[(size_t)x->d2 * nl] : NULL;
		const unsigned tbl = x->tbl;
		const uint8_t bop = x->boolop;
		if (x->kind == FE_X_SETP_INT && bop == FE_BOOL_NONE && !D2 && (ssh == 32 || ssh == 0) &&
		    tbl >= 0x1 && tbl <= 0x6) {
			/* one predicate from a 32- or 64-bit integer comparison, the common case:
			 * the comparison itself instead of the outcome table */
#define SETP_CMP(KA, KB)                                                                       \
	do {                                                                                   \
		switch (tbl) {                                                                 \
		case 0x1: FE_FOR_LANES(w, mask, lane, D[lane] = (KA) < (KB);); break;         \
		case 0x2: FE_FOR_LANES(w, mask, lane, D[lane] = (KA) == (KB);); break;        \
		case 0x3: FE_FOR_LANES(w, mask, lane, D[lane] = (KA) <= (KB);); break;        \
		case 0x4: FE_FOR_LANES(w, mask, lane, D[lane] = (KA) > (KB);); break;         \
		case 0x5: FE_FOR_LANES(w, mask, lane, D[lane] = (KA) != (KB);); break;        \
		default: /* 0x6 */ FE_FOR_LANES(w, mask, lane, D[lane] = (KA) >= (KB);); break; \
		}                                                                              \
	} while (0)
			if (ssh == 32 && ss)
				SETP_CMP((int32_t)(uint32_t)A, (int32_t)(uint32_t)B);
			else if (ssh == 32)
				SETP_CMP((uint32_t)A, (uint32_t)B);
			else if (ss)
				SETP_CMP((int64_t)A, (int64_t)B);
			else
				SETP_CMP(A, B);
#undef SETP_CMP
			break;
		}
		/* the outcome index (less 0, equal 1, greater 2, unordered 3) of A against B */
#define SETP_LOOP(IDX)                                                                         \
	do {                                                                                   \
		if (bop == FE_BOOL_NONE && !D2) {                                              \
			FE_FOR_LANES(w, mask, lane, uint64_t a = A, b = B; D[lane] = (tbl >> (IDX)) & 1;); \
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
		if (x->kind == FE_X_SETP_INT && ss) {
			/* signed order: sign-extend, then flip the sign bit for an unsigned compare */
			SETP_LOOP(setp_idx_u((uint64_t)SEXT(a) ^ (1ull << 63), (uint64_t)SEXT(b) ^ (1ull << 63)));
		} else if (x->kind == FE_X_SETP_INT) {
			SETP_LOOP(setp_idx_u(ZEXT(a), ZEXT(b)));
		} else if (x->kind == FE_X_SETP_F32) {
			SETP_LOOP(setp_idx_f(as_f32(a), as_f32(b)));
		} else {
			SETP_LOOP(setp_idx_d(as_f64(a), as_f64(b)));
		}
#undef SETP_LOOP
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
			const uint64_t v = sreg_value(w, 0, x->sreg); /* the same for every lane */
			LOOP_R(PUT(v););
			break;
		}
		default: LOOP_R(PUT(sreg_value(w, lane, x->sreg));); break;
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
	case FE_X_CVT_INT:
		if (ss)
			LOOP_R(uint64_t a = A; PUT((uint64_t)SEXT(a)););
		else
			LOOP_R(uint64_t a = A; PUT(ZEXT(a)););
		break;
	/* round-to-nearest IEEE arithmetic is exact to compute here, except for the NaN payload
	 * of two NaN operands (see fbin): a lane whose result is a NaN is recomputed by fbin.
	 * That covers every NaN operand (add, sub, mul and fma propagate a NaN), and for the
	 * rest, the default NaN of an invalid operation, fbin computes the same operation. */
#define FLOAT_LOOP(OP, EXPR)                                                                   \
	FE_FOR_LANES(w, mask, lane,                                                            \
		uint64_t a = A, b = B;                                                         \
		float fa = as_f32(a), fb = as_f32(b), r = (EXPR);                              \
		D[lane] = r == r ? f32_bits(r) : fbin(OP, in, a, b, C);                        \
	)
#define DOUBLE_LOOP(OP, EXPR)                                                                  \
	FE_FOR_LANES(w, mask, lane,                                                            \
		uint64_t a = A, b = B;                                                         \
		double da = as_f64(a), db = as_f64(b), r = (EXPR);                             \
		D[lane] = r == r ? f64_bits(r) : fbin(OP, in, a, b, C);                        \
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
	case FE_X_PAND: FE_FOR_LANES(w, mask, lane, D[lane] = ((A != 0) != n0) && ((B != 0) != n1);); break;
	case FE_X_POR: FE_FOR_LANES(w, mask, lane, D[lane] = ((A != 0) != n0) || ((B != 0) != n1);); break;
	case FE_X_PXOR: FE_FOR_LANES(w, mask, lane, D[lane] = ((A != 0) != n0) != ((B != 0) != n1);); break;
	case FE_X_PNOT: FE_FOR_LANES(w, mask, lane, D[lane] = (A != 0) == n0;); break;
	default:
		break;
	}
#undef A
#undef B
#undef C
#undef PUT
#undef BY_RESULT
#undef LOOP_R
#undef SEXT
#undef ZEXT
}

/* The full per-lane semantics, whatever the decoded form (the fast loops' reference). */
int fe_exec_inst_generic(struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct warp_inst *out,
			 struct sim_error *err)
{
	const struct fe_inst *in = &w->k->prog[pc];
	switch (in->op) {
	case FE_OP_LD: case FE_OP_LDU: case FE_OP_ST:
		return fe_exec_ldst(w, pc, in, mask, out, err);
	case FE_OP_ATOM: case FE_OP_RED:
		return fe_exec_atom(w, pc, in, mask, out, err);
	case FE_OP_TEX:
		return fe_exec_tex(w, pc, in, mask, out, err);
	case FE_OP_SHFL:
		exec_shfl(w, in, mask);
		return 0;
	case FE_OP_VOTE: case FE_OP_ACTIVEMASK:
		exec_vote(w, in, mask);
		return 0;
	case FE_OP_MEMBAR: case FE_OP_BAR_WARP: case FE_OP_NANOSLEEP: case FE_OP_PREFETCH:
		return 0;
	default:
		break;
	}
	FE_FOR_LANES(w, mask, lane, exec_lane(w, in, lane););
	return 0;
}

int fe_exec_inst(struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct warp_inst *out,
		 struct sim_error *err)
{
	const struct fe_kernel *k = w->k;
	const struct fe_xop *x = &k->xop[pc];
	if (x->kind == FE_X_LD || x->kind == FE_X_ST)
		return fe_exec_ldst_fast(w, pc, x, mask, out, err);
	if (x->kind != FE_X_GENERIC) {
		exec_fast(w, x, &k->prog[pc], mask);
		return 0;
	}
	return fe_exec_inst_generic(w, pc, mask, out, err);
}
