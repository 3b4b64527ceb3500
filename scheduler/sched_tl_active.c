/* SPDX-License-Identifier: MIT */
/* tl-active: GPGPU-Sim 3.x's two_level_active:N:0:1 scheduler (shader.cc, two_level_active_scheduler),
 * the "TL" that PRO (000 Sec 5) compares against: N active warps served LRR, a pending FIFO. */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

/* One issue scheduler's lists over every warp slot it supervises (slot % n_schedulers == its
 * index), empty slots included: GPGPU-Sim keeps a slot in its lists for the life of the core
 * and an empty one is "waiting" (shd_warp_t::waiting: functional_done). */
struct tla_sched {
	uint16_t active[SCHED_MAX_WARPS];  /* m_next_cycle_prioritized_warps, in issue order */
	uint16_t pending[SCHED_MAX_WARPS]; /* m_pending_warps: pending[0] is the front */
	uint32_t n_active, n_pending;
	uint64_t stepped_cycle;            /* the cycle order_warps last ran */
	bool built;
};

struct tla_state {
	struct tla_sched q[SCHED_MAX_SCHEDULERS];
};

static int tla_init(struct sched *s, const struct cfg *c, struct sim_error *err)
{
	(void)c;
	struct tla_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	s->state = st;
	return 0;
}

static void tla_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

/* shd_warp_t::waiting() or a long-latency source operand of its next I-buffer instruction
 * (Scoreboard::islongop: global, local, param or texture loads). GPGPU-Sim's warp with an
 * atomic in flight is waiting too; warpsim's view does not single atomics out, so such a warp
 * counts only once its next instruction needs the atomic's result. */
static bool tla_waiting(const struct sched_warp_view *w)
{
	return !w->valid || w->at_barrier || w->waiting_long_lat;
}

/* add_supervised_warp_id: the first N slots active, the rest pending, in slot order. */
static void tla_build(struct tla_sched *q, const struct sched_core_view *core, uint32_t si, uint32_t n_max)
{
	uint32_t n_sched = core->n_schedulers ? core->n_schedulers : 1;
	for (uint32_t w = si; w < core->max_warps && w < SCHED_MAX_WARPS; w += n_sched) {
		if (q->n_active < n_max)
			q->active[q->n_active++] = (uint16_t)w;
		else
			q->pending[q->n_pending++] = (uint16_t)w;
	}
	q->built = true;
}

/* order_warps: demote every waiting active warp to the back of the pending FIFO, then promote
 * as many from its front, whatever their state (outer level SRR). Returns the number moved;
 * *promoted_waiting is set when every promoted warp is itself waiting. */
static uint32_t tla_step(struct tla_sched *q, const struct sched_core_view *core, bool *promoted_waiting)
{
	uint32_t k = 0, keep = 0;
	for (uint32_t i = 0; i < q->n_active; i++) {
		uint16_t w = q->active[i];
		if (tla_waiting(&core->warps[w]))
			q->pending[q->n_pending + k++] = w;
		else
			q->active[keep++] = w;
	}
	q->n_pending += k;
	*promoted_waiting = true;
	for (uint32_t i = 0; i < k; i++) {
		uint16_t w = q->pending[i];
		q->active[keep + i] = w;
		*promoted_waiting &= tla_waiting(&core->warps[w]);
	}
	memmove(q->pending, q->pending + k, (q->n_pending - k) * sizeof *q->pending);
	q->n_pending -= k;
	q->n_active = keep + k;
	return k;
}

/* Runs order_warps for each cycle since the last one it ran for (GPGPU-Sim runs it every cycle;
 * warpsim ranks only in the cycles an SM ticks). An SM sleeps only while no warp's status
 * changes, so the slept cycles are replayed with the views of the cycle it woke in (they
 * differ only in the warps whose event woke it). Once the lists reach the state in which
 * every promoted and pending warp waits, each further cycle rotates the sequence (the k just
 * promoted, then the pending FIFO) by k, so the rest of a long sleep is one rotation. */
static void tla_catch_up(struct tla_sched *q, const struct sched_core_view *core, uint64_t steps)
{
	for (uint64_t i = 0; i < steps; i++) {
		bool promoted_waiting;
		uint32_t k = tla_step(q, core, &promoted_waiting);
		if (k == 0)
			return; /* no active warp waits: the lists stay as they are */
		bool pending_waiting = true;
		for (uint32_t j = 0; j < q->n_pending && pending_waiting; j++)
			pending_waiting = tla_waiting(&core->warps[q->pending[j]]);
		uint64_t left = steps - i - 1;
		if (!promoted_waiting || !pending_waiting || left == 0)
			continue;
		uint32_t m = k + q->n_pending, kept = q->n_active - k;
		uint16_t seq[SCHED_MAX_WARPS * 2];
		memcpy(seq, q->active + kept, k * sizeof *seq);
		memcpy(seq + k, q->pending, q->n_pending * sizeof *seq);
		memcpy(seq + m, seq, m * sizeof *seq);
		uint32_t r = (uint32_t)((left % m) * k % m);
		memcpy(q->active + kept, seq + r, k * sizeof *seq);
		memcpy(q->pending, seq + r + k, q->n_pending * sizeof *seq);
		return;
	}
}

static void tla_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	struct tla_state *st = s->state;
	const struct sched_core_view *core = s->core;
	struct tla_sched *q = &st->q[si % SCHED_MAX_SCHEDULERS];
	if (!q->built) {
		uint32_t n_max = sched_params_of(s)->ready_queue_warps;
		tla_build(q, core, si, n_max ? n_max : 1);
		tla_catch_up(q, core, 1);
		q->stepped_cycle = now;
	} else if (now > q->stepped_cycle) {
		/* At most once a cycle: CFF fetch also ranks with the issue policy. */
		tla_catch_up(q, core, now - q->stepped_cycle);
		q->stepped_cycle = now;
	}
	uint64_t in = 0;
	for (uint32_t i = 0; i < n; i++)
		in |= 1ull << ids[i];
	uint32_t out = 0, issuable = 0;
	for (uint32_t i = 0; i < q->n_active; i++)
		if (in >> q->active[i] & 1)
			ids[out++] = q->active[i];
	issuable = out;
	for (uint32_t i = 0; i < q->n_pending; i++)
		if (in >> q->pending[i] & 1)
			ids[out++] = q->pending[i];
	SIM_ASSERT(out == n); /* the SM hands only this scheduler's slots */
	/* scheduler_unit::cycle walks only m_next_cycle_prioritized_warps. */
	s->rank_issuable = issuable ? issuable : SCHED_ISSUABLE_NONE;
}

/* do_on_warp_issued with inner level LRR: the active list restarts after the issued warp. */
static void tla_event(struct sched *s, const struct sched_event *ev)
{
	if (ev->kind != SCHED_EV_WARP_ISSUE)
		return;
	struct tla_state *st = s->state;
	struct tla_sched *q = &st->q[s->core->warps[ev->warp_id].sched_idx % SCHED_MAX_SCHEDULERS];
	for (uint32_t i = 0; i < q->n_active; i++)
		if (q->active[i] == ev->warp_id) {
			uint16_t rot[SCHED_MAX_WARPS];
			for (uint32_t j = 0; j < q->n_active; j++)
				rot[j] = q->active[(i + 1 + j) % q->n_active];
			memcpy(q->active, rot, q->n_active * sizeof *rot);
			return;
		}
}

bool sched_tl_active_is_active(const struct sched *s, uint32_t sched_idx, uint16_t warp_id)
{
	const struct tla_state *st = s->state;
	const struct tla_sched *q = &st->q[sched_idx % SCHED_MAX_SCHEDULERS];
	for (uint32_t i = 0; i < q->n_active; i++)
		if (q->active[i] == warp_id)
			return true;
	return false;
}

const struct sched_ops sched_tl_active_ops = { "tl-active", tla_init, tla_event, tla_rank, tla_fini, 0, NULL, NULL };
