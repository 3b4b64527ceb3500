/* SPDX-License-Identifier: MIT */
/* PAWS (003): the hierarchical ready/active/pending-queue scheduler of Sec II-B2 and Fig 8
 * with RR, GTO or phase-aware priority (tl-rr, tl-gto, paws-tl), and single-level paws. */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

enum q_prio { Q_RR, Q_GTO, Q_PHASE };

struct q_sched {  /* one issue scheduler's queues; FIFOs kept as small arrays */
	uint16_t ready[SCHED_MAX_WARPS], active[SCHED_MAX_WARPS], pending[SCHED_MAX_WARPS];
	uint32_t n_ready, n_active, n_pending;
	uint8_t where[SCHED_MAX_WARPS];     /* enum sched_queue_where */
	uint64_t age[SCHED_MAX_WARPS];      /* age of the warp when queued: detects slot reuse */
};

struct q_state {
	struct sched_last last;
	enum q_prio prio;
	struct q_sched q[SCHED_MAX_SCHEDULERS];
};

static int q_init(struct sched *s, enum q_prio prio, struct sim_error *err)
{
	struct q_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	sched_last_reset(&st->last);
	st->prio = prio;
	s->state = st;
	return 0;
}
static int tl_rr_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return q_init(s, Q_RR, e); }
static int tl_gto_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return q_init(s, Q_GTO, e); }
static int paws_tl_init(struct sched *s, const struct cfg *c, struct sim_error *e) { (void)c; return q_init(s, Q_PHASE, e); }

static void q_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

static void q_event(struct sched *s, const struct sched_event *ev)
{
	struct q_state *st = s->state;
	if (ev->kind == SCHED_EV_WARP_ISSUE)
		sched_last_note(&st->last, s->core, ev->warp_id);
}

static void q_remove(uint16_t *a, uint32_t *n, uint16_t w)
{
	for (uint32_t i = 0; i < *n; i++)
		if (a[i] == w) {
			memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof *a);
			(*n)--;
			return;
		}
}

/* Waiting on a long-latency result (PAWS Sec III-B: it "arrives at an instruction that
 * depends on a long latency operation") or at a barrier (footnote 1: synchronisation is a
 * long-latency instruction too; without this a ready queue full of barrier waiters would
 * starve the rest of the CTA). */
static bool q_is_pending(const struct sched_warp_view *w)
{
	return w->waiting_long_lat || w->at_barrier;
}
/* Back to the active queue "when all the long latency instructions complete" (Sec IV-B2). */
static bool q_can_leave_pending(const struct sched_warp_view *w)
{
	return w->long_lat_pending == 0 && !w->waiting_long_lat && !w->at_barrier;
}

/* The priority assignment logic (Sec IV-B2), run when a warp enters the active queue:
 * RR keeps arrival order, GTO sorts by launch order, PAWS by the length of the warp's next
 * phase (shortest first; stable, so equal lengths keep queue order). */
static void q_sort_active(const struct sched *s, const struct q_state *st, struct q_sched *q)
{
	if (st->prio == Q_RR || q->n_active < 2)
		return;
	const struct sched_core_view *core = s->core;
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t i = 0; i < q->n_active; i++) {
		const struct sched_warp_view *w = &core->warps[q->active[i]];
		if (st->prio == Q_GTO)
			key[q->active[i]] = w->age;
		else
			key[q->active[i]] = sched_params_of(s)->paws_key == SCHED_PAWS_KEY_FOLLOWING
						    ? w->next_phase_len_cycles : w->phase_len_cycles;
	}
	sched_sort_by_key(q->active, q->n_active, key);
}

static void q_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	struct q_state *st = s->state;
	const struct sched_core_view *core = s->core;
	const struct sched_params *p = sched_params_of(s);
	struct q_sched *q = &st->q[si % SCHED_MAX_SCHEDULERS];
	uint64_t in = 0;
	for (uint32_t i = 0; i < n; i++)
		in |= 1ull << ids[i];

	/* 1. Drop warps that exited, moved, or whose slot holds a new warp. */
	for (uint32_t w = 0; w < SCHED_MAX_WARPS; w++) {
		if (q->where[w] == SCHED_Q_NONE)
			continue;
		const struct sched_warp_view *v = &core->warps[w];
		if ((in & (1ull << w)) && v->valid && v->age == q->age[w])
			continue;
		q_remove(q->ready, &q->n_ready, (uint16_t)w);
		q_remove(q->active, &q->n_active, (uint16_t)w);
		q_remove(q->pending, &q->n_pending, (uint16_t)w);
		q->where[w] = SCHED_Q_NONE;
	}
	/* 2. New warps join the active queue in launch order. */
	uint16_t fresh[SCHED_MAX_WARPS];
	uint64_t key[SCHED_MAX_WARPS] = {0};
	uint32_t nf = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp_view *v = &core->warps[ids[i]];
		if (v->valid && q->where[ids[i]] == SCHED_Q_NONE) {
			fresh[nf++] = ids[i];
			key[ids[i]] = v->age;
		}
	}
	if (nf) {
		sched_sort_by_key(fresh, nf, key);
		for (uint32_t i = 0; i < nf; i++) {
			q->active[q->n_active++] = fresh[i];
			q->where[fresh[i]] = SCHED_Q_ACTIVE;
			q->age[fresh[i]] = core->warps[fresh[i]].age;
		}
		q_sort_active(s, st, q);
	}
	/* 3. Ready warps that now wait on a long-latency result go to the pending queue. */
	for (uint32_t i = 0; i < q->n_ready;) {
		uint16_t w = q->ready[i];
		if (q_is_pending(&core->warps[w])) {
			q_remove(q->ready, &q->n_ready, w);
			q->pending[q->n_pending++] = w;
			q->where[w] = SCHED_Q_PENDING;
		} else {
			i++;
		}
	}
	/* 4. Pending warps whose loads all returned go to the tail of the active queue, which
	 * is then sorted (Fig 8). */
	bool moved = false;
	for (uint32_t i = 0; i < q->n_pending;) {
		uint16_t w = q->pending[i];
		if (q_can_leave_pending(&core->warps[w])) {
			q_remove(q->pending, &q->n_pending, w);
			q->active[q->n_active++] = w;
			q->where[w] = SCHED_Q_ACTIVE;
			moved = true;
		} else {
			i++;
		}
	}
	if (moved)
		q_sort_active(s, st, q);
	/* 5. Refill the ready queue from the head of the active queue. */
	uint32_t cap = p->ready_queue_warps ? p->ready_queue_warps : 1;
	while (q->n_ready < cap && q->n_active > 0) {
		uint16_t w = q->active[0];
		q_remove(q->active, &q->n_active, w);
		if (q_is_pending(&core->warps[w])) {
			q->pending[q->n_pending++] = w;
			q->where[w] = SCHED_Q_PENDING;
		} else {
			q->ready[q->n_ready++] = w;
			q->where[w] = SCHED_Q_READY;
		}
	}
	/* 6. Ranking: ready queue round-robin (Sec II-B2: "Warps within the ready warps queue
	 * are always scheduled using RR"), then active queue order, then pending. */
	uint32_t out = 0;
	uint32_t start = sched_last_lrr_start(&st->last, si);
	for (uint32_t i = 0; i < q->n_ready; i++) {
		ids[out] = q->ready[i];
		key[ids[out]] = sched_rot(ids[out], start);
		out++;
	}
	sched_sort_by_key(ids, out, key);
	for (uint32_t i = 0; i < q->n_active; i++)
		ids[out++] = q->active[i];
	for (uint32_t i = 0; i < q->n_pending; i++)
		ids[out++] = q->pending[i];
	/* Invalid warps in the input (not queued) keep their place at the end. */
	uint64_t placed = 0;
	for (uint32_t i = 0; i < out; i++)
		placed |= 1ull << ids[i];
	for (uint32_t w = 0; w < SCHED_MAX_WARPS && out < n; w++)
		if ((in & (1ull << w)) && !(placed & (1ull << w)))
			ids[out++] = (uint16_t)w;
	SIM_ASSERT(out == n);
	/* "The scheduler only selects warps from the ready queue" (Sec I). */
	s->rank_issuable = p->strict_groups && q->n_ready ? q->n_ready : 0;
}

enum sched_queue_where sched_queue_of(const struct sched *s, uint32_t si, uint16_t warp_id)
{
	const struct q_state *st = s->state;
	if (warp_id >= SCHED_MAX_WARPS)
		return SCHED_Q_NONE;
	return (enum sched_queue_where)st->q[si % SCHED_MAX_SCHEDULERS].where[warp_id];
}

const struct sched_ops sched_tl_rr_ops = { "tl-rr", tl_rr_init, q_event, q_rank, q_fini, 0, NULL, NULL };
const struct sched_ops sched_tl_gto_ops = { "tl-gto", tl_gto_init, q_event, q_rank, q_fini, 0, NULL, NULL };
const struct sched_ops sched_paws_tl_ops = { "paws-tl", paws_tl_init, q_event, q_rank, q_fini, 0, NULL, NULL };

/* ---- paws: single level (Sec IV-B2 "Single Level Schedulers") ----
 * The warp whose current instruction is nearest the end of its phase (smallest phase
 * distance) first; equal distances go to the oldest warp. */
static void paws_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)si;
	(void)now;
	uint64_t key[SCHED_MAX_WARPS] = {0};
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = s->core->warps[ids[i]].age;
	sched_sort_by_key(ids, n, key);
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = s->core->warps[ids[i]].phase_distance_cycles;
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = 0;
}

static int paws_init(struct sched *s, const struct cfg *c, struct sim_error *e)
{
	(void)s;
	(void)c;
	(void)e;
	return 0;
}

const struct sched_ops sched_paws_ops = { "paws", paws_init, NULL, paws_rank, NULL, SCHED_RANK_PURE | SCHED_RANK_NO_LIMIT, NULL, NULL };
