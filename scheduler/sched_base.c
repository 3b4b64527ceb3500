/* SPDX-License-Identifier: MIT */
/* Baseline policies: issue lrr, gto, oldest (BAWS Sec 2.2 descriptions) and fetch rr, cff
 * (BAWS Sec 4.2) and fef (BAWS Sec 6.2). */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

struct base_state {
	struct sched_last last;   /* per issue scheduler: last issued warp */
	uint16_t last_fetched;    /* fetch policies: last warp fetched (SCHED_NONE: none) */
};

static int base_init(struct sched *s, const struct cfg *cfg, struct sim_error *err)
{
	(void)cfg;
	struct base_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	sched_last_reset(&st->last);
	st->last_fetched = SCHED_NONE;
	s->state = st;
	return 0;
}

static void base_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

static void base_event(struct sched *s, const struct sched_event *ev)
{
	struct base_state *st = s->state;
	if (ev->kind == SCHED_EV_WARP_ISSUE)
		sched_last_note(&st->last, s->core, ev->warp_id);
	else if (ev->kind == SCHED_EV_FETCH)
		st->last_fetched = ev->warp_id;
}

static uint64_t lrr_keys(struct sched *s, uint32_t si, const uint16_t *ids, uint32_t n, uint64_t *key)
{
	sched_key_lrr(&((struct base_state *)s->state)->last, si, ids, n, key);
	return UINT64_MAX;
}

static uint64_t gto_keys(struct sched *s, uint32_t si, const uint16_t *ids, uint32_t n, uint64_t *key)
{
	sched_key_gto(&((struct base_state *)s->state)->last, s->core, si, ids, n, key);
	return UINT64_MAX;
}

static uint64_t oldest_keys(struct sched *s, uint32_t si, const uint16_t *ids, uint32_t n, uint64_t *key)
{
	(void)si;
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = s->core->warps[ids[i]].age;
	return UINT64_MAX;
}

/* The `first` ops (policy.h): the smallest key of the mask without computing the others. */
static uint16_t lrr_first(struct sched *s, uint32_t si, uint64_t warps)
{
	return sched_first_rot(warps, sched_last_lrr_start(&((struct base_state *)s->state)->last, si));
}

static uint16_t oldest_in(const struct sched_core_view *core, uint64_t warps)
{
	uint16_t best = (uint16_t)__builtin_ctzll(warps);
	for (uint64_t m = warps & (warps - 1); m; m &= m - 1) {
		uint16_t w = (uint16_t)__builtin_ctzll(m);
		if (core->warps[w].age < core->warps[best].age)
			best = w;
	}
	return best;
}

static uint16_t gto_first(struct sched *s, uint32_t si, uint64_t warps)
{
	uint16_t greedy = sched_last_get(&((struct base_state *)s->state)->last, s->core, si);
	if (greedy != SCHED_NONE && (warps >> greedy & 1))
		return greedy;
	/* gto's key 1 + (age & (UINT64_MAX >> 2)): ages stay far below 2^62 (launch seq * 65536). */
	return oldest_in(s->core, warps);
}

static uint16_t oldest_first(struct sched *s, uint32_t si, uint64_t warps)
{
	(void)si;
	return oldest_in(s->core, warps);
}

/* LRR: round-robin from the warp after the one issued last (BAWS Sec 2.2: "If a warp
 * cannot be issued, the next warp in round-robin order is to be issued"). */
static void lrr_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	uint64_t *key = sched_key_scratch(s);
	lrr_keys(s, si, ids, n, key);
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

/* GTO: run the last issued warp until it stalls, then the oldest (BAWS Sec 2.2). */
static void gto_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	uint64_t *key = sched_key_scratch(s);
	gto_keys(s, si, ids, n, key);
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

static void oldest_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	uint64_t *key = sched_key_scratch(s);
	oldest_keys(s, si, ids, n, key);
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

const struct sched_ops sched_lrr_ops = { "lrr", base_init, base_event, lrr_rank, base_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, lrr_keys, lrr_first };
const struct sched_ops sched_gto_ops = { "gto", base_init, base_event, gto_rank, base_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, gto_keys, gto_first };
const struct sched_ops sched_oldest_ops = { "oldest", base_init, base_event, oldest_rank, base_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, oldest_keys, oldest_first };

/* ---- fetch ---- */

static uint32_t fetch_start(const struct base_state *st)
{
	return st->last_fetched == SCHED_NONE ? 0 : (st->last_fetched + 1u) % SCHED_MAX_WARPS;
}

/* RR fetch: round-robin over all warps from the one after the last fetched (BAWS Sec 2.2). */
static void rr_fetch_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)si;
	(void)now;
	struct base_state *st = s->state;
	uint64_t *key = sched_key_scratch(s);
	uint32_t start = fetch_start(st);
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = sched_rot(ids[i], start);
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

static uint16_t rr_fetch_first(struct sched *s, uint32_t si, uint64_t warps)
{
	(void)si;
	return sched_first_rot(warps, fetch_start(s->state));
}

/* FEF: fewest I-buffer entries first (BAWS Sec 6.2); ties in round-robin fetch order. A warp
 * with a free I-buffer slot may fetch (SCHED_FETCH_PARTIAL): with only empty I-buffers eligible
 * (BAWS Sec 2.2) every candidate would tie at 0 and FEF would be rr. */
static void fef_fetch_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)si;
	(void)now;
	struct base_state *st = s->state;
	uint64_t *key = sched_key_scratch(s);
	uint32_t start = fetch_start(st);
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = ((uint64_t)s->core->warps[ids[i]].ibuf_count << 8) | sched_rot(ids[i], start);
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

/* CFF: fetch for the warp the issue policy will pick next (BAWS Sec 4.2). The issue policy
 * ranks each scheduler's warps; the fetch order takes every scheduler's first choice, then
 * every second choice, and so on, so each scheduler's critical warp is fetched first. With
 * GTO as the issue policy this is "the warp currently selected, else the oldest". */
static void cff_fetch_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)si;
	struct sched *is = s->issue;
	const struct sched_core_view *core = s->core;
	uint32_t nsched = core->n_schedulers ? core->n_schedulers : 1;
	if (nsched > SCHED_MAX_SCHEDULERS)
		nsched = SCHED_MAX_SCHEDULERS;
	uint16_t sub[SCHED_MAX_SCHEDULERS][SCHED_MAX_WARPS];
	uint32_t cnt[SCHED_MAX_SCHEDULERS] = { 0 };
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = core->warps[ids[i]].sched_idx % nsched;
		sub[k][cnt[k]++] = ids[i];
	}
	/* The issue policy's last ranking limit belongs to the SM's issue stage: keep it. */
	uint32_t saved = is->rank_issuable;
	for (uint32_t k = 0; k < nsched; k++)
		if (cnt[k])
			is->ops->rank(is, k, now, sub[k], cnt[k]);
	is->rank_issuable = saved;
	uint32_t out = 0;
	for (uint32_t pos = 0; out < n; pos++)
		for (uint32_t k = 0; k < nsched; k++)
			if (pos < cnt[k])
				ids[out++] = sub[k][pos];
	s->rank_issuable = 0;
}

const struct sched_ops sched_fetch_rr_ops = { "rr", base_init, base_event, rr_fetch_rank, base_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, NULL, rr_fetch_first };
const struct sched_ops sched_fetch_fef_ops = { "fef", base_init, base_event, fef_fetch_rank, base_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT | SCHED_FETCH_PARTIAL, NULL, NULL };
const struct sched_ops sched_fetch_cff_ops = { "cff", base_init, base_event, cff_fetch_rank, base_fini, 0, NULL, NULL };
