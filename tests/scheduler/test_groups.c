/* SPDX-License-Identifier: MIT */
/* scheduler/sched_groups.c: Narasiman two-level (tl) and OWL FORM GROUPS / owl-cta /
 * owl-locality / owl-blp against the papers' worked examples. */
#include "sched_test_util.h"

/* ---- OWL Algorithm 1 ---- */

Test(owl, form_groups_paper_example_10_ctas)
{
	/* OWL Sec 4.1: N=10 CTAs, k=2 warps, minimum 5 warps: n=3 (3*2=6 >= 5),
	 * g_core = floor(10/3) = 3, the last group takes 10 mod 3 = 1 more: 3,3,4. */
	uint32_t size[SCHED_OWL_MAX_GROUPS];
	cr_assert_eq(sched_owl_form_groups(10, 2, 5, size), 3);
	cr_expect_eq(size[0], 3);
	cr_expect_eq(size[1], 3);
	cr_expect_eq(size[2], 4);
}

Test(owl, form_groups_wp_six_warps_one_group)
{
	/* OWL Sec 4.2: WP runs only 6 warps per core, so one group forms. With g_size 8:
	 * 3 CTAs of 2 warps: n=4 (8 warps) > N=3, so the 3 CTAs (6 warps) are one group;
	 * 1 CTA of 6 warps: n=2 > N=1, one group of that CTA. */
	uint32_t size[SCHED_OWL_MAX_GROUPS];
	cr_assert_eq(sched_owl_form_groups(3, 2, 8, size), 1);
	cr_expect_eq(size[0], 3);
	cr_assert_eq(sched_owl_form_groups(1, 6, 8, size), 1);
	cr_expect_eq(size[0], 1);
	cr_expect_eq(sched_owl_form_groups(0, 6, 8, size), 0);
}

Test(owl, form_groups_default_g_size_8)
{
	/* k=4, g_size 8: n=2; N=7: g_core=3 groups of 2,2,2+1=3. */
	uint32_t size[SCHED_OWL_MAX_GROUPS];
	cr_assert_eq(sched_owl_form_groups(7, 4, 8, size), 3);
	cr_expect(size[0] == 2 && size[1] == 2 && size[2] == 3);
}

Test(owl, blp_priorities_four_groups_cores_0_to_3)
{
	/* g_pri = (g_num - core_ID) mod g_core with g_core = 4 (Algorithm 1). Row = core. */
	static const uint32_t want[4][4] = {
		{ 0, 1, 2, 3 },
		{ 3, 0, 1, 2 },
		{ 2, 3, 0, 1 },
		{ 1, 2, 3, 0 },
	};
	for (uint32_t c = 0; c < 4; c++)
		for (uint32_t g = 0; g < 4; g++) {
			cr_expect_eq(sched_owl_group_priority(SCHED_OWL_BLP, g, c, 4), want[c][g],
				     "core %u group %u", c, g);
			cr_expect_eq(sched_owl_group_priority(SCHED_OWL_LOCALITY, g, c, 4), g);
			cr_expect_eq(sched_owl_group_priority(SCHED_OWL_CTA, g, c, 4), 0);
		}
}

/* Fig 4 setting: CTAs 1,3,5,7 on core 1 (slots 0..3, launch order), k=2 warps each and
 * g_size 2, so each group is one CTA: group g = slot g, warps 2g and 2g+1. */
static void fig4_core(struct tcore *t, uint32_t core_id)
{
	tcore_init(t, core_id, 4, 1, 8, 2);
	for (uint16_t k = 0; k < 4; k++)
		tcore_add_cta(t, k, 1 + 2u * k, k, (uint16_t)(2 * k), 2);
}

static struct sched *owl_make_g(struct tcore *t, const char *name, uint32_t group_size_warps)
{
	struct sched_params p;
	sched_params_default(&p);
	snprintf(p.policy, sizeof p.policy, "%s", name);
	p.group_size_warps = group_size_warps;
	return tmake(t, &p, false, NULL);
}

static struct sched *owl_make(struct tcore *t, const char *name)
{
	return owl_make_g(t, name, 2);
}

static uint32_t cta_of_first(struct sched *s, struct tcore *t, uint64_t cycle)
{
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, t, 0, cycle, ids);
	return t->w[ids[0]].cta_id;
}

static void block_cta(struct tcore *t, uint16_t slot, bool b)
{
	tblock(t, (uint16_t)(2 * slot), b);
	tblock(t, (uint16_t)(2 * slot + 1), b);
}

Test(owl, cta_aware_continues_round_robin_fig4a)
{
	struct tcore t;
	fig4_core(&t, 0);
	struct sched *s = owl_make(&t, "owl-cta");
	cr_expect_eq(cta_of_first(s, &t, 0), 1);
	cr_expect_eq(s->rank_issuable, 2, "strict: only CTA 1's two warps may issue");
	block_cta(&t, 0, true);                   /* CTA 1 waits for memory */
	cr_expect_eq(cta_of_first(s, &t, 1), 3);
	block_cta(&t, 1, true);                   /* CTA 3 too */
	cr_expect_eq(cta_of_first(s, &t, 2), 5);
	block_cta(&t, 0, false);                  /* data for CTA 1 arrives: no switching */
	cr_expect_eq(cta_of_first(s, &t, 3), 5);
	block_cta(&t, 2, true);                   /* CTA 5 blocks: round-robin goes on to 7 */
	cr_expect_eq(cta_of_first(s, &t, 4), 7);
	block_cta(&t, 3, true);                   /* then back to 1 */
	cr_expect_eq(cta_of_first(s, &t, 5), 1);
	sched_destroy(s);
}

Test(owl, locality_returns_to_group_1_fig4b)
{
	struct tcore t;
	fig4_core(&t, 0);
	struct sched *s = owl_make(&t, "owl-locality");
	cr_expect_eq(cta_of_first(s, &t, 0), 1);
	block_cta(&t, 0, true);
	cr_expect_eq(cta_of_first(s, &t, 1), 3);
	block_cta(&t, 1, true);
	cr_expect_eq(cta_of_first(s, &t, 2), 5);
	cr_expect_eq(s->rank_issuable, 2, "strict: only CTA 5 may issue");
	tblock(&t, 1, false);                     /* one warp of CTA 1 gets its data */
	cr_expect_eq(cta_of_first(s, &t, 3), 1);
	cr_expect_eq(tstep(s, &t, 0, 4), 1, "the ready warp of CTA 1 issues, not CTA 5");
	/* CTA 1 finishes: groups re-form and CTA 3 (now the oldest) has top priority. */
	t.w[0].valid = t.w[1].valid = false;
	block_cta(&t, 1, false);
	cr_expect_eq(cta_of_first(s, &t, 5), 3);
	sched_destroy(s);
}

Test(owl, an_l1_hit_or_a_barrier_wait_does_not_switch_groups)
{
	/* OWL Sec 2: a warp leaves the pipeline when "blocked on a long latency memory operation";
	 * Algorithm 1: the scheduler keeps the chosen group "unless all warps of the already-chosen
	 * group are blocked because of unavailability of data". CTA 1's two warps wait on loads
	 * that hit L1 (long-latency opcodes, no miss): CTA 1 keeps the scheduler. Then w0's load
	 * misses and w1 waits at a barrier: still not all blocked on data. Once w1 waits on a miss
	 * too, CTA 3 goes. */
	struct tcore t;
	fig4_core(&t, 0);
	struct sched *s = owl_make(&t, "owl-locality");
	for (uint16_t w = 0; w < 2; w++) {
		t.w[w].waiting_long_lat = true;
		t.w[w].long_lat_pending = 1;
		t.w[w].ready = false;
	}
	cr_expect_eq(cta_of_first(s, &t, 0), 1);
	cr_expect_eq(s->rank_issuable, 2);
	cr_expect_eq(tstep(s, &t, 0, 1), -1, "CTA 1 holds the scheduler while its loads hit");
	t.w[0].waiting_miss = true;
	t.w[1].waiting_long_lat = false;
	t.w[1].at_barrier = true;
	cr_expect_eq(cta_of_first(s, &t, 2), 1, "a barrier wait is not unavailability of data");
	t.w[1].at_barrier = false;
	t.w[1].waiting_long_lat = t.w[1].waiting_miss = true;
	cr_expect_eq(cta_of_first(s, &t, 3), 3);
	cr_expect_eq(tstep(s, &t, 0, 4), 2);
	sched_destroy(s);
	/* The previous reading (gpu.core.scheduler.owl.blocked_on = long-latency-or-barrier):
	 * long-latency opcodes and barrier waits block, hits included. */
	struct tcore t2;
	fig4_core(&t2, 0);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "owl-locality");
	p.group_size_warps = 2;
	p.owl_blocked = SCHED_OWL_BLOCKED_LONG_LAT;
	s = tmake(&t2, &p, false, NULL);
	t2.w[0].waiting_long_lat = true;
	t2.w[1].at_barrier = true;
	t2.w[0].ready = t2.w[1].ready = false;
	cr_expect_eq(cta_of_first(s, &t2, 0), 3);
	sched_destroy(s);
}

Test(owl, blp_core_1_prioritises_second_group)
{
	/* Core 1: g_pri = (g - 1) mod 4, so the second group (CTA 3) goes first, then 5, 7, 1. */
	struct tcore t;
	fig4_core(&t, 1);
	struct sched *s = owl_make(&t, "owl-blp");
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 0, ids);
	uint32_t want[4] = { 3, 5, 7, 1 };
	for (int g = 0; g < 4; g++)
		cr_expect_eq(t.w[ids[2 * g]].cta_id, want[g], "position %d", 2 * g);
	sched_destroy(s);
	/* Core 2 puts CTA 5 first, core 3 CTA 7 (one policy instance per core). */
	t.core.core_id = 2;
	s = owl_make(&t, "owl-blp");
	cr_expect_eq(cta_of_first(s, &t, 1), 5);
	sched_destroy(s);
	t.core.core_id = 3;
	s = owl_make(&t, "owl-blp");
	cr_expect_eq(cta_of_first(s, &t, 2), 7);
	sched_destroy(s);
}

Test(owl, warps_round_robin_inside_group)
{
	/* One group of 2 CTAs (k=2, g_size 4): after w1 issued, the order inside is w2 w3 w0 w1. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 4, 2);
	tcore_add_cta(&t, 0, 0, 0, 0, 2);
	tcore_add_cta(&t, 1, 1, 1, 2, 2);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "owl-locality");
	p.group_size_warps = 4;
	struct sched *s = tmake(&t, &p, false, NULL);
	tev(s, SCHED_EV_WARP_ISSUE, 1, 0, 32, 0);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 1, ids);
	cr_expect(ids[0] == 2 && ids[1] == 3 && ids[2] == 0 && ids[3] == 1);
	sched_destroy(s);
}

/* ---- Narasiman two-level ---- */

static uint32_t group_of_first(struct sched *s, struct tcore *t, uint64_t cycle)
{
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, t, 0, cycle, ids);
	return ids[0] / 8;
}

Test(tl, switches_only_when_whole_group_stalls_on_long_latency)
{
	/* 24 warps, fetch groups of 8: G0 = w0-7, G1 = w8-15, G2 = w16-23. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 24, 24);
	tcore_add_cta(&t, 0, 0, 0, 0, 24);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "tl");
	p.tl_switch = SCHED_TL_SWITCH_LONG_LAT;    /* the non-default reading */
	struct sched *s = tmake(&t, &p, false, NULL);
	cr_expect_eq(group_of_first(s, &t, 0), 0);
	cr_expect_eq(s->rank_issuable, 8);
	for (uint16_t w = 0; w < 7; w++)
		tblock(&t, w, true);
	t.w[7].ready = false;                      /* short stall (e.g. scoreboard): no switch */
	cr_expect_eq(group_of_first(s, &t, 1), 0);
	cr_expect_eq(tstep(s, &t, 0, 2), -1, "strict: G0 stalls the scheduler, G1 may not issue");
	tblock(&t, 7, true);                       /* now every warp of G0 waits on memory */
	cr_expect_eq(group_of_first(s, &t, 3), 1);
	cr_expect_eq(tstep(s, &t, 0, 4), 8);
	tblock(&t, 0, false);                      /* G0 data back: stay on G1 */
	cr_expect_eq(group_of_first(s, &t, 5), 1);
	for (uint16_t w = 8; w < 16; w++)
		tblock(&t, w, true);                   /* G1 all stalled: round-robin to G2, not G0 */
	cr_expect_eq(group_of_first(s, &t, 6), 2);
	for (uint16_t w = 16; w < 24; w++)
		tblock(&t, w, true);                   /* G2 stalled: wraps to G0 (w0 ready) */
	cr_expect_eq(group_of_first(s, &t, 7), 0);
	cr_expect_eq(tstep(s, &t, 0, 8), 0);
	sched_destroy(s);
}

Test(tl, default_switches_when_every_warp_of_the_group_is_stalled_for_any_reason)
{
	/* Narasiman Sec 3.2 / Fig 8(b), 16 warps in fetch groups of 8: the scheduler issues from
	 * G0 "until no warp from that fetch group can be scheduled (i.e., all the warps in the
	 * fetch group are stalled)", then G1; Sec 3.2.2: the stall may be of "any type" (here a
	 * busy SFU and pending ALU results, no memory wait at all). By default. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 16, 16);
	tcore_add_cta(&t, 0, 0, 0, 0, 16);
	struct sched *s = tmake_issue(&t, "tl");
	cr_expect_eq(tstep(s, &t, 0, 0), 0);
	for (uint16_t w = 0; w < 7; w++)
		t.w[w].ready = false;                  /* scoreboard waits on ALU results */
	cr_expect_eq(tstep(s, &t, 0, 1), 7, "w7 still ready: G0 keeps the scheduler");
	t.w[7].ready = false;
	t.w[7].unit_busy = true;                   /* its SFU is busy: G0 all stalled */
	cr_expect_eq(group_of_first(s, &t, 2), 1);
	cr_expect_eq(tstep(s, &t, 0, 2), 8);
	t.w[0].ready = true;                       /* G0 ready again: stay on G1 (round-robin) */
	cr_expect_eq(tstep(s, &t, 0, 3), 9);
	sched_destroy(s);
}

Test(tl, busy_unit_lets_other_groups_use_free_units)
{
	/* G0's warps all wait for data except w7, whose instruction waits for a busy unit. By
	 * default (strict_free_units) G1 may then issue on a free unit; without it G0 holds
	 * the scheduler (Algorithm 1 read literally). The group itself does not switch. */
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 16, 16);
	tcore_add_cta(&t, 0, 0, 0, 0, 16);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "tl");
	p.tl_switch = SCHED_TL_SWITCH_LONG_LAT;    /* any-stall would switch groups here */
	struct sched *s = tmake(&t, &p, false, NULL);
	for (uint16_t w = 0; w < 7; w++)
		tblock(&t, w, true);
	t.w[7].ready = false;
	t.w[7].unit_busy = true;
	cr_expect_eq(tstep(s, &t, 0, 0), 8);
	cr_expect_eq(group_of_first(s, &t, 1), 0, "G0 stays the current group");
	sched_destroy(s);
	p.strict_free_units = false;
	s = tmake(&t, &p, false, NULL);
	cr_expect_eq(tstep(s, &t, 0, 0), -1);
	sched_destroy(s);
}

Test(tl, any_stall_option_and_lenient_mode)
{
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 16, 16);
	tcore_add_cta(&t, 0, 0, 0, 0, 16);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "tl");
	p.tl_switch = SCHED_TL_SWITCH_ANY_STALL;
	p.strict_groups = false;
	struct sched *s = tmake(&t, &p, false, NULL);
	for (uint16_t w = 0; w < 8; w++)
		t.w[w].ready = false;                  /* short stalls only */
	cr_expect_eq(group_of_first(s, &t, 0), 1, "any-stall switches on short stalls");
	cr_expect_eq(s->rank_issuable, 0, "lenient: no issue limit");
	sched_destroy(s);
}

Test(tl, groups_by_slot_per_scheduler)
{
	/* Two schedulers, group size 2: scheduler 1 owns w1 w3 w5 w7; its groups are
	 * {w1,w3} and {w5,w7}. Blocking w1 and w3 moves it to {w5,w7}. */
	struct tcore t;
	tcore_init(&t, 0, 1, 2, 8, 8);
	tcore_add_cta(&t, 0, 0, 0, 0, 8);
	struct sched_params p;
	sched_params_default(&p);
	strcpy(p.policy, "tl");
	p.group_size_warps = 2;
	struct sched *s = tmake(&t, &p, false, NULL);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 1, 0, ids);
	cr_expect(ids[0] == 1 && ids[1] == 3);
	tblock(&t, 1, true);
	tblock(&t, 3, true);
	trank(s, &t, 1, 1, ids);
	cr_expect(ids[0] == 5 && ids[1] == 7);
	trank(s, &t, 0, 1, ids);
	cr_expect(ids[0] == 0 && ids[1] == 2, "scheduler 0 keeps its own group");
	sched_destroy(s);
}

/* sched_ops.first of owl-locality / owl-blp (the SM's shortcut) against the keys of all the
 * scheduler's warps: the smallest key among a random subset that the issue limit lets go, or
 * UINT16_MAX, over random blocked / ready / busy-unit states and issue histories. */
Test(owl, first_matches_the_keys)
{
	static const char *const kinds[] = { "owl-locality", "owl-blp" };
	for (size_t k = 0; k < 2; k++)
		for (uint32_t n_sched = 1; n_sched <= 2; n_sched++) {
			struct tcore t;
			tcore_init(&t, 3, 8, n_sched, 48, 8);
			for (uint16_t c = 0; c < 6; c++)
				tcore_add_cta(&t, c, 10u + c, c, (uint16_t)(c * 8), 8);
			struct sched_params p;
			sched_params_default(&p);
			snprintf(p.policy, sizeof p.policy, "%s", kinds[k]);
			p.group_size_warps = 8 * (1 + (uint32_t)k); /* one CTA per group, then two */
			struct sched *s = tmake(&t, &p, false, NULL);
			uint64_t rng = 0x2545f4914f6cdd1dull + k;
			for (int it = 0; it < 3000; it++) {
				for (uint16_t w = 0; w < 48; w++) {
					rng = rng * 6364136223846793005ull + 1442695040888963407ull;
					uint32_t r = (uint32_t)(rng >> 40) % 16;
					t.w[w].waiting_long_lat = r < 5;
					t.w[w].waiting_miss = r < 3;
					t.w[w].at_barrier = r == 5;
					t.w[w].ready = r >= 8;
					t.w[w].unit_busy = r == 6 || r == 7;
				}
				tcore_sync(&t);
				uint32_t si = (uint32_t)(rng >> 20) % n_sched;
				uint16_t w = (uint16_t)((rng >> 8) % 48);
				if (w % n_sched == si)
					tev(s, SCHED_EV_WARP_ISSUE, w, t.w[w].cta_slot, 32, (uint64_t)it);
				uint16_t all[SCHED_MAX_WARPS];
				uint32_t n = tcore_ids(&t, si, all);
				uint64_t key[SCHED_MAX_WARPS];
				uint64_t bound = s->ops->keys(s, si, all, n, key);
				uint64_t mask = 0;
				uint16_t want = UINT16_MAX;
				for (uint32_t i = 0; i < n; i++)
					if (rng >> (all[i] % 59) & 1) {
						mask |= 1ull << all[i];
						if (key[all[i]] < bound && (want == UINT16_MAX || key[all[i]] < key[want]))
							want = all[i];
					}
				if (!mask)
					continue;
				cr_assert_eq(s->ops->first(s, si, mask), want, "%s, %u schedulers, iteration %d",
					     kinds[k], n_sched, it);
			}
			sched_destroy(s);
		}
}

/* Stable group identity (004 Sec 4.2): a group keeps its priority until all its CTAs finish;
 * a CTA launched later joins the lowest-priority group (or starts a new one when that has n
 * CTAs). Fig 4's four CTAs of k=2 warps, g_size 4 so n = 2: A = {slot 0, slot 1}, B = {slot 2, slot 3}.
 * Slot 0's CTA finishes and CTA 9 takes its slot: A = {slot 1} keeps the top priority and B the
 * second; CTA 9 forms C, the lowest. Re-forming from the resident CTAs, oldest first, would give
 * {slot 1, slot 2}, {slot 3, slot 0}: CTA 5 (slot 2) promoted into the top group. */
/* The CTA in slot `slot` ends (its warps exit) and, if cta_id, a new CTA with launch seq `seq`
 * takes the slot: the SM's events in its order. */
static void replace_cta(struct sched *s, struct tcore *t, uint16_t slot, uint32_t cta_id, uint64_t seq,
			uint64_t cycle)
{
	t->w[2 * slot].valid = t->w[2 * slot + 1].valid = false;
	tev(s, SCHED_EV_WARP_EXIT, (uint16_t)(2 * slot), slot, 0, cycle);
	tev(s, SCHED_EV_WARP_EXIT, (uint16_t)(2 * slot + 1), slot, 0, cycle);
	tev(s, SCHED_EV_CTA_FINISH, 0, slot, 0, cycle);
	if (!cta_id)
		return;
	tcore_add_cta(t, slot, cta_id, seq, (uint16_t)(2 * slot), 2);
	tev(s, SCHED_EV_CTA_LAUNCH, 0, slot, cta_id, cycle);
}

Test(owl, locality_groups_keep_their_identity_when_ctas_come_and_go)
{
	struct tcore t;
	fig4_core(&t, 0);
	struct sched *s = owl_make_g(&t, "owl-locality", 4);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 0, ids);
	cr_expect_eq(s->rank_issuable, 4, "group A: CTAs 1 and 3, four warps");
	replace_cta(s, &t, 0, 9, 4, 1);
	/* A = {CTA 3} first, then B = {CTA 5, CTA 7}, then C = {CTA 9} */
	trank(s, &t, 0, 2, ids);
	uint32_t want[8] = {3, 3, 5, 7, 5, 7, 9, 9};
	for (int i = 0; i < 8; i++) {
		uint32_t c = t.w[ids[i]].cta_id;
		if (i >= 2 && i < 6)
			cr_expect(c == 5 || c == 7, "position %d: CTA %u, B's", i, c);
		else
			cr_expect_eq(c, want[i], "position %d", i);
	}
	cr_expect_eq(s->rank_issuable, 2, "only A's two warps may issue");
	/* CTA 3 waits for data: B is chosen, both of its CTAs (re-forming would allow CTA 5 only) */
	block_cta(&t, 1, true);
	trank(s, &t, 0, 3, ids);
	cr_expect_eq(s->rank_issuable, 4, "B: CTAs 5 and 7");
	for (int i = 0; i < 4; i++)
		cr_expect(t.w[ids[i]].cta_id == 5 || t.w[ids[i]].cta_id == 7, "position %d", i);
	/* CTA 3 finishes, CTA 11 takes its slot and joins C (one CTA, n = 2): B leads, then C */
	replace_cta(s, &t, 1, 11, 5, 4);
	trank(s, &t, 0, 5, ids);
	cr_expect_eq(s->rank_issuable, 4);
	for (int i = 0; i < 4; i++)
		cr_expect(t.w[ids[i]].cta_id == 5 || t.w[ids[i]].cta_id == 7, "position %d", i);
	for (int i = 4; i < 8; i++)
		cr_expect(t.w[ids[i]].cta_id == 9 || t.w[ids[i]].cta_id == 11, "position %d", i);
	/* CTA 13 would start a new group D after the full C */
	sched_destroy(s);
}

/* BLP on core 1 (Fig 4 setting, one CTA a group): g_pri = (g_num - 1) mod 4 puts CTA 3 first.
 * CTA 1 (lowest priority) finishes with no CTA left to launch: CTA 3 keeps the top priority.
 * Re-forming the three groups left would give g_pri = (g_num - 1) mod 3 and put CTA 5 first. */
Test(owl, blp_rotation_stays_on_its_group_when_another_finishes)
{
	struct tcore t;
	fig4_core(&t, 1);
	struct sched *s = owl_make(&t, "owl-blp");
	cr_expect_eq(cta_of_first(s, &t, 0), 3);
	replace_cta(s, &t, 0, 0, 0, 1);
	cr_expect_eq(cta_of_first(s, &t, 2), 3);
	/* CTA 3 finishes: the next in core 1's order (5) leads, then 7 */
	replace_cta(s, &t, 1, 0, 0, 3);
	uint16_t ids[SCHED_MAX_WARPS];
	trank(s, &t, 0, 4, ids);
	cr_expect_eq(t.w[ids[0]].cta_id, 5);
	cr_expect_eq(t.w[ids[2]].cta_id, 7);
	sched_destroy(s);
}

/* CTA-Aware: the round-robin stays on its group across another CTA's launch; when the current
 * group finishes, the next in order is current. */
Test(owl, cta_aware_round_robin_keeps_its_place_across_launches)
{
	struct tcore t;
	fig4_core(&t, 0);
	struct sched *s = owl_make(&t, "owl-cta");
	block_cta(&t, 0, true);
	cr_expect_eq(cta_of_first(s, &t, 0), 3);  /* CTA 1 waits: on to CTA 3 */
	block_cta(&t, 0, false);
	replace_cta(s, &t, 3, 9, 4, 1);           /* CTA 7 ends, CTA 9 joins at the end */
	cr_expect_eq(cta_of_first(s, &t, 2), 3, "still on CTA 3");
	replace_cta(s, &t, 1, 0, 0, 3);           /* CTA 3 ends: the next group, CTA 5 */
	cr_expect_eq(cta_of_first(s, &t, 4), 5);
	sched_destroy(s);
}
