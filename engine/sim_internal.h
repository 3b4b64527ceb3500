/* SPDX-License-Identifier: MIT */
/* Engine-private: the simulation state shared by sim.c and link.c, so the link hot path
 * reads the time without a call. Nothing outside engine/ includes this. */
#ifndef WARPSIM_SIM_INTERNAL_H
#define WARPSIM_SIM_INTERNAL_H

#include "sim.h"

/* ---- clock arithmetic (see clock.c) ---- */
#define PS_PER_US 1000000ull
/* Below this cycle count c * 10^6 fits in 64 bits (2^44 * 10^6 < 2^64). */
#define CLOCK_DIRECT_LIMIT (1ull << 44)

/* Cycles >= 2^44 (and SIM_NEVER): exact split arithmetic, saturating at SIM_NEVER. */
uint64_t sim_clock_edge_far_ps(const struct sim_clock *clk, uint64_t cycle);

/* Inlined into the tick path; sim_clock_edge_ps() is the public wrapper. */
static inline uint64_t clock_edge_ps(const struct sim_clock *clk, uint64_t cycle)
{
	if (cycle < CLOCK_DIRECT_LIMIT) {
		/* The integer-period fast path avoids a 64-bit division per scheduled tick. */
		if (clk->period_ps)
			return cycle * clk->period_ps;
		uint64_t num = cycle * PS_PER_US;
		if (clk->recip) {
			/* recip = floor((2^64-1)/f) makes num*recip/2^64 fall short of num/f by
			 * less than 1, so the high half is the quotient or one less: fix it. A
			 * 64-bit divide costs 40+ cycles; this is two multiplies. */
			__extension__ typedef unsigned __int128 u128;
			uint64_t q = (uint64_t)(((u128)num * clk->recip) >> 64);
			return q + (num - q * clk->freq_mhz >= clk->freq_mhz);
		}
		return num / clk->freq_mhz;
	}
	return sim_clock_edge_far_ps(clk, cycle);
}

static inline uint64_t clock_cycle_at_or_after(const struct sim_clock *clk, uint64_t t_ps)
{
	if (t_ps == SIM_NEVER)
		return SIM_NEVER;
	/* floor(c*10^6/f) >= t  <=>  c*10^6 >= t*f  <=>  c >= ceil(t*f/10^6).
	 * Split t = q*10^6 + r so nothing overflows: q*f < 2^64/10^6 * 10^5. */
	uint64_t f = clk->freq_mhz;
	uint64_t q = t_ps / PS_PER_US, r = t_ps % PS_PER_US;
	return q * f + (r * f + PS_PER_US - 1) / PS_PER_US;
}

/* Heap entries carry their sort key so sifting never dereferences the event: key is
 * prio << 48 | seq. Plain events draw seq from a counter (FIFO among ties; 2^47 events is
 * 80 days at 20 M events/s); tick events use TICK_SEQ(id) so components due at the same
 * instant tick in registration order whatever order they were woken in. */
#define KEY_SEQ_BITS 48
#define KEY_SEQ_MASK ((1ull << KEY_SEQ_BITS) - 1)
#define TICK_SEQ(id) ((1ull << 47) | (uint64_t)(id))

struct heap_ent {
	uint64_t when_ps;
	uint64_t key;
	struct sim_event *ev;
};

struct sim {
	uint64_t now_ps;
	struct heap_ent *heap;     /* heap[0] is the next event; heap[n_heap..] are sentinels */
	uint32_t n_heap, cap_heap;
	uint32_t reserved;         /* slots promised to components, links and sim_event_reserve */
	uint64_t next_seq;
	uint64_t events_fired;
	struct sim_component *ticking; /* the component inside tick(), else NULL */
	bool stop_requested;
	bool deadlocked;           /* set by the watchdog event */

	struct sim_config cfg;
	struct sim_clock **clocks;
	uint32_t n_clocks, cap_clocks;
	struct sim_component **comps;
	uint32_t n_comps, cap_comps;

	/* Wakes asked for a cycle later than a component's queued tick: each becomes an event
	 * of its own so no wake request is ever lost (pooled; rare on the hot path). */
	struct sim_pool wake_pool;

	struct sim_event watchdog_ev;
	uint64_t last_progress_ps; /* time of the last sim_progress() (or of an idle watchdog check) */
	uint64_t progress_calls;
};

#endif
