/* SPDX-License-Identifier: MIT */
/* include/warpsim.h over the modules: a machine is a configuration, stats, a timing model (or
 * the functional executor) and one device memory that every loaded module's host shares. Each
 * entry point checks its handles and pointers first (api_guard.h): misuse is
 * WARPSIM_ERR_USAGE with a message naming the function and the argument, never a crash. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../engine/cfg_text.h"
#include "../workloads/workload.h"
#include "api_guard.h"
#include "api_int.h"
#include "api_machine.h"
#include "launch_ctl.h"

/* The most registers a thread may have (PTX ISA, every architecture since sm_30). */
#define API_MAX_REGS_PER_THREAD 255u

void warpsim_set_provenance(struct warpsim *ws, struct json_t *prov,
			    void (*trailer)(FILE *f, const void *ctx), const void *ctx)
{
	stats_set_provenance(ws->st, prov);
	ws->cfg_trailer = trailer;
	ws->cfg_trailer_ctx = ctx;
}

int warpsim_error_from(struct warpsim_error *err, const struct sim_error *e)
{
	return api_fail_sim(err, e);
}

/* The checks every entry point starts with; each returns 0 or the status it failed with. */
int api_need(const void *p, const char *fn, const char *arg, struct warpsim_error *err)
{
	return p ? 0 : api_fail(err, WARPSIM_ERR_USAGE, "%s: %s is NULL", fn, arg);
}

int api_need_machine(const struct warpsim *ws, const char *fn, struct warpsim_error *err)
{
	if (!ws)
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: ws is NULL", fn);
	if (!api_handle_live(ws, API_MACHINE))
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: ws is not a live machine (destroyed, or not "
				"from warpsim_create)", fn);
	return 0;
}

int api_need_module(const struct warpsim_module *m, const char *fn, struct warpsim_error *err)
{
	if (!m)
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: m is NULL", fn);
	if (!api_handle_live(m, API_MODULE))
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: m is not a live module (its machine was "
				"destroyed, or not from warpsim_module_load_*)", fn);
	return 0;
}

static int bad_kernel(const struct warpsim_module *m, uint32_t k, const char *fn,
		      struct warpsim_error *err)
{
	uint32_t n = fe_module_kernel_count(m->m);
	if (k < n)
		return 0;
	return api_fail(err, WARPSIM_ERR_INPUT, "%s: no kernel %u (the module has %u)", fn, k, n);
}

/* A machine that a kernel or the simulator faulted in refuses launches (workloads included):
 * the timing model still holds the interrupted kernel's CTAs and requests. */
static int stopped(const struct warpsim *ws, const char *fn, struct warpsim_error *err)
{
	if (!ws->fault_code)
		return 0;
	return api_fail(err, ws->fault_code, "%s: an earlier launch faulted and this machine launches "
			"no more: %s", fn, ws->fault_msg);
}

/* Every launch on the machine passes here, from warpsim_launch or from a workload's host. */
static int guarded_launch(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	struct warpsim *ws = ctx;
	if (ws->fault_code)
		return sim_error_set(err, (enum sim_err)ws->fault_code, NULL, 0, 0, NULL,
				     "an earlier launch faulted and this machine launches no more");
	/* a timing machine's launches go through launch control, which runs each in timing mode
	 * or functionally; a budget that stops the run is no fault (SIM_ERR_BUDGET: it says so) */
	int rc;
	if (ws->g) {
		rc = api_ctl_launch(&ws->ctl, l, err);
	} else {
		/* a record per launch, as a timing machine keeps, with the executor's counts */
		struct fe_launch_info info;
		fe_launch_get_info(l, &info);
		stats_kernel_begin(ws->st, info.cxx_name ? info.cxx_name : info.kernel_name);
		stats_kernel_set_ptx_name(ws->st, info.kernel_name);
		if (!(rc = ws->inner.launch(ws->inner.ctx, l, err)))
			stats_kernel_end(ws->st);
	}
	return api_note_fault(ws, rc, err);
}

static void guarded_copied(void *ctx, uint64_t addr, uint64_t bytes)
{
	struct warpsim *ws = ctx;
	ws->inner.copied(ws->inner.ctx, addr, bytes);
}

const char *warpsim_version(void) { return WARPSIM_VERSION; }

/* Options as the header states them; the checks create_sim leaves to the command line's
 * parser (cmd_run), which reports them as usage errors of its own options. */
static int check_options(const struct warpsim_options *o, struct warpsim_error *err)
{
	static const char fn[] = "warpsim_create";
	int rc = api_need(o, fn, "o", err);
	if (rc)
		return rc;
	if (o->n_configs < 0 || o->n_overrides < 0)
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: n_configs %d and n_overrides %d must be >= 0",
				fn, o->n_configs, o->n_overrides);
	if (o->n_configs && (rc = api_need(o->configs, fn, "o->configs", err)))
		return rc;
	if (o->n_overrides && (rc = api_need(o->overrides, fn, "o->overrides", err)))
		return rc;
	for (int i = 0; i < o->n_configs; i++)
		if (!o->configs[i])
			return api_fail(err, WARPSIM_ERR_USAGE, "%s: o->configs[%d] is NULL", fn, i);
	for (int i = 0; i < o->n_overrides; i++) {
		const char *s = o->overrides[i];
		if (!s)
			return api_fail(err, WARPSIM_ERR_USAGE, "%s: o->overrides[%d] is NULL", fn, i);
		size_t lead = strspn(s, " ");
		const char *eq = strchr(s, '=');
		if (!eq || eq == s + lead)
			return api_fail(err, WARPSIM_ERR_CONFIG, "override '%.200s' must be key=value", s);
	}
	if (!o->functional && !o->n_configs)
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: a timing machine needs a configuration "
				"file (o->configs), or o->functional", fn);
	return 0;
}

struct warpsim *warpsim_create(const struct warpsim_options *o, struct warpsim_error *err)
{
	if (check_options(o, err))
		return NULL;
	struct sim_error e;
	sim_error_clear(&e);
	struct warpsim *ws = warpsim_create_sim(o, &e);
	if (!ws) {
		/* check_options took the other usage errors; what create_sim still calls one is an
		 * override key too long to be a setting, a bad override as the header files it */
		if (e.code == SIM_ERR_USAGE)
			e.code = SIM_ERR_CONFIG;
		api_fail_sim(err, &e);
	}
	return ws;
}

/* Frees a machine whether or not it is registered (create_sim's error paths). */
static void machine_free(struct warpsim *ws)
{
	if (!ws)
		return;
	for (uint32_t i = 0; i < ws->n_mods; i++) {
		api_handle_remove(ws->mods[i]);
		ws_host_destroy(ws->mods[i]->h);
		fe_module_destroy(ws->mods[i]->m);
		free(ws->mods[i]);
	}
	free(ws->mods);
	if (ws->timeline)
		fclose(ws->timeline);
	free(ws->timeline_buf);
	api_ctl_fini(&ws->ctl);
	json_decref(ws->concurrent);
	json_decref(ws->streams);
	gpu_destroy(ws->g);
	fe_memory_destroy(ws->mem);
	stats_destroy(ws->st);
	cfg_destroy(ws->cfg);
	free(ws);
}

struct warpsim *warpsim_create_sim(const struct warpsim_options *o, struct sim_error *e)
{
	struct warpsim *ws = calloc(1, sizeof *ws);
	if (!ws || !(ws->cfg = cfg_create()) || !(ws->st = stats_create()) ||
	    !(ws->mem = fe_memory_create())) {
		machine_free(ws);
		sim_error_set(e, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	if (!o->functional && o->n_configs <= 0) {
		machine_free(ws);
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
	if (!rc)
		rc = api_ctl_check_cfg(ws->cfg, e);
	if (!rc && !o->functional && !(ws->g = gpu_create(ws->cfg, ws->st, e)))
		rc = e->code ? (int)e->code : SIM_ERR_CONFIG;
	if (!rc && ws->g)
		rc = api_ctl_init(&ws->ctl, ws->cfg, ws->g, ws->st, e);
	if (!rc && !api_handle_add(ws, API_MACHINE))
		rc = sim_error_set(e, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	if (rc) {
		machine_free(ws);
		return NULL;
	}
	if (ws->g) {
		ws->timeline = open_memstream(&ws->timeline_buf, &ws->timeline_len);
		if (ws->timeline)
			gpu_set_cta_timeline(ws->g, ws->timeline);
		ws->inner = gpu_device(ws->g);
	} else {
		int64_t ll = cfg_int(ws->cfg, "sim.functional_livelock_warp_insts");
		ws->fstats.livelock_warp_insts = ll ? (uint64_t)ll : UINT64_MAX;
		ws->inner = ws_functional_device(&ws->fstats);
		api_register_functional_stats(ws->st, &ws->fstats);
	}
	ws->dev = (struct fe_device){.launch = guarded_launch, .ctx = ws, .timing = ws->inner.timing,
				     .copied = ws->inner.copied ? guarded_copied : NULL};
	return ws;
}

void warpsim_destroy(struct warpsim *ws)
{
	/* NULL is nothing to do, as free(NULL); a handle already destroyed is refused rather
	 * than freed twice (while no later machine has reused its memory) */
	if (!ws)
		return;
	if (api_need_machine(ws, __func__, NULL))
		return;
	api_handle_remove(ws);
	machine_free(ws);
}

struct cfg *warpsim_cfg(struct warpsim *ws) { return ws->cfg; }
struct stats *warpsim_stats(struct warpsim *ws) { return ws->st; }
struct gpu *warpsim_gpu(struct warpsim *ws) { return ws->g; }

void warpsim_set_functional_poll(struct warpsim *ws, fe_poll_fn poll, void *ctx)
{
	ws->fstats.poll = poll;
	ws->fstats.poll_ctx = ctx;
	/* the launches a timed run executes functionally (launch selection) */
	ws->ctl.fstats.poll = poll;
	ws->ctl.fstats.poll_ctx = ctx;
}
struct fe_device warpsim_device(struct warpsim *ws) { return ws->dev; }
const struct api_ctl *warpsim_ctl(struct warpsim *ws) { return ws->g ? &ws->ctl : NULL; }

/* stats.json's "budget" and "sampling" sections follow the launches: brought up to date
 * whenever the document is read. They are a view of state the machine owns, so the const
 * readers update them too. */
static void publish(const struct warpsim *ws)
{
	if (ws->g)
		api_ctl_publish((struct api_ctl *)&ws->ctl);
}

void warpsim_functional_totals(const struct warpsim *ws, uint64_t *warp_insts,
			       uint64_t *thread_insts)
{
	*warp_insts = ws->fstats.warp_insts;
	*thread_insts = ws->fstats.thread_insts;
}

/* The checks of the three configuration queries; type names the wanted type in the message. */
static bool config_key(const struct warpsim *ws, const char *key, const void *out, const char *fn)
{
	return !api_need_machine(ws, fn, NULL) && !api_need(key, fn, "key", NULL) && !api_need(out, fn, "out", NULL);
}

static bool no_key(const char *fn, const char *key, const char *type)
{
	api_fail(NULL, WARPSIM_ERR_INPUT, "%s: no %s setting '%.200s'", fn, type, key);
	return false;
}

bool warpsim_config_int(const struct warpsim *ws, const char *key, int64_t *out)
{
	if (!config_key(ws, key, out, __func__))
		return false;
	int t = cfg_key_type(ws->cfg, key);
	if (t == CFG_INT)
		*out = cfg_int(ws->cfg, key);
	else if (t == CFG_BOOL)
		*out = cfg_bool(ws->cfg, key);
	return t == CFG_INT || t == CFG_BOOL || no_key(__func__, key, "integer or boolean");
}

bool warpsim_config_float(const struct warpsim *ws, const char *key, double *out)
{
	if (!config_key(ws, key, out, __func__))
		return false;
	int t = cfg_key_type(ws->cfg, key);
	if (t == CFG_FLOAT)
		*out = cfg_float(ws->cfg, key);
	else if (t == CFG_INT)
		*out = (double)cfg_int(ws->cfg, key);
	return t == CFG_FLOAT || t == CFG_INT || no_key(__func__, key, "numeric");
}

const char *warpsim_config_str(const struct warpsim *ws, const char *key)
{
	/* no out argument: key stands in for it in the shared check */
	if (!config_key(ws, key, key, __func__))
		return NULL;
	int t = cfg_key_type(ws->cfg, key);
	if (t == CFG_STRING || t == CFG_ENUM)
		return cfg_str(ws->cfg, key);
	no_key(__func__, key, "string");
	return NULL;
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
	if (!wm || ws->n_mods == ws->cap_mods || !api_handle_add(wm, API_MODULE)) {
		free(wm);
		fe_module_destroy(m);
		return api_fail(err, WARPSIM_ERR_NOMEM, "out of memory");
	}
	wm->ws = ws;
	wm->m = m;
	if (!(wm->h = ws_host_create_in(m, &ws->dev, ws->mem, &e))) {
		api_handle_remove(wm);
		free(wm);
		fe_module_destroy(m);
		return api_fail_sim(err, &e);
	}
	ws_host_set_printf(wm->h, ws->printf_out);
	ws_host_set_stack_bytes(wm->h, ws->stack_bytes);
	ws->mods[ws->n_mods++] = wm;
	*out = wm;
	return 0;
}

int warpsim_module_load_ptx(struct warpsim *ws, const char *name, const char *ptx,
			    struct warpsim_module **out, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need(out, __func__, "out", err)))
		return rc;
	*out = NULL;
	if ((rc = api_need_machine(ws, __func__, err)) || (rc = api_need(ptx, __func__, "ptx", err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_module *m = NULL;
	if (fe_module_parse_string(name ? name : "(ptx)", ptx, &m, &e))
		return api_fail_sim(err, &e);
	return module_add(ws, m, out, err);
}

int warpsim_module_load_file(struct warpsim *ws, const char *path, struct warpsim_module **out,
			     struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need(out, __func__, "out", err)))
		return rc;
	*out = NULL;
	if ((rc = api_need_machine(ws, __func__, err)) || (rc = api_need(path, __func__, "path", err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_module *m = NULL;
	if (fe_module_load(path, &m, &e))
		return api_fail_sim(err, &e);
	return module_add(ws, m, out, err);
}

uint32_t warpsim_kernel_count(const struct warpsim_module *m)
{
	return api_need_module(m, __func__, NULL) ? 0 : fe_module_kernel_count(m->m);
}

const char *warpsim_kernel_ptx_name(const struct warpsim_module *m, uint32_t k)
{
	if (api_need_module(m, __func__, NULL) || bad_kernel(m, k, __func__, NULL))
		return NULL;
	return fe_module_kernel_name(m->m, k);
}

const char *warpsim_kernel_name(const struct warpsim_module *m, uint32_t k)
{
	if (api_need_module(m, __func__, NULL) || bad_kernel(m, k, __func__, NULL))
		return NULL;
	return fe_module_kernel_cxx_name(m->m, k);
}

int warpsim_kernel_find(const struct warpsim_module *m, const char *name,
			struct warpsim_error *err)
{
	if (api_need_module(m, __func__, err) || api_need(name, __func__, "name", err))
		return -1;
	struct sim_error e;
	sim_error_clear(&e);
	int k = fe_module_kernel_index(m->m, name, &e);
	if (k < 0) {
		api_fail_sim(err, &e);
		return -1;
	}
	return k;
}

/* Size of kernel k's parameter buffer: the end of its last parameter. */
static int param_extent(const struct warpsim_module *m, uint32_t k, uint32_t n_params,
			uint32_t *bytes, struct sim_error *e)
{
	const char *name = fe_module_kernel_name(m->m, k);
	*bytes = 0;
	for (uint32_t i = 0; i < n_params; i++) {
		uint32_t off, size, align;
		int rc = fe_kernel_param(m->m, name, i, &off, &size, &align, e);
		if (rc)
			return rc;
		if (off + size > *bytes)
			*bytes = off + size;
	}
	return 0;
}

int warpsim_kernel_attrs(struct warpsim_module *m, uint32_t k, struct warpsim_kernel_attrs *out,
			 struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_module(m, __func__, err)) || (rc = api_need(out, __func__, "out", err)) ||
	    (rc = bad_kernel(m, k, __func__, err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	const char *name = fe_module_kernel_name(m->m, k);
	struct fe_launch_info info;
	if (fe_kernel_info(m->m, name, &info, &e) || fe_kernel_params(m->m, name, &out->n_params, &e) ||
	    param_extent(m, k, out->n_params, &out->param_bytes, &e))
		return api_fail_sim(err, &e);
	enum fe_regs_source src;
	uint32_t regs = ws_kernel_regs(m->h, name, &src);
	out->regs_per_thread = regs ? regs : info.regs_per_thread;
	out->shared_static_bytes = info.shared_bytes_per_cta;
	out->local_bytes = info.local_bytes_per_thread;
	uint32_t mt = fe_module_kernel_max_threads(m->m, k);
	out->max_threads_per_block = mt ? mt : WS_MAX_THREADS_PER_BLOCK;
	return 0;
}

int warpsim_kernel_param(const struct warpsim_module *m, uint32_t k, uint32_t i,
			 uint32_t *offset, uint32_t *size_bytes, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_module(m, __func__, err)) || (rc = api_need(offset, __func__, "offset", err)) ||
	    (rc = api_need(size_bytes, __func__, "size_bytes", err)) || (rc = bad_kernel(m, k, __func__, err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	uint32_t align;
	if (fe_kernel_param(m->m, fe_module_kernel_name(m->m, k), i, offset, size_bytes, &align, &e))
		rc = api_fail_sim(err, &e);
	return rc;
}

int warpsim_kernel_set_regs(struct warpsim_module *m, uint32_t k, uint32_t regs,
			    struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_module(m, __func__, err)) || (rc = bad_kernel(m, k, __func__, err)))
		return rc;
	if (regs > API_MAX_REGS_PER_THREAD)
		return api_fail(err, WARPSIM_ERR_INPUT, "%s: %u registers per thread; at most %u", __func__,
				regs, API_MAX_REGS_PER_THREAD);
	struct sim_error e;
	sim_error_clear(&e);
	if (ws_set_regs_per_thread(m->h, fe_module_kernel_name(m->m, k), regs, &e))
		rc = api_fail_sim(err, &e);
	return rc;
}

double api_cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t now_ps(const struct warpsim *ws)
{
	return ws->g ? sim_now_ps(gpu_sim(ws->g)) : 0;
}

uint64_t warpsim_now_ps(const struct warpsim *ws)
{
	return api_need_machine(ws, __func__, NULL) ? 0 : now_ps(ws);
}

int api_check_launch(struct warpsim_module *m, uint32_t k, const struct warpsim_launch *l,
		     const char *fn, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_module(m, fn, err)) || (rc = api_need(l, fn, "l", err)) ||
	    (rc = stopped(m->ws, fn, err)) || (rc = bad_kernel(m, k, fn, err)))
		return rc;
	if (l->params_bytes && (rc = api_need(l->params, fn, "l->params", err)))
		return rc;
	const char *name = fe_module_kernel_name(m->m, k);
	struct sim_error e;
	sim_error_clear(&e);
	uint32_t n_params, want;
	if (fe_kernel_params(m->m, name, &n_params, &e) || param_extent(m, k, n_params, &want, &e))
		return api_fail_sim(err, &e);
	/* a short buffer would leave parameters unset, a long one is a layout the caller got
	 * wrong; both are refused rather than run */
	if (l->params_bytes != want)
		return api_fail(err, WARPSIM_ERR_INPUT, "%s: kernel %s takes %u bytes of parameters, "
				"l->params_bytes is %zu", fn, name, want, l->params_bytes);
	return 0;
}

int api_note_fault(struct warpsim *ws, int rc, const struct sim_error *e)
{
	if (rc == SIM_ERR_PROGRAM || rc == SIM_ERR_FAULT) {
		ws->fault_code = rc;
		sim_error_format(e, ws->fault_msg, sizeof ws->fault_msg);
	}
	return rc;
}

int warpsim_launch(struct warpsim_module *m, uint32_t k, const struct warpsim_launch *l,
		   struct warpsim_launch_result *r, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_check_launch(m, k, l, __func__, err)))
		return rc;
	struct warpsim *ws = m->ws;
	const char *name = fe_module_kernel_name(m->m, k);
	struct sim_error e;
	sim_error_clear(&e);
	uint64_t t0 = now_ps(ws);
	uint64_t c0 = ws->g ? gpu_core_cycles(ws->g) : 0;
	uint64_t w0 = ws->g ? gpu_warp_insts(ws->g) : ws->fstats.warp_insts;
	double s0 = api_cpu_seconds();
	rc = ws_launch_params(m->h, name, WS_DIM3(l->grid[0], l->grid[1], l->grid[2]),
			      WS_DIM3(l->block[0], l->block[1], l->block[2]), l->dynamic_shared_bytes,
			      l->params, (uint32_t)l->params_bytes, &e);
	ws->cpu_s += api_cpu_seconds() - s0;
	if (rc)
		return api_fail_sim(err, &e);
	if (r) {
		r->launch = ws->launches;
		r->start_ps = t0;
		r->end_ps = now_ps(ws);
		r->core_cycles = ws->g ? gpu_core_cycles(ws->g) - c0 : 0;
		r->warp_insts = (ws->g ? gpu_warp_insts(ws->g) : ws->fstats.warp_insts) - w0;
	}
	ws->launches++;
	return 0;
}

void warpsim_set_printf(struct warpsim *ws, FILE *out)
{
	if (api_need_machine(ws, __func__, NULL))
		return;
	ws->printf_out = out;
	for (uint32_t i = 0; i < ws->n_mods; i++)
		ws_host_set_printf(ws->mods[i]->h, out);
}

void warpsim_set_stack_bytes(struct warpsim *ws, uint64_t bytes)
{
	if (api_need_machine(ws, __func__, NULL))
		return;
	ws->stack_bytes = bytes;
	for (uint32_t i = 0; i < ws->n_mods; i++)
		ws_host_set_stack_bytes(ws->mods[i]->h, bytes);
}

bool warpsim_stat(const struct warpsim *ws, const char *name, double *out)
{
	if (api_need_machine(ws, __func__, NULL) || api_need(name, __func__, "name", NULL) ||
	    api_need(out, __func__, "out", NULL))
		return false;
	uint64_t u;
	if (stats_get_u64(ws->st, name, &u)) {
		*out = (double)u;
		return true;
	}
	if (stats_get_double(ws->st, name, out))
		return true;
	api_fail(NULL, WARPSIM_ERR_INPUT, "%s: no stat '%.200s'", __func__, name);
	return false;
}

char *warpsim_stats_json(const struct warpsim *ws)
{
	if (api_need_machine(ws, __func__, NULL))
		return NULL;
	publish(ws);
	char *s = stats_to_json_string(ws->st);
	if (!s)
		api_fail(NULL, WARPSIM_ERR_NOMEM, "%s: out of memory", __func__);
	return s;
}

/* The longest file name write_outputs appends to dir. */
static const char longest_output[] = "/cta_timeline.csv";

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
		return api_fail_sim(err, &e);
	}
	return 0;
}

int warpsim_write_outputs(struct warpsim *ws, const char *dir, struct warpsim_error *err)
{
	char p[4096];
	int rc;
	if ((rc = api_need_machine(ws, __func__, err)) || (rc = api_need(dir, __func__, "dir", err)))
		return rc;
	if (!dir[0])
		return api_fail(err, WARPSIM_ERR_USAGE, "%s: dir is empty", __func__);
	/* a longer name would be cut short and the files written somewhere else */
	size_t len = strlen(dir);
	if (len + sizeof longest_output > sizeof p)
		return api_fail(err, WARPSIM_ERR_IO, "%s: directory name of %zu characters is too long "
				"(at most %zu)", __func__, len, sizeof p - sizeof longest_output);
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
				return api_fail_sim(err, &e);
			}
			if (end)
				break;
			*s = '/';
		}
	}
	snprintf(p, sizeof p, "%s/config.cfg", dir);
	rc = write_file_atomic(p, NULL, 0, true, ws, err);
	if (!rc && ws->timeline) {
		fflush(ws->timeline);
		snprintf(p, sizeof p, "%s%s", dir, longest_output);
		rc = write_file_atomic(p, ws->timeline_buf, ws->timeline_len, false, NULL, err);
	}
	/* stats.json last: its presence marks a complete run (sweeps rely on it) */
	publish(ws);
	snprintf(p, sizeof p, "%s/stats.json", dir);
	if (!rc && stats_write_json(ws->st, p, &e))
		rc = api_fail_sim(err, &e);
	return rc;
}

void warpsim_print_summary(const struct warpsim *ws, FILE *out)
{
	static const char *const patterns[] = {"gpu.*", NULL};
	if (api_need_machine(ws, __func__, NULL) || api_need(out, __func__, "out", NULL))
		return;
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
	int rc;
	if ((rc = api_need_machine(ws, __func__, err)) || (rc = api_need(path, __func__, "path", err)) ||
	    (rc = stopped(ws, __func__, err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	/* a workload file that cannot be opened is an I/O error, as the header files it and as
	 * a PTX file's is; the loader calls every problem with the file's text an input error */
	if (cfg_check_regular_file(path, "workload file", NULL, 0, SIM_ERR_IO, &e))
		return api_fail_sim(err, &e);
	struct workload *w = workload_load_size(path, size, &e);
	if (!w)
		return api_fail_sim(err, &e);
	double s0 = api_cpu_seconds();
	rc = workload_run(w, &ws->dev, log, &e);
	ws->cpu_s += api_cpu_seconds() - s0;
	workload_destroy(w);
	return rc ? api_fail_sim(err, &e) : 0;
}
