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

static void try_load(const char *text, int *ok, int *bad)
{
	struct fe_module *m = NULL;
	struct sim_error err;
	sim_error_clear(&err);
	int rc = fe_module_parse_string("cut.ptx", text, &m, &err);
	if (rc == 0) {
		cr_assert_not_null(m);
		fe_module_destroy(m);
		(*ok)++;
		return;
	}
	cr_assert_null(m);
	cr_assert_eq(rc, SIM_ERR_INPUT, "rc %d: %s", rc, err.msg);
	/* "no .entry" has no position; every other error names a line */
	cr_assert(err.line > 0 || strstr(err.msg, "no .entry"), "no line in '%s'", err.msg);
	(*bad)++;
}

Test(robust, truncated_ptx_never_crashes)
{
	size_t n;
	char *text = slurp("tests/frontend/data/calls.ptx", &n);
	char *cut = malloc(n + 1);
	int ok = 0, bad = 0;
	/* every 7th prefix length (the file is ~2.5 KB: ~350 loads) */
	for (size_t len = 0; len < n; len += 7) {
		memcpy(cut, text, len);
		cut[len] = 0;
		try_load(cut, &ok, &bad);
	}
	cr_assert_gt(bad, 0);
	free(cut);
	free(text);
}

Test(robust, deleted_spans_never_crash)
{
	size_t n;
	char *text = slurp("tests/frontend/data/misc.ptx", &n);
	char *cut = malloc(n + 1);
	int ok = 0, bad = 0;
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
		try_load(cut, &ok, &bad);
	}
	cr_assert_gt(bad, 0);
	free(cut);
	free(text);
}
