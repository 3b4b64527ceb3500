/* SPDX-License-Identifier: MIT */
/* Workload file loader: strict libconfig validation (every key known, every name resolved,
 * every argument sized against the kernel's parameters) into a struct workload. */
#include <ctype.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wl_int.h"
#include "engine/cfg_text.h"

const char *const wl_type_names[WL_N_TYPES] = {"u8",  "s8",  "u16", "s16", "u32",
					       "s32", "u64", "s64", "f32", "f64"};

uint32_t wl_type_bytes(enum wl_type t)
{
	static const uint32_t b[WL_N_TYPES] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
	return b[t];
}

bool wl_type_is_float(enum wl_type t) { return t == WL_F32 || t == WL_F64; }


#ifndef WL_MAX_BUFFER_BYTES /* the fuzz build sets a smaller one (CMakeLists.txt) */
#define WL_MAX_BUFFER_BYTES (1ull << 30)
#endif


/* Loader state: the open file and the workload being filled. */
struct wl_ld {
	struct workload *w;
	const char *path;
	struct sim_error *err;
};

static const char *wl_src_file(const struct wl_ld *ld, const config_setting_t *s)
{
	const char *f = s ? config_setting_source_file(s) : NULL;
	return f ? f : ld->path;
}

static int wl_src_line(const config_setting_t *s)
{
	return s ? (int)config_setting_source_line(s) : 0;
}

__attribute__((format(printf, 4, 5))) static int wl_fail(struct wl_ld *ld,
							  const config_setting_t *s,
							  const char *setting, const char *fmt, ...)
{
	/* Messages name the setting's path themselves ("launches[0].args[2]: ..."), so the
	 * error's setting field stays empty and the path is not printed twice. */
	(void)setting;
	va_list ap;
	va_start(ap, fmt);
	sim_error_vset(ld->err, SIM_ERR_INPUT, wl_src_file(ld, s), wl_src_line(s), 0, NULL, fmt, ap);
	va_end(ap);
	return SIM_ERR_INPUT;
}

static char *wl_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Reject any member of group g not in allowed (NULL-terminated). */
static int wl_keys_check(struct wl_ld *ld, const config_setting_t *g, const char *where,
			 const char *const *allowed)
{
	int n = config_setting_length(g);
	for (int i = 0; i < n; i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(m);
		bool ok = false;
		for (const char *const *a = allowed; *a; a++)
			ok = ok || !strcmp(*a, name);
		if (!ok) {
			char list[256] = "";
			size_t used = 0;
			for (const char *const *a = allowed; *a && used < sizeof list; a++)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
							 a == allowed ? "" : ", ", *a);
			return wl_fail(ld, m, name, "unknown key '%s' in %s (allowed: %s)", name,
				       where, list);
		}
	}
	return 0;
}

static int wl_get_string(struct wl_ld *ld, const config_setting_t *g, const char *key,
			 const char *where, bool required, const char **out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	*out = NULL;
	if (!s) {
		if (required)
			return wl_fail(ld, g, key, "%s: missing required key '%s'", where, key);
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return wl_fail(ld, s, key, "%s.%s must be a string", where, key);
	*out = config_setting_get_string(s);
	return 0;
}

/* A number or an expression string. */
static int wl_eval(struct wl_ld *ld, const config_setting_t *s, const char *setting,
		   struct wl_val *v)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		v->is_float = false;
		v->i = config_setting_get_int64(s);
		v->f = (double)v->i;
		return 0;
	case CONFIG_TYPE_FLOAT:
		v->is_float = true;
		v->f = config_setting_get_float(s);
		v->i = wl_f2i(v->f);
		return 0;
	case CONFIG_TYPE_STRING:
		return wl_expr_eval(ld->w, config_setting_get_string(s), wl_src_file(ld, s),
				    wl_src_line(s), setting, v, ld->err);
	default:
		return wl_fail(ld, s, setting, "%s must be a number or an expression string",
			       setting);
	}
}

static int wl_eval_int(struct wl_ld *ld, const config_setting_t *s, const char *setting,
		       int64_t lo, int64_t hi, int64_t *out)
{
	struct wl_val v;
	int rc = wl_eval(ld, s, setting, &v);
	if (rc)
		return rc;
	if (v.is_float)
		return wl_fail(ld, s, setting, "%s must be an integer, got %g", setting, v.f);
	if (v.i < lo || v.i > hi)
		return wl_fail(ld, s, setting, "%s must be in %lld..%lld, got %lld", setting,
			       (long long)lo, (long long)hi, (long long)v.i);
	*out = v.i;
	return 0;
}

/* Optional member: *out keeps its default when absent. */
static int wl_opt_int(struct wl_ld *ld, const config_setting_t *g, const char *key,
		      const char *where, int64_t lo, int64_t hi, int64_t *out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	if (!s)
		return 0;
	char setting[160];
	snprintf(setting, sizeof setting, "%s.%s", where, key);
	return wl_eval_int(ld, s, setting, lo, hi, out);
}

static int wl_opt_float(struct wl_ld *ld, const config_setting_t *g, const char *key,
			const char *where, double *out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	if (!s)
		return 0;
	char setting[160];
	snprintf(setting, sizeof setting, "%s.%s", where, key);
	struct wl_val v;
	int rc = wl_eval(ld, s, setting, &v);
	if (rc)
		return rc;
	*out = v.f;
	return 0;
}

/* ---- params ------------------------------------------------------------------------- */

static int wl_params_add(struct wl_ld *ld, const config_setting_t *g, const char *where)
{
	struct workload *w = ld->w;
	int n = config_setting_length(g);
	struct wl_param *p = realloc(w->params, sizeof *p * (w->n_params + (uint32_t)n + 1));
	if (!p)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	w->params = p;
	for (int i = 0; i < n; i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(m);
		char setting[160];
		snprintf(setting, sizeof setting, "%s.%s", where, name);
		if (wl_param_find(w, name))
			return wl_fail(ld, m, setting, "%s: '%s' is defined twice", where, name);
		struct wl_val v;
		int type = config_setting_type(m);
		if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64 &&
		    type != CONFIG_TYPE_FLOAT && type != CONFIG_TYPE_STRING)
			return wl_fail(ld, m, setting, "%s must be a number or an expression",
				       setting);
		/* Later params may use earlier ones. */
		int rc = wl_eval(ld, m, setting, &v);
		if (rc)
			return rc;
		w->params[w->n_params].name = wl_strdup(name);
		w->params[w->n_params].v = v;
		w->params[w->n_params].line = wl_src_line(m);
		snprintf(w->params[w->n_params].where, sizeof w->params[0].where, "%s", where);
		if (!w->params[w->n_params].name)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
					     "out of memory");
		w->n_params++;
	}
	return 0;
}

const struct wl_param *wl_param_find(const struct workload *w, const char *name)
{
	for (uint32_t i = 0; i < w->n_params; i++)
		if (!strcmp(w->params[i].name, name))
			return &w->params[i];
	return NULL;
}

int wl_buffer_find(const struct workload *w, const char *name)
{
	for (uint32_t i = 0; i < w->n_bufs; i++)
		if (!strcmp(w->bufs[i].name, name))
			return (int)i;
	return -1;
}

/* ---- buffers and symbols ---------------------------------------------------------------- */

static void wl_store(enum wl_type t, unsigned char *base, uint64_t i, struct wl_val v)
{
	unsigned char *p = base + i * wl_type_bytes(t);
	int64_t x = v.is_float ? wl_f2i(v.f) : v.i;
	switch (t) {
	case WL_U8:
	case WL_S8: {
		uint8_t y = (uint8_t)x;
		memcpy(p, &y, 1);
		break;
	}
	case WL_U16:
	case WL_S16: {
		uint16_t y = (uint16_t)x;
		memcpy(p, &y, 2);
		break;
	}
	case WL_U32:
	case WL_S32: {
		uint32_t y = (uint32_t)x;
		memcpy(p, &y, 4);
		break;
	}
	case WL_F32: {
		float y = (float)v.f;
		memcpy(p, &y, 4);
		break;
	}
	case WL_F64:
		memcpy(p, &v.f, 8);
		break;
	default: {
		uint64_t y = (uint64_t)x;
		memcpy(p, &y, 8);
		break;
	}
	}
}

static void wl_type_range(enum wl_type t, int64_t *lo, int64_t *hi)
{
	switch (t) {
	case WL_U8: *lo = 0; *hi = UINT8_MAX; break;
	case WL_S8: *lo = INT8_MIN; *hi = INT8_MAX; break;
	case WL_U16: *lo = 0; *hi = UINT16_MAX; break;
	case WL_S16: *lo = INT16_MIN; *hi = INT16_MAX; break;
	case WL_U32: *lo = 0; *hi = UINT32_MAX; break;
	case WL_S32: *lo = INT32_MIN; *hi = INT32_MAX; break;
	case WL_U64: *lo = 0; *hi = INT64_MAX; break;
	default: *lo = INT64_MIN; *hi = INT64_MAX; break;
	}
}

static unsigned char *wl_read_file(const char *path, uint64_t *bytes)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL; /* a FIFO would block in fopen, a directory "reads" as LONG_MAX bytes */
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *data = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
			data = malloc(n ? (size_t)n : 1);
			if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
				free(data);
				data = NULL;
			}
			*bytes = (uint64_t)n;
		}
	}
	fclose(f);
	return data;
}

static char *wl_rel_path(const struct workload *w, const char *p)
{
	if (p[0] == '/')
		return wl_strdup(p);
	size_t n = strlen(w->dir) + strlen(p) + 2;
	char *r = malloc(n);
	if (r)
		snprintf(r, n, "%s/%s", w->dir, p);
	return r;
}

static const char *const wl_buffer_keys[] = {"name", "type", "count", "init", "seed", "min",
					     "max", "start", "step", "value", "values", "file",
					     NULL};

/* Fill b->init per the init kind. b->count may be 0 (derived from file or values). */
static int wl_buffer_init(struct wl_ld *ld, const config_setting_t *g, const char *where,
			  struct wl_buffer *b, uint64_t max_count)
{
	const char *init = "zeros", *file = NULL;
	int rc = wl_get_string(ld, g, "init", where, false, &init);
	if (rc)
		return rc;
	if (!init)
		init = "zeros";
	uint32_t esz = wl_type_bytes(b->type);
	const config_setting_t *values = config_setting_get_member(g, "values");
	unsigned char *filedata = NULL;
	uint64_t filebytes = 0;
	if (!strcmp(init, "file")) {
		rc = wl_get_string(ld, g, "file", where, true, &file);
		if (rc)
			return rc;
		char *p = wl_rel_path(ld->w, file);
		filedata = p ? wl_read_file(p, &filebytes) : NULL;
		free(p);
		if (!filedata)
			return wl_fail(ld, config_setting_get_member(g, "file"), "file",
				       "%s: cannot read data file '%s'", where, file);
		if (filebytes % esz) {
			free(filedata);
			return wl_fail(ld, config_setting_get_member(g, "file"), "file",
				       "%s: file '%s' has %llu bytes, not a multiple of %s", where,
				       file, (unsigned long long)filebytes,
				       wl_type_names[b->type]);
		}
		if (!b->count)
			b->count = filebytes / esz;
		if (b->count * esz != filebytes) {
			free(filedata);
			return wl_fail(ld, g, "count", "%s: count %llu does not match file '%s' (%llu "
				       "elements)", where, (unsigned long long)b->count, file,
				       (unsigned long long)(filebytes / esz));
		}
	} else if (!strcmp(init, "values")) {
		if (!values || !config_setting_is_aggregate(values))
			return wl_fail(ld, g, "values", "%s: init \"values\" needs values = [ ... ]",
				       where);
		uint64_t nv = (uint64_t)config_setting_length(values);
		if (!b->count)
			b->count = nv;
		if (b->count != nv || nv == 0)
			return wl_fail(ld, values, "values", "%s: %llu values given for count %llu",
				       where, (unsigned long long)nv, (unsigned long long)b->count);
	} else if (strcmp(init, "zeros") && strcmp(init, "sequence") && strcmp(init, "random") &&
		   strcmp(init, "value")) {
		return wl_fail(ld, config_setting_get_member(g, "init"), "init",
			       "%s: init must be zeros, value, values, sequence, random or file, got "
			       "\"%s\"", where, init);
	}
	if (!b->count)
		return wl_fail(ld, g, "count", "%s: missing count", where);
	if (max_count && b->count > max_count) {
		free(filedata);
		return wl_fail(ld, g, "count", "%s: %llu elements exceed the symbol (%llu)", where,
			       (unsigned long long)b->count, (unsigned long long)max_count);
	}
	/* A simulated workload's buffer beyond 1 GiB is a mistake in the file (the suite's largest is
	 * 64 MiB), and b->count * esz must not overflow either. */
	if (b->count > WL_MAX_BUFFER_BYTES / esz) {
		free(filedata);
		return wl_fail(ld, g, "count", "%s: %llu elements of %u bytes exceed the %llu-byte buffer limit",
			       where, (unsigned long long)b->count, (unsigned)esz,
			       (unsigned long long)WL_MAX_BUFFER_BYTES);
	}
	b->bytes = b->count * esz;
	b->zeros = !filedata && !strcmp(init, "zeros");
	b->init = calloc(1, b->bytes);
	if (!b->init) {
		free(filedata);
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, where,
				     "out of memory for %llu bytes", (unsigned long long)b->bytes);
	}
	if (filedata) {
		memcpy(b->init, filedata, b->bytes);
		free(filedata);
		return 0;
	}
	char setting[160];
	if (!strcmp(init, "values")) {
		for (uint64_t i = 0; i < b->count; i++) {
			struct wl_val v;
			snprintf(setting, sizeof setting, "%s.values[%llu]", where,
				 (unsigned long long)i);
			rc = wl_eval(ld, config_setting_get_elem(values, (unsigned)i), setting, &v);
			if (rc)
				return rc;
			wl_store(b->type, b->init, i, v);
		}
	} else if (!strcmp(init, "value")) {
		struct wl_val v = {0};
		const config_setting_t *s = config_setting_get_member(g, "value");
		if (!s)
			return wl_fail(ld, g, "value", "%s: init \"value\" needs value", where);
		snprintf(setting, sizeof setting, "%s.value", where);
		rc = wl_eval(ld, s, setting, &v);
		if (rc)
			return rc;
		for (uint64_t i = 0; i < b->count; i++)
			wl_store(b->type, b->init, i, v);
	} else if (!strcmp(init, "sequence")) {
		double start = 0, step = 1;
		rc = wl_opt_float(ld, g, "start", where, &start);
		rc = rc ? rc : wl_opt_float(ld, g, "step", where, &step);
		if (rc)
			return rc;
		for (uint64_t i = 0; i < b->count; i++) {
			struct wl_val v = {.is_float = true, .f = start + step * (double)i};
			if (!wl_type_is_float(b->type)) {
				v.is_float = false;
				v.i = (int64_t)llround(v.f);
			}
			wl_store(b->type, b->init, i, v);
		}
	} else if (!strcmp(init, "random")) {
		int64_t seed = 1;
		rc = wl_opt_int(ld, g, "seed", where, 0, INT64_MAX, &seed);
		if (rc)
			return rc;
		uint64_t st = (uint64_t)seed;
		if (wl_type_is_float(b->type)) {
			double lo = 0.0, hi = 1.0;
			rc = wl_opt_float(ld, g, "min", where, &lo);
			rc = rc ? rc : wl_opt_float(ld, g, "max", where, &hi);
			if (rc)
				return rc;
			if (!(hi >= lo))
				return wl_fail(ld, g, "max", "%s: max < min", where);
			/* 53 random bits: uniform in [lo, hi). f32, the common case, stored directly as
			 * wl_store would (a call and a type switch per element were ~7% of a
			 * functional vecadd) */
			if (b->type == WL_F32)
				for (uint64_t i = 0; i < b->count; i++) {
					double u = (double)(wl_rng_next(&st) >> 11) * 0x1p-53;
					float y = (float)(lo + u * (hi - lo));
					memcpy(b->init + 4 * i, &y, 4);
				}
			else
				for (uint64_t i = 0; i < b->count; i++) {
					double u = (double)(wl_rng_next(&st) >> 11) * 0x1p-53;
					struct wl_val v = {.is_float = true, .f = lo + u * (hi - lo)};
					wl_store(b->type, b->init, i, v);
				}
		} else {
			int64_t tlo, thi;
			wl_type_range(b->type, &tlo, &thi);
			int64_t lo = tlo < 0 ? 0 : tlo, hi = thi > INT32_MAX ? INT32_MAX : thi;
			rc = wl_opt_int(ld, g, "min", where, tlo, thi, &lo);
			rc = rc ? rc : wl_opt_int(ld, g, "max", where, tlo, thi, &hi);
			if (rc)
				return rc;
			if (hi < lo)
				return wl_fail(ld, g, "max", "%s: max < min", where);
			uint64_t span = (uint64_t)(hi - lo) + 1; /* 0 means the full 2^64 range */
			const struct wl_umod um = wl_umod_make(span ? span : 1);
			if ((b->type == WL_S32 || b->type == WL_U32) && span) /* as wl_store, directly */
				for (uint64_t i = 0; i < b->count; i++) {
					uint32_t y = (uint32_t)(lo + (int64_t)wl_umod(&um, wl_rng_next(&st)));
					memcpy(b->init + 4 * i, &y, 4);
				}
			else
				for (uint64_t i = 0; i < b->count; i++) {
					uint64_t r = wl_rng_next(&st);
					struct wl_val v = {.i = lo + (int64_t)(span ? wl_umod(&um, r) : r)};
					wl_store(b->type, b->init, i, v);
				}
		}
	}
	return 0;
}

static int wl_buffers_load(struct wl_ld *ld, const config_setting_t *list, bool symbols,
			   struct fe_memory *probe)
{
	struct workload *w = ld->w;
	const char *what = symbols ? "symbols" : "buffers";
	if (!config_setting_is_list(list) && !config_setting_is_array(list))
		return wl_fail(ld, list, what, "%s must be a list ( {...}, ... )", what);
	int n = config_setting_length(list);
	struct wl_buffer *nb = realloc(w->bufs, sizeof *nb * (w->n_bufs + (uint32_t)n + 1));
	if (!nb)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	w->bufs = nb;
	for (int i = 0; i < n; i++) {
		const config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
		char where[96];
		snprintf(where, sizeof where, "%s[%d]", what, i);
		if (!config_setting_is_group(g))
			return wl_fail(ld, g, where, "%s must be a group { name = ...; }", where);
		int rc = wl_keys_check(ld, g, where, wl_buffer_keys);
		const char *name, *type;
		rc = rc ? rc : wl_get_string(ld, g, "name", where, true, &name);
		rc = rc ? rc : wl_get_string(ld, g, "type", where, true, &type);
		if (rc)
			return rc;
		if (wl_buffer_find(w, name) >= 0)
			return wl_fail(ld, g, where, "%s: name '%s' is used twice", where, name);
		struct wl_buffer *b = &w->bufs[w->n_bufs];
		memset(b, 0, sizeof *b);
		b->type = WL_N_TYPES;
		for (int t = 0; t < WL_N_TYPES; t++)
			if (!strcmp(type, wl_type_names[t]))
				b->type = (enum wl_type)t;
		if (b->type == WL_N_TYPES)
			return wl_fail(ld, config_setting_get_member(g, "type"), "type",
				       "%s: type must be u8 s8 u16 s16 u32 s32 u64 s64 f32 f64, got "
				       "\"%s\"", where, type);
		b->name = wl_strdup(name);
		b->is_symbol = symbols;
		w->n_bufs++; /* owned from here, so workload_destroy frees it on error */
		if (!b->name)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		uint64_t max_count = 0;
		if (symbols) {
			uint64_t addr, size;
			struct sim_error e2 = {0};
			if (fe_symbol(probe, w->mod, name, &addr, &size, &e2))
				return wl_fail(ld, g, where, "%s: '%s' is not a .global/.const symbol "
					       "of the PTX", where, name);
			max_count = size / wl_type_bytes(b->type);
			b->count = max_count;
		}
		int64_t count = (int64_t)b->count;
		rc = wl_opt_int(ld, g, "count", where, 1, INT64_C(1) << 34, &count);
		if (rc)
			return rc;
		b->count = (uint64_t)count;
		rc = wl_buffer_init(ld, g, where, b, max_count);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- launches --------------------------------------------------------------------------- */

static int wl_dim3(struct wl_ld *ld, const config_setting_t *g, const char *key, const char *where,
		   bool required, struct ws_dim3 *out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	*out = WS_DIM3(1, 1, 1);
	if (!s) {
		if (required)
			return wl_fail(ld, g, key, "%s: missing required key '%s'", where, key);
		return 0;
	}
	char setting[160];
	snprintf(setting, sizeof setting, "%s.%s", where, key);
	uint32_t *d[3] = {&out->x, &out->y, &out->z};
	/* Range checks here are loose (x up to 2^31-1); ws_launch limits are applied below. */
	int64_t v;
	if (config_setting_is_aggregate(s)) {
		int n = config_setting_length(s);
		if (n < 1 || n > 3)
			return wl_fail(ld, s, setting, "%s must have 1 to 3 elements", setting);
		for (int i = 0; i < n; i++) {
			int rc = wl_eval_int(ld, config_setting_get_elem(s, (unsigned)i), setting,
					     INT64_MIN, INT64_MAX, &v);
			if (rc)
				return rc;
			if (v < 1 || v > (int64_t)WS_MAX_GRID_X)
				return wl_fail(ld, s, setting, "%s[%d] = %lld is out of bounds",
					       setting, i, (long long)v);
			*d[i] = (uint32_t)v;
		}
		return 0;
	}
	int rc = wl_eval_int(ld, s, setting, INT64_MIN, INT64_MAX, &v);
	if (rc)
		return rc;
	if (v < 1 || v > (int64_t)WS_MAX_GRID_X)
		return wl_fail(ld, s, setting, "%s = %lld is out of bounds", setting, (long long)v);
	out->x = (uint32_t)v;
	return 0;
}

static bool wl_is_ident(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (*s && (isalnum((unsigned char)*s) || *s == '_'))
		s++;
	return !*s;
}

static const char *const wl_arg_keys[] = {"ptr", "offset", "type", "value", "struct", NULL};

static const char *const wl_kind_names[] = {"an integer", "a float", "an untyped"};

/* Append one value (ptr, typed scalar or untyped scalar of size `want`) at byte offset at of
 * a->bytes. want = 0 means the value must carry its own type (struct fields). kind: what the
 * PTX parameter holds; a float never goes into an integer or pointer parameter (its bits would
 * be taken as an address), an integer into a float parameter is converted as C converts it. */
static int wl_arg_value(struct wl_ld *ld, const config_setting_t *s, const char *setting,
			uint32_t want, enum fe_param_kind kind, struct wl_arg *a, uint32_t *size_out)
{
	struct workload *w = ld->w;
	const char *ptr = NULL, *type = NULL;
	int64_t off = 0;
	const config_setting_t *vs = s;
	if (config_setting_is_group(s)) {
		int rc = wl_keys_check(ld, s, setting, wl_arg_keys);
		rc = rc ? rc : wl_get_string(ld, s, "ptr", setting, false, &ptr);
		rc = rc ? rc : wl_get_string(ld, s, "type", setting, false, &type);
		rc = rc ? rc : wl_opt_int(ld, s, "offset", setting, 0, INT64_MAX, &off);
		if (rc)
			return rc;
		if (config_setting_get_member(s, "struct"))
			return wl_fail(ld, s, setting, "%s: a struct cannot be nested here", setting);
		vs = config_setting_get_member(s, "value");
		if (!ptr && !vs)
			return wl_fail(ld, s, setting, "%s needs ptr = \"buffer\" or value", setting);
	} else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		const char *str = config_setting_get_string(s);
		if (wl_buffer_find(w, str) >= 0)
			ptr = str;
		else if (wl_is_ident(str) && !wl_param_find(w, str))
			return wl_fail(ld, s, setting, "%s: no buffer or param named '%s'", setting,
				       str);
	}
	uint32_t size;
	unsigned char tmp[8];
	if (ptr) {
		int b = wl_buffer_find(w, ptr);
		if (b < 0)
			return wl_fail(ld, s, setting, "%s: no buffer named '%s'", setting, ptr);
		if ((uint64_t)off >= w->bufs[b].bytes)
			return wl_fail(ld, s, setting, "%s: offset %lld beyond buffer '%s'", setting,
				       (long long)off, ptr);
		size = 8;
		struct wl_fixup *f = realloc(a->fix, sizeof *f * (a->n_fix + 1));
		if (!f)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
					     "out of memory");
		a->fix = f;
		f[a->n_fix++] = (struct wl_fixup){.at = a->size_bytes, .buf = (uint32_t)b,
						  .off = (uint64_t)off};
		memset(tmp, 0, sizeof tmp);
		if (want && want != 8)
			return wl_fail(ld, s, setting, "%s: a pointer (8 bytes) is given but the "
				       "parameter is %u bytes", setting, want);
		if (want && kind == FE_PARAM_FLOAT)
			return wl_fail(ld, s, setting, "%s: a pointer (buffer '%s') is given for a "
				       "float parameter", setting, ptr);
	} else {
		struct wl_val v;
		int rc = wl_eval(ld, vs, setting, &v);
		if (rc)
			return rc;
		if (want && !type && kind == FE_PARAM_INT && v.is_float)
			return wl_fail(ld, s, setting, "%s: %g is given for an integer or pointer "
				       "parameter", setting, v.f);
		if (want && !type && kind == FE_PARAM_FLOAT && !v.is_float) {
			v.is_float = true;
			v.f = (double)v.i;
		}
		enum wl_type t = WL_N_TYPES;
		if (type) {
			for (int i = 0; i < WL_N_TYPES; i++)
				if (!strcmp(type, wl_type_names[i]))
					t = (enum wl_type)i;
			if (t == WL_N_TYPES)
				return wl_fail(ld, s, setting, "%s: unknown type \"%s\"", setting,
					       type);
		} else if (!want) {
			return wl_fail(ld, s, setting, "%s: struct fields need an explicit type",
				       setting);
		} else if (want == 4) {
			t = v.is_float ? WL_F32 : (v.i < 0 ? WL_S32 : WL_U32);
		} else if (want == 8) {
			t = v.is_float ? WL_F64 : WL_S64;
		} else if (want == 2 || want == 1) {
			t = want == 2 ? WL_S16 : WL_S8;
		} else {
			return wl_fail(ld, s, setting, "%s: a scalar is given for a %u-byte parameter "
				       "(a struct? use { struct = (...) })", setting, want);
		}
		size = wl_type_bytes(t);
		if (want && size != want)
			return wl_fail(ld, s, setting, "%s: a %s (%u bytes) is given but the "
				       "parameter is %u bytes", setting, wl_type_names[t], size,
				       want);
		if (want && type && kind != FE_PARAM_BYTES &&
		    wl_type_is_float(t) != (kind == FE_PARAM_FLOAT))
			return wl_fail(ld, s, setting, "%s: a value of type %s is given for %s "
				       "parameter", setting, wl_type_names[t], wl_kind_names[kind]);
		if (!wl_type_is_float(t)) {
			if (v.is_float)
				return wl_fail(ld, s, setting, "%s: %g is not an integer (type %s)",
					       setting, v.f, wl_type_names[t]);
			/* Either signedness of the width is accepted (bit patterns like -1u). */
			if (size < 8) {
				int64_t lo = -(INT64_C(1) << (size * 8 - 1));
				int64_t hi = (INT64_C(1) << (size * 8)) - 1;
				if (v.i < lo || v.i > hi)
					return wl_fail(ld, s, setting, "%s: %lld does not fit in %u "
						       "bytes", setting, (long long)v.i, size);
			}
		}
		wl_store(t, tmp, 0, v);
	}
	unsigned char *nb = realloc(a->bytes, a->size_bytes + size);
	if (!nb)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	a->bytes = nb;
	memcpy(a->bytes + a->size_bytes, tmp, size);
	*size_out = size;
	return 0;
}

/* One argument for a parameter of param_bytes bytes. */
static int wl_arg_load(struct wl_ld *ld, const config_setting_t *s, const char *setting,
		       uint32_t param_bytes, enum fe_param_kind kind, struct wl_arg *a)
{
	const config_setting_t *st = config_setting_is_group(s)
					     ? config_setting_get_member(s, "struct")
					     : NULL;
	uint32_t size;
	if (!st) {
		int rc = wl_arg_value(ld, s, setting, param_bytes, kind, a, &size);
		if (rc)
			return rc;
		a->size_bytes = size;
		return 0;
	}
	if (config_setting_length(s) != 1)
		return wl_fail(ld, s, setting, "%s: struct = (...) takes no other keys", setting);
	if (!config_setting_is_list(st) || config_setting_length(st) < 1)
		return wl_fail(ld, st, setting, "%s: struct must be a non-empty list of fields",
			       setting);
	/* Natural alignment of each field, total padded to the largest, as C and nvcc lay out
	 * a by-value struct parameter (.align N .b8 p[K]). */
	uint32_t max_align = 1;
	for (int i = 0; i < config_setting_length(st); i++) {
		char fs[192];
		snprintf(fs, sizeof fs, "%s.struct[%d]", setting, i);
		uint32_t start = a->size_bytes, pad = 0;
		/* Values are appended at size_bytes; pad after learning the field size. */
		int rc = wl_arg_value(ld, config_setting_get_elem(st, (unsigned)i), fs, 0,
				      FE_PARAM_BYTES, a, &size);
		if (rc)
			return rc;
		pad = (size - start % size) % size;
		if (pad) {
			unsigned char *nb = realloc(a->bytes, start + pad + size);
			if (!nb)
				return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
						     "out of memory");
			a->bytes = nb;
			memmove(a->bytes + start + pad, a->bytes + start, size);
			memset(a->bytes + start, 0, pad);
			for (uint32_t k = 0; k < a->n_fix; k++)
				if (a->fix[k].at == start)
					a->fix[k].at += pad;
		}
		a->size_bytes = start + pad + size;
		if (size > max_align)
			max_align = size;
	}
	uint32_t total = (a->size_bytes + max_align - 1) / max_align * max_align;
	unsigned char *nb = realloc(a->bytes, total);
	if (!nb)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	a->bytes = nb;
	memset(a->bytes + a->size_bytes, 0, total - a->size_bytes);
	a->size_bytes = total;
	if (total != param_bytes)
		return wl_fail(ld, st, setting, "%s: struct of %u bytes given for a parameter of %u "
			       "bytes", setting, total, param_bytes);
	return 0;
}

static const char *const wl_launch_keys[] = {"kernel", "grid", "block", "shared_bytes", "args",
					     "repeat", "swap", NULL};

static int wl_launch_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
			  struct wl_launch *l)
{
	struct workload *w = ld->w;
	const char *kernel;
	int rc = wl_keys_check(ld, g, where, wl_launch_keys);
	rc = rc ? rc : wl_get_string(ld, g, "kernel", where, true, &kernel);
	if (rc)
		return rc;
	uint32_t n_params = 0;
	struct sim_error e2 = {0};
	if (fe_kernel_params(w->mod, kernel, &n_params, &e2))
		return wl_fail(ld, config_setting_get_member(g, "kernel"), "kernel",
			       "%s: the PTX has no kernel '%s'", where, kernel);
	l->kernel = wl_strdup(kernel);
	l->swap[0] = l->swap[1] = -1;
	if (!l->kernel)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	rc = wl_dim3(ld, g, "grid", where, true, &l->grid);
	rc = rc ? rc : wl_dim3(ld, g, "block", where, true, &l->block);
	int64_t shared = 0, repeat = 1;
	rc = rc ? rc : wl_opt_int(ld, g, "shared_bytes", where, 0, WS_MAX_DYN_SHARED_BYTES, &shared);
	rc = rc ? rc : wl_opt_int(ld, g, "repeat", where, 1, 1000000, &repeat);
	if (rc)
		return rc;
	l->shared_bytes = (uint32_t)shared;
	l->repeat = (uint32_t)repeat;
	struct ws_dim3 gr = l->grid, bl = l->block;
	uint64_t threads = (uint64_t)bl.x * bl.y * bl.z;
	if (gr.y > WS_MAX_GRID_YZ || gr.z > WS_MAX_GRID_YZ)
		return wl_fail(ld, config_setting_get_member(g, "grid"), "grid",
			       "%s: grid (%u,%u,%u) out of bounds (y and z at most %u)", where,
			       gr.x, gr.y, gr.z, WS_MAX_GRID_YZ);
	if (bl.x > WS_MAX_BLOCK_XY || bl.y > WS_MAX_BLOCK_XY || bl.z > WS_MAX_BLOCK_Z ||
	    threads > WS_MAX_THREADS_PER_BLOCK)
		return wl_fail(ld, config_setting_get_member(g, "block"), "block",
			       "%s: block (%u,%u,%u) out of bounds (x,y at most %u, z at most %u, "
			       "%u threads)", where, bl.x, bl.y, bl.z, WS_MAX_BLOCK_XY,
			       WS_MAX_BLOCK_Z, WS_MAX_THREADS_PER_BLOCK);
	const config_setting_t *sw = config_setting_get_member(g, "swap");
	if (sw) {
		if (!config_setting_is_aggregate(sw) || config_setting_length(sw) != 2)
			return wl_fail(ld, sw, "swap", "%s: swap must name two buffers", where);
		for (int i = 0; i < 2; i++) {
			const char *bn = config_setting_get_string_elem(sw, (unsigned)i);
			int b = bn ? wl_buffer_find(w, bn) : -1;
			if (b < 0 || w->bufs[b].is_symbol)
				return wl_fail(ld, sw, "swap", "%s: swap: no buffer named '%s'", where,
					       bn ? bn : "?");
			l->swap[i] = b;
		}
		if (l->swap[0] == l->swap[1] ||
		    w->bufs[l->swap[0]].bytes != w->bufs[l->swap[1]].bytes)
			return wl_fail(ld, sw, "swap", "%s: swap needs two distinct buffers of the "
				       "same size", where);
	}
	const config_setting_t *args = config_setting_get_member(g, "args");
	uint32_t n_args = args ? (uint32_t)config_setting_length(args) : 0;
	if (args && !config_setting_is_aggregate(args))
		return wl_fail(ld, args, "args", "%s: args must be a list", where);
	if (n_args != n_params)
		return wl_fail(ld, args ? args : g, "args", "%s: kernel %s takes %u arguments, %u "
			       "given", where, kernel, n_params, n_args);
	l->args = calloc(n_args ? n_args : 1, sizeof *l->args);
	if (!l->args)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	l->n_args = n_args;
	for (uint32_t i = 0; i < n_args; i++) {
		uint32_t off, size, align;
		enum fe_param_kind kind;
		rc = fe_kernel_param(w->mod, kernel, i, &off, &size, &align, ld->err);
		rc = rc ? rc : fe_kernel_param_kind(w->mod, kernel, i, &kind, ld->err);
		if (rc)
			return rc;
		char setting[128];
		snprintf(setting, sizeof setting, "%s.args[%u]", where, i);
		rc = wl_arg_load(ld, config_setting_get_elem(args, i), setting, size, kind,
				 &l->args[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- checks ----------------------------------------------------------------------------- */

static const char *const wl_check_keys[] = {"buffer", "reference", "file", "abs_tol", "rel_tol",
					    NULL};

static int wl_check_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
			 struct wl_check *c)
{
	struct workload *w = ld->w;
	const char *buf, *ref = NULL, *file = NULL;
	if (!config_setting_is_group(g))
		return wl_fail(ld, g, where, "%s must be a group { buffer = ...; }", where);
	int rc = wl_keys_check(ld, g, where, wl_check_keys);
	rc = rc ? rc : wl_get_string(ld, g, "buffer", where, true, &buf);
	rc = rc ? rc : wl_get_string(ld, g, "reference", where, false, &ref);
	rc = rc ? rc : wl_get_string(ld, g, "file", where, false, &file);
	rc = rc ? rc : wl_opt_float(ld, g, "abs_tol", where, &c->abs_tol);
	rc = rc ? rc : wl_opt_float(ld, g, "rel_tol", where, &c->rel_tol);
	if (rc)
		return rc;
	if (!(c->abs_tol >= 0) || !(c->rel_tol >= 0))
		return wl_fail(ld, g, where, "%s: tolerances must be >= 0", where);
	int b = wl_buffer_find(w, buf);
	if (b < 0)
		return wl_fail(ld, config_setting_get_member(g, "buffer"), "buffer",
			       "%s: no buffer named '%s'", where, buf);
	c->buf = (uint32_t)b;
	if (!ref == !file)
		return wl_fail(ld, g, where, "%s needs exactly one of reference or file", where);
	if (ref) {
		c->ref = wl_ref_find(ref);
		if (!c->ref)
			return wl_fail(ld, config_setting_get_member(g, "reference"), "reference",
				       "%s: no built-in reference function '%s'", where, ref);
		if (c->ref->type != w->bufs[b].type)
			return wl_fail(ld, config_setting_get_member(g, "reference"), "reference",
				       "%s: reference '%s' produces %s but buffer '%s' is %s", where,
				       ref, wl_type_names[c->ref->type], buf,
				       wl_type_names[w->bufs[b].type]);
		return 0;
	}
	char *p = wl_rel_path(w, file);
	uint64_t n = 0;
	c->file_data = p ? wl_read_file(p, &n) : NULL;
	free(p);
	if (!c->file_data)
		return wl_fail(ld, config_setting_get_member(g, "file"), "file",
			       "%s: cannot read reference file '%s'", where, file);
	if (n != w->bufs[b].bytes)
		return wl_fail(ld, config_setting_get_member(g, "file"), "file",
			       "%s: reference file '%s' has %llu bytes, buffer '%s' has %llu", where,
			       file, (unsigned long long)n, buf,
			       (unsigned long long)w->bufs[b].bytes);
	return 0;
}

/* ---- the file --------------------------------------------------------------------------- */

static const char *const wl_root_keys[] = {"name", "description", "ptx", "host", "size", "sizes",
					   "params", "regs_per_thread", "buffers", "symbols",
					   "launches", "check", NULL};

static int wl_load_root(struct wl_ld *ld, const config_setting_t *root, const char *size_override)
{
	struct workload *w = ld->w;
	const char *name, *ptx, *host, *size = NULL;
	int rc = wl_keys_check(ld, root, "the workload file", wl_root_keys);
	rc = rc ? rc : wl_get_string(ld, root, "name", "workload", true, &name);
	rc = rc ? rc : wl_get_string(ld, root, "ptx", "workload", true, &ptx);
	rc = rc ? rc : wl_get_string(ld, root, "host", "workload", false, &host);
	rc = rc ? rc : wl_get_string(ld, root, "size", "workload", false, &size);
	if (rc)
		return rc;
	const config_setting_t *desc = config_setting_get_member(root, "description");
	if (desc && config_setting_type(desc) != CONFIG_TYPE_STRING)
		return wl_fail(ld, desc, "description", "description must be a string");
	if (size_override)
		size = size_override;
	w->name = wl_strdup(name);
	w->size = wl_strdup(size ? size : "small");
	if (!w->name || !w->size)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	const config_setting_t *sizes = config_setting_get_member(root, "sizes");
	if (sizes) {
		if (!config_setting_is_group(sizes))
			return wl_fail(ld, sizes, "sizes", "sizes must be a group of groups");
		const config_setting_t *sel = config_setting_get_member(sizes, w->size);
		if (!sel || !config_setting_is_group(sel)) {
			char have[128] = "";
			size_t off = 0;
			for (int i = 0; i < config_setting_length(sizes) && off < sizeof have; i++) {
				const char *n = config_setting_name(config_setting_get_elem(sizes, (unsigned)i));
				off += (size_t)snprintf(have + off, sizeof have - off, "%s%s", i ? ", " : "", n ? n : "?");
			}
			return wl_fail(ld, sizes, "sizes", "sizes has no group '%s' (it has %s)", w->size, have);
		}
		char where[160];
		snprintf(where, sizeof where, "sizes.%s", w->size);
		rc = wl_params_add(ld, sel, where);
		if (rc)
			return rc;
	} else if (size_override && strcmp(size_override, "small")) {
		return wl_fail(ld, root, "size", "the workload has no sizes group, so size '%s' "
			       "cannot be selected", size_override);
	}
	const config_setting_t *params = config_setting_get_member(root, "params");
	if (params) {
		if (!config_setting_is_group(params))
			return wl_fail(ld, params, "params", "params must be a group");
		rc = wl_params_add(ld, params, "params");
		if (rc)
			return rc;
	}
	char *ptx_path = wl_rel_path(w, ptx);
	if (!ptx_path)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	rc = fe_module_load(ptx_path, &w->mod, ld->err);
	free(ptx_path);
	if (rc)
		return rc;
	if (host) {
		w->host = wl_host_find(host);
		if (!w->host)
			return wl_fail(ld, config_setting_get_member(root, "host"), "host",
				       "no built-in host routine '%s'", host);
	}
	const config_setting_t *regs = config_setting_get_member(root, "regs_per_thread");
	if (regs) {
		/* a group { kernel = N; } names kernels that are libconfig names; the list form
		 * ({ kernel = "f<32>(float*)"; regs = N; }, ...) takes any spelling, C++ too */
		bool list = config_setting_is_list(regs);
		if (!config_setting_is_group(regs) && !list)
			return wl_fail(ld, regs, "regs_per_thread",
				       "regs_per_thread must be a group { kernel = N; } or a list "
				       "( { kernel = \"name\"; regs = N; } )");
		int n = config_setting_length(regs);
		w->regs = calloc((size_t)n + 1, sizeof *w->regs);
		if (!w->regs)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		for (int i = 0; i < n; i++) {
			const config_setting_t *m = config_setting_get_elem(regs, (unsigned)i);
			const char *k = config_setting_name(m);
			if (list) {
				static const char *const keys[] = {"kernel", "regs", NULL};
				if (!config_setting_is_group(m))
					return wl_fail(ld, m, "regs_per_thread",
						       "each element must be { kernel = \"name\"; regs = N; }");
				rc = wl_keys_check(ld, m, "regs_per_thread", keys);
				rc = rc ? rc : wl_get_string(ld, m, "kernel", "regs_per_thread", true, &k);
				if (rc)
					return rc;
				m = config_setting_get_member(m, "regs");
				if (!m)
					return wl_fail(ld, config_setting_get_elem(regs, (unsigned)i),
						       "regs_per_thread", "element has no regs = N");
			}
			uint32_t np;
			struct sim_error e2 = {0};
			if (fe_kernel_params(w->mod, k, &np, &e2))
				return wl_fail(ld, m, k, "regs_per_thread: the PTX has no kernel '%s'",
					       k);
			int64_t v;
			char setting[160];
			snprintf(setting, sizeof setting, "regs_per_thread.%s", k);
			rc = wl_eval_int(ld, m, setting, 1, 255, &v);
			if (rc)
				return rc;
			w->regs[w->n_regs].kernel = wl_strdup(k);
			w->regs[w->n_regs++].regs = (uint32_t)v;
		}
	}
	const config_setting_t *bufs = config_setting_get_member(root, "buffers");
	const config_setting_t *syms = config_setting_get_member(root, "symbols");
	if (bufs) {
		rc = wl_buffers_load(ld, bufs, false, NULL);
		if (rc)
			return rc;
	}
	if (syms) {
		/* Symbol sizes are known once bound into a memory image. */
		struct fe_memory *probe = fe_memory_create();
		if (!probe)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		rc = fe_memory_bind_module(probe, w->mod, ld->err);
		rc = rc ? rc : wl_buffers_load(ld, syms, true, probe);
		fe_memory_destroy(probe);
		if (rc)
			return rc;
	}
	const config_setting_t *launches = config_setting_get_member(root, "launches");
	if (launches) {
		if (!config_setting_is_list(launches) || config_setting_length(launches) < 1)
			return wl_fail(ld, launches, "launches", "launches must be a non-empty list");
		int n = config_setting_length(launches);
		w->launches = calloc((size_t)n, sizeof *w->launches);
		if (!w->launches)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		for (int i = 0; i < n; i++) {
			char where[64];
			snprintf(where, sizeof where, "launches[%d]", i);
			const config_setting_t *g = config_setting_get_elem(launches, (unsigned)i);
			if (!config_setting_is_group(g))
				return wl_fail(ld, g, where, "%s must be a group", where);
			w->n_launches++;
			rc = wl_launch_load(ld, g, where, &w->launches[i]);
			if (rc)
				return rc;
		}
	} else if (!w->host) {
		return wl_fail(ld, root, "launches", "a workload needs launches or a host routine");
	}
	const config_setting_t *check = config_setting_get_member(root, "check");
	if (check) {
		bool list = config_setting_is_list(check);
		int n = list ? config_setting_length(check) : 1;
		w->checks = calloc((size_t)n + 1, sizeof *w->checks);
		if (!w->checks)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		for (int i = 0; i < n; i++) {
			char where[64];
			snprintf(where, sizeof where, list ? "check[%d]" : "check", i);
			w->n_checks++;
			rc = wl_check_load(ld, list ? config_setting_get_elem(check, (unsigned)i) : check,
					   where, &w->checks[i]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

struct workload *workload_load_size(const char *path, const char *size, struct sim_error *err)
{
	struct workload *w = calloc(1, sizeof *w);
	if (!w) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	struct wl_ld ld = {.w = w, .path = path, .err = err};
	w->path = wl_strdup(path);
	const char *slash = strrchr(path, '/');
	w->dir = slash ? strndup(path, (size_t)(slash - path)) : wl_strdup(".");
	if (!w->path || !w->dir) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		workload_destroy(w);
		return NULL;
	}
	int rc = cfg_check_regular_file(path, "workload file", NULL, 0, SIM_ERR_INPUT, err);
	if (!rc)
		rc = cfg_check_includes(path, w->dir, SIM_ERR_INPUT, err);
	if (rc) {
		workload_destroy(w);
		return NULL;
	}
	config_t cfg;
	config_init(&cfg);
	config_set_include_dir(&cfg, w->dir);
	if (!config_read_file(&cfg, path)) {
		if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
			rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL,
					   "cannot read workload file");
		else
			rc = sim_error_set(err, SIM_ERR_INPUT,
					   config_error_file(&cfg) ? config_error_file(&cfg) : path,
					   config_error_line(&cfg), 0, NULL, "%s",
					   config_error_text(&cfg));
	} else {
		rc = cfg_lc_check_wrapped_ints(&cfg, NULL, NULL, SIM_ERR_INPUT, err);
		if (!rc)
			rc = wl_load_root(&ld, config_root_setting(&cfg), size);
	}
	config_destroy(&cfg);
	if (rc) {
		workload_destroy(w);
		return NULL;
	}
	return w;
}

struct workload *workload_load(const char *path, struct sim_error *err)
{
	return workload_load_size(path, NULL, err);
}

void workload_destroy(struct workload *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->n_params; i++)
		free(w->params[i].name);
	for (uint32_t i = 0; i < w->n_bufs; i++) {
		free(w->bufs[i].name);
		free(w->bufs[i].init);
	}
	for (uint32_t i = 0; i < w->n_launches; i++) {
		struct wl_launch *l = &w->launches[i];
		for (uint32_t a = 0; l->args && a < l->n_args; a++) {
			free(l->args[a].bytes);
			free(l->args[a].fix);
		}
		free(l->args);
		free(l->kernel);
	}
	for (uint32_t i = 0; i < w->n_checks; i++)
		free(w->checks[i].file_data);
	for (uint32_t i = 0; i < w->n_regs; i++)
		free(w->regs[i].kernel);
	free(w->regs);
	free(w->checks);
	free(w->launches);
	free(w->bufs);
	free(w->params);
	if (w->mod)
		fe_module_destroy(w->mod);
	free(w->path);
	free(w->dir);
	free(w->name);
	free(w->size);
	free(w);
}

const char *workload_name(const struct workload *w) { return w->name; }
const char *workload_size(const struct workload *w) { return w->size; }

uint64_t workload_launch_count(const struct workload *w)
{
	if (w->host)
		return 0;
	uint64_t n = 0;
	for (uint32_t i = 0; i < w->n_launches; i++)
		n += w->launches[i].repeat;
	return n;
}

void workload_params_describe(const struct workload *w, char *buf, size_t n)
{
	size_t off = 0;
	if (n)
		buf[0] = '\0';
	for (uint32_t i = 0; i < w->n_params && off < n; i++) {
		const struct wl_param *p = &w->params[i];
		int k = p->v.is_float ? snprintf(buf + off, n - off, "%s%s=%.17g", i ? " " : "", p->name, p->v.f)
				      : snprintf(buf + off, n - off, "%s%s=%lld", i ? " " : "", p->name,
						 (long long)p->v.i);
		off += k > 0 ? (size_t)k : 0;
	}
}
const struct fe_module *workload_module(const struct workload *w) { return w->mod; }
void workload_totals(const struct workload *w, struct ws_totals *out) { *out = w->totals; }
