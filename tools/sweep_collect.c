/* SPDX-License-Identifier: MIT */
/* Aggregate a sweep directory's stats.json files into results.csv (one row per run). */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "csv.h"
#include "provenance.h"

struct row {
	char id[3][NAME_MAX + 1]; /* config, workload, variant: directory names, so they fit */
	json_t *total;            /* owned */
	json_t *prov;             /* owned; NULL for a run written before provenance existed */
};

struct collect {
	struct row *rows;
	int n, cap;
	int pending;
};

/* A growing list of names (borrowed from the rows' JSON), each once. */
struct names {
	const char **v;
	size_t n, cap;
};

static int names_add(struct names *l, const char *name, struct sim_error *err)
{
	for (size_t i = 0; i < l->n; i++) /* O(n) per name; a run has some hundred gpu.* stats */
		if (!strcmp(l->v[i], name))
			return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		const char **nv = realloc(l->v, cap * sizeof *nv);
		if (!nv)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = name;
	return 0;
}

static const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* What a run's result needs, as engine/stats.c writes it: an object whose "total" is an object
 * of stats (a number each, or an object for a histogram or an average) with the run's cycle
 * count gpu.cycles; "provenance", where present, an object. A file that is not this is a
 * damaged run, refused rather than collected as a row of empty cells. */
static int check_stats_doc(const json_t *doc, const char *path, struct sim_error *err)
{
	if (!json_is_object(doc))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, NULL, "expected a JSON object, got %s",
				     json_kind(doc));
	const json_t *total = json_object_get(doc, "total");
	if (!total)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "total",
				     "missing: the run's stats (an object of numbers)");
	if (!json_is_object(total))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "total", "expected an object of stats, got %s",
				     json_kind(total));
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)total, k, v) {
		if (!json_is_number(v) && !json_is_object(v))
			return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, NULL,
					     "total.%s: expected a number (or an object for a histogram), got %s",
					     k, json_kind(v));
	}
	if (!json_is_number(json_object_get(total, "gpu.cycles")))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "total",
				     "has no gpu.cycles: not a finished run's stats");
	const json_t *prov = json_object_get(doc, "provenance");
	if (prov && !json_is_object(prov))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "provenance", "expected an object, got %s",
				     json_kind(prov));
	return 0;
}

/* A capped or sampled run is never taken for a finished one: stats.json's "budget" and
 * "sampling" (api/launch_ctl.c) become columns budget.capped (0/1), budget.functional_launches,
 * sampling.total_cycles (the estimate), sampling.error_bound_frac, sampling.warp_inst_reduction. */
static void budget_columns(json_t *total, const json_t *doc)
{
	const json_t *b = json_object_get(doc, "budget"), *s = json_object_get(doc, "sampling");
	if (json_is_object(b)) {
		json_object_set_new(total, "budget.capped", json_integer(json_is_true(json_object_get(b, "capped"))));
		const json_t *f = json_object_get(b, "functional_launches");
		if (json_is_integer(f))
			json_object_set_new(total, "budget.functional_launches", json_copy((json_t *)f));
	}
	static const char *const keys[] = {"total_cycles", "error_bound_frac", "warp_inst_reduction"};
	for (size_t i = 0; json_is_object(s) && i < sizeof keys / sizeof keys[0]; i++) {
		const json_t *v = json_object_get(s, keys[i]);
		char name[64];
		snprintf(name, sizeof name, "sampling.%s", keys[i]);
		if (json_is_number(v))
			json_object_set_new(total, name, json_copy((json_t *)v));
	}
}

/* One run directory (rel = config/workload/variant under the sweep) with its stats.json. */
static int add_row(struct collect *c, const char *const id[3], const char *path, struct sim_error *err)
{
	struct row r = {0};
	for (int i = 0; i < 3; i++) {
		int rc = cli_path(r.id[i], sizeof r.id[i], err, "%s", id[i]);
		if (rc)
			return rc;
	}
	json_error_t je;
	/* stats.json is renamed into place whole (cli_write_atomic), so one that does not parse is
	 * damaged, not still being written */
	json_t *doc = json_load_file(path, 0, &je);
	if (!doc && je.line < 0) /* jansson's mark of a file it could not open or read */
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read: %s", je.text);
	if (!doc)
		return sim_error_set(err, SIM_ERR_INPUT, path, je.line, je.column > 0 ? je.column : 0, NULL,
				     "not valid JSON: %s", je.text);
	int rc = check_stats_doc(doc, path, err);
	if (rc) {
		json_decref(doc);
		return rc;
	}
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 64;
		struct row *nr = realloc(c->rows, (size_t)cap * sizeof *nr);
		if (!nr) {
			json_decref(doc);
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		}
		c->rows = nr;
		c->cap = cap;
	}
	r.total = json_copy(json_object_get(doc, "total"));
	r.prov = json_incref(json_object_get(doc, "provenance"));
	if (!r.total) {
		json_decref(doc);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	budget_columns(r.total, doc);
	c->rows[c->n++] = r;
	json_decref(doc);
	return 0;
}

/* The directory id[0]/.../id[depth-1] under root (depth 3: a run directory of the layout
 * <config>/<workload>/<variant>); deeper directories are not the sweep's. */
static int walk(struct collect *c, const char *root, const char **id, int depth, struct sim_error *err)
{
	char path[PATH_MAX];
	int rc = cli_path(path, sizeof path, err, "%s%s%s%s%s%s%s", root, depth > 0 ? "/" : "",
			    depth > 0 ? id[0] : "", depth > 1 ? "/" : "", depth > 1 ? id[1] : "",
			    depth > 2 ? "/" : "", depth > 2 ? id[2] : "");
	if (rc)
		return rc;
	DIR *d = opendir(path);
	if (!d) /* a directory of the sweep that cannot be read would lose its runs */
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot read directory: %s", strerror(errno));
	struct dirent *e;
	bool has_stats = false, is_run_dir = false;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (!strcmp(e->d_name, "stats.json"))
			has_stats = true;
		if (!strcmp(e->d_name, "run.log"))
			is_run_dir = true;
		if (depth >= 3)
			continue;
		char sub[PATH_MAX];
		if ((rc = cli_path(sub, sizeof sub, err, "%s/%s", path, e->d_name)))
			break;
		struct stat st;
		/* an entry gone since readdir (a run's temporary file renamed into place) is no
		 * directory of ours */
		if (stat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		id[depth] = e->d_name;
		rc = walk(c, root, id, depth + 1, err);
	}
	closedir(d);
	if (rc)
		return rc;
	if (has_stats && depth == 3) {
		char p[PATH_MAX];
		if ((rc = cli_path(p, sizeof p, err, "%s/stats.json", path)))
			return rc;
		rc = add_row(c, id, p, err);
	} else if (!has_stats && (is_run_dir || depth == 3)) {
		c->pending++; /* failed, or not run yet (a stats.json elsewhere is not the layout's) */
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
	const struct names *cols;
	const struct names *prov; /* provenance members, written as columns "prov.<name>" */
};

static int write_csv(FILE *f, const void *ctx, struct sim_error *err)
{
	const struct csv_ctx *x = ctx;
	fprintf(f, "config,workload,variant");
	for (size_t i = 0; i < x->cols->n; i++)
		fprintf(f, ",%s", x->cols->v[i]);
	for (size_t i = 0; i < x->prov->n; i++)
		fprintf(f, ",prov.%s", x->prov->v[i]);
	fputc('\n', f);
	for (int r = 0; r < x->c->n; r++) {
		const struct row *row = &x->c->rows[r];
		for (int i = 0; i < 3; i++) {
			if (i)
				fputc(',', f);
			csv_write_cell(f, row->id[i]);
		}
		for (size_t i = 0; i < x->cols->n; i++) {
			json_t *v = json_object_get(row->total, x->cols->v[i]);
			if (json_is_integer(v))
				fprintf(f, ",%lld", (long long)json_integer_value(v));
			else if (json_is_real(v))
				fprintf(f, ",%.9g", json_real_value(v));
			else
				fprintf(f, ","); /* a stat this run's machine does not have */
		}
		for (size_t i = 0; i < x->prov->n; i++) {
			char text[16384];
			prov_value_text(json_object_get(row->prov, x->prov->v[i]), text, sizeof text);
			/* prov_value_text cuts what does not fit; a full buffer may be such a cut */
			if (strlen(text) == sizeof text - 1)
				return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
						     "%s/%s/%s: provenance %s is %zu bytes or more, too long for results.csv",
						     row->id[0], row->id[1], row->id[2], x->prov->v[i], sizeof text - 1);
			fputc(',', f);
			csv_write_cell(f, text);
		}
		fputc('\n', f);
	}
	return 0;
}

/* The names in DIR/extra_stats.txt (written by the sweep from its spec's `stats`) into out;
 * their count, or a negative error. No file: none (a directory not made by a sweep). */
static int read_extra_stats(const char *dir, char **out, int max, struct sim_error *err)
{
	char p[PATH_MAX], line[512];
	int rc = cli_path(p, sizeof p, err, "%s/extra_stats.txt", dir);
	if (rc)
		return rc;
	FILE *f = fopen(p, "r");
	if (!f)
		return errno == ENOENT ? 0
				       : sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot read: %s", strerror(errno));
	int n = 0;
	for (int ln = 1; !rc && fgets(line, sizeof line, f); ln++) {
		size_t len = strcspn(line, "\r\n");
		if (!line[len] && !feof(f))
			rc = sim_error_set(err, SIM_ERR_INPUT, p, ln, 0, NULL, "line longer than %zu bytes",
					   sizeof line - 2);
		line[len] = '\0';
		if (rc || !line[0] || line[0] == '#')
			continue;
		if (n == max)
			rc = sim_error_set(err, SIM_ERR_INPUT, p, ln, 0, NULL, "more than %d stats", max);
		else if (!(out[n] = strdup(line)))
			rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		else
			n++;
	}
	if (!rc && ferror(f))
		rc = sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot read: %s", strerror(errno));
	fclose(f);
	if (rc) {
		for (int i = 0; i < n; i++)
			free(out[i]);
		return rc;
	}
	return n;
}

/* Columns: every gpu.*, budget.* and sampling.* number any run reported (budget_columns) and
 * the sweep spec's extra stats, sorted by
 * name; then the provenance members in the order the first run with provenance has them. */
static int pick_columns(const struct collect *c, char *const *extra, int n_extra, struct names *cols,
			struct names *prov, struct sim_error *err)
{
	int rc = 0;
	for (int r = 0; !rc && r < c->n; r++) {
		const char *k;
		json_t *v;
		json_object_foreach(c->rows[r].total, k, v) {
			bool wanted = !strncmp(k, "gpu.", 4) || !strncmp(k, "budget.", 7) ||
				      !strncmp(k, "sampling.", 9);
			for (int e = 0; e < n_extra && !wanted; e++)
				wanted = !strcmp(extra[e], k);
			if (wanted && json_is_number(v) && (rc = names_add(cols, k, err)))
				break;
		}
	}
	if (cols->n > 1)
		qsort(cols->v, cols->n, sizeof *cols->v, cmp_str);
	for (int r = 0; !rc && r < c->n && !prov->n; r++) {
		const char *k;
		json_t *v;
		json_object_foreach(c->rows[r].prov, k, v) {
			if ((rc = names_add(prov, k, err)))
				break;
		}
	}
	return rc;
}

int sweep_collect(const char *dir, FILE *out, struct sim_error *err)
{
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return sim_error_set(err, SIM_ERR_USAGE, dir, 0, 0, NULL, "not a sweep directory");
	struct collect c = {0};
	struct names cols = {0}, prov = {0};
	char *extra[64];
	const char *id[3] = {NULL, NULL, NULL};
	char path[PATH_MAX];
	int n_extra = 0;
	int rc = cli_path(path, sizeof path, err, "%s/results.csv", dir);
	if (!rc)
		rc = walk(&c, dir, id, 0, err);
	if (!rc && (n_extra = read_extra_stats(dir, extra, 64, err)) < 0)
		rc = n_extra;
	if (!rc && c.n > 1) /* rows is NULL when no run has results (qsort's pointer must be valid) */
		qsort(c.rows, (size_t)c.n, sizeof *c.rows, cmp_row);
	if (!rc)
		rc = pick_columns(&c, extra, n_extra, &cols, &prov, err);
	if (!rc) {
		struct csv_ctx x = {&c, &cols, &prov};
		rc = cli_write_atomic(path, write_csv, &x, err);
	}
	if (!rc)
		fprintf(out, "collected %d runs (%d without results) into %s\n", c.n, c.pending, path);
	free(cols.v);
	free(prov.v);
	for (int r = 0; r < c.n; r++) {
		json_decref(c.rows[r].total);
		json_decref(c.rows[r].prov);
	}
	for (int e = 0; e < n_extra; e++)
		free(extra[e]);
	free(c.rows);
	return rc;
}
