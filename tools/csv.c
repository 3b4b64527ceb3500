/* SPDX-License-Identifier: MIT */
/* results.csv reader: the whole file in one buffer, cells split in place. */
#include "csv.h"

#include "../engine/cfg_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cells are plain or RFC 4180 quoted ("a,b" and "say ""x"""), unquoted in place; a quoted cell
 * holds no newline (the writer, csv_write_cell, never puts one there). */
static int split(char *line, char **out, int max)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max;) {
		if (*p == '"') {
			char *w = p, *r = p + 1;
			out[n++] = w;
			for (; *r; r++) {
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			if (*r == '"')
				r++;
			bool more = *r == ',';
			*w = '\0';
			if (!more)
				break;
			p = r + 1;
			continue;
		}
		out[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

void csv_write_cell(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\n\r")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

int csv_load(const char *path, struct csv_table *t, struct sim_error *err)
{
	memset(t, 0, sizeof *t);
	int rc0 = cfg_check_regular_file(path, "results table", NULL, 0, SIM_ERR_IO, err);
	if (rc0)
		return rc0;
	FILE *f = fopen(path, "r");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read results");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	t->buf = malloc((size_t)n + 1);
	if (!t->buf || fread(t->buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read results");
	}
	fclose(f);
	t->buf[n] = '\0';
	char *save = NULL;
	char *line = strtok_r(t->buf, "\n", &save);
	if (!line)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "empty results");
	t->n_cols = split(line, t->hdr, CSV_MAX_COLS);
	while ((line = strtok_r(NULL, "\n", &save)) && t->n_rows < CSV_MAX_ROWS) {
		int k = split(line, t->cell[t->n_rows], CSV_MAX_COLS);
		for (; k < t->n_cols; k++)
			t->cell[t->n_rows][k] = "";
		t->n_rows++;
	}
	return 0;
}

void csv_free(struct csv_table *t)
{
	free(t->buf);
	t->buf = NULL;
}

int csv_col(const struct csv_table *t, const char *name)
{
	for (int i = 0; i < t->n_cols; i++)
		if (!strcmp(t->hdr[i], name))
			return i;
	return -1;
}

double csv_num(const struct csv_table *t, int r, int c)
{
	return c < 0 || !t->cell[r][c] || !t->cell[r][c][0] ? NAN : atof(t->cell[r][c]);
}
