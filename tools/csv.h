/* SPDX-License-Identifier: MIT */
/* A small reader for the sweep's results.csv (numeric cells and quoted text), for compare/report. */
#ifndef WARPSIM_CSV_H
#define WARPSIM_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "../engine/sim_error.h"

/* A loaded table: every row has exactly n_cols cells (a row with more or fewer is refused), so
 * cell[r][c] is valid for r < n_rows, c < n_cols. No limit on rows or columns. */
struct csv_table {
	char **hdr;                 /* n_cols names */
	int n_cols;
	char ***cell;               /* n_rows x n_cols; rows: config, workload, variant, metrics... */
	int n_rows;
	char *buf;                  /* owned text the cells point into */
	char **cell_store;          /* owned: the cells of every row, n_rows x n_cols */
	int *run_index;             /* owned by csv_check_runs: open-addressed rows by run, -1 empty */
	size_t run_slots;           /* a power of two, at least twice n_rows; 0 before the check */
};

/* Read path into t (caller owns t; free with csv_free, also after a failure). A malformed line
 * (a quoted cell not closed, text after a closing quote, a cell count other than the header's)
 * is an error naming the file and line. */
int csv_load(const char *path, struct csv_table *t, struct sim_error *err);
void csv_free(struct csv_table *t);
/* Column index of name, -1 if absent. */
int csv_col(const struct csv_table *t, const char *name);
/* Numeric value of a cell; NaN when the column is absent or the cell empty. */
double csv_num(const struct csv_table *t, int row, int col);

/* A sweep's results table: the header starts config,workload,variant; each row names its run
 * with sweep names (letters, digits, '.', '_', '-'; not "." or "..": they name directories) and
 * no run appears twice. Builds the index csv_find_run reads. path names the file in errors. */
int csv_check_runs(struct csv_table *t, const char *path, struct sim_error *err);
/* A sweep name: letters, digits, '.', '_', '-', not "." or ".." (it names a directory of the
 * sweep; one rule for the spec's names and for a table's). */
bool csv_sweep_name(const char *s);
/* Row of the run (config, workload, variant), -1 if absent; after csv_check_runs. */
int csv_find_run(const struct csv_table *t, const char *config, const char *workload, const char *variant);

/* Write one cell, quoted when it holds a comma or a quote (newlines become spaces). */
void csv_write_cell(FILE *f, const char *s);

#endif
