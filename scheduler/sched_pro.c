/* SPDX-License-Identifier: MIT */
/* PRO, progress-aware warp scheduling (000 Sec III, Algorithm 1, Fig 3): TB states, fast and
 * slow TB phases, finishWait > barrierWait > noWait priorities, re-sort every THRESHOLD. */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

struct pro_tb {
	uint8_t state;               /* enum sched_pro_state */
	uint64_t launch_seq;
	uint32_t cta_id;
	uint32_t n_fin, n_bar;       /* nWarpsFin, nWarpsAtBar (Sec III-E) */
	uint32_t n_total;            /* warps the TB started with */
	uint64_t progress;           /* TBProgress: active threads summed over issued insts */
	uint16_t warps[SCHED_MAX_WARPS]; /* live warps in priority order */
	uint32_t n_warps;
};

struct pro_state {
	struct pro_tb tb[SCHED_MAX_CTAS];
	bool fast;                   /* fastTBPhase */
	uint64_t last_sort;          /* lastSortCycle */
	uint16_t fin_order[SCHED_MAX_CTAS], bar_order[SCHED_MAX_CTAS], rem_order[SCHED_MAX_CTAS];
	uint32_t n_fin_order, n_bar_order, n_rem;
};

static int pro_init(struct sched *s, const struct cfg *cfg, struct sim_error *err)
{
	(void)cfg;
	struct pro_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	st->fast = true;
	s->state = st;
	return 0;
}

static void pro_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

static void list_remove(uint16_t *a, uint32_t *n, uint16_t v)
{
	for (uint32_t i = 0; i < *n; i++)
		if (a[i] == v) {
			memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof *a);
			(*n)--;
			return;
		}
}

static bool is_rem_state(uint8_t s)
{
	return s == SCHED_PRO_NOWAIT || s == SCHED_PRO_FINISHNOWAIT;
}

/* sortWarps: by warp progress, increasing (inc) or decreasing; ties keep current order. */
static void sort_warps(const struct sched_core_view *core, struct pro_tb *tb, bool inc)
{
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t i = 0; i < tb->n_warps; i++) {
		uint64_t p = core->warps[tb->warps[i]].progress;
		key[tb->warps[i]] = inc ? p : UINT64_MAX - p;
	}
	sched_sort_by_key(tb->warps, tb->n_warps, key);
}

/* Sort TB slots: primary key (count, larger first), then progress (larger first), then
 * TB id. Used by sortFinishWaitStateTBs and sortBarrierWaitStateTBs (Sec III-C 2, 3). */
static void sort_tbs_by_count(struct pro_state *st, uint16_t *order, uint32_t n, bool fin)
{
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t i = 0; i < n; i++)
		key[order[i]] = st->tb[order[i]].cta_id;
	sched_sort_by_key(order, n, key);
	for (uint32_t i = 0; i < n; i++)
		key[order[i]] = UINT64_MAX - st->tb[order[i]].progress;
	sched_sort_by_key(order, n, key);
	for (uint32_t i = 0; i < n; i++)
		key[order[i]] = SCHED_MAX_WARPS - (fin ? st->tb[order[i]].n_fin : st->tb[order[i]].n_bar);
	sched_sort_by_key(order, n, key);
}

static void rebuild_state_list(struct pro_state *st, bool fin)
{
	uint16_t *order = fin ? st->fin_order : st->bar_order;
	uint32_t n = 0;
	for (uint16_t k = 0; k < SCHED_MAX_CTAS; k++) {
		uint8_t s = st->tb[k].state;
		if (fin ? s == SCHED_PRO_FINISHWAIT : (s == SCHED_PRO_BARRIERWAIT || s == SCHED_PRO_BARRIERWAIT1))
			order[n++] = k;
	}
	sort_tbs_by_count(st, order, n, fin);
	if (fin)
		st->n_fin_order = n;
	else
		st->n_bar_order = n;
}

/* fastToSlowTBPhaseTransition / mergeFinishAndNoWaitTBs (Alg. 1 lines 36-40, Sec III-D):
 * once the dispatcher holds no more CTAs, noWait and finishWait TBs become finishNoWait
 * (former finishWait TBs first, keeping their priority until the next sort) and barrierWait
 * TBs become barrierWait1. */
static void pro_phase_update(struct pro_state *st, const struct sched_core_view *core)
{
	if (!st->fast)
		return;
	if (core->ctas_waiting && core->ctas_waiting(core->dispatcher_ctx))
		return;
	st->fast = false;
	uint16_t merged[SCHED_MAX_CTAS];
	uint32_t n = 0;
	for (uint32_t i = 0; i < st->n_fin_order; i++)
		merged[n++] = st->fin_order[i];
	for (uint32_t i = 0; i < st->n_rem; i++) {
		bool dup = false;
		for (uint32_t j = 0; j < st->n_fin_order; j++)
			dup |= st->fin_order[j] == st->rem_order[i];
		if (!dup)
			merged[n++] = st->rem_order[i];
	}
	memcpy(st->rem_order, merged, n * sizeof *merged);
	st->n_rem = n;
	st->n_fin_order = 0;
	for (uint32_t k = 0; k < SCHED_MAX_CTAS; k++) {
		uint8_t *s = &st->tb[k].state;
		if (*s == SCHED_PRO_NOWAIT || *s == SCHED_PRO_FINISHWAIT)
			*s = SCHED_PRO_FINISHNOWAIT;
		else if (*s == SCHED_PRO_BARRIERWAIT)
			*s = SCHED_PRO_BARRIERWAIT1;
	}
}

/* A TB starts in noWait (Fig 3: beginExec), or finishNoWait in the slow phase; it joins
 * the end of the noWait order until the next sort. Warps start in warp-in-CTA order. */
static void pro_launch(struct pro_state *st, const struct sched_core_view *core, uint16_t slot)
{
	if (slot >= SCHED_MAX_CTAS)
		return;
	pro_phase_update(st, core);
	struct pro_tb *tb = &st->tb[slot];
	memset(tb, 0, sizeof *tb);
	tb->state = st->fast ? SCHED_PRO_NOWAIT : SCHED_PRO_FINISHNOWAIT;
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (!v->valid || v->cta_slot != slot)
			continue;
		tb->warps[tb->n_warps++] = (uint16_t)w;
		key[w] = v->warp_in_cta;
		tb->launch_seq = v->cta_launch_seq;
		tb->cta_id = v->cta_id;
	}
	sched_sort_by_key(tb->warps, tb->n_warps, key);
	tb->n_total = tb->n_warps;
	list_remove(st->fin_order, &st->n_fin_order, slot);
	list_remove(st->bar_order, &st->n_bar_order, slot);
	list_remove(st->rem_order, &st->n_rem, slot);
	st->rem_order[st->n_rem++] = slot;
}

static int tb_of_warp(const struct pro_state *st, uint16_t warp_id, uint16_t hint)
{
	if (hint < SCHED_MAX_CTAS)
		for (uint32_t i = 0; i < st->tb[hint].n_warps; i++)
			if (st->tb[hint].warps[i] == warp_id)
				return hint;
	for (int k = 0; k < SCHED_MAX_CTAS; k++)
		for (uint32_t i = 0; i < st->tb[k].n_warps; i++)
			if (st->tb[k].warps[i] == warp_id)
				return k;
	return -1;
}

/* insertBarrierWarp (Alg. 1 lines 17-33). The release itself comes from the SM's barrier
 * unit (SCHED_EV_BARRIER_RELEASE), which knows that exited warps count as arrived. */
static void pro_barrier_arrive(struct pro_state *st, const struct sched_core_view *core, uint16_t slot)
{
	struct pro_tb *tb = &st->tb[slot];
	pro_phase_update(st, core);
	tb->n_bar++;
	if (tb->n_bar == 1) {
		tb->state = st->fast ? SCHED_PRO_BARRIERWAIT : SCHED_PRO_BARRIERWAIT1;
		sort_warps(core, tb, true);
	}
	rebuild_state_list(st, false);
	rebuild_state_list(st, true);
}

static void pro_barrier_release(struct pro_state *st, const struct sched_core_view *core, uint16_t slot)
{
	struct pro_tb *tb = &st->tb[slot];
	pro_phase_update(st, core);
	tb->n_bar = 0;
	if (tb->state != SCHED_PRO_BARRIERWAIT && tb->state != SCHED_PRO_BARRIERWAIT1)
		return;
	/* Alg. 1 line 27 returns to noWait; a TB that already lost a warp is by the definition
	 * of Sec III ("finishWait if at least one of its warps has finished") in finishWait. */
	if (st->fast)
		tb->state = tb->n_fin > 0 ? SCHED_PRO_FINISHWAIT : SCHED_PRO_NOWAIT;
	else
		tb->state = SCHED_PRO_FINISHNOWAIT;
	rebuild_state_list(st, false);
	rebuild_state_list(st, true);
}

/* insertFinishWarp (Alg. 1 lines 1-15). */
static void pro_warp_exit(struct pro_state *st, const struct sched_core_view *core, uint16_t slot,
			  uint16_t warp_id)
{
	struct pro_tb *tb = &st->tb[slot];
	for (uint32_t i = 0; i < tb->n_warps; i++)
		if (tb->warps[i] == warp_id) {
			memmove(&tb->warps[i], &tb->warps[i + 1], (tb->n_warps - i - 1) * sizeof *tb->warps);
			tb->n_warps--;
			break;
		}
	pro_phase_update(st, core);
	tb->n_fin++;
	if (tb->n_fin == 1) {
		if (st->fast)
			tb->state = SCHED_PRO_FINISHWAIT;
		sort_warps(core, tb, true);
	}
	if (tb->n_fin >= tb->n_total)
		tb->state = SCHED_PRO_FINISHED;
	rebuild_state_list(st, true);
	rebuild_state_list(st, false);
}

static void pro_event(struct sched *s, const struct sched_event *ev)
{
	struct pro_state *st = s->state;
	const struct sched_core_view *core = s->core;
	int k;
	switch (ev->kind) {
	case SCHED_EV_KERNEL_START:
		memset(st, 0, sizeof *st);
		st->fast = true;
		st->last_sort = ev->cycle;
		break;
	case SCHED_EV_CTA_LAUNCH:
		pro_launch(st, core, ev->cta_slot);
		break;
	case SCHED_EV_WARP_ISSUE:
		k = tb_of_warp(st, ev->warp_id, ev->warp_id < core->max_warps ? core->warps[ev->warp_id].cta_slot : SCHED_NONE);
		if (k >= 0)
			st->tb[k].progress += ev->arg;
		break;
	case SCHED_EV_BARRIER_ARRIVE:
		k = tb_of_warp(st, ev->warp_id, ev->cta_slot);
		if (k >= 0)
			pro_barrier_arrive(st, core, (uint16_t)k);
		break;
	case SCHED_EV_BARRIER_RELEASE:
		if (ev->cta_slot < SCHED_MAX_CTAS)
			pro_barrier_release(st, core, ev->cta_slot);
		break;
	case SCHED_EV_WARP_EXIT:
		k = tb_of_warp(st, ev->warp_id, ev->cta_slot);
		if (k >= 0)
			pro_warp_exit(st, core, (uint16_t)k, ev->warp_id);
		break;
	case SCHED_EV_CTA_FINISH:
		if (ev->cta_slot < SCHED_MAX_CTAS) {
			st->tb[ev->cta_slot].state = SCHED_PRO_NONE;
			st->tb[ev->cta_slot].n_warps = 0;
			list_remove(st->fin_order, &st->n_fin_order, ev->cta_slot);
			list_remove(st->bar_order, &st->n_bar_order, ev->cta_slot);
			list_remove(st->rem_order, &st->n_rem, ev->cta_slot);
		}
		break;
	default:
		break;
	}
}

/* sortTBs + sortWarps on the remaining TBs (Alg. 1 lines 57-61; Sec III-C 1 and III-D):
 * fastTBPhase noWait TBs and their warps by decreasing progress, slowTBPhase finishNoWait
 * TBs and their warps by increasing progress; equal progress by TB index. Every live TB
 * keeps a place in this order so one leaving a wait state returns to it. */
static void pro_sort_rem(struct pro_state *st, const struct sched_core_view *core)
{
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t i = 0; i < st->n_rem; i++)
		key[st->rem_order[i]] = st->tb[st->rem_order[i]].cta_id;
	sched_sort_by_key(st->rem_order, st->n_rem, key);
	for (uint32_t i = 0; i < st->n_rem; i++) {
		uint64_t p = st->tb[st->rem_order[i]].progress;
		key[st->rem_order[i]] = st->fast ? UINT64_MAX - p : p;
	}
	sched_sort_by_key(st->rem_order, st->n_rem, key);
	for (uint32_t i = 0; i < st->n_rem; i++) {
		struct pro_tb *tb = &st->tb[st->rem_order[i]];
		if (is_rem_state(tb->state))
			sort_warps(core, tb, tb->state == SCHED_PRO_FINISHNOWAIT);
	}
}

/* Adopt CTAs whose launch event was not seen (robustness; normally a no-op). */
static void pro_sync(struct pro_state *st, const struct sched_core_view *core)
{
	uint64_t checked = 0;
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (!v->valid || v->cta_slot >= SCHED_MAX_CTAS || (checked & (1ull << v->cta_slot)))
			continue;
		checked |= 1ull << v->cta_slot;
		const struct pro_tb *tb = &st->tb[v->cta_slot];
		if (tb->state == SCHED_PRO_NONE || tb->launch_seq != v->cta_launch_seq)
			pro_launch(st, core, v->cta_slot);
	}
}

static void emit_tb(const struct pro_tb *tb, uint64_t in, uint64_t *placed, uint16_t *ids, uint32_t *out)
{
	for (uint32_t i = 0; i < tb->n_warps; i++) {
		uint16_t w = tb->warps[i];
		if ((in & (1ull << w)) && !(*placed & (1ull << w))) {
			*placed |= 1ull << w;
			ids[(*out)++] = w;
		}
	}
}

/* scheduleWarps (Alg. 1 lines 35-63). */
static void pro_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)si;
	struct pro_state *st = s->state;
	const struct sched_core_view *core = s->core;
	const struct sched_params *p = sched_params_of(s);
	s->rank_issuable = 0;
	pro_sync(st, core);
	pro_phase_update(st, core);
	if (now > st->last_sort && now - st->last_sort > p->pro_threshold_cycles) {
		st->last_sort = now;
		pro_sort_rem(st, core);
	}
	uint64_t in = 0, placed = 0;
	uint64_t age[SCHED_MAX_WARPS];
	for (uint32_t i = 0; i < n; i++) {
		in |= 1ull << ids[i];
		age[ids[i]] = core->warps[ids[i]].age;
	}
	uint16_t orig[SCHED_MAX_WARPS];
	memcpy(orig, ids, n * sizeof *ids);
	uint32_t out = 0;
	for (uint32_t i = 0; i < st->n_fin_order; i++)
		if (st->tb[st->fin_order[i]].state == SCHED_PRO_FINISHWAIT)
			emit_tb(&st->tb[st->fin_order[i]], in, &placed, ids, &out);
	for (uint32_t i = 0; i < st->n_bar_order; i++) {
		uint8_t bs = st->tb[st->bar_order[i]].state;
		if (bs == SCHED_PRO_BARRIERWAIT || bs == SCHED_PRO_BARRIERWAIT1)
			emit_tb(&st->tb[st->bar_order[i]], in, &placed, ids, &out);
	}
	for (uint32_t i = 0; i < st->n_rem; i++)
		if (is_rem_state(st->tb[st->rem_order[i]].state))
			emit_tb(&st->tb[st->rem_order[i]], in, &placed, ids, &out);
	/* Warps of no known TB (finished TBs' stragglers): after the rest, oldest first. */
	uint32_t tail = out;
	for (uint32_t i = 0; i < n; i++)
		if (!(placed & (1ull << orig[i])))
			ids[out++] = orig[i];
	sched_sort_by_key(ids + tail, out - tail, age);
	SIM_ASSERT(out == n);
}

enum sched_pro_state sched_pro_tb_state(const struct sched *s, uint16_t cta_slot)
{
	const struct pro_state *st = s->state;
	return cta_slot < SCHED_MAX_CTAS ? (enum sched_pro_state)st->tb[cta_slot].state : SCHED_PRO_NONE;
}

bool sched_pro_fast_phase(const struct sched *s)
{
	return ((const struct pro_state *)s->state)->fast;
}

uint64_t sched_pro_last_sort_cycle(const struct sched *s)
{
	return ((const struct pro_state *)s->state)->last_sort;
}

const struct sched_ops sched_pro_ops = { "pro", pro_init, pro_event, pro_rank, pro_fini, 0, NULL, NULL };
