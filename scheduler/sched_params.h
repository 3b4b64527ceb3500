/* SPDX-License-Identifier: MIT */
/* Policy parameters as a plain struct: filled from config by sched_params_from_cfg(), or by
 * hand in tests, then handed to sched_create_params(). The cfg layer is only a reader. */
#ifndef WARPSIM_SCHED_PARAMS_H
#define WARPSIM_SCHED_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

#define SCHED_NAME_MAX 32

/* When a two-level (Narasiman) fetch group counts as stalled (002 Sec 3.2: "all the warps in
 * the fetch group are stalled"; Sec 3.2.2: the policy tolerates "any type of stall"). */
enum sched_tl_switch {
	SCHED_TL_SWITCH_LONG_LAT,  /* every warp waits on a long-latency result or a barrier */
	SCHED_TL_SWITCH_ANY_STALL, /* every warp is not ready, for any reason */
};

/* MWF when no TB has a warp at a barrier (001 Sec 4.1.1 is open on this). */
enum sched_mwf_idle {
	SCHED_MWF_IDLE_TB_ORDER, /* every TB has priority 0: ties go to the smallest TB id */
	SCHED_MWF_IDLE_BASE,     /* plain LRR / GTO over all warps until a warp waits */
};

/* Which warps OWL's Algorithm 1 counts as "blocked because of unavailability of data". */
enum sched_owl_blocked {
	SCHED_OWL_BLOCKED_MISS,      /* waiting on data from L2/DRAM (an L1 miss; core.miss_mask) */
	SCHED_OWL_BLOCKED_LONG_LAT,  /* waiting on a long-latency opcode's result or at a barrier */
};

/* Which phase length PAWS-TL sorts the active queue by (003 Sec IV-B2 "next phase"). */
enum sched_paws_key {
	SCHED_PAWS_KEY_ENTERING,  /* the phase the warp is about to execute (at its current PC) */
	SCHED_PAWS_KEY_FOLLOWING, /* the phase after that one */
};

/* Which warps the fetch stage may fetch for (001 Sec 2.2: only a warp with an empty I-buffer;
 * Sec 6.2 FEF picks "the fewest entries", so a partly full one too). */
enum sched_fetch_eligible {
	SCHED_FETCH_ELIGIBLE_POLICY,    /* each policy's own: rr, cff empty; fef a free slot */
	SCHED_FETCH_ELIGIBLE_EMPTY,     /* every policy: an empty I-buffer */
	SCHED_FETCH_ELIGIBLE_FREE_SLOT, /* every policy: an I-buffer with a free slot */
};

struct sched_params {
	char policy[SCHED_NAME_MAX];     /* issue policy name (gpu.core.scheduler.policy) */
	char fetch[SCHED_NAME_MAX];      /* fetch policy name (gpu.core.scheduler.fetch) */
	uint32_t group_size_warps;       /* TL fetch-group size; OWL minimum warps per group */
	uint32_t ready_queue_warps;      /* tl-rr, tl-gto, paws-tl ready queue size */
	uint64_t pro_threshold_cycles;   /* PRO re-sort interval */
	bool strict_groups;              /* only the chosen group / ready queue may issue */
	bool strict_free_units;          /* tl/OWL: a chosen group waiting only on busy units lets others use free ones */
	enum sched_tl_switch tl_switch;
	enum sched_mwf_idle mwf_idle;
	enum sched_owl_blocked owl_blocked;
	enum sched_paws_key paws_key;
	enum sched_fetch_eligible fetch_eligible;
};

/* The defaults of sched_cfg_define(): lrr, rr, 8, 6, 1000, strict, free units,
 * any-stall, tb-order, l1-miss, entering-phase, policy. */
void sched_params_default(struct sched_params *p);

/* Read gpu.core.scheduler.* (sched_cfg_define must have run). Unknown policy or fetch
 * names are SIM_ERR_CONFIG at the setting's file:line. */
int sched_params_from_cfg(struct sched_params *p, const struct cfg *cfg, struct sim_error *err);

/* Create the issue policy p->policy (fetch false) or the fetch policy p->fetch (fetch
 * true; issue is the SM's issue policy, needed by cff). core must outlive the policy.
 * Returns NULL with err filled (SIM_ERR_CONFIG naming the setting, or SIM_ERR_NOMEM). */
struct sched *sched_create_params(const struct sched_params *p, bool fetch,
				  const struct sched_core_view *core, struct sched *issue,
				  struct sim_error *err);

/* NULL-terminated names of the registered issue and fetch policies (for help text). */
const char *const *sched_issue_names(void);
const char *const *sched_fetch_names(void);

#endif
