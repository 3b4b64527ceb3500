/* SPDX-License-Identifier: MIT */
/* Workload file loader: strict libconfig validation (every key known, every name resolved,
 * every argument sized against the kernel's parameters) into a struct workload. This file:
 * the file, its sizes and params, and the helpers the stages share (wl_load.h); buffers in
 * wl_buffers.c, launches and checks in wl_launch_load.c. */
#include <libconfig.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wl_load.h"
#include "engine/cfg_text.h"

const char *const wl_type_names[WL_N_TYPES] = {"u8",  "s8",  "u16", "s16", "u32",
					       "s32", "u64", "s64", "f32", "f64"};

uint32_t wl_type_bytes(enum wl_type t)
{
	static const uint32_t b[WL_N_TYPES] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
	return b[t];
}

bool wl_type_is_float(enum wl_type t) { return t == WL_F32 || t == WL_F64; }

const char *wl_src_file(const struct wl_ld *ld, const config_setting_t *s)
{
	const char *f = s ? config_setting_source_file(s) : NULL;
	return f ? f : ld->path;
}

int wl_src_line(const config_setting_t *s)
{
	return s ? (int)config_setting_source_line(s) : 0;
}

int wl_fail(struct wl_ld *ld, const config_setting_t *s, const char *setting, const char *fmt, ...)
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

char *wl_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Reject any member of group g not in allowed (NULL-terminated). */
int wl_keys_check(struct wl_ld *ld, const config_setting_t *g, const char *where,
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

int wl_get_string(struct wl_ld *ld, const config_setting_t *g, const char *key,
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
int wl_eval(struct wl_ld *ld, const config_setting_t *s, const char *setting,
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

int wl_eval_int(struct wl_ld *ld, const config_setting_t *s, const char *setting,
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
int wl_opt_int(struct wl_ld *ld, const config_setting_t *g, const char *key,
	       const char *where, int64_t lo, int64_t hi, int64_t *out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	if (!s)
		return 0;
	char setting[160];
	snprintf(setting, sizeof setting, "%s.%s", where, key);
	return wl_eval_int(ld, s, setting, lo, hi, out);
}

int wl_opt_float(struct wl_ld *ld, const config_setting_t *g, const char *key,
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

/* ---- files ------------------------------------------------------------------------------ */

unsigned char *wl_read_file(const char *path, uint64_t *bytes)
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

char *wl_rel_path(const struct workload *w, const char *p)
{
	if (p[0] == '/')
		return wl_strdup(p);
	size_t n = strlen(w->dir) + strlen(p) + 2;
	char *r = malloc(n);
	if (r)
		snprintf(r, n, "%s/%s", w->dir, p);
	return r;
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
