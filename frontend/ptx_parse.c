/* SPDX-License-Identifier: MIT */
/* PTX parser: module directives, variables, .entry/.func with bodies, instructions decoded into
 * struct fe_inst with registers numbered per function. Errors name file:line:column. */
#include <stdlib.h>
#include <string.h>

#include "../engine/cfg_text.h"
#include "decode.h"
#include "ptx_parse.h"

static const char *tok_desc(const struct ptx_token *t, char *buf, size_t n)
{
	if (t->kind == PTX_EOF)
		return "end of file";
	snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
	return buf;
}

int ptxp_error(struct parser *P, const struct ptx_token *t, const char *fmt, ...)
{
	char msg[400], b[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)t->line, (int)t->col, NULL,
			     "%s (got %s)", msg, tok_desc(t, b, sizeof b));
}

/* "expected X" at the current token */
int ptxp_expect_punct(struct parser *P, char c)
{
	if (!ptx_tok_punct(tok(P), c))
		return ptxp_error(P, tok(P), "expected '%c'", c);
	next(P);
	return 0;
}

char *ptxp_strdup(const struct ptx_token *t)
{
	char *s = malloc(t->len + 1);
	if (!s)
		abort();
	memcpy(s, t->s, t->len);
	s[t->len] = 0;
	return s;
}

int ptxp_expect_int(struct parser *P, int64_t *v)
{
	if (tok(P)->kind != PTX_INT)
		return ptxp_error(P, tok(P), "expected an integer");
	*v = tok(P)->ival;
	next(P);
	return 0;
}

/* ---- symbols ------------------------------------------------------------------- */

int32_t ptxp_sym_find(const struct parser *P, const char *s, uint32_t n)
{
	for (uint32_t i = P->m->n_syms; i-- > 0;) {
		const struct fe_sym *y = &P->m->syms[i];
		if ((y->func == P->cur_func || y->func == -1) && strlen(y->name) == n &&
		    !memcmp(y->name, s, n))
			return (int32_t)i;
	}
	return -1;
}

static uint32_t sym_add(struct parser *P, const struct ptx_token *name, uint8_t kind,
			uint32_t size, uint32_t align)
{
	struct fe_module *m = P->m;
	GROW(m->syms, m->n_syms, m->cap_syms);
	struct fe_sym *y = &m->syms[m->n_syms];
	memset(y, 0, sizeof *y);
	y->name = ptxp_strdup(name);
	y->kind = kind;
	y->size_bytes = size;
	y->align = align ? align : 1;
	y->func = P->cur_func;
	y->line = name->line;
	return m->n_syms++;
}

/* ---- registers ------------------------------------------------------------------ */

int32_t ptxp_reg_find(const struct parser *P, const char *s, uint32_t n)
{
	uint32_t d = n;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	for (uint32_t i = P->n_rr; i-- > 0;) {
		const struct reg_range *r = &P->rr[i];
		size_t pl = strlen(r->prefix);
		if (!r->ranged) {
			if (pl == n && !memcmp(r->prefix, s, n))
				return (int32_t)r->first_id;
			continue;
		}
		if (pl == d && d < n && !memcmp(r->prefix, s, d) && (n - d == 1 || s[d] != '0')) {
			uint64_t k = strtoull(s + d, NULL, 10);
			if (k < r->count)
				return (int32_t)(r->first_id + k);
		}
	}
	return -1;
}

static int parse_reg_decl(struct parser *P)
{
	struct fe_func *f = &P->m->funcs[P->cur_func];
	next(P); /* .reg */
	int vec = 1, type = -1;
	while (tok(P)->kind == PTX_ID && tok(P)->s[0] == '.') {
		if (ptx_tok_is(tok(P), ".v2"))
			vec = 2;
		else if (ptx_tok_is(tok(P), ".v4"))
			vec = 4;
		else if ((type = fe_type_from_name(tok(P)->s + 1, tok(P)->len - 1)) < 0)
			return ptxp_error(P, tok(P), "expected a register type (.b32, .f64, .pred, ...)");
		next(P);
	}
	if (type < 0)
		return ptxp_error(P, tok(P), "expected a register type");
	if (vec != 1)
		return ptxp_error(P, tok(P), "vector registers (.reg .v%d) are not supported", vec);
	for (;;) {
		if (tok(P)->kind != PTX_ID || tok(P)->s[0] == '.')
			return ptxp_error(P, tok(P), "expected a register name");
		struct ptx_token name = *tok(P);
		/* The same name twice in one block is an error (ptxas refuses it); nested blocks,
		 * as nvcc emits around inline asm, may reuse names. */
		for (uint32_t i = P->rr_scope; i < P->n_rr; i++)
			if (strlen(P->rr[i].prefix) == name.len && !memcmp(P->rr[i].prefix, name.s, name.len))
				return ptxp_error(P, &name, "register %.*s declared twice in this block",
						  (int)name.len, name.s);
		next(P);
		uint32_t count = 1;
		bool ranged = false;
		if (ptx_tok_punct(tok(P), '<')) {
			next(P);
			int64_t v = 0;
			if (ptxp_expect_int(P, &v))
				return P->err->code;
			if (v < 0 || v > 60000)
				return ptxp_error(P, tok(P), "register count out of range");
			if (ptxp_expect_punct(P, '>'))
				return P->err->code;
			count = (uint32_t)v;
			ranged = true;
		}
		if (f->n_regs + count >= FE_NO_REG - 8)
			return ptxp_error(P, &name, "too many registers in function");
		GROW(P->rr, P->n_rr, P->cap_rr);
		P->rr[P->n_rr].prefix = ptxp_strdup(&name);
		P->rr[P->n_rr].first_id = f->n_regs;
		P->rr[P->n_rr].count = count;
		P->rr[P->n_rr].ranged = ranged;
		P->n_rr++;
		uint8_t *rb = realloc(f->reg_bytes, f->n_regs + count + 1);
		if (!rb)
			abort();
		f->reg_bytes = rb;
		memset(rb + f->n_regs, type == FE_T_PRED ? 0 : (int)fe_type_bytes((enum fe_type)type), count);
		f->n_regs += count;
		if (ptx_tok_punct(tok(P), ',')) {
			next(P);
			continue;
		}
		return ptxp_expect_punct(P, ';');
	}
}

/* ---- variables --------------------------------------------------------------------- */

static void put_le(uint8_t *dst, uint64_t v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
}

static int parse_init_value(struct parser *P, enum fe_type t, uint8_t *dst)
{
	struct ptx_token *k = tok(P);
	bool neg = false;
	if (ptx_tok_punct(k, '-')) {
		neg = true;
		next(P);
		k = tok(P);
	}
	uint32_t n = fe_type_bytes(t);
	if (k->kind == PTX_INT) {
		uint64_t v = neg ? 0 - (uint64_t)k->ival : (uint64_t)k->ival;
		if (t == FE_T_F32) {
			float f = (float)(neg ? -(double)k->ival : (double)k->ival);
			uint32_t b;
			memcpy(&b, &f, 4);
			v = b;
		} else if (t == FE_T_F64) {
			double d = neg ? -(double)k->ival : (double)k->ival;
			memcpy(&v, &d, 8);
		}
		put_le(dst, v, n);
	} else if (k->kind == PTX_FLOAT) {
		double d = k->fval;
		if (k->fwidth == 32) {
			float f;
			uint32_t b = (uint32_t)k->ival;
			memcpy(&f, &b, 4);
			d = f;
		} else if (k->fwidth == 64) {
			uint64_t b = (uint64_t)k->ival;
			memcpy(&d, &b, 8);
		}
		if (neg)
			d = -d;
		if (t == FE_T_F32) {
			float f = (float)d;
			uint32_t b;
			memcpy(&b, &f, 4);
			put_le(dst, b, 4);
		} else if (t == FE_T_F64) {
			uint64_t b;
			memcpy(&b, &d, 8);
			put_le(dst, b, 8);
		} else if (k->fwidth) {
			put_le(dst, (uint64_t)k->ival, n); /* bit pattern into a .b32/.b64 */
		} else {
			return ptxp_error(P, k, "expected an integer initialiser for an integer variable");
		}
	} else {
		return ptxp_error(P, k, "expected a numeric initialiser (addresses of symbols are not supported)");
	}
	next(P);
	return 0;
}

static int parse_init_list(struct parser *P, enum fe_type t, uint8_t *buf, uint32_t cap_elems,
			   uint32_t *n_elems)
{
	if (ptx_tok_punct(tok(P), '{')) {
		next(P);
		for (;;) {
			if (parse_init_list(P, t, buf, cap_elems, n_elems))
				return P->err->code;
			if (ptx_tok_punct(tok(P), ',')) {
				next(P);
				continue;
			}
			return ptxp_expect_punct(P, '}');
		}
	}
	if (*n_elems >= cap_elems)
		return ptxp_error(P, tok(P), "too many initialisers");
	if (parse_init_value(P, t, buf + (size_t)*n_elems * fe_type_bytes(t)))
		return P->err->code;
	(*n_elems)++;
	return 0;
}

/* [.extern] .global/.const/.shared/.local/.param [.align N] [.v2|.v4] .type name[dims] [= init]; */
static int parse_var(struct parser *P, bool is_extern)
{
	struct ptx_token sp = *tok(P);
	uint8_t kind;
	if (ptx_tok_is(&sp, ".global"))
		kind = FE_SYM_GLOBAL;
	else if (ptx_tok_is(&sp, ".const"))
		kind = FE_SYM_CONST;
	else if (ptx_tok_is(&sp, ".shared"))
		kind = is_extern ? FE_SYM_SHARED_DYN : FE_SYM_SHARED;
	else if (ptx_tok_is(&sp, ".local"))
		kind = FE_SYM_LOCAL;
	else
		kind = FE_SYM_FPARAM; /* .param inside a body: call-site argument */
	next(P);
	uint32_t align = 0, vec = 1;
	int type = -1;
	while (tok(P)->kind == PTX_ID && tok(P)->s[0] == '.') {
		if (ptx_tok_is(tok(P), ".align")) {
			next(P);
			int64_t a = 0;
			if (ptxp_expect_int(P, &a))
				return P->err->code;
			if (a <= 0 || a > 4096 || (a & (a - 1)))
				return ptxp_error(P, tok(P), "alignment must be a power of two");
			align = (uint32_t)a;
			continue;
		}
		if (ptx_tok_is(tok(P), ".v2") || ptx_tok_is(tok(P), ".v4")) {
			vec = tok(P)->s[2] - '0';
			next(P);
			continue;
		}
		if ((type = fe_type_from_name(tok(P)->s + 1, tok(P)->len - 1)) >= 0) {
			next(P);
			continue;
		}
		if (ptx_tok_is(tok(P), ".texref") || ptx_tok_is(tok(P), ".samplerref") ||
		    ptx_tok_is(tok(P), ".surfref"))
			return ptxp_error(P, tok(P), "texture/surface references are not supported");
		return ptxp_error(P, tok(P), "expected a variable type (.b8, .u32, .f32, ...)");
	}
	if (type < 0 || type == FE_T_PRED)
		return ptxp_error(P, tok(P), "expected a variable type");
	for (;;) {
		if (tok(P)->kind != PTX_ID || tok(P)->s[0] == '.')
			return ptxp_error(P, tok(P), "expected a variable name");
		struct ptx_token name = *tok(P);
		next(P);
		uint64_t elems = vec;
		bool open_dim = false;
		while (ptx_tok_punct(tok(P), '[')) {
			next(P);
			if (ptx_tok_punct(tok(P), ']')) {
				open_dim = true;
				next(P);
				continue;
			}
			int64_t d = 0;
			if (ptxp_expect_int(P, &d))
				return P->err->code;
			if (d < 0 || d > (1 << 30))
				return ptxp_error(P, tok(P), "array size out of range");
			elems *= (uint64_t)d;
			if (ptxp_expect_punct(P, ']'))
				return P->err->code;
		}
		uint32_t tb = fe_type_bytes((enum fe_type)type);
		uint8_t *init = NULL;
		uint32_t n_init = 0;
		if (ptx_tok_punct(tok(P), '=')) {
			if (kind != FE_SYM_GLOBAL && kind != FE_SYM_CONST)
				return ptxp_error(P, tok(P), "only .global and .const variables take initialisers");
			next(P);
			uint32_t cap = open_dim ? 1u << 20 : (uint32_t)elems;
			init = calloc(cap ? cap : 1, tb);
			if (!init)
				abort();
			if (parse_init_list(P, (enum fe_type)type, init, cap, &n_init)) {
				free(init);
				return P->err->code;
			}
			if (open_dim)
				elems = n_init;
		}
		if (open_dim && kind != FE_SYM_SHARED_DYN && !init)
			elems = 0;
		uint64_t size = elems * tb;
		if (size > (1ull << 31)) {
			free(init);
			return ptxp_error(P, &name, "variable too large");
		}
		uint32_t a = align ? align : tb * vec;
		uint32_t s = sym_add(P, &name, kind, (uint32_t)size, a);
		if (init) {
			uint8_t *full = calloc(size ? size : 1, 1);
			if (!full)
				abort();
			memcpy(full, init, (size_t)n_init * tb);
			free(init);
			P->m->syms[s].init = full;
		}
		if (ptx_tok_punct(tok(P), ',')) {
			next(P);
			continue;
		}
		return ptxp_expect_punct(P, ';');
	}
}

/* ---- functions ---------------------------------------------------------------------- */

static int parse_params(struct parser *P, struct fe_func *f, bool rets, bool kernel)
{
	next(P); /* ( */
	uint32_t *list = NULL, n = 0, cap = 0;
	uint32_t off = f->param_bytes;
	while (!ptx_tok_punct(tok(P), ')')) {
		if (!ptx_tok_is(tok(P), ".param") && !ptx_tok_is(tok(P), ".reg"))
			{ ptxp_error(P, tok(P), "expected .param"); goto fail; }
		if (ptx_tok_is(tok(P), ".reg"))
			{ ptxp_error(P, tok(P), ".reg parameters are not supported"); goto fail; }
		next(P);
		uint32_t align = 0;
		int type = -1;
		while (tok(P)->kind == PTX_ID && tok(P)->s[0] == '.') {
			int t;
			if (ptx_tok_is(tok(P), ".align")) {
				next(P);
				int64_t a = 0;
				if (ptxp_expect_int(P, &a))
					goto fail;
				if (a <= 0 || a > 4096 || (a & (a - 1)))
					{ ptxp_error(P, tok(P), "alignment must be a power of two"); goto fail; }
				align = (uint32_t)a;
				continue;
			}
			if ((t = fe_type_from_name(tok(P)->s + 1, tok(P)->len - 1)) >= 0)
				type = t;
			/* .ptr, .global, .shared, .const, .local: pointer attributes, ignored */
			next(P);
		}
		if (type < 0 || type == FE_T_PRED)
			{ ptxp_error(P, tok(P), "expected a parameter type"); goto fail; }
		if (tok(P)->kind != PTX_ID)
			{ ptxp_error(P, tok(P), "expected a parameter name"); goto fail; }
		struct ptx_token name = *tok(P);
		next(P);
		uint64_t elems = 1;
		while (ptx_tok_punct(tok(P), '[')) {
			next(P);
			int64_t d = 0;
			struct ptx_token dt = *tok(P);
			if (ptxp_expect_int(P, &d) || ptxp_expect_punct(P, ']'))
				goto fail;
			/* CUDA passes at most 32764 bytes of parameters: a larger array is a mistake,
			 * and its size must not wrap the 32-bit byte count below. */
			if (d < 1 || d > FE_MAX_PARAM_BYTES || elems * (uint64_t)d > FE_MAX_PARAM_BYTES)
				{ ptxp_error(P, &dt, "parameter array of %lld elements (1..%d bytes allowed)",
					     (long long)d, FE_MAX_PARAM_BYTES); goto fail; }
			elems *= (uint64_t)d;
		}
		uint32_t tb = fe_type_bytes((enum fe_type)type);
		uint32_t a = align > tb ? align : tb;
		uint32_t size = (uint32_t)(elems * tb);
		uint32_t s = sym_add(P, &name, kernel ? FE_SYM_KPARAM : FE_SYM_FPARAM, size, a);
		P->m->syms[s].ptype = (uint8_t)type;
		P->m->syms[s].elems = (uint32_t)elems;
		if (kernel) {
			off = (off + a - 1) / a * a;
			P->m->syms[s].off = off;
			off += size;
		}
		GROW(list, n, cap);
		list[n++] = s;
		if (ptx_tok_punct(tok(P), ','))
			next(P);
		else if (!ptx_tok_punct(tok(P), ')'))
			{ ptxp_error(P, tok(P), "expected ',' or ')' in the parameter list"); goto fail; }
	}
	next(P);
	f->param_bytes = off;
	if (rets) {
		free(f->rets);
		f->rets = list;
		f->n_rets = n;
	} else {
		free(f->params);
		f->params = list;
		f->n_params = n;
	}
	return 0;
fail:
	free(list);
	return P->err->code;
}

static int parse_block(struct parser *P)
{
	struct fe_func *f;
	if (P->block_depth > PTX_MAX_BLOCK_DEPTH)
		return ptxp_error(P, tok(P), "{ } blocks nested more than %d deep", PTX_MAX_BLOCK_DEPTH);
	next(P); /* { */
	uint32_t outer_scope = P->rr_scope;
	P->rr_scope = P->n_rr;
	for (;;) {
		f = &P->m->funcs[P->cur_func];
		struct ptx_token *t = tok(P);
		if (t->kind == PTX_EOF)
			return ptxp_error(P, t, "expected '}' to close the function body");
		if (ptx_tok_punct(t, '}')) {
			next(P);
			P->rr_scope = outer_scope;
			return 0;
		}
		if (ptx_tok_punct(t, '{')) {
			P->block_depth++;
			int rc = parse_block(P);
			P->block_depth--;
			if (rc)
				return P->err->code;
			continue;
		}
		if (t->kind == PTX_ID && t->s[0] == '.') {
			if (ptx_tok_is(t, ".reg")) {
				if (parse_reg_decl(P))
					return P->err->code;
			} else if (ptx_tok_is(t, ".local") || ptx_tok_is(t, ".shared") ||
				   ptx_tok_is(t, ".param") || ptx_tok_is(t, ".global") ||
				   ptx_tok_is(t, ".const")) {
				if (parse_var(P, false))
					return P->err->code;
			} else if (ptx_tok_is(t, ".pragma")) {
				next(P);
				if (tok(P)->kind != PTX_STR)
					return ptxp_error(P, tok(P), "expected a string after .pragma");
				next(P);
				if (ptxp_expect_punct(P, ';'))
					return P->err->code;
			} else if (ptx_tok_is(t, ".loc") || ptx_tok_is(t, ".file")) {
				ptx_lex_skip_line(&P->lx);
			} else {
				return ptxp_error(P, t, "expected an instruction, label or declaration");
			}
			continue;
		}
		if (t->kind == PTX_ID && t->s[0] != '%') {
			/* label? */
			struct ptx_lexer save = P->lx;
			struct ptx_token name = *t;
			next(P);
			if (ptx_tok_punct(tok(P), ':')) {
				next(P);
				int li = ptxp_label_ref(P, &name);
				if (f->labels[li].pc != FE_PC_NONE)
					return ptxp_error(P, &name, "label defined twice");
				f->labels[li].pc = f->n_insts;
				f->labels[li].line = name.line;
				f->labels[li].col = name.col;
				continue;
			}
			P->lx = save;
		}
		if (ptxp_parse_instruction(P))
			return P->err->code;
	}
}

int fe_kernel_param_kind(const struct fe_module *m, const char *kernel, uint32_t i,
			 enum fe_param_kind *kind, struct sim_error *err)
{
	int k = fe_kernel_find(m, kernel, err);
	if (k < 0)
		return k;
	const struct fe_func *f = &m->funcs[m->kernels[k].func];
	if (i >= f->n_params)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)f->line, 0, kernel,
				     "kernel has %u parameters, asked for parameter %u", f->n_params, i);
	const struct fe_sym *y = &m->syms[f->params[i]];
	enum fe_type t = (enum fe_type)y->ptype;
	*kind = y->elems != 1 || t == FE_T_B8 || t == FE_T_B16 || t == FE_T_B32 || t == FE_T_B64
			? FE_PARAM_BYTES
		: fe_type_is_float(t) ? FE_PARAM_FLOAT
				      : FE_PARAM_INT;
	return 0;
}

static int32_t func_find(struct fe_module *m, const struct ptx_token *t)
{
	for (uint32_t i = 0; i < m->n_funcs; i++)
		if (strlen(m->funcs[i].name) == t->len && !memcmp(m->funcs[i].name, t->s, t->len))
			return (int32_t)i;
	return -1;
}

static int parse_func(struct parser *P, bool entry)
{
	struct fe_module *m = P->m;
	next(P); /* .entry / .func */
	struct fe_func tmp_rets = {0};
	bool have_rets = false;
	P->cur_func = -2; /* return params are scoped to the function found below */
	if (!entry && ptx_tok_punct(tok(P), '(')) {
		have_rets = true;
		if (parse_params(P, &tmp_rets, true, false))
			goto fail;
	}
	if (tok(P)->kind != PTX_ID || tok(P)->s[0] == '.') {
		ptxp_error(P, tok(P), "expected a function name");
		goto fail;
	}
	struct ptx_token name = *tok(P);
	int32_t fi = func_find(m, &name);
	if (fi < 0) {
		GROW(m->funcs, m->n_funcs, m->cap_funcs);
		fi = (int32_t)m->n_funcs++;
		memset(&m->funcs[fi], 0, sizeof m->funcs[fi]);
		m->funcs[fi].name = ptxp_strdup(&name);
	} else if (m->funcs[fi].defined) {
		ptxp_error(P, &name, "function defined twice");
		goto fail;
	}
	struct fe_func *f = &m->funcs[fi];
	f->is_entry = entry;
	f->line = name.line;
	P->cur_func = fi;
	for (uint32_t i = 0; i < m->n_syms; i++) /* adopt the return params */
		if (m->syms[i].func == -2)
			m->syms[i].func = fi;
	if (have_rets) {
		free(f->rets);
		f->rets = tmp_rets.rets;
		f->n_rets = tmp_rets.n_rets;
		tmp_rets.rets = NULL;
	}
	next(P);
	if (ptx_tok_punct(tok(P), '(')) {
		f->param_bytes = 0;
		if (parse_params(P, f, false, entry))
			goto fail;
	}
	/* performance directives: recorded, not enforced */
	while (tok(P)->kind == PTX_ID && tok(P)->s[0] == '.') {
		struct ptx_token d = *tok(P);
		next(P);
		uint32_t *dst = NULL, cnt = 1;
		if (ptx_tok_is(&d, ".maxntid"))
			dst = f->maxntid, cnt = 3;
		else if (ptx_tok_is(&d, ".reqntid"))
			dst = f->reqntid, cnt = 3;
		else if (ptx_tok_is(&d, ".minnctapersm"))
			dst = &f->minnctapersm;
		else if (ptx_tok_is(&d, ".noreturn"))
			continue;
		else if (!ptx_tok_is(&d, ".maxnreg") && !ptx_tok_is(&d, ".maxnctapersm") &&
			 !ptx_tok_is(&d, ".pragma")) {
			ptxp_error(P, &d, "expected a performance directive (.maxntid, .minnctapersm, ...) or '{'");
			goto fail;
		}
		if (ptx_tok_is(&d, ".pragma")) {
			if (tok(P)->kind == PTX_STR)
				next(P);
			if (ptx_tok_punct(tok(P), ';'))
				next(P);
			continue;
		}
		for (uint32_t k = 0; k < cnt; k++) {
			int64_t v = 0;
			if (ptxp_expect_int(P, &v))
				goto fail;
			if (dst)
				dst[k] = (uint32_t)v;
			if (!ptx_tok_punct(tok(P), ','))
				break;
			next(P);
		}
	}
	if (ptx_tok_punct(tok(P), ';')) { /* prototype only */
		next(P);
		P->cur_func = -1;
		return 0;
	}
	if (!ptx_tok_punct(tok(P), '{')) {
		ptxp_error(P, tok(P), "expected '{' or ';' after the function header");
		goto fail;
	}
	f->defined = true;
	for (uint32_t i = 0; i < P->n_rr; i++)
		free(P->rr[i].prefix);
	P->n_rr = 0;
	uint32_t close_line = 0;
	if (parse_block(P))
		goto fail;
	close_line = 0; /* no source line: reports show an empty text for it */
	f = &m->funcs[fi];
	/* code that can run off the end of the body (no final ret, or a label on the closing
	 * brace) gets an implicit ret, so every pc and branch target lies inside the function */
	const struct fe_inst *last = f->n_insts ? &f->insts[f->n_insts - 1] : NULL;
	bool ends = last && last->guard == FE_NO_REG &&
		(last->op == FE_OP_RET || last->op == FE_OP_EXIT || last->op == FE_OP_BRA);
	for (uint32_t i = 0; i < f->n_labels; i++)
		ends = ends && f->labels[i].pc != f->n_insts;
	if (!ends) {
		struct fe_inst *r = ptxp_add_inst(f);
		memset(r, 0, sizeof *r);
		r->op = FE_OP_RET;
		r->vec = 1;
		r->guard = FE_NO_REG;
		r->line = close_line;
	}
	for (uint32_t i = 0; i < f->n_labels; i++) {
		if (f->labels[i].pc == FE_PC_NONE)
			return sim_error_set(P->err, SIM_ERR_INPUT, P->file, (int)f->labels[i].line,
					     (int)f->labels[i].col, NULL, "undefined label or name '%s'",
					     f->labels[i].name);
	}
	/* resolve branch labels to function-relative pcs */
	for (uint32_t i = 0; i < f->n_insts; i++) {
		struct fe_inst *in = &f->insts[i];
		if (in->op == FE_OP_BRA)
			in->o[0].sym = f->labels[in->o[0].sym].pc;
	}
	P->cur_func = -1;
	return 0;
fail:
	free(tmp_rets.rets);
	return P->err->code ? P->err->code : SIM_ERR_INPUT;
}

static int parse_module(struct parser *P)
{
	bool is_extern = false;
	/* PTX ISA "Module directives": .version comes first and .target follows it; ptxas refuses
	 * a module without them, so a file lacking them is not nvcc output (an empty or cut file,
	 * or the wrong one). */
	bool seen_version = false, seen_target = false;
	while (tok(P)->kind != PTX_EOF) {
		struct ptx_token *t = tok(P);
		bool is_version = ptx_tok_is(t, ".version");
		if (!seen_version && !is_version && !ptx_tok_is(t, ".file") && !ptx_tok_is(t, ".loc"))
			return ptxp_error(P, t, "a PTX module starts with .version (then .target)");
		if (seen_version && !seen_target && !ptx_tok_is(t, ".target") && !ptx_tok_is(t, ".file") &&
		    !ptx_tok_is(t, ".loc"))
			return ptxp_error(P, t, ".target must follow .version");
		if (is_version && seen_version)
			return ptxp_error(P, t, ".version given twice");
		if (is_version || ptx_tok_is(t, ".address_size")) {
			seen_version = true;
			next(P);
			if (tok(P)->kind != PTX_INT && tok(P)->kind != PTX_FLOAT)
				return ptxp_error(P, tok(P), "expected a number");
			next(P);
		} else if (ptx_tok_is(t, ".target")) {
			seen_target = true;
			next(P);
			for (;;) {
				if (tok(P)->kind != PTX_ID)
					return ptxp_error(P, tok(P), "expected a target name (sm_75, ...)");
				next(P);
				if (!ptx_tok_punct(tok(P), ','))
					break;
				next(P);
			}
		} else if (ptx_tok_is(t, ".file") || ptx_tok_is(t, ".loc")) {
			ptx_lex_skip_line(&P->lx);
		} else if (ptx_tok_is(t, ".pragma")) {
			next(P);
			if (tok(P)->kind != PTX_STR)
				return ptxp_error(P, tok(P), "expected a string after .pragma");
			next(P);
			if (ptxp_expect_punct(P, ';'))
				return P->err->code;
		} else if (ptx_tok_is(t, ".visible") || ptx_tok_is(t, ".weak") ||
			   ptx_tok_is(t, ".common")) {
			next(P);
			continue;
		} else if (ptx_tok_is(t, ".extern")) {
			is_extern = true;
			next(P);
			continue;
		} else if (ptx_tok_is(t, ".entry") || ptx_tok_is(t, ".func")) {
			if (parse_func(P, ptx_tok_is(t, ".entry")))
				return P->err->code;
		} else if (ptx_tok_is(t, ".global") || ptx_tok_is(t, ".const") ||
			   ptx_tok_is(t, ".shared")) {
			P->cur_func = -1;
			if (parse_var(P, is_extern))
				return P->err->code;
		} else {
			return ptxp_error(P, t, "expected a directive (.version, .target, .entry, .func, .global, ...)");
		}
		is_extern = false;
	}
	return 0;
}

static void split_lines(struct fe_module *m, const char *text)
{
	uint32_t n = 1;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	m->lines = calloc(n, sizeof *m->lines);
	if (!m->lines)
		abort();
	const char *p = text;
	for (uint32_t i = 0; i < n; i++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
			len--;
		m->lines[i] = malloc(len + 1);
		if (!m->lines[i])
			abort();
		/* runs of blanks become one space: reports show "ld.global.f32 %f1, [%rd8];" */
		size_t o = 0;
		for (size_t j = 0; j < len; j++) {
			bool blank = p[j] == ' ' || p[j] == '\t';
			if (blank && o && m->lines[i][o - 1] == ' ')
				continue;
			m->lines[i][o++] = blank ? ' ' : p[j];
		}
		m->lines[i][o] = 0;
		p = e ? e + 1 : p + len;
	}
	m->n_lines = n;
}

int fe_module_parse_string(const char *name, const char *text, struct fe_module **out,
			   struct sim_error *err)
{
	struct fe_module *m = calloc(1, sizeof *m);
	if (!m)
		return sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, NULL, "out of memory");
	m->path = strdup(name);
	m->text_bytes = strlen(text);
	m->text = malloc(m->text_bytes + 1);
	if (!m->path || !m->text) {
		fe_module_free(m);
		return sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, NULL, "out of memory");
	}
	memcpy(m->text, text, m->text_bytes + 1);
	split_lines(m, text);
	struct sim_error local;
	if (!err) {
		sim_error_clear(&local);
		err = &local;
	}
	struct parser P = {.m = m, .file = name, .err = err, .cur_func = -1};
	ptx_lex_init(&P.lx, text);
	int rc = parse_module(&P);
	for (uint32_t i = 0; i < P.n_rr; i++)
		free(P.rr[i].prefix);
	free(P.rr);
	if (!rc && m->n_funcs == 0)
		rc = sim_error_set(err, SIM_ERR_INPUT, name, 0, 0, NULL, "no .entry in PTX module");
	if (!rc)
		rc = fe_module_link(m, err);
	if (rc) {
		fe_module_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int fe_module_load(const char *path, struct fe_module **out, struct sim_error *err)
{
	/* Before opening: a FIFO would block in fopen. */
	int rc0 = cfg_check_regular_file(path, "PTX file", NULL, 0, SIM_ERR_IO, err);
	if (rc0)
		return rc0;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot open PTX file");
	if (fseek(fp, 0, SEEK_END)) {
		fclose(fp);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read PTX file");
	}
	long sz = ftell(fp);
	rewind(fp);
	/* A directory opens and "seeks" to LONG_MAX on Linux: refuse sizes no PTX file has
	 * rather than asking malloc for them (found by fuzz_workload). */
	if (sz < 0 || sz > (1L << 30)) {
		fclose(fp);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL,
				     "not a regular PTX file (or larger than 1 GiB)");
	}
	char *text = malloc((size_t)sz + 1);
	if (!text || fread(text, 1, (size_t)sz, fp) != (size_t)sz) {
		free(text);
		fclose(fp);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read PTX file");
	}
	fclose(fp);
	text[sz] = 0;
	int rc = fe_module_parse_string(path, text, out, err);
	free(text);
	return rc;
}
