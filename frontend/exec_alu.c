/* SPDX-License-Identifier: MIT */
/* Per-lane ALU semantics of the functional executor (the reference every faster form agrees
 * with): integer arithmetic with carries and parts, bit operations, comparisons and selects,
 * moves and conversions, calling exec_float.c for floating point. An operation belongs to one
 * group (lane_group); a new one gets an entry there and a case in its group's function. */
#include <math.h>

#include "exec_int.h"

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
		return fe_fcmp(cmp, fe_half_to_f32((uint16_t)a), fe_half_to_f32((uint16_t)b));
	if (t == FE_T_F32)
		return fe_fcmp(cmp, as_f32(a), as_f32(b));
	if (t == FE_T_F64)
		return fe_fcmp(cmp, as_f64(a), as_f64(b));
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
	return fe_idiv(a, b, fe_type_bytes(in->type), fe_type_is_signed(in->type), rem);
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

/* bmsk.mode.b32 (PTX ISA, sm_70): width b's mask of ones from bit position a; .clamp takes a
 * or b of 32 or more as the whole word, .wrap their low 5 bits. */
static uint32_t bmsk(uint32_t a, uint32_t b, bool clamp)
{
	uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
	uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
	bool pos_over = clamp && a >= 32, width_over = clamp && b >= 32;
	if (pos_over)
		mask0 = 0;
	if (sum >= 32 || pos_over || width_over)
		mask1 = 0;
	else if (b1 == 0)
		mask1 = ~0u;
	return mask0 & ~mask1;
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

/* ---- one lane of an ALU instruction ------------------------------------------------------ */

/* One lane's operands, read by fe_exec_lane at the types the operation reads them. */
struct lane {
	struct fe_warp *w;
	const struct fe_inst *in;
	uint32_t lane;
	enum fe_type t;          /* result type; a group may change it to the type it writes */
	enum fe_type st;         /* source type */
	uint64_t a, b, c;        /* operands 1-3 */
};

/* The names the groups' cases use (unused ones are fine). */
#define LANE_LOCALS(L)                                                                        \
	struct fe_warp *const w __attribute__((unused)) = (L)->w;                            \
	const struct fe_inst *const in __attribute__((unused)) = (L)->in;                    \
	const uint32_t lane __attribute__((unused)) = (L)->lane;                             \
	const struct fe_opnd *const o __attribute__((unused)) = in->o;                       \
	const uint16_t d __attribute__((unused)) = o[0].reg;                                 \
	enum fe_type t = (L)->t;                                                             \
	const enum fe_type st __attribute__((unused)) = (L)->st;                             \
	/* the instruction type's bytes, also where .wide widened t */                     \
	const uint32_t n __attribute__((unused)) = fe_type_bytes((enum fe_type)in->type);    \
	const uint32_t bits __attribute__((unused)) = 8 * n;                                 \
	const bool flt __attribute__((unused)) = fe_type_is_float((enum fe_type)in->type);   \
	const bool sg __attribute__((unused)) = fe_type_is_signed((enum fe_type)in->type);   \
	const uint64_t a __attribute__((unused)) = (L)->a, b __attribute__((unused)) = (L)->b, \
		       c __attribute__((unused)) = (L)->c;                                   \
	uint8_t *const cf __attribute__((unused)) = &w->carry[lane]

/* add sub addc subc mul mad madc fma mul24 mad24 sad div rem neg abs min max */
static inline __attribute__((always_inline)) bool lane_arith(struct lane *L, uint64_t *out)
{
	LANE_LOCALS(L);
	uint64_t r = 0;
	switch (in->op) {
	case FE_OP_ADD: case FE_OP_SUB:
		if (flt) {
			r = fe_fbin(in->op, in, a, b, 0);
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
		r = flt ? fe_fbin(FE_OP_MUL, in, a, b, 0) : imul(in, a, b);
		break;
	case FE_OP_MAD: case FE_OP_MADC: case FE_OP_FMA:
		if (flt) {
			r = fe_fbin(FE_OP_FMA, in, a, b, c);
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
		r = flt ? fe_fbin(FE_OP_DIV, in, a, b, 0) : idiv(in, a, b, false);
		break;
	case FE_OP_REM:
		r = idiv(in, a, b, true);
		break;
	case FE_OP_NEG:
		r = flt ? fe_funary(in, a) : 0 - a; /* wraps: -INT_MIN = INT_MIN */
		break;
	case FE_OP_ABS:
		if (flt)
			r = fe_funary(in, a);
		else
			r = (int64_t)sext(a, n) < 0 ? 0 - sext(a, n) : a;
		break;
	case FE_OP_MIN: case FE_OP_MAX:
		if (flt) {
			r = fe_fbin(in->op, in, a, b, 0);
		} else {
			bool lt = sg ? (int64_t)sext(a, n) < (int64_t)sext(b, n) : zext(a, n) < zext(b, n);
			r = (in->op == FE_OP_MIN) == lt ? a : b;
		}
		break;
	default:
		SIM_ASSERT(!"an operation outside its group");
		return false;
	}
	L->t = t;
	*out = r;
	return true;
}

/* and or xor not cnot shl shr bfe bfi dp4a bfind clz popc brev prmt lop3 shf */
static inline __attribute__((always_inline)) bool lane_bits(struct lane *L, uint64_t *out)
{
	LANE_LOCALS(L);
	uint64_t r = 0;
	switch (in->op) {
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
	case FE_OP_BMSK:
		r = bmsk((uint32_t)a, (uint32_t)b, in->part == FE_BMSK_CLAMP);
		break;
	case FE_OP_BFI: {
		uint64_t pos = fe_opnd_value(w, &o[3], lane, FE_T_U32) & 0xff, len = fe_opnd_value(w, &o[4], lane, FE_T_U32) & 0xff;
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
		uint64_t lut = fe_opnd_value(w, &o[4], lane, FE_T_U32) & 0xff;
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
	default:
		SIM_ASSERT(!"an operation outside its group");
		return false;
	}
	L->t = t;
	*out = r;
	return true;
}

/* copysign testp and the unary float functions (sqrt rcp rsqrt sin cos ex2 lg2 tanh) */
static inline __attribute__((always_inline)) bool lane_float(struct lane *L, uint64_t *out)
{
	LANE_LOCALS(L);
	uint64_t r = 0;
	switch (in->op) {
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
	case FE_OP_SQRT: case FE_OP_RCP: case FE_OP_RSQRT: case FE_OP_SIN: case FE_OP_COS:
	case FE_OP_EX2: case FE_OP_LG2: case FE_OP_TANH:
		r = fe_funary(in, a);
		break;
	default:
		SIM_ASSERT(!"an operation outside its group");
		return false;
	}
	L->t = t;
	*out = r;
	return true;
}

/* setp set selp slct */
static inline __attribute__((always_inline)) bool lane_select(struct lane *L, uint64_t *out)
{
	LANE_LOCALS(L);
	uint64_t r = 0;
	switch (in->op) {
	case FE_OP_SETP: {
		bool p = compare(in->cmp, st, a, b);
		bool cc = in->n_opnd > 3 ? c != 0 : false;
		dst(w, d, lane, boolop(in->boolop, p, cc), FE_T_PRED);
		dst(w, o[0].reg2, lane, boolop(in->boolop, !p, cc), FE_T_PRED);
		return false;
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
		uint64_t s = fe_opnd_value(w, &o[3], lane, (enum fe_type)in->type2);
		bool ge = in->type2 == FE_T_F32 ? as_f32(s) >= 0.0f : (int32_t)s >= 0;
		r = ge ? a : b;
		break;
	}
	default:
		SIM_ASSERT(!"an operation outside its group");
		return false;
	}
	L->t = t;
	*out = r;
	return true;
}

/* mov (with vector pack/unpack) cvt cvta */
static inline __attribute__((always_inline)) bool lane_move(struct lane *L, uint64_t *out)
{
	LANE_LOCALS(L);
	uint64_t r = 0;
	switch (in->op) {
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
			uint64_t v = fe_opnd_value(w, &o[1], lane, t);
			uint32_t eb = n / o[0].n;
			enum fe_type et = eb == 2 ? FE_T_B16 : eb == 4 ? FE_T_B32 : eb == 1 ? FE_T_B8 : FE_T_B64;
			for (int i = 0; i < o[0].n; i++)
				dst(w, o[0].vec[i], lane, v >> (8 * eb * (uint32_t)i), et);
			return false;
		} else {
			r = fe_opnd_value(w, &o[1], lane, t);
		}
		break;
	case FE_OP_CVT:
		r = fe_convert(in, fe_opnd_value(w, &o[1], lane, (enum fe_type)in->type2));
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
	default:
		SIM_ASSERT(!"an operation outside its group");
		return false;
	}
	L->t = t;
	*out = r;
	return true;
}

enum lane_group { G_NONE, G_ARITH, G_BITS, G_FLOAT, G_SELECT, G_MOVE };

/* The group of each operation fe_exec_lane executes; G_NONE: not an ALU operation here. */
static const uint8_t lane_group[FE_OP_COUNT] = {
	[FE_OP_ADD] = G_ARITH, [FE_OP_SUB] = G_ARITH, [FE_OP_ADDC] = G_ARITH, [FE_OP_SUBC] = G_ARITH,
	[FE_OP_MUL] = G_ARITH, [FE_OP_MAD] = G_ARITH, [FE_OP_MADC] = G_ARITH, [FE_OP_FMA] = G_ARITH,
	[FE_OP_MUL24] = G_ARITH, [FE_OP_MAD24] = G_ARITH, [FE_OP_SAD] = G_ARITH, [FE_OP_DIV] = G_ARITH,
	[FE_OP_REM] = G_ARITH, [FE_OP_NEG] = G_ARITH, [FE_OP_ABS] = G_ARITH, [FE_OP_MIN] = G_ARITH,
	[FE_OP_MAX] = G_ARITH,
	[FE_OP_AND] = G_BITS, [FE_OP_OR] = G_BITS, [FE_OP_XOR] = G_BITS, [FE_OP_NOT] = G_BITS,
	[FE_OP_CNOT] = G_BITS, [FE_OP_SHL] = G_BITS, [FE_OP_SHR] = G_BITS, [FE_OP_BFE] = G_BITS,
	[FE_OP_BFI] = G_BITS, [FE_OP_DP4A] = G_BITS, [FE_OP_BFIND] = G_BITS, [FE_OP_CLZ] = G_BITS,
	[FE_OP_POPC] = G_BITS, [FE_OP_BREV] = G_BITS, [FE_OP_PRMT] = G_BITS, [FE_OP_LOP3] = G_BITS,
	[FE_OP_SHF] = G_BITS, [FE_OP_BMSK] = G_BITS,
	[FE_OP_COPYSIGN] = G_FLOAT, [FE_OP_TESTP] = G_FLOAT, [FE_OP_SQRT] = G_FLOAT,
	[FE_OP_RCP] = G_FLOAT, [FE_OP_RSQRT] = G_FLOAT, [FE_OP_SIN] = G_FLOAT, [FE_OP_COS] = G_FLOAT,
	[FE_OP_EX2] = G_FLOAT, [FE_OP_LG2] = G_FLOAT, [FE_OP_TANH] = G_FLOAT,
	[FE_OP_SETP] = G_SELECT, [FE_OP_SET] = G_SELECT, [FE_OP_SELP] = G_SELECT,
	[FE_OP_SLCT] = G_SELECT,
	[FE_OP_MOV] = G_MOVE, [FE_OP_CVT] = G_MOVE, [FE_OP_CVTA] = G_MOVE,
};

void fe_exec_lane(struct fe_warp *w, const struct fe_inst *in, uint32_t lane)
{
	enum fe_type t = (enum fe_type)in->type;
	const struct fe_opnd *o = in->o;
	uint64_t a = 0, b = 0, c = 0, r = 0;
	enum fe_type st = t; /* source type */
	if ((in->op == FE_OP_MUL || in->op == FE_OP_MAD || in->op == FE_OP_MUL24 ||
	     in->op == FE_OP_MAD24) && in->part == FE_PART_WIDE)
		t = (enum fe_type)(t + 1); /* s32 -> s64, u16 -> u32: the result type */
	if (in->op == FE_OP_SETP || in->op == FE_OP_SET)
		st = in->op == FE_OP_SET ? (enum fe_type)in->type2 : t;
	if (in->n_opnd > 1 && in->op != FE_OP_MOV && in->op != FE_OP_CVT)
		a = fe_opnd_value(w, &o[1], lane, st);
	if (in->n_opnd > 2)
		b = fe_opnd_value(w, &o[2], lane, in->op == FE_OP_SHL || in->op == FE_OP_SHR ? FE_T_U32 : st);
	if (in->n_opnd > 3)
		c = fe_opnd_value(w, &o[3], lane, (in->op == FE_OP_SELP || in->op == FE_OP_SETP ||
					in->op == FE_OP_SET) ? FE_T_PRED :
			(in->part == FE_PART_WIDE && in->op != FE_OP_MUL24) ? t : st);
	if ((t == FE_T_F16 || t == FE_T_F16X2) && in->op != FE_OP_MOV && in->op != FE_OP_CVT &&
	    in->op != FE_OP_SETP) {
		r = fe_half_op(in, a, b, c);
		if (t == FE_T_F16X2) /* the high halves, independently */
			r |= fe_half_op(in, a >> 16, b >> 16, c >> 16) << 16;
		dst(w, o[0].reg, lane, r, t);
		return;
	}
	struct lane L = {.w = w, .in = in, .lane = lane, .t = t, .st = st, .a = a, .b = b, .c = c};
	bool put;
	switch (in->op < FE_OP_COUNT ? lane_group[in->op] : G_NONE) {
	case G_ARITH: put = lane_arith(&L, &r); break;
	case G_BITS: put = lane_bits(&L, &r); break;
	case G_FLOAT: put = lane_float(&L, &r); break;
	case G_SELECT: put = lane_select(&L, &r); break;
	case G_MOVE: put = lane_move(&L, &r); break;
	default: return;
	}
	if (put)
		dst(w, o[0].reg, lane, r, L.t);
}
