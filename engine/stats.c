/* SPDX-License-Identifier: MIT */
/* Stats registry: pointers to component-owned counters, per-kernel deltas by snapshot, JSON via
 * jansson. Registration and dumping run at build/report time; the hot path only touches fields. */
#include "stats.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

enum stat_kind { ST_COUNTER, ST_AVG, ST_HIST, ST_RATIO, ST_DERIVED };

struct stat_entry {
	char *name;
	const char *unit, *desc;
	enum stat_kind kind;
	uint64_t *counter;
	struct stat_avg *avg;
	struct stat_hist *hist;
	uint64_t *owned_bins;  /* ST_HIST: hist->bins, freed by the registry */
	double (*fn)(const void *);
	double (*fn_scope)(const void *ctx, const struct stats *s, bool kernel_scope);
	const void *ctx;
	uint32_t num, den;   /* ST_RATIO: entry indices */
	double scale;
	/* snapshot at kernel_begin */
	uint64_t base_u;
	struct stat_avg base_avg;
	uint64_t *base_bins;
	uint64_t base_overflow, base_n, base_sum;
};

struct stats {
	struct stat_entry *e;
	uint32_t n, cap;
	uint32_t *index;       /* open-addressed name hash: entry index + 1, 0 = empty; 2*cap slots */
	uint32_t index_mask;
	json_t *kernels;       /* array of {"name", "stats"} */
	char *kernel_prefix;   /* only stats with this name prefix go in per-kernel records; NULL = all */
	char *cur_kernel;
	char *cur_ptx_name;     /* the kernel's PTX name when it differs (C++ kernels) */
	json_t *provenance;    /* NULL or an object, written first */
	json_t *sections;      /* named members after "total" (stats_set_section) */
};

struct stats *stats_create(void)
{
	struct stats *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->kernels = json_array();
	s->sections = json_object();
	if (!s->kernels || !s->sections) {
		json_decref(s->kernels);
		json_decref(s->sections);
		free(s);
		return NULL;
	}
	return s;
}

void stats_destroy(struct stats *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->e[i].name);
		free(s->e[i].base_bins);
		if (s->e[i].kind == ST_HIST) {
			/* The registry owns the bins; the struct stat_hist itself belongs to a component
			 * that may already be gone, so it is not touched here. */
			free(s->e[i].owned_bins);
		}
	}
	free(s->e);
	free(s->index);
	free(s->cur_kernel);
	free(s->cur_ptx_name);
	free(s->kernel_prefix);
	json_decref(s->kernels);
	json_decref(s->provenance);
	json_decref(s->sections);
	free(s);
}

/* FNV-1a: registration of a 28-SM GPU adds ~10^4 names, so a linear search per add was
 * quadratic (a third of a small run's instructions went to strcmp). */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static int find(const struct stats *s, const char *name)
{
	if (!s->index)
		return -1;
	for (uint32_t j = name_hash(name) & s->index_mask;; j = (j + 1) & s->index_mask) {
		uint32_t v = s->index[j];
		if (!v)
			return -1;
		if (!strcmp(s->e[v - 1].name, name))
			return (int)(v - 1);
	}
}

static void index_put(struct stats *s, uint32_t i)
{
	uint32_t j = name_hash(s->e[i].name) & s->index_mask;
	while (s->index[j])
		j = (j + 1) & s->index_mask;
	s->index[j] = i + 1;
}

static struct stat_entry *add(struct stats *s, enum stat_kind kind, const char *unit,
			      const char *desc, const char *fmt, va_list ap)
{
	char name[256];
	vsnprintf(name, sizeof name, fmt, ap);
	if (find(s, name) >= 0) {
		fprintf(stderr, "internal: stat '%s' registered twice\n", name);
		SIM_ASSERT(!"stat registered twice");
	}
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 256;
		struct stat_entry *ne = realloc(s->e, cap * sizeof *ne);
		SIM_ASSERT(ne != NULL);
		s->e = ne;
		s->cap = cap;
		/* Load factor <= 1/2: rebuild the index at twice the capacity. */
		uint32_t *ni = calloc(2 * (size_t)cap, sizeof *ni);
		SIM_ASSERT(ni != NULL);
		free(s->index);
		s->index = ni;
		s->index_mask = 2 * cap - 1;
		for (uint32_t i = 0; i < s->n; i++)
			index_put(s, i);
	}
	struct stat_entry *e = &s->e[s->n++];
	memset(e, 0, sizeof *e);
	e->name = strdup(name);
	SIM_ASSERT(e->name != NULL);
	index_put(s, s->n - 1);
	e->kind = kind;
	e->unit = unit ? unit : "";
	e->desc = desc ? desc : "";
	return e;
}

void stats_counter(struct stats *s, uint64_t *field, const char *unit, const char *desc,
		   const char *name_fmt, ...)
{
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_COUNTER, unit, desc, name_fmt, ap);
	va_end(ap);
	e->counter = field;
}

void stats_avg(struct stats *s, struct stat_avg *field, const char *unit, const char *desc,
	       const char *name_fmt, ...)
{
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_AVG, unit, desc, name_fmt, ap);
	va_end(ap);
	e->avg = field;
}

int stats_hist(struct stats *s, struct stat_hist *h, uint32_t n_bins, uint64_t bin_width,
	       const char *unit, const char *desc, const char *name_fmt, ...)
{
	SIM_ASSERT(n_bins > 0 && bin_width > 0);
	memset(h, 0, sizeof *h);
	h->bins = calloc(n_bins, sizeof *h->bins);
	if (!h->bins)
		return SIM_ERR_NOMEM;
	h->n_bins = n_bins;
	h->bin_width = bin_width;
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_HIST, unit, desc, name_fmt, ap);
	va_end(ap);
	e->hist = h;
	e->owned_bins = h->bins;
	return 0;
}

void stats_ratio(struct stats *s, const char *num, const char *den, double scale,
		 const char *unit, const char *desc, const char *name_fmt, ...)
{
	int in = find(s, num), id = find(s, den);
	if (in < 0 || id < 0) {
		fprintf(stderr, "internal: ratio over unknown stat '%s' / '%s'\n", num, den);
		SIM_ASSERT(!"ratio over unknown stat");
	}
	SIM_ASSERT(s->e[in].kind == ST_COUNTER && s->e[id].kind == ST_COUNTER);
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_RATIO, unit, desc, name_fmt, ap);
	va_end(ap);
	e->num = (uint32_t)in;
	e->den = (uint32_t)id;
	e->scale = scale;
}

void stats_derived(struct stats *s, double (*fn)(const void *ctx), const void *ctx,
		   const char *unit, const char *desc, const char *name_fmt, ...)
{
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_DERIVED, unit, desc, name_fmt, ap);
	va_end(ap);
	e->fn = fn;
	e->ctx = ctx;
}

void stats_derived_scoped(struct stats *s, double (*fn)(const void *ctx, const struct stats *st, bool kernel_scope),
			  const void *ctx, const char *unit, const char *desc, const char *name_fmt, ...)
{
	va_list ap;
	va_start(ap, name_fmt);
	struct stat_entry *e = add(s, ST_DERIVED, unit, desc, name_fmt, ap);
	va_end(ap);
	e->fn_scope = fn;
	e->ctx = ctx;
}

/* Value of a counter in a scope: live, or live minus the kernel_begin snapshot. */
static uint64_t counter_val(const struct stat_entry *e, bool delta)
{
	return *e->counter - (delta ? e->base_u : 0);
}

static json_t *entry_json(const struct stats *s, const struct stat_entry *e, bool delta)
{
	switch (e->kind) {
	case ST_COUNTER:
		return json_integer((json_int_t)counter_val(e, delta));
	case ST_AVG: {
		double sum = e->avg->sum - (delta ? e->base_avg.sum : 0);
		uint64_t n = e->avg->n - (delta ? e->base_avg.n : 0);
		return json_real(n ? sum / (double)n : 0.0);
	}
	case ST_HIST: {
		const struct stat_hist *h = e->hist;
		json_t *bins = json_array();
		for (uint32_t b = 0; b < h->n_bins; b++)
			json_array_append_new(bins, json_integer((json_int_t)(h->bins[b] -
				(delta && e->base_bins ? e->base_bins[b] : 0))));
		uint64_t n = h->n - (delta ? e->base_n : 0);
		uint64_t sum = h->sum - (delta ? e->base_sum : 0);
		return json_pack("{s:I, s:o, s:I, s:I, s:f}", "bin_width", (json_int_t)h->bin_width,
				 "bins", bins, "overflow",
				 (json_int_t)(h->overflow - (delta ? e->base_overflow : 0)), "n",
				 (json_int_t)n, "mean", n ? (double)sum / (double)n : 0.0);
	}
	case ST_RATIO: {
		uint64_t num = counter_val(&s->e[e->num], delta), den = counter_val(&s->e[e->den], delta);
		return json_real(den ? (double)num / (double)den * e->scale : 0.0);
	}
	case ST_DERIVED:
		return json_real(e->fn_scope ? e->fn_scope(e->ctx, s, delta) : e->fn(e->ctx));
	}
	return json_null();
}

/* Whether a stat saw nothing in the current kernel scope (kept out of per-kernel records, which
 * would otherwise hold every stat of every SM for each of a host loop's many launches). */
static bool idle_in_scope(const struct stats *s, const struct stat_entry *e)
{
	switch (e->kind) {
	case ST_COUNTER:
		return *e->counter == e->base_u;
	case ST_AVG:
		return e->avg->n == e->base_avg.n;
	case ST_HIST:
		return e->hist->n == e->base_n;
	case ST_RATIO:
		return idle_in_scope(s, &s->e[e->den]);
	case ST_DERIVED:
		return false;
	}
	return false;
}

static json_t *scope_json(const struct stats *s, bool delta)
{
	json_t *o = json_object();
	for (uint32_t i = 0; i < s->n; i++)
		if (!delta || (!idle_in_scope(s, &s->e[i]) &&
			       (!s->kernel_prefix || !strncmp(s->e[i].name, s->kernel_prefix, strlen(s->kernel_prefix)))))
			json_object_set_new(o, s->e[i].name, entry_json(s, &s->e[i], delta));
	return o;
}

void stats_kernel_begin(struct stats *s, const char *kernel_name)
{
	free(s->cur_kernel);
	free(s->cur_ptx_name);
	s->cur_ptx_name = NULL;
	s->cur_kernel = strdup(kernel_name ? kernel_name : "kernel");
	for (uint32_t i = 0; i < s->n; i++) {
		struct stat_entry *e = &s->e[i];
		switch (e->kind) {
		case ST_COUNTER:
			e->base_u = *e->counter;
			break;
		case ST_AVG:
			e->base_avg = *e->avg;
			break;
		case ST_HIST:
			if (!e->base_bins)
				e->base_bins = calloc(e->hist->n_bins, sizeof *e->base_bins);
			if (e->base_bins)
				memcpy(e->base_bins, e->hist->bins, e->hist->n_bins * sizeof *e->base_bins);
			e->base_overflow = e->hist->overflow;
			e->base_n = e->hist->n;
			e->base_sum = e->hist->sum;
			break;
		default:
			break;
		}
	}
}

void stats_kernel_set_ptx_name(struct stats *s, const char *ptx_name)
{
	free(s->cur_ptx_name);
	s->cur_ptx_name = ptx_name && s->cur_kernel && strcmp(ptx_name, s->cur_kernel) ?
			  strdup(ptx_name) : NULL;
}

void stats_kernel_end(struct stats *s)
{
	json_t *k = json_pack("{s:s, s:I, s:o}", "name", s->cur_kernel ? s->cur_kernel : "kernel",
			      "launch", (json_int_t)json_array_size(s->kernels), "stats",
			      scope_json(s, true));
	if (k && s->cur_ptx_name)
		json_object_set_new(k, "ptx_name", json_string(s->cur_ptx_name));
	json_array_append_new(s->kernels, k);
}

struct json_t *stats_kernel_scope_json(const struct stats *s)
{
	return scope_json(s, true);
}

void stats_kernel_append(struct stats *s, const char *name, const char *ptx_name,
			 struct json_t *stats)
{
	json_t *k = json_pack("{s:s, s:I, s:o}", "name", name, "launch",
			      (json_int_t)json_array_size(s->kernels), "stats", stats);
	if (k && ptx_name && strcmp(ptx_name, name))
		json_object_set_new(k, "ptx_name", json_string(ptx_name));
	json_array_append_new(s->kernels, k);
}

bool stats_get_u64(const struct stats *s, const char *name, uint64_t *out)
{
	return stats_get_u64_scope(s, name, false, out);
}

bool stats_get_u64_scope(const struct stats *s, const char *name, bool kernel_scope, uint64_t *out)
{
	int i = find(s, name);
	if (i < 0 || s->e[i].kind != ST_COUNTER)
		return false;
	*out = counter_val(&s->e[i], kernel_scope);
	return true;
}

bool stats_get_double(const struct stats *s, const char *name, double *out)
{
	int i = find(s, name);
	if (i < 0)
		return false;
	json_t *v = entry_json(s, &s->e[i], false);
	bool ok = json_is_number(v);
	if (ok)
		*out = json_number_value(v);
	json_decref(v);
	return ok;
}

const uint64_t *stats_counter_field(const struct stats *s, const char *name)
{
	int i = find(s, name);
	return i >= 0 && s->e[i].kind == ST_COUNTER ? s->e[i].counter : NULL;
}

const struct stat_avg *stats_avg_field(const struct stats *s, const char *name)
{
	int i = find(s, name);
	return i >= 0 && s->e[i].kind == ST_AVG ? s->e[i].avg : NULL;
}

bool stats_exists(const struct stats *s, const char *name)
{
	return find(s, name) >= 0;
}

void stats_set_provenance(struct stats *s, struct json_t *obj)
{
	json_decref(s->provenance);
	s->provenance = obj;
}

void stats_set_section(struct stats *s, const char *name, struct json_t *obj)
{
	if (obj)
		json_object_set_new(s->sections, name, obj);
	else
		json_object_del(s->sections, name);
}

struct json_t *stats_kernel_record(struct stats *s, uint64_t i)
{
	return i < json_array_size(s->kernels) ? json_array_get(s->kernels, (size_t)i) : NULL;
}

uint64_t stats_kernel_count(const struct stats *s)
{
	return json_array_size(s->kernels);
}

static json_t *document(const struct stats *s)
{
	json_t *meta = json_object();
	for (uint32_t i = 0; i < s->n; i++)
		json_object_set_new(meta, s->e[i].name,
				    json_pack("{s:s, s:s}", "unit", s->e[i].unit, "desc", s->e[i].desc));
	json_t *doc = json_object();
	/* First, so that dropping its lines leaves exactly the document without it. */
	if (s->provenance)
		json_object_set(doc, "provenance", s->provenance);
	json_object_set_new(doc, "total", scope_json(s, false));
	json_object_update(doc, s->sections);
	json_object_set(doc, "kernels", s->kernels);
	json_object_set_new(doc, "meta", meta);
	return doc;
}

char *stats_to_json_string(const struct stats *s)
{
	json_t *doc = document(s);
	char *out = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(doc);
	return out;
}

int stats_write_json(const struct stats *s, const char *path, struct sim_error *err)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	char *text = stats_to_json_string(s);
	if (!text)
		return sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, NULL, "cannot format stats");
	FILE *f = fopen(tmp, "w");
	if (!f) {
		free(text);
		return sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
	}
	bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	ok = (fclose(f) == 0) && ok;
	free(text);
	if (!ok || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot write: %s", strerror(e));
	}
	return 0;
}

static bool matches(const char *name, const char *const *patterns)
{
	if (!patterns)
		return true;
	for (; *patterns; patterns++)
		if (!fnmatch(*patterns, name, 0))
			return true;
	return false;
}

void stats_print_summary(const struct stats *s, FILE *out, const char *const *patterns)
{
	for (uint32_t i = 0; i < s->n; i++) {
		const struct stat_entry *e = &s->e[i];
		if (!matches(e->name, patterns))
			continue;
		json_t *v = entry_json(s, e, false);
		if (json_is_integer(v))
			fprintf(out, "%-44s %16lld %s\n", e->name, (long long)json_integer_value(v), e->unit);
		else if (json_is_real(v))
			fprintf(out, "%-44s %16.4f %s\n", e->name, json_real_value(v), e->unit);
		else if (e->kind == ST_HIST)
			fprintf(out, "%-44s %16.4f %s (mean of %llu)\n", e->name,
				json_real_value(json_object_get(v, "mean")), e->unit,
				(unsigned long long)json_integer_value(json_object_get(v, "n")));
		json_decref(v);
	}
}

void stats_set_kernel_prefix(struct stats *s, const char *prefix)
{
	free(s->kernel_prefix);
	s->kernel_prefix = prefix ? strdup(prefix) : NULL;
}
