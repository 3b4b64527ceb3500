/* SPDX-License-Identifier: MIT */
/* The functional executor's decode and dispatch: an instruction's compact form (struct
 * fe_xop), decoded once at link, picks a fast loop (exec_fast.c) or ld/st loop (exec_mem.c);
 * the rest run through the per-lane semantics (exec_alu.c), the warp-synchronous ones
 * (exec_warp.c) and memory (exec_mem.c). Control flow is in simt.c. The same code executes
 * an instruction in timing mode (fe_warp_execute, at issue) and functionally. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"

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
		x->imm[i] = fe_exec_imm(o, t);
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
 * does (same operand types, same result normalisation); the rest stay generic. A nonzero
 * immediate's column is left NULL for fe_exec_decode_kernel. */
static void decode(const struct fe_inst *in, struct fe_xop *x)
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
	case FE_OP_NEG:
		/* integer neg is 0 - a (exec_lane: wrapping), a sub from the zero column */
		if (in->n_opnd != 2 || flt || pred || in->flags)
			break;
		kind = FE_X_SUB;
		ok = xsrc(x, 1, &o[1], t);
		break;
	case FE_OP_MIN: case FE_OP_MAX: case FE_OP_DIV: case FE_OP_REM:
		if (in->n_opnd != 3 || flt || pred || in->flags)
			break;
		kind = in->op == FE_OP_MIN ? FE_X_MIN : in->op == FE_OP_MAX ? FE_X_MAX :
			in->op == FE_OP_DIV ? FE_X_DIV : FE_X_REM;
		ok = xsrc(x, 0, &o[1], t) && xsrc(x, 1, &o[2], t);
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
		if (t == FE_T_F32 && in->n_opnd == 2 && rn && !(in->flags & (FE_IF_FTZ | FE_IF_SAT)) &&
		    sb && !fe_type_is_float(t2) && t2 != FE_T_PRED) {
			/* integer -> f32 in round-to-nearest: the exact integer, rounded once */
			kind = FE_X_CVT_I2F;
			x->ssh = (uint8_t)(64 - 8 * sb);
			x->ssigned = fe_type_is_signed(t2);
			ok = xsrc(x, 0, &o[1], t2);
			break;
		}
		bool sflt = t2 == FE_T_F32 || t2 == FE_T_F64;
		if (in->n_opnd == 2 && sflt && !flt && !pred && !(in->flags & FE_IF_FTZ)) {
			/* f32/f64 -> integer: fe_cvt_f2i, as fe_convert (which ignores .sat here:
			 * every float -> integer cvt saturates) */
			kind = FE_X_CVT_F2I;
			x->ssh = (uint8_t)(64 - 8 * sb);
			x->rnd = in->rnd;
			ok = xsrc(x, 0, &o[1], t2);
			break;
		}
		if (in->n_opnd == 2 && sflt && (t == FE_T_F32 || t == FE_T_F64) && t != t2 && rn &&
		    !(in->flags & (FE_IF_FTZ | FE_IF_SAT))) {
			/* f32 -> f64 (exact) or f64 -> f32 in round-to-nearest */
			kind = FE_X_CVT_F2F;
			x->ssh = (uint8_t)(64 - 8 * sb);
			ok = xsrc(x, 0, &o[1], t2);
			break;
		}
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
	x->in = in;
	x->fast = fe_exec_fast_fn(x);
	x->ldst = fe_exec_ldst_fn(x);
	for (int i = 0; i < 3; i++)
		if (x->r[i] == FE_NO_REG && x->imm[i] == 0)
			x->icol[i] = fe_zero_column;
}

/* Whether x's loop reads source i as a column (a shift's immediate count and cvta's window are
 * read from imm directly; ld/st's offset too). */
static bool reads_column(const struct fe_xop *x, int i)
{
	switch (x->kind) {
	case FE_X_GENERIC: case FE_X_LD: case FE_X_ST:
		return false;
	case FE_X_SHL: case FE_X_SHR:
		return i != 1;
	case FE_X_CVTA_TO: case FE_X_CVTA_FROM:
		return i != 2;
	default:
		return true;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void fe_exec_decode_kernel(struct fe_kernel *k)
{
	uint32_t n = 0;
	uint64_t *vals = malloc((3 * (size_t)k->n_insts + 1) * sizeof *vals);
	if (!vals)
		abort(); /* load-time allocation, as the link's own */
	for (uint32_t pc = 0; pc < k->n_insts; pc++) {
		struct fe_xop *x = &k->xop[pc];
		decode(&k->prog[pc], x);
		for (int i = 0; i < 3; i++)
			if (!x->icol[i] && x->r[i] == FE_NO_REG && reads_column(x, i))
				vals[n++] = x->imm[i];
	}
	/* the distinct values, a column each */
	qsort(vals, n, sizeof *vals, cmp_u64);
	uint32_t nd = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!nd || vals[i] != vals[nd - 1])
			vals[nd++] = vals[i];
	k->n_imm_cols = nd;
	k->imm_cols = malloc(((size_t)nd * WI_MAX_LANES + 1) * sizeof *k->imm_cols);
	if (!k->imm_cols)
		abort();
	for (uint32_t c = 0; c < nd; c++)
		for (uint32_t l = 0; l < WI_MAX_LANES; l++)
			k->imm_cols[(size_t)c * WI_MAX_LANES + l] = vals[c];
	for (uint32_t pc = 0; pc < k->n_insts; pc++) {
		struct fe_xop *x = &k->xop[pc];
		for (int i = 0; i < 3; i++) {
			if (x->icol[i] || x->r[i] != FE_NO_REG || !reads_column(x, i))
				continue;
			const uint64_t *v = bsearch(&x->imm[i], vals, nd, sizeof *vals, cmp_u64);
			x->icol[i] = &k->imm_cols[(size_t)(v - vals) * WI_MAX_LANES];
		}
	}
	free(vals);
}


/* The full per-lane semantics, whatever the decoded form (the fast loops' reference). */
int fe_exec_inst_generic(struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct warp_inst *out,
			 struct sim_error *err)
{
	const struct fe_inst *in = &w->k->prog[pc];
	switch (in->op) {
	case FE_OP_LD: case FE_OP_LDU: case FE_OP_ST:
		return fe_exec_ldst(w, pc, in, mask, out->addr, err);
	case FE_OP_ATOM: case FE_OP_RED:
		return fe_exec_atom(w, pc, in, mask, out, err);
	case FE_OP_TEX:
		return fe_exec_tex(w, pc, in, mask, out, err);
	case FE_OP_WMMA_LOAD: case FE_OP_WMMA_STORE: case FE_OP_WMMA_MMA:
		return fe_exec_wmma(w, pc, in, mask, out, err);
	case FE_OP_SHFL:
		fe_exec_shfl(w, in, mask);
		return 0;
	case FE_OP_VOTE: case FE_OP_ACTIVEMASK:
		fe_exec_vote(w, in, mask);
		return 0;
	case FE_OP_MATCH:
		fe_exec_match(w, in, mask);
		return 0;
	case FE_OP_MEMBAR: case FE_OP_BAR_WARP: case FE_OP_NANOSLEEP: case FE_OP_PREFETCH:
		return 0;
	default:
		break;
	}
	FE_FOR_LANES(w, mask, lane, fe_exec_lane(w, in, lane););
	return 0;
}

int fe_exec_inst(struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct warp_inst *out,
		 struct sim_error *err)
{
	const struct fe_kernel *k = w->k;
	const struct fe_xop *x = &k->xop[pc];
	if (x->kind == FE_X_LD || x->kind == FE_X_ST)
		return fe_exec_ldst_fast(w, pc, x, mask, out->addr, err);
	if (x->kind != FE_X_GENERIC) {
		uint64_t pbits[WI_MASK_WORDS];
		fe_exec_fast(w, x, mask, pbits);
		return 0;
	}
	return fe_exec_inst_generic(w, pc, mask, out, err);
}
