/* SPDX-License-Identifier: MIT */
/* Helpers shared by the frontend tests: load PTX, place buffers, launch, read back. */
#ifndef WARPSIM_TESTS_FE_TEST_H
#define WARPSIM_TESTS_FE_TEST_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "frontend/fe.h"

static inline struct fe_module *fe_t_load_file(const char *path)
{
	struct fe_module *m = NULL;
	struct sim_error err;
	sim_error_clear(&err);
	int rc = fe_module_load(path, &m, &err);
	char buf[1024];
	sim_error_format(&err, buf, sizeof buf);
	cr_assert_eq(rc, 0, "load %s: %s", path, buf);
	return m;
}

static inline struct fe_module *fe_t_load_str(const char *text)
{
	struct fe_module *m = NULL;
	struct sim_error err;
	sim_error_clear(&err);
	int rc = fe_module_parse_string("t.ptx", text, &m, &err);
	char buf[1024];
	sim_error_format(&err, buf, sizeof buf);
	cr_assert_eq(rc, 0, "parse: %s", buf);
	return m;
}

/* Parse text expecting failure; returns the formatted message. */
static inline void fe_t_parse_fail(const char *text, char *msg, size_t n, struct sim_error *err)
{
	struct fe_module *m = NULL;
	sim_error_clear(err);
	int rc = fe_module_parse_string("bad.ptx", text, &m, err);
	cr_assert_neq(rc, 0, "expected a parse error");
	cr_assert_null(m);
	sim_error_format(err, msg, n);
}

/* Launch kernel with parameters given as 64-bit values (each truncated to the declared
 * parameter size). Returns fe_launch_run_functional's code; err filled. */
static inline int fe_t_launch(const struct fe_module *m, struct fe_memory *mem, const char *kernel,
			      uint32_t gx, uint32_t bx, uint32_t dyn, const uint64_t *args,
			      uint32_t n_args, uint64_t *winsts, struct sim_error *err)
{
	uint8_t pbuf[4096];
	memset(pbuf, 0, sizeof pbuf);
	uint32_t np = 0, end = 0;
	cr_assert_eq(fe_kernel_params(m, kernel, &np, err), 0);
	cr_assert_eq(np, n_args, "kernel %s has %u params", kernel, np);
	for (uint32_t i = 0; i < np; i++) {
		uint32_t off, size, align;
		cr_assert_eq(fe_kernel_param(m, kernel, i, &off, &size, &align, err), 0);
		memcpy(pbuf + off, &args[i], size > 8 ? 8 : size);
		if (off + size > end)
			end = off + size;
	}
	uint32_t grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, kernel, grid, block, dyn, pbuf, end, 0, err);
	if (!l)
		return err->code;
	uint64_t wi = 0, ti = 0;
	int rc = fe_launch_run_functional(l, &wi, &ti, err);
	if (winsts)
		*winsts = wi;
	fe_launch_destroy(l);
	return rc;
}

static inline uint64_t fe_t_buf(struct fe_memory *mem, const void *init, uint64_t bytes)
{
	uint64_t a = fe_mem_alloc(mem, bytes);
	cr_assert_neq(a, 0);
	struct sim_error err;
	if (init)
		cr_assert_eq(fe_mem_write(mem, a, init, bytes, &err), 0);
	return a;
}

static inline void fe_t_read(struct fe_memory *mem, uint64_t a, void *dst, uint64_t bytes)
{
	struct sim_error err;
	cr_assert_eq(fe_mem_read(mem, a, dst, bytes, &err), 0);
}

#endif
