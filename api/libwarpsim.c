/* SPDX-License-Identifier: MIT */
/* include/warpsim.h over the modules: a machine is a configuration, stats, a timing model (or
 * the functional executor) and one device memory that every loaded module's host shares. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../workloads/workload.h"
#include "api_int.h"

struct warpsim_module {
	struct warpsim *ws;
	struct fe_module *m;
	struct ws_host *h;
};

struct warpsim {
	struct cfg *cfg;
	struct stats *st;
	struct gpu *g;                  /* NULL: functional executor */
	struct ws_func_stats fstats;
	struct fe_device dev;
	struct fe_memory *mem;
	struct warpsim_module **mods;
	uint32_t n_mods, cap_mods;
	FILE *printf_out;
	FILE *timeline;                 /* memstream of the CTA timeline */
	char *timeline_buf;
	size_t timeline_len;
	uint64_t launches;
	double cpu_s;                   /* host CPU seconds spent in launches */
	void (*cfg_trailer)(FILE *f, const void *ctx); /* warpsim_set_provenance */
	const void *cfg_trailer_ctx;
};

void warpsim_set_provenance(struct warpsim *ws, struct json_t *prov,
			    void (*trailer)(FILE *f, const void *ctx), const void *ctx)
{
	stats_set_provenance(ws->st, prov);
	ws->cfg_trailer = trailer;
	ws->cfg_trailer_ctx = ctx;
}

int warpsim_error_from(struct warpsim_error *err, const struct sim_error *e)
{
	if (err) {
		err->code = e->code;
		sim_error_format(e, err->message, sizeof err->message);
	}
	return e->code;
}

static int fail(struct warpsim_error *err, int code, const char *msg)
{
	if (err) {
		err->code = code;
		snprintf(err->message, sizeof err->message, "%s", msg);
	}
	return code;
}

const char *warpsim_version(void) { return WARPSIM_VERSION; }

struct warpsim *warpsim_create(const struct warpsim_options *o, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct warpsim *ws = warpsim_create_sim(o, &e);
	if (!ws)
		warpsim_error_from(err, &e);
	return ws;
}

struct warpsim *warpsim_create_sim(const struct warpsim_options *o, struct sim_error *e)
{
	struct warpsim *ws = calloc(1, sizeof *ws);
	if (!ws || !(ws->cfg = cfg_create()) || !(ws->st = stats_create()) ||
	    !(ws->mem = fe_memory_create())) {
		warpsim_destroy(ws);
		sim_error_set(e, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	if (!o->functional && o->n_configs <= 0) {
		warpsim_destroy(ws);
		sim_error_set(e, SIM_ERR_USAGE, NULL, 0, 0, "-c", "a timing run needs a configuration file");
		return NULL;
	}
	int rc = gpu_cfg_define_all(ws->cfg, e);
	for (int i = 0; !rc && i < o->n_configs; i++)
		rc = cfg_load_file(ws->cfg, o->configs[i], e);
	for (int i = 0; !rc && i < o->n_overrides; i++)
		rc = cfg_set_override(ws->cfg, o->overrides[i], e);
	if (!rc)
		rc = gpu_cfg_validate(ws->cfg, e);
	if (!rc && !o->functional && !(ws->g = gpu_create(ws->cfg, ws->st, e)))
		rc = e->code ? (int)e->code : SIM_ERR_CONFIG;
	if (rc) {
		warpsim_destroy(ws);
		return NULL;
	}
	if (ws->g) {
		ws->timeline = open_memstream(&ws->timeline_buf, &ws->timeline_len);
		if (ws->timeline)
			gpu_set_cta_timeline(ws->g, ws->timeline);
		ws->dev = gpu_device(ws->g);
	} else {
		int64_t ll = cfg_int(ws->cfg, "sim.functional_livelock_warp_insts");
		ws->fstats.livelock_warp_insts = ll ? (uint64_t)ll : UINT64_MAX;
		ws->dev = ws_functional_device(&ws->fstats);
	}
	return ws;
}

void warpsim_destroy(struct warpsim *ws)
{
	if (!ws)
		return;
	for (uint32_t i = 0; i < ws->n_mods; i++) {
		ws_host_destroy(ws->mods[i]->h);
		fe_module_destroy(ws->mods[i]->m);
		free(ws->mods[i]);
	}
	free(ws->mods);
	if (ws->timeline)
		fclose(ws->timeline);
	free(ws->timeline_buf);
	gpu_destroy(ws->g);
	fe_memory_destroy(ws->mem);
	stats_destroy(ws->st);
	cfg_destroy(ws->cfg);
	free(ws);
}

struct cfg *warpsim_cfg(struct warpsim *ws) { return ws->cfg; }
struct stats *warpsim_stats(struct warpsim *ws) { return ws->st; }
struct gpu *warpsim_gpu(struct warpsim *ws) { return ws->g; }
struct fe_device warpsim_device(struct warpsim *ws) { return ws->dev; }

void warpsim_functional_totals(const struct warpsim *ws, uint64_t *warp_insts,
			       uint64_t *thread_insts)
{
	*warp_insts = ws->fstats.warp_insts;
	*thread_insts = ws->fstats.thread_insts;
}

bool warpsim_config_int(const struct warpsim *ws, const char *key, int64_t *out)
{
	int t = cfg_key_type(ws->cfg, key);
	if (t == CFG_INT)
		*out = cfg_int(ws->cfg, key);
	else if (t == CFG_BOOL)
		*out = cfg_bool(ws->cfg, key);
	return t == CFG_INT || t == CFG_BOOL;
}

bool warpsim_config_float(const struct warpsim *ws, const char *key, double *out)
{
	int t = cfg_key_type(ws->cfg, key);
	if (t == CFG_FLOAT)
		*out = cfg_float(ws->cfg, key);
	else if (t == CFG_INT)
		*out = (double)cfg_int(ws->cfg, key);
	return t == CFG_FLOAT || t == CFG_INT;
}

const char *warpsim_config_str(const struct warpsim *ws, const char *key)
{
	int t = cfg_key_type(ws->cfg, key);
	return t == CFG_STRING || t == CFG_ENUM ? cfg_str(ws->cfg, key) : NULL;
}

/* Take ownership of m: a host over the machine's shared memory. */
static int module_add(struct warpsim *ws, struct fe_module *m, struct warpsim_module **out,
		      struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct warpsim_module *wm = calloc(1, sizeof *wm);
	if (ws->n_mods == ws->cap_mods) {
		uint32_t nc = ws->cap_mods ? 2 * ws->cap_mods : 8;
		struct warpsim_module **nm = realloc(ws->mods, nc * sizeof *nm);
		if (nm) {
			ws->mods = nm;
			ws->cap_mods = nc;
		}
	}
	if (!wm || ws->n_mods == ws->cap_mods) {
		free(wm);
		fe_module_destroy(m);
		return fail(err, WARPSIM_ERR_NOMEM, "out of memory");
	}
	wm->ws = ws;
	wm->m = m;
	if (!(wm->h = ws_host_create_in(m, &ws->dev, ws->mem, &e))) {
		free(wm);
		fe_module_destroy(m);
		return warpsim_error_from(err, &e);
	}
	ws_host_set_printf(wm->h, ws->printf_out);
	ws->mods[ws->n_mods++] = wm;
	*out = wm;
	return 0;
}

int warpsim_module_load_ptx(struct warpsim *ws, const char *name, const char *ptx,
			    struct warpsim_module **out, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_module *m = NULL;
	if (fe_module_parse_string(name ? name : "(ptx)", ptx, &m, &e))
		return warpsim_error_from(err, &e);
	return module_add(ws, m, out, err);
}

int warpsim_module_load_file(struct warpsim *ws, const char *path, struct warpsim_module **out,
			     struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_module *m = NULL;
	if (fe_module_load(path, &m, &e))
		return warpsim_error_from(err, &e);
	return module_add(ws, m, out, err);
}

uint32_t warpsim_kernel_count(const struct warpsim_module *m)
{
	return fe_module_kernel_count(m->m);
}

const char *warpsim_kernel_ptx_name(const struct warpsim_module *m, uint32_t k)
{
	return fe_module_kernel_name(m->m, k);
}

const char *warpsim_kernel_name(const struct warpsim_module *m, uint32_t k)
{
	return fe_module_kernel_cxx_name(m->m, k);
}

int warpsim_kernel_find(const struct warpsim_module *m, const char *name,
			struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	int k = fe_module_kernel_index(m->m, name, &e);
	if (k < 0) {
		warpsim_error_from(err, &e);
		return -1;
	}
	return k;
}

static int bad_kernel(const struct warpsim_module *m, uint32_t k, struct warpsim_error *err)
{
	if (k < fe_module_kernel_count(m->m))
		return 0;
	return fail(err, WARPSIM_ERR_INPUT, "no such kernel index");
}

int warpsim_kernel_attrs(struct warpsim_module *m, uint32_t k, struct warpsim_kernel_attrs *out,
			 struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	int rc = bad_kernel(m, k, err);
	if (rc)
		return rc;
	const char *name = fe_module_kernel_name(m->m, k);
	struct fe_launch_info info;
	if (fe_kernel_info(m->m, name, &info, &e) || fe_kernel_params(m->m, name, &out->n_params, &e))
		return warpsim_error_from(err, &e);
	enum fe_regs_source src;
	uint32_t regs = ws_kernel_regs(m->h, name, &src);
	out->regs_per_thread = regs ? regs : info.regs_per_thread;
	out->shared_static_bytes = info.shared_bytes_per_cta;
	out->local_bytes = info.local_bytes_per_thread;
	uint32_t mt = fe_module_kernel_max_threads(m->m, k);
	out->max_threads_per_block = mt ? mt : WS_MAX_THREADS_PER_BLOCK;
	out->param_bytes = 0;
	for (uint32_t i = 0; i < out->n_params; i++) {
		uint32_t off, size, align;
		if (fe_kernel_param(m->m, name, i, &off, &size, &align, &e))
			return warpsim_error_from(err, &e);
		if (off + size > out->param_bytes)
			out->param_bytes = off + size;
	}
	return 0;
}

int warpsim_kernel_param(const struct warpsim_module *m, uint32_t k, uint32_t i,
			 uint32_t *offset, uint32_t *size_bytes, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	int rc = bad_kernel(m, k, err);
	uint32_t align;
	if (!rc && fe_kernel_param(m->m, fe_module_kernel_name(m->m, k), i, offset, size_bytes,
				   &align, &e))
		rc = warpsim_error_from(err, &e);
	return rc;
}

int warpsim_kernel_set_regs(struct warpsim_module *m, uint32_t k, uint32_t regs,
			    struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	int rc = bad_kernel(m, k, err);
	if (!rc && ws_set_regs_per_thread(m->h, fe_module_kernel_name(m->m, k), regs, &e))
		rc = warpsim_error_from(err, &e);
	return rc;
}

int warpsim_malloc(struct warpsim *ws, uint64_t bytes, uint64_t *addr, struct warpsim_error *err)
{
	uint64_t a = fe_mem_alloc(ws->mem, bytes ? bytes : 1);
	if (!a) {
		if (err) {
			err->code = WARPSIM_ERR_NOMEM;
			snprintf(err->message, sizeof err->message,
				 "device allocation of %llu bytes failed", (unsigned long long)bytes);
		}
		return WARPSIM_ERR_NOMEM;
	}
	*addr = a;
	return 0;
}

int warpsim_free(struct warpsim *ws, uint64_t addr, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	return fe_mem_free(ws->mem, addr, &e) ? warpsim_error_from(err, &e) : 0;
}

bool warpsim_allocation(const struct warpsim *ws, uint64_t addr, uint64_t *base, uint64_t *bytes)
{
	return fe_mem_allocation(ws->mem, addr, base, bytes);
}

uint64_t warpsim_allocated_bytes(const struct warpsim *ws)
{
	return fe_mem_live_bytes(ws->mem);
}

/* [a, a+n) inside one live allocation; the error names the address and the size. */
static int range_check(const struct warpsim *ws, uint64_t a, uint64_t n, const char *what,
		       struct warpsim_error *err)
{
	uint64_t base, bytes;
	if (fe_mem_allocation(ws->mem, a, &base, &bytes) && n <= bytes && a - base <= bytes - n)
		return 0;
	if (err) {
		err->code = WARPSIM_ERR_INPUT;
		snprintf(err->message, sizeof err->message,
			 "%s range 0x%llx + %llu bytes is not inside one device allocation", what,
			 (unsigned long long)a, (unsigned long long)n);
	}
	return WARPSIM_ERR_INPUT;
}

int warpsim_write(struct warpsim *ws, uint64_t dst, const void *src, uint64_t bytes,
		  struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	if (!bytes)
		return 0;
	int rc = range_check(ws, dst, bytes, "destination", err);
	if (!rc && fe_mem_write(ws->mem, dst, src, bytes, &e))
		rc = warpsim_error_from(err, &e);
	return rc;
}

int warpsim_read(struct warpsim *ws, void *dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	if (!bytes)
		return 0;
	int rc = range_check(ws, src, bytes, "source", err);
	if (!rc && fe_mem_read(ws->mem, src, dst, bytes, &e))
		rc = warpsim_error_from(err, &e);
	return rc;
}

int warpsim_memset(struct warpsim *ws, uint64_t dst, int value, uint64_t bytes,
		   struct warpsim_error *err)
{
	unsigned char buf[4096];
	memset(buf, value, sizeof buf);
	int rc = bytes ? range_check(ws, dst, bytes, "destination", err) : 0;
	for (uint64_t done = 0; !rc && done < bytes; done += sizeof buf) {
		uint64_t n = bytes - done < sizeof buf ? bytes - done : sizeof buf;
		rc = warpsim_write(ws, dst + done, buf, n, err);
	}
	return rc;
}

int warpsim_copy(struct warpsim *ws, uint64_t dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err)
{
	unsigned char buf[4096];
	int rc = bytes ? range_check(ws, src, bytes, "source", err) : 0;
	if (!rc && bytes)
		rc = range_check(ws, dst, bytes, "destination", err);
	/* overlapping ranges copy as memmove does: backwards when dst is above src */
	bool back = dst > src && dst < src + bytes;
	for (uint64_t done = 0; !rc && done < bytes; done += sizeof buf) {
		uint64_t n = bytes - done < sizeof buf ? bytes - done : sizeof buf;
		uint64_t off = back ? bytes - done - n : done;
		rc = warpsim_read(ws, buf, src + off, n, err);
		if (!rc)
			rc = warpsim_write(ws, dst + off, buf, n, err);
	}
	return rc;
}

int warpsim_symbol(const struct warpsim_module *m, const char *name, uint64_t *addr,
		   uint64_t *bytes, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	return fe_symbol(m->ws->mem, m->m, name, addr, bytes, &e) ? warpsim_error_from(err, &e) : 0;
}

int warpsim_texture_create(struct warpsim *ws, const struct warpsim_texture *t, uint64_t *handle,
			   struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_tex_desc d = {.addr = t->addr, .width = t->width, .height = t->height,
				.pitch_bytes = t->pitch_bytes, .channels = t->channels,
				.normalized_coords = t->normalized_coords};
	return fe_texture_create(ws->mem, &d, handle, &e) ? warpsim_error_from(err, &e) : 0;
}

int warpsim_texture_destroy(struct warpsim *ws, uint64_t handle, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	return fe_texture_destroy(ws->mem, handle, &e) ? warpsim_error_from(err, &e) : 0;
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

uint64_t warpsim_now_ps(const struct warpsim *ws)
{
	return ws->g ? sim_now_ps(gpu_sim(ws->g)) : 0;
}

int warpsim_launch(struct warpsim_module *m, uint32_t k, const struct warpsim_launch *l,
		   struct warpsim_launch_result *r, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct warpsim *ws = m->ws;
	int rc = bad_kernel(m, k, err);
	if (rc)
		return rc;
	if (l->params_bytes > WS_MAX_PARAM_BYTES)
		return fail(err, WARPSIM_ERR_INPUT, "parameter buffer larger than 4096 bytes");
	uint64_t t0 = warpsim_now_ps(ws);
	uint64_t c0 = ws->g ? gpu_core_cycles(ws->g) : 0;
	uint64_t w0 = ws->g ? gpu_warp_insts(ws->g) : ws->fstats.warp_insts;
	double s0 = cpu_seconds();
	rc = ws_launch_params(m->h, fe_module_kernel_name(m->m, k),
			      WS_DIM3(l->grid[0], l->grid[1], l->grid[2]),
			      WS_DIM3(l->block[0], l->block[1], l->block[2]), l->dynamic_shared_bytes,
			      l->params, (uint32_t)l->params_bytes, &e);
	ws->cpu_s += cpu_seconds() - s0;
	if (rc)
		return warpsim_error_from(err, &e);
	if (r) {
		r->launch = ws->launches;
		r->start_ps = t0;
		r->end_ps = warpsim_now_ps(ws);
		r->core_cycles = ws->g ? gpu_core_cycles(ws->g) - c0 : 0;
		r->warp_insts = (ws->g ? gpu_warp_insts(ws->g) : ws->fstats.warp_insts) - w0;
	}
	ws->launches++;
	return 0;
}

void warpsim_set_printf(struct warpsim *ws, FILE *out)
{
	ws->printf_out = out;
	for (uint32_t i = 0; i < ws->n_mods; i++)
		ws_host_set_printf(ws->mods[i]->h, out);
}

bool warpsim_stat(const struct warpsim *ws, const char *name, double *out)
{
	uint64_t u;
	if (stats_get_u64(ws->st, name, &u)) {
		*out = (double)u;
		return true;
	}
	return stats_get_double(ws->st, name, out);
}

char *warpsim_stats_json(const struct warpsim *ws)
{
	return stats_to_json_string(ws->st);
}

static int write_file_atomic(const char *path, const char *data, size_t n, bool resolved_cfg,
			     const struct warpsim *ws, struct warpsim_error *err)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	struct sim_error e;
	sim_error_clear(&e);
	int rc = 0;
	if (!f)
		rc = sim_error_set(&e, SIM_ERR_IO, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
	else if (resolved_cfg) {
		rc = cfg_write_resolved(ws->cfg, f, &e);
		if (!rc && ws->cfg_trailer)
			ws->cfg_trailer(f, ws->cfg_trailer_ctx);
	}
	else if (n && fwrite(data, 1, n, f) != n)
		rc = sim_error_set(&e, SIM_ERR_IO, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (f && fclose(f) && !rc)
		rc = sim_error_set(&e, SIM_ERR_IO, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (!rc && rename(tmp, path))
		rc = sim_error_set(&e, SIM_ERR_IO, path, 0, 0, NULL, "cannot rename: %s", strerror(errno));
	if (rc) {
		unlink(tmp);
		return warpsim_error_from(err, &e);
	}
	return 0;
}

int warpsim_write_outputs(struct warpsim *ws, const char *dir, struct warpsim_error *err)
{
	char p[4096];
	struct sim_error e;
	sim_error_clear(&e);
	/* create dir and its parents */
	snprintf(p, sizeof p, "%s", dir);
	for (char *s = p + 1;; s++) {
		bool end = !*s;
		if (*s == '/' || end) {
			*s = '\0';
			if (mkdir(p, 0777) && errno != EEXIST) {
				sim_error_set(&e, SIM_ERR_IO, p, 0, 0, NULL, "cannot create directory: %s",
					      strerror(errno));
				return warpsim_error_from(err, &e);
			}
			if (end)
				break;
			*s = '/';
		}
	}
	snprintf(p, sizeof p, "%s/config.cfg", dir);
	int rc = write_file_atomic(p, NULL, 0, true, ws, err);
	if (!rc && ws->timeline) {
		fflush(ws->timeline);
		snprintf(p, sizeof p, "%s/cta_timeline.csv", dir);
		rc = write_file_atomic(p, ws->timeline_buf, ws->timeline_len, false, NULL, err);
	}
	/* stats.json last: its presence marks a complete run (sweeps rely on it) */
	snprintf(p, sizeof p, "%s/stats.json", dir);
	if (!rc && stats_write_json(ws->st, p, &e))
		rc = warpsim_error_from(err, &e);
	return rc;
}

void warpsim_print_summary(const struct warpsim *ws, FILE *out)
{
	static const char *const patterns[] = {"gpu.*", NULL};
	if (!ws->g) {
		fprintf(out, "functional run: %llu launches, %llu warp instructions, %llu thread "
			"instructions\n", (unsigned long long)ws->fstats.launches,
			(unsigned long long)ws->fstats.warp_insts,
			(unsigned long long)ws->fstats.thread_insts);
		return;
	}
	stats_print_summary(ws->st, out, patterns);
	double cyc = (double)gpu_core_cycles(ws->g), wi = (double)gpu_warp_insts(ws->g);
	fprintf(out, "simulated %.0f warp instructions, %.0f core cycles in %.2f CPU s of launches "
		"(%.0f warp inst/s)\n", wi, cyc, ws->cpu_s, ws->cpu_s > 0 ? wi / ws->cpu_s : 0.0);
}

int warpsim_run_workload(struct warpsim *ws, const char *path, const char *size, FILE *log,
			 struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct workload *w = workload_load_size(path, size, &e);
	if (!w)
		return warpsim_error_from(err, &e);
	double s0 = cpu_seconds();
	int rc = workload_run(w, &ws->dev, log, &e);
	ws->cpu_s += cpu_seconds() - s0;
	workload_destroy(w);
	return rc ? warpsim_error_from(err, &e) : 0;
}
