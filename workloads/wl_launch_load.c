/* SPDX-License-Identifier: MIT */
/* Workload file loader, its launches and checks stage: each launch's kernel, grid, block and
 * arguments sized against the kernel's parameters, and the check's buffer and reference. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "wl_load.h"

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

int wl_launch_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
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

int wl_check_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
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
