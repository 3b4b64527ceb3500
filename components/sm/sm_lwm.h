/* SPDX-License-Identifier: MIT */
/* Large warp microarchitecture (Narasiman et al., 002_eff04bc2401aa813 Sec 3.1): warps larger than
 * the SIMD width issue as dynamically packed sub-warps, one per cycle. Private to components/sm. */
#ifndef WARPSIM_SM_LWM_H
#define WARPSIM_SM_LWM_H

#include "sm_internal.h"

/* Memory tokens of one sub-warp's part carry this bit; the SM's own token is below it. */
#define SM_LWM_PART_TOKEN (1ull << 62)
#define SM_LWM_BUCKETS 6               /* 0, <1/4, <1/2, <3/4, <1 of the width, full */

/* Sub-warping in progress on one scheduler (Sec 3.1.1: the sub-warping logic works on one large
 * warp until every bit of its copied active mask is cleared; meanwhile nothing else issues). */
struct sm_lwm_seq {
	bool busy;
	bool mem, rows;                /* a memory instruction; formed row by row (Sec 3.1.2) */
	uint8_t unit;                  /* enum wi_unit of the instruction */
	int8_t sb_idx;                 /* ALU scoreboard entry whose release follows the last sub-warp */
	uint16_t slot;
	uint32_t lanes;                /* the large warp's lanes */
	uint32_t lat_cycles;           /* result latency of one sub-warp */
	uint64_t token;                /* memory: the SM's token of the whole instruction */
	const struct warp_inst *wi;    /* memory: the executed large instruction (addresses) */
	uint64_t rem[WI_MASK_WORDS];   /* threads not issued yet (Sec 3.3's copy of the mask) */
	uint64_t guard[WI_MASK_WORDS]; /* ALU: lanes whose guard predicate held (utilisation) */
};

struct sm_lwm {
	uint32_t size;                 /* gpu.core.large_warp_size (threads) */
	uint32_t width;                /* SIMD width = gpu.core.warp_size: lanes of one sub-warp */
	bool opt_mem_rows;             /* Sec 3.1.2 memory divergence optimisation */
	bool opt_uncond;               /* Sec 3.1.2 unconditional control flow optimisation */
	struct sm_lwm_seq seq[SM_MAX_SCHED];
	uint64_t pre[SCHED_MAX_WARPS][WI_MASK_WORDS]; /* active mask before the guard, per warp */
	uint16_t parts_left[SCHED_MAX_WARPS][SM_SB_ENTRIES]; /* memory parts not completed */
	bool mem_issued;               /* the instruction issue_warp just issued was a memory one */
	struct warp_inst part;         /* one sub-warp of a memory instruction (addr shared) */
	/* stats */
	uint64_t sub_warps;            /* sub-warps issued (issue cycles of large-warp instructions) */
	uint64_t large_insts;          /* large-warp instructions issued */
	uint64_t uncond_single;        /* instructions issued as one sub-warp by the jump optimisation */
	uint64_t mem_row_insts;        /* global memory instructions formed row by row */
	uint64_t lanes[SM_LWM_BUCKETS]; /* sub-warps by active lanes, Fig 10's buckets */
};

/* Settings gpu.core.large_warp_size and gpu.core.lwm.* are declared in sm_cfg.c. Build the LWM
 * state when large_warp_size != 0 (sm->lwm stays NULL otherwise) and widen sm->warp_size to the
 * large size (pool and scratch sizing). SIM_ERR_CONFIG naming the setting when the size is not a
 * multiple of gpu.core.warp_size or the SIMD width exceeds 64. */
int sm_lwm_create(struct sm *sm, const struct cfg *cfg, struct sim_error *err);
void sm_lwm_destroy(struct sm *sm);
int sm_lwm_register_stats(struct sm *sm, struct stats *st);
/* Warp size of a kernel with threads_per_cta threads: large warps never span CTAs (barriers are
 * per CTA), so a CTA smaller than the large warp forms one warp of its threads rounded up to the
 * SIMD width (the dispatcher then counts the same threads). */
uint32_t sm_lwm_kernel_warp_size(const struct sm *sm, uint32_t threads_per_cta);

/* Pipeline hooks (sm_issue.c, sm.c). */
/* issue_warp is about to execute slot's instruction: keep its active mask before the guard
 * predicate (sub-warps form in decode, before predicates are read: Sec 3.1.1, Fig 5). */
void sm_lwm_before_execute(struct sm *sm, uint16_t slot);
/* Scheduler s is sub-warping: issue its next sub-warp; returns the cycle class (ISSUED or
 * STRUCTURAL), or -1 when s is free to rank its warps. */
int sm_lwm_continue(struct sm *sm, uint32_t s, uint64_t now);
/* Whether scheduler s is part-way through splitting a large warp into sub-warps. */
bool sm_lwm_splitting(const struct sm *sm, uint32_t s);
/* After issue_warp issued a non-memory large-warp instruction (executed into sm->scratch). */
void sm_lwm_after_issue(struct sm *sm, uint16_t slot, uint64_t now);
/* Memory instruction of slot (scoreboard entry idx): send its first sub-warp; false = refused. */
bool sm_lwm_mem_issue(struct sm *sm, uint16_t slot, uint8_t idx, const struct warp_inst *wi, uint64_t token,
		      uint64_t now);
/* A part completed: true (and *token = the instruction's token) when it was the last one. */
bool sm_lwm_part_done(struct sm *sm, uint64_t *token);

/* Sub-warp formation (Sec 3.1.1, Fig 7), pure functions over a mask of `lanes` threads in rows of
 * `width` (<= 64) lanes. Moves the next sub-warp from rem to out: one thread per column, the
 * lowest active row of each column; with rows, the lowest non-empty row whole (Sec 3.1.2).
 * Returns its active lanes (0: rem was empty). */
uint32_t sm_lwm_next_subwarp(uint64_t rem[WI_MASK_WORDS], uint32_t lanes, uint32_t width, bool rows,
			     uint64_t out[WI_MASK_WORDS]);
/* Sub-warps a mask needs: the largest column count (packing) or the non-empty rows. */
uint32_t sm_lwm_count_subwarps(const uint64_t mask[WI_MASK_WORDS], uint32_t lanes, uint32_t width, bool rows);

#endif
