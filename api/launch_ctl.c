/* SPDX-License-Identifier: MIT */
/* Launch control of a timing machine: budgets, launch selection and sampling decide per launch
 * whether the timing model or the functional executor runs it; both record the launch in the
 * stats, and stats.json says which ("mode") and where a budget ended the simulation. */
#include "launch_ctl.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "launch_sample.h"

/* ---- sim.timing_launches ----------------------------------------------------------------- */

static int sel_fail(const struct cfg *c, const char *item, size_t n, const char *why,
		    struct sim_error *err)
{
	return cfg_error(err, c, "sim.timing_launches", "item '%.*s': %s (items: N, N-M, every:K, "
			 "kernel:NAME, separated by commas)", (int)n, item, why);
}

/* A launch index: decimal digits only, all of [s, s+n). */
static bool parse_index(const char *s, size_t n, uint64_t *out)
{
	if (!n || n > 19)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static int sel_item(const struct cfg *c, const char *s, size_t n, struct api_sel_item *it,
		    struct sim_error *err)
{
	memset(it, 0, sizeof *it);
	if (n > 7 && !strncmp(s, "kernel:", 7)) {
		it->kind = API_SEL_KERNEL;
		if (!(it->kernel = strndup(s + 7, n - 7)))
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return 0;
	}
	if (n >= 6 && !strncmp(s, "every:", 6)) {
		it->kind = API_SEL_EVERY;
		if (!parse_index(s + 6, n - 6, &it->hi) || !it->hi)
			return sel_fail(c, s, n, "every:K needs a whole number K >= 1", err);
		return 0;
	}
	const char *dash = memchr(s, '-', n);
	it->kind = API_SEL_RANGE;
	if (!dash) {
		if (!parse_index(s, n, &it->lo))
			return sel_fail(c, s, n, "not a launch index", err);
		it->hi = it->lo;
		return 0;
	}
	if (!parse_index(s, (size_t)(dash - s), &it->lo) ||
	    !parse_index(dash + 1, n - (size_t)(dash - s) - 1, &it->hi))
		return sel_fail(c, s, n, "a range is N-M with launch indices N <= M", err);
	if (it->lo > it->hi)
		return sel_fail(c, s, n, "the range is empty (N > M)", err);
	return 0;
}

int api_sel_parse(const struct cfg *c, struct api_sel *sel, struct sim_error *err)
{
	memset(sel, 0, sizeof *sel);
	const char *spec = cfg_str(c, "sim.timing_launches");
	if (!spec[0])
		return 0;
	uint32_t cap = 1;
	for (const char *p = spec; *p; p++)
		cap += *p == ',';
	if (!(sel->items = calloc(cap, sizeof *sel->items)))
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	for (const char *p = spec;;) {
		size_t n = strcspn(p, ",");
		if (!n)
			return sel_fail(c, p, 0, "empty (two commas, or one at an end)", err);
		int rc = sel_item(c, p, n, &sel->items[sel->n], err);
		if (rc)
			return rc;
		sel->n++;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

void api_sel_free(struct api_sel *sel)
{
	for (uint32_t i = 0; sel->items && i < sel->n; i++)
		free(sel->items[i].kernel);
	free(sel->items);
	memset(sel, 0, sizeof *sel);
}

/* kernel:NAME names the PTX name, the C++ name, or the C++ name without its parameters. */
static bool kernel_named(const char *name, const struct fe_launch_info *info)
{
	if (!strcmp(name, info->kernel_name))
		return true;
	if (!info->cxx_name)
		return false;
	size_t n = strlen(name);
	return !strncmp(name, info->cxx_name, n) && (!info->cxx_name[n] || info->cxx_name[n] == '(');
}

bool api_sel_match(const struct api_sel *sel, uint64_t launch, const struct fe_launch_info *info)
{
	if (!sel->n)
		return true;
	for (uint32_t i = 0; i < sel->n; i++) {
		const struct api_sel_item *it = &sel->items[i];
		if ((it->kind == API_SEL_RANGE && launch >= it->lo && launch <= it->hi) ||
		    (it->kind == API_SEL_EVERY && launch % it->hi == 0) ||
		    (it->kind == API_SEL_KERNEL && kernel_named(it->kernel, info)))
			return true;
	}
	return false;
}

int api_ctl_check_cfg(const struct cfg *c, struct sim_error *err)
{
	struct api_sel sel;
	int rc = api_sel_parse(c, &sel, err);
	api_sel_free(&sel);
	if (!rc && cfg_str(c, "sim.timing_launches")[0] && cfg_int(c, "sim.sample_launches"))
		rc = cfg_error(err, c, "sim.sample_launches", "sampling chooses the timed launches "
			       "itself: it cannot be combined with sim.timing_launches = \"%s\"",
			       cfg_str(c, "sim.timing_launches"));
	return rc;
}

/* ---- the machine's launches -------------------------------------------------------------- */

static double cpu_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* sim.functional_launches_cache = warm: each global or local access of a functional launch goes
 * through the L1 tags of its CTA's core and what passes them into the L2 tags (gpu_warm);
 * warm-l2: each line into the L2, in the order the lanes touch them. No timing. */
static int warm_observe(void *ctx, uint32_t cta, const struct warp_inst *wi, struct sim_error *err)
{
	(void)err;
	struct api_ctl *ctl = ctx;
	uint8_t sp = wi->si->space;
	if (sp == WI_SPACE_GLOBAL || sp == WI_SPACE_LOCAL)
		gpu_warm(ctl->g, cta, ctl->resuming, ctl->warm_l1, wi);
	return 0;
}

int api_ctl_init(struct api_ctl *ctl, const struct cfg *c, struct gpu *g, struct stats *st,
		 struct sim_error *err)
{
	memset(ctl, 0, sizeof *ctl);
	ctl->g = g;
	ctl->st = st;
	ctl->timing = gpu_device(g);
	int rc = api_ctl_check_cfg(c, err);
	if (!rc)
		rc = api_sel_parse(c, &ctl->sel, err);
	if (rc)
		return rc;
	ctl->max_cycles = (uint64_t)cfg_int(c, "sim.max_cycles");
	ctl->max_warp_insts = (uint64_t)cfg_int(c, "sim.max_warp_insts");
	ctl->max_thread_insts = (uint64_t)cfg_int(c, "sim.max_thread_insts");
	ctl->max_launches = (uint64_t)cfg_int(c, "sim.max_launches");
	ctl->on_budget_functional = !strcmp(cfg_str(c, "sim.on_budget"), "functional");
	const char *wm = cfg_str(c, "sim.functional_launches_cache");
	ctl->warm = strcmp(wm, "cold") != 0;
	ctl->warm_l1 = !strcmp(wm, "warm");
	/* the timing model ends inside the launch that reaches the cap; with on_budget = functional
	 * api_ctl_launch has the functional executor finish it and run the later ones */
	gpu_set_budget(g, &(struct gpu_budget){.cycles = ctl->max_cycles, .warp_insts = ctl->max_warp_insts,
					       .thread_insts = ctl->max_thread_insts});
	int64_t ll = cfg_int(c, "sim.functional_livelock_warp_insts");
	ctl->fstats.livelock_warp_insts = ll ? (uint64_t)ll : UINT64_MAX;
	if (ctl->warm) {
		ctl->fstats.observe = warm_observe;
		ctl->fstats.observe_ctx = ctl;
	}
	uint64_t k = (uint64_t)cfg_int(c, "sim.sample_launches");
	if (k && !(ctl->sampler = api_sampler_create((uint32_t)k,
						       (uint32_t)cfg_int(c, "sim.sample_warmup_launches"),
						       (uint64_t)cfg_int(c, "sim.sample_refresh_launches"))))
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	api_register_functional_stats(st, &ctl->fstats);
	return 0;
}

void api_register_functional_stats(struct stats *st, struct ws_func_stats *f)
{
	stats_counter(st, &f->launches, "launches",
		      "launches run by the functional executor (on a timing machine: launch selection, "
		      "sampling, sim.on_budget = functional; not in gpu.cycles)", "gpu.functional.launches");
	stats_counter(st, &f->warp_insts, "warp instructions",
		      "warp instructions the functional executor ran (not in gpu.warp_insts)",
		      "gpu.functional.warp_insts");
	stats_counter(st, &f->thread_insts, "thread instructions",
		      "thread instructions the functional executor ran (not in gpu.thread_insts)",
		      "gpu.functional.thread_insts");
}

void api_ctl_fini(struct api_ctl *ctl)
{
	api_sel_free(&ctl->sel);
	api_sampler_destroy(ctl->sampler);
	ctl->sampler = NULL;
}

static void set_mode(struct api_ctl *ctl, uint64_t record, const char *mode)
{
	json_t *r = stats_kernel_record(ctl->st, record);
	if (r)
		json_object_set_new(r, "mode", json_string(mode));
}

static int cap(struct api_ctl *ctl, const char *limit, uint64_t value, uint64_t launch)
{
	ctl->capped = true;
	ctl->cap_limit = limit;
	ctl->cap_value = value;
	ctl->cap_launch = launch;
	ctl->cap_cycle = gpu_core_cycles(ctl->g);
	return 0;
}

/* sim.on_budget = functional: after each timing launch, whether the totals reached a cap. */
static void check_totals(struct api_ctl *ctl, uint64_t launch)
{
	const struct {
		uint64_t cap, now;
		const char *key;
	} caps[] = {
		{ctl->max_cycles, gpu_core_cycles(ctl->g), "sim.max_cycles"},
		{ctl->max_warp_insts, gpu_warp_insts(ctl->g), "sim.max_warp_insts"},
		{ctl->max_thread_insts, gpu_thread_insts(ctl->g), "sim.max_thread_insts"},
		{ctl->max_launches, ctl->timing_launches, "sim.max_launches"},
	};
	for (size_t i = 0; i < SIM_ARRAY_LEN(caps) && !ctl->capped; i++)
		if (caps[i].cap && caps[i].now >= caps[i].cap)
			cap(ctl, caps[i].key, caps[i].now, launch);
}

static int run_functional(struct api_ctl *ctl, struct fe_launch *l, const struct fe_launch_info *info,
			  uint64_t record, struct sim_error *err)
{
	stats_kernel_begin(ctl->st, info->cxx_name ? info->cxx_name : info->kernel_name);
	stats_kernel_set_ptx_name(ctl->st, info->kernel_name);
	struct fe_device f = ws_functional_device(&ctl->fstats);
	double t0 = cpu_now_s();
	int rc = f.launch(f.ctx, l, err);
	ctl->functional_cpu_s += cpu_now_s() - t0;
	if (rc)
		return rc;
	stats_kernel_end(ctl->st);
	set_mode(ctl, record, "functional");
	return 0;
}

/* A counter of launch record's stats raised by n (the record was closed when the budget cut
 * the launch; its functional part comes after). */
static void record_add(json_t *stats, const char *name, uint64_t n)
{
	json_int_t v = json_integer_value(json_object_get(stats, name));
	json_object_set_new(stats, name, json_integer(v + (json_int_t)n));
}

/* sim.on_budget = functional and a budget cut launch `record` inside: the functional executor
 * runs the rest of it from where the timing model stopped, so the program's results are exact. */
static int finish_functionally(struct api_ctl *ctl, struct fe_launch *l, uint64_t record, struct sim_error *err)
{
	sim_error_clear(err); /* the cap is recorded (cap), not an error of the launch */
	struct gpu_finished fin;
	double t0 = cpu_now_s();
	ctl->resuming = true;
	int rc = gpu_finish_launch_functionally(ctl->g, l, ws_func_livelock_limit(&ctl->fstats),
						ctl->fstats.observe, ctl->fstats.observe_ctx, &fin, err);
	ctl->resuming = false;
	ctl->functional_cpu_s += cpu_now_s() - t0;
	if (rc)
		return rc;
	ctl->fstats.warp_insts += fin.warp_insts;
	ctl->fstats.thread_insts += fin.thread_insts;
	set_mode(ctl, record, "timing+functional");
	json_t *r = stats_kernel_record(ctl->st, record);
	if (r) {
		json_t *s = json_object_get(r, "stats");
		record_add(s, "gpu.functional.warp_insts", fin.warp_insts);
		record_add(s, "gpu.functional.thread_insts", fin.thread_insts);
		json_object_set_new(r, "functional",
				    json_pack("{s:I, s:I, s:I, s:I}", "warp_insts", (json_int_t)fin.warp_insts,
					      "thread_insts", (json_int_t)fin.thread_insts, "ctas_resumed",
					      (json_int_t)fin.ctas_resumed, "ctas_new", (json_int_t)fin.ctas_new));
	}
	return 0;
}

int api_ctl_launch(struct api_ctl *ctl, struct fe_launch *l, struct sim_error *err)
{
	if (ctl->stopped)
		return sim_error_set(err, SIM_ERR_BUDGET, NULL, 0, 0, ctl->cap_limit,
				     "the run's budget is spent (%llu at launch %llu): this machine "
				     "launches no more", (unsigned long long)ctl->cap_value,
				     (unsigned long long)ctl->cap_launch);
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	uint64_t record = stats_kernel_count(ctl->st);
	bool timing = !ctl->capped && api_sel_match(&ctl->sel, record, &info);
	if (timing && ctl->max_launches && ctl->timing_launches >= ctl->max_launches) {
		cap(ctl, "sim.max_launches", ctl->timing_launches, record);
		if (!ctl->on_budget_functional) {
			ctl->stopped = true;
			return sim_error_set(err, SIM_ERR_BUDGET, NULL, 0, 0, "sim.max_launches",
					     "budget of %llu timing launches reached before launch %llu",
					     (unsigned long long)ctl->max_launches,
					     (unsigned long long)record);
		}
		timing = false;
	}
	if (timing && ctl->sampler)
		timing = api_sampler_wants_timing(ctl->sampler, &info);
	if (!timing) {
		uint64_t w0 = ctl->fstats.warp_insts;
		int rc = run_functional(ctl, l, &info, record, err);
		if (!rc && ctl->sampler)
			rc = api_sampler_record(ctl->sampler, &info, record, false,
						ctl->fstats.warp_insts - w0, 0, err);
		return rc;
	}
	uint64_t c0 = gpu_core_cycles(ctl->g), w0 = gpu_warp_insts(ctl->g);
	double t0 = cpu_now_s();
	gpu_set_next_launch_index(ctl->g, record);
	int rc = ctl->timing.launch(ctl->timing.ctx, l, err);
	double dt = cpu_now_s() - t0;
	ctl->timing_cpu_s += dt;
	ctl->timing_launches++;
	if (stats_kernel_count(ctl->st) > record)
		set_mode(ctl, record, "timing");
	if (rc == SIM_ERR_BUDGET) {
		const char *k = err->setting;
		uint64_t v = !strcmp(k, "sim.max_cycles") ? gpu_core_cycles(ctl->g)
			     : !strcmp(k, "sim.max_warp_insts") ? gpu_warp_insts(ctl->g)
								: gpu_thread_insts(ctl->g);
		/* the key as the settings spell it, not err's buffer */
		cap(ctl, !strcmp(k, "sim.max_cycles") ? "sim.max_cycles"
			 : !strcmp(k, "sim.max_warp_insts") ? "sim.max_warp_insts" : "sim.max_thread_insts",
		    v, record);
		if (ctl->on_budget_functional)
			return finish_functionally(ctl, l, record, err);
		ctl->stopped = true;
		return rc;
	}
	if (rc)
		return rc;
	if (ctl->sampler && (rc = api_sampler_record(ctl->sampler, &info, record, true,
						     gpu_warp_insts(ctl->g) - w0,
						     gpu_core_cycles(ctl->g) - c0, err)))
		return rc;
	if (ctl->on_budget_functional)
		check_totals(ctl, record);
	return 0;
}

void api_ctl_publish(struct api_ctl *ctl)
{
	json_t *b = json_object();
	json_object_set_new(b, "capped", json_boolean(ctl->capped));
	if (ctl->capped) {
		json_object_set_new(b, "limit", json_string(ctl->cap_limit));
		json_object_set_new(b, "value", json_integer((json_int_t)ctl->cap_value));
		json_object_set_new(b, "launch", json_integer((json_int_t)ctl->cap_launch));
		json_object_set_new(b, "cycle", json_integer((json_int_t)ctl->cap_cycle));
	}
	json_object_set_new(b, "on_budget", json_string(ctl->on_budget_functional ? "functional" : "stop"));
	const struct {
		const char *key;
		uint64_t v;
	} caps[] = {{"sim.max_thread_insts", ctl->max_thread_insts}, {"sim.max_warp_insts", ctl->max_warp_insts},
		    {"sim.max_cycles", ctl->max_cycles}, {"sim.max_launches", ctl->max_launches}};
	for (size_t i = 0; i < SIM_ARRAY_LEN(caps); i++)
		if (caps[i].v)
			json_object_set_new(b, caps[i].key, json_integer((json_int_t)caps[i].v));
	json_object_set_new(b, "timing_launches", json_integer((json_int_t)ctl->timing_launches));
	json_object_set_new(b, "functional_launches", json_integer((json_int_t)ctl->fstats.launches));
	json_object_set_new(b, "functional_launches_cache",
			    json_string(ctl->warm_l1 ? "warm" : ctl->warm ? "warm-l2" : "cold"));
	stats_set_section(ctl->st, "budget", b);
	if (ctl->sampler)
		stats_set_section(ctl->st, "sampling",
				  api_sampler_publish(ctl->sampler, ctl->st, gpu_core_cycles(ctl->g)));
}

void api_ctl_print(const struct api_ctl *ctl, FILE *out)
{
	if (!ctl)
		return;
	struct api_ctl *c = (struct api_ctl *)ctl; /* publish only refreshes the stats' sections */
	if (c->capped)
		fprintf(out, "budget: %s reached (%llu) in launch %llu at cycle %llu; %s\n", c->cap_limit,
			(unsigned long long)c->cap_value, (unsigned long long)c->cap_launch,
			(unsigned long long)c->cap_cycle,
			c->stopped ? "the run stopped there"
				   : "the functional executor finished that launch and ran the later ones");
	if (c->fstats.launches)
		fprintf(out, "launches: %llu in timing mode (%.2f CPU s), %llu functionally (%llu warp "
			"instructions, %.2f CPU s, caches %s)\n", (unsigned long long)c->timing_launches,
			c->timing_cpu_s, (unsigned long long)c->fstats.launches,
			(unsigned long long)c->fstats.warp_insts, c->functional_cpu_s,
			c->warm_l1 ? "warm" : c->warm ? "warm-l2" : "cold");
	if (!c->sampler)
		return;
	json_t *o = api_sampler_publish(c->sampler, c->st, gpu_core_cycles(c->g));
	json_int_t total = json_integer_value(json_object_get(o, "total_cycles"));
	fprintf(out, "sampling: %lld core cycles estimated (%lld simulated + %lld estimated), bound "
		"+-%lld (%.2f%%)%s; %lld groups; simulated warp instructions %.1fx fewer\n",
		(long long)total, (long long)json_integer_value(json_object_get(o, "simulated_cycles")),
		(long long)json_integer_value(json_object_get(o, "estimated_cycles")),
		(long long)json_integer_value(json_object_get(o, "error_bound_cycles")),
		100 * json_real_value(json_object_get(o, "error_bound_frac")),
		json_integer_value(json_object_get(o, "unbounded_launches")) ? ", some launches unbounded" : "",
		(long long)json_integer_value(json_object_get(o, "groups")),
		json_real_value(json_object_get(o, "warp_inst_reduction")));
	json_decref(o);
}
