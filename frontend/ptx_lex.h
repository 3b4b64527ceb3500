/* SPDX-License-Identifier: MIT */
/* Private to frontend/: PTX tokenizer (hand-written; tokens carry line and column). */
#ifndef WARPSIM_PTX_LEX_H
#define WARPSIM_PTX_LEX_H

#include <stdbool.h>
#include <stdint.h>

enum ptx_tok {
	PTX_EOF, PTX_ID,     /* names, directives (.reg), opcodes (ld.global.f32), %regs, $labels */
	PTX_INT, PTX_FLOAT,  /* PTX_FLOAT: decimal float, or 0f/0d hex (bits in ival, fwidth 32/64) */
	PTX_STR, PTX_PUNCT, PTX_BAD
};

struct ptx_token {
	enum ptx_tok kind;
	const char *s;      /* points into the source; not NUL-terminated */
	uint32_t len;
	uint32_t line, col; /* 1-based */
	int64_t ival;       /* PTX_INT value; 0f/0d bits */
	double fval;        /* decimal PTX_FLOAT value */
	uint8_t fwidth;     /* 0 decimal, 32 for 0f, 64 for 0d */
	char ch;            /* PTX_PUNCT */
};

struct ptx_lexer {
	const char *p;
	uint32_t line;
	const char *line_start;
	struct ptx_token tok; /* current token */
};

void ptx_lex_init(struct ptx_lexer *lx, const char *text);
/* Advance to the next token (lx->tok). */
void ptx_lex_next(struct ptx_lexer *lx);
/* Skip the rest of the current token's line (for .loc/.file). */
void ptx_lex_skip_line(struct ptx_lexer *lx);
bool ptx_tok_is(const struct ptx_token *t, const char *s);
bool ptx_tok_punct(const struct ptx_token *t, char c);

#endif
