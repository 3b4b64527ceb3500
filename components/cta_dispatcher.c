/* SPDX-License-Identifier: MIT */
/* CTA dispatcher: occupancy from the core limits, the initial round-robin fill (OWL Sec 2.1),
 * one replacement CTA per finished CTA, and the per-CTA timeline (PRO Fig 2). Kernels run one
 * at a time (cta_dispatcher_launch_kernel), or several at once on different cores
 * (cta_dispatcher_add_kernel, gpu.cta_dispatcher.concurrent_kernels = on-gpu). */
#include "cta_dispatcher.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../scheduler/policy.h"

struct cta_dispatcher_core {
	const struct cta_dispatcher_core_ops *ops;
	void *ctx;
	uint32_t resident_ctas;
	uint32_t mk;                         /* concurrent kernels: its kernel's slot, MK_NONE: idle */
};

#define MK_NONE UINT32_MAX

/* A kernel of the concurrent mode (cta_dispatcher_add_kernel); launch NULL: the slot is free. */
struct disp_kernel {
	struct fe_launch *launch;
	struct fe_launch_info info;
	uint32_t tag, kernel_idx, ctas_per_core, next_cta, finished;
	uint64_t seq;                        /* order of addition: the oldest is served first */
	uint64_t rec_base;
};

struct cta_dispatcher {
	uint32_t n_cores;
	struct cta_dispatcher_core *cores;   /* [n_cores] */
	/* settings */
	uint32_t cfg_max_ctas_per_core;      /* 0 = resources only */
	struct cta_dispatcher_limits lim;    /* limits of the core, per kernel: max_ctas min'ed */
	uint32_t core_max_ctas;              /* gpu.core.max_ctas */
	const struct cfg *cfg;               /* for errors at a setting's file:line; outlives d */
	/* running kernel */
	struct fe_launch *launch;            /* NULL when none */
	struct fe_launch_info info;
	uint32_t kernel_idx;                 /* index of the current/last kernel */
	uint32_t n_kernels;
	uint32_t ctas_per_core;
	uint32_t next_cta;                   /* next CTA id to assign */
	uint32_t finished;                   /* CTAs of this kernel finished */
	uint64_t start_cycle, end_cycle;
	uint64_t launch_seq;                 /* global CTA launch counter */
	/* timeline over all kernels; this kernel's CTAs start at rec_base, in CTA-id order */
	struct cta_dispatcher_record *rec;
	uint64_t n_rec, cap_rec, rec_base;
	/* stats */
	uint64_t stat_ctas_launched, stat_kernels;
	void (*finish_fn)(void *ctx, const struct cta_dispatcher_record *r);
	void *finish_ctx;
	/* concurrent kernels: slots (in no order; kernel_idx gives the start order), how many
	 * have CTAs not yet placed, and the owner's hooks */
	bool on_gpu;                         /* gpu.cta_dispatcher.concurrent_kernels = on-gpu */
	/* gpu.cta_dispatcher.first_core = after-last: a launch's fill starts at the core after
	 * last_core, the core that took the last CTA placed, of any kernel (kept across launches;
	 * n_cores - 1 before the first, so that one starts at core 0) */
	bool after_last;
	uint32_t last_core;
	struct disp_kernel *mk;
	uint32_t n_mk, mk_running, mk_waiting;
	uint64_t mk_seq;
	const struct cta_dispatcher_kernel_hooks *hooks;
	void *hooks_ctx;
};

static const char *const concurrency_names[] = {"off", "on-gpu", NULL};
static const char *const first_core_names[] = {"zero", "after-last", NULL};

static const struct cfg_key_def disp_keys[] = {
	CFG_KEY_INT("gpu.cta_dispatcher.max_ctas_per_core", "CTAs", 0, 0, SCHED_MAX_CTAS,
		    "extra cap on resident CTAs per core (0: only gpu.core limits apply)"),
	CFG_KEY_ENUM("gpu.cta_dispatcher.concurrent_kernels", "off", concurrency_names,
		     "kernels of different CUDA streams: off (one kernel at a time), on-gpu (several "
		     "at once, each core running one kernel's CTAs, as GPGPU-Sim without "
		     "-gpgpu_concurrent_kernel_sm)"),
	CFG_KEY_ENUM("gpu.cta_dispatcher.first_core", "zero", first_core_names,
		     "where each launch's first CTA goes: zero (core 0, OWL Sec 2.1 and GPGPU-Sim "
		     "2.x), after-last (the core after the one that took the last CTA placed, kept "
		     "across launches: GPGPU-Sim 3.x/4.x's m_last_cluster_issue, one core per "
		     "cluster)"),
};

int cta_dispatcher_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, disp_keys, SIM_ARRAY_LEN(disp_keys), err);
}

struct cta_dispatcher *cta_dispatcher_create(const struct cfg *cfg, struct stats *st,
					     uint32_t n_cores, struct sim_error *err)
{
	if (n_cores == 0) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.core.count",
			      "the CTA dispatcher needs at least one core");
		return NULL;
	}
	struct cta_dispatcher *d = calloc(1, sizeof *d);
	if (!d || !(d->cores = calloc(n_cores, sizeof *d->cores))) {
		free(d);
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the CTA dispatcher");
		return NULL;
	}
	d->n_cores = n_cores;
	d->cfg_max_ctas_per_core = (uint32_t)cfg_int(cfg, "gpu.cta_dispatcher.max_ctas_per_core");
	d->cfg = cfg;
	d->lim.warp_size = (uint32_t)cfg_int(cfg, "gpu.core.warp_size");
	d->lim.max_threads = (uint32_t)cfg_int(cfg, "gpu.core.max_threads");
	d->lim.max_warps = (uint32_t)cfg_int(cfg, "gpu.core.max_warps");
	d->core_max_ctas = (uint32_t)cfg_int(cfg, "gpu.core.max_ctas");
	d->lim.max_ctas = d->core_max_ctas;
	if (d->cfg_max_ctas_per_core && d->cfg_max_ctas_per_core < d->lim.max_ctas)
		d->lim.max_ctas = d->cfg_max_ctas_per_core;
	d->lim.registers = (uint32_t)cfg_int(cfg, "gpu.core.registers");
	d->lim.shared_bytes = (uint32_t)cfg_int(cfg, "gpu.core.shared_kb") * 1024u;
	d->end_cycle = UINT64_MAX;
	d->on_gpu = !strcmp(cfg_str(cfg, "gpu.cta_dispatcher.concurrent_kernels"), "on-gpu");
	d->after_last = !strcmp(cfg_str(cfg, "gpu.cta_dispatcher.first_core"), "after-last");
	d->last_core = n_cores - 1;
	for (uint32_t i = 0; i < n_cores; i++)
		d->cores[i].mk = MK_NONE;
	if (st) {
		stats_counter(st, &d->stat_ctas_launched, "CTAs", "CTAs launched on cores",
			      "cta_dispatcher.ctas_launched");
		stats_counter(st, &d->stat_kernels, "kernels", "kernels launched", "cta_dispatcher.kernels");
	}
	return d;
}

void cta_dispatcher_destroy(struct cta_dispatcher *d)
{
	if (!d)
		return;
	free(d->rec);
	free(d->mk);
	free(d->cores);
	free(d);
}

void cta_dispatcher_attach_core(struct cta_dispatcher *d, uint32_t i,
				const struct cta_dispatcher_core_ops *ops, void *core)
{
	SIM_ASSERT(i < d->n_cores);
	d->cores[i].ops = ops;
	d->cores[i].ctx = core;
}

/* How many CTAs of this kernel fit on one core. Registers and threads are allocated per whole
 * warp (a partial last warp still occupies warp_size lanes), as the hardware does. *which names
 * the binding limit for the error message when nothing fits. */
static uint32_t occupancy(const struct cta_dispatcher_limits *lim, const struct fe_launch_info *in,
			  const char **which)
{
	uint32_t warps = (in->threads_per_cta + lim->warp_size - 1) / lim->warp_size;
	uint64_t threads = (uint64_t)warps * lim->warp_size;
	uint64_t regs = threads * in->regs_per_thread;
	uint32_t n = lim->max_ctas;
	*which = "gpu.core.max_ctas";
	if (threads && lim->max_threads / threads < n) {
		n = (uint32_t)(lim->max_threads / threads);
		*which = "gpu.core.max_threads";
	}
	if (warps && lim->max_warps / warps < n) {
		n = lim->max_warps / warps;
		*which = "gpu.core.max_warps";
	}
	if (regs && lim->registers / regs < n) {
		n = (uint32_t)(lim->registers / regs);
		*which = "gpu.core.registers";
	}
	if (in->shared_bytes_per_cta && lim->shared_bytes / in->shared_bytes_per_cta < n) {
		n = lim->shared_bytes / in->shared_bytes_per_cta;
		*which = "gpu.core.shared_kb";
	}
	return n;
}

/* The core a launch's round-robin fill starts at (gpu.cta_dispatcher.first_core). GPGPU-Sim
 * 3.x/4.x walks its clusters each cycle from the one after the last that took a CTA, and never
 * resets that pointer between launches, so a relaunched kernel lands on other cores than its
 * last run (and meets their cold I-caches). */
static uint32_t fill_first_core(const struct cta_dispatcher *d)
{
	return d->after_last ? (d->last_core + 1) % d->n_cores : 0;
}

static int launch_on(struct cta_dispatcher *d, uint32_t core, uint64_t now_cycle, struct sim_error *err)
{
	struct cta_dispatcher_core *c = &d->cores[core];
	uint32_t cta = d->next_cta++;
	struct cta_dispatcher_record *r = &d->rec[d->rec_base + cta];
	r->kernel_idx = d->kernel_idx;
	r->cta_id = cta;
	r->core = core;
	r->launch_seq = d->launch_seq++;
	r->start_cycle = now_cycle;
	r->end_cycle = UINT64_MAX;
	d->n_rec = d->rec_base + d->next_cta;
	d->last_core = core;
	c->resident_ctas++;
	d->stat_ctas_launched++;
	return c->ops->launch(c->ctx, d->launch, cta, r->launch_seq, now_cycle, err);
}

/* *n: how many CTAs of info fit on one core; SIM_ERR_INPUT naming the binding limit when not
 * one does. */
static int fit(struct cta_dispatcher *d, const struct fe_launch_info *info, uint32_t *n,
	       struct sim_error *err)
{
	const char *which;
	*n = occupancy(&d->lim, info, &which);
	if (*n)
		return 0;
	/* at the limiting setting's file and line (the workload's launch line is added by the
	 * workload runner where it knows it) */
	if (d->cfg) {
		cfg_error(err, d->cfg, which,
			  "one CTA of kernel '%s' (%u threads, %u registers/thread, %u shared "
			  "bytes) does not fit on a core",
			  info->kernel_name, info->threads_per_cta, info->regs_per_thread,
			  info->shared_bytes_per_cta);
		if (err)
			err->code = SIM_ERR_INPUT; /* the kernel and the machine disagree */
		return SIM_ERR_INPUT;
	}
	return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, which,
			     "one CTA of kernel '%s' (%u threads, %u registers/thread, %u shared bytes) "
			     "does not fit on a core",
			     info->kernel_name, info->threads_per_cta, info->regs_per_thread,
			     info->shared_bytes_per_cta);
}

/* Build-time allocation: the timeline grows once per kernel, never per CTA. */
static int reserve_records(struct cta_dispatcher *d, uint64_t n, struct sim_error *err)
{
	if (d->n_rec + n <= d->cap_rec)
		return 0;
	uint64_t cap = (d->n_rec + n) * 2;
	struct cta_dispatcher_record *nr = realloc(d->rec, cap * sizeof *nr);
	if (!nr)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (CTA timeline)");
	d->rec = nr;
	d->cap_rec = cap;
	return 0;
}

int cta_dispatcher_launch_kernel_info(struct cta_dispatcher *d, struct fe_launch *l,
				      const struct fe_launch_info *info, uint64_t now_cycle,
				      struct sim_error *err)
{
	if (d->launch || d->mk_running)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "kernel launched while kernel '%s' still runs",
				     d->launch ? d->info.kernel_name : "(concurrent)");
	for (uint32_t i = 0; i < d->n_cores; i++)
		if (!d->cores[i].ops)
			return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
					     "core %u is not attached to the CTA dispatcher", i);
	d->info = *info;
	int rc = fit(d, &d->info, &d->ctas_per_core, err);
	if (rc || (rc = reserve_records(d, d->info.n_ctas, err)))
		return rc;
	d->launch = l;
	d->kernel_idx = d->n_kernels++;
	d->stat_kernels++;
	d->rec_base = d->n_rec;
	d->next_cta = 0;
	d->finished = 0;
	d->start_cycle = now_cycle;
	d->end_cycle = UINT64_MAX;
	for (uint32_t i = 0; i < d->n_cores; i++) {
		d->cores[i].resident_ctas = 0;
		if (d->cores[i].ops->kernel_begin)
			d->cores[i].ops->kernel_begin(d->cores[i].ctx, &d->info, now_cycle);
	}
	if (d->info.n_ctas == 0) {
		d->launch = NULL;
		d->end_cycle = now_cycle + 1;
		for (uint32_t i = 0; i < d->n_cores; i++)
			if (d->cores[i].ops->kernel_end)
				d->cores[i].ops->kernel_end(d->cores[i].ctx, now_cycle);
		return 0;
	}
	/* OWL Sec 2.1: CTA 1 to core 1, CTA 2 to core 2, ...; after every core has one, more
	 * CTAs go to the cores "in a similar fashion", i.e. round after round, from the launch's
	 * first core (fill_first_core). */
	uint32_t first = fill_first_core(d);
	for (uint32_t round = 0; round < d->ctas_per_core; round++)
		for (uint32_t i = 0; i < d->n_cores && d->next_cta < d->info.n_ctas; i++) {
			int rc = launch_on(d, (first + i) % d->n_cores, now_cycle, err);
			if (rc)
				return rc;
		}
	return 0;
}

static int mk_cta_finished(struct cta_dispatcher *d, uint32_t core, uint32_t cta_id,
			   uint64_t now_cycle, struct sim_error *err);

int cta_dispatcher_cta_finished(struct cta_dispatcher *d, uint32_t core, uint32_t cta_id,
				uint64_t now_cycle, struct sim_error *err)
{
	if (!d->launch)
		return mk_cta_finished(d, core, cta_id, now_cycle, err);
	SIM_ASSERT(core < d->n_cores && cta_id < d->next_cta);
	struct cta_dispatcher_record *r = &d->rec[d->rec_base + cta_id];
	SIM_ASSERT(r->core == core && r->end_cycle == UINT64_MAX);
	r->end_cycle = now_cycle;
	if (d->finish_fn)
		d->finish_fn(d->finish_ctx, r);
	SIM_ASSERT(d->cores[core].resident_ctas > 0);
	d->cores[core].resident_ctas--;
	d->finished++;
	if (d->next_cta < d->info.n_ctas)
		return launch_on(d, core, now_cycle, err);
	if (d->finished == d->info.n_ctas) {
		d->launch = NULL;
		d->end_cycle = now_cycle + 1;
		for (uint32_t i = 0; i < d->n_cores; i++)
			if (d->cores[i].ops->kernel_end)
				d->cores[i].ops->kernel_end(d->cores[i].ctx, now_cycle);
	}
	return 0;
}

void cta_dispatcher_set_finish_hook(struct cta_dispatcher *d,
				    void (*fn)(void *ctx, const struct cta_dispatcher_record *r), void *ctx)
{
	d->finish_fn = fn;
	d->finish_ctx = ctx;
}

bool cta_dispatcher_ctas_waiting(const void *dv)
{
	const struct cta_dispatcher *d = dv;
	return d->launch ? d->next_cta < d->info.n_ctas : d->mk_waiting > 0;
}

bool cta_dispatcher_kernel_done(const struct cta_dispatcher *d)
{
	return d->launch == NULL && d->mk_running == 0;
}
uint64_t cta_dispatcher_kernel_start_cycle(const struct cta_dispatcher *d) { return d->start_cycle; }
uint64_t cta_dispatcher_kernel_end_cycle(const struct cta_dispatcher *d) { return d->end_cycle; }
const struct cta_dispatcher_limits *cta_dispatcher_limits(const struct cta_dispatcher *d) { return &d->lim; }
uint32_t cta_dispatcher_ctas_per_core(const struct cta_dispatcher *d) { return d->ctas_per_core; }

uint32_t cta_dispatcher_ctas_started(const struct cta_dispatcher *d) { return d->next_cta; }

bool cta_dispatcher_cta_core(const struct cta_dispatcher *d, uint32_t cta_id, uint32_t *core)
{
	if (cta_id >= d->next_cta)
		return false;
	*core = d->rec[d->rec_base + cta_id].core;
	return true;
}

void cta_dispatcher_set_next_kernel_index(struct cta_dispatcher *d, uint32_t kernel_idx)
{
	d->n_kernels = kernel_idx;
}

uint32_t cta_dispatcher_core_ctas(const struct cta_dispatcher *d, uint32_t core)
{
	SIM_ASSERT(core < d->n_cores);
	return d->cores[core].resident_ctas;
}

const struct cta_dispatcher_record *cta_dispatcher_timeline(const struct cta_dispatcher *d, uint64_t *n)
{
	*n = d->n_rec;
	return d->rec;
}

static int write_rows(const struct cta_dispatcher *d, FILE *out, uint64_t from, struct sim_error *err)
{
	for (uint64_t i = from; i < d->n_rec; i++) {
		const struct cta_dispatcher_record *r = &d->rec[i];
		int rc;
		if (r->core == UINT32_MAX)
			continue; /* a concurrent kernel's CTA never placed (a budget ended the run) */
		if (r->end_cycle == UINT64_MAX)
			rc = fprintf(out, "%u,%u,%u,%" PRIu64 ",%" PRIu64 ",\n", r->kernel_idx, r->cta_id,
				     r->core, r->launch_seq, r->start_cycle);
		else
			rc = fprintf(out, "%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->kernel_idx,
				     r->cta_id, r->core, r->launch_seq, r->start_cycle, r->end_cycle);
		if (rc < 0)
			return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "cannot write the CTA timeline");
	}
	return 0;
}

int cta_dispatcher_write_timeline_csv(const struct cta_dispatcher *d, FILE *out, struct sim_error *err)
{
	if (fprintf(out, "kernel,cta,core,launch_seq,start_cycle,end_cycle\n") < 0)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "cannot write the CTA timeline");
	return write_rows(d, out, 0, err);
}

int cta_dispatcher_write_kernel_timeline_csv(const struct cta_dispatcher *d, FILE *out, struct sim_error *err)
{
	return write_rows(d, out, d->rec_base, err);
}

int cta_dispatcher_write_timeline_from(const struct cta_dispatcher *d, FILE *out, uint64_t from,
				       struct sim_error *err)
{
	return write_rows(d, out, from, err);
}

uint64_t cta_dispatcher_record_count(const struct cta_dispatcher *d) { return d->n_rec; }

/* ---- concurrent kernels (on-gpu) ---------------------------------------------------- */

bool cta_dispatcher_concurrent(const struct cta_dispatcher *d) { return d->on_gpu; }

int cta_dispatcher_check_fit(struct cta_dispatcher *d, const struct fe_launch_info *info,
			     struct sim_error *err)
{
	uint32_t n;
	return fit(d, info, &n, err);
}
uint32_t cta_dispatcher_running_kernels(const struct cta_dispatcher *d) { return d->mk_running; }

void cta_dispatcher_set_kernel_hooks(struct cta_dispatcher *d,
				     const struct cta_dispatcher_kernel_hooks *hooks, void *ctx)
{
	d->hooks = hooks;
	d->hooks_ctx = ctx;
}

static int mk_launch_on(struct cta_dispatcher *d, uint32_t core, struct disp_kernel *k,
			uint64_t now_cycle, struct sim_error *err)
{
	struct cta_dispatcher_core *c = &d->cores[core];
	uint32_t cta = k->next_cta++;
	if (k->next_cta == k->info.n_ctas)
		d->mk_waiting--;
	struct cta_dispatcher_record *r = &d->rec[k->rec_base + cta];
	r->core = core;
	r->launch_seq = d->launch_seq++;
	r->start_cycle = now_cycle;
	d->last_core = core;
	c->resident_ctas++;
	d->stat_ctas_launched++;
	return c->ops->launch(c->ctx, k->launch, cta, r->launch_seq, now_cycle, err);
}

/* An idle core starts running kernel slot k's CTAs: its per-kernel accounting from
 * begin_cycle. */
static void mk_core_take(struct cta_dispatcher *d, uint32_t core, uint32_t k, uint64_t begin_cycle)
{
	struct cta_dispatcher_core *c = &d->cores[core];
	SIM_ASSERT(c->mk == MK_NONE && c->resident_ctas == 0);
	c->mk = k;
	if (c->ops->kernel_begin)
		c->ops->kernel_begin(c->ctx, &d->mk[k].info, begin_cycle);
	if (d->hooks && d->hooks->core_kernel)
		d->hooks->core_kernel(d->hooks_ctx, core, d->mk[k].tag, true, begin_cycle);
}

/* A core's last CTA finished at now_cycle and its kernel has none left to place. */
static void mk_core_release(struct cta_dispatcher *d, uint32_t core, uint64_t now_cycle)
{
	struct cta_dispatcher_core *c = &d->cores[core];
	if (c->ops->kernel_end)
		c->ops->kernel_end(c->ctx, now_cycle);
	if (d->hooks && d->hooks->core_kernel)
		d->hooks->core_kernel(d->hooks_ctx, core, d->mk[c->mk].tag, false, now_cycle);
	c->mk = MK_NONE;
}

/* The running kernel added first that has CTAs to place; MK_NONE: none. */
static uint32_t mk_oldest_waiting(const struct cta_dispatcher *d)
{
	uint32_t best = MK_NONE;
	for (uint32_t i = 0; i < d->n_mk && d->mk_waiting; i++) {
		const struct disp_kernel *k = &d->mk[i];
		if (k->launch && k->next_cta < k->info.n_ctas &&
		    (best == MK_NONE || k->seq < d->mk[best].seq))
			best = i;
	}
	return best;
}

int cta_dispatcher_add_kernel(struct cta_dispatcher *d, struct fe_launch *l,
			      const struct fe_launch_info *info, uint32_t tag, uint32_t kernel_idx,
			      uint64_t now_cycle, struct sim_error *err)
{
	if (d->launch)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "concurrent kernel added while kernel '%s' runs alone",
				     d->info.kernel_name);
	uint32_t per_core;
	int rc = fit(d, info, &per_core, err);
	if (rc || (rc = reserve_records(d, info->n_ctas, err)))
		return rc;
	uint32_t slot = 0;
	while (slot < d->n_mk && d->mk[slot].launch)
		slot++;
	if (slot == d->n_mk) {
		struct disp_kernel *nk = realloc(d->mk, (d->n_mk + 1) * sizeof *nk);
		if (!nk)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (kernels)");
		d->mk = nk;
		d->n_mk++;
	}
	struct disp_kernel *k = &d->mk[slot];
	*k = (struct disp_kernel){.launch = l, .info = *info, .tag = tag, .kernel_idx = kernel_idx,
				  .seq = d->mk_seq++, .ctas_per_core = per_core, .rec_base = d->n_rec};
	d->stat_kernels++;
	/* every CTA's record now, placed or not, so that each kernel's rows are contiguous */
	for (uint32_t i = 0; i < info->n_ctas; i++)
		d->rec[d->n_rec + i] = (struct cta_dispatcher_record){
			.kernel_idx = k->kernel_idx, .cta_id = i, .core = UINT32_MAX,
			.start_cycle = UINT64_MAX, .end_cycle = UINT64_MAX};
	d->n_rec += info->n_ctas;
	if (info->n_ctas == 0) {
		k->launch = NULL;
		if (d->hooks && d->hooks->kernel_done)
			d->hooks->kernel_done(d->hooks_ctx, tag, now_cycle + 1);
		return 0;
	}
	d->mk_running++;
	d->mk_waiting++;
	/* the idle cores, round after round as a kernel launched alone (OWL Sec 2.1), from the
	 * same first core; busy cores keep their kernels' CTAs and take this one's when they
	 * empty */
	uint32_t first = fill_first_core(d);
	for (uint32_t round = 0; round < per_core && k->next_cta < info->n_ctas; round++)
		for (uint32_t i = 0; i < d->n_cores && k->next_cta < info->n_ctas; i++) {
			uint32_t c = (first + i) % d->n_cores;
			struct cta_dispatcher_core *core = &d->cores[c];
			if (round == 0 && core->mk == MK_NONE)
				mk_core_take(d, c, slot, now_cycle);
			else if (core->mk != slot)
				continue;
			if ((rc = mk_launch_on(d, c, &d->mk[slot], now_cycle, err)))
				return rc;
		}
	return 0;
}

static int mk_cta_finished(struct cta_dispatcher *d, uint32_t core, uint32_t cta_id,
			   uint64_t now_cycle, struct sim_error *err)
{
	SIM_ASSERT(core < d->n_cores);
	struct cta_dispatcher_core *c = &d->cores[core];
	uint32_t slot = c->mk;
	SIM_ASSERT(slot != MK_NONE);
	struct disp_kernel *k = &d->mk[slot];
	SIM_ASSERT(cta_id < k->next_cta);
	struct cta_dispatcher_record *r = &d->rec[k->rec_base + cta_id];
	SIM_ASSERT(r->core == core && r->end_cycle == UINT64_MAX);
	r->end_cycle = now_cycle;
	if (d->finish_fn)
		d->finish_fn(d->finish_ctx, r);
	SIM_ASSERT(c->resident_ctas > 0);
	c->resident_ctas--;
	k->finished++;
	int rc = 0;
	if (k->next_cta < k->info.n_ctas)
		return mk_launch_on(d, core, k, now_cycle, err);
	if (c->resident_ctas == 0) {
		/* GPGPU-Sim's rule without concurrent_kernel_sm: a core takes another kernel only
		 * when its own has no CTA left to place and none of its CTAs runs there */
		mk_core_release(d, core, now_cycle);
		uint32_t next = mk_oldest_waiting(d);
		if (next != MK_NONE) {
			mk_core_take(d, core, next, now_cycle + 1);
			struct disp_kernel *n = &d->mk[next];
			for (uint32_t i = 0; !rc && i < n->ctas_per_core && n->next_cta < n->info.n_ctas; i++)
				rc = mk_launch_on(d, core, n, now_cycle, err);
		}
	}
	if (k->finished == k->info.n_ctas) {
		k->launch = NULL;
		d->mk_running--;
		if (d->hooks && d->hooks->kernel_done)
			d->hooks->kernel_done(d->hooks_ctx, k->tag, now_cycle + 1);
	}
	return rc;
}
