/* SPDX-License-Identifier: MIT */
/* SM build and bookkeeping: settings, policies and memory wiring, CTA launch, kernel
 * begin/end hooks for the dispatcher, memory completions. The per-cycle work is sm_pipeline.c
 * and sm_issue.c; the stats are registered by sm_stats.c. */
#include "sm_internal.h"
#include "sm_lwm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const cyc_names[SM_CYC_COUNT] = {
	"issued", "structural", "data", "control", "fetch", "barrier", "exit", "no_warp",
};

const char *sm_cycle_class_name(enum sm_cycle_class c)
{
	return (unsigned)c < SM_CYC_COUNT ? cyc_names[c] : "?";
}

/* ---- policies wrapped from ops tables (tests) ---------------------------------------- */

static struct sched *wrap_sched(const struct sched_ops *ops, const struct cfg *cfg,
				const struct sched_core_view *core, struct sched *issue, struct sim_error *err)
{
	struct sched *s = calloc(1, sizeof *s);
	if (!s) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (policy)");
		return NULL;
	}
	s->ops = ops;
	s->core = core;
	s->issue = issue;
	if (ops->init && ops->init(s, cfg, err)) {
		free(s);
		return NULL;
	}
	return s;
}

static void unwrap_sched(struct sched *s)
{
	if (!s)
		return;
	if (s->ops->fini)
		s->ops->fini(s);
	free(s);
}

/* ---- dispatcher hooks -------------------------------------------------------------- */

/* Frees the finished CTAs kept for reuse (sm->spare_ctas). */
static void drop_spare_ctas(struct sm *sm)
{
	while (sm->n_spare_ctas)
		fe_cta_destroy(sm->spare_ctas[--sm->n_spare_ctas]);
}

static void hook_kernel_begin(void *v, const struct fe_launch_info *in, uint64_t now_cycle)
{
	struct sm *sm = v;
	SIM_ASSERT(sm->n_resident_ctas == 0);
	drop_spare_ctas(sm); /* none but after a budget cut: never another launch's CTAs */
	sm->quiet.valid = false;
	sm->insts = in->insts;
	sm->n_insts = in->n_insts;
	sm_phase_kernel_begin(sm);
	if (sm->lwm)
		sm->warp_size = sm_lwm_kernel_warp_size(sm, in->threads_per_cta);
	sm->warps_per_cta = (in->threads_per_cta + sm->warp_size - 1) / sm->warp_size;
	sm->threads_per_cta = in->threads_per_cta;
	sm->regs_per_thread = in->regs_per_thread;
	sm->shared_per_cta = in->shared_bytes_per_cta;
	sm->core.warps_per_cta = sm->warps_per_cta;
	/* The I-cache keeps its lines across launches, as GPGPU-Sim's L1I and real SMs do: a
	 * relaunched kernel hits where its code ran before (with gpu.cta_dispatcher.first_core =
	 * after-last, as in GPGPU-Sim 3.x/4.x, a relaunch mostly starts on other cores and misses).
	 * Lines are tagged by module-wide code address. Another module's code would alias those
	 * addresses, so a change of module empties the cache. */
	sm->ic_code_first_inst = in->code_first_inst;
	if (in->code_module != sm->ic_code_module) {
		for (uint32_t i = 0; i < sm->ic_sets * sm->ic_assoc; i++)
			sm->ic_tag[i] = UINT64_MAX;
		sm->ic_code_module = in->code_module;
	}
	/* A core taking a concurrent kernel (cta_dispatcher_add_kernel) may still have its last
	 * kernel's requests on their way: its L1D is then not flushed (tags only: timing, never
	 * values). A launch alone always starts drained. */
	if (sm->mem_kernel_begin && !(sm->mem_outstanding && sm->mem_outstanding(sm->mem)))
		sm->mem_kernel_begin(sm->mem, now_cycle);
	sm->in_kernel = true;
	sm->acct_next = now_cycle;
	for (uint32_t s = 0; s < sm->n_sched; s++)
		sm->sleep_class[s] = SM_CYC_NO_WARP;
	sm->sleep_nowarp = true;
	sm->sleep_memblock = false;
	sm_notify(sm, SCHED_EV_KERNEL_START, 0, 0, 0, now_cycle);
}

static int hook_launch(void *v, struct fe_launch *l, uint32_t cta_id, uint64_t seq, uint64_t now_cycle,
		       struct sim_error *err)
{
	(void)now_cycle;
	return sm_launch_cta(v, l, cta_id, seq, err);
}

static void hook_kernel_end(void *v, uint64_t now_cycle)
{
	struct sm *sm = v;
	/* Cycles up to and including now_cycle belong to the kernel (the finishing SM classified
	 * now_cycle in its tick; the others were asleep through it). */
	SIM_ASSERT(!sm->pipe_sleep); /* its warps, READY in a pipeline sleep, have all finished */
	sm_account_skipped(sm, now_cycle + 1);
	sm->in_kernel = false;
	drop_spare_ctas(sm);
	sm->quiet.valid = false;
}

static const struct cta_dispatcher_core_ops sm_disp_ops = {
	.kernel_begin = hook_kernel_begin,
	.launch = hook_launch,
	.kernel_end = hook_kernel_end,
};

/* ---- component ops ------------------------------------------------------------------- */

static uint64_t sm_outstanding_op(const struct sim_component *comp)
{
	const struct sm *sm = (const struct sm *)comp;
	uint64_t n = sm->n_resident_warps;
	if (sm->mem_outstanding)
		n += sm->mem_outstanding(sm->mem);
	return n;
}

static const char *const wstate_names[] = {"free", "active", "barrier", "draining", "exited"};

/* What a warp waits on, for the watchdog report (diagnosis only, not on the tick path). */
static void sm_dump_wait(const struct sm *sm, const struct sm_warp *w, FILE *out)
{
	const struct sm_cta *cta = &sm->ctas[w->cta_slot];
	if (w->state == SM_W_BARRIER)
		fprintf(out, "waits at bar.sync: %u of the CTA's %u live warps arrived (%u exited)",
			cta->n_at_barrier, cta->n_live, cta->n_exited);
	else if (w->state == SM_W_DRAINING || w->state == SM_W_EXITED)
		fprintf(out, "finished; waits on %u memory replies before its CTA can end", w->mem_pending);
	else if (w->replay)
		fprintf(out, "a memory instruction the memory unit refused, to be retried");
	else if (w->sb_block_until == UINT64_MAX)
		fprintf(out, "scoreboard: a register written by a load (%u memory replies pending)",
			w->mem_pending);
	else if (w->ib_count == 0)
		fprintf(out, "fetch: I-buffer empty");
	else
		fprintf(out, "status %u, %u scoreboard entries, %u memory replies pending", sm->wstatus[w - sm->warps],
			w->sb_used, w->mem_pending);
}

static void sm_dump_op(const struct sim_component *comp, FILE *out)
{
	const struct sm *sm = (const struct sm *)comp;
	fprintf(out, "%s: %u CTAs, %u warps (%u live), next accounted cycle %" PRIu64 "\n", sm->name,
		sm->n_resident_ctas, sm->n_resident_warps, sm->n_live_warps, sm->acct_next);
	for (uint32_t i = 0; i < sm->max_warps; i++) {
		const struct sm_warp *w = &sm->warps[i];
		if (w->state == SM_W_FREE)
			continue;
		uint32_t pc = sm->views[i].pc;
		const char *text = sm->insts && pc < sm->n_insts && sm->insts[pc].text ? sm->insts[pc].text : "?";
		fprintf(out, "  warp %u cta %u: %s pc %u '%s' (line %u) ibuf %u sb %u mem_pending %u%s: ", i,
			sm->ctas[w->cta_slot].cta_id, wstate_names[w->state], pc, text,
			sm->insts && pc < sm->n_insts ? sm->insts[pc].src_line : 0, w->ib_count, w->sb_used,
			w->mem_pending, w->replay ? " replay" : "");
		sm_dump_wait(sm, w, out);
		fputc('\n', out);
	}
}

static const struct sim_component_ops sm_comp_ops = {
	.tick = sm_tick,
	.outstanding = sm_outstanding_op,
	.dump = sm_dump_op,
};

/* ---- build ------------------------------------------------------------------------- */

static uint32_t ii_of(uint32_t warp_size, uint32_t width)
{
	return (warp_size + width - 1) / width;
}

static int read_settings(struct sm *sm, const struct cfg *cfg, struct sim_error *err)
{
	sm->warp_size = (uint32_t)cfg_int(cfg, "gpu.core.warp_size");
	sm->max_warps = (uint32_t)cfg_int(cfg, "gpu.core.max_warps");
	sm->max_threads = (uint32_t)cfg_int(cfg, "gpu.core.max_threads");
	sm->max_ctas = (uint32_t)cfg_int(cfg, "gpu.core.max_ctas");
	sm->registers = (uint32_t)cfg_int(cfg, "gpu.core.registers");
	sm->shared_bytes = (uint32_t)cfg_int(cfg, "gpu.core.shared_kb") * 1024u;
	sm->n_sched = (uint32_t)cfg_int(cfg, "gpu.core.n_schedulers");
	sm->sched_rotating = !strcmp(cfg_str(cfg, "gpu.core.scheduler_order"), "rotating");
	sm->ibuf_entries = (uint32_t)cfg_int(cfg, "gpu.core.ibuf_entries");
	if (sm->n_sched > sm->max_warps)
		return cfg_error(err, cfg, "gpu.core.n_schedulers", "%u schedulers exceed the %u warp slots",
				 sm->n_sched, sm->max_warps);
	static const struct { int cls; const char *key; } lat_keys[] = {
		{WI_LAT_INT, "gpu.core.latency.int"},       {WI_LAT_FP32, "gpu.core.latency.fp32"},
		{WI_LAT_FP64, "gpu.core.latency.fp64"},     {WI_LAT_MUL, "gpu.core.latency.mul"},
		{WI_LAT_DIV, "gpu.core.latency.div"},       {WI_LAT_SFU, "gpu.core.latency.sfu"},
		{WI_LAT_CTRL, "gpu.core.latency.ctrl"},     {WI_LAT_TENSOR, "gpu.core.latency.tensor"},
	};
	/* The SP/SFU classes' results also pass the pipeline around the unit (not ctrl: a branch
	 * writes no register). */
	uint32_t alu_pipe = (uint32_t)cfg_int(cfg, "gpu.core.latency.alu_pipeline");
	for (size_t i = 0; i < SIM_ARRAY_LEN(lat_keys); i++)
		sm->lat[lat_keys[i].cls] = (uint32_t)cfg_int(cfg, lat_keys[i].key) +
					   (lat_keys[i].cls == WI_LAT_CTRL ? 0 : alu_pipe);
	uint32_t logic = (uint32_t)cfg_int(cfg, "gpu.core.latency.logic");
	sm->lat[WI_LAT_LOGIC] = logic ? logic + alu_pipe : sm->lat[WI_LAT_INT];
	sm->mem_pipe_cycles = (uint32_t)cfg_int(cfg, "gpu.core.latency.mem_pipeline");
	sm->phase_machine = !strcmp(cfg_str(cfg, "gpu.core.phase_latency"), "machine");
	/* memory/'s hit latencies, read by name for the phase lengths only; an SM built without
	 * memory/'s settings (its unit tests) has no such accesses to time */
	static const char *const shared_lat = "gpu.memory.shared.latency_cycles", *const const_lat =
		"gpu.memory.l1c.hit_latency_cycles";
	sm->phase_shared_cycles = cfg_key_type(cfg, shared_lat) >= 0 ? (uint32_t)cfg_int(cfg, shared_lat) : 0;
	sm->phase_const_cycles = cfg_key_type(cfg, const_lat) >= 0 ? (uint32_t)cfg_int(cfg, const_lat) : 0;
	static const char *const ii_keys[WI_II_TYPES] = {"gpu.core.initiation.int", "gpu.core.initiation.fp",
							 "gpu.core.initiation.dp"};
	static const char *const op_lat_keys[WI_II_TYPES] = {"gpu.core.latency.ops.int", "gpu.core.latency.ops.fp",
							     "gpu.core.latency.ops.dp"};
	sm->ii_slots[WI_II_ONE] = 1;
	sm->op_lat[WI_II_ONE] = 0;
	sm->ii_slots[WI_II_TENSOR] = (uint32_t)cfg_int(cfg, "gpu.core.initiation.tensor");
	sm->op_lat[WI_II_TENSOR] = 0;
	for (int t = 0; t < WI_II_TYPES; t++) {
		size_t n = 0, nl = 0;
		const int64_t *v = cfg_int_list(cfg, ii_keys[t], &n);
		const int64_t *l = cfg_int_list(cfg, op_lat_keys[t], &nl);
		if (n != WI_II_OPS)
			return cfg_error(err, cfg, ii_keys[t], "%zu values: give %d (add/sub, min/max, mul, mad, div)",
					 n, WI_II_OPS);
		if (nl != WI_II_OPS)
			return cfg_error(err, cfg, op_lat_keys[t], "%zu values: give %d (add/sub, min/max, mul, mad, div)",
					 nl, WI_II_OPS);
		for (int o = 0; o < WI_II_OPS; o++) {
			sm->ii_slots[WI_II_CLASS(t, o)] = (uint32_t)v[o];
			sm->op_lat[WI_II_CLASS(t, o)] = l[o] ? (uint32_t)l[o] + alu_pipe : 0;
		}
	}
	/* Shared, constant/param and global accesses all go to memory/, which times them
	 * (gpu.memory.shared.*, l1c.*) and releases their registers through done(). */
	sm->lat[WI_LAT_MEM] = sm->lat[WI_LAT_SHARED] = sm->lat[WI_LAT_CONST] = 1;
	uint32_t simt = (uint32_t)cfg_int(cfg, "gpu.core.simt_width");
	uint32_t sfu_w = (uint32_t)cfg_int(cfg, "gpu.core.units.sfu_width");
	uint32_t ldst_w = (uint32_t)cfg_int(cfg, "gpu.core.units.ldst_width");
	if (sm->warp_size & (sm->warp_size - 1))
		return cfg_error(err, cfg, "gpu.core.warp_size", "%u is not a power of two", sm->warp_size);
	static const char *const width_keys[] = {"gpu.core.simt_width", "gpu.core.units.sfu_width",
						 "gpu.core.units.ldst_width"};
	const uint32_t widths[] = {simt, sfu_w, ldst_w};
	for (int i = 0; i < 3; i++)
		if (widths[i] && sm->warp_size % widths[i])
			return cfg_error(err, cfg, width_keys[i],
					 "%u lanes do not divide gpu.core.warp_size (%u): a warp "
					 "instruction would leave lanes idle on every pass",
					 widths[i], sm->warp_size);
	sm->units[WI_UNIT_SP].count = (uint32_t)cfg_int(cfg, "gpu.core.units.sp");
	sm->units[WI_UNIT_SFU].count = (uint32_t)cfg_int(cfg, "gpu.core.units.sfu");
	sm->units[WI_UNIT_LDST].count = (uint32_t)cfg_int(cfg, "gpu.core.units.ldst");
	/* OWL Sec 5 / Table 1: SIMT width 8 with 32-thread warps issues one warp instruction
	 * every 4 cycles per unit. */
	sm->units[WI_UNIT_SP].ii_cycles = ii_of(sm->warp_size, simt);
	sm->units[WI_UNIT_SFU].ii_cycles = ii_of(sm->warp_size, sfu_w ? sfu_w : simt);
	sm->units[WI_UNIT_LDST].ii_cycles = ii_of(sm->warp_size, ldst_w ? ldst_w : simt);
	/* LWM: a sub-warp is warp_size wide and occupies a unit like a warp; then warp_size
	 * becomes the large size (sm_lwm.c). */
	if (sm_lwm_create(sm, cfg, err))
		return err->code;
	sm->shared_pipe = cfg_bool(cfg, "gpu.core.units.shared_pipeline");
	if (sm->shared_pipe && (sm->lwm || sm->units[WI_UNIT_SFU].count != sm->units[WI_UNIT_SP].count ||
				sm->units[WI_UNIT_LDST].count != sm->units[WI_UNIT_SP].count))
		return cfg_error(err, cfg, "gpu.core.units.shared_pipeline",
				 "needs gpu.core.units.sp, sfu and ldst equal and no large warps "
				 "(sp %u, sfu %u, ldst %u)", sm->units[WI_UNIT_SP].count,
				 sm->units[WI_UNIT_SFU].count, sm->units[WI_UNIT_LDST].count);
	uint32_t ic_size = (uint32_t)cfg_int(cfg, "gpu.core.icache.size_bytes");
	sm->ic_assoc = (uint32_t)cfg_int(cfg, "gpu.core.icache.assoc");
	sm->ic_line_bytes = (uint32_t)cfg_int(cfg, "gpu.core.icache.line_bytes");
	sm->ic_inst_bytes = (uint32_t)cfg_int(cfg, "gpu.core.icache.inst_bytes");
	sm->ic_miss_cycles = (uint32_t)cfg_int(cfg, "gpu.core.icache.miss_latency_cycles");
	sm->ic_mem = !strcmp(cfg_str(cfg, "gpu.core.icache.miss_path"), "memory");
	sm->fetch_decode_cycles = (uint32_t)cfg_int(cfg, "gpu.core.fetch_decode_cycles");
	sm->barrel = cfg_bool(cfg, "gpu.core.barrel");
	sm->inorder_backend = cfg_bool(cfg, "gpu.core.inorder_backend");
	sm->fetch_fallthrough = cfg_bool(cfg, "gpu.core.fetch_fallthrough");
	sm->wb_slots = cfg_bool(cfg, "gpu.core.units.writeback_slots");
	if (ic_size % (sm->ic_line_bytes * sm->ic_assoc))
		return cfg_error(err, cfg, "gpu.core.icache.size_bytes",
				 "%u bytes is not a whole number of sets of %u ways x %u-byte lines", ic_size,
				 sm->ic_assoc, sm->ic_line_bytes);
	sm->ic_sets = ic_size / (sm->ic_line_bytes * sm->ic_assoc);
	if (sm->ic_line_bytes % sm->ic_inst_bytes)
		return cfg_error(err, cfg, "gpu.core.icache.inst_bytes",
				 "instruction size %u does not divide the %u-byte line", sm->ic_inst_bytes,
				 sm->ic_line_bytes);
	return 0;
}

static bool no_ctas_waiting(const void *ctx)
{
	(void)ctx;
	return false;
}

/* The clock registers: %clock/%clock64 read the core cycle the instruction issues in (every SM
 * counts the same core clock from the start of the simulation), %globaltimer the simulated
 * time in nanoseconds. */
static uint64_t clock_cycle(void *ctx)
{
	const struct sm *sm = ctx;
	return sim_component_cycle(&sm->comp);
}

static uint64_t clock_ns(void *ctx)
{
	const struct sm *sm = ctx;
	return sim_now_ps(sm->sim) / 1000;
}

struct sm *sm_create_hooked(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t core_id,
			    uint32_t n_cores, struct sim_clock *core_clk, struct noc *noc, int noc_node,
			    struct cta_dispatcher *d, const struct sm_hooks *h, struct sim_error *err)
{
	struct sm *sm = calloc(1, sizeof *sm);
	if (!sm) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (SM)");
		return NULL;
	}
	for (uint32_t i = 0; i < SCHED_MAX_WARPS; i++)
		sm->wst_until[i] = UINT64_MAX; /* free slots are never due (sm_pipeline.c status pass) */
	sm->unit_taken_cycle = UINT64_MAX;
	sm->sim = sim;
	sm->id = core_id;
	sm->n_cores = n_cores;
	sm->disp = d;
	sm->clock = (struct fe_clock){.cycle = clock_cycle, .time_ns = clock_ns, .ctx = sm};
	snprintf(sm->name, sizeof sm->name, "sm.%u", core_id);
	if (read_settings(sm, cfg, err))
		goto fail;
	size_t nl = (size_t)sm->ic_sets * sm->ic_assoc;
	sm->ic_tag = malloc(nl * sizeof *sm->ic_tag);
	sm->ic_lru = calloc(nl, sizeof *sm->ic_lru);
	sm->ic_fill = calloc(nl, sizeof *sm->ic_fill);
	size_t wi_bytes = sizeof(struct warp_inst) + (size_t)sm->warp_size * sizeof(uint64_t);
	sm->scratch = calloc(1, wi_bytes);
	if (!sm->ic_tag || !sm->ic_lru || !sm->ic_fill || !sm->scratch) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (SM)");
		goto fail;
	}
	for (size_t i = 0; i < nl; i++)
		sm->ic_tag[i] = UINT64_MAX;
	sm->scratch->addr = (uint64_t *)(sm->scratch + 1);
	if (sim_pool_init(&sm->wi_pool, wi_bytes, 64, err))
		goto fail;

	sm->core.core_id = core_id;
	sm->core.n_cores = n_cores;
	sm->core.n_schedulers = sm->n_sched;
	sm->core.max_warps = sm->max_warps;
	for (uint32_t i = 0; i < SCHED_MAX_WARPS; i++)
		sm->sched_of[i] = (uint8_t)(i % sm->n_sched);
	sm->core.warps = sm->views;
	sm->core.blocked_mask = sm->core.miss_mask = ~0ull; /* no valid warp yet */
	sm->core.ctas_waiting = d ? cta_dispatcher_ctas_waiting : no_ctas_waiting;
	sm->core.dispatcher_ctx = d;
	for (uint32_t i = 0; i < SCHED_MAX_WARPS; i++) {
		sm->views[i].warp_id = (uint16_t)i;
		sm->views[i].sched_idx = (uint16_t)(i % sm->n_sched);
	}

	/* Policies. */
	if (h->issue_ops) {
		sm->wrapped_sched = true;
		SIM_ASSERT(h->fetch_ops);
		sm->issue = wrap_sched(h->issue_ops, cfg, &sm->core, NULL, err);
		if (!sm->issue)
			goto fail;
		sm->fetch = wrap_sched(h->fetch_ops, cfg, &sm->core, sm->issue, err);
		if (!sm->fetch)
			goto fail;
	} else {
		SIM_ASSERT(h->issue_create && h->fetch_create && h->sched_destroy);
		sm->sched_destroy_fn = h->sched_destroy;
		sm->issue = h->issue_create(cfg, &sm->core, err);
		if (!sm->issue)
			goto fail;
		sm->fetch = h->fetch_create(cfg, &sm->core, sm->issue, err);
		if (!sm->fetch)
			goto fail;
	}
	sm->fetch_partial = sm->fetch->fetch_partial;
	/* A pure policy that ranks by keys alone, or by keys with an issue limit that reads the
	 * views' ready / unit_busy (kept exact at the pass: exact_unit_views). */
	uint8_t rf = sm->issue->ops->rank_flags;
	sm->lazy_units = !sm->lwm && (rf & SCHED_RANK_PURE) && ((rf & SCHED_RANK_NO_LIMIT) || sm->issue->ops->keys);
	sm->exact_unit_views = sm->lazy_units && !(rf & SCHED_RANK_NO_LIMIT);

	sm->comp.ops = &sm_comp_ops;
	sm->comp.name = sm->name;
	sm->comp.clk = core_clk;
	if (sim_component_add(sim, &sm->comp, err))
		goto fail;

	/* Memory. */
	sm->mem_outstanding = h->mem_outstanding;
	sm->mem_try_issue = h->mem_try_issue;
	sm->mem_epoch = h->mem_epoch;
	sm->mem_refusals_stable = h->mem_refusals_stable;
	sm->mem_repeat_refusals = h->mem_repeat_refusals;
	sm->mem_refuse_now = h->mem_refuse_now;
	if (h->mem_note_refusal && h->mem_refuse_again) {
		sm->mem_note_refusal = h->mem_note_refusal;
		sm->mem_refuse_again = h->mem_refuse_again;
	}
	sm->mem_stage_busy = h->mem_stage_busy;
	sm->mem_kernel_begin = h->mem_kernel_begin;
	sm->mem_warm = h->mem_warm;
	SIM_ASSERT(h->mem_try_issue);
	if (!h->mem_create) {
		sm->mem = h->mem_ctx;
		if (sm->ic_mem && h->mem_ifetch) /* a double that serves I-cache lines itself */
			sm->mem_ifetch = h->mem_ifetch;
	} else {
		struct mem_unit_ports ports = {
			.sm = &sm->comp, .done = sm_mem_done, .missed = sm_mem_missed, .sm_ctx = sm,
			.noc = noc, .noc_node = noc_node,
		};
		/* icache.miss_path memory: only the full and perfect-l2 models reach the L2 through
		 * the NoC (noc is NULL in the others, whose misses keep the fixed latency). */
		if (sm->ic_mem && noc && h->mem_ifetch) {
			ports.ifetch_done = sm_ifetch_done;
			sm->mem_ifetch = h->mem_ifetch;
		}
		sm->mem_reports_misses = true;
		sm->mem = h->mem_create(cfg, sim, st, core_id, core_clk, &ports, err);
		if (!sm->mem)
			goto fail;
		sm->mem_destroy = h->mem_destroy;
	}
	if (st) {
		sm_register_stats(sm, st);
		if (sm_lwm_register_stats(sm, st)) {
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (LWM stats)");
			goto fail;
		}
	}
	if (d)
		cta_dispatcher_attach_core(d, core_id, &sm_disp_ops, sm);
	return sm;
fail:
	sm_destroy(sm);
	return NULL;
}

void sm_destroy(struct sm *sm)
{
	if (!sm)
		return;
	for (uint32_t i = 0; i < SCHED_MAX_CTAS; i++)
		if (sm->ctas[i].used && sm->ctas[i].fc)
			fe_cta_destroy(sm->ctas[i].fc);
	drop_spare_ctas(sm);
	if (sm->mem && sm->mem_destroy)
		sm->mem_destroy(sm->mem);
	if (sm->wrapped_sched) {
		unwrap_sched(sm->fetch);
		unwrap_sched(sm->issue);
	} else if (sm->sched_destroy_fn) {
		if (sm->fetch)
			sm->sched_destroy_fn(sm->fetch);
		if (sm->issue)
			sm->sched_destroy_fn(sm->issue);
	}
	if (sm->wi_pool.obj_bytes)
		sim_pool_fini(&sm->wi_pool);
	free(sm->scratch);
	free(sm->phase);
	free(sm->phase_scratch);
	free(sm->ic_tag);
	free(sm->ic_lru);
	free(sm->ic_fill);
	sm_lwm_destroy(sm);
	free(sm);
}

/* ---- CTAs -------------------------------------------------------------------------- */

bool sm_can_accept_cta(const struct sm *sm, const struct fe_launch_info *in)
{
	uint32_t warps = (in->threads_per_cta + sm->warp_size - 1) / sm->warp_size;
	uint64_t n = sm->n_resident_ctas + 1ull;
	uint64_t threads = (uint64_t)warps * sm->warp_size;
	return n <= sm->max_ctas && sm->n_resident_warps + warps <= sm->max_warps &&
	       n * threads <= sm->max_threads && n * threads * in->regs_per_thread <= sm->registers &&
	       n * in->shared_bytes_per_cta <= sm->shared_bytes;
}

void sm_update_view_pc(struct sm *sm, uint16_t slot)
{
	struct sched_warp_view *v = &sm->views[slot];
	uint32_t pc = fe_warp_pc(sm->warps[slot].fw);
	v->pc = pc;
	if (pc < sm->n_insts) {
		const struct wi_static *si = &sm->insts[pc];
		v->phase_id = si->phase_id;
		if (sm->phase_machine) {
			v->phase_distance_cycles = sm->phase[pc].distance_cycles;
			v->phase_len_cycles = sm->phase[pc].len_cycles;
			v->next_phase_len_cycles = sm->phase[pc].next_len_cycles;
		} else {
			v->phase_distance_cycles = si->phase_distance_cycles;
			v->phase_len_cycles = si->phase_len_cycles;
			v->next_phase_len_cycles = si->next_phase_len_cycles;
		}
	}
	v->active_threads = fe_warp_next_active(sm->warps[slot].fw);
}

int sm_launch_cta(struct sm *sm, struct fe_launch *l, uint32_t cta_id, uint64_t launch_seq,
		  struct sim_error *err)
{
	struct fe_launch_info in;
	sm->quiet.valid = false; /* a new CTA's warps change what the next cycle does */
	/* The dispatcher launches at kernel start, from the SM's own tick (finish_ctas), or, for
	 * concurrent kernels, from an event before a cycle's ticks on an SM with no CTA. */
	SIM_ASSERT(!sm->pipe_sleep);
	fe_launch_get_info(l, &in);
	if (!sm->in_kernel || in.insts != sm->insts)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "%s: CTA %u launched outside its kernel (no kernel_begin)", sm->name, cta_id);
	if (!sm_can_accept_cta(sm, &in))
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "%s: CTA %u does not fit (%u CTAs, %u warps resident)", sm->name, cta_id,
				     sm->n_resident_ctas, sm->n_resident_warps);
	uint32_t cs = 0;
	while (sm->ctas[cs].used)
		cs++;
	SIM_ASSERT(cs < SCHED_MAX_CTAS);
	struct fe_cta *spare = sm->n_spare_ctas ? sm->spare_ctas[--sm->n_spare_ctas] : NULL;
	struct fe_cta *fc = fe_cta_recycle(spare, l, cta_id, sm->warp_size, sm->id, err);
	if (!fc)
		return err ? err->code : SIM_ERR_INPUT;
	fe_cta_set_clock(fc, &sm->clock);
	uint32_t nw = fe_cta_warp_count(fc);
	SIM_ASSERT(nw == sm->warps_per_cta);
	uint64_t now = sim_component_cycle(&sm->comp);
	struct sm_cta *cta = &sm->ctas[cs];
	memset(cta, 0, sizeof *cta);
	cta->used = true;
	cta->fc = fc;
	cta->cta_id = cta_id;
	cta->launch_seq = launch_seq;
	cta->n_warps = cta->n_live = (uint16_t)nw;
	cta->phase_start_cycle = now;
	uint32_t slot = 0;
	for (uint32_t i = 0; i < nw; i++) {
		while (sm->warps[slot].state != SM_W_FREE)
			slot++;
		SIM_ASSERT(slot < sm->max_warps);
		struct sm_warp *w = &sm->warps[slot];
		memset(w, 0, sizeof *w);
		sm->rf_mask &= ~(1ull << slot);
		sm->wstatus[slot] = SM_WS_NONE;
		sm_status_stale(sm, slot);
		w->fw = fe_cta_warp(fc, i);
		w->state = SM_W_ACTIVE;
		w->cta_slot = (uint16_t)cs;
		cta->warps[i] = (uint16_t)slot;
		struct sched_warp_view *v = &sm->views[slot];
		uint16_t wid = v->warp_id, sidx = v->sched_idx;
		memset(v, 0, sizeof *v);
		v->valid = true;
		v->warp_id = wid;
		v->sched_idx = sidx;
		v->cta_slot = (uint16_t)cs;
		v->warp_in_cta = (uint16_t)i;
		v->cta_id = cta_id;
		v->cta_launch_seq = launch_seq;
		v->age = launch_seq * 65536u + i;
		sm_view_blocked_sync(sm, (uint16_t)slot);
		sm_update_view_pc(sm, (uint16_t)slot);
		sm_fetch_bit(sm, (uint16_t)slot);
		uint32_t s = slot % sm->n_sched;
		sm->sched_warps[s][sm->n_sched_warps[s]++] = (uint16_t)slot;
		sm->live_mask |= 1ull << slot;
		slot++;
	}
	sm->n_resident_ctas++;
	sm->n_resident_warps += nw;
	sm->n_live_warps += nw;
	sm_notify(sm, SCHED_EV_CTA_LAUNCH, 0, (uint16_t)cs, cta_id, now);
	if (sm->in_tick)
		sm->activity = true;
	else
		sim_component_wake(&sm->comp);
	return 0;
}

/* ---- memory completions -------------------------------------------------------------- */

/* A memory event at cycle cyc, before it changes anything: outside a tick, the cycles the SM
 * slept through up to it are counted with the state that held then (a pipeline sleep's
 * left-out ticks first). */
static void event_begin(struct sm *sm, uint64_t cyc)
{
	if (sm->in_tick)
		return;
	sm_pipe_wake(sm, cyc);
	sm_account_skipped(sm, cyc);
}

/* After it: inside a tick the tick goes on (activity), else the SM ticks at cyc. */
static void event_end(struct sm *sm, uint64_t cyc)
{
	if (sm->in_tick)
		sm->activity = true;
	else
		sim_component_wake_at_cycle(&sm->comp, cyc);
}

void sm_mem_done(void *v, uint64_t token, uint64_t now_ps)
{
	struct sm *sm = v;
	sm->quiet.valid = false; /* a completion frees registers and changes statuses */
	if (sm->lwm && (token & SM_LWM_PART_TOKEN) && !sm_lwm_part_done(sm, &token))
		return; /* more sub-warp parts of the instruction to come */
	uint32_t slot = (uint32_t)(token >> 8), idx = (uint32_t)(token & 0xff);
	SIM_ASSERT(slot < sm->max_warps && idx < SM_SB_ENTRIES);
	struct sm_warp *w = &sm->warps[slot];
	struct sm_sb_entry *e = &w->sb[idx];
	SIM_ASSERT(e->used && e->mem && e->release_cycle == UINT64_MAX);
	uint64_t cyc = sim_clock_cycle_at_or_after(sm->comp.clk, now_ps);
	event_begin(sm, cyc); /* the sleep before it held memory in flight */
	sm_status_stale(sm, slot); /* its scoreboard and pending count change */
	SIM_ASSERT(sm->mem_inflight > 0);
	sm->mem_inflight--;
	sm->c.mem_inflight_inst_cycles += cyc - e->issue_cycle;
	e->release_cycle = cyc + sm->mem_pipe_cycles; /* the LD/ST unit's write-back stages */
	if (e->wi) {
		sim_pool_free(&sm->wi_pool, e->wi);
		e->wi = NULL;
	}
	w->mem_pending--;
	w->miss_pending -= e->missed;
	e->missed = false;
	w->sb_block_until = 0;
	/* Barrel processing: the warp is fetched again once its instruction completed. */
	if (sm->barrel && cyc + sm->fetch_decode_cycles > w->barrel_until)
		w->barrel_until = cyc + sm->fetch_decode_cycles;
	if (w->state == SM_W_DRAINING && w->mem_pending == 0)
		sm->drain_ready = true;
	if (e->long_lat) {
		sm->views[slot].long_lat_pending--;
		sm_notify(sm, SCHED_EV_LONG_LAT_DONE, (uint16_t)slot, w->cta_slot, 0, cyc);
	}
	event_end(sm, cyc);
}

void sm_mem_missed(void *v, uint64_t token, uint64_t now_ps)
{
	struct sm *sm = v;
	token &= ~SM_LWM_PART_TOKEN; /* any part of a large warp's instruction */
	uint32_t slot = (uint32_t)(token >> 8), idx = (uint32_t)(token & 0xff);
	SIM_ASSERT(slot < sm->max_warps && idx < SM_SB_ENTRIES);
	struct sm_warp *w = &sm->warps[slot];
	struct sm_sb_entry *e = &w->sb[idx];
	SIM_ASSERT(e->used && e->mem && e->release_cycle == UINT64_MAX);
	/* Only a long-latency opcode (global/local/tex load, atomic) that missed: a constant or
	 * parameter fill is rare and short, and waiting_miss stays within waiting_long_lat. */
	if (e->missed || !e->long_lat)
		return;
	sm->quiet.valid = false; /* the warp's view changes (waiting_miss) */
	uint64_t cyc = sim_clock_cycle_at_or_after(sm->comp.clk, now_ps);
	event_begin(sm, cyc); /* the memory-block class may change from here */
	e->missed = true;
	w->miss_pending++;
	w->sb_block_until = 0;
	sm_status_stale(sm, slot);
	event_end(sm, cyc);
}

void sm_ifetch_done(void *v, uint64_t line_addr, uint64_t now_ps)
{
	struct sm *sm = v;
	uint64_t cyc = sim_clock_cycle_at_or_after(sm->comp.clk, now_ps);
	event_begin(sm, cyc);
	sm->quiet.valid = false; /* statuses change */
	SIM_ASSERT(line_addr >= SM_CODE_BASE_ADDR);
	uint64_t line = (line_addr - SM_CODE_BASE_ADDR) / sm->ic_line_bytes;
	uint32_t set = (uint32_t)(line % sm->ic_sets);
	for (uint32_t k = 0; k < sm->ic_assoc; k++) {
		size_t i = (size_t)set * sm->ic_assoc + k;
		if (sm->ic_tag[i] == line && sm->ic_fill[i] == SM_IC_PENDING)
			sm->ic_fill[i] = cyc;
	}
	/* Every I-buffer entry fetched from the line (the missing fetch and hits on it since) is
	 * decoded from now: fills are rare, so all warps are walked. */
	uint64_t ready = cyc + sm->fetch_decode_cycles;
	for (uint16_t slot = 0; slot < sm->max_warps; slot++) {
		struct sm_warp *w = &sm->warps[slot];
		bool touched = false;
		for (uint32_t j = 0; j < w->ib_count; j++) {
			struct sm_ibuf_entry *e = &w->ib[(w->ib_head + j) % sm->ibuf_entries];
			if (e->ready_cycle == SM_IC_PENDING && sm_ic_line(sm, e->pc) == line) {
				e->ready_cycle = ready;
				touched = true;
			}
		}
		if (touched)
			sm_status_stale(sm, slot);
	}
	event_end(sm, cyc);
}

/* ---- accessors ----------------------------------------------------------------------- */

struct sim_component *sm_component(struct sm *sm) { return &sm->comp; }
const struct sim_error *sm_error(const struct sm *sm) { return sm->failed ? &sm->err : NULL; }
uint32_t sm_schedulers(const struct sm *sm) { return sm->n_sched; }

void sm_get_counters(const struct sm *sm, struct sm_counters *out)
{
	*out = sm->c;
}

void sm_sync_counters(struct sm *sm, uint64_t cycle)
{
	sm_pipe_ticks_before(sm, cycle);
	sm_account_skipped(sm, cycle);
}

void sm_fail(struct sm *sm, const struct sim_error *err)
{
	if (!sm->failed) {
		sm->err = *err;
		sm->failed = true;
	}
	sim_request_stop(sm->sim);
}
