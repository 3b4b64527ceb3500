/* SPDX-License-Identifier: MIT */
/* A small reader for the sweep's results.csv (numeric cells and quoted text), for compare/report. */
#ifndef WARPSIM_CSV_H
#define WARPSIM_CSV_H

#include <stdio.h>

#include "../engine/sim_error.h"

#define CSV_MAX_ROWS 2048
#define CSV_MAX_COLS 256

struct csv_table {
	char *hdr[CSV_MAX_COLS];
	int n_cols;
	char *cell[CSV_MAX_ROWS][CSV_MAX_COLS];  /* rows: config, workload, variant, metrics... */
	int n_rows;
	char *buf;                                /* owned text the cells point into */
};

/* Read path into t (caller owns t; free with csv_free). */
int csv_load(const char *path, struct csv_table *t, struct sim_error *err);
void csv_free(struct csv_table *t);
/* Column index of name, -1 if absent. */
int csv_col(const struct csv_table *t, const char *name);
/* Numeric value of a cell; NaN when the column is absent or the cell empty. */
double csv_num(const struct csv_table *t, int row, int col);

/* Write one cell, quoted when it holds a comma or a quote (newlines become spaces). */
void csv_write_cell(FILE *f, const char *s);

#endif
