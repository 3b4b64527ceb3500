/* SPDX-License-Identifier: MIT */
/* results.csv reader: the whole file in one buffer, cells split in place. */
#include "csv.h"

#include "../engine/cfg_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cells of every line, in order (rows are cut from it once the file is read, since it may
 * move while it grows). */
struct cells {
	char **v;
	size_t n, cap;
};

static bool cells_push(struct cells *c, char *s)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		char **nv = realloc(c->v, cap * sizeof *nv);
		if (!nv)
			return false;
		c->v = nv;
		c->cap = cap;
	}
	c->v[c->n++] = s;
	return true;
}

/* Split one line (its newline already cut) into c. Cells are plain or RFC 4180 quoted ("a,b" and
 * "say ""x"""), unquoted in place; a quoted cell holds no newline (the writer, csv_write_cell,
 * never puts one there). Returns the number of cells, or -1 with *why set. */
static long split(char *line, struct cells *c, const char **why)
{
	size_t n0 = c->n;
	line[strcspn(line, "\r")] = '\0';
	for (char *p = line;;) {
		if (*p == '"') {
			char *w = p, *r = p + 1;
			if (!cells_push(c, w))
				return *why = "out of memory", -1;
			for (; *r; r++) {
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			if (*r != '"')
				return *why = "a quoted cell is not closed", -1;
			r++;
			if (*r && *r != ',')
				return *why = "text after a quoted cell's closing quote", -1;
			*w = '\0';
			if (!*r)
				break;
			p = r + 1;
			continue;
		}
		if (!cells_push(c, p))
			return *why = "out of memory", -1;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return (long)(c->n - n0);
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
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read results: %s", strerror(errno));
	long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read results: %s", strerror(errno));
	}
	t->buf = malloc((size_t)n + 1);
	if (!t->buf || fread(t->buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read results");
	}
	fclose(f);
	t->buf[n] = '\0';
	if (memchr(t->buf, '\0', (size_t)n))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, NULL, "not a text table (a NUL byte)");
	struct cells c = {0};
	int rc = 0, line_no = 0, n_rows = 0;
	char *p = t->buf;
	while (*p && !rc) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line_no++;
		char *line = p;
		p = nl ? nl + 1 : p + strlen(p);
		if (!line[strspn(line, "\r")]) {
			/* blank: allowed only after the last row */
			if (*p && p[strspn(p, "\r\n")])
				rc = sim_error_set(err, SIM_ERR_INPUT, path, line_no, 0, NULL, "blank line inside the table");
			break;
		}
		const char *why = NULL;
		long k = split(line, &c, &why);
		if (k < 0) {
			rc = sim_error_set(err, why[0] == 'o' ? SIM_ERR_NOMEM : SIM_ERR_INPUT, path, line_no, 0, NULL, "%s", why);
		} else if (line_no == 1) {
			t->n_cols = (int)k;
		} else if (k != t->n_cols) {
			rc = sim_error_set(err, SIM_ERR_INPUT, path, line_no, 0, NULL,
					   "%ld cells where the header has %d", k, t->n_cols);
		} else if (n_rows == INT32_MAX) {
			rc = sim_error_set(err, SIM_ERR_INPUT, path, line_no, 0, NULL, "too many rows");
		} else {
			n_rows++;
		}
	}
	if (!rc && !line_no)
		rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, NULL, "empty results (no header)");
	t->cell_store = c.v;
	if (rc)
		return rc;
	t->hdr = c.v;
	t->cell = malloc(((size_t)n_rows + 1) * sizeof *t->cell);
	if (!t->cell)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	for (int r = 0; r < n_rows; r++)
		t->cell[r] = c.v + (size_t)(r + 1) * (size_t)t->n_cols;
	t->n_rows = n_rows;
	return 0;
}

void csv_free(struct csv_table *t)
{
	free(t->buf);
	free(t->cell_store);
	free(t->cell);
	free(t->run_index);
	memset(t, 0, sizeof *t);
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
	return c < 0 || !t->cell[r][c][0] ? NAN : atof(t->cell[r][c]);
}

/* FNV-1a over the three names, a separator between them so that ("ab","c") != ("a","bc"). */
static uint64_t run_hash(const char *cfg, const char *wl, const char *var)
{
	uint64_t h = UINT64_C(1469598103934665603);
	const char *part[3] = {cfg, wl, var};
	for (int i = 0; i < 3; i++) {
		for (const unsigned char *s = (const unsigned char *)part[i]; *s; s++)
			h = (h ^ *s) * UINT64_C(1099511628211);
		h = (h ^ 0xff) * UINT64_C(1099511628211);
	}
	return h;
}

bool csv_sweep_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(s);
}

int csv_find_run(const struct csv_table *t, const char *config, const char *workload, const char *variant)
{
	if (!t->run_slots)
		return -1;
	size_t mask = t->run_slots - 1;
	for (size_t i = run_hash(config, workload, variant) & mask;; i = (i + 1) & mask) {
		int r = t->run_index[i];
		if (r < 0)
			return -1;
		if (!strcmp(t->cell[r][0], config) && !strcmp(t->cell[r][1], workload) && !strcmp(t->cell[r][2], variant))
			return r;
	}
}

int csv_check_runs(struct csv_table *t, const char *path, struct sim_error *err)
{
	static const char *const key[3] = {"config", "workload", "variant"};
	for (int k = 0; k < 3; k++)
		if (k >= t->n_cols || strcmp(t->hdr[k], key[k]))
			return sim_error_set(err, SIM_ERR_INPUT, path, 1, 0, NULL,
					     "the header must start config,workload,variant (column %d is '%s', not '%s')",
					     k + 1, k < t->n_cols ? t->hdr[k] : "", key[k]);
	size_t slots = 16;
	while (slots < 2 * (size_t)t->n_rows)
		slots *= 2;
	free(t->run_index);
	t->run_index = malloc(slots * sizeof *t->run_index);
	if (!t->run_index)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	memset(t->run_index, 0xff, slots * sizeof *t->run_index);
	t->run_slots = slots;
	for (int r = 0; r < t->n_rows; r++) {
		/* line r + 2: the header is line 1 and blank lines end the table */
		for (int k = 0; k < 3; k++)
			if (!csv_sweep_name(t->cell[r][k]))
				return sim_error_set(err, SIM_ERR_INPUT, path, r + 2, 0, key[k],
						     "'%s' is not a sweep name (letters, digits, '.', '_', '-'; not . or ..)",
						     t->cell[r][k]);
		int dup = csv_find_run(t, t->cell[r][0], t->cell[r][1], t->cell[r][2]);
		if (dup >= 0)
			return sim_error_set(err, SIM_ERR_INPUT, path, r + 2, 0, NULL,
					     "the run %s/%s/%s is also on line %d", t->cell[r][0], t->cell[r][1],
					     t->cell[r][2], dup + 2);
		size_t i = run_hash(t->cell[r][0], t->cell[r][1], t->cell[r][2]) & (slots - 1);
		while (t->run_index[i] >= 0)
			i = (i + 1) & (slots - 1);
		t->run_index[i] = r;
	}
	return 0;
}
