/* SPDX-License-Identifier: MIT */
/* GPU assembly: builds clocks, cores, dispatcher, NoC and memory channels from configuration,
 * wires them, runs launches, and keeps the machine-wide summary stats (gpu.*). */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../memory/mem_req.h"
#include "../noc/noc.h"
#include "../scheduler/policy.h"


int gpu_cfg_define_all(struct cfg *c, struct sim_error *err)
{
	int rc;
	if ((rc = engine_cfg_define(c, err)) || (rc = sm_cfg_define(c, err)) ||
	    (rc = cta_dispatcher_cfg_define(c, err)) || (rc = sched_cfg_define(c, err)) ||
	    (rc = mem_unit_cfg_define(c, err)) || (rc = mem_channel_cfg_define(c, err)) ||
	    (rc = noc_cfg_define(c, err)))
		return rc;
	return 0;
}

static bool needs_noc(const struct cfg *c)
{
	const char *m = cfg_str(c, "gpu.memory.model");
	return !strcmp(m, "full") || !strcmp(m, "perfect-l2");
}

/* Header of every request and reply packet (memory/mem_req.h: 8 bytes, then the data). */
#define GPU_PKT_HDR_BYTES 8

/* The cycle NoC ejects whole packets into a queue per node and class of
 * gpu.noc.eject_queue_flits flits, one credit pool shared by the ejection port's VCs
 * (gpu.noc.vcs per class of a network). The largest packet is the largest L1 line (data of a
 * fill, a write or a write-back) after the header. It must fit (noc_cycle.c asserts it), and
 * every ejection VC must be able to hold a whole packet at once: otherwise each VC takes part
 * of a packet, the shared credits run out with none complete, and nothing ever ejects again
 * (measured on gtx480 vecadd medium with vcs = 4: eject_queue_flits 5 and 10 deadlock, 20
 * completes). */
static int check_eject_queue(const struct cfg *c, struct sim_error *err)
{
	if (strcmp(cfg_str(c, "gpu.noc.model"), "cycle") || !needs_noc(c))
		return 0;
	static const char *const lines[] = {"gpu.memory.l1d.line_bytes", "gpu.memory.l1c.line_bytes",
					    "gpu.memory.l1t.line_bytes"};
	const char *line_key = lines[0];
	int64_t line = 0;
	for (size_t i = 0; i < SIM_ARRAY_LEN(lines); i++)
		if (cfg_is_defined(c, lines[i]) && cfg_int(c, lines[i]) > line) {
			line = cfg_int(c, lines[i]);
			line_key = lines[i];
		}
	int64_t cb = cfg_int(c, "gpu.noc.channel_bytes"), eject = cfg_int(c, "gpu.noc.eject_queue_flits");
	int64_t vcs = cfg_int(c, "gpu.noc.vcs");
	bool one_net = strcmp(cfg_str(c, "gpu.noc.class_separation"), "networks") != 0;
	int64_t per_class = one_net ? vcs / 2 : vcs;
	if (per_class < 1)
		per_class = 1; /* an odd count is noc_cycle.c's error, named there */
	int64_t bytes = GPU_PKT_HDR_BYTES + line, flits = (bytes + cb - 1) / cb;
	if (eject < flits)
		return cfg_error(err, c, "gpu.noc.eject_queue_flits",
				 "%lld flits cannot hold the largest packet: %lld bytes (%s = %lld plus an "
				 "8-byte header) are %lld flits of gpu.noc.channel_bytes = %lld",
				 (long long)eject, (long long)bytes, line_key, (long long)line,
				 (long long)flits, (long long)cb);
	if (eject < per_class * flits)
		return cfg_error(err, c, "gpu.noc.eject_queue_flits",
				 "%lld flits cannot hold a %lld-flit packet on each of the %lld ejection VCs "
				 "of a class (gpu.noc.vcs = %lld, class_separation %s): the NoC can deadlock "
				 "below %lld",
				 (long long)eject, (long long)flits, (long long)per_class, (long long)vcs,
				 cfg_str(c, "gpu.noc.class_separation"), (long long)(per_class * flits));
	return 0;
}

int gpu_cfg_validate(const struct cfg *c, struct sim_error *err)
{
	/* Each module validates its own settings when it is built; here only what spans modules. */
	return check_eject_queue(c, err);
}

void gpu_destroy(struct gpu *g)
{
	if (!g)
		return;
	for (uint32_t i = 0; g->sms && i < g->n_cores; i++)
		sm_destroy(g->sms[i]);
	for (uint32_t i = 0; g->chans && i < g->n_chans; i++)
		mem_channel_destroy(g->chans[i]);
	if (g->noc)
		noc_destroy(g->noc);
	cta_dispatcher_destroy(g->disp);
	sampler_destroy(g->sampler);
	sim_destroy(g->sim);
	free(g->sms);
	free(g->chans);
	free(g->last);
	free(g);
}

static double launch_regs(const void *ctx)
{
	return ((const struct gpu *)ctx)->regs_per_thread;
}

static double launch_regs_source(const void *ctx)
{
	return ((const struct gpu *)ctx)->regs_source;
}

static void register_regs_stats(struct gpu *g)
{
	struct stats *st = g->st;
	stats_derived(st, launch_regs, g, "registers",
		      "registers per thread of the kernel (totals: of the last launch); source in "
		      "gpu.regs_source", "gpu.regs_per_thread");
	stats_derived(st, launch_regs_source, g, "code",
		      "where gpu.regs_per_thread came from: 1 the workload file's regs_per_thread or "
		      "ws_set_regs_per_thread, 2 ptxas -v (run now or read from the user cache: "
		      "the same count), 4 warpsim's estimate (no ptxas figure; see the warning); 0 no launch yet",
		      "gpu.regs_source");
	static const char *const names[] = {[FE_REGS_GIVEN] = "given", [FE_REGS_PTXAS] = "ptxas",
		[FE_REGS_PTXAS_CACHE] = "ptxas_cache", [FE_REGS_ESTIMATE] = "estimate"};
	for (int s = FE_REGS_GIVEN; s <= FE_REGS_ESTIMATE; s++)
		if (s != FE_REGS_PTXAS_CACHE) /* counted as ptxas */
			stats_counter(st, &g->regs_launches[s], "launches",
			      "launches whose registers per thread came from this source (gpu.regs_source)",
			      "gpu.regs_launches.%s", names[s]);
}

static void register_stats(struct gpu *g)
{
	struct stats *st = g->st;
	stats_counter(st, &g->cycles, "core cycles", "core cycles spent in kernels", "gpu.cycles");
	stats_counter(st, &g->warp_insts, "warp instructions", "warp instructions issued", "gpu.warp_insts");
	stats_counter(st, &g->thread_insts, "thread instructions", "thread instructions executed", "gpu.thread_insts");
	stats_counter(st, &g->kernels, "launches", "kernel launches", "gpu.kernels");
	stats_counter(st, &g->ctas, "CTAs", "CTAs completed", "gpu.ctas");
	stats_counter(st, &g->grid_ctas, "CTAs",
		      "CTAs in the timed launches' grids (a launch cut by a budget counts its whole grid)",
		      "gpu.grid_ctas");
	stats_ratio(st, "gpu.thread_insts", "gpu.cycles", 1.0, "thread instructions/cycle",
		    "IPC (GPGPU-Sim convention: thread instructions per core cycle, all cores)", "gpu.ipc");
	stats_ratio(st, "gpu.warp_insts", "gpu.cycles", 1.0, "warp instructions/cycle",
		    "warp instructions per core cycle, all cores", "gpu.warp_ipc");
	stats_counter(st, &g->core_cycles, "core cycles", "cycles x cores inside kernels", "gpu.core_cycles");
	stats_counter(st, &g->issue_core_cycles, "core cycles", "core cycles with at least one issue",
		      "gpu.issue_core_cycles");
	stats_counter(st, &g->idle_core_cycles, "core cycles", "core cycles with no issue", "gpu.idle_core_cycles");
	stats_ratio(st, "gpu.idle_core_cycles", "gpu.core_cycles", 1.0, "fraction",
		    "core inactive time CINV (OWL): cycles with no issue / total", "gpu.cinv");
	stats_counter(st, &g->memory_block_cycles, "core cycles",
		      "OWL MemoryBlockCycles: warps present, all waiting on memory", "gpu.memory_block_cycles");
	stats_counter(st, &g->no_warp_cycles, "core cycles", "OWL NoWarpCycles: no warps, kernel running",
		      "gpu.no_warp_cycles");
	stats_counter(st, &g->sched_cycles, "scheduler cycles", "scheduler cycles (all schedulers, all cores)",
		      "gpu.sched_cycles");
	for (int k = 0; k < SM_CYC_COUNT; k++) {
		char name[96];
		snprintf(name, sizeof name, "gpu.stall.%s", sm_cycle_class_name((enum sm_cycle_class)k));
		stats_counter(st, &g->sched_class[k], "scheduler cycles", "scheduler cycles of this class", "%s", name);
		char frac[112];
		snprintf(frac, sizeof frac, "%s_frac", name);
		stats_ratio(st, name, "gpu.sched_cycles", 1.0, "fraction", "share of scheduler cycles", "%s", frac);
	}
	stats_counter(st, &g->rtru_wasted, "warp cycles", "BAWS Eq 1 numerator (warp cycles idle at barriers)",
		      "gpu.rtru_wasted_warp_cycles");
	stats_counter(st, &g->rtru_total, "warp cycles", "BAWS Eq 1 denominator (N x maxT summed over phases)",
		      "gpu.rtru_phase_warp_cycles");
	stats_ratio(st, "gpu.rtru_wasted_warp_cycles", "gpu.rtru_phase_warp_cycles", 1.0, "fraction",
		    "RTRU (BAWS Eq 1): share of warp time wasted waiting at barriers", "gpu.rtru");
}

/* Sum of a per-SM or per-channel counter over all instances ("sm.%u.l1d.hits"). */
uint64_t gpu_sum_stat(const struct gpu *g, const char *fmt, uint32_t n)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < n; i++) {
		char name[128];
		uint64_t v;
		snprintf(name, sizeof name, fmt, i);
		if (stats_get_u64(g->st, name, &v))
			total += v;
	}
	return total;
}

/* OWL's BLP over the whole GPU: the channels' BLPs averaged (each over its own busy cycles), in
 * the scope asked for: a kernel's record holds that kernel's BLP (0 without DRAM accesses). */
static double gpu_blp(const void *ctx, const struct stats *st, bool kernel_scope)
{
	const struct gpu *g = ctx;
	double sum = 0;
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->n_chans; i++) {
		char name[64];
		uint64_t bank_cycles, busy_cycles;
		snprintf(name, sizeof name, "mc.%u.blp_bank_cycles", i);
		bool ok = stats_get_u64_scope(st, name, kernel_scope, &bank_cycles);
		snprintf(name, sizeof name, "mc.%u.blp_busy_cycles", i);
		if (ok && stats_get_u64_scope(st, name, kernel_scope, &busy_cycles) && busy_cycles) {
			sum += (double)bank_cycles / (double)busy_cycles;
			n++;
		}
	}
	return n ? sum / n : 0.0;
}

static void register_mem_stats(struct gpu *g)
{
	struct stats *st = g->st;
	stats_counter(st, &g->l1d_hits, "accesses", "L1D hits, all cores", "gpu.l1d.hits");
	stats_counter(st, &g->l1d_accesses, "accesses", "L1D accesses, all cores", "gpu.l1d.accesses");
	stats_ratio(st, "gpu.l1d.hits", "gpu.l1d.accesses", 1.0, "ratio", "L1D hit rate, all cores",
		    "gpu.l1d.hit_rate");
	stats_counter(st, &g->dram_row_hits, "requests", "DRAM row-buffer hits, all channels", "gpu.dram.row_hits");
	stats_counter(st, &g->dram_accesses, "requests", "DRAM column accesses (hits + misses + conflicts)",
		      "gpu.dram.accesses");
	stats_ratio(st, "gpu.dram.row_hits", "gpu.dram.accesses", 1.0, "ratio",
		    "RBL (OWL 2.2): row-buffer hit rate over all banks", "gpu.dram.rbl");
	stats_counter(st, &g->dram_reads, "requests", "DRAM reads, all channels", "gpu.dram.reads");
	stats_counter(st, &g->dram_writes, "requests", "DRAM writes, all channels", "gpu.dram.writes");
	stats_derived_scoped(st, gpu_blp, g, "banks",
		      "BLP (OWL 2.2): banks with an outstanding request over busy cycles, mean of channels",
		      "gpu.dram.blp");
	stats_counter(st, &g->l2_hits, "accesses", "L2 hits, all slices", "gpu.l2.hits");
	stats_counter(st, &g->l2_accesses, "accesses", "L2 accesses, all slices", "gpu.l2.accesses");
	stats_ratio(st, "gpu.l2.hits", "gpu.l2.accesses", 1.0, "ratio", "L2 hit rate, all slices",
		    "gpu.l2.hit_rate");
	stats_counter(st, &g->dram_bytes, "bytes", "DRAM data moved (reads + writes x gpu.l2.line_bytes)",
		      "gpu.dram.bytes");
	/* bytes per core cycle x core MHz / 1000 = GB/s (10^9 bytes per second) */
	double core_mhz = (double)cfg_int(g->cfg, "gpu.core.clock_mhz");
	stats_ratio(st, "gpu.dram.bytes", "gpu.cycles", core_mhz / 1000.0, "GB/s",
		    "DRAM bandwidth used, all channels, over the kernels' time", "gpu.dram.bandwidth_gbs");
	stats_counter(st, &g->dram_bus_busy_cycles, "DRAM cycles",
		      "DRAM cycles a data bus moved data, summed over channels", "gpu.dram.bus_busy_cycles");
	/* busy DRAM cycles / (kernel core cycles x DRAM MHz / core MHz x channels) */
	if (g->n_chans && cfg_is_defined(g->cfg, "gpu.dram.clock_mhz")) {
		double dram_mhz = (double)cfg_int(g->cfg, "gpu.dram.clock_mhz");
		stats_ratio(st, "gpu.dram.bus_busy_cycles", "gpu.cycles", core_mhz / (dram_mhz * g->n_chans),
			    "ratio", "DRAM data-bus utilisation, mean of channels, over the kernels' time",
			    "gpu.dram.utilisation");
	}
	g->noc_lat_src = stats_avg_field(st, "noc.latency.total");
	if (!g->noc_lat_src)
		g->noc_lat_src = stats_avg_field(st, "noc.latency.network");
	stats_avg(st, &g->noc_lat, "NoC cycles",
		  "NoC packet latency, accepted until the tail arrives (flow model: network part), all packets",
		  "gpu.noc.latency");
}

/* Fold the memory counters since the last launch into the gpu.* sums. */
void gpu_account_memory(struct gpu *g)
{
	uint64_t dram_acc = gpu_sum_stat(g, "mc.%u.reads", g->n_chans) + gpu_sum_stat(g, "mc.%u.writes", g->n_chans);
	uint64_t now[10] = {
		gpu_sum_stat(g, "sm.%u.l1d.hits", g->n_cores),
		gpu_sum_stat(g, "sm.%u.l1d.accesses", g->n_cores),
		gpu_sum_stat(g, "mc.%u.row_hits", g->n_chans),
		gpu_sum_stat(g, "mc.%u.row_hits", g->n_chans) + gpu_sum_stat(g, "mc.%u.row_misses", g->n_chans) +
			gpu_sum_stat(g, "mc.%u.row_conflicts", g->n_chans),
		gpu_sum_stat(g, "mc.%u.reads", g->n_chans),
		gpu_sum_stat(g, "mc.%u.writes", g->n_chans),
		gpu_sum_stat(g, "l2.%u.hits", g->n_slices),
		gpu_sum_stat(g, "l2.%u.accesses", g->n_slices),
		dram_acc * (uint64_t)cfg_int(g->cfg, "gpu.l2.line_bytes"),
		gpu_sum_stat(g, "mc.%u.bus_busy_cycles", g->n_chans),
	};
	uint64_t *dst[10] = {&g->l1d_hits, &g->l1d_accesses, &g->dram_row_hits, &g->dram_accesses,
			     &g->dram_reads, &g->dram_writes, &g->l2_hits, &g->l2_accesses,
			     &g->dram_bytes, &g->dram_bus_busy_cycles};
	for (int k = 0; k < 10; k++) {
		*dst[k] += now[k] - g->mem_prev[k];
		g->mem_prev[k] = now[k];
	}
	if (g->noc_lat_src) {
		g->noc_lat.sum += g->noc_lat_src->sum - g->noc_lat_prev.sum;
		g->noc_lat.n += g->noc_lat_src->n - g->noc_lat_prev.n;
		g->noc_lat_prev = *g->noc_lat_src;
	}
}

/* The livelock watchdog's signature: forward-progress events over every SM (barrier arrivals,
 * warp exits, CTA completions), atomics that changed memory, and memory contents new to the
 * watchdog. A store alone is not progress: `for (;;) p[i] = x;` rewrites what is there and
 * leaves the launch's memory hash where it was, and a loop cycling memory through a few
 * contents (x = 1; x = 2;) shows the watchdog only samples its ring already holds. A store of
 * a value not there before (a counter, a flag another CTA waits for, new results) moves it.
 * Called once per watchdog period (sim.watchdog_cycles), never per cycle. */
static uint64_t forward_progress(void *ctx)
{
	struct gpu *g = ctx;
	uint64_t sum = 0;
	for (uint32_t i = 0; g->sms && i < g->n_cores; i++)
		if (g->sms[i])
			sum += sm_forward_progress(g->sms[i]);
	if (g->launch) {
		uint64_t state = 0, atomics = 0;
		/* a concurrent batch: every launch's state, mixed into one */
		for (uint32_t i = 0; i < (g->batch ? g->n_batch : 1); i++) {
			uint64_t st, at;
			fe_launch_progress(g->batch ? g->batch[i].l : g->launch, &st, &at);
			state = state * 0x100000001b3ull ^ st;
			atomics += at;
		}
		g->mem_new_states += fe_state_ring_new(&g->mem_ring, state);
		sum += atomics + g->mem_new_states;
	}
	return sum;
}

/* The watchdog's periodic call: a progress report when someone asked for one. */
static void periodic(void *ctx)
{
	struct gpu *g = ctx;
	if (!g->progress_fn || !g->launch_ctas)
		return;
	struct gpu_progress p = {.kernels_done = g->kernels, .ctas_total = g->launch_ctas};
	uint64_t now = sim_clock_cycle_at(&g->core_clk, sim_now_ps(g->sim));
	p.cycles = g->cycles + (now > g->launch_start_cycle ? now - g->launch_start_cycle : 0);
	for (uint32_t i = 0; i < g->n_cores; i++) {
		struct sm_counters c;
		sm_get_counters(g->sms[i], &c);
		p.warp_insts += c.warp_insts;
		p.thread_insts += c.thread_insts;
		p.ctas_done += c.ctas_finished - g->last[i].ctas_finished;
	}
	g->progress_fn(g->progress_ctx, &p);
}

/* A sample at each multiple of sample_cycles while the launch runs; the launch's tail is
 * taken when it ends (gpu_run_launch). */
static void sample_fire(struct sim *sim, struct sim_event *ev)
{
	struct gpu *g = SIM_CONTAINER_OF(ev, struct gpu, sample_ev);
	uint64_t now = sim_clock_cycle_at(&g->core_clk, sim_now_ps(sim));
	/* Draining after the launch's end (the cycle after its last CTA completed): the tail row
	 * covers it. A sample at the very cycle the last CTA completed is still taken, else the
	 * tail row would span the interval and one cycle more. */
	if (cta_dispatcher_kernel_done(g->disp) && cta_dispatcher_kernel_end_cycle(g->disp) <= now)
		return;
	sampler_take(g->sampler, now);
	g->sample_next_cycle = now + g->sample_cycles;
	sim_event_schedule(sim, ev, sim_clock_edge_ps(&g->core_clk, g->sample_next_cycle));
}

int gpu_set_sampler(struct gpu *g, uint64_t every_cycles, FILE *csv, struct sim_error *err)
{
	if (!every_cycles || !csv)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--sample", "needs cycles > 0 and a file");
	g->sampler = sampler_create(g->cfg, g->st, g->sms, g->n_cores, g->n_chans, csv, err);
	if (!g->sampler)
		return err->code ? (int)err->code : SIM_ERR_NOMEM;
	g->sample_cycles = every_cycles;
	sim_event_init(&g->sample_ev, SIM_PRIO_STATS, sample_fire);
	sim_set_background_event(g->sim, &g->sample_ev);
	return sim_event_reserve(g->sim, 1, err);
}

void gpu_set_progress(struct gpu *g, void (*fn)(void *ctx, const struct gpu_progress *p), void *ctx)
{
	g->progress_fn = fn;
	g->progress_ctx = ctx;
}

struct gpu *gpu_create(const struct cfg *c, struct stats *st, struct sim_error *err)
{
	struct gpu *g = calloc(1, sizeof *g);
	if (!g) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	g->cfg = c;
	g->st = st;
	g->warm_line = UINT64_MAX;
	g->report = stderr;
	g->n_cores = (uint32_t)cfg_int(c, "gpu.core.count");
	g->max_issue_per_cycle = (uint64_t)g->n_cores * (uint64_t)cfg_int(c, "gpu.core.n_schedulers");
	g->warp_size = (uint32_t)cfg_int(c, "gpu.core.warp_size");
	g->check = cfg_bool(c, "sim.check");
	g->core_clk.name = "core";
	g->core_clk.freq_mhz = (uint32_t)cfg_int(c, "gpu.core.clock_mhz");
	struct sim_config sc = {
		.seed = (uint64_t)cfg_int(c, "sim.seed"),
		.watchdog_cycles = (uint64_t)cfg_int(c, "sim.watchdog_cycles"),
		.watchdog_clk = &g->core_clk,
		.livelock_cycles = (uint64_t)cfg_int(c, "sim.livelock_cycles"),
		.livelock_sig = forward_progress,
		.livelock_ctx = g,
		.periodic = periodic,
		.periodic_ctx = g,
	};
	g->sim = sim_create(&sc, err);
	if (!g->sim || sim_clock_add(g->sim, &g->core_clk, err))
		goto fail;
	g->disp = cta_dispatcher_create(c, st, g->n_cores, err);
	if (!g->disp)
		goto fail;
	if (needs_noc(c)) {
		g->n_chans = (uint32_t)cfg_int(c, "gpu.dram.channels");
		g->n_slices = g->n_chans * (uint32_t)cfg_int(c, "gpu.l2.sub_partitions");
		g->noc = noc_create(c, g->sim, st, (int)g->n_cores, (int)g->n_slices, err);
		if (!g->noc)
			goto fail;
		g->chans = calloc(g->n_chans, sizeof *g->chans);
		if (!g->chans)
			goto nomem;
		for (uint32_t i = 0; i < g->n_chans; i++) {
			g->chans[i] = mem_channel_create(c, g->sim, st, i, g->noc, err);
			if (!g->chans[i])
				goto fail;
		}
		g->fill_on_copy = cfg_bool(c, "gpu.l2.fill_on_copy");
		g->l2_line_bytes = (uint64_t)cfg_int(c, "gpu.l2.line_bytes");
		if (mem_addrmap_init(&g->amap, c, err))
			goto fail;
	}
	g->sms = calloc(g->n_cores, sizeof *g->sms);
	g->last = calloc(g->n_cores, sizeof *g->last);
	if (!g->sms || !g->last)
		goto nomem;
	for (uint32_t i = 0; i < g->n_cores; i++) {
		int node = g->noc ? g->noc->core_node[i] : -1;
		g->sms[i] = sm_create(c, g->sim, st, i, g->n_cores, &g->core_clk, g->noc, node, g->disp, err);
		if (!g->sms[i])
			goto fail;
	}
	register_stats(g);
	register_regs_stats(g);
	register_mem_stats(g);
	if (!strcmp(cfg_str(c, "sim.kernel_stats"), "summary"))
		stats_set_kernel_prefix(st, "gpu.");
	return g;
nomem:
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
fail:
	gpu_destroy(g);
	return NULL;
}

void gpu_set_report(struct gpu *g, FILE *report)
{
	g->report = report;
}

void gpu_set_cta_timeline(struct gpu *g, FILE *csv)
{
	g->timeline = csv;
	if (csv)
		fprintf(csv, "kernel,cta,core,launch_seq,start_cycle,end_cycle\n");
}

/* Fold the SMs' counters since the last launch into the gpu.* summary. */
void gpu_account_launch(struct gpu *g, uint64_t kernel_cycles)
{
	g->kernels++;
	g->cycles += kernel_cycles;
	g->core_cycles += kernel_cycles * g->n_cores;
	for (uint32_t i = 0; i < g->n_cores; i++) {
		struct sm_counters now, *prev = &g->last[i];
		sm_get_counters(g->sms[i], &now);
		g->warp_insts += now.warp_insts - prev->warp_insts;
		g->thread_insts += now.thread_insts - prev->thread_insts;
		g->issue_core_cycles += now.issue_cycles - prev->issue_cycles;
		g->ctas += now.ctas_finished - prev->ctas_finished;
		g->memory_block_cycles += now.memory_block_cycles - prev->memory_block_cycles;
		g->no_warp_cycles += now.no_warp_cycles - prev->no_warp_cycles;
		g->rtru_wasted += now.rtru_wasted_warp_cycles - prev->rtru_wasted_warp_cycles;
		g->rtru_total += now.rtru_phase_warp_cycles - prev->rtru_phase_warp_cycles;
		for (int k = 0; k < SM_CYC_COUNT; k++) {
			uint64_t d = now.sched_cycles[k] - prev->sched_cycles[k];
			g->sched_class[k] += d;
			g->sched_cycles += d;
		}
		uint64_t issued = now.issue_cycles - prev->issue_cycles;
		g->idle_core_cycles += kernel_cycles > issued ? kernel_cycles - issued : 0;
		*prev = now;
	}
}

/* Warp and thread instructions issued so far, the running launch's included. */
static void issued_so_far(const struct gpu *g, uint64_t *warp_insts, uint64_t *thread_insts)
{
	*warp_insts = *thread_insts = 0;
	for (uint32_t i = 0; i < g->n_cores; i++) {
		struct sm_counters c;
		sm_get_counters(g->sms[i], &c);
		*warp_insts += c.warp_insts;
		*thread_insts += c.thread_insts;
	}
}

void gpu_set_budget(struct gpu *g, const struct gpu_budget *b)
{
	g->budget = *b;
}

/* Core cycles the instruction caps leave at the most issue per cycle: the earliest they can be
 * reached, so a run to that cycle cannot pass them by more than one cycle's issue. 0: one is
 * reached, *hit names it. UINT64_MAX: no instruction cap. Called between sim_run stretches,
 * which shrink as the cap nears (a few hundred per capped launch), never per cycle. */
static uint64_t inst_cycles_left(const struct gpu *g, const char **hit)
{
	uint64_t wi, ti, left = UINT64_MAX;
	issued_so_far(g, &wi, &ti);
	const struct {
		uint64_t cap, now, per_cycle;
		const char *key;
	} caps[] = {
		{g->budget.warp_insts, wi, g->max_issue_per_cycle, "sim.max_warp_insts"},
		{g->budget.thread_insts, ti, g->max_issue_per_cycle * g->warp_size, "sim.max_thread_insts"},
	};
	for (size_t k = 0; k < SIM_ARRAY_LEN(caps); k++) {
		if (!caps[k].cap)
			continue;
		if (caps[k].now >= caps[k].cap) {
			*hit = caps[k].key;
			return 0;
		}
		uint64_t c = (caps[k].cap - caps[k].now + caps[k].per_cycle - 1) / caps[k].per_cycle;
		if (c < left)
			left = c;
	}
	return left;
}

/* A budget reached inside the launch: its statistics up to now become the launch's record (the
 * CTAs still running stay where they are: the machine launches no more), and the run ends
 * cleanly with SIM_ERR_BUDGET naming the cap. */
static int capped(struct gpu *g, const struct fe_launch_info *info, uint64_t start, const char *hit,
		  struct sim_error *err)
{
	uint64_t now = sim_clock_cycle_at(&g->core_clk, sim_now_ps(g->sim));
	char stuck[256] = "";
	for (uint32_t i = 0; i < g->n_cores && !sm_describe_stuck(g->sms[i], stuck, sizeof stuck); i++)
		;
	gpu_account_launch(g, now > start ? now - start : 0);
	gpu_account_memory(g);
	if (g->sampler)
		sampler_take(g->sampler, now);
	stats_kernel_end(g->st);
	int rc;
	if (g->timeline && (rc = cta_dispatcher_write_kernel_timeline_csv(g->disp, g->timeline, err)))
		return rc;
	uint64_t cap = !strcmp(hit, "sim.max_cycles") ? g->budget.cycles
		       : !strcmp(hit, "sim.max_warp_insts") ? g->budget.warp_insts : g->budget.thread_insts;
	return sim_error_set(err, SIM_ERR_BUDGET, NULL, 0, 0, hit,
			     "budget of %llu reached in kernel %s after %llu core cycles, %llu warp and "
			     "%llu thread instructions%s%s", (unsigned long long)cap, info->kernel_name,
			     (unsigned long long)g->cycles, (unsigned long long)g->warp_insts,
			     (unsigned long long)g->thread_insts, stuck[0] ? "; still running: " : "", stuck);
}

void gpu_prepare_launch(struct gpu *g, struct fe_launch *l, struct fe_launch_info *info)
{
	fe_launch_get_info(l, info);
	/* gpu.core.max_regs_per_thread: the kernel as a register-limited compile would give it */
	uint32_t reg_cap = (uint32_t)cfg_int(g->cfg, "gpu.core.max_regs_per_thread");
	if (reg_cap && info->regs_per_thread > reg_cap) {
		fe_launch_set_regs(l, reg_cap, (enum fe_regs_source)info->regs_source);
		fe_launch_get_info(l, info);
	}
}

void gpu_note_regs(struct gpu *g, const struct fe_launch_info *info)
{
	g->regs_per_thread = info->regs_per_thread;
	g->regs_source = info->regs_source <= FE_REGS_ESTIMATE ? info->regs_source : FE_REGS_NONE;
	/* A count read back from the ptxas cache is ptxas's count: the stats must not depend on
	 * whether an earlier run filled the cache (same input, identical stats). */
	if (g->regs_source == FE_REGS_PTXAS_CACHE)
		g->regs_source = FE_REGS_PTXAS;
	g->regs_launches[g->regs_source]++;
}

int gpu_stop_status(struct gpu *g, enum sim_stop why, const char *kernel, struct sim_error *err)
{
	for (uint32_t i = 0; i < g->n_cores; i++) {
		const struct sim_error *e = sm_error(g->sms[i]);
		if (e && e->code != SIM_OK) {
			*err = *e;
			return e->code;
		}
	}
	if (why == SIM_STOP_DEADLOCK)
		return err->code ? (int)err->code : SIM_ERR_FAULT;
	if (why == SIM_STOP_LIVELOCK) {
		char spin[256] = "";
		for (uint32_t i = 0; i < g->n_cores && !sm_describe_running(g->sms[i], spin, sizeof spin); i++)
			;
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, "sim.livelock_cycles",
				     "kernel %s livelocked: warps kept issuing for %llu core cycles without "
				     "changing memory, a barrier arrival, warp exit or CTA completion%s%s",
				     kernel, (unsigned long long)cfg_int(g->cfg, "sim.livelock_cycles"),
				     spin[0] ? "; spinning: " : "", spin);
	}
	if (!cta_dispatcher_kernel_done(g->disp))
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "simulation went quiet but kernel %s has unfinished CTAs", kernel);
	return 0;
}

int gpu_run_launch(struct gpu *g, struct fe_launch *l, struct sim_error *err)
{
	struct fe_launch_info info;
	gpu_prepare_launch(g, l, &info);
	stats_kernel_begin(g->st, info.cxx_name ? info.cxx_name : info.kernel_name);
	stats_kernel_set_ptx_name(g->st, info.kernel_name);
	gpu_note_regs(g, &info);
	uint64_t start = sim_clock_cycle_at_or_after(&g->core_clk, sim_now_ps(gpu_sim(g)));
	int rc = cta_dispatcher_launch_kernel(g->disp, l, start, err);
	if (rc)
		return rc;
	g->launch = l;
	memset(&g->mem_ring, 0, sizeof g->mem_ring);
	g->launch_ctas = info.n_ctas;
	g->grid_ctas += info.n_ctas;
	g->launch_start_cycle = start;
	if (g->sampler) {
		sampler_begin(g->sampler, g->kernels, cta_dispatcher_kernel_start_cycle(g->disp));
		g->sample_next_cycle = (start / g->sample_cycles + 1) * g->sample_cycles;
		sim_event_reschedule(g->sim, &g->sample_ev, sim_clock_edge_ps(&g->core_clk, g->sample_next_cycle));
	}
	/* the cycle cap is a time limit; the instruction caps cut the run into stretches that
	 * cannot pass them (inst_cycles_left) */
	uint64_t until = SIM_NEVER;
	if (g->budget.cycles)
		until = sim_clock_edge_ps(&g->core_clk, start + (g->budget.cycles > g->cycles ?
								  g->budget.cycles - g->cycles : 0));
	const char *hit = NULL;
	enum sim_stop why = SIM_STOP_QUIESCENT;
	for (;;) {
		uint64_t stretch = until;
		uint64_t left = inst_cycles_left(g, &hit);
		if (!left)
			break;
		if (left != UINT64_MAX) {
			uint64_t now = sim_clock_cycle_at(&g->core_clk, sim_now_ps(g->sim));
			uint64_t to = sim_clock_edge_ps(&g->core_clk, (now > start ? now : start) + left);
			stretch = to < until ? to : until;
		}
		why = sim_run(g->sim, stretch, g->report, err);
		if (why != SIM_STOP_TIME_LIMIT)
			break;
		if (stretch == until) {
			hit = "sim.max_cycles";
			break;
		}
	}
	g->launch = NULL;
	g->launch_ctas = 0;
	if (g->sampler && sim_event_queued(&g->sample_ev))
		sim_event_cancel(g->sim, &g->sample_ev);
	if (hit)
		return capped(g, &info, start, hit, err);
	if ((rc = gpu_stop_status(g, why, info.kernel_name, err)))
		return rc;
	if (g->check && (rc = gpu_check_kernel_end(g, info.kernel_name, err)))
		return rc;
	uint64_t end = cta_dispatcher_kernel_end_cycle(g->disp);
	gpu_account_launch(g, end - cta_dispatcher_kernel_start_cycle(g->disp));
	gpu_account_memory(g);
	if (g->sampler) {
		/* A sample due at the last CTA's cycle (end - 1) that did not fire because the
		 * machine went quiet at that cycle (sim_run drops the background event): taken there
		 * first, so no row spans more than the interval. */
		if (g->sample_next_cycle < end)
			sampler_take(g->sampler, g->sample_next_cycle);
		sampler_take(g->sampler, end);
	}
	stats_kernel_end(g->st);
	if (g->timeline && (rc = cta_dispatcher_write_kernel_timeline_csv(g->disp, g->timeline, err)))
		return rc;
	return 0;
}

static int device_launch(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	return gpu_run_launch(ctx, l, err);
}

/* gpu.l2.fill_on_copy: each L2 line the copy touches, in address order, goes to its channel's
 * slice (GPGPU-Sim walks the copy in 32 B sectors; the lines come out in the same order). */
static void device_copied(void *ctx, uint64_t addr, uint64_t bytes)
{
	struct gpu *g = ctx;
	const uint64_t line = g->l2_line_bytes;
	for (uint64_t a = addr & ~(line - 1); a < addr + bytes; a += line)
		mem_channel_copy_fill(g->chans[mem_addr_channel(&g->amap, a)], a);
}

void gpu_warm_l2(struct gpu *g, uint64_t addr, uint64_t bytes)
{
	/* a warp's lanes mostly touch the line the previous lane did: filled once (Rodinia cfd's
	 * functional launches spent a third of their time refilling the same lines) */
	uint64_t line = addr & ~(g->l2_line_bytes - 1);
	if (!g->chans || (line == g->warm_line && addr + bytes <= line + g->l2_line_bytes))
		return;
	g->warm_line = line;
	device_copied(g, addr, bytes);
}

/* mem_unit_below_fn: what passes the L1 reaches the L2's tags. */
static void warm_below(void *ctx, uint64_t addr, uint32_t bytes)
{
	gpu_warm_l2(ctx, addr, bytes);
}

void gpu_warm(struct gpu *g, uint32_t cta, bool resumed, bool l1, const struct warp_inst *wi)
{
	if (!l1) {
		for (uint32_t lane = 0; lane < wi->n_lanes; lane++)
			if (wi_lane_active(wi, lane))
				gpu_warm_l2(g, wi->addr[lane], wi->access_bytes);
		return;
	}
	uint32_t core;
	if (!resumed || !cta_dispatcher_cta_core(g->disp, cta, &core))
		core = cta % g->n_cores;
	sm_warm(g->sms[core], wi, warm_below, g);
}

/* Resident CTAs in CTA-id order. */
static int by_cta_id(const void *a, const void *b)
{
	uint32_t x = ((const struct sm_resident_cta *)a)->cta_id, y = ((const struct sm_resident_cta *)b)->cta_id;
	return (x > y) - (x < y);
}

int gpu_finish_launch_functionally(struct gpu *g, struct fe_launch *l, uint64_t livelock_warp_insts,
				   fe_mem_observe_fn observe, void *ctx, struct gpu_finished *out,
				   struct sim_error *err)
{
	memset(out, 0, sizeof *out);
	struct sm_resident_cta *res = malloc((size_t)g->n_cores * SCHED_MAX_CTAS * sizeof *res);
	struct fe_resume_cta *rc_ctas = malloc((size_t)g->n_cores * SCHED_MAX_CTAS * sizeof *rc_ctas);
	int rc = 0;
	if (!res || !rc_ctas) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		goto done;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->n_cores; i++)
		n += sm_resident_ctas(g->sms[i], res + n);
	qsort(res, n, sizeof *res, by_cta_id);
	for (uint32_t i = 0; i < n; i++) {
		rc_ctas[i] = (struct fe_resume_cta){.cta = res[i].fc, .at_barrier = res[i].at_barrier};
		out->replays += res[i].replays;
		out->replay_threads += res[i].replay_threads;
	}
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	uint32_t first_new = cta_dispatcher_ctas_started(g->disp);
	out->ctas_resumed = n;
	out->ctas_new = info.n_ctas - first_new;
	rc = fe_launch_finish_functional(l, rc_ctas, n, first_new, livelock_warp_insts, observe, ctx,
					 &out->warp_insts, &out->thread_insts, err);
	/* executed by the SM, never issued: they complete here */
	out->warp_insts += out->replays;
	out->thread_insts += out->replay_threads;
done:
	free(res);
	free(rc_ctas);
	return rc;
}

void gpu_set_next_launch_index(struct gpu *g, uint64_t index)
{
	cta_dispatcher_set_next_kernel_index(g->disp, (uint32_t)index);
}

struct fe_device gpu_device(struct gpu *g)
{
	struct fe_device d = {.launch = device_launch, .ctx = g, .timing = true};
	if (g->fill_on_copy)
		d.copied = device_copied;
	return d;
}

uint64_t gpu_core_cycles(const struct gpu *g) { return g->cycles; }
uint64_t gpu_warp_insts(const struct gpu *g) { return g->warp_insts; }
uint64_t gpu_thread_insts(const struct gpu *g) { return g->thread_insts; }
struct sim *gpu_sim(struct gpu *g) { return g->sim; }
struct sim_clock *gpu_core_clock(struct gpu *g) { return &g->core_clk; }
