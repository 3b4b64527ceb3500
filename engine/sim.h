/* SPDX-License-Identifier: MIT */
/* Discrete-event kernel: picosecond time, clock domains, events, components ticked only while
 * active, links with latency/capacity/back-pressure, message pools, per-component RNG, watchdog. */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_error.h"

#define SIM_NEVER UINT64_MAX /* "no time": a component that wants no further tick */

struct sim;

/* ---- clock domains -------------------------------------------------------------
 * Edge c of a domain is at floor(c * 10^6 / freq_mhz) ps, computed from c, never
 * accumulated, so 1300 MHz does not drift over 10^9 cycles. */
struct sim_clock {
	const char *name;   /* owned by caller, e.g. "core" */
	uint32_t freq_mhz;  /* 1..100000 */
	uint32_t index;     /* position in the sim's domain list */
	uint64_t period_ps; /* set by sim_clock_add when 10^6 % freq_mhz == 0 (integer period),
			     * else 0; a 0 here only selects the exact division path */
	uint64_t recip;     /* set by sim_clock_add: UINT64_MAX / freq_mhz, replaces a division
			     * by a multiply (0: divide) */
};
uint64_t sim_clock_edge_ps(const struct sim_clock *clk, uint64_t cycle);
/* Smallest cycle c with edge_ps(c) >= t_ps. */
uint64_t sim_clock_cycle_at_or_after(const struct sim_clock *clk, uint64_t t_ps);
/* Largest cycle c with edge_ps(c) <= t_ps (the cycle "current" at t_ps). */
uint64_t sim_clock_cycle_at(const struct sim_clock *clk, uint64_t t_ps);

/* ---- events ------------------------------------------------------------------
 * Embedded in their owner. Ordered by (when_ps, prio, seq); seq is the insertion
 * counter, so ties fire FIFO. Lower prio (0..65535) fires first. */
enum sim_prio {
	SIM_PRIO_DELIVERY = 0, /* link deliveries and wake-ups before ticks at the same time */
	SIM_PRIO_TICK = 10,
	SIM_PRIO_STATS = 20,   /* sampling, watchdog: after every tick of that instant */
};
struct sim_event {
	uint64_t when_ps;
	uint64_t seq;
	uint32_t prio;
	uint32_t heap_idx;  /* position in the queue, UINT32_MAX when not queued */
	void (*fire)(struct sim *sim, struct sim_event *ev);
};
/* Queue ev at when_ps (must be >= sim_now_ps). ev must not be queued already. */
void sim_event_schedule(struct sim *sim, struct sim_event *ev, uint64_t when_ps);
/* Move a queued event earlier or later, or queue it if it is not. */
void sim_event_reschedule(struct sim *sim, struct sim_event *ev, uint64_t when_ps);
void sim_event_cancel(struct sim *sim, struct sim_event *ev);
static inline bool sim_event_queued(const struct sim_event *ev) { return ev->heap_idx != UINT32_MAX; }
void sim_event_init(struct sim_event *ev, uint32_t prio, void (*fire)(struct sim *, struct sim_event *));
/* The queue grows by doubling when full (an allocation); components and links reserve
 * their slot when added, other owners of many events reserve here at build time so the
 * run never allocates. SIM_ERR_NOMEM on failure. */
int sim_event_reserve(struct sim *sim, uint32_t n, struct sim_error *err);

/* ---- RNG (xoshiro256**, seeded from the run seed and a stream id) ----------- */
struct sim_rng { uint64_t s[4]; };
void sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream);
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t sim_rng_below(struct sim_rng *r, uint64_t n);
double sim_rng_unit(struct sim_rng *r); /* [0,1) */

/* ---- components ----------------------------------------------------------------
 * A component is ticked on its clock's edges only while it asks to be: tick()
 * returns the next cycle at which it must be ticked even if nothing arrives
 * (cycle+1 while busy, a later cycle for a timer, SIM_NEVER when idle). A message
 * arriving on one of its input links, or sim_component_wake(), brings the tick
 * forward. tick() must return a cycle > its argument or SIM_NEVER (SIM_ASSERT); a
 * component is never ticked twice in one cycle, and a wake it receives during its
 * own tick is merged with what tick() returns. The component embeds this struct and
 * must not touch tick_ev. */
struct sim_component;
struct sim_component_ops {
	uint64_t (*tick)(struct sim_component *c, uint64_t cycle);
	/* Work it holds that must finish before the simulation may end (requests in
	 * flight, warps alive). Used for quiescence and deadlock detection. May be NULL (0). */
	uint64_t (*outstanding)(const struct sim_component *c);
	/* Explain what it holds (for deadlock reports). May be NULL. */
	void (*dump)(const struct sim_component *c, FILE *out);
};
struct sim_component {
	const struct sim_component_ops *ops;
	const char *name;          /* owned by the component, stable for its lifetime */
	struct sim_clock *clk;
	struct sim *sim;
	struct sim_event tick_ev;  /* its one tick event */
	uint64_t next_tick_cycle;  /* cycle of the queued tick, SIM_NEVER when idle */
	uint64_t ticks;            /* number of times tick() ran */
	uint32_t id;               /* registration index: seeds its RNG, orders ties */
	uint64_t min_next_cycle;   /* last ticked cycle + 1: never ticked twice in one cycle */
	struct sim_rng rng;        /* seeded by sim_component_add from (run seed, id) */
};
/* Register c (ops, name, clk filled by caller; clk added to this sim). c starts idle.
 * Ticks due at the same instant run in registration order (id), not wake order. */
int sim_component_add(struct sim *sim, struct sim_component *c, struct sim_error *err);
/* Tick c at the first edge of its clock at or after now (if that is earlier than what is queued). */
void sim_component_wake(struct sim_component *c);
/* Tick c at the first edge at or after t_ps (if earlier than what is queued). */
void sim_component_wake_at_ps(struct sim_component *c, uint64_t t_ps);
/* Tick c at its own cycle (if earlier than what is queued). */
void sim_component_wake_at_cycle(struct sim_component *c, uint64_t cycle);
/* The component's current cycle at sim_now_ps. */
uint64_t sim_component_cycle(const struct sim_component *c);

/* ---- links ----------------------------------------------------------------------
 * One-way FIFO from a sender to a receiver component. A message sent at t is
 * receivable from t + latency_ps. Capacity counts messages in flight plus those
 * delivered but not yet received: a full link refuses (try_send returns false)
 * and wakes the sender when the receiver frees a slot. Nothing is dropped.
 * The receiver is woken at the first edge of its clock at or after t + latency_ps
 * (by deliver_ev at SIM_PRIO_DELIVERY), even if it ticked before that and went
 * idle; messages it leaves unreceived while returning SIM_NEVER do not wake it again. */
struct sim_link {
	const char *name;
	struct sim_component *sender;   /* may be NULL (no wake on free) */
	struct sim_component *receiver; /* woken when a message becomes receivable */
	uint64_t latency_ps;
	uint32_t capacity;              /* messages */
	uint32_t head, count;           /* ring state */
	void **msgs;                    /* ring of capacity entries */
	uint64_t *ready_ps;
	bool sender_blocked;            /* a send was refused since the last receive */
	uint64_t sent, received, refused; /* counters */
	uint64_t announced;             /* messages (by send number) whose receiver was woken */
	struct sim_event deliver_ev;    /* wakes the receiver when the next message is receivable */
};
/* receiver must already be added to its sim. SIM_ERR_CONFIG if capacity is 0,
 * SIM_ERR_NOMEM if the ring cannot be allocated (l is then safe to fini). */
int sim_link_init(struct sim_link *l, const char *name, struct sim_component *sender,
		  struct sim_component *receiver, uint64_t latency_ps, uint32_t capacity,
		  struct sim_error *err);
/* Frees the ring; only once the simulation no longer runs (does not dequeue deliver_ev). */
void sim_link_fini(struct sim_link *l);
bool sim_link_try_send(struct sim *sim, struct sim_link *l, void *msg);
/* Next receivable message or NULL; peek leaves it, recv removes it. */
void *sim_link_peek(const struct sim *sim, const struct sim_link *l);
void *sim_link_recv(struct sim *sim, struct sim_link *l);
static inline bool sim_link_full(const struct sim_link *l) { return l->count >= l->capacity; }

/* ---- pools ---------------------------------------------------------------------
 * Free-list pool of fixed-size objects; grows in chunks (at build or warm-up),
 * never shrinks. alloc returns zeroed memory. The holder frees each object once. */
struct sim_pool {
	size_t obj_bytes;
	uint32_t chunk_objs;
	void *free_list;
	void **chunks;
	uint32_t n_chunks, cap_chunks;
	uint64_t allocated, freed;   /* counters: allocated - freed = live */
	uint64_t capacity;           /* objects ever created */
	size_t stride_bytes;         /* obj_bytes rounded up to 16 (and >= a pointer) */
};
int sim_pool_init(struct sim_pool *p, size_t obj_bytes, uint32_t chunk_objs, struct sim_error *err);
void sim_pool_fini(struct sim_pool *p);
/* NULL only if the system is out of memory. */
void *sim_pool_alloc(struct sim_pool *p);
void sim_pool_free(struct sim_pool *p, void *obj);

/* ---- the simulation --------------------------------------------------------------- */
enum sim_stop {
	SIM_STOP_QUIESCENT,   /* no events left and no outstanding work */
	SIM_STOP_TIME_LIMIT,  /* reached until_ps */
	SIM_STOP_REQUESTED,   /* sim_request_stop() */
	SIM_STOP_DEADLOCK,    /* watchdog or empty queue with outstanding work; err filled */
	SIM_STOP_LIVELOCK,    /* work kept issuing but livelock_sig did not move; dumps written,
			       * err filled with the generic text (the caller may say more) */
};
struct sim_config {
	uint64_t seed;
	uint64_t watchdog_cycles;       /* 0 = off; cycles of watchdog_clk without progress */
	struct sim_clock *watchdog_clk; /* domain the watchdog counts in */
	/* Livelock: checked when the watchdog event fires (every watchdog_cycles, so only with
	 * the watchdog on). livelock_sig returns a count of forward-progress events (what "doing
	 * something" means is the caller's: stores, barrier arrivals, exits...); if it stays the
	 * same for livelock_cycles of watchdog_clk while work is outstanding, sim_run stops with
	 * SIM_STOP_LIVELOCK. 0 or a NULL sig: off. */
	uint64_t livelock_cycles;
	uint64_t (*livelock_sig)(void *ctx);
	void *livelock_ctx;
	/* Called at every watchdog check (about every watchdog_cycles of watchdog_clk while the
	 * simulation runs), for what must look at a run now and then without costing a cycle:
	 * a progress line. It must not change the simulation. NULL: none. */
	void (*periodic)(void *ctx);
	void *periodic_ctx;
};
struct sim *sim_create(const struct sim_config *cfg, struct sim_error *err);
void sim_destroy(struct sim *sim);
int sim_clock_add(struct sim *sim, struct sim_clock *clk, struct sim_error *err);
uint64_t sim_now_ps(const struct sim *sim);
uint64_t sim_seed(const struct sim *sim);
/* Components call this when they did useful work (issued, completed a request). */
void sim_progress(struct sim *sim);
void sim_request_stop(struct sim *sim);
/* Run until quiescence, until_ps (SIM_NEVER for none), a stop request or a deadlock.
 * On deadlock the components' dumps are written to report (if non-NULL) and err says why. */
enum sim_stop sim_run(struct sim *sim, uint64_t until_ps, FILE *report, struct sim_error *err);
uint64_t sim_events_fired(const struct sim *sim);
/* ev (owned by the caller, scheduled by it) is, like the watchdog's, a background event: the
 * simulation is quiescent when only these are left, and sim_run then cancels it (a sampler
 * every N cycles). One at a time; NULL clears. */
void sim_set_background_event(struct sim *sim, struct sim_event *ev);
uint64_t sim_outstanding(const struct sim *sim);
/* Iterate components (registration order). */
uint32_t sim_component_count(const struct sim *sim);
struct sim_component *sim_component_get(const struct sim *sim, uint32_t i);

#endif
