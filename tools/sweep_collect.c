/* SPDX-License-Identifier: MIT */
/* Aggregate a sweep directory's stats.json files into results.csv (one row per run). */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "csv.h"
#include "provenance.h"

struct row {
	char id[3][128];  /* config, workload, variant */
	json_t *total;    /* owned */
	json_t *prov;     /* owned; NULL for a run written before provenance existed */
};

struct collect {
	struct row *rows;
	int n, cap;
	int pending;
};

static int add_row(struct collect *c, const char *rel, const char *path)
{
	char parts[3][128];
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", rel);
	int k = 0;
	for (char *tok = strtok(buf, "/"); tok && k < 4; tok = strtok(NULL, "/"))
		if (k < 3)
			snprintf(parts[k++], sizeof parts[0], "%s", tok);
		else
			k++;
	if (k != 3)
		return 0; /* not a run directory of this layout */
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	if (!doc) {
		c->pending++;
		return 0;
	}
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 64;
		struct row *nr = realloc(c->rows, (size_t)cap * sizeof *nr);
		if (!nr) {
			json_decref(doc);
			return -1;
		}
		c->rows = nr;
		c->cap = cap;
	}
	struct row *r = &c->rows[c->n++];
	memcpy(r->id, parts, sizeof parts);
	r->total = json_incref(json_object_get(doc, "total"));
	r->prov = json_incref(json_object_get(doc, "provenance"));
	json_decref(doc);
	return 0;
}

static int walk(struct collect *c, const char *root, const char *rel, int depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int rc = 0;
	bool has_stats = false, is_run_dir = false;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (!strcmp(e->d_name, "stats.json"))
			has_stats = true;
		if (!strcmp(e->d_name, "run.log"))
			is_run_dir = true;
		char sub[PATH_MAX + 300], subrel[PATH_MAX + 300];
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		struct stat st;
		if (stat(sub, &st) || !S_ISDIR(st.st_mode) || depth >= 3)
			continue;
		snprintf(subrel, sizeof subrel, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		rc = walk(c, root, subrel, depth + 1);
	}
	closedir(d);
	if (has_stats) {
		char p[PATH_MAX + 16];
		snprintf(p, sizeof p, "%s/stats.json", path);
		rc = add_row(c, rel, p);
	} else if (is_run_dir || depth == 3) {
		c->pending++;
	}
	return rc;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	for (int i = 0; i < 3; i++) {
		int d = strcmp(x->id[i], y->id[i]);
		if (d)
			return d;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct csv_ctx {
	const struct collect *c;
	const char **cols;
	size_t n_cols;
	const char **prov;   /* provenance members, written as columns "prov.<name>" */
	size_t n_prov;
};

static int write_csv(FILE *f, const void *ctx, struct sim_error *err)
{
	const struct csv_ctx *x = ctx;
	(void)err;
	fprintf(f, "config,workload,variant");
	for (size_t i = 0; i < x->n_cols; i++)
		fprintf(f, ",%s", x->cols[i]);
	for (size_t i = 0; i < x->n_prov; i++)
		fprintf(f, ",prov.%s", x->prov[i]);
	fputc('\n', f);
	for (int r = 0; r < x->c->n; r++) {
		const struct row *row = &x->c->rows[r];
		fprintf(f, "%s,%s,%s", row->id[0], row->id[1], row->id[2]);
		for (size_t i = 0; i < x->n_cols; i++) {
			json_t *v = json_object_get(row->total, x->cols[i]);
			if (json_is_integer(v))
				fprintf(f, ",%lld", (long long)json_integer_value(v));
			else if (json_is_real(v))
				fprintf(f, ",%.9g", json_real_value(v));
			else
				fprintf(f, ",");
		}
		for (size_t i = 0; i < x->n_prov; i++) {
			char text[16384];
			prov_value_text(json_object_get(row->prov, x->prov[i]), text, sizeof text);
			fputc(',', f);
			csv_write_cell(f, text);
		}
		fputc('\n', f);
	}
	return 0;
}

/* The names in DIR/extra_stats.txt (written by the sweep from its spec's `stats`); 0 if none. */
static int read_extra_stats(const char *dir, char **out, int max)
{
	char p[PATH_MAX + 32], line[256];
	snprintf(p, sizeof p, "%s/extra_stats.txt", dir);
	FILE *f = fopen(p, "r");
	int n = 0;
	while (f && n < max && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#' && (out[n] = strdup(line)))
			n++;
	}
	if (f)
		fclose(f);
	return n;
}

int sweep_collect(const char *dir, FILE *out, struct sim_error *err)
{
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return sim_error_set(err, SIM_ERR_USAGE, dir, 0, 0, NULL, "not a sweep directory");
	struct collect c = {0};
	if (walk(&c, dir, "", 0)) {
		free(c.rows);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	if (c.n > 1) /* rows is NULL when no run has results (qsort's pointer must be valid) */
		qsort(c.rows, (size_t)c.n, sizeof *c.rows, cmp_row);
	/* Columns: every gpu.* scalar any run reported and the sweep spec's extra stats
	 * (DIR/extra_stats.txt), sorted by name; then the provenance. */
	char *extra[64];
	int n_extra = read_extra_stats(dir, extra, 64);
	size_t cap = 64, n_cols = 0;
	const char **cols = malloc(cap * sizeof *cols);
	for (int r = 0; cols && r < c.n; r++) {
		const char *k;
		json_t *v;
		json_object_foreach(c.rows[r].total, k, v) {
			bool wanted = !strncmp(k, "gpu.", 4);
			for (int e = 0; e < n_extra && !wanted; e++)
				wanted = !strcmp(extra[e], k);
			if (!wanted || !json_is_number(v))
				continue;
			bool seen = false;
			for (size_t i = 0; i < n_cols && !seen; i++)
				seen = !strcmp(cols[i], k);
			if (seen)
				continue;
			if (n_cols == cap) {
				cap *= 2;
				const char **nc = realloc(cols, cap * sizeof *cols);
				if (!nc)
					break;
				cols = nc;
			}
			cols[n_cols++] = k;
		}
	}
	int rc = 0;
	if (!cols) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	} else {
		qsort(cols, n_cols, sizeof *cols, cmp_str);
		char path[PATH_MAX + 16];
		snprintf(path, sizeof path, "%s/results.csv", dir);
		/* provenance members in the order the first run with provenance has them */
		const char *prov[32];
		size_t n_prov = 0;
		for (int r = 0; r < c.n && !n_prov; r++) {
			const char *k;
			json_t *v;
			json_object_foreach(c.rows[r].prov, k, v) {
				if (n_prov < 32)
					prov[n_prov++] = k;
			}
		}
		struct csv_ctx x = {&c, cols, n_cols, prov, n_prov};
		rc = cli_write_atomic(path, write_csv, &x, err);
		if (!rc)
			fprintf(out, "collected %d runs (%d without results) into %s\n", c.n, c.pending, path);
	}
	free(cols);
	for (int r = 0; r < c.n; r++) {
		json_decref(c.rows[r].total);
		json_decref(c.rows[r].prov);
	}
	for (int e = 0; e < n_extra; e++)
		free(extra[e]);
	free(c.rows);
	return rc;
}
