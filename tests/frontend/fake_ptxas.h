/* SPDX-License-Identifier: MIT */
/* A fake ptxas for tests: a shell script in a fresh directory that logs its arguments, keeps
 * its input and prints a fixed report, so tests need no CUDA toolkit and can count its runs. */
#ifndef WARPSIM_TESTS_FAKE_PTXAS_H
#define WARPSIM_TESTS_FAKE_PTXAS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "frontend/fe_ptxas.h"

struct fake_ptxas {
	char dir[64], ptxas[128], cache[128];
	struct fe_ptxas_opts o;
};

static inline void fake_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* A ptxas script in a fresh directory: appends its arguments to dir/calls, keeps its input as
 * dir/input.ptx, prints report on stderr and exits with status. */
static inline void fake_ptxas_init(struct fake_ptxas *k, const char *report, int status)
{
	snprintf(k->dir, sizeof k->dir, "/tmp/ws_ptxas_XXXXXX");
	cr_assert_not_null(mkdtemp(k->dir));
	snprintf(k->ptxas, sizeof k->ptxas, "%s/ptxas", k->dir);
	snprintf(k->cache, sizeof k->cache, "%s/cache", k->dir);
	char path[160], script[512];
	snprintf(path, sizeof path, "%s/report", k->dir);
	fake_write_file(path, report);
	snprintf(script, sizeof script,
		 "#!/bin/sh\nd=$(dirname \"$0\")\necho \"$*\" >> \"$d/calls\"\ncp \"$5\" \"$d/input.ptx\"\n"
		 "cat \"$d/report\" >&2\nexit %d\n", status);
	fake_write_file(k->ptxas, script);
	cr_assert_eq(chmod(k->ptxas, 0755), 0);
	k->o = (struct fe_ptxas_opts){.ptxas = k->ptxas, .cache_dir = k->cache};
}

static inline int fake_ptxas_calls(const struct fake_ptxas *k)
{
	char path[160], line[512];
	snprintf(path, sizeof path, "%s/calls", k->dir);
	FILE *f = fopen(path, "r");
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n++;
	if (f)
		fclose(f);
	return n;
}

static inline void fake_ptxas_fini(struct fake_ptxas *k)
{
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", k->dir);
	cr_expect_eq(system(cmd), 0);
}

#endif
