/* SPDX-License-Identifier: MIT */
/* BAWS most-waiting-first issue (001 Sec 4.1: mwf-lrr, mwf-gto) and SAWS as BAWS describes it
 * (Sec 6.6: TB priority by first-hit time on the current barrier). One table per SM. */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

enum mwf_kind { MWF_LRR, MWF_GTO, MWF_SAWS };

#define MWF_NO_HIT UINT64_MAX

struct mwf_state {
	enum mwf_kind kind;
	struct sched_last last;                                 /* per scheduler, any TB */
	uint16_t tb_last[SCHED_MAX_SCHEDULERS][SCHED_MAX_CTAS]; /* per scheduler and TB slot */
	uint64_t tb_last_age[SCHED_MAX_SCHEDULERS][SCHED_MAX_CTAS];
	uint64_t first_hit[SCHED_MAX_CTAS];                     /* SAWS: cycle of the first arrival */
	uint16_t exited[SCHED_MAX_CTAS];                        /* warps of the TB that finished */
};

static int mwf_init_kind(struct sched *s, enum mwf_kind kind, struct sim_error *err)
{
	struct mwf_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	st->kind = kind;
	sched_last_reset(&st->last);
	for (int i = 0; i < SCHED_MAX_SCHEDULERS; i++)
		for (int j = 0; j < SCHED_MAX_CTAS; j++)
			st->tb_last[i][j] = SCHED_NONE;
	for (int j = 0; j < SCHED_MAX_CTAS; j++)
		st->first_hit[j] = MWF_NO_HIT;
	s->state = st;
	return 0;
}
static int mwf_lrr_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return mwf_init_kind(s, MWF_LRR, e); }
static int mwf_gto_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return mwf_init_kind(s, MWF_GTO, e); }
static int saws_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return mwf_init_kind(s, MWF_SAWS, e); }

static void mwf_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

static void mwf_event(struct sched *s, const struct sched_event *ev)
{
	struct mwf_state *st = s->state;
	const struct sched_core_view *core = s->core;
	uint16_t slot = ev->cta_slot;
	switch (ev->kind) {
	case SCHED_EV_WARP_ISSUE:
		if (ev->warp_id < core->max_warps) {
			const struct sched_warp_view *w = &core->warps[ev->warp_id];
			sched_last_note(&st->last, core, ev->warp_id);
			if (w->cta_slot < SCHED_MAX_CTAS) {
				uint32_t si = w->sched_idx % SCHED_MAX_SCHEDULERS;
				st->tb_last[si][w->cta_slot] = ev->warp_id;
				st->tb_last_age[si][w->cta_slot] = w->age;
			}
		}
		break;
	case SCHED_EV_CTA_LAUNCH:
	case SCHED_EV_CTA_FINISH:
		if (slot < SCHED_MAX_CTAS) {
			for (int i = 0; i < SCHED_MAX_SCHEDULERS; i++)
				st->tb_last[i][slot] = SCHED_NONE;
			st->first_hit[slot] = MWF_NO_HIT;
			st->exited[slot] = 0;
		}
		break;
	case SCHED_EV_WARP_EXIT:
		if (slot < SCHED_MAX_CTAS)
			st->exited[slot]++;
		break;
	case SCHED_EV_BARRIER_ARRIVE:
		if (slot < SCHED_MAX_CTAS && st->first_hit[slot] == MWF_NO_HIT)
			st->first_hit[slot] = ev->cycle;
		break;
	case SCHED_EV_BARRIER_RELEASE:
		if (slot < SCHED_MAX_CTAS)
			st->first_hit[slot] = MWF_NO_HIT;
		break;
	default:
		break;
	}
}

static void mwf_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	struct mwf_state *st = s->state;
	const struct sched_core_view *core = s->core;
	const struct sched_params *p = sched_params_of(s);
	si %= SCHED_MAX_SCHEDULERS;
	s->rank_issuable = 0;
	/* The warp priority table (Sec 4.1.2): warps of each TB waiting at its barrier, over the
	 * whole SM, so every scheduler of the SM sees the same TB priorities. A TB's exit is its
	 * last barrier (Sec 3, Fig 3 and 4: the exit point is barrier 5): its finished warps wait
	 * there for the others until the TB ends. */
	uint32_t waiting[SCHED_MAX_CTAS] = { 0 };
	uint32_t total_waiting = 0;
	if (st->kind != MWF_SAWS)
		for (uint32_t c = 0; c < SCHED_MAX_CTAS; c++) {
			waiting[c] = st->exited[c];
			total_waiting += st->exited[c];
		}
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (v->valid && v->at_barrier && v->cta_slot < SCHED_MAX_CTAS) {
			waiting[v->cta_slot]++;
			total_waiting++;
		}
	}
	uint64_t key[SCHED_MAX_WARPS] = {0};
	if (total_waiting == 0 && st->kind != MWF_SAWS && p->mwf_idle == SCHED_MWF_IDLE_BASE) {
		if (st->kind == MWF_LRR)
			sched_key_lrr(&st->last, si, ids, n, key);
		else
			sched_key_gto(&st->last, core, si, ids, n, key);
		sched_sort_by_key(ids, n, key);
		return;
	}
	/* Inside a TB: MWF(LRR) from the warp after the TB's last issued one; MWF(GTO) and SAWS
	 * the TB's last issued warp, then oldest (Sec 4.1.1). */
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp_view *v = &core->warps[ids[i]];
		uint32_t slot = v->cta_slot < SCHED_MAX_CTAS ? v->cta_slot : 0;
		uint16_t last = st->tb_last[si][slot];
		bool last_live = last != SCHED_NONE && core->warps[last].valid &&
				 core->warps[last].age == st->tb_last_age[si][slot];
		if (st->kind == MWF_LRR)
			key[ids[i]] = last == SCHED_NONE ? ids[i] : sched_rot(ids[i], (last + 1u) % SCHED_MAX_WARPS);
		else
			key[ids[i]] = last_live && ids[i] == last ? 0 : 1 + (v->age & (UINT64_MAX >> 2));
	}
	sched_sort_by_key(ids, n, key);
	/* Between TBs. MWF: most warps waiting first, ties to the smallest TB id (launch order on
	 * this SM is TB-id order). SAWS: earliest first hit on the current barrier first, TBs not
	 * at a barrier after them, by TB id. */
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = core->warps[ids[i]].cta_launch_seq;
	sched_sort_by_key(ids, n, key);
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp_view *v = &core->warps[ids[i]];
		uint32_t slot = v->cta_slot < SCHED_MAX_CTAS ? v->cta_slot : 0;
		if (st->kind == MWF_SAWS)
			key[ids[i]] = st->first_hit[slot];  /* MWF_NO_HIT sorts last */
		else
			key[ids[i]] = SCHED_MAX_WARPS - waiting[slot];
	}
	sched_sort_by_key(ids, n, key);
	/* Warps waiting at the barrier cannot issue: they go last, so the head of the ranking is
	 * the order of the running warps (Fig 7). */
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = core->warps[ids[i]].at_barrier;
	sched_sort_by_key(ids, n, key);
}

const struct sched_ops sched_mwf_lrr_ops = { "mwf-lrr", mwf_lrr_init, mwf_event, mwf_rank, mwf_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, NULL, NULL };
const struct sched_ops sched_mwf_gto_ops = { "mwf-gto", mwf_gto_init, mwf_event, mwf_rank, mwf_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, NULL, NULL };
const struct sched_ops sched_saws_ops = { "saws", saws_init, mwf_event, mwf_rank, mwf_fini, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, NULL, NULL };
