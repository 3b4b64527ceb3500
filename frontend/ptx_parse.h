/* SPDX-License-Identifier: MIT */
/* Private to frontend/: parser state and helpers shared by ptx_parse.c (module, variables,
 * functions) and ptx_inst.c (operands, instructions). */
#ifndef WARPSIM_PTX_PARSE_H
#define WARPSIM_PTX_PARSE_H

#include <stdlib.h>
#include <string.h>

#include "fe_int.h"
#include "ptx_lex.h"

/* Register names of a function: "%r<123>" is kept as one range so lookups stay cheap. */
struct reg_range { char *prefix; uint32_t first_id, count; bool ranged; };

struct parser {
	struct ptx_lexer lx;
	struct fe_module *m;
	const char *file;
	struct sim_error *err;
	int32_t cur_func;
	struct reg_range *rr;
	uint32_t n_rr, cap_rr;
	uint32_t rr_scope;   /* rr[rr_scope..n_rr) were declared in the innermost { } block */
	uint32_t block_depth;/* { } blocks open inside the current function body */
};

/* Nesting of { } inside a function body: parse_block recurses, so a bound keeps a hostile file
 * from overflowing the stack. nvcc nests one level per inlined scope, a few deep. */
#define PTX_MAX_BLOCK_DEPTH 256

/* Grow a realloc'd array to hold element n (load time only). */
#define GROW(arr, n, cap)                                                          \
	do {                                                                       \
		if ((n) >= (cap)) {                                                \
			uint32_t nc_ = (cap) ? (cap) * 2 : 16;                     \
			void *np_ = realloc((arr), (size_t)nc_ * sizeof *(arr));   \
			if (!np_)                                                  \
				abort(); /* out of memory at load: nothing sensible to do */ \
			(arr) = np_;                                               \
			memset((arr) + (cap), 0, (size_t)(nc_ - (cap)) * sizeof *(arr)); \
			(cap) = nc_;                                               \
		}                                                                  \
	} while (0)

static inline struct ptx_token *tok(struct parser *P) { return &P->lx.tok; }
static inline void next(struct parser *P) { ptx_lex_next(&P->lx); }

/* SIM_ERR_INPUT at token t: "file:line:col: <msg> (got 'tok')"; returns the code. */
int ptxp_error(struct parser *P, const struct ptx_token *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ptxp_expect_punct(struct parser *P, char c);
int ptxp_expect_int(struct parser *P, int64_t *v);
char *ptxp_strdup(const struct ptx_token *t);
/* Symbol visible in the current function (its own, then module scope), -1 if none. */
int32_t ptxp_sym_find(const struct parser *P, const char *s, uint32_t n);
/* Register id of "%r12" in the current function, -1 if undeclared. */
int32_t ptxp_reg_find(const struct parser *P, const char *s, uint32_t n);
/* Label index in the current function (created, undefined, on first use). */
int ptxp_label_ref(struct parser *P, const struct ptx_token *t);
struct fe_inst *ptxp_add_inst(struct fe_func *f);
/* One instruction (guard, opcode, operands, ';') appended to the current function. */
int ptxp_parse_instruction(struct parser *P);

#endif
