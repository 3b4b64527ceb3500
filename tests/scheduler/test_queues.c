/* SPDX-License-Identifier: MIT */
/* scheduler/sched_queues.c: PAWS single-level and the ready/active/pending queues of
 * tl-rr, tl-gto and paws-tl (PAWS Sec II-B2, IV-B2, Fig 8). */
#include "sched_test_util.h"

Test(paws, nearest_phase_end_first_ties_oldest)
{
	/* A kernel with a long phase (length 120) and a short one (length 12). w0 is 50 cycles
	 * from the end of the long phase, w1 and w2 at 10 from the end of the short one, w3 at
	 * 100. w1 is older than w2 (same CTA, lower warp). Order: w1 w2 w0 w3. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 4);
	tcore_add_cta(&t, 0, 0, 0, 0, 4);
	uint32_t dist[4] = { 50, 10, 10, 100 }, len[4] = { 120, 12, 12, 120 };
	for (int w = 0; w < 4; w++) {
		t.w[w].phase_distance_cycles = dist[w];
		t.w[w].phase_len_cycles = len[w];
	}
	struct sched *s = tmake_issue(&t, "paws");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 0, ids);
	static const uint16_t want[] = { 1, 2, 0, 3 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(ids[i], want[i], "pos %d: w%u want w%u", i, ids[i], want[i]);
	sched_destroy(s);
}

/* 8 warps of one CTA; ready queue of 6. */
static struct sched *q_make(struct tcore *t, const char *name)
{
	tcore_init(t, 0, 1, 1, 8, 8);
	tcore_add_cta(t, 0, 0, 0, 0, 8);
	struct sched *s = tmake_issue(t, name);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, t, 0, 0, ids);
	return s;
}

Test(paws_tl, pending_queue_on_load_and_back)
{
	struct tcore t;
	struct sched *s = q_make(&t, "paws-tl");
	for (uint16_t w = 0; w < 6; w++)
		cr_expect_eq(sched_queue_of(s, 0, w), SCHED_Q_READY, "w%u", w);
	cr_expect_eq(sched_queue_of(s, 0, 6), SCHED_Q_ACTIVE);
	cr_expect_eq(sched_queue_of(s, 0, 7), SCHED_Q_ACTIVE);
	cr_expect_eq(s->rank_issuable, 6, "only the ready queue issues");
	/* w2 reaches an instruction that needs its load: to the pending queue, w6 replaces it. */
	tblock(&t, 2, true);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	cr_expect_eq(sched_queue_of(s, 0, 2), SCHED_Q_PENDING);
	cr_expect_eq(sched_queue_of(s, 0, 6), SCHED_Q_READY);
	cr_expect_eq(ids[7], 2, "pending warps rank last");
	/* The load returns: w2 goes to the active queue (the ready queue is full). */
	tblock(&t, 2, false);
	trank(s, &t, 0, 2, ids);
	cr_expect_eq(sched_queue_of(s, 0, 2), SCHED_Q_ACTIVE);
	sched_destroy(s);
}

/* w2 waits, w6 takes its place, w2's load returns (active = [w7, w2] in arrival order),
 * then w3 waits: which warp the priority logic moves to the ready queue. */
static uint16_t who_replaces_w3(const char *name, uint32_t len_w2, uint32_t len_w7)
{
	struct tcore t;
	struct sched *s = q_make(&t, name);
	t.w[2].phase_len_cycles = len_w2;
	t.w[7].phase_len_cycles = len_w7;
	uint16_t ids[SCHED_MAX_WARPS];
	tblock(&t, 2, true);
	trank(s, &t, 0, 1, ids);
	tblock(&t, 2, false);
	trank(s, &t, 0, 2, ids);
	tblock(&t, 3, true);
	trank(s, &t, 0, 3, ids);
	uint16_t r = SCHED_NONE;
	if (sched_queue_of(s, 0, 2) == SCHED_Q_READY)
		r = 2;
	else if (sched_queue_of(s, 0, 7) == SCHED_Q_READY)
		r = 7;
	sched_destroy(s);
	return r;
}

Test(paws_tl, priority_logic_rr_gto_phase)
{
	/* tl-rr keeps arrival order: w7. tl-gto sorts by launch order: w2 (older).
	 * paws-tl sorts by the length of the phase each warp enters: the shorter one. */
	cr_expect_eq(who_replaces_w3("tl-rr", 5, 100), 7);
	cr_expect_eq(who_replaces_w3("tl-gto", 100, 5), 2);
	cr_expect_eq(who_replaces_w3("paws-tl", 5, 100), 2);
	cr_expect_eq(who_replaces_w3("paws-tl", 100, 5), 7);
}

Test(paws_tl, ready_queue_round_robin_and_strict)
{
	/* Ready queue w0..w5 served round-robin: after w4 issued, w5 w0 w1 w2 w3 w4, then the
	 * active queue w6 w7. Only the first 6 may issue; w6 never issues while w0..w5 are
	 * stalled on short hazards. */
	struct tcore t;
	struct sched *s = q_make(&t, "tl-rr");
	tev(s, SCHED_EV_WARP_ISSUE, 4, 0, 32, 1);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 2, ids);
	static const uint16_t want[] = { 5, 0, 1, 2, 3, 4, 6, 7 };
	for (int i = 0; i < 8; i++)
		cr_expect_eq(ids[i], want[i], "pos %d: w%u want w%u", i, ids[i], want[i]);
	for (uint16_t w = 0; w < 6; w++)
		t.w[w].ready = false;
	cr_expect_eq(tstep(s, &t, 0, 3), -1);
	sched_destroy(s);
}

Test(paws_tl, barrier_waiters_leave_the_ready_queue)
{
	/* A warp at a barrier is pending (synchronisation is long latency, PAWS footnote 1),
	 * so it cannot hold a ready slot the warps it waits for need. */
	struct tcore t;
	struct sched *s = q_make(&t, "paws-tl");
	t.w[0].at_barrier = true;
	t.w[0].ready = false;
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	cr_expect_eq(sched_queue_of(s, 0, 0), SCHED_Q_PENDING);
	cr_expect_eq(sched_queue_of(s, 0, 6), SCHED_Q_READY);
	t.w[0].at_barrier = false;
	trank(s, &t, 0, 2, ids);
	cr_expect_eq(sched_queue_of(s, 0, 0), SCHED_Q_ACTIVE);
	/* An exited warp leaves every queue. */
	t.w[6].valid = false;
	trank(s, &t, 0, 3, ids);
	cr_expect_eq(sched_queue_of(s, 0, 6), SCHED_Q_NONE);
	/* Active was [w7, w0] (equal phase lengths keep arrival order): w7 takes the slot. */
	cr_expect_eq(sched_queue_of(s, 0, 7), SCHED_Q_READY);
	cr_expect_eq(sched_queue_of(s, 0, 0), SCHED_Q_ACTIVE);
	sched_destroy(s);
}
