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

/* Ticks of the components of one clock frequency (clocks of equal frequency share their
 * edges, so they share a domain). Nearly every busy component asks for the next cycle, or one
 * a few cycles on, after each tick; re-keying its own heap event sifted it past every other
 * component due at the same edge (~190 instructions per tick). Instead the domain keeps a
 * wheel of TICK_WHEEL member bitmasks, slot x % TICK_WHEEL holding the members due at cycle x
 * for the cycles in [cycle, hi], and is one heap entry keyed like the tick event of its first
 * due member: (edge(cycle), SIM_PRIO_TICK, TICK_SEQ(id)). Member bits follow registration
 * order, so the first set bit is the smallest id and the pops are exactly those of one heap
 * entry per component. A tick wanted outside the wheel's window queues the component's own
 * tick_ev as before. A component's pending tick is in exactly one place: its tick_ev
 * (heap_idx != UINT32_MAX), else the slot of next_tick_cycle in its domain. */
#define TICK_WHEEL 64 /* a power of two, the bits of `occ` */
struct deferred_wake;
struct tick_domain {
	struct sim_event ev;       /* queued while a member is due or being ticked at `cycle` */
	uint64_t cycle;            /* earliest cycle with a member due (while ev is queued) */
	uint64_t hi;               /* no member is due after hi; hi - cycle < TICK_WHEEL */
	uint64_t occ;              /* bit s set while slot s holds members (the slot of `cycle`: may be stale) */
	uint64_t *bits;            /* n_words words of TICK_WHEEL slots; bit i is members[i] */
	uint32_t n[TICK_WHEEL];    /* members in each slot */
	uint32_t lo;               /* no bit of the slot of `cycle` below word lo */
	uint32_t head;             /* member whose id keys ev (during its tick: in no slot) */
	uint32_t n_words;
	uint32_t n_members, cap_members;
	struct sim_component **members;
	uint64_t *keys;            /* heap key of each member's tick: SIM_PRIO_TICK, TICK_SEQ(id) */

	/* Deferred wakes of the members (events at SIM_PRIO_DELIVERY, FIFO by seq) kept the same
	 * way: slot x % TICK_WHEEL lists the wakes at cycle x in creation (= seq) order for the
	 * cycles in [wcycle, whi], and wake_ev is keyed like the first of them. A wake outside
	 * that window is an event of its own. */
	struct sim_event wake_ev;
	uint64_t wcycle, whi, wocc;
	struct deferred_wake *whead[TICK_WHEEL], *wtail[TICK_WHEEL];
	const struct sim_clock *clk; /* the first clock of this frequency: edges depend on it only */
	uint64_t at_ps, at_cycle;  /* sim_component_cycle's last answer: the cycle current at at_ps */
};

/* Where component id's ticks are batched. */
struct tick_slot {
	struct tick_domain *dom;
	uint32_t bit; /* member index in dom */
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
	bool livelocked;           /* set by the watchdog event (with deadlocked) */
	uint64_t ll_sig;           /* livelock_sig at ll_since_ps */
	uint64_t ll_since_ps;      /* when livelock_sig last moved (or sim_run began) */

	struct sim_config cfg;
	struct sim_clock **clocks;
	uint32_t n_clocks, cap_clocks;
	struct sim_component **comps;
	struct tick_slot *slots;   /* by component id, cap_comps entries */
	uint32_t n_comps, cap_comps;
	struct tick_domain **doms; /* one per distinct clock frequency with components */
	uint32_t n_doms, cap_doms;

	/* Wakes asked for a cycle later than a component's queued tick: each becomes an event
	 * of its own so no wake request is ever lost (pooled; rare on the hot path). */
	struct sim_pool wake_pool;

	struct sim_event watchdog_ev;
	struct sim_event *background_ev; /* sim_set_background_event: like the watchdog, keeps nothing alive */
	uint64_t last_progress_ps; /* time of the last sim_progress() (or of an idle watchdog check) */
	uint64_t progress_calls;
};

#endif
