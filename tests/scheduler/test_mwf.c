/* SPDX-License-Identifier: MIT */
/* scheduler/sched_mwf.c: BAWS MWF(LRR), MWF(GTO) and CFF on the Fig 7 example; SAWS. */
#include "sched_test_util.h"

/* BAWS Fig 7: TB0 = w0-w3, TB1 = w4-w7, TB2 = w8-w11 (slots 0..2, TB id = launch order).
 * At the barrier: TB0 w2 (1 warp), TB1 w5 w7 (2), TB2 w9 w10 w11 (3). Issued before: w0 of
 * TB0, then w7 of TB1 in the last cycle (it has just reached the barrier). */
static void fig7(struct tcore *t, uint32_t n_tbs)
{
	tcore_init(t, 0, 1, 1, 4 * n_tbs, 4);
	for (uint16_t k = 0; k < n_tbs; k++)
		tcore_add_cta(t, k, k, k, (uint16_t)(4 * k), 4);
	static const uint16_t at_bar[] = { 2, 5, 7, 9, 10, 11 };
	for (size_t i = 0; i < SIM_ARRAY_LEN(at_bar); i++) {
		t->w[at_bar[i]].at_barrier = true;
		t->w[at_bar[i]].ready = false;
	}
}

static void fig7_history(struct sched *s)
{
	tev(s, SCHED_EV_WARP_ISSUE, 0, 0, 32, 10);
	tev(s, SCHED_EV_WARP_ISSUE, 7, 1, 32, 11);
}

static void expect_prefix(const uint16_t *ids, const uint16_t *want, int n)
{
	for (int i = 0; i < n; i++)
		cr_expect_eq(ids[i], want[i], "position %d: w%u, want w%u", i, ids[i], want[i]);
}

Test(mwf, lrr_fig7_order)
{
	/* TB2 (3 waiting) > TB1 (2) > TB0 (1). TB2: w8. TB1 LRR after w7: w4, w6.
	 * TB0 LRR after w0: w1, w3, w0. Paper: w8, w4, w6, w1, w3, w0. */
	struct tcore t;
	fig7(&t, 3);
	struct sched *s = tmake_issue(&t, "mwf-lrr");
	fig7_history(s);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 12, ids);
	static const uint16_t want[] = { 8, 4, 6, 1, 3, 0 };
	expect_prefix(ids, want, 6);
	sched_destroy(s);
}

Test(mwf, tie_goes_to_smaller_tb_id)
{
	/* A TB3 (w12-w15) with two warps waiting (w13, w14) ties with TB1: TB1 first.
	 * TB3 has issued nothing, so LRR starts at its first warp: w12, w15. */
	struct tcore t;
	fig7(&t, 4);
	t.w[13].at_barrier = t.w[14].at_barrier = true;
	t.w[13].ready = t.w[14].ready = false;
	struct sched *s = tmake_issue(&t, "mwf-lrr");
	fig7_history(s);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 12, ids);
	static const uint16_t want[] = { 8, 4, 6, 12, 15, 1, 3, 0 };
	expect_prefix(ids, want, 8);
	sched_destroy(s);
}

Test(mwf, a_tbs_finished_warps_wait_at_its_exit_barrier)
{
	/* BAWS Fig 3/4: a TB's exit point is its last barrier. Fig 7's TBs, but TB0's w0 and w1
	 * have exited (the SM reports WARP_EXIT and the slots turn invalid) and TB0's w2 waits at
	 * bar.sync: TB0 has 3 warps waiting, as many as TB2, and the tie goes to the smaller TB
	 * id: TB0 first (w3), then TB2 (w8), then TB1 (w4, w6). Counting bar.sync alone gave TB0
	 * 1 and the order w8, w4, w6, w3. */
	struct tcore t;
	fig7(&t, 3);
	struct sched *s = tmake_issue(&t, "mwf-lrr");
	fig7_history(s);
	tev(s, SCHED_EV_WARP_EXIT, 0, 0, 0, 12);
	tev(s, SCHED_EV_WARP_EXIT, 1, 0, 0, 12);
	t.w[0].valid = t.w[1].valid = false;
	t.w[0].ready = t.w[1].ready = false;
	uint16_t ids[SCHED_MAX_WARPS];
	uint32_t n = trank(s, &t, 0, 13, ids);
	cr_assert_eq(n, 10);
	static const uint16_t want[] = { 3, 8, 4, 6 };
	expect_prefix(ids, want, 4);
	/* A new TB in slot 0 starts with nothing waiting. */
	tev(s, SCHED_EV_CTA_FINISH, 0, 0, 0, 14);
	tcore_add_cta(&t, 0, 3, 3, 0, 4);
	tev(s, SCHED_EV_CTA_LAUNCH, 0, 0, 3, 14);
	trank(s, &t, 0, 15, ids);
	static const uint16_t want2[] = { 8, 4, 6 };
	expect_prefix(ids, want2, 3);
	sched_destroy(s);
}

Test(mwf, gto_fig7_order)
{
	/* MWF(GTO): inside a TB the last issued warp, then oldest. TB1's last (w7) is at the
	 * barrier, so w4, w6; TB0's last is w0: w0, w1, w3. */
	struct tcore t;
	fig7(&t, 3);
	struct sched *s = tmake_issue(&t, "mwf-gto");
	fig7_history(s);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 12, ids);
	static const uint16_t want[] = { 8, 4, 6, 0, 1, 3 };
	expect_prefix(ids, want, 6);
	sched_destroy(s);
}

Test(mwf, cff_fetches_for_mwf_next_warp)
{
	/* CFF (Sec 4.2): the fetch unit picks the warp MWF issues next: w8, then w4. */
	struct tcore t;
	fig7(&t, 3);
	struct sched *is = tmake_issue(&t, "mwf-lrr");
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.fetch, "cff");
	struct sched *f = tmake(&t, &p, true, is);
	fig7_history(is);
	uint16_t ids[SCHED_MAX_WARPS];
	uint32_t n = 0;
	for (uint16_t w = 0; w < 12; w++)
		ids[n++] = w;
	sched_rank(f, 0, 12, ids, n);
	cr_expect_eq(ids[0], 8);
	cr_expect_eq(ids[1], 4);
	sched_destroy(f);
	sched_destroy(is);
}

Test(mwf, shared_table_across_schedulers)
{
	/* Two schedulers (even/odd). Scheduler 1 owns w1 w3 w5 w7 w9 w11; the TB priorities
	 * count barrier waiters of the whole SM, so TB2 (w9, w11 and w10 on scheduler 0
	 * waiting) still ranks first: no running warp of TB2 on scheduler 1, then TB1: none
	 * running either (w5, w7 wait), then TB0: w1, w3. */
	struct tcore t;
	fig7(&t, 3);
	t.core.n_schedulers = 2;
	for (uint16_t w = 0; w < 12; w++)
		t.w[w].sched_idx = w % 2;
	struct sched *s = tmake_issue(&t, "mwf-lrr");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	static const uint16_t want0[] = { 8, 4, 6, 0 };   /* TB2 w8; TB1 w4 w6; TB0 w0 (w2 waits) */
	expect_prefix(ids, want0, 4);
	trank(s, &t, 1, 1, ids);
	static const uint16_t want1[] = { 1, 3 };
	expect_prefix(ids, want1, 2);
	sched_destroy(s);
}

Test(mwf, no_barrier_orders_by_tb_or_base)
{
	/* Nobody at a barrier. tb-order: every TB has priority 0, ties to TB0 first: after w5
	 * issued, TB0 w0 w1 w2 w3 then TB1 (LRR after w5): w6 w7 w4. base: plain LRR after w5. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 8, 4);
	tcore_add_cta(&t, 0, 0, 0, 0, 4);
	tcore_add_cta(&t, 1, 1, 1, 4, 4);
	struct sched *s = tmake_issue(&t, "mwf-lrr");
	tev(s, SCHED_EV_WARP_ISSUE, 5, 1, 32, 0);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	static const uint16_t want_tb[] = { 0, 1, 2, 3, 6, 7, 4, 5 };
	expect_prefix(ids, want_tb, 8);
	sched_destroy(s);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "mwf-lrr");
	p.mwf_idle = SCHED_MWF_IDLE_BASE;
	s = tmake(&t, &p, false, NULL);
	tev(s, SCHED_EV_WARP_ISSUE, 5, 1, 32, 0);
	trank(s, &t, 0, 1, ids);
	static const uint16_t want_base[] = { 6, 7, 0, 1, 2, 3, 4, 5 };
	expect_prefix(ids, want_base, 8);
	sched_destroy(s);
}

Test(saws, first_hit_time_orders_tbs)
{
	/* BAWS Sec 6.6 / Fig 13: TB0 hits its barrier first (t0), TB1 at t1, TB2 at t2. SAWS
	 * keeps TB0 on top although TB2 has the most warps waiting; GTO inside each TB. */
	struct tcore t;
	fig7(&t, 3);
	struct sched *s = tmake_issue(&t, "saws");
	tev(s, SCHED_EV_BARRIER_ARRIVE, 2, 0, 0, 5);
	tev(s, SCHED_EV_BARRIER_ARRIVE, 5, 1, 0, 7);
	tev(s, SCHED_EV_BARRIER_ARRIVE, 7, 1, 0, 8);
	tev(s, SCHED_EV_BARRIER_ARRIVE, 9, 2, 0, 9);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 12, ids);
	static const uint16_t want[] = { 0, 1, 3, 4, 6, 8 };
	expect_prefix(ids, want, 6);
	/* TB0's barrier releases: it drops behind the TBs still at a barrier. */
	tev(s, SCHED_EV_BARRIER_RELEASE, 0, 0, 0, 13);
	t.w[2].at_barrier = false;
	t.w[2].ready = true;
	trank(s, &t, 0, 14, ids);
	static const uint16_t want2[] = { 4, 6, 8, 0, 1, 2, 3 };
	expect_prefix(ids, want2, 7);
	sched_destroy(s);
}
