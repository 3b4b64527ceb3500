/* SPDX-License-Identifier: MIT */
/* A hand-made results table for the report tests (tests/tools): written to a temporary file,
 * loaded and indexed as `warpsim report` loads results.csv. Static: each test file has its own copy. */
#ifndef WARPSIM_TESTS_TOOLS_CSV_FIXTURE_H
#define WARPSIM_TESTS_TOOLS_CSV_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tools/csv.h"

/* text into path (a mkstemp template, filled in), loaded and checked; free with csv_fixture_unload. */
static struct csv_table *csv_fixture_load(char *path, const char *text)
{
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	struct csv_table *t = calloc(1, sizeof *t);
	struct sim_error err = {0};
	cr_assert_eq(csv_load(path, t, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_check_runs(t, path, &err), 0, "%s", err.msg);
	return t;
}

static void csv_fixture_unload(struct csv_table *t, const char *path)
{
	csv_free(t);
	free(t);
	unlink(path);
}

#endif
