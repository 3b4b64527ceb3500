/* SPDX-License-Identifier: MIT */
/* scheduler/sched_pro.c: PRO TB states (Fig 3), fast-to-slow merge, priorities, THRESHOLD sort. */
#include "sched_test_util.h"

static struct sched *pro_make(struct tcore *t, uint64_t threshold)
{
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "pro");
	p.pro_threshold_cycles = threshold;
	return tmake(t, &p, false, NULL);
}

/* n TBs of 4 warps in slots 0..n-1 (TB k = warps 4k..4k+3), launched and announced. */
static struct sched *pro_setup(struct tcore *t, uint32_t n, uint64_t threshold)
{
	tcore_init(t, 0, 1, 1, 4 * n, 4);
	struct sched *s = pro_make(t, threshold);
	tev(s, SCHED_EV_KERNEL_START, 0, 0, 0, 0);
	for (uint16_t k = 0; k < n; k++) {
		tcore_add_cta(t, k, k, k, (uint16_t)(4 * k), 4);
		tev(s, SCHED_EV_CTA_LAUNCH, 0, k, 0, 0);
	}
	return s;
}

static uint32_t cta_first(struct sched *s, struct tcore *t, uint64_t cycle)
{
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, t, 0, cycle, ids);
	return t->w[ids[0]].cta_slot;
}

static void arrive(struct sched *s, struct tcore *t, uint16_t w, uint64_t cycle)
{
	t->w[w].at_barrier = true;
	t->w[w].ready = false;
	tev(s, SCHED_EV_BARRIER_ARRIVE, w, t->w[w].cta_slot, 0, cycle);
}

static void release(struct sched *s, struct tcore *t, uint16_t slot, uint64_t cycle)
{
	for (uint32_t w = 0; w < t->core.max_warps; w++)
		if (t->w[w].cta_slot == slot && t->w[w].at_barrier) {
			t->w[w].at_barrier = false;
			t->w[w].ready = true;
		}
	tev(s, SCHED_EV_BARRIER_RELEASE, 0, slot, 0, cycle);
}

static void warp_exit(struct sched *s, struct tcore *t, uint16_t w, uint64_t cycle)
{
	t->w[w].valid = false;
	tev(s, SCHED_EV_WARP_EXIT, w, t->w[w].cta_slot, 0, cycle);
}

Test(pro, fig3_barrier_then_finish_in_fast_phase)
{
	struct tcore t;
	struct sched *s = pro_setup(&t, 1, 1000);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_NOWAIT, "beginExec -> noWait");
	arrive(s, &t, 1, 10);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_BARRIERWAIT, "warpAtBarrier");
	arrive(s, &t, 0, 11);
	arrive(s, &t, 2, 12);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_BARRIERWAIT);
	arrive(s, &t, 3, 13);
	release(s, &t, 0, 13);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_NOWAIT, "lastWarpAtBarrier -> noWait");
	warp_exit(s, &t, 2, 20);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_FINISHWAIT, "warpFin -> finishWait");
	warp_exit(s, &t, 0, 21);
	warp_exit(s, &t, 1, 22);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_FINISHWAIT);
	warp_exit(s, &t, 3, 23);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_FINISHED, "lastWarpFin -> Finish");
	tev(s, SCHED_EV_CTA_FINISH, 0, 0, 0, 23);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_NONE);
	sched_destroy(s);
}

Test(pro, fast_to_slow_merge_when_dispatcher_empties)
{
	/* TB0 noWait, TB1 finishWait (w4 exited), TB2 barrierWait (w8 at the barrier). The
	 * dispatcher empties: TB0 and TB1 merge into finishNoWait, TB2 goes to barrierWait1;
	 * its release leads to finishNoWait; a new barrier arrival to barrierWait1. */
	struct tcore t;
	struct sched *s = pro_setup(&t, 3, 1000);
	warp_exit(s, &t, 4, 5);
	arrive(s, &t, 8, 6);
	cr_expect(sched_pro_fast_phase(s));
	cr_expect_eq(sched_pro_tb_state(s, 1), SCHED_PRO_FINISHWAIT);
	cr_expect_eq(sched_pro_tb_state(s, 2), SCHED_PRO_BARRIERWAIT);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 7, ids);
	cr_expect(sched_pro_fast_phase(s), "CTAs still waiting: fast phase");
	t.ctas_waiting = false;
	trank(s, &t, 0, 8, ids);
	cr_expect(!sched_pro_fast_phase(s));
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_FINISHNOWAIT);
	cr_expect_eq(sched_pro_tb_state(s, 1), SCHED_PRO_FINISHNOWAIT);
	cr_expect_eq(sched_pro_tb_state(s, 2), SCHED_PRO_BARRIERWAIT1);
	/* barrierWait1 (H) ahead of finishNoWait: TB2's running warps first. */
	cr_expect_eq(t.w[ids[0]].cta_slot, 2);
	arrive(s, &t, 9, 9);
	arrive(s, &t, 10, 9);
	arrive(s, &t, 11, 9);
	release(s, &t, 2, 9);
	cr_expect_eq(sched_pro_tb_state(s, 2), SCHED_PRO_FINISHNOWAIT, "lastWarpAtBarrier");
	arrive(s, &t, 1, 10);
	cr_expect_eq(sched_pro_tb_state(s, 0), SCHED_PRO_BARRIERWAIT1, "warpAtBarrier in slow phase");
	sched_destroy(s);
}

Test(pro, fast_phase_priorities_finish_barrier_nowait)
{
	/* TB0 noWait; TB1 barrierWait (w5 waiting); TB2 finishWait (w8 exited). Order:
	 * finishWait TB2 (warps by increasing progress: w11 10, w9 20, w10 30), then TB1
	 * (increasing progress, sorted when its first warp arrived: w7 40, w5 45, w6 50, w4 60),
	 * then TB0 in launch order (no sort yet). */
	struct tcore t;
	struct sched *s = pro_setup(&t, 3, 1000);
	uint64_t prog[12] = { 0, 0, 0, 0, 60, 45, 50, 40, 0, 20, 30, 10 };
	for (int w = 0; w < 12; w++)
		t.w[w].progress = prog[w];
	arrive(s, &t, 5, 3);
	warp_exit(s, &t, 8, 4);
	uint16_t ids[SCHED_MAX_WARPS];
	uint32_t n = trank(s, &t, 0, 5, ids);
	cr_assert_eq(n, 11);
	static const uint16_t want[] = { 11, 9, 10, 7, 5, 6, 4, 0, 1, 2, 3 };
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(ids[i], want[i], "pos %u: w%u want w%u", i, ids[i], want[i]);
	sched_destroy(s);
}

Test(pro, finishwait_tbs_by_warps_finished)
{
	/* TB0 lost one warp, TB1 two: TB1 first (more warps finished). */
	struct tcore t;
	struct sched *s = pro_setup(&t, 2, 1000);
	warp_exit(s, &t, 0, 1);
	warp_exit(s, &t, 4, 2);
	warp_exit(s, &t, 5, 3);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 4, ids);
	cr_expect_eq(t.w[ids[0]].cta_slot, 1);
	cr_expect_eq(t.w[ids[2]].cta_slot, 0);
	sched_destroy(s);
}

Test(pro, sorts_every_threshold_cycles_not_between)
{
	/* THRESHOLD 1000, kernel starts at cycle 0. TB1 gets more progress (4 insts x 32 lanes =
	 * 128 vs TB0's 32). Sort happens when cycle - lastSort > 1000: not at 500 nor 1000
	 * (TB0 first, launch order), at 1001 (TB1 first, decreasing progress). Then TB0 pulls
	 * ahead (32 + 200 = 232 > 128): no change at 1500 or 2001, re-sorted at 2002. */
	struct tcore t;
	struct sched *s = pro_setup(&t, 2, 1000);
	tev(s, SCHED_EV_WARP_ISSUE, 0, 0, 32, 1);
	for (int i = 0; i < 4; i++)
		tev(s, SCHED_EV_WARP_ISSUE, 4, 1, 32, 2);
	t.w[4].progress = 128;
	cr_expect_eq(cta_first(s, &t, 500), 0);
	cr_expect_eq(cta_first(s, &t, 1000), 0);
	cr_expect_eq(cta_first(s, &t, 1001), 1);
	cr_expect_eq(sched_pro_last_sort_cycle(s), 1001);
	tev(s, SCHED_EV_WARP_ISSUE, 1, 0, 200, 1100);
	t.w[1].progress = 200;
	cr_expect_eq(cta_first(s, &t, 1500), 1);
	cr_expect_eq(cta_first(s, &t, 2001), 1);
	cr_expect_eq(cta_first(s, &t, 2002), 0);
	/* Warps of a noWait TB by decreasing progress: w1 (200) before w0 (32). */
	uint16_t ids[SCHED_MAX_WARPS];
	t.w[0].progress = 32;
	trank(s, &t, 0, 2003, ids);
	cr_expect(ids[0] == 1, "w%u", ids[0]);
	sched_destroy(s);
}

Test(pro, slow_phase_sorts_by_increasing_progress)
{
	/* After the merge, finishNoWait TBs go by increasing progress: TB0 (progress 300)
	 * behind TB1 (100) once sorted, and warps by increasing progress too. */
	struct tcore t;
	struct sched *s = pro_setup(&t, 2, 1000);
	tev(s, SCHED_EV_WARP_ISSUE, 0, 0, 300, 1);
	tev(s, SCHED_EV_WARP_ISSUE, 5, 1, 100, 1);
	t.w[0].progress = 300;
	t.w[5].progress = 100;
	t.ctas_waiting = false;
	cr_expect_eq(cta_first(s, &t, 10), 0, "merged, not yet sorted");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1001, ids);
	cr_expect_eq(t.w[ids[0]].cta_slot, 1);
	cr_expect_eq(ids[3], 5, "w5 (most progress in TB1) last in its TB");
	cr_expect_eq(ids[7], 0, "w0 last");
	sched_destroy(s);
}
