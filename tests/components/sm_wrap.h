/* SPDX-License-Identifier: MIT */
/* SM tests: the configured issue and fetch policies behind wrappers that declare no
 * SCHED_RANK_* flag (so the SM simulates every cycle in full) and hand every event the SM
 * reports to the including test's sm_wrap_record(). Included by one test file each. */
#ifndef WARPSIM_TEST_SM_WRAP_H
#define WARPSIM_TEST_SM_WRAP_H

#include "scheduler/policy.h"

/* Defined by the including test: log what it needs of an issue-policy event. */
static void sm_wrap_record(const struct sched *s, const struct sched_event *ev);

static int wrap_issue_init(struct sched *s, const struct cfg *cfg, struct sim_error *err)
{
	struct sched *in = sched_issue_create(cfg, s->core, err);
	if (!in)
		return err->code;
	s->state = in;
	return 0;
}
static void wrap_event(struct sched *s, const struct sched_event *ev)
{
	sm_wrap_record(s, ev);
	sched_notify(s->state, ev);
}
/* Rank calls that found core.blocked_mask out of step with the views (policy.h). */
static unsigned long sm_wrap_mask_errors;

static void wrap_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	struct sched *in = s->state;
	const struct sched_core_view *core = s->core;
	uint64_t want = ~0ull, want_miss = ~0ull;
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (v->valid && !v->waiting_long_lat && !v->at_barrier)
			want &= ~(1ull << w);
		if (v->valid && !v->waiting_miss)
			want_miss &= ~(1ull << w);
	}
	sm_wrap_mask_errors += core->blocked_mask != want || core->miss_mask != want_miss;
	in->rank_issuable = 0;
	sched_rank(in, si, now, ids, n);
	s->rank_issuable = in->rank_issuable;
}
static void wrap_fini(struct sched *s) { sched_destroy(s->state); }
static const struct sched_ops wrap_issue_ops = {"rec-issue", wrap_issue_init, wrap_event, wrap_rank, wrap_fini, 0, NULL, NULL };

static int wrap_fetch_init(struct sched *s, const struct cfg *cfg, struct sim_error *err)
{
	struct sched *in = sched_fetch_create(cfg, s->core, s->issue->state, err);
	if (!in)
		return err->code;
	s->state = in;
	s->fetch_partial = in->fetch_partial;
	return 0;
}
static void fwd_event(struct sched *s, const struct sched_event *ev) { sched_notify(s->state, ev); }
static const struct sched_ops wrap_fetch_ops = {"rec-fetch", wrap_fetch_init, fwd_event, wrap_rank, wrap_fini, 0, NULL, NULL };
/* The same for a fetch policy with SCHED_FETCH_PARTIAL (fef): that flag changes what the SM
 * does, so a wrapper of such a policy must declare it. */
static const struct sched_ops wrap_fetch_partial_ops = {"rec-fetch-partial", wrap_fetch_init, fwd_event, wrap_rank,
							 wrap_fini, SCHED_FETCH_PARTIAL, NULL, NULL };

#endif
