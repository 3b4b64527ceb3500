/* SPDX-License-Identifier: MIT */
/* scheduler/sched_tl_active.c: GPGPU-Sim 3.x two_level_active:6:0:1 (shader.cc order_warps,
 * do_on_warp_issued), the TL scheduler PRO (000 Sec 5) compares against. Expected lists are
 * worked by hand from that code. */
#include "sched_test_util.h"

static void expect_ids(const uint16_t *ids, const uint16_t *want, uint32_t n, const char *what)
{
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(ids[i], want[i], "%s pos %u: w%u want w%u", what, i, ids[i], want[i]);
}

Test(tl_active, demote_promote_fifo_and_lrr_after_issue)
{
	/* 8 warps of one CTA on one scheduler, 6 active. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 8, 8);
	tcore_add_cta(&t, 0, 0, 0, 0, 8);
	struct sched *s = tmake_issue(&t, "tl-active");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 0, ids);
	expect_ids(ids, (const uint16_t[]){ 0, 1, 2, 3, 4, 5, 6, 7 }, 8, "start");
	cr_expect_eq(s->rank_issuable, 6, "only the active warps issue");
	/* Cycle 1: w2's next instruction needs its load: to the back of pending, w6 promoted
	 * to the end of the active list; then w3 issues and the list restarts after it. */
	tblock(&t, 2, true);
	trank(s, &t, 0, 1, ids);
	expect_ids(ids, (const uint16_t[]){ 0, 1, 3, 4, 5, 6, 7, 2 }, 8, "w2 demoted");
	tev(s, SCHED_EV_WARP_ISSUE, 3, 0, 32, 1);
	/* Cycle 2: w2's load is back, but nothing was demoted: it stays pending. */
	tblock(&t, 2, false);
	trank(s, &t, 0, 2, ids);
	expect_ids(ids, (const uint16_t[]){ 4, 5, 6, 0, 1, 3, 7, 2 }, 8, "lrr after w3");
	cr_expect(!sched_tl_active_is_active(s, 0, 2));
	/* Cycle 3: w4 waits; w7 (at a barrier) is promoted all the same (SRR: the front of the
	 * FIFO, whatever its state). Cycle 4: w7 is demoted again and w2 comes in. */
	tblock(&t, 4, true);
	t.w[7].at_barrier = true;
	t.w[7].ready = false;
	trank(s, &t, 0, 3, ids);
	expect_ids(ids, (const uint16_t[]){ 5, 6, 0, 1, 3, 7, 2, 4 }, 8, "cycle 3");
	trank(s, &t, 0, 4, ids);
	expect_ids(ids, (const uint16_t[]){ 5, 6, 0, 1, 3, 2, 4, 7 }, 8, "cycle 4");
	sched_destroy(s);
}

Test(tl_active, empty_slots_take_active_places)
{
	/* 16 slots, only w14 and w15 live. Cycle 0: the empty slots 0..5 are demoted and 6..11
	 * (empty too) promoted: no live warp is active and nothing issues, though w14 is ready.
	 * Cycle 1: 12..15 and 0, 1 come in and w14 issues. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 16, 2);
	tcore_add_cta(&t, 0, 0, 0, 14, 2);
	struct sched *s = tmake_issue(&t, "tl-active");
	cr_expect_eq(tstep(s, &t, 0, 0), -1);
	cr_expect_eq(s->rank_issuable, SCHED_ISSUABLE_NONE);
	cr_expect_eq(tstep(s, &t, 0, 1), 14);
	sched_destroy(s);
}

Test(tl_active, slept_cycles_replay_as_every_cycle)
{
	/* 16 slots, all waiting (3 live warps on loads, 13 empty): each cycle the 6 active are
	 * demoted and the next 6 promoted, so after cycle c the active list is slots
	 * 6(c+1) mod 16 onwards. Ranked at cycle 0 and then at 7 (slept 1..6): 6*8 mod 16 = 0,
	 * the active list is 0..5 again; at 10: 6*11 mod 16 = 2, the active list is 2..7. An
	 * instance ranked every cycle agrees at each. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 16, 3);
	tcore_add_cta(&t, 0, 0, 0, 0, 3);
	for (uint16_t w = 0; w < 3; w++)
		tblock(&t, w, true);
	struct sched *slept = tmake_issue(&t, "tl-active");
	struct sched *each = tmake_issue(&t, "tl-active");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(slept, &t, 0, 0, ids);
	for (uint64_t c = 0; c <= 10; c++)
		trank(each, &t, 0, c, ids);
	trank(slept, &t, 0, 10, ids);
	for (uint16_t w = 0; w < 16; w++) {
		bool want = w >= 2 && w <= 7;
		cr_expect_eq(sched_tl_active_is_active(slept, 0, w), want, "slept w%u", w);
		cr_expect_eq(sched_tl_active_is_active(each, 0, w), want, "each w%u", w);
	}
	sched_destroy(slept);
	sched_destroy(each);
}
