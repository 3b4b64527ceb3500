/* SPDX-License-Identifier: MIT */
/* Policy registry (name -> ops), instance create/destroy from a plain parameter struct, and
 * the ranking helpers every policy shares. No config reading here (see sched_cfg.c). */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

static const struct sched_ops *const issue_ops[] = {
	&sched_lrr_ops, &sched_gto_ops, &sched_oldest_ops,
	&sched_tl_ops, &sched_tl_active_ops, &sched_tl_rr_ops, &sched_tl_gto_ops,
	&sched_owl_cta_ops, &sched_owl_locality_ops, &sched_owl_blp_ops,
	&sched_pro_ops, &sched_mwf_lrr_ops, &sched_mwf_gto_ops, &sched_saws_ops,
	&sched_paws_ops, &sched_paws_tl_ops,
};
static const struct sched_ops *const fetch_ops[] = {
	&sched_fetch_rr_ops, &sched_fetch_cff_ops, &sched_fetch_fef_ops,
};
/* Same order as the tables above; read-only. */
static const char *const issue_names[] = {
	"lrr", "gto", "oldest", "tl", "tl-active", "tl-rr", "tl-gto", "owl-cta", "owl-locality", "owl-blp",
	"pro", "mwf-lrr", "mwf-gto", "saws", "paws", "paws-tl", NULL,
};
static const char *const fetch_names[] = { "rr", "cff", "fef", NULL };

const char *const *sched_issue_names(void) { return issue_names; }
const char *const *sched_fetch_names(void) { return fetch_names; }

void sched_params_default(struct sched_params *p)
{
	memset(p, 0, sizeof *p);
	strcpy(p->policy, "lrr");
	strcpy(p->fetch, "rr");
	p->group_size_warps = 8;      /* OWL Sec 5.2; Narasiman Sec 3.2 example */
	p->ready_queue_warps = 6;     /* PAWS Sec I / Gebhart: ready queue of 6 */
	p->pro_threshold_cycles = 1000; /* PRO Sec III-C */
	p->strict_groups = true;
	p->strict_free_units = true;
	p->tl_switch = SCHED_TL_SWITCH_ANY_STALL; /* Narasiman Sec 3.2, 3.2.2 */
	p->mwf_idle = SCHED_MWF_IDLE_TB_ORDER;
	p->owl_blocked = SCHED_OWL_BLOCKED_MISS; /* OWL Sec 2, Algorithm 1 */
	p->paws_key = SCHED_PAWS_KEY_ENTERING;
	p->fetch_eligible = SCHED_FETCH_ELIGIBLE_POLICY;
}

/* gpu.core.scheduler.fetch_eligible over the policy's own SCHED_FETCH_PARTIAL. */
static bool fetch_partial_of(const struct sched_params *p, const struct sched_ops *ops)
{
	switch (p->fetch_eligible) {
	case SCHED_FETCH_ELIGIBLE_EMPTY:
		return false;
	case SCHED_FETCH_ELIGIBLE_FREE_SLOT:
		return true;
	case SCHED_FETCH_ELIGIBLE_POLICY:
		break;
	}
	return (ops->rank_flags & SCHED_FETCH_PARTIAL) != 0;
}

static const struct sched_ops *lookup(const struct sched_ops *const *tab, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(tab[i]->name, name) == 0)
			return tab[i];
	return NULL;
}

struct sched *sched_create_params(const struct sched_params *p, bool fetch,
				  const struct sched_core_view *core, struct sched *issue,
				  struct sim_error *err)
{
	const char *name = fetch ? p->fetch : p->policy;
	const struct sched_ops *ops = fetch ? lookup(fetch_ops, SIM_ARRAY_LEN(fetch_ops), name)
					    : lookup(issue_ops, SIM_ARRAY_LEN(issue_ops), name);
	const char *setting = fetch ? "gpu.core.scheduler.fetch" : "gpu.core.scheduler.policy";
	if (!ops) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, setting, "unknown %s policy \"%s\"",
			      fetch ? "fetch" : "issue", name);
		return NULL;
	}
	if (!core || core->max_warps > SCHED_MAX_WARPS || core->n_schedulers > SCHED_MAX_SCHEDULERS) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, setting,
			      "core has %u warps / %u schedulers; policies support at most %d / %d",
			      core ? core->max_warps : 0, core ? core->n_schedulers : 0,
			      SCHED_MAX_WARPS, SCHED_MAX_SCHEDULERS);
		return NULL;
	}
	if (fetch && strcmp(name, "cff") == 0 && !issue) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, setting,
			      "cff fetches for the issue policy's next warp: it needs the issue policy");
		return NULL;
	}
	struct sched_inst *in = calloc(1, sizeof *in);
	if (!in) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, setting, "out of memory");
		return NULL;
	}
	in->params = *p;
	in->pub.ops = ops;
	in->pub.core = core;
	in->pub.fetch_partial = fetch && fetch_partial_of(p, ops);
	in->pub.issue = issue;
	if (ops->init && ops->init(&in->pub, NULL, err) != 0) {
		sched_destroy(&in->pub);
		return NULL;
	}
	return &in->pub;
}

void sched_destroy(struct sched *s)
{
	if (!s)
		return;
	if (s->ops && s->ops->fini)
		s->ops->fini(s);
	else
		free(s->state);
	free((struct sched_inst *)(void *)s);
}

/* ---- helpers ---- */

void sched_sort_by_key(uint16_t *ids, uint32_t n, const uint64_t *key)
{
	SIM_ASSERT(n <= SCHED_MAX_WARPS);
	/* Natural merge sort: stable, which the multi-key policies rely on. It runs every
	 * scheduler cycle, and its input (warps in slot order) is nearly always one or two
	 * ascending runs (a round-robin rotation, ages), so it merges runs as found instead of
	 * from width 1: sorted input costs n-1 compares, a rotation one merge. */
	uint16_t tmp[SCHED_MAX_WARPS];
	uint8_t run_end[SCHED_MAX_WARPS + 1];
	for (;;) {
		uint32_t n_runs = 0;
		for (uint32_t i = 1; i < n; i++)
			if (key[ids[i]] < key[ids[i - 1]])
				run_end[n_runs++] = (uint8_t)i;
		if (!n_runs)
			return;
		run_end[n_runs++] = (uint8_t)n;
		/* Merge runs pairwise: [lo, mid) and [mid, hi). */
		uint32_t lo = 0;
		for (uint32_t r = 0; r < n_runs; r += 2) {
			if (r + 1 >= n_runs) {
				memcpy(tmp + lo, ids + lo, (n - lo) * sizeof *ids);
				break;
			}
			uint32_t mid = run_end[r], hi = run_end[r + 1];
			uint32_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = key[ids[j]] < key[ids[i]] ? ids[j++] : ids[i++];
			while (i < mid)
				tmp[k++] = ids[i++];
			while (j < hi)
				tmp[k++] = ids[j++];
			lo = hi;
		}
		memcpy(ids, tmp, n * sizeof *ids);
	}
}

void sched_last_reset(struct sched_last *l)
{
	for (int i = 0; i < SCHED_MAX_SCHEDULERS; i++) {
		l->warp[i] = SCHED_NONE;
		l->age[i] = 0;
	}
}

void sched_last_note(struct sched_last *l, const struct sched_core_view *core, uint16_t warp_id)
{
	if (warp_id >= core->max_warps)
		return;
	const struct sched_warp_view *w = &core->warps[warp_id];
	uint32_t si = w->sched_idx < SCHED_MAX_SCHEDULERS ? w->sched_idx : 0;
	l->warp[si] = warp_id;
	l->age[si] = w->age;
}

uint16_t sched_last_get(const struct sched_last *l, const struct sched_core_view *core, uint32_t sched_idx)
{
	if (sched_idx >= SCHED_MAX_SCHEDULERS)
		return SCHED_NONE;
	uint16_t w = l->warp[sched_idx];
	if (w == SCHED_NONE || w >= core->max_warps)
		return SCHED_NONE;
	const struct sched_warp_view *v = &core->warps[w];
	return v->valid && v->age == l->age[sched_idx] ? w : SCHED_NONE;
}

uint32_t sched_last_lrr_start(const struct sched_last *l, uint32_t sched_idx)
{
	if (sched_idx >= SCHED_MAX_SCHEDULERS || l->warp[sched_idx] == SCHED_NONE)
		return 0;
	/* The slot after the last issued one even if that warp exited since: LRR is about
	 * positions, not warps. */
	return (l->warp[sched_idx] + 1u) % SCHED_MAX_WARPS;
}

void sched_key_lrr(const struct sched_last *l, uint32_t sched_idx, const uint16_t *ids, uint32_t n,
		   uint64_t *key)
{
	uint32_t start = sched_last_lrr_start(l, sched_idx);
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = sched_rot(ids[i], start);
}

void sched_key_gto(const struct sched_last *l, const struct sched_core_view *core, uint32_t sched_idx,
		   const uint16_t *ids, uint32_t n, uint64_t *key)
{
	uint16_t greedy = sched_last_get(l, core, sched_idx);
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp_view *w = &core->warps[ids[i]];
		/* Greedy warp first, then oldest (age = CTA launch order, then warp in CTA). */
		key[ids[i]] = ids[i] == greedy ? 0 : 1 + (w->age & (UINT64_MAX >> 2));
	}
}
