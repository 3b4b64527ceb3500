/* SPDX-License-Identifier: MIT */
/* Running a loaded workload: buffers and symbols into fresh device memory, launches with
 * repetition and buffer swapping (or the host routine), then the result checks. Also the small
 * expression language of workload files and the accessors. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"

/* ---- expressions: recursive descent over the text, no allocation -------------------------- */

struct wl_px {
	const struct workload *w;
	const char *s, *p;
	const char *file, *setting;
	int line;
	struct sim_error *err;
};

static int wl_px_fail(struct wl_px *x, const char *msg)
{
	return sim_error_set(x->err, SIM_ERR_INPUT, x->file, x->line, 0, x->setting,
			     "%s in expression \"%s\" at column %d", msg, x->s,
			     (int)(x->p - x->s) + 1);
}

static void wl_px_ws(struct wl_px *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
}

static int wl_px_sum(struct wl_px *x, struct wl_val *v);

static int wl_px_atom(struct wl_px *x, struct wl_val *v)
{
	wl_px_ws(x);
	const char *p = x->p;
	if (*p == '(') {
		x->p++;
		int rc = wl_px_sum(x, v);
		if (rc)
			return rc;
		wl_px_ws(x);
		if (*x->p != ')')
			return wl_px_fail(x, "expected ')'");
		x->p++;
		return 0;
	}
	if (*p == '-') {
		x->p++;
		int rc = wl_px_atom(x, v);
		if (rc)
			return rc;
		if (__builtin_sub_overflow((int64_t)0, v->i, &v->i) && !v->is_float)
			return wl_px_fail(x, "integer overflow");
		v->f = -v->f;
		return 0;
	}
	if (isdigit((unsigned char)*p) || *p == '.') {
		char *end;
		errno = 0;
		double f = strtod(p, &end);
		if (errno == ERANGE && !isfinite(f))
			return wl_px_fail(x, "number out of range");
		bool is_float = false;
		for (const char *q = p; q < end; q++)
			is_float = is_float || *q == '.' || *q == 'e' || *q == 'E';
		if (is_float) {
			*v = (struct wl_val){.is_float = true, .f = f, .i = wl_f2i(f)};
		} else {
			errno = 0;
			long long i = strtoll(p, &end, 0);
			if (errno == ERANGE) /* strtoll saturates: another number, silently */
				return wl_px_fail(x, "integer literal beyond 64 bits");
			*v = (struct wl_val){.is_float = false, .i = i, .f = (double)i};
		}
		x->p = end;
		return 0;
	}
	if (isalpha((unsigned char)*p) || *p == '_') {
		char name[64];
		size_t n = 0;
		while ((isalnum((unsigned char)*x->p) || *x->p == '_') && n + 1 < sizeof name)
			name[n++] = *x->p++;
		name[n] = 0;
		const struct wl_param *prm = wl_param_find(x->w, name);
		if (!prm) {
			x->p = p;
			char msg[128];
			snprintf(msg, sizeof msg, "unknown name '%s' (not a param or size value)",
				 name);
			return wl_px_fail(x, msg);
		}
		*v = prm->v;
		return 0;
	}
	return wl_px_fail(x, "expected a number, a name or '('");
}

static int wl_px_product(struct wl_px *x, struct wl_val *v)
{
	int rc = wl_px_atom(x, v);
	for (;;) {
		if (rc)
			return rc;
		wl_px_ws(x);
		char op = *x->p;
		if (op != '*' && op != '/' && op != '%')
			return 0;
		x->p++;
		struct wl_val r;
		rc = wl_px_atom(x, &r);
		if (rc)
			return rc;
		if (op != '*' && (r.is_float ? r.f == 0.0 : r.i == 0))
			return wl_px_fail(x, "division by zero");
		if (v->is_float || r.is_float) {
			if (op == '%')
				return wl_px_fail(x, "'%' needs integers");
			v->f = op == '*' ? v->f * r.f : v->f / r.f;
			v->is_float = true;
			v->i = wl_f2i(v->f);
		} else {
			bool ovf = false;
			if (op == '*')
				ovf = __builtin_mul_overflow(v->i, r.i, &v->i);
			else if (r.i == -1)
				ovf = __builtin_sub_overflow((int64_t)0, op == '/' ? v->i : 0, &v->i);
			else
				v->i = op == '/' ? v->i / r.i : v->i % r.i;
			if (ovf)
				return wl_px_fail(x, "integer overflow");
			v->f = (double)v->i;
		}
	}
}

static int wl_px_sum(struct wl_px *x, struct wl_val *v)
{
	int rc = wl_px_product(x, v);
	for (;;) {
		if (rc)
			return rc;
		wl_px_ws(x);
		char op = *x->p;
		if (op != '+' && op != '-')
			return 0;
		x->p++;
		struct wl_val r;
		rc = wl_px_product(x, &r);
		if (rc)
			return rc;
		if (v->is_float || r.is_float) {
			v->f = op == '+' ? v->f + r.f : v->f - r.f;
			v->is_float = true;
			v->i = wl_f2i(v->f);
		} else {
			if (op == '+' ? __builtin_add_overflow(v->i, r.i, &v->i)
				      : __builtin_sub_overflow(v->i, r.i, &v->i))
				return wl_px_fail(x, "integer overflow");
			v->f = (double)v->i;
		}
	}
}

int wl_expr_eval(const struct workload *w, const char *text, const char *file, int line,
		 const char *setting, struct wl_val *out, struct sim_error *err)
{
	struct wl_px x = {.w = w, .s = text, .p = text, .file = file, .setting = setting,
			  .line = line, .err = err};
	int rc = wl_px_sum(&x, out);
	if (rc)
		return rc;
	wl_px_ws(&x);
	if (*x.p)
		return wl_px_fail(&x, "unexpected text");
	return 0;
}

/* ---- accessors ---------------------------------------------------------------------------- */

int workload_param_int(const struct workload *w, const char *name, int64_t *out,
		       struct sim_error *err)
{
	const struct wl_param *p = wl_param_find(w, name);
	if (!p || p->v.is_float)
		return sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, name,
				     "workload %s (size %s) needs an integer param '%s'", w->name,
				     w->size, name);
	*out = p->v.i;
	return 0;
}

int workload_param_int_in(const struct workload *w, const char *name, int64_t lo, int64_t hi,
			  const char *who, int64_t *out, struct sim_error *err)
{
	int rc = workload_param_int(w, name, out, err);
	if (rc)
		return rc;
	if (*out >= lo && *out <= hi)
		return 0;
	const struct wl_param *p = wl_param_find(w, name);
	char setting[96];
	snprintf(setting, sizeof setting, "%s.%s", p->where, name);
	return sim_error_set(err, SIM_ERR_INPUT, w->path, p->line, 0, setting,
			     "%lld is out of range %lld..%lld for %s", (long long)*out, (long long)lo,
			     (long long)hi, who);
}

int workload_param_float(const struct workload *w, const char *name, double *out,
			 struct sim_error *err)
{
	const struct wl_param *p = wl_param_find(w, name);
	if (!p)
		return sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, name,
				     "workload %s (size %s) needs a param '%s'", w->name, w->size,
				     name);
	*out = p->v.f;
	return 0;
}

const void *wl_ref_input(const struct workload *w, const char *ref, const char *buf,
			 enum wl_type type, uint64_t min_count, uint64_t *count,
			 struct sim_error *err)
{
	int b = wl_buffer_find(w, buf);
	if (b < 0 || w->bufs[b].type != type || w->bufs[b].count < min_count) {
		sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, ref,
			      "reference %s needs buffer or symbol '%s' of type %s with at least "
			      "%llu elements",
			      ref, buf, wl_type_names[type], (unsigned long long)min_count);
		return NULL;
	}
	if (count)
		*count = w->bufs[b].count;
	return w->bufs[b].init;
}

int wl_ref_int(const struct workload *w, const char *ref, const char *name, int64_t *out,
	       struct sim_error *err)
{
	const struct wl_param *p = wl_param_find(w, name);
	if (!p || p->v.is_float)
		return sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, ref,
				     "reference %s needs an integer param '%s'", ref, name);
	*out = p->v.i;
	return 0;
}

int wl_ref_float(const struct workload *w, const char *ref, const char *name, double *out,
		 struct sim_error *err)
{
	const struct wl_param *p = wl_param_find(w, name);
	if (!p)
		return sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, ref,
				     "reference %s needs a param '%s'", ref, name);
	*out = p->v.f;
	return 0;
}

struct fe_device workload_functional_device(struct ws_func_stats *stats)
{
	return ws_functional_device(stats);
}

/* ---- checks ------------------------------------------------------------------------------- */

static double wl_elem_f(enum wl_type t, const unsigned char *p)
{
	float f;
	double d;
	if (t == WL_F32) {
		memcpy(&f, p, 4);
		return f;
	}
	memcpy(&d, p, 8);
	return d;
}

static void wl_elem_fmt(enum wl_type t, const unsigned char *p, char *buf, size_t n)
{
	uint64_t u = 0;
	int64_t s;
	if (wl_type_is_float(t)) {
		snprintf(buf, n, "%.9g", wl_elem_f(t, p));
		return;
	}
	memcpy(&u, p, wl_type_bytes(t));
	switch (t) {
	case WL_S8: s = (int8_t)u; break;
	case WL_S16: s = (int16_t)u; break;
	case WL_S32: s = (int32_t)u; break;
	case WL_S64: s = (int64_t)u; break;
	default:
		snprintf(buf, n, "%llu", (unsigned long long)u);
		return;
	}
	snprintf(buf, n, "%lld", (long long)s);
}

/* The elements among count of esz bytes at p with a bit set: an element of 1, 2, 4 or 8 bytes
 * read as one integer (a byte loop per element was 6.5% of a functional vecadd large). */
static uint64_t wl_count_nonzero(const unsigned char *p, uint64_t count, uint32_t esz)
{
	uint64_t n = 0;
#define WL_COUNT_NONZERO(T)                                  \
	for (uint64_t i = 0; i < count; i++) {               \
		T v;                                         \
		memcpy(&v, p + i * sizeof v, sizeof v);      \
		n += v != 0;                                 \
	}
	switch (esz) {
	case 1: WL_COUNT_NONZERO(uint8_t) break;
	case 2: WL_COUNT_NONZERO(uint16_t) break;
	case 4: WL_COUNT_NONZERO(uint32_t) break;
	default: WL_COUNT_NONZERO(uint64_t) break; /* wl_type_bytes: 1, 2, 4 or 8 */
	}
#undef WL_COUNT_NONZERO
	return n;
}

/* Bytes of the device's result a check reads back at a time: a whole-buffer copy's fresh pages
 * (vecadd large: 4 MB, 1,024 page faults) cost more than comparing it. A multiple of 64
 * elements of every size, so the runs of 64 below stay inside one piece. */
#define WL_CHECK_CHUNK_BYTES (64u * 1024)

static int wl_check_run(struct workload *w, struct ws_host *h, const struct wl_check *c,
			uint64_t addr, FILE *log, struct sim_error *err)
{
	const struct wl_buffer *b = &w->bufs[c->buf];
	const uint64_t chunk = b->bytes < WL_CHECK_CHUNK_BYTES ? b->bytes : WL_CHECK_CHUNK_BYTES;
	unsigned char *got = malloc(chunk ? chunk : 1), *want = c->file_data;
	unsigned char *ref_out = NULL;
	int rc = SIM_ERR_NOMEM;
	if (!got)
		goto nomem;
	if (c->ref) {
		ref_out = calloc(1, b->bytes);
		if (!ref_out)
			goto nomem;
		rc = c->ref->fn(w, ref_out, b->count, err);
		if (rc)
			goto out;
		want = ref_out;
	}
	const uint32_t esz = wl_type_bytes(b->type);
	uint64_t bad = 0, first = 0, nonzero = 0;
	unsigned char first_got[8]; /* the first differing element as read */
	for (uint64_t off = 0; off < b->bytes; off += chunk) {
		const uint64_t n = b->bytes - off < chunk ? b->bytes - off : chunk;
		rc = b->is_symbol ? ws_memcpy_from_symbol(h, got, b->name, n, off, err)
				  : ws_memcpy_d2h(h, got, addr + off, n, err);
		if (rc)
			goto out;
		const uint64_t i0 = off / esz, i1 = (off + n) / esz;
		for (uint64_t i = i0; i < i1; i++) {
			const unsigned char *g = got + (i - i0) * esz, *e = want + i * esz;
			/* a run of 64 bitwise-equal elements all pass (equal bits: equal values or
			 * both NaN) */
			if (i % 64 == 0 && b->count - i >= 64 && !memcmp(g, e, 64 * (size_t)esz)) {
				i += 63;
				continue;
			}
			bool ok;
			if (wl_type_is_float(b->type)) {
				double x = wl_elem_f(b->type, g), y = wl_elem_f(b->type, e);
				ok = (isnan(x) && isnan(y)) || x == y ||
				     fabs(x - y) <= c->abs_tol + c->rel_tol * fabs(y);
			} else {
				ok = !memcmp(g, e, esz);
			}
			if (!ok && bad++ == 0) {
				first = i;
				memcpy(first_got, g, esz);
			}
		}
		if (log) /* the nonzero count shows the check is not comparing two untouched buffers */
			nonzero += wl_count_nonzero(got, i1 - i0, esz);
	}
	if (bad) {
		char gs[48], es[48];
		wl_elem_fmt(b->type, first_got, gs, sizeof gs);
		wl_elem_fmt(b->type, want + first * esz, es, sizeof es);
		rc = sim_error_set(err, SIM_ERR_PROGRAM, w->path, 0, 0, b->name,
				   "check of %s failed: %llu of %llu elements differ; first at index "
				   "%llu: got %s, expected %s",
				   b->name, (unsigned long long)bad, (unsigned long long)b->count,
				   (unsigned long long)first, gs, es);
		goto out;
	}
	if (log)
		fprintf(log, "check %s: %llu elements (%llu nonzero) match %s\n", b->name,
			(unsigned long long)b->count, (unsigned long long)nonzero,
			c->ref ? c->ref->name : "the reference file");
	rc = 0;
	goto out;
nomem:
	rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, b->name, "out of memory for check");
out:
	free(got);
	free(ref_out);
	return rc;
}

/* ---- run ---------------------------------------------------------------------------------- */

static int wl_run_launches(struct workload *w, struct ws_host *h, uint64_t *addr, FILE *log,
			   struct sim_error *err)
{
	for (uint32_t li = 0; li < w->n_launches; li++) {
		const struct wl_launch *l = &w->launches[li];
		struct ws_arg args[64];
		unsigned char *bytes[64];
		if (l->n_args > SIM_ARRAY_LEN(args))
			return sim_error_set(err, SIM_ERR_INPUT, w->path, 0, 0, l->kernel,
					     "more than %zu arguments", SIM_ARRAY_LEN(args));
		for (uint32_t a = 0; a < l->n_args; a++) {
			bytes[a] = l->args[a].bytes;
			args[a] = WS_BYTES(bytes[a], l->args[a].size_bytes);
		}
		if (log)
			fprintf(log, "launch %s grid (%u,%u,%u) block (%u,%u,%u) shared %u x%u\n",
				l->kernel, l->grid.x, l->grid.y, l->grid.z, l->block.x, l->block.y,
				l->block.z, l->shared_bytes, l->repeat);
		for (uint32_t r = 0; r < l->repeat; r++) {
			/* Patch the current device addresses (swaps move them between runs). */
			for (uint32_t a = 0; a < l->n_args; a++)
				for (uint32_t k = 0; k < l->args[a].n_fix; k++) {
					const struct wl_fixup *f = &l->args[a].fix[k];
					uint64_t v = addr[f->buf] + f->off;
					memcpy(bytes[a] + f->at, &v, 8);
				}
			int rc = ws_launch(h, l->kernel, l->grid, l->block, l->shared_bytes, args,
					   l->n_args, err);
			if (rc)
				return rc;
			if (l->swap[0] >= 0) {
				uint64_t t = addr[l->swap[0]];
				addr[l->swap[0]] = addr[l->swap[1]];
				addr[l->swap[1]] = t;
			}
		}
	}
	return 0;
}

int workload_run(struct workload *w, const struct fe_device *dev, FILE *log,
		 struct sim_error *err)
{
	memset(&w->totals, 0, sizeof w->totals);
	struct ws_host *h = ws_host_create(w->mod, dev, err);
	if (!h)
		return err && err->code ? err->code : SIM_ERR_FAULT;
	uint64_t *addr = calloc(w->n_bufs + 1, sizeof *addr);
	int rc = addr ? 0 : sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	for (uint32_t i = 0; !rc && i < w->n_regs; i++)
		rc = ws_set_regs_per_thread(h, w->regs[i].kernel, w->regs[i].regs, err);
	for (uint32_t i = 0; !rc && i < w->n_bufs; i++) {
		const struct wl_buffer *b = &w->bufs[i];
		if (b->is_symbol) {
			rc = ws_memcpy_to_symbol(h, b->name, b->init, b->bytes, 0, err);
		} else {
			rc = ws_malloc(h, &addr[i], b->bytes, err);
			/* As a host program: cudaMemset for zeros, cudaMemcpy for data (the two differ
			 * where copies warm the L2, gpu.l2.fill_on_copy). */
			rc = rc ? rc : b->zeros ? ws_memset(h, addr[i], 0, b->bytes, err)
					       : ws_memcpy_h2d(h, addr[i], b->init, b->bytes, err);
		}
	}
	if (!rc && w->host)
		rc = w->host->run(w, h, log, err);
	if (!rc)
		rc = wl_run_launches(w, h, addr, log, err);
	for (uint32_t i = 0; !rc && i < w->n_checks; i++)
		rc = wl_check_run(w, h, &w->checks[i], addr[w->checks[i].buf], log, err);
	ws_host_totals(h, &w->totals);
	free(addr);
	ws_host_destroy(h);
	return rc;
}

/* ---- host routines ------------------------------------------------------------------------ */

static const struct wl_host_routine wl_hosts[] = {
	{"bfs", wl_host_bfs},
};

const struct wl_host_routine *wl_host_find(const char *name)
{
	for (size_t i = 0; i < SIM_ARRAY_LEN(wl_hosts); i++)
		if (!strcmp(wl_hosts[i].name, name))
			return &wl_hosts[i];
	return NULL;
}
