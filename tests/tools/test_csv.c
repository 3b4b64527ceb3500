/* SPDX-License-Identifier: MIT */
/* Tests for tools/csv.c: text cells with commas and quotes survive a write and a read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
}

/* No fixed limit: 3,000 rows of 300 columns load whole (the reader once kept 2,048 x 256 and
 * dropped the rest without a word). */
Test(csv, a_table_past_the_old_limits_loads_whole)
{
	char path[] = "/tmp/ws_csv_XXXXXX";
	size_t cap = 8u << 20, len = 0;
	char *text = malloc(cap);
	cr_assert_not_null(text);
	for (int c = 0; c < 300; c++)
		len += (size_t)snprintf(text + len, cap - len, "%sc%d", c ? "," : "", c);
	text[len++] = '\n';
	for (int r = 0; r < 3000; r++) {
		for (int c = 0; c < 300; c++)
			len += (size_t)snprintf(text + len, cap - len, "%s%d", c ? "," : "", r * 1000 + c);
		text[len++] = '\n';
	}
	text[len] = '\0';
	write_tmp(path, text);
	free(text);
	struct csv_table t;
	struct sim_error err = {0};
	cr_assert_eq(csv_load(path, &t, &err), 0, "%s", err.msg);
	cr_expect_eq(t.n_rows, 3000);
	cr_expect_eq(t.n_cols, 300);
	cr_expect_eq(csv_num(&t, 2999, 299), 2999299.0);
	cr_expect_eq(csv_col(&t, "c299"), 299);
	csv_free(&t);
	unlink(path);
}

Test(csv, runs_are_found_by_their_three_names_and_checked)
{
	char path[] = "/tmp/ws_csv_XXXXXX";
	write_tmp(path, "config,workload,variant,gpu.ipc\nm,ab,c,1\nm,a,bc,2\nm2,ab,c,3\n");
	struct csv_table t;
	struct sim_error err = {0};
	cr_assert_eq(csv_load(path, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_check_runs(&t, path, &err), 0, "%s", err.msg);
	cr_expect_eq(csv_find_run(&t, "m", "ab", "c"), 0);
	cr_expect_eq(csv_find_run(&t, "m", "a", "bc"), 1);
	cr_expect_eq(csv_find_run(&t, "m2", "ab", "c"), 2);
	cr_expect_eq(csv_find_run(&t, "m", "abc", ""), -1);
	csv_free(&t);
	unlink(path);
}

Test(csv, malformed_lines_are_errors_with_their_line)
{
	static const struct {
		const char *text;
		int line;
		const char *want;
	} cases[] = {
		{"a,b\n1,2,3\n", 2, "3 cells where the header has 2"},
		{"a,b\n1\n", 2, "1 cells where the header has 2"},
		{"a,b\n1,\"2\n", 2, "a quoted cell is not closed"},
		{"a,b\n1,\"2\"3\n", 2, "text after a quoted cell's closing quote"},
		{"a,b\n1,2\n\n3,4\n", 3, "blank line inside the table"},
		{"", 0, "empty results"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[] = "/tmp/ws_csv_XXXXXX";
		write_tmp(path, cases[i].text);
		struct csv_table t;
		struct sim_error err = {0};
		cr_expect_neq(csv_load(path, &t, &err), 0, "case %zu", i);
		cr_expect_eq(err.line, cases[i].line, "case %zu: %s", i, err.msg);
		cr_expect(strstr(err.msg, cases[i].want), "case %zu: %s", i, err.msg);
		csv_free(&t);
		unlink(path);
	}
	/* trailing blank lines and CRLF endings are fine */
	char path[] = "/tmp/ws_csv_XXXXXX";
	write_tmp(path, "a,b\r\n1,2\r\n\r\n\n");
	struct csv_table t;
	struct sim_error err = {0};
	cr_expect_eq(csv_load(path, &t, &err), 0, "%s", err.msg);
	cr_expect_eq(t.n_rows, 1);
	cr_expect_str_eq(t.cell[0][1], "2");
	csv_free(&t);
	unlink(path);
}

/* The names a sweep spec may give and a results table may carry: one rule (a name is a
 * directory of the sweep, so . and .. would leave it). */
Test(csv, sweep_names)
{
	cr_expect(csv_sweep_name("owl-28") && csv_sweep_name("a.b_c") && csv_sweep_name("..a"));
	cr_expect(!csv_sweep_name("") && !csv_sweep_name(".") && !csv_sweep_name(".."));
	cr_expect(!csv_sweep_name("a/b") && !csv_sweep_name("a b") && !csv_sweep_name("x'y"));
}
