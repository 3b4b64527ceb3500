/* SPDX-License-Identifier: MIT */
/* Every issue x fetch policy on a synthetic kernel driven through the policy interface by a
 * miniature SM (fetch, I-buffer, loads, barriers, exits, CTA refill): finishes, is
 * deterministic, and each ranking is a permutation within its issue limit. */
#include <stdlib.h>

#include "engine/sim.h"
#include "sched_test_util.h"

/* The kernel: 16 CTAs of 8 warps, at most 4 CTAs (32 warps) per core, 2 schedulers. Each
 * warp runs 192 instructions in phases that alternate 6 and 30 instructions; the first
 * instruction of a phase needs the load issued at the start of the previous one (PAWS
 * Sec III-A), loads take 150..349 cycles; a bar.sync every 64 instructions; SIMT issue of
 * one instruction per scheduler per cycle with a 4-cycle dependent-issue spacing. */
#define K_CTAS 16
#define K_WPC 8
#define K_RESIDENT 4
#define K_INSTS 192
#define K_BAR_EVERY 64
#define K_MAX_CYCLES 2000000

struct mini {
	struct tcore t;
	struct sched *is, *fs;
	struct sim_rng rng;
	uint32_t done_insts[SCHED_MAX_WARPS], load_done[SCHED_MAX_WARPS];
	uint64_t short_until[SCHED_MAX_WARPS], data_at[SCHED_MAX_WARPS];
	uint32_t launched, finished;
	uint64_t cycle, issued;
	bool bad_rank;
};

static uint32_t phase_len_insts(uint32_t phase) { return phase % 2 ? 30 : 6; }

/* Phase index and instructions left in it for a warp that has issued i instructions. */
static void phase_of(uint32_t i, uint32_t *phase, uint32_t *left)
{
	uint32_t p = 0, start = 0;
	while (start + phase_len_insts(p) <= i) {
		start += phase_len_insts(p);
		p++;
	}
	*phase = p;
	*left = start + phase_len_insts(p) - i;
}

static void set_phase_view(struct mini *m, uint16_t w)
{
	uint32_t p, left;
	phase_of(m->done_insts[w], &p, &left);
	struct sched_warp_view *v = &m->t.w[w];
	v->phase_id = p;
	v->phase_distance_cycles = left * 4;
	v->phase_len_cycles = phase_len_insts(p) * 4;
	v->next_phase_len_cycles = phase_len_insts(p + 1) * 4;
	v->pc = m->done_insts[w];
}

static void notify_both(struct mini *m, enum sched_event_kind k, uint16_t w, uint16_t slot, uint64_t arg)
{
	tev(m->is, k, w, slot, arg, m->cycle);
	tev(m->fs, k, w, slot, arg, m->cycle);
}

static void launch(struct mini *m)
{
	uint64_t used = 0;
	for (uint16_t w = 0; w < m->t.core.max_warps; w++)
		if (m->t.w[w].valid)
			used |= 1ull << m->t.w[w].cta_slot;
	uint16_t slot = 0;
	while (used & (1ull << slot))
		slot++;
	/* Slots of a CTA: the 8 consecutive warp slots of its CTA slot. */
	tcore_add_cta(&m->t, slot, m->launched, m->launched, (uint16_t)(slot * K_WPC), K_WPC);
	for (uint16_t j = 0; j < K_WPC; j++) {
		uint16_t w = (uint16_t)(slot * K_WPC + j);
		m->done_insts[w] = 0;
		m->load_done[w] = 0;
		m->short_until[w] = 0;
		m->data_at[w] = 0;
		m->t.w[w].ibuf_count = 0;
		set_phase_view(m, w);
	}
	m->launched++;
	m->t.ctas_waiting = m->launched < K_CTAS;
	notify_both(m, SCHED_EV_CTA_LAUNCH, 0, slot, m->launched - 1);
}

/* Release the barrier of a CTA once every live warp is there (exited warps count). */
static void barrier_check(struct mini *m, uint16_t slot)
{
	uint32_t live = 0, at = 0;
	for (uint16_t w = 0; w < m->t.core.max_warps; w++)
		if (m->t.w[w].valid && m->t.w[w].cta_slot == slot) {
			live++;
			at += m->t.w[w].at_barrier;
		}
	if (live == 0 || at < live)
		return;
	for (uint16_t w = 0; w < m->t.core.max_warps; w++)
		if (m->t.w[w].valid && m->t.w[w].cta_slot == slot)
			m->t.w[w].at_barrier = false;
	notify_both(m, SCHED_EV_BARRIER_RELEASE, 0, slot, 0);
}

static void after_issue(struct mini *m, uint16_t w)
{
	struct sched_warp_view *v = &m->t.w[w];
	uint16_t slot = v->cta_slot;
	uint32_t i = ++m->done_insts[w];
	v->insts_issued++;
	v->progress += v->active_threads;
	v->ibuf_count--;
	m->issued++;
	if (i == K_INSTS) {
		v->valid = false;
		notify_both(m, SCHED_EV_WARP_EXIT, w, slot, 0);
		bool any = false;
		for (uint16_t x = 0; x < m->t.core.max_warps; x++)
			any |= m->t.w[x].valid && m->t.w[x].cta_slot == slot;
		if (!any) {
			notify_both(m, SCHED_EV_CTA_FINISH, 0, slot, 0);
			m->finished++;
			if (m->launched < K_CTAS)
				launch(m);
		} else {
			barrier_check(m, slot);
		}
		return;
	}
	uint32_t p, left;
	phase_of(i, &p, &left);
	if (left == phase_len_insts(p)) {
		/* First instruction of a new phase: it needs the load of the previous phase. */
		m->t.w[w].long_lat_pending = 1;
		m->data_at[w] = m->cycle + 150 + sim_rng_below(&m->rng, 200);
		notify_both(m, SCHED_EV_LONG_LAT_ISSUE, w, slot, 0);
	}
	m->short_until[w] = m->cycle + 4;
	set_phase_view(m, w);
	if (i % K_BAR_EVERY == 0) {
		v->at_barrier = true;
		notify_both(m, SCHED_EV_BARRIER_ARRIVE, w, slot, 0);
		barrier_check(m, slot);
	}
}

static void update_views(struct mini *m)
{
	for (uint16_t w = 0; w < m->t.core.max_warps; w++) {
		struct sched_warp_view *v = &m->t.w[w];
		if (!v->valid)
			continue;
		if (v->long_lat_pending && m->cycle >= m->data_at[w]) {
			v->long_lat_pending = 0;
			notify_both(m, SCHED_EV_LONG_LAT_DONE, w, v->cta_slot, 0);
		}
		v->waiting_long_lat = v->long_lat_pending && v->ibuf_count > 0 && !v->at_barrier;
		v->ready = !v->at_barrier && !v->waiting_long_lat && v->ibuf_count > 0 &&
			   m->cycle >= m->short_until[w];
	}
	tcore_sync(&m->t);
}

static bool check_perm(const uint16_t *ids, uint32_t n, const uint16_t *in)
{
	uint64_t a = 0, b = 0;
	for (uint32_t i = 0; i < n; i++) {
		a |= 1ull << ids[i];
		b |= 1ull << in[i];
	}
	return a == b && (uint32_t)__builtin_popcountll(a) == n;
}

/* Returns cycles to finish the kernel, 0 on deadlock. */
static uint64_t run_mini(const char *issue, const char *fetch, bool strict)
{
	struct mini *m = calloc(1, sizeof *m);
	cr_assert_not_null(m);
	tcore_init(&m->t, 1, 4, 2, K_RESIDENT * K_WPC, K_WPC);
	struct sched_params p;
	sched_params_default(&p);
	snprintf(p.policy, sizeof p.policy, "%s", issue);
	snprintf(p.fetch, sizeof p.fetch, "%s", fetch);
	p.strict_groups = strict;
	m->is = tmake(&m->t, &p, false, NULL);
	m->fs = tmake(&m->t, &p, true, m->is);
	sim_rng_seed(&m->rng, 42, 7);
	notify_both(m, SCHED_EV_KERNEL_START, 0, 0, 0);
	for (int k = 0; k < K_RESIDENT; k++)
		launch(m);
	uint16_t ids[SCHED_MAX_WARPS], in[SCHED_MAX_WARPS];
	for (m->cycle = 1; m->finished < K_CTAS && m->cycle < K_MAX_CYCLES; m->cycle++) {
		update_views(m);
		/* Fetch: one warp with an empty I-buffer per cycle, 2 instructions. */
		uint32_t n = 0;
		for (uint16_t w = 0; w < m->t.core.max_warps; w++)
			if (m->t.w[w].valid)
				in[n] = ids[n] = w, n++;
		sched_rank(m->fs, 0, m->cycle, ids, n);
		m->bad_rank |= !check_perm(ids, n, in);
		for (uint32_t i = 0; i < n; i++)
			if (m->t.w[ids[i]].ibuf_count == 0) {
				m->t.w[ids[i]].ibuf_count = 2;
				notify_both(m, SCHED_EV_FETCH, ids[i], m->t.w[ids[i]].cta_slot, 0);
				break;
			}
		for (uint32_t s = 0; s < 2; s++) {
			update_views(m);
			n = tcore_ids(&m->t, s, in);
			memcpy(ids, in, n * sizeof *ids);
			sched_rank(m->is, s, m->cycle, ids, n);
			uint32_t ri = m->is->rank_issuable;
			m->bad_rank |= !check_perm(ids, n, in) || (ri > n && ri != SCHED_ISSUABLE_NONE);
			uint32_t lim = ri == SCHED_ISSUABLE_NONE ? 0 : ri ? ri : n;
			for (uint32_t i = 0; i < lim; i++)
				if (m->t.w[ids[i]].ready) {
					notify_both(m, SCHED_EV_WARP_ISSUE, ids[i], m->t.w[ids[i]].cta_slot, 32);
					after_issue(m, ids[i]);
					break;
				}
		}
	}
	uint64_t cycles = m->finished == K_CTAS ? m->cycle : 0;
	cr_expect(!m->bad_rank, "%s/%s: a ranking was not a permutation within its limit", issue, fetch);
	cr_expect_eq(m->issued, (uint64_t)K_CTAS * K_WPC * K_INSTS, "%s/%s", issue, fetch);
	sched_destroy(m->fs);
	sched_destroy(m->is);
	free(m);
	return cycles;
}

Test(sched_stress, every_policy_finishes_deterministically)
{
	const char *fetches[] = { "rr", "cff", "fef" };
	bool table = getenv("WARPSIM_SCHED_TABLE") != NULL;
	uint64_t lrr = 0;
	for (const char *const *nm = sched_issue_names(); *nm; nm++)
		for (size_t f = 0; f < SIM_ARRAY_LEN(fetches); f++) {
			uint64_t c1 = run_mini(*nm, fetches[f], true);
			cr_expect_neq(c1, 0, "%s + %s did not finish (deadlock)", *nm, fetches[f]);
			if (f == 0 && !strcmp(*nm, "lrr"))
				lrr = c1;
			if (table && c1)
				cr_log_info("%-13s %-4s cycles %8lu  IPC/lrr+rr %.3f", *nm, fetches[f],
					    (unsigned long)c1, (double)lrr / (double)c1);
			if (f == 0)
				cr_expect_eq(run_mini(*nm, fetches[f], true), c1, "%s: not deterministic", *nm);
		}
}

Test(sched_stress, lenient_groups_finish_too)
{
	static const char *const grouped[] = { "tl", "tl-rr", "tl-gto", "owl-cta", "owl-locality",
					      "owl-blp", "paws-tl" };
	for (size_t i = 0; i < SIM_ARRAY_LEN(grouped); i++)
		cr_expect_neq(run_mini(grouped[i], "rr", false), 0, "%s lenient", grouped[i]);
}
