/* SPDX-License-Identifier: MIT */
/* Tests for tools/csv.c: text cells with commas and quotes survive a write and a read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tools/csv.h"

Test(csv, quoted_cells_round_trip)
{
	char path[] = "/tmp/ws_csv_XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "a,b,c\n1.5,");
	csv_write_cell(f, "run -s 'x=1,2' say \"hi\"");
	fputc(',', f);
	csv_write_cell(f, "plain");
	fputc('\n', f);
	fclose(f);
	struct csv_table *t = malloc(sizeof *t);
	struct sim_error err = {0};
	cr_assert_eq(csv_load(path, t, &err), 0);
	cr_assert_eq(t->n_rows, 1);
	cr_expect_eq(csv_num(t, 0, 0), 1.5);
	cr_expect_str_eq(t->cell[0][1], "run -s 'x=1,2' say \"hi\"");
	cr_expect_str_eq(t->cell[0][2], "plain");
	csv_free(t);
	free(t);
	unlink(path);
}
