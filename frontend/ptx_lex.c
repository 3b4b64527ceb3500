/* SPDX-License-Identifier: MIT */
/* PTX tokenizer: identifiers with dots (opcodes, %tid.x), 0f/0d float bit patterns, comments. */
#include "ptx_lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ptx_lex_init(struct ptx_lexer *lx, const char *text)
{
	memset(lx, 0, sizeof *lx);
	lx->p = text;
	lx->line = 1;
	lx->line_start = text;
	ptx_lex_next(lx);
}

static bool id_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool id_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '.';
}

static void skip_space(struct ptx_lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == '\n') {
			lx->p++;
			lx->line++;
			lx->line_start = lx->p;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->p++;
		} else if (c == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p[1] == '*') {
			lx->p += 2;
			while (*lx->p && !(*lx->p == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n') {
					lx->line++;
					lx->line_start = lx->p + 1;
				}
				lx->p++;
			}
			if (*lx->p)
				lx->p += 2;
		} else {
			return;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void lex_number(struct ptx_lexer *lx, struct ptx_token *t)
{
	const char *p = lx->p;
	if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
		int nd = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
		uint64_t bits = 0;
		int i;
		for (i = 0; i < nd && hexval(p[2 + i]) >= 0; i++)
			bits = bits << 4 | (uint64_t)hexval(p[2 + i]);
		if (i == nd && !id_char(p[2 + nd])) {
			t->kind = PTX_FLOAT;
			t->fwidth = (uint8_t)(nd * 4);
			t->ival = (int64_t)bits;
			lx->p = p + 2 + nd;
			return;
		}
		t->kind = PTX_BAD;
		lx->p = p + 2;
		return;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		char *end;
		errno = 0;
		t->ival = (int64_t)strtoull(p + 2, &end, 16);
		/* beyond 64 bits strtoull saturates: a different number, so not a literal at all */
		t->kind = end == p + 2 || errno == ERANGE ? PTX_BAD : PTX_INT;
		lx->p = end;
	} else {
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '.' || *q == 'e' || *q == 'E') {
			char *end;
			t->fval = strtod(p, &end);
			t->kind = PTX_FLOAT;
			t->fwidth = 0;
			lx->p = end;
		} else {
			char *end;
			/* a leading 0 means octal in PTX, as in C */
			errno = 0;
			t->ival = (int64_t)strtoull(p, &end, (p[0] == '0' && q > p + 1) ? 8 : 10);
			t->kind = errno == ERANGE ? PTX_BAD : PTX_INT;
			lx->p = end;
		}
	}
	if (*lx->p == 'U' || *lx->p == 'u')
		lx->p++;
	if (id_char((unsigned char)*lx->p))
		t->kind = PTX_BAD;
}

void ptx_lex_next(struct ptx_lexer *lx)
{
	skip_space(lx);
	struct ptx_token *t = &lx->tok;
	memset(t, 0, sizeof *t);
	t->s = lx->p;
	t->line = lx->line;
	t->col = (uint32_t)(lx->p - lx->line_start) + 1;
	char c = *lx->p;
	if (!c) {
		t->kind = PTX_EOF;
	} else if (isdigit((unsigned char)c)) {
		lex_number(lx, t);
	} else if (id_start((unsigned char)c)) {
		lx->p++;
		/* "::" belongs to the name (ld.shared::cta, L2::cache_hint); a single ':' ends it */
		while (id_char((unsigned char)*lx->p) || (lx->p[0] == ':' && lx->p[1] == ':'))
			lx->p += (lx->p[0] == ':') ? 2 : 1;
		t->kind = PTX_ID;
	} else if (c == '"') {
		lx->p++;
		while (*lx->p && *lx->p != '"' && *lx->p != '\n')
			lx->p++;
		t->kind = *lx->p == '"' ? PTX_STR : PTX_BAD;
		if (*lx->p == '"')
			lx->p++;
	} else if (strchr(",;:[](){}<>+-!@|=", c)) {
		lx->p++;
		t->kind = PTX_PUNCT;
		t->ch = c;
	} else {
		lx->p++;
		t->kind = PTX_BAD;
	}
	t->len = (uint32_t)(lx->p - t->s);
}

void ptx_lex_skip_line(struct ptx_lexer *lx)
{
	uint32_t line = lx->tok.line;
	while (lx->tok.kind != PTX_EOF && lx->tok.line == line)
		ptx_lex_next(lx);
}

bool ptx_tok_is(const struct ptx_token *t, const char *s)
{
	return t->kind == PTX_ID && strlen(s) == t->len && !memcmp(t->s, s, t->len);
}

bool ptx_tok_punct(const struct ptx_token *t, char c)
{
	return t->kind == PTX_PUNCT && t->ch == c;
}
