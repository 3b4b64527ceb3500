/* SPDX-License-Identifier: MIT */
/* scheduler/sched_base.c: lrr, gto, oldest issue; rr, fef, cff fetch; registry errors. */
#include "sched_test_util.h"

Test(sched_base, lrr_hand_worked_sequence)
{
	/* 4 warps, one scheduler. w1 is not ready in cycles 1 and 2.
	 * c0: order 0123 -> w0; c1: after w0 -> 1230, w1 stalled -> w2;
	 * c2: after w2 -> 3012 -> w3; c3 (w1 ready again): after w3 -> 0123 -> w0;
	 * c4: 1230 -> w1. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 4);
	tcore_add_cta(&t, 0, 0, 0, 0, 4);
	struct sched *s = tmake_issue(&t, "lrr");
	int seq[5];
	for (int c = 0; c < 5; c++) {
		t.w[1].ready = !(c == 1 || c == 2);
		seq[c] = tstep(s, &t, 0, (uint64_t)c);
	}
	int want[5] = { 0, 2, 3, 0, 1 };
	for (int c = 0; c < 5; c++)
		cr_expect_eq(seq[c], want[c], "cycle %d: issued w%d, want w%d", c, seq[c], want[c]);
	sched_destroy(s);
}

Test(sched_base, gto_hand_worked_sequence)
{
	/* Slots 0,1 hold the younger CTA (launch seq 1), slots 2,3 the older one (seq 0), so
	 * age order is w2 w3 w0 w1. c0: no greedy warp -> oldest w2; c1: w2 again (greedy);
	 * c2: w2 stalls -> oldest ready w3; c3: w3 greedy; c4: w3 stalls, w2 back -> w2. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 2);
	tcore_add_cta(&t, 0, 1, 1, 0, 2);
	tcore_add_cta(&t, 1, 0, 0, 2, 2);
	struct sched *s = tmake_issue(&t, "gto");
	int got[5];
	got[0] = tstep(s, &t, 0, 0);
	got[1] = tstep(s, &t, 0, 1);
	t.w[2].ready = false;
	got[2] = tstep(s, &t, 0, 2);
	got[3] = tstep(s, &t, 0, 3);
	t.w[2].ready = true;
	t.w[3].ready = false;
	got[4] = tstep(s, &t, 0, 4);
	int want[5] = { 2, 2, 3, 3, 2 };
	for (int c = 0; c < 5; c++)
		cr_expect_eq(got[c], want[c], "cycle %d: issued w%d, want w%d", c, got[c], want[c]);
	sched_destroy(s);
}

Test(sched_base, oldest_ignores_last_issued)
{
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 2);
	tcore_add_cta(&t, 0, 1, 1, 0, 2);
	tcore_add_cta(&t, 1, 0, 0, 2, 2);
	struct sched *s = tmake_issue(&t, "oldest");
	tev(s, SCHED_EV_WARP_ISSUE, 1, 0, 32, 0);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	uint16_t want[4] = { 2, 3, 0, 1 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(ids[i], want[i], "pos %d: w%u want w%u", i, ids[i], want[i]);
	sched_destroy(s);
}

Test(sched_base, lrr_per_scheduler_with_two_schedulers)
{
	/* Fermi: even warps on scheduler 0, odd on 1. Scheduler 0 issued w2: its order
	 * continues at w4 then wraps to w0 and w2; scheduler 1 is untouched: 1 3 5. */
	struct tcore t;
	tcore_init(&t, 0, 1, 2, 6, 6);
	tcore_add_cta(&t, 0, 0, 0, 0, 6);
	struct sched *s = tmake_issue(&t, "lrr");
	tev(s, SCHED_EV_WARP_ISSUE, 2, 0, 32, 0);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	cr_expect(ids[0] == 4 && ids[1] == 0 && ids[2] == 2);
	trank(s, &t, 1, 1, ids);
	cr_expect(ids[0] == 1 && ids[1] == 3 && ids[2] == 5);
	sched_destroy(s);
}

static struct sched *make_fetch(struct tcore *t, const char *fetch, struct sched *issue)
{
	struct sched_params p;
	sched_params_default(&p);
	snprintf(p.fetch, sizeof p.fetch, "%s", fetch);
	return tmake(t, &p, true, issue);
}

Test(sched_base, rr_fetch_rotates_after_last_fetched)
{
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 4);
	tcore_add_cta(&t, 0, 0, 0, 0, 4);
	struct sched *f = make_fetch(&t, "rr", NULL);
	tev(f, SCHED_EV_FETCH, 1, 0, 0, 0);
	uint16_t ids[4] = { 0, 1, 2, 3 };
	sched_rank(f, 0, 1, ids, 4);
	uint16_t want[4] = { 2, 3, 0, 1 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(ids[i], want[i]);
	sched_destroy(f);
}

Test(sched_base, fef_fewest_ibuffer_entries_first)
{
	/* I-buffer entries w0..w3 = 2,0,1,0; last fetched w1, so ties (w1, w3 with 0) go in
	 * round-robin order from w2: w3 then w1. Result: w3 w1 w2 w0. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 4);
	tcore_add_cta(&t, 0, 0, 0, 0, 4);
	t.w[0].ibuf_count = 2;
	t.w[1].ibuf_count = 0;
	t.w[2].ibuf_count = 1;
	t.w[3].ibuf_count = 0;
	struct sched *f = make_fetch(&t, "fef", NULL);
	tev(f, SCHED_EV_FETCH, 1, 0, 0, 0);
	uint16_t ids[4] = { 0, 1, 2, 3 };
	sched_rank(f, 0, 1, ids, 4);
	uint16_t want[4] = { 3, 1, 2, 0 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(ids[i], want[i], "pos %d: w%u want w%u", i, ids[i], want[i]);
	sched_destroy(f);
}

Test(sched_base, cff_with_gto_fetches_current_warp_then_oldest)
{
	/* BAWS Sec 4.2: with GTO, CFF fetches for the warp currently selected at issue (w3,
	 * issued last), else the oldest (w2, then w0 w1 of the younger CTA). */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 2);
	tcore_add_cta(&t, 0, 1, 1, 0, 2);
	tcore_add_cta(&t, 1, 0, 0, 2, 2);
	struct sched *is = tmake_issue(&t, "gto");
	struct sched *f = make_fetch(&t, "cff", is);
	tev(is, SCHED_EV_WARP_ISSUE, 3, 1, 32, 0);
	uint16_t ids[4] = { 0, 1, 2, 3 };
	sched_rank(f, 0, 1, ids, 4);
	uint16_t want[4] = { 3, 2, 0, 1 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(ids[i], want[i], "pos %d: w%u want w%u", i, ids[i], want[i]);
	sched_destroy(f);
	sched_destroy(is);
}

Test(sched_base, unknown_names_are_config_errors)
{
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 4);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "fifo");
	struct sim_error err = { 0 };
	cr_assert_null(sched_create_params(&p, false, &t.core, NULL, &err));
	cr_expect_eq(err.code, SIM_ERR_CONFIG);
	cr_expect_str_eq(err.setting, "gpu.core.scheduler.policy");
	cr_expect(strstr(err.msg, "fifo") != NULL, "%s", err.msg);
	sched_params_default(&p);
	strcpy(p.fetch, "cff");
	cr_assert_null(sched_create_params(&p, true, &t.core, NULL, &err), "cff needs an issue policy");
	cr_expect_eq(err.code, SIM_ERR_CONFIG);
}

Test(sched_base, every_policy_ranks_a_permutation)
{
	/* Every registered policy returns a permutation of its input (policy.h contract). */
	struct tcore t;
	tcore_init(&t, 1, 4, 2, 16, 4);
	for (uint16_t k = 0; k < 4; k++)
		tcore_add_cta(&t, k, k, k, (uint16_t)(4 * k), 4);
	tblock(&t, 3, true);
	t.w[5].at_barrier = true;
	t.w[5].ready = false;
	for (const char *const *nm = sched_issue_names(); *nm; nm++) {
		struct sched *s = tmake_issue(&t, *nm);
		for (uint32_t si = 0; si < 2; si++) {
			uint16_t ids[SCHED_MAX_WARPS];
			uint32_t n = trank(s, &t, si, 5, ids);
			uint64_t seen = 0;
			for (uint32_t i = 0; i < n; i++) {
				cr_expect_eq(t.w[ids[i]].sched_idx, si, "%s", *nm);
				seen |= 1ull << ids[i];
			}
			cr_expect_eq(__builtin_popcountll(seen), (int)n, "%s: not a permutation", *nm);
			cr_expect(s->rank_issuable <= n, "%s", *nm);
		}
		sched_destroy(s);
	}
}

/* sched_ops.first (the SM's shortcut) against rank(): for random subsets of the warps after
 * random issue / fetch histories, first() is the head of rank() over the subset. */
static void check_first(struct sched *s, struct tcore *t, uint32_t n_sched, bool fetch)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (int it = 0; it < 4000; it++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		uint16_t w = (uint16_t)((rng >> 33) % t->core.max_warps);
		tev(s, fetch ? SCHED_EV_FETCH : SCHED_EV_WARP_ISSUE, w, t->w[w].cta_slot, 32, (uint64_t)it);
		uint32_t si = fetch ? 0 : (uint32_t)((rng >> 20) % n_sched);
		uint64_t mask = 0;
		uint16_t ids[SCHED_MAX_WARPS];
		uint32_t n = 0;
		for (uint16_t k = 0; k < t->core.max_warps; k++)
			if ((fetch || k % n_sched == si) && (rng >> (k % 61) & 1)) {
				mask |= 1ull << k;
				ids[n++] = k;
			}
		if (!n)
			continue;
		sched_rank(s, si, (uint64_t)it, ids, n);
		cr_assert_eq(s->ops->first(s, si, mask), ids[0], "%s iteration %d", s->ops->name, it);
	}
}

Test(sched_base, first_is_the_head_of_the_ranking)
{
	static const char *const issue[] = { "lrr", "gto", "oldest" };
	for (size_t i = 0; i < sizeof issue / sizeof issue[0]; i++)
		for (uint32_t n_sched = 1; n_sched <= 2; n_sched++) {
			struct tcore t;
			tcore_init(&t, 0, 1, n_sched, 48, 8);
			for (uint16_t c = 0; c < 6; c++)
				tcore_add_cta(&t, c, 100u - c, (uint64_t)(5 - c) * 3, (uint16_t)(c * 8), 8);
			struct sched *s = tmake_issue(&t, issue[i]);
			cr_assert_not_null(s->ops->first);
			check_first(s, &t, n_sched, false);
			sched_destroy(s);
		}
	struct tcore t;
	tcore_init(&t, 0, 1, 2, 48, 8);
	for (uint16_t c = 0; c < 6; c++)
		tcore_add_cta(&t, c, c, c, (uint16_t)(c * 8), 8);
	struct sched *f = make_fetch(&t, "rr", NULL);
	cr_assert_not_null(f->ops->first);
	check_first(f, &t, 2, true);
	sched_destroy(f);
}
