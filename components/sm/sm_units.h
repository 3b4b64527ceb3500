/* SPDX-License-Identifier: MIT */
/* Units and the scoreboard: the inline helpers the issue stage (sm_issue.c) and the status
 * stage (sm_pipeline.c) share. Internal to components/sm. */
#ifndef WS_SM_UNITS_H
#define WS_SM_UNITS_H

#include "sm_internal.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---- units and scoreboard ---------------------------------------------------------- */

/* The unit class an instruction occupies. In a shared pipeline (gpu.core.units.shared_pipeline)
 * branches, barriers and exits pass through it too (OWL Sec 2: every warp instruction enters
 * the one SIMT pipeline), on the SP units; otherwise they take no unit. */
static inline unsigned inst_unit(const struct sm *sm, const struct wi_static *si)
{
	return si->unit == WI_UNIT_NONE && sm->shared_pipe ? WI_UNIT_SP : si->unit;
}

/* Cycle from which unit k of class u is free: in a shared pipeline, when none of pipeline k's
 * units is busy (pipe_free, kept by sm_unit_take). */
static inline uint64_t unit_free_at(const struct sm *sm, unsigned u, uint32_t k)
{
	return sm->shared_pipe ? sm->pipe_free[k] : sm->units[u].next_free[k];
}

/* Index of a free unit of class u at now, or -1; *free_at gets the earliest free cycle. */
static inline int unit_free(const struct sm *sm, unsigned u, uint64_t now, uint64_t *free_at)
{
	const struct sm_unit *un = &sm->units[u];
	uint64_t best = UINT64_MAX;
	for (uint32_t k = 0; k < un->count; k++) {
		uint64_t t = unit_free_at(sm, u, k);
		if (t <= now)
			return (int)k;
		best = min_u64(best, t);
	}
	*free_at = best;
	return -1;
}

/* gpu.core.units.writeback_slots: a free unit of class u whose result slot for lat_cycles is
 * not taken; -1 if every free unit's slot is taken, -2 if no unit is free. Brings each free
 * unit's slot mask to now. *bit gets the slot a result issued now lands in, relative to now's:
 * the bit of wb_mask to set. A slot lasts the SP unit's initiation interval, one warp's results
 * (a cycle on GTX480's 32-wide units, 4 on OWL's 8-wide pipeline, as GPGPU-Sim's owl28 at a
 * quarter of the clock). */
static inline int unit_free_wb(struct sm *sm, unsigned u, uint64_t now, uint32_t lat_cycles, uint64_t *bit)
{
	struct sm_unit *un = &sm->units[u];
	uint32_t slot_cycles = sm->units[WI_UNIT_SP].ii_cycles;
	int r = -2;
	uint64_t slot = now / slot_cycles;
	*bit = (now + lat_cycles) / slot_cycles - slot;
	for (uint32_t k = 0; k < un->count; k++) {
		if (unit_free_at(sm, u, k) > now)
			continue;
		r = -1;
		uint64_t d = slot - un->wb_base[k];
		un->wb_mask[k] = d >= 64 ? 0 : un->wb_mask[k] >> d;
		un->wb_base[k] = slot;
		if (*bit >= 64 || !(un->wb_mask[k] >> *bit & 1))
			return (int)k;
	}
	return r;
}

static inline void sb_set_used(struct sm_warp *w, int i, bool used)
{
	w->sb[i].used = used;
	if (used)
		w->sb_mask |= (uint16_t)(1u << i);
	else
		w->sb_mask &= (uint16_t)~(1u << i);
}

/* Free the entries whose writes are visible by now. */
static inline void sb_free_visible(struct sm_warp *w, uint64_t now)
{
	for (uint32_t m = w->sb_mask; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		if (w->sb[i].release_cycle <= now) {
			sb_set_used(w, (int)i, false);
			w->sb_used--;
		}
	}
}

/* RAW/WAW check of si against the warp's pending writes; frees entries whose writes are
 * visible. Returns 0 if si may issue, else the cycle before which it may not (UINT64_MAX: a
 * memory reply). A full scoreboard blocks too. */
static inline __attribute__((always_inline)) uint64_t sb_check(struct sm_warp *w, const struct wi_static *si,
								 uint64_t now, bool *long_lat, bool *missed)
{
	uint64_t until = 0;
	*long_lat = *missed = false;
	sb_free_visible(w, now);
	for (uint32_t m = w->sb_mask; m; m &= m - 1) {
		const struct sm_sb_entry *e = &w->sb[__builtin_ctz(m)];
		for (uint32_t d = 0; d < e->n_dst; d++) {
			bool hit = false;
			for (uint32_t r = 0; r < si->n_src && !hit; r++)
				hit = si->src[r] == e->dst[d];
			for (uint32_t r = 0; r < si->n_dst && !hit; r++)
				hit = si->dst[r] == e->dst[d];
			if (hit) {
				if (e->release_cycle > until)
					until = e->release_cycle;
				if (e->release_cycle == UINT64_MAX && e->long_lat)
					*long_lat = true;
				if (e->release_cycle == UINT64_MAX && e->missed)
					*missed = true;
			}
		}
	}
	if (!until && w->sb_used >= SM_SB_ENTRIES) {
		/* Full: blocked until its first entry frees (rare, so that walk is made only here). */
		until = UINT64_MAX;
		for (uint32_t m = w->sb_mask; m; m &= m - 1)
			until = min_u64(until, w->sb[__builtin_ctz(m)].release_cycle);
	}
	return until;
}

/* The lowest free entry, or -1. Entries whose writes are visible by now are freed first, as
 * the status pass's sb_check would have done this cycle had it run for this warp (a cached
 * status skips it): the entry chosen does not depend on the status cache. */
static inline int sb_alloc(struct sm_warp *w, uint64_t now)
{
	sb_free_visible(w, now);
	uint32_t free_mask = ~(uint32_t)w->sb_mask & ((1u << SM_SB_ENTRIES) - 1);
	return free_mask ? __builtin_ctz(free_mask) : -1;
}

#endif
