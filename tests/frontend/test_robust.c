/* SPDX-License-Identifier: MIT */
/* frontend/fe.h loading of damaged PTX: every truncation and many deletions of real nvcc
 * output either load or fail with SIM_ERR_INPUT naming a line, never crash (run under ASan). */
#include <stdio.h>
#include <stdlib.h>

#include "fe_test.h"

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)sz + 1);
	cr_assert_eq(fread(buf, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	buf[sz] = 0;
	*n = (size_t)sz;
	return buf;
}

/* Load text; true when it loaded. */
static bool try_load(const char *text, int *ok, int *bad)
{
	struct fe_module *m = NULL;
	struct sim_error err;
	sim_error_clear(&err);
	int rc = fe_module_parse_string("cut.ptx", text, &m, &err);
	if (rc == 0) {
		cr_assert_not_null(m);
		fe_module_destroy(m);
		(*ok)++;
		return true;
	}
	cr_assert_null(m);
	cr_assert_eq(rc, SIM_ERR_INPUT, "rc %d: %s", rc, err.msg);
	/* "no .entry" has no position; every other error names a line */
	cr_assert(err.line > 0 || strstr(err.msg, "no .entry"), "no line in '%s'", err.msg);
	(*bad)++;
	return false;
}

Test(robust, truncated_ptx_never_crashes)
{
	size_t n;
	char *text = slurp("tests/frontend/data/calls.ptx", &n);
	char *cut = malloc(n + 1);
	int ok = 0, bad = 0;
	/* The kernel is the file's last function: a prefix loads exactly when it keeps the
	 * kernel's closing brace (the file's last '}'), past which only blank lines follow.
	 * Shorter ones cut a function open, or hold no .entry at all. */
	size_t last_brace = (size_t)(strrchr(text, '}') - text);
	cr_assert_eq(strspn(text + last_brace + 1, "\n"), n - last_brace - 1);
	/* every 7th prefix length (the file is ~2.3 KB: ~330 loads) */
	int want_bad = 0;
	for (size_t len = 0; len < n; len += 7) {
		memcpy(cut, text, len);
		cut[len] = 0;
		cr_assert_eq(try_load(cut, &ok, &bad), len > last_brace, "prefix of %zu bytes", len);
		want_bad += len <= last_brace;
	}
	cr_assert_eq(bad, want_bad);
	cr_assert_eq(ok + bad, (int)((n + 6) / 7));
	free(cut);
	free(text);
}

Test(robust, deleted_spans_never_crash)
{
	size_t n;
	char *text = slurp("tests/frontend/data/misc.ptx", &n);
	char *cut = malloc(n + 1);
	int ok = 0, bad = 0;
	/* Bytes inside a // comment (after the slashes, before the newline): deleting only those
	 * leaves the module as it was. */
	bool *in_comment = calloc(n, sizeof *in_comment);
	cr_assert_not_null(in_comment);
	for (const char *c = strstr(text, "//"); c; c = strstr(c, "//")) {
		const char *end = strchr(c, '\n');
		size_t e = end ? (size_t)(end - text) : n;
		for (size_t k = (size_t)(c - text) + 2; k < e; k++)
			in_comment[k] = true;
		c = text + e;
	}
	int in_comments = 0;
	/* delete 1..8 bytes at pseudo-random places (fixed LCG: the run is reproducible) */
	uint32_t x = 12345;
	for (int i = 0; i < 400; i++) {
		x = x * 1103515245u + 12345u;
		size_t at = (x >> 8) % n, del = 1 + (x >> 4) % 8;
		if (at + del > n)
			del = n - at;
		memcpy(cut, text, at);
		memcpy(cut + at, text + at + del, n - at - del);
		cut[n - del] = 0;
		bool comment = true;
		for (size_t k = at; k < at + del; k++)
			comment = comment && in_comment[k];
		bool loaded = try_load(cut, &ok, &bad);
		if (comment) {
			cr_assert(loaded, "deleting %zu comment bytes at %zu broke the module", del, at);
			in_comments++;
		}
	}
	cr_assert_eq(ok + bad, 400);
	cr_assert_eq(in_comments, 15); /* of these 400 draws (the header comment is long) */
	/* Which other deletions still load is not derivable by hand (a deleted digit may leave
	 * another declared register, a deleted space inside an operand list changes nothing), so
	 * only that most fail, which a parser that accepted anything would not give. */
	cr_assert_gt(bad, 200);
	free(in_comment);
	free(cut);
	free(text);
}
