/* SPDX-License-Identifier: MIT */
/* Concurrent kernels: a batch of launches with their dependencies (stream order, events) run
 * side by side on the timing model (gpu.cta_dispatcher.concurrent_kernels = on-gpu), each
 * started at the cycle after the last launch it waits for ends. */
#include "gpu_internal.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct batch {
	struct gpu *g;
	struct gpu_batch_launch *b;
	uint32_t n, done;
	uint32_t *deps_left;         /* [n] launches each still waits for */
	uint32_t *ready;             /* launches whose dependencies ended, to start at ready_cycle */
	uint32_t n_ready;
	uint64_t ready_cycle;
	uint64_t *core_w0, *core_t0; /* [n_cores] the core's counters when it took its kernel */
	uint64_t *sms;               /* [n * words] cores each launch ran on, a bit each */
	uint32_t words;
	uint32_t first_launch;       /* stats.json index of launch 0 (the timeline's kernel column) */
	struct sim_event start_ev;
	int rc;                      /* a failure while starting a kernel (inside the run) */
	struct sim_error err;
};

static void core_kernel(void *ctx, uint32_t core, uint32_t tag, bool begin, uint64_t now_cycle)
{
	(void)now_cycle;
	struct batch *bt = ctx;
	struct sm_counters c;
	sm_get_counters(bt->g->sms[core], &c);
	if (begin) {
		bt->core_w0[core] = c.warp_insts;
		bt->core_t0[core] = c.thread_insts;
		bt->sms[(size_t)tag * bt->words + core / 64] |= 1ull << (core % 64);
		return;
	}
	bt->b[tag].warp_insts += c.warp_insts - bt->core_w0[core];
	bt->b[tag].thread_insts += c.thread_insts - bt->core_t0[core];
}

/* Called from inside the finishing core's tick: the launches it releases start at end_cycle,
 * from an event before that cycle's ticks. */
static void kernel_done(void *ctx, uint32_t tag, uint64_t end_cycle)
{
	struct batch *bt = ctx;
	bt->b[tag].end_cycle = end_cycle;
	bt->done++;
	for (uint32_t j = tag + 1; j < bt->n; j++)
		for (uint32_t a = 0; a < bt->b[j].n_after; a++)
			if (bt->b[j].after[a] == tag && --bt->deps_left[j] == 0)
				bt->ready[bt->n_ready++] = j;
	if (bt->n_ready && !sim_event_queued(&bt->start_ev)) {
		bt->ready_cycle = end_cycle;
		sim_event_schedule(bt->g->sim, &bt->start_ev, sim_clock_edge_ps(&bt->g->core_clk, end_cycle));
	}
}

static const struct cta_dispatcher_kernel_hooks batch_hooks = {core_kernel, kernel_done};

static int start(struct batch *bt, uint32_t i, uint64_t cycle, struct sim_error *err)
{
	struct gpu_batch_launch *e = &bt->b[i];
	struct fe_launch_info info;
	fe_launch_get_info(e->l, &info);
	e->start_cycle = cycle;
	return cta_dispatcher_add_kernel(bt->g->disp, e->l, &info, i, bt->first_launch + i, cycle, err);
}

/* Launches become ready in the order their dependencies end; those released by one cycle's
 * ends start together, in batch order. */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void start_fire(struct sim *sim, struct sim_event *ev)
{
	struct batch *bt = SIM_CONTAINER_OF(ev, struct batch, start_ev);
	uint32_t n = bt->n_ready;
	qsort(bt->ready, n, sizeof *bt->ready, cmp_u32);
	/* a launch of no CTA ends inside start() and may append to ready: started next round */
	uint32_t *now = malloc(n * sizeof *now);
	if (!now) {
		bt->rc = sim_error_set(&bt->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		sim_request_stop(sim);
		return;
	}
	memcpy(now, bt->ready, n * sizeof *now);
	bt->n_ready = 0;
	for (uint32_t k = 0; k < n && !bt->rc; k++)
		bt->rc = start(bt, now[k], bt->ready_cycle, &bt->err);
	free(now);
	if (bt->rc)
		sim_request_stop(sim);
}

static json_t *u64(uint64_t v) { return json_integer((json_int_t)v); }

/* Each launch's record: its own cycles, instructions and CTAs, where and when it ran. */
static void append_records(struct batch *bt)
{
	for (uint32_t i = 0; i < bt->n; i++) {
		const struct gpu_batch_launch *e = &bt->b[i];
		struct fe_launch_info info;
		fe_launch_get_info(e->l, &info);
		uint32_t sms = 0;
		for (uint32_t w = 0; w < bt->words; w++)
			sms += (uint32_t)__builtin_popcountll(bt->sms[(size_t)i * bt->words + w]);
		json_t *st = json_object();
		json_object_set_new(st, "gpu.cycles", u64(e->end_cycle - e->start_cycle));
		json_object_set_new(st, "gpu.start_cycle", u64(e->start_cycle));
		json_object_set_new(st, "gpu.end_cycle", u64(e->end_cycle));
		json_object_set_new(st, "gpu.warp_insts", u64(e->warp_insts));
		json_object_set_new(st, "gpu.thread_insts", u64(e->thread_insts));
		json_object_set_new(st, "gpu.ctas", u64(info.n_ctas));
		json_object_set_new(st, "gpu.grid_ctas", u64(info.n_ctas));
		json_object_set_new(st, "gpu.sms_used", u64(sms));
		stats_kernel_append(bt->g->st, info.cxx_name ? info.cxx_name : info.kernel_name,
				    info.kernel_name, st);
	}
}

static void batch_free(struct batch *bt)
{
	free(bt->deps_left);
	free(bt->ready);
	free(bt->core_w0);
	free(bt->core_t0);
	free(bt->sms);
}

bool gpu_batch_possible(const struct gpu *g)
{
	return cta_dispatcher_concurrent(g->disp) && !g->sampler && !g->budget.cycles &&
	       !g->budget.warp_insts && !g->budget.thread_insts;
}

int gpu_run_batch(struct gpu *g, struct gpu_batch_launch *b, uint32_t n, json_t **section,
		  struct sim_error *err)
{
	*section = NULL;
	if (!gpu_batch_possible(g))
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "gpu.cta_dispatcher.concurrent_kernels",
				     "a concurrent batch needs on-gpu, no time series and no budget");
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t a = 0; a < b[i].n_after; a++)
			if (b[i].after[a] >= i)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
						     "launch %u of a batch waits for launch %u, not an earlier one",
						     i, b[i].after[a]);
	struct batch bt = {.g = g, .b = b, .n = n, .words = (g->n_cores + 63) / 64,
			   .first_launch = (uint32_t)stats_kernel_count(g->st)};
	bt.deps_left = calloc(n ? n : 1, sizeof *bt.deps_left);
	bt.ready = calloc(n ? n : 1, sizeof *bt.ready);
	bt.core_w0 = calloc(g->n_cores, sizeof *bt.core_w0);
	bt.core_t0 = calloc(g->n_cores, sizeof *bt.core_t0);
	bt.sms = calloc((size_t)(n ? n : 1) * bt.words, sizeof *bt.sms);
	if (!bt.deps_left || !bt.ready || !bt.core_w0 || !bt.core_t0 || !bt.sms) {
		batch_free(&bt);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	/* a launch the cores cannot hold is refused before any of the batch starts */
	for (uint32_t i = 0; i < n; i++) {
		struct fe_launch_info info;
		gpu_prepare_launch(g, b[i].l, &info);
		int rc = cta_dispatcher_check_fit(g->disp, &info, err);
		if (rc) {
			batch_free(&bt);
			return rc;
		}
	}
	sim_error_clear(&bt.err);
	sim_event_init(&bt.start_ev, SIM_PRIO_DELIVERY, start_fire);
	/* the batch is one scope of the stats: its launches' records are made from it */
	stats_kernel_begin(g->st, "concurrent");
	uint32_t ctas = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct fe_launch_info info;
		gpu_prepare_launch(g, b[i].l, &info);
		gpu_note_regs(g, &info);
		b[i].start_cycle = b[i].end_cycle = 0;
		b[i].warp_insts = b[i].thread_insts = 0;
		bt.deps_left[i] = b[i].n_after;
		ctas += info.n_ctas;
	}
	uint64_t first_rec = cta_dispatcher_record_count(g->disp);
	cta_dispatcher_set_next_kernel_index(g->disp, bt.first_launch + n);
	uint64_t start_cycle = sim_clock_cycle_at_or_after(&g->core_clk, sim_now_ps(g->sim));
	cta_dispatcher_set_kernel_hooks(g->disp, &batch_hooks, &bt);
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++)
		if (!b[i].n_after)
			rc = start(&bt, i, start_cycle, err);
	/* the livelock watchdog samples the launches' memory states (forward_progress) */
	g->launch = n ? b[0].l : NULL;
	g->batch = b;
	g->n_batch = n;
	memset(&g->mem_ring, 0, sizeof g->mem_ring);
	g->launch_ctas = ctas;
	g->grid_ctas += ctas;
	g->launch_start_cycle = start_cycle;
	enum sim_stop why = rc ? SIM_STOP_QUIESCENT : sim_run(g->sim, SIM_NEVER, g->report, err);
	g->launch = NULL;
	g->batch = NULL;
	g->n_batch = 0;
	g->launch_ctas = 0;
	if (sim_event_queued(&bt.start_ev))
		sim_event_cancel(g->sim, &bt.start_ev);
	cta_dispatcher_set_kernel_hooks(g->disp, NULL, NULL);
	if (!rc && bt.rc) {
		*err = bt.err;
		rc = bt.rc;
	}
	if (!rc)
		rc = gpu_stop_status(g, why, "(concurrent batch)", err);
	if (!rc && bt.done != n)
		rc = sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				   "simulation went quiet with %u of the batch's %u launches not run "
				   "(a dependency that never ends)", n - bt.done, n);
	if (!rc && g->check)
		rc = gpu_check_kernel_end(g, "(concurrent batch)", err);
	if (rc) {
		batch_free(&bt);
		return rc;
	}
	uint64_t end_cycle = start_cycle;
	for (uint32_t i = 0; i < n; i++)
		if (b[i].end_cycle > end_cycle)
			end_cycle = b[i].end_cycle;
	/* the GPU's time in kernels is the batch's span, counted once however many overlapped */
	uint64_t kernels_before = g->kernels;
	gpu_account_launch(g, end_cycle - start_cycle);
	g->kernels = kernels_before + n;
	gpu_account_memory(g);
	json_t *sec = json_object();
	json_object_set_new(sec, "first_launch", json_integer((json_int_t)stats_kernel_count(g->st)));
	json_object_set_new(sec, "launches", json_integer(n));
	json_object_set_new(sec, "start_cycle", json_integer((json_int_t)start_cycle));
	json_object_set_new(sec, "end_cycle", json_integer((json_int_t)end_cycle));
	json_object_set_new(sec, "stats", stats_kernel_scope_json(g->st));
	*section = sec;
	append_records(&bt);
	if (g->timeline)
		rc = cta_dispatcher_write_timeline_from(g->disp, g->timeline, first_rec, err);
	batch_free(&bt);
	return rc;
}
