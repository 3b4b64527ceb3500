/* SPDX-License-Identifier: MIT */
/* Large warp microarchitecture (002_eff04bc2401aa813 Sec 3.1, 3.1.2): sub-warp formation from the
 * 2D active mask, one sub-warp per issue cycle, memory instructions split into per-sub-warp parts.
 * Only reached when gpu.core.large_warp_size != 0 (sm->lwm non-NULL): the normal path is untouched. */
#include "sm_lwm.h"

#include <stdlib.h>
#include <string.h>

/* ---- 2D active mask: row r holds lanes [r*width, (r+1)*width) ------------------------- */

static inline uint64_t cols_mask(uint32_t width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static uint64_t row_get(const uint64_t *m, uint32_t r, uint32_t width)
{
	uint32_t start = r * width, w = start >> 6, b = start & 63;
	uint64_t v = m[w] >> b;
	if (b && b + width > 64 && w + 1 < WI_MASK_WORDS)
		v |= m[w + 1] << (64 - b);
	return v & cols_mask(width);
}

static void row_put(uint64_t *m, uint32_t r, uint32_t width, uint64_t bits)
{
	uint32_t start = r * width, w = start >> 6, b = start & 63;
	uint64_t cm = cols_mask(width);
	m[w] = (m[w] & ~(cm << b)) | (bits << b);
	if (b && b + width > 64 && w + 1 < WI_MASK_WORDS)
		m[w + 1] = (m[w + 1] & ~(cm >> (64 - b))) | (bits >> (64 - b));
}

/* Sec 3.1.1: "each cycle, the hardware searches each column of the active mask in parallel for an
 * active thread" and clears the selected bits; the register file of Fig 6(b) has one bank per
 * lane, so a sub-warp takes at most one thread of each column. The search is a priority encoder
 * per column: the lowest active row wins. */
uint32_t sm_lwm_next_subwarp(uint64_t rem[WI_MASK_WORDS], uint32_t lanes, uint32_t width, bool rows,
			     uint64_t out[WI_MASK_WORDS])
{
	memset(out, 0, WI_MASK_WORDS * sizeof *out);
	uint32_t n_rows = (lanes + width - 1) / width, n = 0;
	uint64_t avail = cols_mask(width);
	for (uint32_t r = 0; r < n_rows && avail; r++) {
		uint64_t row = row_get(rem, r, width);
		uint64_t take = rows ? row : row & avail;
		if (!take)
			continue;
		row_put(out, r, width, take);
		row_put(rem, r, width, row & ~take);
		avail &= ~take;
		n += (uint32_t)__builtin_popcountll(take);
		if (rows)
			break; /* Sec 3.1.2: one row of the mask per sub-warp */
	}
	return n;
}

uint32_t sm_lwm_count_subwarps(const uint64_t mask[WI_MASK_WORDS], uint32_t lanes, uint32_t width, bool rows)
{
	uint32_t n_rows = (lanes + width - 1) / width, cnt[64] = {0}, best = 0;
	for (uint32_t r = 0; r < n_rows; r++) {
		uint64_t row = row_get(mask, r, width);
		if (rows) {
			best += row != 0;
			continue;
		}
		for (; row; row &= row - 1) {
			uint32_t c = (uint32_t)__builtin_ctzll(row);
			if (++cnt[c] > best)
				best = cnt[c];
		}
	}
	return best;
}

/* ---- build --------------------------------------------------------------------------------- */

int sm_lwm_create(struct sm *sm, const struct cfg *cfg, struct sim_error *err)
{
	uint32_t size = (uint32_t)cfg_int(cfg, "gpu.core.large_warp_size");
	if (!size)
		return 0;
	uint32_t width = sm->warp_size;
	if (width > 64)
		return cfg_error(err, cfg, "gpu.core.warp_size",
				 "large warps (gpu.core.large_warp_size) need a SIMD width of at most 64, got %u", width);
	if (size % width)
		return cfg_error(err, cfg, "gpu.core.large_warp_size",
				 "%u threads is not a multiple of gpu.core.warp_size (%u, the SIMD width of a sub-warp)",
				 size, width);
	/* One large warp must fit the core's threads (the paper's core: 1024 threads, warps of up
	 * to 512 evaluated, Fig 11). Capped at the CTA per kernel (sm_lwm_kernel_warp_size). */
	if (size > sm->max_threads)
		return cfg_error(err, cfg, "gpu.core.large_warp_size",
				 "%u threads exceed gpu.core.max_threads (%u): a large warp must fit on the core",
				 size, sm->max_threads);
	struct sm_lwm *L = calloc(1, sizeof *L);
	if (!L)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (LWM)");
	L->size = size;
	L->width = width;
	L->opt_mem_rows = cfg_bool(cfg, "gpu.core.lwm.mem_rows");
	L->opt_uncond = cfg_bool(cfg, "gpu.core.lwm.uncond_single");
	sm->lwm = L;
	sm->warp_size = size; /* warp_inst pool and scratch hold a large warp's addresses */
	return 0;
}

void sm_lwm_destroy(struct sm *sm)
{
	free(sm->lwm);
	sm->lwm = NULL;
}

int sm_lwm_register_stats(struct sm *sm, struct stats *st)
{
	struct sm_lwm *L = sm->lwm;
	if (!L)
		return 0;
	uint32_t id = sm->id;
	stats_counter(st, &L->sub_warps, "sub-warps", "LWM sub-warps issued (issue cycles of large-warp instructions)",
		      "sm.%u.lwm.sub_warps", id);
	stats_counter(st, &L->large_insts, "insts", "LWM large-warp instructions issued", "sm.%u.lwm.large_insts", id);
	stats_counter(st, &L->uncond_single, "insts", "LWM unconditional jumps issued as one sub-warp (Sec 3.1.2)",
		      "sm.%u.lwm.uncond_single", id);
	stats_counter(st, &L->mem_row_insts, "insts", "LWM global memory instructions formed row by row (Sec 3.1.2)",
		      "sm.%u.lwm.mem_row_insts", id);
	char num[64], den[64];
	snprintf(num, sizeof num, "sm.%u.thread_insts", id);
	snprintf(den, sizeof den, "sm.%u.lwm.sub_warps", id);
	stats_ratio(st, num, den, 1.0 / L->width, "fraction", "SIMD utilisation: active lanes / (sub-warps x width)",
		    "sm.%u.lwm.simd_util", id);
	/* Counters, not stats_hist: the run tool destroys the registry after the components, and a
	 * histogram's bins are freed through the component's struct. Buckets as Fig 10 draws them
	 * (for width 32: 0, 1-7, 8-15, 16-23, 24-31, 32 lanes). */
	static const char *const names[SM_LWM_BUCKETS] = {"0", "q1", "q2", "q3", "q4", "full"};
	static const char *const desc[SM_LWM_BUCKETS] = {
		"sub-warps with no active lane (guard false everywhere)",
		"sub-warps with 1 .. width/4-1 active lanes (Fig 10: 1-7)",
		"sub-warps with width/4 .. width/2-1 active lanes (Fig 10: 8-15)",
		"sub-warps with width/2 .. 3width/4-1 active lanes (Fig 10: 16-23)",
		"sub-warps with 3width/4 .. width-1 active lanes (Fig 10: 24-31)",
		"sub-warps with all width lanes active (Fig 10: 32)",
	};
	for (int b = 0; b < SM_LWM_BUCKETS; b++)
		stats_counter(st, &L->lanes[b], "sub-warps", desc[b], "sm.%u.lwm.lanes.%s", id, names[b]);
	return 0;
}

uint32_t sm_lwm_kernel_warp_size(const struct sm *sm, uint32_t threads_per_cta)
{
	const struct sm_lwm *L = sm->lwm;
	uint32_t rows = (threads_per_cta + L->width - 1) / L->width;
	if (!rows)
		rows = 1;
	/* The largest warp of whole rows that divides the CTA: every warp then has the same size, so
	 * the SM occupies exactly the threads the dispatcher (32-lane warps) counted. */
	for (uint32_t k = L->size / L->width < rows ? L->size / L->width : rows; k > 1; k--)
		if (rows % k == 0)
			return k * L->width;
	return L->width;
}

/* ---- issue ------------------------------------------------------------------------------- */

static int unit_pick(const struct sm *sm, unsigned u, uint64_t now)
{
	const struct sm_unit *un = &sm->units[u];
	for (uint32_t k = 0; k < un->count; k++)
		if (un->next_free[k] <= now)
			return (int)k;
	return -1;
}

static inline int lane_bucket(uint32_t width, uint32_t lanes)
{
	if (lanes == 0 || lanes >= width)
		return lanes ? SM_LWM_BUCKETS - 1 : 0;
	return 1 + (int)(lanes * 4 / width);
}

void sm_lwm_before_execute(struct sm *sm, uint16_t slot)
{
	fe_warp_next_mask(sm->warps[slot].fw, sm->lwm->pre[slot]);
}

/* Lanes of sub-warp sub whose guard predicate held (they do work: Fig 10 counts them). */
static uint32_t lanes_in(const uint64_t *sub, const uint64_t *guard)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < WI_MASK_WORDS; i++)
		n += (uint32_t)__builtin_popcountll(sub[i] & guard[i]);
	return n;
}

/* The next sub-warp of a memory instruction as its own warp_inst: the sub-warp's lanes whose
 * guard held, addresses shared with the large instruction (memory/ reads them at issue). */
static uint32_t make_part(struct warp_inst *p, const struct warp_inst *wi, uint64_t *rem, uint32_t width, bool rows)
{
	*p = *wi;
	uint64_t sub[WI_MASK_WORDS];
	sm_lwm_next_subwarp(rem, wi->n_lanes, width, rows, sub);
	for (uint32_t i = 0; i < WI_MASK_WORDS; i++)
		p->mask[i] = sub[i] & wi->mask[i];
	return p->n_active = lanes_in(sub, wi->mask);
}

/* The first sub-warp: issue_warp already occupied its unit. */
static void count_subwarp(struct sm_lwm *L, uint32_t lanes)
{
	L->sub_warps++;
	L->lanes[lane_bucket(L->width, lanes)]++;
}

bool sm_lwm_mem_issue(struct sm *sm, uint16_t slot, uint8_t idx, const struct warp_inst *wi, uint64_t token,
		      uint64_t now)
{
	struct sm_lwm *L = sm->lwm;
	struct sm_lwm_seq *q = &L->seq[slot % sm->n_sched];
	SIM_ASSERT(!q->busy);
	/* Sec 3.1.2: global accesses of consecutive threads coalesce; packing threads of different
	 * rows would split them, so those sub-warps are whole rows. */
	bool rows = L->opt_mem_rows && wi->si->space == WI_SPACE_GLOBAL;
	const uint64_t *pre = L->pre[slot]; /* kept across a refusal: the warp executes nothing else */
	uint32_t total = sm_lwm_count_subwarps(pre, wi->n_lanes, L->width, rows);
	uint64_t rem[WI_MASK_WORDS];
	memcpy(rem, pre, sizeof rem);
	struct warp_inst *p = &L->part;
	make_part(p, wi, rem, L->width, rows);
	L->parts_left[slot][idx] = (uint16_t)(total ? total : 1); /* before: done() may come inside */
	if (!sm->mem_try_issue(sm->mem, p, token | SM_LWM_PART_TOKEN, now)) {
		L->parts_left[slot][idx] = 0;
		return false;
	}
	L->mem_issued = true;
	L->large_insts++;
	L->mem_row_insts += rows;
	count_subwarp(L, p->n_active);
	if (total > 1) {
		q->busy = true;
		q->mem = true;
		q->rows = rows;
		q->unit = wi->si->unit;
		q->sb_idx = -1;
		q->slot = slot;
		q->lanes = wi->n_lanes;
		q->token = token;
		q->wi = wi;
		memcpy(q->rem, rem, sizeof rem);
	}
	return true;
}

void sm_lwm_after_issue(struct sm *sm, uint16_t slot, uint64_t now)
{
	struct sm_lwm *L = sm->lwm;
	if (L->mem_issued) {
		L->mem_issued = false; /* sm_lwm_mem_issue did it */
		return;
	}
	const struct warp_inst *wi = sm->scratch; /* issue_warp executed it there */
	const struct wi_static *si = wi->si;
	/* Sec 3.1.2: a jump writes one PC for the whole large warp: one sub-warp, one cycle. */
	bool single = L->opt_uncond && (si->flags & WI_F_UNCOND);
	/* Not in the paper: an exit taken by every active thread ends the large warp in one step
	 * (the SM frees the warp, and possibly the kernel ends, at its first sub-warp). */
	bool exit_all = (si->flags & WI_F_EXIT) && wi->n_active == lanes_in(L->pre[slot], L->pre[slot]);
	uint32_t total = single || exit_all ? 1 : sm_lwm_count_subwarps(L->pre[slot], wi->n_lanes, L->width, false);
	struct sm_lwm_seq *q = &L->seq[slot % sm->n_sched];
	memcpy(q->rem, L->pre[slot], sizeof q->rem);
	uint64_t sub[WI_MASK_WORDS];
	uint32_t n = wi->n_active;
	if (total > 1) {
		sm_lwm_next_subwarp(q->rem, wi->n_lanes, L->width, false, sub);
		n = lanes_in(sub, wi->mask);
	}
	L->large_insts++;
	L->uncond_single += single;
	count_subwarp(L, n);
	if (total <= 1)
		return;
	q->busy = true;
	q->mem = false;
	q->unit = si->unit;
	q->slot = slot;
	q->lanes = wi->n_lanes;
	memcpy(q->guard, wi->mask, sizeof q->guard);
	q->lat_cycles = sm_result_cycles(sm, si);
	q->sb_idx = -1;
	/* The entry issue_warp just made: its registers are written when the last sub-warp is. */
	struct sm_warp *w = &sm->warps[slot];
	for (int i = 0; si->n_dst && i < SM_SB_ENTRIES; i++) {
		const struct sm_sb_entry *e = &w->sb[i];
		if (e->used && !e->mem && e->release_cycle == now + q->lat_cycles && e->n_dst == si->n_dst &&
		    e->dst[0] == si->dst[0]) {
			q->sb_idx = (int8_t)i;
			break;
		}
	}
}

bool sm_lwm_splitting(const struct sm *sm, uint32_t s)
{
	return sm->lwm->seq[s].busy;
}

int sm_lwm_continue(struct sm *sm, uint32_t s, uint64_t now)
{
	struct sm_lwm *L = sm->lwm;
	struct sm_lwm_seq *q = &L->seq[s];
	if (!q->busy)
		return -1;
	sm->activity = true;
	int unit = -1;
	if (q->unit != WI_UNIT_NONE && (unit = unit_pick(sm, q->unit, now)) < 0)
		return SM_CYC_STRUCTURAL;
	uint32_t n;
	if (q->mem) {
		uint64_t save[WI_MASK_WORDS];
		memcpy(save, q->rem, sizeof save);
		struct warp_inst *p = &L->part;
		n = make_part(p, q->wi, q->rem, L->width, q->rows);
		if (!sm->mem_try_issue(sm->mem, p, q->token | SM_LWM_PART_TOKEN, now)) {
			memcpy(q->rem, save, sizeof save);
			sm->c.mem_refusals++;
			return SM_CYC_STRUCTURAL;
		}
	} else {
		uint64_t sub[WI_MASK_WORDS];
		sm_lwm_next_subwarp(q->rem, q->lanes, L->width, false, sub);
		n = lanes_in(sub, q->guard);
		if (q->sb_idx >= 0) {
			struct sm_warp *w = &sm->warps[q->slot];
			w->sb[q->sb_idx].release_cycle = now + q->lat_cycles;
			w->sb_block_until = 0; /* a cached block may predate this later release */
		}
		/* Barrel processing (Sec 3.1.1): "not considered for scheduling again until all
		 * sub-warps have completed execution". */
		if (sm->barrel)
			sm->warps[q->slot].barrel_until = now + q->lat_cycles + sm->fetch_decode_cycles;
		if (q->unit == WI_UNIT_SP || q->unit == WI_UNIT_SFU) {
			sm->c.alu_inflight_inst_cycles += q->lat_cycles;
			if (now + q->lat_cycles > sm->alu_busy_until)
				sm->alu_busy_until = now + q->lat_cycles;
		}
	}
	L->sub_warps++;
	L->lanes[lane_bucket(L->width, n)]++;
	if (unit >= 0)
		sm_unit_take(sm, q->unit, (uint32_t)unit, now + sm->units[q->unit].ii_cycles);
	bool left = false;
	for (uint32_t i = 0; i < WI_MASK_WORDS && !left; i++)
		left = q->rem[i] != 0;
	q->busy = left;
	return SM_CYC_ISSUED;
}

bool sm_lwm_part_done(struct sm *sm, uint64_t *token)
{
	uint64_t t = *token & ~SM_LWM_PART_TOKEN;
	uint32_t slot = (uint32_t)(t >> 8), idx = (uint32_t)(t & 0xff);
	SIM_ASSERT(slot < SCHED_MAX_WARPS && idx < SM_SB_ENTRIES && sm->lwm->parts_left[slot][idx] > 0);
	*token = t;
	return --sm->lwm->parts_left[slot][idx] == 0;
}
