/* SPDX-License-Identifier: MIT */
/* PTX parser, instruction side: operands (registers, immediates, addresses, vectors, labels),
 * calls, operand counts, and the decoded struct fe_inst appended to the function. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "ptx_parse.h"

/* ---- operands ------------------------------------------------------------------------ */

int ptxp_label_ref(struct parser *P, const struct ptx_token *t)
{
	struct fe_func *f = &P->m->funcs[P->cur_func];
	for (uint32_t i = 0; i < f->n_labels; i++)
		if (strlen(f->labels[i].name) == t->len && !memcmp(f->labels[i].name, t->s, t->len))
			return (int)i;
	GROW(f->labels, f->n_labels, f->cap_labels);
	f->labels[f->n_labels].name = ptxp_strdup(t);
	f->labels[f->n_labels].pc = FE_PC_NONE;
	f->labels[f->n_labels].line = t->line;
	f->labels[f->n_labels].col = t->col;
	return (int)f->n_labels++;
}

/* An immediate, optionally negated. */
static int parse_imm(struct parser *P, struct fe_opnd *o)
{
	bool neg = false;
	if (ptx_tok_punct(tok(P), '-')) {
		neg = true;
		next(P);
	}
	struct ptx_token *k = tok(P);
	o->kind = FE_OK_IMM;
	if (k->kind == PTX_INT) {
		o->imm = neg ? (int64_t)(0 - (uint64_t)k->ival) : k->ival; /* -INT64_MIN wraps */
	} else if (k->kind == PTX_FLOAT) {
		o->imm_is_f = 1;
		o->n = k->fwidth; /* literal width: 32 for 0f, 64 for 0d, 0 decimal */
		if (k->fwidth == 32) {
			uint32_t b = (uint32_t)k->ival;
			float f;
			memcpy(&f, &b, 4);
			o->fval = f;
		} else if (k->fwidth == 64) {
			uint64_t b = (uint64_t)k->ival;
			memcpy(&o->fval, &b, 8);
		} else {
			o->fval = k->fval;
		}
		if (neg)
			o->fval = -o->fval;
		/* keep the bit pattern for .b32/.b64 moves of 0f literals */
		o->imm = k->fwidth ? k->ival : 0;
		if (neg && k->fwidth)
			o->imm ^= (int64_t)(k->fwidth == 32 ? 0x80000000ull : 0x8000000000000000ull);
	} else {
		return ptxp_error(P, k, "expected an operand");
	}
	next(P);
	return 0;
}

static int parse_name_operand(struct parser *P, struct fe_opnd *o, bool allow_pipe)
{
	struct ptx_token t = *tok(P);
	int32_t r;
	int sr;
	if (t.len == 1 && t.s[0] == '_') {
		next(P);
		o->kind = FE_OK_SINK;
		o->reg = FE_NO_REG;
		return 0;
	}
	if ((r = ptxp_reg_find(P, t.s, t.len)) >= 0) {
		next(P);
		o->kind = FE_OK_REG;
		o->reg = (uint16_t)r;
		o->reg2 = FE_NO_REG;
		if (allow_pipe && ptx_tok_punct(tok(P), '|')) {
			next(P);
			struct ptx_token t2 = *tok(P);
			if (t2.kind != PTX_ID || (r = ptxp_reg_find(P, t2.s, t2.len)) < 0)
				return ptxp_error(P, &t2, "expected a predicate register after '|'");
			o->reg2 = (uint16_t)r;
			next(P);
		}
		return 0;
	}
	if ((sr = fe_sreg_from_name(t.s, t.len)) >= 0) {
		next(P);
		o->kind = FE_OK_SREG;
		o->sreg = (uint8_t)sr;
		return 0;
	}
	if (t.s[0] == '%')
		return ptxp_error(P, &t, "undeclared register");
	int32_t s = ptxp_sym_find(P, t.s, t.len);
	if (s >= 0) {
		next(P);
		o->kind = FE_OK_ADDR;
		o->abase = FE_AB_SYM_UNLINKED;
		o->sym = (uint32_t)s;
		o->reg = FE_NO_REG;
		if (ptx_tok_punct(tok(P), '+')) {
			next(P);
			struct fe_opnd im = {0};
			if (parse_imm(P, &im))
				return P->err->code;
			o->imm = im.imm;
		}
		return 0;
	}
	/* otherwise a label (branch target), resolved when the function ends */
	next(P);
	o->kind = FE_OK_LABEL;
	o->sym = (uint32_t)ptxp_label_ref(P, &t);
	return 0;
}

static int parse_address(struct parser *P, struct fe_opnd *o)
{
	next(P); /* [ */
	o->kind = FE_OK_ADDR;
	o->reg = FE_NO_REG;
	o->abase = FE_AB_NONE;
	struct ptx_token t = *tok(P);
	if (t.kind == PTX_ID) {
		int32_t r = ptxp_reg_find(P, t.s, t.len), s;
		if (r >= 0) {
			o->reg = (uint16_t)r;
		} else if ((s = ptxp_sym_find(P, t.s, t.len)) >= 0) {
			o->abase = FE_AB_SYM_UNLINKED;
			o->sym = (uint32_t)s;
		} else {
			return ptxp_error(P, &t, "expected a register or variable in the address");
		}
		next(P);
		if (ptx_tok_punct(tok(P), '+')) {
			next(P);
			struct fe_opnd im = {0};
			if (parse_imm(P, &im))
				return P->err->code;
			if (im.imm_is_f)
				return ptxp_error(P, tok(P), "expected an integer address offset");
			o->imm = im.imm;
		} else if (ptx_tok_punct(tok(P), '-')) {
			struct fe_opnd im = {0};
			if (parse_imm(P, &im))
				return P->err->code;
			o->imm = im.imm;
		} else if (ptx_tok_punct(tok(P), ',') && o->reg != FE_NO_REG) {
			/* texture: [handle, {x[, y]}] */
			next(P);
			if (ptxp_expect_punct(P, '{'))
				return P->err->code;
			for (;;) {
				struct ptx_token c = *tok(P);
				int32_t cr = c.kind == PTX_ID ? ptxp_reg_find(P, c.s, c.len) : -1;
				if (cr < 0 || o->n >= 4)
					return ptxp_error(P, &c, "expected a coordinate register");
				o->vec[o->n++] = (uint16_t)cr;
				next(P);
				if (!ptx_tok_punct(tok(P), ','))
					break;
				next(P);
			}
			if (ptxp_expect_punct(P, '}'))
				return P->err->code;
		}
	} else if (t.kind == PTX_INT) {
		o->imm = t.ival;
		next(P);
	} else {
		return ptxp_error(P, &t, "expected an address ([reg], [reg+imm], [var], [imm])");
	}
	return ptxp_expect_punct(P, ']');
}

static int parse_operand(struct parser *P, struct fe_opnd *o)
{
	memset(o, 0, sizeof *o);
	o->reg = o->reg2 = FE_NO_REG;
	struct ptx_token *t = tok(P);
	if (ptx_tok_punct(t, '['))
		return parse_address(P, o);
	if (ptx_tok_punct(t, '{')) {
		next(P);
		o->kind = FE_OK_VEC;
		for (;;) {
			if (o->n >= FE_MAX_VEC)
				return ptxp_error(P, tok(P), "vector operand has more than %d elements",
						  FE_MAX_VEC);
			struct fe_opnd e;
			memset(&e, 0, sizeof e);
			if (tok(P)->kind == PTX_ID) {
				if (parse_name_operand(P, &e, false))
					return P->err->code;
				if (e.kind != FE_OK_REG && e.kind != FE_OK_SINK)
					return ptxp_error(P, tok(P), "expected registers in a vector operand");
				o->vec[o->n] = e.reg;
			} else {
				if (o->n >= 4)
					return ptxp_error(P, tok(P), "immediates in a vector operand only "
							  "among its first 4 elements");
				if (parse_imm(P, &e))
					return P->err->code;
				o->vec[o->n] = FE_NO_REG;
				o->vimm[o->n] = e.imm;
			}
			o->n++;
			if (ptx_tok_punct(tok(P), ',')) {
				next(P);
				continue;
			}
			return ptxp_expect_punct(P, '}');
		}
	}
	if (ptx_tok_punct(t, '!')) {
		next(P);
		if (parse_name_operand(P, o, false))
			return P->err->code;
		if (o->kind != FE_OK_REG)
			return ptxp_error(P, tok(P), "expected a predicate after '!'");
		o->neg = 1;
		return 0;
	}
	if (t->kind == PTX_ID && t->s[0] != '.')
		return parse_name_operand(P, o, true);
	if (t->kind == PTX_INT || t->kind == PTX_FLOAT || ptx_tok_punct(t, '-'))
		return parse_imm(P, o);
	return ptxp_error(P, t, "expected an operand");
}

/* ---- instructions ---------------------------------------------------------------------- */

struct fe_inst *ptxp_add_inst(struct fe_func *f)
{
	GROW(f->insts, f->n_insts, f->cap_insts);
	return &f->insts[f->n_insts++];
}

static int parse_sym_list(struct parser *P, uint32_t **out, uint16_t *n)
{
	if (ptxp_expect_punct(P, '('))
		return P->err->code;
	uint32_t cap = 0, cnt = 0;
	uint32_t *v = NULL;
	while (!ptx_tok_punct(tok(P), ')')) {
		struct ptx_token t = *tok(P);
		int32_t s = t.kind == PTX_ID ? ptxp_sym_find(P, t.s, t.len) : -1;
		if (s < 0) {
			free(v);
			return ptxp_error(P, &t, "expected a .param variable in the call's argument list");
		}
		GROW(v, cnt, cap);
		v[cnt++] = (uint32_t)s;
		next(P);
		if (ptx_tok_punct(tok(P), ','))
			next(P);
		else if (!ptx_tok_punct(tok(P), ')')) {
			free(v);
			return ptxp_error(P, tok(P), "expected ',' or ')'");
		}
	}
	next(P);
	*out = v;
	*n = (uint16_t)cnt;
	return 0;
}

/* call[.uni] [(ret),] func[, (args)]; */
static int parse_call(struct parser *P, struct fe_inst *in)
{
	struct fe_module *m = P->m;
	GROW(m->calls, m->n_calls, m->cap_calls);
	struct fe_call *c = &m->calls[m->n_calls];
	memset(c, 0, sizeof *c);
	in->call = m->n_calls++;
	if (ptx_tok_punct(tok(P), '(')) {
		if (parse_sym_list(P, &c->rets, &c->n_rets) || ptxp_expect_punct(P, ','))
			return P->err->code;
	}
	if (tok(P)->kind != PTX_ID || tok(P)->s[0] == '%')
		return ptxp_error(P, tok(P), "expected a function name (indirect calls are not supported)");
	c->func_name = ptxp_strdup(tok(P));
	next(P);
	if (ptx_tok_punct(tok(P), ',')) {
		next(P);
		if (parse_sym_list(P, &c->args, &c->n_args))
			return P->err->code;
		if (ptx_tok_punct(tok(P), ','))
			return ptxp_error(P, tok(P), "call prototypes (indirect calls) are not supported");
	}
	return ptxp_expect_punct(P, ';');
}

/* Operand count limits per op: [min, max]. */
static void op_arity(enum fe_op op, int *lo, int *hi)
{
	*lo = *hi = 3;
	switch (op) {
	case FE_OP_MAD: case FE_OP_FMA: case FE_OP_MADC: case FE_OP_MAD24: case FE_OP_SAD:
	case FE_OP_SELP: case FE_OP_SLCT: case FE_OP_BFE: case FE_OP_PRMT: case FE_OP_SET: case FE_OP_DP4A:
		*lo = *hi = 4; break;
	case FE_OP_SETP: *lo = 3; *hi = 4; break;
	case FE_OP_BFI: case FE_OP_LOP3: *lo = *hi = 5; break;
	case FE_OP_SHF: *lo = *hi = 4; break;
	case FE_OP_NEG: case FE_OP_ABS: case FE_OP_NOT: case FE_OP_CNOT: case FE_OP_CLZ: case FE_OP_BFIND:
	case FE_OP_POPC: case FE_OP_BREV: case FE_OP_MOV: case FE_OP_CVT: case FE_OP_CVTA:
	case FE_OP_LD: case FE_OP_LDU: case FE_OP_ST: case FE_OP_SQRT: case FE_OP_RCP:
	case FE_OP_RSQRT: case FE_OP_SIN: case FE_OP_COS: case FE_OP_EX2: case FE_OP_LG2:
	case FE_OP_TANH: case FE_OP_TESTP:
		*lo = *hi = 2; break;
	case FE_OP_ATOM: *lo = 3; *hi = 4; break;
	case FE_OP_RED: *lo = *hi = 2; break;
	case FE_OP_BAR: *lo = 1; *hi = 4; break; /* bar.red: d, id, [count,] p */
	case FE_OP_BAR_WARP: *lo = *hi = 1; break;
	case FE_OP_MEMBAR: case FE_OP_RET: case FE_OP_EXIT: case FE_OP_TRAP: *lo = *hi = 0; break;
	case FE_OP_BRA: *lo = *hi = 1; break;
	case FE_OP_SHFL: *lo = *hi = 5; break;
	case FE_OP_VOTE: *lo = 2; *hi = 3; break;
	case FE_OP_MATCH: *lo = *hi = 3; break; /* d[|p], a, membermask */
	case FE_OP_ACTIVEMASK: case FE_OP_NANOSLEEP: case FE_OP_PREFETCH: *lo = *hi = 1; break;
	case FE_OP_TEX: *lo = *hi = 2; break;
	case FE_OP_WMMA_LOAD: case FE_OP_WMMA_STORE: *lo = 2; *hi = 3; break; /* optional stride */
	case FE_OP_WMMA_MMA: *lo = *hi = 4; break;
	default: break;
	}
}

/* Operand positions (bit i: operand i) that hold a .pred register. Every other register operand,
 * vector element and address base must not be one. false: the positions depend on a mode this
 * check does not follow (vote, bar.red, shfl, call), so they are left unchecked. */
static bool pred_slots(const struct fe_inst *in, unsigned *mask)
{
	*mask = 0;
	switch (in->op) {
	case FE_OP_VOTE: case FE_OP_BAR: case FE_OP_SHFL: case FE_OP_CALL: case FE_OP_MATCH:
		return false;
	case FE_OP_SETP: *mask = 1u | 8u; return true;  /* p[|q], a, b[, {!}c] */
	case FE_OP_SET: case FE_OP_SELP: *mask = 8u; return true;
	case FE_OP_TESTP: *mask = 1u; return true;
	default:
		if (in->type == FE_T_PRED) /* and/or/xor/not/mov/cnot .pred */
			*mask = ~0u;
		return true;
	}
}

/* Operands whose immediates take the instruction type's width: the sources of these integer ops
 * (not shift counts, bit positions or the wide addend of mad.wide). */
static bool imm_has_type_width(const struct fe_inst *in, int i)
{
	switch (in->op) {
	case FE_OP_ADD: case FE_OP_SUB: case FE_OP_MIN: case FE_OP_MAX: case FE_OP_AND: case FE_OP_OR:
	case FE_OP_XOR: case FE_OP_NOT: case FE_OP_NEG: case FE_OP_ABS: case FE_OP_DIV: case FE_OP_REM:
	case FE_OP_MOV: case FE_OP_MUL: case FE_OP_SETP: case FE_OP_ADDC: case FE_OP_SUBC:
		return true;
	case FE_OP_MAD: case FE_OP_MADC:
		return !(in->part == FE_PART_WIDE && i == 3);
	case FE_OP_SELP:
		return i < 3;
	default:
		return false;
	}
}

/* wmma's operands: each fragment a vector of exactly its registers (fe_wmma_geom), an address
 * and an optional stride for load/store. */
static int fe_wmma_check(struct parser *P, const struct fe_inst *in, const struct ptx_token *opnd_tok)
{
	const char *op = fe_op_names[in->op];
	bool mma = in->op == FE_OP_WMMA_MMA, st = in->op == FE_OP_WMMA_STORE;
	for (int i = 0; i < in->n_opnd; i++) {
		const struct fe_opnd *o = &in->o[i];
		bool addr = !mma && i == (st ? 0 : 1), stride = !mma && i == 2;
		if (addr) {
			if (o->kind != FE_OK_ADDR)
				return ptxp_error(P, &opnd_tok[i], "%s: operand %d must be an address", op, i + 1);
			continue;
		}
		if (stride) {
			if (o->kind != FE_OK_REG && o->kind != FE_OK_IMM)
				return ptxp_error(P, &opnd_tok[i], "%s: the stride must be a register or an "
						  "immediate", op);
			continue;
		}
		struct fe_wmma_geom g;
		uint8_t frag = !mma ? in->part : i == 1 ? FE_WMMA_A : i == 2 ? FE_WMMA_B : FE_WMMA_C;
		uint8_t type = !mma ? in->type : i == 0 ? in->type : i == 3 ? in->type2 : in->type3;
		bool ok = fe_wmma_geom(frag, in->cmp, type, &g);
		if (!ok || o->kind != FE_OK_VEC || o->n != g.regs)
			return ptxp_error(P, &opnd_tok[i], "%s: operand %d must be a fragment of %u registers",
					  op, i + 1, ok ? g.regs : 0);
		for (int k = 0; k < o->n; k++)
			if (o->vec[k] == FE_NO_REG)
				return ptxp_error(P, &opnd_tok[i], "%s: operand %d holds an immediate or '_'",
						  op, i + 1);
	}
	return 0;
}

/* What ptxas checks and the executor relies on: .pred registers exactly where a predicate goes,
 * integer immediates that fit the instruction type, and a vector of the opcode's .v2/.v4
 * width as ld/st data. */
static int check_operands(struct parser *P, const struct fe_func *f, const struct fe_inst *in,
			  const struct ptx_token *opnd_tok)
{
	const char *op = fe_op_names[in->op];
	unsigned pmask;
	if (pred_slots(in, &pmask)) {
		for (int i = 0; i < in->n_opnd; i++) {
			const struct fe_opnd *o = &in->o[i];
			bool want = (pmask >> i) & 1u;
			uint16_t regs[FE_MAX_VEC + 2];
			int nr = 0;
			if (o->kind == FE_OK_REG) {
				regs[nr++] = o->reg;
				if (o->reg2 != FE_NO_REG)
					regs[nr++] = o->reg2;
			} else if (o->kind == FE_OK_VEC) {
				for (int k = 0; k < o->n; k++)
					if (o->vec[k] != FE_NO_REG)
						regs[nr++] = o->vec[k];
			} else if (o->kind == FE_OK_ADDR && o->reg != FE_NO_REG) {
				regs[nr++] = o->reg;
			}
			bool is_reg = o->kind == FE_OK_REG;
			for (int k = 0; k < nr; k++) {
				if (regs[k] >= f->n_regs)
					continue;
				bool pred = f->reg_bytes[regs[k]] == 0;
				if (pred && !(want && is_reg))
					return ptxp_error(P, &opnd_tok[i], "%s: operand %d holds a .pred "
							  "register where %s is expected", op, i + 1,
							  o->kind == FE_OK_ADDR ? "an address register"
							  : o->kind == FE_OK_VEC ? "a vector of values"
										 : "a value");
				if (!pred && want)
					return ptxp_error(P, &opnd_tok[i], "%s: operand %d (%.*s) must be a "
							  ".pred register", op, i + 1, (int)opnd_tok[i].len,
							  opnd_tok[i].s);
			}
		}
	}
	uint32_t bytes = fe_type_bytes((enum fe_type)in->type);
	if (bytes && bytes < 8 && in->type != FE_T_PRED && !fe_type_is_float((enum fe_type)in->type) &&
	    in->type != FE_T_F16X2) {
		int64_t lo = -(INT64_C(1) << (bytes * 8 - 1)), hi = (INT64_C(1) << (bytes * 8)) - 1;
		for (int i = 0; i < in->n_opnd; i++) {
			const struct fe_opnd *o = &in->o[i];
			if (o->kind == FE_OK_IMM && !o->imm_is_f && imm_has_type_width(in, i) &&
			    (o->imm < lo || o->imm > hi))
				return ptxp_error(P, &opnd_tok[i], "%s: immediate %lld does not fit the "
						  "%u-bit instruction type", op, (long long)o->imm, bytes * 8);
		}
	}
	if (in->op >= FE_OP_WMMA_LOAD && in->op <= FE_OP_WMMA_MMA)
		return fe_wmma_check(P, in, opnd_tok);
	int data = in->op == FE_OP_LD || in->op == FE_OP_LDU ? 0 : in->op == FE_OP_ST ? 1 : -1;
	if (data >= 0 && data < in->n_opnd) {
		const struct fe_opnd *o = &in->o[data];
		int have = o->kind == FE_OK_VEC ? o->n : 1;
		if (have != in->vec)
			return ptxp_error(P, &opnd_tok[data], "%s%s: operand %d has %d element%s, the "
					  "opcode moves %d", op, in->vec == 4 ? ".v4" : in->vec == 2 ? ".v2" : "",
					  data + 1, have, have == 1 ? "" : "s", in->vec);
	}
	return 0;
}

int ptxp_parse_instruction(struct parser *P)
{
	struct fe_func *f = &P->m->funcs[P->cur_func];
	struct ptx_token start = *tok(P);
	uint16_t guard = FE_NO_REG;
	uint8_t gneg = 0;
	if (ptx_tok_punct(tok(P), '@')) {
		next(P);
		if (ptx_tok_punct(tok(P), '!')) {
			gneg = 1;
			next(P);
		}
		int32_t r = tok(P)->kind == PTX_ID ? ptxp_reg_find(P, tok(P)->s, tok(P)->len) : -1;
		if (r < 0)
			return ptxp_error(P, tok(P), "expected a predicate register after '@'");
		if (f->reg_bytes[r] != 0) /* 0 marks .pred registers */
			return ptxp_error(P, tok(P), "guard %.*s is not a .pred register",
					  (int)tok(P)->len, tok(P)->s);
		guard = (uint16_t)r;
		next(P);
	}
	struct ptx_token opc = *tok(P);
	if (opc.kind != PTX_ID || opc.s[0] == '.' || opc.s[0] == '%')
		return ptxp_error(P, &opc, "expected an instruction");
	struct fe_inst tmp;
	char bad[96];
	if (fe_decode_opcode(opc.s, opc.len, &tmp, bad, sizeof bad)) {
		return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)opc.line, (int)opc.col, bad,
				     "unsupported opcode or modifier in '%.*s'", (int)opc.len, opc.s);
	}
	next(P);
	tmp.guard = guard;
	tmp.guard_neg = gneg;
	tmp.line = start.line;
	tmp.col = start.col;
	if (tmp.op == FE_OP_CALL) {
		struct fe_inst *in = ptxp_add_inst(f);
		*in = tmp;
		return parse_call(P, in);
	}
	int lo, hi;
	op_arity(tmp.op, &lo, &hi);
	struct ptx_token opnd_tok[FE_MAX_OPNDS];
	while (!ptx_tok_punct(tok(P), ';')) {
		if (tmp.n_opnd >= FE_MAX_OPNDS || tmp.n_opnd >= hi)
			return ptxp_error(P, tok(P), "too many operands for %s (expected %d)",
				       fe_op_names[tmp.op], hi);
		opnd_tok[tmp.n_opnd] = *tok(P);
		if (parse_operand(P, &tmp.o[tmp.n_opnd]))
			return P->err->code;
		tmp.n_opnd++;
		if (ptx_tok_punct(tok(P), ','))
			next(P);
		else if (!ptx_tok_punct(tok(P), ';'))
			return ptxp_error(P, tok(P), "expected ',' or ';' after an operand");
	}
	if (tmp.op == FE_OP_BAR && tmp.part != FE_BAR_SYNC && tmp.n_opnd < 3)
		lo = 3;
	if (tmp.op == FE_OP_BAR && tmp.part == FE_BAR_SYNC && tmp.n_opnd > 2)
		return ptxp_error(P, tok(P), "bar.sync takes a barrier and an optional thread count");
	if (tmp.n_opnd < lo)
		return ptxp_error(P, tok(P), "%s expects %d operands, found %d", fe_op_names[tmp.op], lo,
			       tmp.n_opnd);
	next(P); /* ; */
	/* bra's target is a label; everything else must not name one */
	for (int i = 0; i < tmp.n_opnd; i++) {
		bool want_label = tmp.op == FE_OP_BRA && i == 0;
		if ((tmp.o[i].kind == FE_OK_LABEL) != want_label) {
			const struct fe_label *lb = tmp.o[i].kind == FE_OK_LABEL ? &f->labels[tmp.o[i].sym] : NULL;
			return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)start.line, (int)start.col,
					     NULL, want_label ? "%s: expected a label as branch target" :
					     "%s: operand %d: undeclared name '%s'",
					     fe_op_names[tmp.op], i + 1, lb ? lb->name : "?");
		}
	}
	/* Operand types (PTX ISA "Operand Type Information"): for these, every register has the
	 * instruction type's size (bit, signed and unsigned types of one size are compatible). Kept
	 * to ops with no wide, shift-count or mixed-size operand, so nvcc output always passes. */
	if (tmp.op == FE_OP_ADD || tmp.op == FE_OP_SUB || tmp.op == FE_OP_MIN || tmp.op == FE_OP_MAX ||
	    tmp.op == FE_OP_AND || tmp.op == FE_OP_OR || tmp.op == FE_OP_XOR) {
		uint32_t want = tmp.type == FE_T_PRED ? 0 : fe_type_bytes((enum fe_type)tmp.type);
		for (int i = 0; i < tmp.n_opnd; i++) {
			if (tmp.o[i].kind != FE_OK_REG || tmp.o[i].reg >= f->n_regs)
				continue;
			uint32_t have = f->reg_bytes[tmp.o[i].reg];
			if (have != want)
				return ptxp_error(P, &opnd_tok[i],
						  "%s: operand %d (%.*s) is a %u-bit register, the instruction "
						  "type is %u-bit",
						  fe_op_names[tmp.op], i + 1, (int)opnd_tok[i].len,
						  opnd_tok[i].s, have ? have * 8 : 1, want ? want * 8 : 1);
		}
	}
	if (check_operands(P, f, &tmp, opnd_tok))
		return P->err->code;
	/* memory operands must be addresses, texture operands [handle, {coords}] */
	int addr_i = -1;
	if (tmp.op == FE_OP_LD || tmp.op == FE_OP_LDU || tmp.op == FE_OP_ATOM || tmp.op == FE_OP_TEX)
		addr_i = 1;
	else if (tmp.op == FE_OP_ST || tmp.op == FE_OP_RED || tmp.op == FE_OP_PREFETCH)
		addr_i = 0;
	if (addr_i >= 0 && tmp.o[addr_i].kind != FE_OK_ADDR)
		return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)start.line, (int)start.col, NULL,
				     "%s: operand %d must be an address in [ ]", fe_op_names[tmp.op], addr_i + 1);
	if (tmp.op == FE_OP_TEX &&
	    (tmp.o[0].kind != FE_OK_VEC || tmp.o[0].n != 4 || tmp.o[1].reg == FE_NO_REG ||
	     tmp.o[1].n < tmp.part))
		return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)start.line, (int)start.col, NULL,
				     "tex: expected {d0, d1, d2, d3}, [handle, {coordinates}]");
	*ptxp_add_inst(f) = tmp;
	return 0;
}

