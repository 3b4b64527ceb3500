/* SPDX-License-Identifier: MIT */
/* Contract of warp issue and fetch policies: one instance per SM, told of events, asked each
 * cycle to order one scheduler's warps. Policies see warps only through sched_warp_view. */
#ifndef WARPSIM_POLICY_H
#define WARPSIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"

#define SCHED_MAX_WARPS 64   /* warp slots per SM */
#define SCHED_MAX_CTAS 32    /* CTA slots per SM */

/* Read-only view of one warp slot, kept current by the SM. */
struct sched_warp_view {
	bool valid;                 /* slot holds a live (not exited) warp */
	uint16_t warp_id;           /* slot index on the SM, 0..max_warps-1 */
	uint16_t sched_idx;         /* which issue scheduler owns it (warp_id % n_schedulers) */
	uint16_t cta_slot;          /* CTA slot on this SM */
	uint16_t warp_in_cta;       /* 0..warps_per_cta-1 */
	uint32_t cta_id;            /* linear CTA id in the grid */
	uint64_t cta_launch_seq;    /* global CTA launch order on this SM (age: smaller = older) */
	uint64_t age;               /* cta_launch_seq * 65536 + warp_in_cta: GTO/oldest order */
	uint64_t insts_issued;      /* warp instructions issued */
	uint64_t progress;          /* sum of active threads over issued instructions (PRO) */
	uint32_t active_threads;    /* live threads of the warp */
	uint32_t pc;                /* next PC */
	uint8_t ibuf_count;         /* valid I-buffer entries */
	bool ready;                 /* could issue this cycle: I-buffer valid, no hazard, unit free */
	bool unit_busy;             /* not ready only because its functional unit / LD-ST port is busy */
	bool at_barrier;            /* waiting at bar.sync */
	uint16_t long_lat_pending;  /* outstanding long-latency (global/local/tex/atomic) loads */
	bool waiting_long_lat;      /* its next instruction waits on one of those (scoreboard) */
	bool waiting_miss;          /* ...on one of those whose data comes from L2/DRAM (an L1 miss:
	                               OWL's "unavailability of data"; with a memory model that does
	                               not report misses, on any of those) */
	/* PAWS phase data of the next instruction (frontend phase analysis). */
	uint32_t phase_id, phase_distance_cycles, phase_len_cycles, next_phase_len_cycles;
};

/* What the hardware around a policy lets it see. */
struct sched_core_view {
	uint32_t core_id, n_cores;
	uint32_t n_schedulers;
	uint32_t max_warps;                 /* warp slots */
	uint32_t warps_per_cta;             /* of the running kernel */
	const struct sched_warp_view *warps;/* [max_warps] */
	/* Bit per warp slot whose view is blocked (sched_warp_blocked: not valid, waiting on a
	 * long-latency load or at a barrier), kept with the views (a slot >= max_warps is set). */
	uint64_t blocked_mask;
	/* Bit per warp slot not valid or waiting_miss (OWL Algorithm 1's blocked warps). */
	uint64_t miss_mask;
	/* dispatcher: CTAs of this kernel not yet assigned to any core (PRO fast/slow phase). */
	bool (*ctas_waiting)(const void *ctx);
	const void *dispatcher_ctx;
};

enum sched_event_kind {
	SCHED_EV_KERNEL_START,   /* new kernel on this SM (warps_per_cta known) */
	SCHED_EV_CTA_LAUNCH,     /* cta_slot now holds a new CTA (its warps are valid) */
	SCHED_EV_CTA_FINISH,     /* every warp of cta_slot exited */
	SCHED_EV_WARP_ISSUE,     /* warp_id issued an instruction (active lanes in arg) */
	SCHED_EV_FETCH,          /* warp_id fetched into its I-buffer */
	SCHED_EV_LONG_LAT_ISSUE, /* warp_id issued a long-latency load */
	SCHED_EV_LONG_LAT_DONE,  /* its data came back */
	SCHED_EV_BARRIER_ARRIVE, /* warp_id arrived at a barrier of cta_slot */
	SCHED_EV_BARRIER_RELEASE,/* the barrier of cta_slot released */
	SCHED_EV_WARP_EXIT,      /* warp_id exited */
	SCHED_EV_BRANCH,         /* warp_id's I-buffer was flushed by a taken branch */
};
struct sched_event {
	enum sched_event_kind kind;
	uint16_t warp_id, cta_slot;
	uint64_t arg;
	uint64_t cycle;
};

struct sched;  /* a policy instance: ops + its own state */
struct sched_ops {
	const char *name;
	/* Allocate policy state (s->state). Read its settings from cfg; config errors via err. */
	int (*init)(struct sched *s, const struct cfg *cfg, struct sim_error *err);
	void (*on_event)(struct sched *s, const struct sched_event *ev);
	/* Order warp_ids[0..n) (the warps of scheduler sched_idx, or for fetch all warps)
	 * in priority order, highest first. Must be a permutation of the input. */
	void (*rank)(struct sched *s, uint32_t sched_idx, uint64_t now_cycle, uint16_t *warp_ids, uint32_t n);
	void (*fini)(struct sched *s);
	/* SCHED_RANK_* (speed only: the SM may skip a rank() call whose outcome it knows). */
	uint8_t rank_flags;
	/* Optional (speed only), for a PURE policy: rank() is a stable sort of warp_ids by
	 * key[warp_id] ascending, and this fills those keys without sorting. It returns the bound
	 * below which keys may issue: rank() sets rank_issuable to the number of keys below it,
	 * or 0 when it returns UINT64_MAX (always, with SCHED_RANK_NO_LIMIT). The SM then takes
	 * the smallest key it can issue instead of sorting. NULL: the SM calls rank(). */
	uint64_t (*keys)(struct sched *s, uint32_t sched_idx, const uint16_t *warp_ids, uint32_t n, uint64_t *key);
	/* Optional (speed only), for a PURE policy with NO_LIMIT or ANY_SUBSET keys: the warp rank()
	 * would put first among the warp slots of `warps` (non-empty; scheduler sched_idx's, or any
	 * for a fetch policy), given in slot order; UINT16_MAX when its issue limit lets none of
	 * them issue. NULL: the SM ranks. */
	uint16_t (*first)(struct sched *s, uint32_t sched_idx, uint64_t warps);
};
/* ANY_SUBSET (with keys): keys() gives each warp of warp_ids the key, and returns the bound,
 * of a call with all the scheduler's valid warps, whatever subset it is given (it reads the
 * others through the views and blocked_mask): the SM passes only the warps that could issue.
 * PURE: rank() reads only the views, the policy's event-driven state and sched_idx, and
 * changes no state: skipping a call changes nothing, and a cycle in which nothing could issue
 * may be repeated without it. NO_LIMIT: rank_issuable is always 0 and the order is by a key
 * of each warp alone (a stable sort), so ranking a subset of the warps gives their order in
 * the whole ranking: the SM ranks only the ready warps. */
/* FETCH_PARTIAL (a fetch policy's flag, not speed only): a warp whose I-buffer has a free slot
 * may fetch, not only one whose I-buffer is empty (BAWS Sec 6.2 FEF: "the warp ... that has the
 * fewest entries in the I-Buffer"); the fetched instructions follow the buffered ones. */
enum { SCHED_RANK_PURE = 1, SCHED_RANK_NO_LIMIT = 2, SCHED_RANK_ANY_SUBSET = 4, SCHED_FETCH_PARTIAL = 8 };

struct sched {
	const struct sched_ops *ops;
	const struct sched_core_view *core;  /* owned by the SM */
	struct sched *issue;                 /* for a fetch policy: the SM's issue policy (CFF) */
	void *state;
	/* Set by every rank() call: the SM may issue only from the first rank_issuable entries
	 * of that ranking (two-level ready queue / chosen group, when strict_groups is on);
	 * 0 means no limit, SCHED_ISSUABLE_NONE that none may issue. The rest of the ranking
	 * still orders fetch and stall accounting. */
	uint32_t rank_issuable;
	/* For a fetch policy: a warp whose I-buffer has a free slot may fetch, not only one with an
	 * empty I-buffer (gpu.core.scheduler.fetch_eligible, else the policy's SCHED_FETCH_PARTIAL).
	 * Set at creation; a wrapper copies it from the policy it wraps. */
	bool fetch_partial;
};
#define SCHED_ISSUABLE_NONE UINT32_MAX

/* Create the issue policy gpu.core.scheduler.policy or the fetch policy
 * gpu.core.scheduler.fetch for a core; unknown names are config errors. */
struct sched *sched_issue_create(const struct cfg *cfg, const struct sched_core_view *core,
				 struct sim_error *err);
struct sched *sched_fetch_create(const struct cfg *cfg, const struct sched_core_view *core,
				 struct sched *issue, struct sim_error *err);
void sched_destroy(struct sched *s);

static inline void sched_notify(struct sched *s, const struct sched_event *ev)
{
	if (s->ops->on_event)
		s->ops->on_event(s, ev);
}
static inline void sched_rank(struct sched *s, uint32_t sched_idx, uint64_t now_cycle,
			      uint16_t *warp_ids, uint32_t n)
{
	s->ops->rank(s, sched_idx, now_cycle, warp_ids, n);
}

int sched_cfg_define(struct cfg *c, struct sim_error *err);

#endif
