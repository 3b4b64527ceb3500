/* SPDX-License-Identifier: MIT */
/* Memory controller + DRAM banks: per-cycle command choice (one command per DRAM cycle),
 * event-driven (a tick returns the cycle the next timing constraint clears), OWL metrics. */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

#define DRAM_PF_SLOTS 32 /* prefetches in flight at once; bus occupancy keeps it below ~8 */

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t sub_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

int dram_mc_init(struct dram_mc *mc, const struct dram_cfg *cfg, const struct mem_addrmap *map,
		 uint32_t channel, dram_done_fn done, dram_pf_filter_fn pf_filter, void *ctx,
		 struct sim_error *err)
{
	memset(mc, 0, sizeof *mc);
	if (cfg->banks == 0 || cfg->banks > DRAM_MAX_BANKS)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.banks",
				     "must be 1..%d, got %u", DRAM_MAX_BANKS, cfg->banks);
	if (cfg->line_bytes == 0 || cfg->row_bytes % cfg->line_bytes ||
	    cfg->row_bytes / cfg->line_bytes > DRAM_MAX_ROW_LINES)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.row_bytes",
				     "%u-byte rows must hold 1..%d lines of %u bytes", cfg->row_bytes,
				     DRAM_MAX_ROW_LINES, cfg->line_bytes);
	if (cfg->queue_size == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.queue_size",
				     "must be at least 1");
	if (cfg->burst_cycles == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.burst_length",
				     "a line must take at least one bus cycle");
	if (cfg->prefetch && (!map || cfg->pf_lower > cfg->pf_higher))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.prefetcher.lower",
				     "lower (%u) must not exceed higher (%u)", cfg->pf_lower,
				     cfg->pf_higher);
	mc->cfg = *cfg;
	if (!mc->cfg.rd_burst_cycles)
		mc->cfg.rd_burst_cycles = cfg->burst_cycles;
	mc->map = map;
	mc->channel = channel;
	mc->done = done;
	mc->pf_filter = pf_filter;
	mc->ctx = ctx;
	mc->lines_per_row = cfg->row_bytes / cfg->line_bytes;
	mc->pf_cap = DRAM_PF_SLOTS;
	mc->fly_cap = cfg->queue_size + mc->pf_cap;
	mc->q = calloc(cfg->queue_size, sizeof *mc->q);
	mc->fly = calloc(mc->fly_cap, sizeof *mc->fly);
	mc->pf_reqs = calloc(mc->pf_cap, sizeof *mc->pf_reqs);
	mc->pf_free = calloc(mc->pf_cap, sizeof *mc->pf_free);
	if (!mc->q || !mc->fly || !mc->pf_reqs || !mc->pf_free) {
		dram_mc_fini(mc);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "DRAM queues");
	}
	for (uint32_t i = 0; i < mc->pf_cap; i++)
		mc->pf_free[i] = mc->pf_cap - 1 - i;
	mc->pf_nfree = mc->pf_cap;
	mc->ref_due = cfg->tREFI;
	if (cfg->check) {
		struct dram_check_timing t = {
			.banks = cfg->banks, .tRCD = cfg->tRCD, .tRP = cfg->tRP, .tRAS = cfg->tRAS,
			.tRC = cfg->tRC, .tRRD = cfg->tRRD, .tCL = cfg->tCL, .tWL = cfg->tWL,
			.tWR = cfg->tWR, .tWTR = cfg->tWTR, .tRTW = cfg->tRTW, .tCCD = cfg->tCCD,
			.tRTP = cfg->tRTP, .tFAW = cfg->tFAW, .tRFC = cfg->tRFC,
			.burst_cycles = cfg->burst_cycles, .rd_burst_cycles = mc->cfg.rd_burst_cycles,
		};
		mc->chk = dram_check_create(&t, channel);
		if (!mc->chk) {
			dram_mc_fini(mc);
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "DRAM checker");
		}
	}
	return 0;
}

int dram_mc_check(struct dram_mc *mc, struct sim_error *err)
{
	return mc->chk ? dram_check_flush(mc->chk, err) : 0;
}

void dram_mc_fini(struct dram_mc *mc)
{
	free(mc->q);
	free(mc->fly);
	free(mc->pf_reqs);
	free(mc->pf_free);
	dram_check_destroy(mc->chk);
	mc->chk = NULL;
	mc->q = mc->fly = NULL;
	mc->pf_reqs = NULL;
	mc->pf_free = NULL;
}

/* ---- time-weighted metrics ------------------------------------------------------------ */

void dram_mc_sync(struct dram_mc *mc, uint64_t now)
{
	if (now <= mc->acc_cycle)
		return;
	uint64_t dt = now - mc->acc_cycle;
	mc->blp_sum += (uint64_t)mc->busy_banks * dt;
	if (mc->busy_banks)
		mc->blp_cycles += dt;
	mc->qlen_sum += (uint64_t)mc->q_len * dt;
	mc->acc_cycle = now;
}

/* OWL Sec 2.2: "the number of average memory banks that are accessed when there is at least
 * one outstanding memory request at any of the banks". */
double dram_mc_blp(const struct dram_mc *mc)
{
	return mc->blp_cycles ? (double)mc->blp_sum / (double)mc->blp_cycles : 0.0;
}

/* OWL Sec 2.2: "the average hit-rate of the row buffer across all memory banks". */
double dram_mc_row_hit_rate(const struct dram_mc *mc)
{
	uint64_t n = mc->row_hits + mc->row_misses + mc->row_conflicts;
	return n ? (double)mc->row_hits / (double)n : 0.0;
}

double dram_mc_avg_queue_len(const struct dram_mc *mc)
{
	return mc->acc_cycle ? (double)mc->qlen_sum / (double)mc->acc_cycle : 0.0;
}

double dram_mc_bus_util(const struct dram_mc *mc, uint64_t elapsed_cycles)
{
	return elapsed_cycles ? (double)mc->bus_busy_cycles / (double)elapsed_cycles : 0.0;
}

uint64_t dram_mc_outstanding(const struct dram_mc *mc)
{
	uint64_t n = mc->q_len;
	for (uint32_t i = 0; i < mc->fly_len; i++)
		n += mc->fly[i].req != NULL;
	return n;
}

/* ---- queue ---------------------------------------------------------------------------- */

static bool req_is_write(const struct mem_req *r)
{
	return r->kind == MEM_REQ_WRITE || r->kind == MEM_REQ_WRITEBACK;
}

/* Refreshes that fell due while the MC was empty happened on time: every bank was closed
 * and its next ACT waits tRP + tRFC after the last of them. Done here rather than by waking
 * an idle MC every tREFI, which would keep the simulation from ever going quiescent. */
static void refresh_while_idle(struct dram_mc *mc, uint64_t now)
{
	const struct dram_cfg *c = &mc->cfg;
	uint64_t n = (now - mc->ref_due) / c->tREFI + 1;
	uint64_t t_last = mc->ref_due + (n - 1) * c->tREFI;
	if (mc->chk) { /* the last of them: all banks precharged at t_last, REF tRP later */
		dram_check_record(mc->chk, DRAM_CHK_PREA, 0, 0, t_last);
		dram_check_record(mc->chk, DRAM_CHK_REF, 0, 0, t_last + c->tRP);
	}
	for (uint32_t b = 0; b < c->banks; b++) {
		mc->bank[b].open = false;
		mc->bank[b].act_ready = max64(mc->bank[b].act_ready, t_last + c->tRP + c->tRFC);
	}
	mc->ref_due = t_last + c->tREFI;
	mc->refreshes += n;
}

bool dram_mc_try_enqueue(struct dram_mc *mc, struct mem_req *req, uint64_t now)
{
	if (mc->q_len >= mc->cfg.queue_size) {
		mc->rejected++;
		return false;
	}
	if (mc->cfg.tREFI && !mc->q_len && !mc->fly_len && !mc->ref_pending && now >= mc->ref_due)
		refresh_while_idle(mc, now);
	SIM_ASSERT(req->bank < mc->cfg.banks);
	dram_mc_sync(mc, now);
	struct dram_qent *e = &mc->q[mc->q_len++];
	memset(e, 0, sizeof *e);
	e->req = req;
	e->enq_cycle = now;
	e->first_cmd_cycle = UINT64_MAX;
	e->bank = req->bank;
	e->row = req->row;
	e->line = req->col / mc->cfg.line_bytes;
	e->is_write = req_is_write(req);
	struct dram_bank *b = &mc->bank[e->bank];
	b->queued++;
	b->open_hits += b->open && b->row == e->row;
	if (b->outstanding++ == 0)
		mc->busy_banks++;
	return true;
}

static void q_remove(struct dram_mc *mc, uint32_t i)
{
	struct dram_bank *b = &mc->bank[mc->q[i].bank];
	if (b->open && b->row == mc->q[i].row)
		b->open_hits--;
	memmove(&mc->q[i], &mc->q[i + 1], (mc->q_len - i - 1) * sizeof *mc->q);
	mc->q_len--;
}

/* ---- per-bank questions ----------------------------------------------------------------- */

static bool bank_has_queued_hit(const struct dram_mc *mc, uint32_t bank)
{
	const struct dram_bank *b = &mc->bank[bank];
	return b->open && b->open_hits > 0;
}

static void mark_fetched(struct dram_bank *b, uint32_t line)
{
	b->pf_memo_ok = false;
	b->fetched[line / 64] |= 1ull << (line % 64);
}

/* C of OWL Sec 4.4: lower normally, higher while the demands pending at the MC are fewer
 * than the threshold (by default the running average of the queue length). */
static uint32_t pf_min_lines(const struct dram_mc *mc)
{
	double thr = mc->cfg.pf_threshold >= 0 ? mc->cfg.pf_threshold : dram_mc_avg_queue_len(mc);
	return (double)mc->q_len < thr ? mc->cfg.pf_higher : mc->cfg.pf_lower;
}

static uint32_t pf_scan(struct dram_mc *mc, uint32_t bank);

/* First not-yet-fetched line of bank's open row, skipping (and marking) lines the L2 already
 * holds; lines_per_row when none is left. */
static uint32_t pf_next_line(struct dram_mc *mc, uint32_t bank)
{
	struct dram_bank *b = &mc->bank[bank];
	uint64_t ver = mc->pf_version ? mc->pf_version(mc->ctx) : 0;
	if (mc->pf_version && b->pf_memo_ok && b->pf_memo_ver == ver)
		return b->pf_memo_line;
	uint32_t l = pf_scan(mc, bank);
	if (mc->pf_version) {
		b->pf_memo_ok = true; /* after pf_scan's marks, which clear it */
		b->pf_memo_ver = ver;
		b->pf_memo_line = l;
	}
	return l;
}

static uint32_t pf_scan(struct dram_mc *mc, uint32_t bank)
{
	struct dram_bank *b = &mc->bank[bank];
	/* Lines in order, skipping fetched ones a bitmap word at a time. */
	for (uint32_t base = 0; base < mc->lines_per_row; base += 64) {
		uint64_t todo = ~b->fetched[base / 64];
		if (mc->lines_per_row - base < 64)
			todo &= (1ull << (mc->lines_per_row - base)) - 1;
		for (; todo; todo &= todo - 1) {
			uint32_t l = base + (uint32_t)__builtin_ctzll(todo);
			if (mc->pf_filter) {
				struct mem_dram_addr a = {mc->channel, bank, b->row, l * mc->cfg.line_bytes};
				if (mc->pf_filter(mc->ctx, mem_addr_encode(mc->map, &a))) {
					mark_fetched(b, l);
					mc->pf_filtered++;
					continue;
				}
			}
			return l;
		}
	}
	return mc->lines_per_row;
}

/* Whether the prefetcher keeps bank's row open (OWL Sec 4.4): it takes "a row that was already
 * opened by a demand request" (a read: a row opened by the L2's write-back is not one) and
 * prefetches once no queued demand hits it; while no demand to a different row of the bank
 * waits it goes on through the row, and once one does it stops after C prefetches since the
 * row was opened (the paper's second scheme). Demands to other banks do not stop it: they are
 * not waiting for this row to close. */
static bool pf_wants(struct dram_mc *mc, uint32_t bank)
{
	struct dram_bank *b = &mc->bank[bank];
	if (!mc->cfg.prefetch || !b->open || !b->pf_row || bank_has_queued_hit(mc, bank))
		return false;
	/* No queued hit, so every demand queued for the bank is to a different row. */
	if (b->queued > 0 && (mc->cfg.pf_stop_on_demand || b->pf_issued >= pf_min_lines(mc)))
		return false;
	return pf_next_line(mc, bank) < mc->lines_per_row;
}

/* ---- command timing --------------------------------------------------------------------- */

static uint64_t faw_ready(const struct dram_mc *mc)
{
	if (!mc->cfg.tFAW)
		return 0;
	/* The oldest of the last four ACTs opens the window. */
	uint64_t oldest = mc->faw[mc->faw_head]; /* stored +1 so 0 means "no ACT yet" */
	return oldest ? oldest - 1 + mc->cfg.tFAW : 0;
}

static uint64_t col_ready(const struct dram_mc *mc, uint32_t bank, bool is_write)
{
	const struct dram_bank *b = &mc->bank[bank];
	uint64_t lat = is_write ? mc->cfg.tWL : mc->cfg.tCL;
	uint64_t t = max64(b->col_ready, is_write ? mc->wr_ready : mc->rd_ready);
	return max64(t, sub_sat(mc->bus_free, lat)); /* data must not overlap the bus's */
}

static uint64_t act_ready(const struct dram_mc *mc, uint32_t bank)
{
	return max64(max64(mc->bank[bank].act_ready, mc->act_ready), faw_ready(mc));
}

enum dram_cmd { CMD_NONE, CMD_ACT, CMD_PRE, CMD_COL };

/* The next command entry e needs and when it may issue; CMD_NONE if not allowed now
 * (a precharge that would close a row others still hit, or the prefetcher holds). */
static enum dram_cmd entry_cmd(struct dram_mc *mc, const struct dram_qent *e, uint64_t *ready)
{
	struct dram_bank *b = &mc->bank[e->bank];
	if (b->open && b->row == e->row) {
		*ready = col_ready(mc, e->bank, e->is_write);
		return CMD_COL;
	}
	if (b->open) {
		if (mc->cfg.sched == DRAM_SCHED_FRFCFS && bank_has_queued_hit(mc, e->bank))
			return CMD_NONE; /* row hits first */
		if (pf_wants(mc, e->bank))
			return CMD_NONE;
		*ready = b->pre_ready;
		return CMD_PRE;
	}
	*ready = act_ready(mc, e->bank);
	return CMD_ACT;
}

static void issue_act(struct dram_mc *mc, uint32_t bank, uint32_t row, bool demand_read,
		      uint64_t now)
{
	struct dram_bank *b = &mc->bank[bank];
	const struct dram_cfg *c = &mc->cfg;
	b->open = true;
	b->row = row;
	b->pf_row = demand_read;
	b->open_hits = 0;
	for (uint32_t i = 0; i < mc->q_len; i++)
		b->open_hits += mc->q[i].bank == bank && mc->q[i].row == row;
	b->col_ready = now + c->tRCD;
	b->pre_ready = max64(b->pre_ready, now + c->tRAS);
	b->act_ready = now + c->tRC;
	mc->act_ready = now + c->tRRD;
	if (mc->chk)
		dram_check_record(mc->chk, DRAM_CHK_ACT, bank, row, now);
	mc->faw[mc->faw_head] = now + 1;
	mc->faw_head = (mc->faw_head + 1) % DRAM_FAW_ACTS;
	memset(b->fetched, 0, sizeof b->fetched);
	b->pf_memo_ok = false;
	b->pf_issued = 0;
	b->activates++;
	mc->activates++;
}

static void issue_pre(struct dram_mc *mc, uint32_t bank, uint64_t now)
{
	struct dram_bank *b = &mc->bank[bank];
	b->open = false;
	b->act_ready = max64(b->act_ready, now + mc->cfg.tRP);
	if (mc->chk)
		dram_check_record(mc->chk, DRAM_CHK_PRE, bank, 0, now);
	b->precharges++;
	mc->precharges++;
}

uint32_t dram_read_burst_cycles(const struct dram_cfg *c, const struct mem_req *req)
{
	if (req && req->dram_bytes && c->rd_req_bytes) /* a sectored L2's missing sectors */
		return (req->dram_bytes + c->rd_req_bytes - 1) / c->rd_req_bytes * c->rd_req_cycles;
	return c->rd_burst_cycles;
}

/* Column command for e (already removed from the queue): returns its data-done cycle. */
static uint64_t issue_col(struct dram_mc *mc, uint32_t bank, uint32_t line, bool is_write,
			  const struct mem_req *req, uint64_t now)
{
	struct dram_bank *b = &mc->bank[bank];
	const struct dram_cfg *c = &mc->cfg;
	uint32_t burst = is_write ? c->burst_cycles : dram_read_burst_cycles(c, req);
	uint64_t gap = max64(c->tCCD, burst);
	uint64_t done;
	if (mc->chk && burst != (is_write ? c->burst_cycles : c->rd_burst_cycles))
		dram_check_record_burst(mc->chk, bank, b->row, now, burst);
	else if (mc->chk)
		dram_check_record(mc->chk, is_write ? DRAM_CHK_WR : DRAM_CHK_RD, bank, b->row, now);
	if (is_write) {
		done = now + c->tWL + burst;
		mc->wr_ready = now + gap;
		mc->rd_ready = max64(mc->rd_ready, done + c->tWTR);
		b->pre_ready = max64(b->pre_ready, done + c->tWR);
	} else {
		done = now + c->tCL + burst;
		mc->rd_ready = now + gap;
		mc->wr_ready = max64(mc->wr_ready, now + c->tRTW);
		b->pre_ready = max64(b->pre_ready, now + c->tRTP);
	}
	mc->bus_free = done;
	mc->bus_busy_cycles += burst;
	mark_fetched(b, line);
	return done;
}

static void serve_demand(struct dram_mc *mc, uint32_t qi, uint64_t now)
{
	struct dram_qent e = mc->q[qi];
	q_remove(mc, qi);
	struct dram_bank *b = &mc->bank[e.bank];
	b->queued--;
	if (e.first_cmd_cycle == UINT64_MAX)
		e.first_cmd_cycle = now;
	e.done_cycle = issue_col(mc, e.bank, e.line, e.is_write, e.req, now);
	stat_avg_add(&mc->queue_lat, (double)(e.first_cmd_cycle - e.enq_cycle));
	if (e.needed_pre) {
		b->row_conflicts++;
		mc->row_conflicts++;
	} else if (e.needed_act) {
		b->row_misses++;
		mc->row_misses++;
	} else {
		b->row_hits++;
		mc->row_hits++;
	}
	if (e.is_write) {
		b->writes++;
		mc->writes++;
	} else {
		b->reads++;
		mc->reads++;
	}
	SIM_ASSERT(mc->fly_len < mc->fly_cap);
	mc->fly[mc->fly_len++] = e;
}

static void serve_prefetch(struct dram_mc *mc, uint32_t bank, uint32_t line, uint64_t now)
{
	struct dram_bank *b = &mc->bank[bank];
	uint32_t slot = mc->pf_free[--mc->pf_nfree];
	struct mem_req *r = &mc->pf_reqs[slot];
	memset(r, 0, sizeof *r);
	struct mem_dram_addr a = {mc->channel, bank, b->row, line * mc->cfg.line_bytes};
	r->addr = mem_addr_encode(mc->map, &a);
	r->size_bytes = mc->cfg.line_bytes;
	r->kind = MEM_REQ_PREFETCH;
	r->src_sm = UINT16_MAX;
	r->channel = (uint16_t)mc->channel;
	r->bank = (uint16_t)bank;
	r->row = b->row;
	r->col = a.col;
	struct dram_qent e = {0};
	e.pf_slot = slot;
	e.bank = bank;
	e.row = b->row;
	e.line = line;
	e.enq_cycle = e.first_cmd_cycle = now;
	e.done_cycle = issue_col(mc, bank, line, false, NULL, now);
	b->pf_issued++;
	b->prefetches++;
	mc->pf_issued++;
	SIM_ASSERT(mc->fly_len < mc->fly_cap);
	mc->fly[mc->fly_len++] = e;
}

/* ---- the cycle -------------------------------------------------------------------------- */

static void complete(struct dram_mc *mc, uint64_t now)
{
	/* Oldest completion first so replies leave in data order. */
	for (;;) {
		uint32_t best = UINT32_MAX;
		for (uint32_t i = 0; i < mc->fly_len; i++)
			if (mc->fly[i].done_cycle <= now &&
			    (best == UINT32_MAX || mc->fly[i].done_cycle < mc->fly[best].done_cycle))
				best = i;
		if (best == UINT32_MAX)
			return;
		struct dram_qent e = mc->fly[best];
		mc->fly[best] = mc->fly[--mc->fly_len];
		if (e.req) {
			struct dram_bank *b = &mc->bank[e.bank];
			if (--b->outstanding == 0)
				mc->busy_banks--;
			stat_avg_add(&mc->service_lat, (double)(e.done_cycle - e.first_cmd_cycle));
			mc->done(mc->ctx, e.req, e.done_cycle);
		} else {
			struct mem_req *r = &mc->pf_reqs[e.pf_slot];
			mc->done(mc->ctx, r, e.done_cycle);
			mc->pf_free[mc->pf_nfree++] = e.pf_slot;
		}
	}
}

/* Pick and issue one command at now, or none; *next gets the earliest cycle a candidate that
 * could not issue becomes ready. Priorities: (FR-FCFS) ready row hits oldest first, then
 * ready ACT/PRE oldest first, then close-row precharges, then prefetches. FCFS considers
 * only the oldest queued demand of each bank. */
/* A due refresh: precharge every open bank, then one all-bank REF once tRP has passed. */
static bool schedule_refresh(struct dram_mc *mc, uint64_t now, uint64_t *next)
{
	uint64_t ready = 0;
	for (uint32_t bk = 0; bk < mc->cfg.banks; bk++) {
		struct dram_bank *b = &mc->bank[bk];
		if (b->open) {
			if (b->pre_ready <= now) {
				issue_pre(mc, bk, now);
				return true;
			}
			*next = min64(*next, b->pre_ready);
			ready = SIM_NEVER;
		} else if (ready != SIM_NEVER) {
			ready = max64(ready, b->act_ready); /* tRP after its PRE, tRC after its ACT */
		}
	}
	if (ready == SIM_NEVER)
		return false;
	if (ready > now) {
		*next = min64(*next, ready);
		return false;
	}
	for (uint32_t bk = 0; bk < mc->cfg.banks; bk++)
		mc->bank[bk].act_ready = now + mc->cfg.tRFC;
	if (mc->chk)
		dram_check_record(mc->chk, DRAM_CHK_REF, 0, 0, now);
	mc->ref_pending = false;
	mc->ref_due += mc->cfg.tREFI;
	mc->refreshes++;
	return true;
}

/* pf_wants(mc, bank) asked at most once per bank in one schedule call: what it reads does
 * not change until a command issues (and schedule returns then), and asking again would only
 * repeat the first answer (that first scan marked the lines the L2 holds, so a second one stops
 * at the same line; with the filter's version memo it is not even repeated). The prefetching
 * MC otherwise asks it for every queued entry missing an open row, every cycle. */
struct pf_asked {
	uint64_t asked, yes; /* bit per bank (DRAM_MAX_BANKS <= 64) */
};

static bool pf_wants_once(struct dram_mc *mc, struct pf_asked *pa, uint32_t bank)
{
	uint64_t bit = UINT64_C(1) << bank;
	if (!(pa->asked & bit)) {
		pa->asked |= bit;
		if (pf_wants(mc, bank))
			pa->yes |= bit;
	}
	return pa->yes & bit;
}

/* FR-FCFS's pass over the queue, as schedule's loop with entry_cmd would make it, but with the
 * channel's part of the column and ACT timings (the same for every entry, and unchanged until a
 * command issues) taken once: every cycle the MC has work it scans the whole queue. Serves the
 * oldest ready row hit (true), else leaves the oldest ready ACT/PRE in *best / *best_kind. */
static bool scan_frfcfs(struct dram_mc *mc, uint64_t now, uint64_t *next, int *best,
			enum dram_cmd *best_kind, struct pf_asked *pa)
{
	const uint64_t rd_at = max64(mc->rd_ready, sub_sat(mc->bus_free, mc->cfg.tCL));
	const uint64_t wr_at = max64(mc->wr_ready, sub_sat(mc->bus_free, mc->cfg.tWL));
	const uint64_t act_at = max64(mc->act_ready, faw_ready(mc));
	uint64_t nx = *next;
	for (uint32_t i = 0; i < mc->q_len; i++) {
		const struct dram_qent *e = &mc->q[i];
		const struct dram_bank *b = &mc->bank[e->bank];
		uint64_t ready;
		enum dram_cmd k;
		if (b->open) {
			if (b->row == e->row) {
				ready = max64(b->col_ready, e->is_write ? wr_at : rd_at); /* col_ready */
				if (ready <= now) {
					*next = nx;
					serve_demand(mc, i, now);
					return true;
				}
				nx = min64(nx, ready);
				continue;
			}
			/* row hits first; a prefetching row stays open */
			if (b->open_hits > 0 || pf_wants_once(mc, pa, e->bank))
				continue;
			k = CMD_PRE;
			ready = b->pre_ready;
		} else {
			k = CMD_ACT;
			ready = max64(b->act_ready, act_at); /* act_ready */
		}
		if (ready > now)
			nx = min64(nx, ready);
		else if (*best < 0) {
			*best = (int)i;
			*best_kind = k;
		}
	}
	*next = nx;
	return false;
}

static bool schedule(struct dram_mc *mc, uint64_t now, uint64_t *next)
{
	if (mc->ref_pending)
		return schedule_refresh(mc, now, next);
	bool fcfs = mc->cfg.sched == DRAM_SCHED_FCFS;
	uint64_t seen_banks = 0; /* FCFS: banks whose oldest demand was looked at */
	int best_row_cmd = -1;
	enum dram_cmd best_kind = CMD_NONE;
	struct pf_asked pa = {0, 0};
	if (!fcfs && scan_frfcfs(mc, now, next, &best_row_cmd, &best_kind, &pa))
		return true;
	for (uint32_t i = 0; fcfs && i < mc->q_len; i++) {
		struct dram_qent *e = &mc->q[i];
		if (fcfs) {
			if (seen_banks & (1ull << e->bank))
				continue;
			seen_banks |= 1ull << e->bank;
		}
		uint64_t ready = 0;
		enum dram_cmd k = entry_cmd(mc, e, &ready);
		if (k == CMD_NONE)
			continue;
		if (ready > now) {
			*next = min64(*next, ready);
			continue;
		}
		if (k == CMD_COL && (!fcfs || best_row_cmd < 0)) {
			serve_demand(mc, i, now);
			return true;
		}
		if (best_row_cmd < 0) {
			best_row_cmd = (int)i;
			best_kind = k;
			if (fcfs)
				break; /* oldest ready wins whatever its command */
		}
	}
	if (best_row_cmd >= 0) {
		struct dram_qent *e = &mc->q[best_row_cmd];
		if (e->first_cmd_cycle == UINT64_MAX)
			e->first_cmd_cycle = now;
		if (best_kind == CMD_ACT) {
			e->needed_act = true;
			issue_act(mc, e->bank, e->row, !e->is_write, now);
		} else {
			e->needed_pre = true;
			issue_pre(mc, e->bank, now);
		}
		return true;
	}
	/* Close-row policy: precharge an open row nobody queued hits (unless prefetching). */
	if (mc->cfg.close_row) {
		for (uint32_t bk = 0; bk < mc->cfg.banks; bk++) {
			struct dram_bank *b = &mc->bank[bk];
			if (!b->open || bank_has_queued_hit(mc, bk) || pf_wants_once(mc, &pa, bk))
				continue;
			if (b->pre_ready > now) {
				*next = min64(*next, b->pre_ready);
				continue;
			}
			issue_pre(mc, bk, now);
			return true;
		}
	}
	if (mc->cfg.prefetch && mc->pf_nfree) {
		for (uint32_t bk = 0; bk < mc->cfg.banks; bk++) {
			if (!pf_wants_once(mc, &pa, bk))
				continue;
			uint64_t ready = col_ready(mc, bk, false);
			if (ready > now) {
				*next = min64(*next, ready);
				continue;
			}
			serve_prefetch(mc, bk, pf_next_line(mc, bk), now);
			return true;
		}
	}
	return false;
}

uint64_t dram_mc_tick(struct dram_mc *mc, uint64_t now)
{
	dram_mc_sync(mc, now);
	complete(mc, now);
	uint64_t next = SIM_NEVER;
	if (mc->cfg.tREFI && !mc->ref_pending && now >= mc->ref_due)
		mc->ref_pending = true;
	if (!mc->cmd_issued_any || now > mc->last_cmd_cycle) {
		if (schedule(mc, now, &next)) {
			mc->cmd_issued_any = true;
			mc->last_cmd_cycle = now;
			next = now + 1; /* one command per cycle; look again next cycle */
		}
	} else if (mc->q_len || mc->cfg.prefetch || mc->ref_pending) {
		next = now + 1;
	}
	/* While busy, be there when the next refresh falls due (idle: see refresh_while_idle). */
	if (mc->cfg.tREFI && !mc->ref_pending && (mc->q_len || mc->fly_len))
		next = min64(next, mc->ref_due);
	for (uint32_t i = 0; i < mc->fly_len; i++)
		next = min64(next, mc->fly[i].done_cycle);
	SIM_ASSERT(next > now || next == SIM_NEVER || mc->fly_len);
	if (next <= now)
		next = now + 1;
	return next;
}

/* ---- configuration and stats ------------------------------------------------------------ */

int dram_cfg_read(struct dram_cfg *o, const struct cfg *cfg, struct sim_error *err)
{
	memset(o, 0, sizeof *o);
	o->banks = (uint32_t)cfg_int(cfg, "gpu.dram.banks");
	o->row_bytes = (uint32_t)cfg_int(cfg, "gpu.dram.row_bytes");
	o->line_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.line_bytes");
	o->queue_size = (uint32_t)cfg_int(cfg, "gpu.dram.queue_size");
	o->sched = strcmp(cfg_str(cfg, "gpu.dram.scheduler"), "fcfs") == 0 ? DRAM_SCHED_FCFS
									 : DRAM_SCHED_FRFCFS;
	o->close_row = strcmp(cfg_str(cfg, "gpu.dram.page_policy"), "close") == 0;
	o->tRCD = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rcd_cycles");
	o->tRP = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rp_cycles");
	o->tRAS = (uint32_t)cfg_int(cfg, "gpu.dram.timing.ras_cycles");
	o->tRC = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rc_cycles");
	o->tRRD = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rrd_cycles");
	o->tCL = (uint32_t)cfg_int(cfg, "gpu.dram.timing.cl_cycles");
	o->tWL = (uint32_t)cfg_int(cfg, "gpu.dram.timing.wl_cycles");
	o->tWR = (uint32_t)cfg_int(cfg, "gpu.dram.timing.wr_cycles");
	o->tWTR = (uint32_t)cfg_int(cfg, "gpu.dram.timing.wtr_cycles");
	o->tRTW = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rtw_cycles");
	o->tCCD = (uint32_t)cfg_int(cfg, "gpu.dram.timing.ccd_cycles");
	o->tRTP = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rtp_cycles");
	o->tFAW = (uint32_t)cfg_int(cfg, "gpu.dram.timing.faw_cycles");
	o->tREFI = (uint32_t)cfg_int(cfg, "gpu.dram.timing.refi_cycles");
	o->tRFC = (uint32_t)cfg_int(cfg, "gpu.dram.timing.rfc_cycles");
	/* One column command moves bus_bytes * burst_length bytes in burst_length / data_rate
	 * command cycles; a line takes as many bursts as it needs. */
	uint32_t bus = (uint32_t)cfg_int(cfg, "gpu.dram.bus_bytes");
	uint32_t bl = (uint32_t)cfg_int(cfg, "gpu.dram.burst_length");
	uint32_t rate = (uint32_t)cfg_int(cfg, "gpu.dram.data_rate");
	if (bl % rate)
		return cfg_error(err, cfg, "gpu.dram.burst_length",
				 "burst length %u must be a multiple of data_rate %u", bl, rate);
	uint32_t bursts = (o->line_bytes + bus * bl - 1) / (bus * bl);
	o->burst_cycles = bursts * (bl / rate);
	/* A fill may go to the DRAM as line / fill_request_bytes requests (GPGPU-Sim's sectored
	 * L2: one per missing 32 B sector), each a column command of whole bursts: with 64 B
	 * bursts a 32 B sector holds the bus as long as 64 B. The requests of one line are served
	 * back to back, so the line is one column command of their bursts here. Write-backs move
	 * the dirty line whole (GPGPU-Sim: one request of the line's modified size). */
	uint32_t req = (uint32_t)cfg_int(cfg, "gpu.l2.fill_request_bytes");
	if (req == 0)
		req = o->line_bytes;
	if (req & (req - 1) || req > o->line_bytes)
		return cfg_error(err, cfg, "gpu.l2.fill_request_bytes",
				 "%u must be a power of two no larger than gpu.l2.line_bytes (%u), or 0", req,
				 o->line_bytes);
	o->rd_req_bytes = req;
	o->rd_req_cycles = ((req + bus * bl - 1) / (bus * bl)) * (bl / rate);
	o->rd_burst_cycles = (o->line_bytes / req) * o->rd_req_cycles;
	/* A refresh takes time: with tRFC 0 the ACT after a refresh would share its command cycle
	 * (the protocol checker, sim.check, flags exactly that). */
	if (o->tREFI && !o->tRFC)
		return cfg_error(err, cfg, "gpu.dram.timing.rfc_cycles",
				 "must be at least 1 when refresh is on (refi_cycles %u)", o->tREFI);
	if (o->tRC < o->tRAS)
		return cfg_error(err, cfg, "gpu.dram.timing.rc_cycles",
				 "tRC (%u) must be at least tRAS (%u)", o->tRC, o->tRAS);
	if (o->row_bytes % o->line_bytes || o->row_bytes / o->line_bytes > DRAM_MAX_ROW_LINES)
		return cfg_error(err, cfg, "gpu.dram.row_bytes",
				 "%u-byte rows must hold 1..%d whole %u-byte lines", o->row_bytes,
				 DRAM_MAX_ROW_LINES, o->line_bytes);
	o->prefetch = strcmp(cfg_str(cfg, "gpu.dram.prefetch"), "opportunistic") == 0;
	o->pf_lower = (uint32_t)cfg_int(cfg, "gpu.dram.prefetcher.lower_lines");
	o->pf_higher = (uint32_t)cfg_int(cfg, "gpu.dram.prefetcher.higher_lines");
	o->pf_threshold = cfg_float(cfg, "gpu.dram.prefetcher.threshold_requests");
	o->pf_stop_on_demand = strcmp(cfg_str(cfg, "gpu.dram.prefetcher.stop"), "on-demand") == 0;
	o->check = cfg_is_defined(cfg, "sim.check") && cfg_bool(cfg, "sim.check");
	if (o->pf_lower > o->pf_higher)
		return cfg_error(err, cfg, "gpu.dram.prefetcher.lower_lines",
				 "lower (%u) must not exceed higher (%u)", o->pf_lower, o->pf_higher);
	return 0;
}

static double st_rbl(const void *p) { return dram_mc_row_hit_rate(p); }
static double st_qlen(const void *p) { return dram_mc_avg_queue_len(p); }

void dram_mc_stats_register(struct dram_mc *mc, struct stats *st)
{
	uint32_t c = mc->channel;
	stats_counter(st, &mc->reads, "requests", "DRAM reads served (demand)", "mc.%u.reads", c);
	stats_counter(st, &mc->writes, "requests", "DRAM writes served", "mc.%u.writes", c);
	stats_counter(st, &mc->row_hits, "requests", "column accesses to the open row",
		      "mc.%u.row_hits", c);
	stats_counter(st, &mc->row_misses, "requests", "accesses that activated a closed bank",
		      "mc.%u.row_misses", c);
	stats_counter(st, &mc->row_conflicts, "requests",
		      "accesses that precharged another open row", "mc.%u.row_conflicts", c);
	stats_counter(st, &mc->activates, "commands", "ACT commands", "mc.%u.activates", c);
	stats_counter(st, &mc->precharges, "commands", "PRE commands", "mc.%u.precharges", c);
	stats_counter(st, &mc->refreshes, "commands", "all-bank refreshes (0 when tREFI = 0)",
		      "mc.%u.refreshes", c);
	stats_counter(st, &mc->rejected, "attempts", "enqueues refused by a full queue",
		      "mc.%u.queue_full", c);
	stats_counter(st, &mc->bus_busy_cycles, "cycles", "DRAM cycles the data bus moved data",
		      "mc.%u.bus_busy_cycles", c);
	stats_counter(st, &mc->pf_issued, "lines", "opportunistic prefetches issued (OWL 4.4)",
		      "mc.%u.prefetch.issued", c);
	stats_counter(st, &mc->pf_filtered, "lines", "row lines skipped: already in the L2",
		      "mc.%u.prefetch.skipped", c);
	stats_avg(st, &mc->queue_lat, "cycles", "DRAM cycles from enqueue to the first command",
		  "mc.%u.queue_latency", c);
	stats_avg(st, &mc->service_lat, "cycles", "DRAM cycles from the first command to data done",
		  "mc.%u.service_latency", c);
	/* BLP's numerator and denominator, so that it can be taken over an interval (samples) and
	 * per kernel (a ratio, not a derived value: a kernel's record holds its own BLP, and none
	 * when it made no DRAM access) */
	stats_counter(st, &mc->blp_sum, "bank cycles", "sum over DRAM cycles of banks with an outstanding request",
		      "mc.%u.blp_bank_cycles", c);
	stats_counter(st, &mc->blp_cycles, "cycles", "DRAM cycles with at least one bank busy",
		      "mc.%u.blp_busy_cycles", c);
	char num[48], den[48];
	snprintf(num, sizeof num, "mc.%u.blp_bank_cycles", c);
	snprintf(den, sizeof den, "mc.%u.blp_busy_cycles", c);
	stats_ratio(st, num, den, 1.0, "banks", "BLP (OWL 2.2): banks with an outstanding request, averaged over cycles with one",
		    "mc.%u.blp", c);
	stats_derived(st, st_rbl, mc, "ratio", "RBL (OWL 2.2): row-buffer hit rate of demands",
		      "mc.%u.row_hit_rate", c);
	stats_derived(st, st_qlen, mc, "requests", "average MC queue length", "mc.%u.avg_queue_len",
		      c);
	for (uint32_t b = 0; b < mc->cfg.banks; b++) {
		struct dram_bank *k = &mc->bank[b];
		stats_counter(st, &k->reads, "requests", "reads", "mc.%u.bank.%u.reads", c, b);
		stats_counter(st, &k->writes, "requests", "writes", "mc.%u.bank.%u.writes", c, b);
		stats_counter(st, &k->row_hits, "requests", "row hits", "mc.%u.bank.%u.row_hits", c, b);
		stats_counter(st, &k->row_misses, "requests", "row misses (bank closed)",
			      "mc.%u.bank.%u.row_misses", c, b);
		stats_counter(st, &k->row_conflicts, "requests", "row conflicts (other row open)",
			      "mc.%u.bank.%u.row_conflicts", c, b);
		stats_counter(st, &k->activates, "commands", "ACT commands",
			      "mc.%u.bank.%u.activates", c, b);
		stats_counter(st, &k->prefetches, "lines", "prefetches from this bank",
			      "mc.%u.bank.%u.prefetches", c, b);
	}
}
