/* SPDX-License-Identifier: MIT */
/* warpsim_launch_batch: launches of several streams with their dependencies, run side by side
 * on the timing model when gpu.cta_dispatcher.concurrent_kernels allows (components/gpu_batch.c),
 * else one at a time; stats.json's per-stream and per-batch sections. */
#include <jansson.h>
#include <stdlib.h>

#include "api_guard.h"
#include "api_machine.h"

/* The machine runs the batch side by side: a timing machine whose launch control has nothing
 * to decide (every launch timed, no budget) and whose GPU can (on-gpu, no time series). */
static bool side_by_side(const struct warpsim *ws)
{
	const struct api_ctl *c = &ws->ctl;
	return ws->g && gpu_batch_possible(ws->g) && !c->max_cycles && !c->max_warp_insts &&
	       !c->max_thread_insts && !c->max_launches && !c->sel.n && !c->sampler && !c->stopped;
}

/* Record i gets its stream; the stream's totals count the launch. */
static void note_stream(struct warpsim *ws, uint64_t record, uint32_t stream, uint64_t cycles,
			uint64_t warp_insts)
{
	json_t *r = stats_kernel_record(ws->st, record);
	if (r)
		json_object_set_new(r, "stream", json_integer(stream));
	if (!ws->streams && !(ws->streams = json_object()))
		return;
	char key[16];
	snprintf(key, sizeof key, "%u", stream);
	json_t *s = json_object_get(ws->streams, key);
	if (!s) {
		s = json_pack("{s:I, s:I, s:I}", "launches", (json_int_t)0, "cycles", (json_int_t)0,
			      "warp_insts", (json_int_t)0);
		json_object_set_new(ws->streams, key, s);
	}
	const char *const names[] = {"launches", "cycles", "warp_insts"};
	const uint64_t add[] = {1, cycles, warp_insts};
	for (int k = 0; k < 3; k++) {
		json_t *v = json_object_get(s, names[k]);
		json_integer_set(v, json_integer_value(v) + (json_int_t)add[k]);
	}
	stats_set_section(ws->st, "streams", json_incref(ws->streams));
}

static int one_at_a_time(struct warpsim *ws, const struct warpsim_batch_launch *b, uint32_t n,
			 struct warpsim_launch_result *r, struct warpsim_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		struct warpsim_launch_result res;
		uint64_t rec = stats_kernel_count(ws->st);
		int rc = warpsim_launch(b[i].m, b[i].kernel, &b[i].launch, &res, err);
		if (rc)
			return rc;
		/* a launch makes one record (a budget's cut launch included) */
		if (stats_kernel_count(ws->st) > rec)
			note_stream(ws, rec, b[i].stream, res.core_cycles, res.warp_insts);
		if (r)
			r[i] = res;
	}
	return 0;
}

static int run_side_by_side(struct warpsim *ws, const struct warpsim_batch_launch *b, uint32_t n,
			    struct warpsim_launch_result *r, struct warpsim_error *err)
{
	struct sim_error e;
	sim_error_clear(&e);
	struct gpu_batch_launch *gb = calloc(n, sizeof *gb);
	if (!gb)
		return api_fail(err, WARPSIM_ERR_NOMEM, "out of memory");
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		const struct warpsim_launch *l = &b[i].launch;
		struct warpsim_module *m = b[i].m;
		gb[i].l = ws_launch_create(m->h, warpsim_kernel_ptx_name(m, b[i].kernel),
					   WS_DIM3(l->grid[0], l->grid[1], l->grid[2]),
					   WS_DIM3(l->block[0], l->block[1], l->block[2]),
					   l->dynamic_shared_bytes, l->params, (uint32_t)l->params_bytes, &e);
		if (!gb[i].l)
			rc = e.code ? (int)e.code : SIM_ERR_INPUT;
		gb[i].after = b[i].after;
		gb[i].n_after = b[i].n_after;
	}
	uint64_t rec = stats_kernel_count(ws->st), first = ws->launches;
	json_t *section = NULL;
	double s0 = api_cpu_seconds();
	if (!rc)
		rc = api_note_fault(ws, gpu_run_batch(ws->g, gb, n, &section, &e), &e);
	double dt = api_cpu_seconds() - s0;
	ws->cpu_s += dt;
	ws->ctl.timing_cpu_s += dt;
	for (uint32_t i = 0; i < n; i++)
		fe_launch_destroy(gb[i].l);
	if (rc) {
		free(gb);
		return api_fail_sim(err, &e);
	}
	ws->ctl.timing_launches += n;
	ws->launches += n;
	struct sim_clock *clk = gpu_core_clock(ws->g);
	for (uint32_t i = 0; i < n; i++) {
		json_t *record = stats_kernel_record(ws->st, rec + i);
		if (record)
			json_object_set_new(record, "mode", json_string("timing"));
		note_stream(ws, rec + i, b[i].stream, gb[i].end_cycle - gb[i].start_cycle, gb[i].warp_insts);
		if (r)
			r[i] = (struct warpsim_launch_result){
				.launch = first + i, .start_ps = sim_clock_edge_ps(clk, gb[i].start_cycle),
				.end_ps = sim_clock_edge_ps(clk, gb[i].end_cycle),
				.core_cycles = gb[i].end_cycle - gb[i].start_cycle,
				.warp_insts = gb[i].warp_insts};
	}
	free(gb);
	if (!ws->concurrent)
		ws->concurrent = json_array();
	json_array_append_new(ws->concurrent, section);
	stats_set_section(ws->st, "concurrent", json_incref(ws->concurrent));
	return 0;
}

int warpsim_launch_batch(struct warpsim *ws, const struct warpsim_batch_launch *b, uint32_t n,
			 struct warpsim_launch_result *r, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_machine(ws, __func__, err)))
		return rc;
	if (!n)
		return 0;
	if ((rc = api_need(b, __func__, "b", err)))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = api_check_launch(b[i].m, b[i].kernel, &b[i].launch, __func__, err)))
			return rc;
		if (b[i].m->ws != ws)
			return api_fail(err, WARPSIM_ERR_INPUT, "%s: entry %u's module belongs to another "
					"machine", __func__, i);
		if (b[i].n_after && (rc = api_need(b[i].after, __func__, "b[i].after", err)))
			return rc;
		for (uint32_t a = 0; a < b[i].n_after; a++)
			if (b[i].after[a] >= i)
				return api_fail(err, WARPSIM_ERR_INPUT, "%s: entry %u waits for entry %u, "
						"which is not an earlier one", __func__, i, b[i].after[a]);
	}
	return side_by_side(ws) ? run_side_by_side(ws, b, n, r, err) : one_at_a_time(ws, b, n, r, err);
}
