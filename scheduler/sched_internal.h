/* SPDX-License-Identifier: MIT */
/* Private to scheduler/ and tests/scheduler/: the instance wrapper, the ops of every policy,
 * and the small ranking helpers they share (stable sort by a per-warp key, last-issued). */
#ifndef WARPSIM_SCHED_INTERNAL_H
#define WARPSIM_SCHED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "sched_params.h"

#define SCHED_MAX_SCHEDULERS 8  /* issue schedulers per SM */
#define SCHED_NONE 0xffffu      /* "no warp" in uint16_t warp slots */

/* What sched_create_params allocates: the public struct plus the resolved parameters. */
struct sched_inst {
	struct sched pub;
	struct sched_params params;
	uint64_t key[SCHED_MAX_WARPS]; /* rank scratch: only key[ids[i]] is written and read */
};
static inline const struct sched_params *sched_params_of(const struct sched *s)
{
	return &((const struct sched_inst *)(const void *)s)->params;
}

/* Per-instance key array for a rank() call: rank runs every scheduler cycle, and a zeroed
 * array on the stack (needed only to quiet a gcc -O2 maybe-uninitialized false positive)
 * cost a 512-byte memset per call. Valid until the instance's next rank(). */
static inline uint64_t *sched_key_scratch(struct sched *s)
{
	return ((struct sched_inst *)(void *)s)->key;
}

/* ---- registered policies (ops tables) ---- */
extern const struct sched_ops sched_lrr_ops, sched_gto_ops, sched_oldest_ops;
extern const struct sched_ops sched_tl_ops;
extern const struct sched_ops sched_owl_cta_ops, sched_owl_locality_ops, sched_owl_blp_ops;
extern const struct sched_ops sched_tl_active_ops;
extern const struct sched_ops sched_tl_rr_ops, sched_tl_gto_ops, sched_paws_tl_ops, sched_paws_ops;
extern const struct sched_ops sched_mwf_lrr_ops, sched_mwf_gto_ops, sched_saws_ops;
extern const struct sched_ops sched_pro_ops;
extern const struct sched_ops sched_fetch_rr_ops, sched_fetch_cff_ops, sched_fetch_fef_ops;

/* ---- helpers ---- */
/* Stable sort of ids[0..n) by key[id] ascending (key indexed by warp slot, SCHED_MAX_WARPS
 * entries). Merge sort on the stack: O(n log n), no allocation. */
void sched_sort_by_key(uint16_t *ids, uint32_t n, const uint64_t *key);

/* Distance of warp slot id after `start` in cyclic slot order: 0 for start itself. */
static inline uint64_t sched_rot(uint32_t id, uint32_t start)
{
	return (uint64_t)((id + SCHED_MAX_WARPS - (start % SCHED_MAX_WARPS)) % SCHED_MAX_WARPS);
}

/* The slot of mask (non-empty) first at or after start in cyclic slot order: the smallest
 * sched_rot key among them. */
static inline uint16_t sched_first_rot(uint64_t mask, uint32_t start)
{
	start %= SCHED_MAX_WARPS;
	uint64_t after = start ? mask >> start : mask;
	return (uint16_t)(after ? start + (uint32_t)__builtin_ctzll(after) : (uint32_t)__builtin_ctzll(mask));
}

/* The warp a scheduler issued last, remembered with its age so a reused slot is not
 * mistaken for it. */
struct sched_last {
	uint16_t warp[SCHED_MAX_SCHEDULERS];
	uint64_t age[SCHED_MAX_SCHEDULERS];
};
void sched_last_reset(struct sched_last *l);
void sched_last_note(struct sched_last *l, const struct sched_core_view *core, uint16_t warp_id);
/* The warp sched_idx issued last if it is still the same live warp, else SCHED_NONE. */
uint16_t sched_last_get(const struct sched_last *l, const struct sched_core_view *core, uint32_t sched_idx);
/* Slot where LRR starts: one after the last issued slot (0 when none). */
uint32_t sched_last_lrr_start(const struct sched_last *l, uint32_t sched_idx);

/* Keys: LRR rotation after the last issued warp, and GTO (last issued first, then age). */
void sched_key_lrr(const struct sched_last *l, uint32_t sched_idx, const uint16_t *ids, uint32_t n,
		   uint64_t *key);
void sched_key_gto(const struct sched_last *l, const struct sched_core_view *core, uint32_t sched_idx,
		   const uint16_t *ids, uint32_t n, uint64_t *key);

/* A warp that cannot issue until data or a barrier partner arrives (OWL "blocked because
 * of unavailability of data"; a barrier wait is included so a CTA split across groups
 * cannot deadlock a strict group). */
static inline bool sched_warp_blocked(const struct sched_warp_view *w)
{
	return !w->valid || w->waiting_long_lat || w->at_barrier;
}

/* ---- OWL Algorithm 1 (exposed for tests) ---- */
#define SCHED_OWL_MAX_GROUPS SCHED_MAX_CTAS
/* FORM GROUPS: N CTAs of k warps, at least g_size warps per group. Writes group_size[]
 * (CTAs per group) and returns g_core. N = 0 gives 0 groups; N < n gives one group of N
 * (the algorithm's floor(N/n) would be 0 there; 004 Sec 4.2 says WP forms one group). */
uint32_t sched_owl_form_groups(uint32_t n_ctas, uint32_t k_warps, uint32_t g_size,
			       uint32_t group_size[SCHED_OWL_MAX_GROUPS]);
enum sched_owl_kind { SCHED_OWL_CTA, SCHED_OWL_LOCALITY, SCHED_OWL_BLP };
/* g_pri[g_num][core_id] of Algorithm 1; lower is higher priority. */
uint32_t sched_owl_group_priority(enum sched_owl_kind kind, uint32_t g_num, uint32_t core_id,
				  uint32_t g_core);

/* ---- PRO (exposed for tests) ---- */
enum sched_pro_state {
	SCHED_PRO_NONE,          /* slot holds no TB */
	SCHED_PRO_NOWAIT,
	SCHED_PRO_BARRIERWAIT,
	SCHED_PRO_FINISHWAIT,
	SCHED_PRO_FINISHNOWAIT,  /* slowTBPhase */
	SCHED_PRO_BARRIERWAIT1,  /* slowTBPhase */
	SCHED_PRO_FINISHED,
};
enum sched_pro_state sched_pro_tb_state(const struct sched *s, uint16_t cta_slot);
bool sched_pro_fast_phase(const struct sched *s);
uint64_t sched_pro_last_sort_cycle(const struct sched *s);

/* ---- PAWS-style queues (exposed for tests) ---- */
enum sched_queue_where { SCHED_Q_NONE, SCHED_Q_READY, SCHED_Q_ACTIVE, SCHED_Q_PENDING };
enum sched_queue_where sched_queue_of(const struct sched *s, uint32_t sched_idx, uint16_t warp_id);
/* tl-active: whether warp_id is in scheduler sched_idx's active list (else pending). */
bool sched_tl_active_is_active(const struct sched *s, uint32_t sched_idx, uint16_t warp_id);

#endif
