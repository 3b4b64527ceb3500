/* SPDX-License-Identifier: MIT */
/* Test scaffolding for scheduler policies: a hand-built sched_core_view, event helpers and a
 * tiny "SM" step that issues the first ready warp of a ranking. */
#ifndef WARPSIM_TEST_SCHED_UTIL_H
#define WARPSIM_TEST_SCHED_UTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "scheduler/sched_internal.h"

struct tcore {
	struct sched_warp_view w[SCHED_MAX_WARPS];
	struct sched_core_view core;
	bool ctas_waiting;
};

static bool tcore_waiting(const void *ctx)
{
	return ((const struct tcore *)ctx)->ctas_waiting;
}

static inline void tcore_init(struct tcore *t, uint32_t core_id, uint32_t n_cores, uint32_t n_sched,
			      uint32_t max_warps, uint32_t warps_per_cta)
{
	memset(t, 0, sizeof *t);
	for (uint32_t i = 0; i < SCHED_MAX_WARPS; i++)
		t->w[i].warp_id = (uint16_t)i;
	t->core.core_id = core_id;
	t->core.n_cores = n_cores;
	t->core.n_schedulers = n_sched;
	t->core.max_warps = max_warps;
	t->core.warps_per_cta = warps_per_cta;
	t->core.warps = t->w;
	t->core.ctas_waiting = tcore_waiting;
	t->core.dispatcher_ctx = t;
	t->ctas_waiting = true;
}

/* CTA in slot `slot` with warps first..first+n-1, all ready. */
static inline void tcore_add_cta(struct tcore *t, uint16_t slot, uint32_t cta_id, uint64_t seq,
				 uint16_t first, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		struct sched_warp_view *v = &t->w[first + j];
		memset(v, 0, sizeof *v);
		v->valid = true;
		v->warp_id = (uint16_t)(first + j);
		v->sched_idx = (uint16_t)((first + j) % t->core.n_schedulers);
		v->cta_slot = slot;
		v->warp_in_cta = (uint16_t)j;
		v->cta_id = cta_id;
		v->cta_launch_seq = seq;
		v->age = seq * 65536 + j;
		v->active_threads = 32;
		v->ready = true;
		v->ibuf_count = 1;
	}
}

/* The valid warps of scheduler si, in slot order (what the SM hands to rank()). */
static inline uint32_t tcore_ids(const struct tcore *t, uint32_t si, uint16_t *ids)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->core.max_warps; i++)
		if (t->w[i].valid && t->w[i].sched_idx == si)
			ids[n++] = (uint16_t)i;
	return n;
}

static inline struct sched *tmake(struct tcore *t, struct sched_params *p, bool fetch, struct sched *issue)
{
	struct sim_error err = { 0 };
	struct sched *s = sched_create_params(p, fetch, &t->core, issue, &err);
	cr_assert_not_null(s, "create %s: %s", fetch ? p->fetch : p->policy, err.msg);
	return s;
}

static inline struct sched *tmake_issue(struct tcore *t, const char *policy)
{
	struct sched_params p;
	sched_params_default(&p);
	snprintf(p.policy, sizeof p.policy, "%s", policy);
	return tmake(t, &p, false, NULL);
}

static inline void tev(struct sched *s, enum sched_event_kind k, uint16_t warp, uint16_t slot,
		       uint64_t arg, uint64_t cycle)
{
	struct sched_event ev = { .kind = k, .warp_id = warp, .cta_slot = slot, .arg = arg, .cycle = cycle };
	sched_notify(s, &ev);
}

/* core.blocked_mask from the views, as the SM keeps it (policy.h): after the test edits them. */
static inline void tcore_sync(struct tcore *t)
{
	t->core.blocked_mask = t->core.miss_mask = ~0ull;
	for (uint32_t i = 0; i < t->core.max_warps; i++) {
		if (!sched_warp_blocked(&t->w[i]))
			t->core.blocked_mask &= ~(1ull << i);
		if (t->w[i].valid && !t->w[i].waiting_miss)
			t->core.miss_mask &= ~(1ull << i);
	}
}

/* Rank scheduler si's warps into ids; returns n. */
static inline uint32_t trank(struct sched *s, struct tcore *t, uint32_t si, uint64_t cycle, uint16_t *ids)
{
	tcore_sync(t);
	uint32_t n = tcore_ids(t, si, ids);
	sched_rank(s, si, cycle, ids, n);
	return n;
}

/* One issue cycle: the first ready warp of the ranking (within rank_issuable) issues and the
 * policy is told. Returns the warp or -1. */
static inline int tstep(struct sched *s, struct tcore *t, uint32_t si, uint64_t cycle)
{
	uint16_t ids[SCHED_MAX_WARPS];
	uint32_t n = trank(s, t, si, cycle, ids);
	uint32_t lim = s->rank_issuable == SCHED_ISSUABLE_NONE ? 0 : s->rank_issuable ? s->rank_issuable : n;
	for (uint32_t i = 0; i < lim && i < n; i++)
		if (t->w[ids[i]].ready) {
			tev(s, SCHED_EV_WARP_ISSUE, ids[i], t->w[ids[i]].cta_slot, t->w[ids[i]].active_threads, cycle);
			return ids[i];
		}
	return -1;
}

/* Mark a warp waiting on a long-latency load that missed L1 (blocked) or back (ready). */
static inline void tblock(struct tcore *t, uint16_t w, bool blocked)
{
	t->w[w].waiting_long_lat = blocked;
	t->w[w].waiting_miss = blocked;
	t->w[w].long_lat_pending = blocked ? 1 : 0;
	t->w[w].ready = !blocked;
}

#endif
