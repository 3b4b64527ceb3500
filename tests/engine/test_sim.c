/* SPDX-License-Identifier: MIT */
/* Tests engine/sim.h: event order, clock edges, active-only ticks, timers, run stops, watchdog. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "engine/sim.h"
#include "test_sim_util.h"

/* ---- event ordering ------------------------------------------------------------ */

struct tev {
	struct sim_event ev;
	int tag;
	int *trace;
	int *n;
};

static void tev_fire(struct sim *sim, struct sim_event *ev)
{
	(void)sim;
	struct tev *t = (struct tev *)ev;
	t->trace[(*t->n)++] = t->tag;
}

static void tev_init(struct tev *t, int tag, uint32_t prio, int *trace, int *n)
{
	sim_event_init(&t->ev, prio, tev_fire);
	t->tag = tag;
	t->trace = trace;
	t->n = n;
}

Test(evq, orders_by_time_then_prio_then_fifo)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	int trace[16], n = 0;
	struct tev e[8];
	/* tag: (when, prio) in schedule order:
	 * 0:(300,10) 1:(100,10) 2:(100,0) 3:(100,10) 4:(200,20) 5:(100,10) 6:(200,0) 7:(50,20)
	 * expected: 7(50) | 2(100,p0) 1 3 5 (100,p10 FIFO) | 6(200,p0) 4(200,p20) | 0(300) */
	uint64_t when[8] = {300, 100, 100, 100, 200, 100, 200, 50};
	uint32_t prio[8] = {10, 10, 0, 10, 20, 10, 0, 20};
	for (int i = 0; i < 8; i++) {
		tev_init(&e[i], i, prio[i], trace, &n);
		sim_event_schedule(sim, &e[i].ev, when[i]);
	}
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	int want[8] = {7, 2, 1, 3, 5, 6, 4, 0};
	cr_assert_eq(n, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(trace[i], want[i], "position %d: got %d want %d", i, trace[i], want[i]);
	cr_assert_eq(sim_now_ps(sim), 300);
	cr_assert_eq(sim_events_fired(sim), 8);
	sim_destroy(sim);
}

Test(evq, many_equal_keys_fire_fifo)
{
	/* 1000 events at one (time, prio): a heap is not stable by itself; seq makes it FIFO. */
	struct sim *sim = tsim_create(1, 0, NULL);
	static struct tev e[1000];
	static int trace[1000];
	int n = 0;
	for (int i = 0; i < 1000; i++) {
		tev_init(&e[i], i, SIM_PRIO_TICK, trace, &n);
		sim_event_schedule(sim, &e[i].ev, 42);
	}
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(n, 1000);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(trace[i], i);
	sim_destroy(sim);
}

Test(evq, cancel_and_reschedule)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	int trace[8], n = 0;
	struct tev e[4];
	for (int i = 0; i < 4; i++) {
		tev_init(&e[i], i, SIM_PRIO_TICK, trace, &n);
		sim_event_schedule(sim, &e[i].ev, 100 * (uint64_t)(i + 1)); /* 100 200 300 400 */
	}
	sim_event_cancel(sim, &e[1].ev);            /* 200 gone */
	cr_assert(!sim_event_queued(&e[1].ev));
	sim_event_reschedule(sim, &e[3].ev, 50);    /* 400 -> 50 */
	sim_event_reschedule(sim, &e[0].ev, 350);   /* 100 -> 350 */
	sim_event_reschedule(sim, &e[1].ev, 300);   /* not queued: queued at 300 after e[2] (FIFO) */
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	int want[4] = {3, 2, 1, 0};
	cr_assert_eq(n, 4);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(trace[i], want[i], "position %d", i);
	sim_destroy(sim);
}

/* A random mix of schedule, reschedule and cancel must fire in the order of a sorted
 * reference of (when, prio, order of the last (re)schedule). */
struct ref_ev {
	struct tev t;
	uint64_t when, order;
	uint32_t prio;
	bool live;
};

static struct ref_ev *ref_sorted_base;
static int ref_cmp(const void *a, const void *b)
{
	const struct ref_ev *x = &ref_sorted_base[*(const int *)a], *y = &ref_sorted_base[*(const int *)b];
	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

Test(evq, random_operations_match_a_sorted_reference)
{
	enum { N = 2000 };
	static struct ref_ev ev[N];
	static int trace[N], want[N];
	int n = 0, n_want = 0;
	uint64_t order = 0;
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_rng r;
	sim_rng_seed(&r, 11, 0);
	for (int i = 0; i < N; i++) {
		ev[i].prio = (uint32_t)sim_rng_below(&r, 3) * 10;
		tev_init(&ev[i].t, i, ev[i].prio, trace, &n);
		ev[i].when = sim_rng_below(&r, 500); /* many ties */
		ev[i].order = order++;
		ev[i].live = true;
		sim_event_schedule(sim, &ev[i].t.ev, ev[i].when);
	}
	for (int k = 0; k < 3000; k++) {
		int i = (int)sim_rng_below(&r, N);
		if (sim_rng_below(&r, 3) == 0) {
			sim_event_cancel(sim, &ev[i].t.ev);
			ev[i].live = false;
		} else {
			ev[i].when = sim_rng_below(&r, 500);
			ev[i].order = order++;
			ev[i].live = true;
			sim_event_reschedule(sim, &ev[i].t.ev, ev[i].when);
		}
	}
	for (int i = 0; i < N; i++)
		if (ev[i].live)
			want[n_want++] = i;
	ref_sorted_base = ev;
	qsort(want, (size_t)n_want, sizeof want[0], ref_cmp);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(n, n_want);
	for (int i = 0; i < n; i++)
		cr_assert_eq(trace[i], want[i], "position %d: got %d want %d", i, trace[i], want[i]);
	sim_destroy(sim);
}

/* ---- clock domains ---------------------------------------------------------------- */

Test(clock, edges_have_no_drift_after_1e9_cycles)
{
	/* floor(10^9 * 10^6 / f): 10^15/1300 = 769230769230.77, /650 = 1538461538461.54,
	 * /800 = 1250000000000 exactly, /924 = 1082251082251.08. */
	struct sim_clock c1300 = {.name = "a", .freq_mhz = 1300}, c650 = {.name = "b", .freq_mhz = 650},
			 c800 = {.name = "c", .freq_mhz = 800},
			 c924 = {.name = "d", .freq_mhz = 924};
	cr_assert_eq(sim_clock_edge_ps(&c1300, 1000000000ull), 769230769230ull);
	cr_assert_eq(sim_clock_edge_ps(&c650, 1000000000ull), 1538461538461ull);
	cr_assert_eq(sim_clock_edge_ps(&c800, 1000000000ull), 1250000000000ull);
	cr_assert_eq(sim_clock_edge_ps(&c924, 1000000000ull), 1082251082251ull);
	/* 1300 cycles are exactly 1 us, whichever multiple of it we look at. */
	cr_assert_eq(sim_clock_edge_ps(&c1300, 1300ull * 1000000ull), 1000000ull * 1000000ull);
	/* Same after sim_clock_add sets the integer-period fast path (800 MHz: 1250 ps). */
	struct sim *sim = tsim_create(1, 0, NULL);
	tclock_add(sim, &c800);
	tclock_add(sim, &c1300);
	cr_assert_eq(c800.period_ps, 1250);
	cr_assert_eq(c1300.period_ps, 0);
	cr_assert_eq(sim_clock_edge_ps(&c800, 1000000000ull), 1250000000000ull);
	sim_destroy(sim);
}

Test(clock, cycle_lookups_invert_edges)
{
	struct sim_clock clks[4] = {{.name = "a", .freq_mhz = 1300}, {.name = "b", .freq_mhz = 650},
				    {.name = "c", .freq_mhz = 800, .period_ps = 1250}, {.name = "d", .freq_mhz = 924}};
	uint64_t cycles[] = {0, 1, 2, 12, 1299, 1300, 1301, 999999999ull, 1000000000ull, 123456789012ull};
	for (int k = 0; k < 4; k++) {
		for (size_t i = 0; i < SIM_ARRAY_LEN(cycles); i++) {
			uint64_t c = cycles[i], e = sim_clock_edge_ps(&clks[k], c);
			uint64_t e1 = sim_clock_edge_ps(&clks[k], c + 1);
			cr_assert_eq(sim_clock_cycle_at_or_after(&clks[k], e), c);
			cr_assert_eq(sim_clock_cycle_at(&clks[k], e), c);
			cr_assert_eq(sim_clock_cycle_at(&clks[k], e1 - 1), c);
			cr_assert_eq(sim_clock_cycle_at_or_after(&clks[k], e + 1), c + 1);
		}
	}
	/* 1300 MHz: edges 0, 769, 1538, 2307 ps. t = 770 lies in cycle 1, next edge is cycle 2. */
	cr_assert_eq(sim_clock_edge_ps(&clks[0], 1), 769);
	cr_assert_eq(sim_clock_edge_ps(&clks[0], 3), 2307);
	cr_assert_eq(sim_clock_cycle_at(&clks[0], 770), 1);
	cr_assert_eq(sim_clock_cycle_at_or_after(&clks[0], 770), 2);
	cr_assert_eq(sim_clock_edge_ps(&clks[0], SIM_NEVER), SIM_NEVER);
	cr_assert_eq(sim_clock_cycle_at_or_after(&clks[0], SIM_NEVER), SIM_NEVER);
}

Test(clock, reciprocal_fast_path_matches_exact_division)
{
	/* sim_clock_add gives non-integer periods a reciprocal; its edges must equal the plain
	 * floor(c*10^6/f) (computed here with 128-bit arithmetic) for any cycle. */
	uint32_t freqs[] = {1, 3, 7, 650, 924, 1300, 99991, 100000};
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_rng r;
	sim_rng_seed(&r, 5, 0);
	for (size_t k = 0; k < SIM_ARRAY_LEN(freqs); k++) {
		struct sim_clock clk = {.name = "x", .freq_mhz = freqs[k]};
		tclock_add(sim, &clk);
		for (int i = 0; i < 20000; i++) {
			uint64_t c = i < 100 ? (uint64_t)i : sim_rng_next(&r) >> (20 + (i % 40));
			__extension__ unsigned __int128 want = (unsigned __int128)c * 1000000u / freqs[k];
			cr_assert_eq(sim_clock_edge_ps(&clk, c), (uint64_t)want, "f %u cycle %lu", freqs[k],
				     (unsigned long)c);
		}
	}
	sim_destroy(sim);
}

Test(clock, bad_frequency_is_a_config_error)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock bad = {.name = "core", .freq_mhz = 0};
	struct sim_error err;
	cr_assert_eq(sim_clock_add(sim, &bad, &err), SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "core") && strstr(err.msg, "1..100000"), "%s", err.msg);
	sim_destroy(sim);
}

/* ---- components: timers, idleness, wake-ups -------------------------------------- */

static uint64_t tick_timer_1e9(struct tcomp *t, uint64_t cycle)
{
	(void)t;
	return cycle == 0 ? 1000000000ull : SIM_NEVER;
}

Test(component, timer_fires_exactly_at_cycle_1e9_of_1300mhz)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1300};
	tclock_add(sim, &clk);
	struct tcomp t = {0};
	tcomp_add(sim, &t, "timer", &clk, tick_timer_1e9);
	sim_component_wake(&t.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(t.base.ticks, 2);
	cr_assert_eq(t.log[1], 1000000000ull);
	cr_assert_eq(t.last_tick_ps, 769230769230ull);
	cr_assert_eq(sim_now_ps(sim), 769230769230ull);
	sim_destroy(sim);
}

static uint64_t tick_every_1000(struct tcomp *t, uint64_t cycle)
{
	(void)t;
	return cycle < 5000 ? cycle + 1000 : SIM_NEVER;
}

Test(component, timers_tick_on_their_edges_only)
{
	/* 924 MHz, ticks at cycles 0,1000,..,5000: six ticks, the last at floor(5000e6/924) =
	 * 5411255 ps. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 924};
	tclock_add(sim, &clk);
	struct tcomp t = {0};
	tcomp_add(sim, &t, "timer", &clk, tick_every_1000);
	sim_component_wake(&t.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(t.base.ticks, 6);
	for (uint32_t i = 0; i < 6; i++)
		cr_assert_eq(t.log[i], 1000 * i);
	cr_assert_eq(t.last_tick_ps, 5411255);
	sim_destroy(sim);
}

/* "worker" runs 10 busy cycles, then sleeps; "waker" wakes it at its own cycle 10^6. */
static uint64_t tick_worker(struct tcomp *t, uint64_t cycle)
{
	uint64_t *busy_left = t->ctx;
	(void)cycle;
	if (*busy_left == 0)
		return SIM_NEVER;
	(*busy_left)--;
	return *busy_left ? cycle + 1 : SIM_NEVER;
}

static uint64_t tick_waker(struct tcomp *t, uint64_t cycle)
{
	struct tcomp *worker = t->ctx;
	if (cycle == 0)
		return 1000000;
	uint64_t *busy_left = worker->ctx;
	*busy_left = 3;
	sim_component_wake(&worker->base);
	return SIM_NEVER;
}

Test(component, idle_components_are_not_ticked)
{
	/* Worker (650 MHz) is busy 10 cycles, idle for ~1.5 ms, then busy 3 cycles after the
	 * waker (1300 MHz) wakes it at waker cycle 10^6 = 769230769 ps: worker's next edge is
	 * cycle ceil(769230769 * 650 / 10^6) = ceil(500000.0) = 500000. Ticks: 10 + 3. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock slow = {.name = "slow", .freq_mhz = 650}, fast = {.name = "fast", .freq_mhz = 1300};
	tclock_add(sim, &slow);
	tclock_add(sim, &fast);
	uint64_t busy = 10;
	struct tcomp worker = {.ctx = &busy}, waker = {.ctx = &worker};
	tcomp_add(sim, &worker, "worker", &slow, tick_worker);
	tcomp_add(sim, &waker, "waker", &fast, tick_waker);
	sim_component_wake(&worker.base);
	sim_component_wake(&waker.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(worker.base.ticks, 13);
	cr_assert_eq(waker.base.ticks, 2);
	cr_assert_eq(worker.log[9], 9);
	cr_assert_eq(worker.log[10], 500000);
	cr_assert_eq(worker.log[12], 500002);
	cr_assert_eq(sim_events_fired(sim), 15);
	sim_destroy(sim);
}

/* Ticks of components due at one instant run in registration order, whatever the wake order. */
static uint64_t tick_record_id(struct tcomp *t, uint64_t cycle)
{
	int *order = t->ctx;
	order[order[0]++ + 1] = (int)t->base.id;
	(void)cycle;
	return SIM_NEVER;
}

Test(component, same_instant_ticks_run_in_registration_order)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	int order[8] = {0};
	struct tcomp t[4] = {{.ctx = order}, {.ctx = order}, {.ctx = order}, {.ctx = order}};
	const char *names[4] = {"c0", "c1", "c2", "c3"};
	for (int i = 0; i < 4; i++)
		tcomp_add(sim, &t[i], names[i], &clk, tick_record_id);
	for (int i = 3; i >= 0; i--)
		sim_component_wake_at_cycle(&t[i].base, 7);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(order[0], 4);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(order[i + 1], i);
	cr_assert_eq(sim_now_ps(sim), 7000);
	sim_destroy(sim);
}

/* A wake for the cycle a component already ticked in moves to the next cycle. */
static uint64_t tick_wake_other(struct tcomp *t, uint64_t cycle)
{
	struct tcomp *other = t->ctx;
	(void)cycle;
	sim_component_wake(&other->base);
	return SIM_NEVER;
}

Test(component, never_ticked_twice_in_one_cycle)
{
	/* c0 and c1 both tick at cycle 0 (c0 first). c1 then wakes c0 in the same instant: c0
	 * already ran cycle 0, so it ticks at cycle 1 (1000 ps), once. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct tcomp c0 = {0}, c1 = {.ctx = &c0};
	tcomp_add(sim, &c0, "c0", &clk, NULL);
	tcomp_add(sim, &c1, "c1", &clk, tick_wake_other);
	sim_component_wake(&c0.base);
	sim_component_wake(&c1.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(c0.base.ticks, 2);
	cr_assert_eq(c0.log[0], 0);
	cr_assert_eq(c0.log[1], 1);
	cr_assert_eq(c0.last_tick_ps, 1000);
	sim_destroy(sim);
}

/* ---- run limits ------------------------------------------------------------------- */

static uint64_t tick_forever(struct tcomp *t, uint64_t cycle)
{
	(void)t;
	return cycle + 1;
}

Test(run, time_limit_then_resume)
{
	/* 800 MHz (1250 ps): until 10000 ps runs cycles 0..8 (edge 8 = 10000 ps): 9 ticks. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 800};
	tclock_add(sim, &clk);
	struct tcomp t = {0};
	tcomp_add(sim, &t, "busy", &clk, tick_forever);
	sim_component_wake(&t.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, 10000, NULL, &err), SIM_STOP_TIME_LIMIT);
	cr_assert_eq(t.base.ticks, 9);
	cr_assert_eq(sim_now_ps(sim), 10000);
	/* Resuming to 20000 ps adds cycles 9..16. */
	cr_assert_eq(sim_run(sim, 20000, NULL, &err), SIM_STOP_TIME_LIMIT);
	cr_assert_eq(t.base.ticks, 17);
	sim_destroy(sim);
}

static uint64_t tick_stop_at_5(struct tcomp *t, uint64_t cycle)
{
	if (cycle == 5)
		sim_request_stop(t->base.sim);
	return cycle + 1;
}

Test(run, stop_request_stops_after_the_event)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 800};
	tclock_add(sim, &clk);
	struct tcomp t = {0};
	tcomp_add(sim, &t, "busy", &clk, tick_stop_at_5);
	sim_component_wake(&t.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_REQUESTED);
	cr_assert_eq(t.base.ticks, 6);
	cr_assert_eq(sim_now_ps(sim), 5 * 1250);
	sim_destroy(sim);
}

/* ---- determinism -------------------------------------------------------------------- */

/* Eight components on two clocks wake each other at random cycles drawn from their RNGs;
 * the trace (time, id) hashed over a run must be identical for one seed. */
struct chaos {
	struct tcomp t[8];
	uint64_t hash, n;
};

static uint64_t tick_chaos(struct tcomp *t, uint64_t cycle)
{
	struct chaos *ch = t->ctx;
	ch->hash = (ch->hash ^ (sim_now_ps(t->base.sim) * 31 + t->base.id)) * 0x100000001b3ull;
	if (++ch->n > 20000)
		return SIM_NEVER;
	struct tcomp *other = &ch->t[sim_rng_below(&t->base.rng, 8)];
	sim_component_wake_at_cycle(&other->base, sim_component_cycle(&other->base) + sim_rng_below(&t->base.rng, 5));
	return sim_rng_below(&t->base.rng, 4) == 0 ? SIM_NEVER : cycle + 1 + sim_rng_below(&t->base.rng, 3);
}

static uint64_t run_chaos(uint64_t seed, uint64_t *events)
{
	struct sim *sim = tsim_create(seed, 0, NULL);
	struct sim_clock a = {.name = "a", .freq_mhz = 1300}, b = {.name = "b", .freq_mhz = 924};
	tclock_add(sim, &a);
	tclock_add(sim, &b);
	struct chaos ch = {.hash = 0xcbf29ce484222325ull};
	const char *names[8] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"};
	for (int i = 0; i < 8; i++) {
		ch.t[i].ctx = &ch;
		tcomp_add(sim, &ch.t[i], names[i], i % 2 ? &a : &b, tick_chaos);
		sim_component_wake(&ch.t[i].base);
	}
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	*events = sim_events_fired(sim);
	sim_destroy(sim);
	return ch.hash;
}

Test(determinism, same_seed_same_trace)
{
	uint64_t e1, e2, e3;
	uint64_t h1 = run_chaos(7, &e1), h2 = run_chaos(7, &e2), h3 = run_chaos(8, &e3);
	cr_assert_gt(e1, 20000);
	cr_assert_eq(h1, h2);
	cr_assert_eq(e1, e2);
	cr_assert_neq(h1, h3, "a different seed should give a different trace");
}

/* Simulations share no state: two running in threads give the single-threaded traces. */
struct chaos_job {
	uint64_t seed, hash, events;
};

static void *chaos_thread(void *arg)
{
	struct chaos_job *j = arg;
	j->hash = run_chaos(j->seed, &j->events);
	return NULL;
}

Test(determinism, simulations_in_threads_do_not_interfere)
{
	uint64_t e7, e8;
	uint64_t h7 = run_chaos(7, &e7), h8 = run_chaos(8, &e8);
	struct chaos_job jobs[2] = {{.seed = 7}, {.seed = 8}};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, chaos_thread, &jobs[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	cr_assert_eq(jobs[0].hash, h7);
	cr_assert_eq(jobs[0].events, e7);
	cr_assert_eq(jobs[1].hash, h8);
	cr_assert_eq(jobs[1].events, e8);
}

/* ---- watchdog ----------------------------------------------------------------------- */

static uint64_t tick_hold_and_sleep(struct tcomp *t, uint64_t cycle)
{
	(void)cycle;
	t->outstanding = 2; /* took two requests, and nobody will ever answer */
	return SIM_NEVER;
}

Test(watchdog, empty_queue_with_outstanding_work_is_a_deadlock)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct tcomp idle = {0}, stuck = {.dump_text = "waiting for reply to request 17"};
	tcomp_add(sim, &idle, "sm.0", &clk, NULL);
	tcomp_add(sim, &stuck, "sm.1", &clk, tick_hold_and_sleep);
	sim_component_wake_at_cycle(&stuck.base, 3);
	char *buf = NULL;
	size_t len = 0;
	FILE *report = open_memstream(&buf, &len);
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(sim_run(sim, SIM_NEVER, report, &err), SIM_STOP_DEADLOCK);
	fclose(report);
	cr_assert_eq(err.code, SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "event queue empty"), "%s", err.msg);
	cr_assert(strstr(err.msg, "sm.1"), "%s", err.msg);
	cr_assert(strstr(buf, "component sm.1"), "%s", buf);
	cr_assert(strstr(buf, "2 outstanding"), "%s", buf);
	cr_assert(strstr(buf, "waiting for reply to request 17"), "%s", buf);
	cr_assert_null(strstr(buf, "sm.0"), "idle component without work listed: %s", buf);
	cr_assert_eq(sim_error_exit_status(&err), 1);
	free(buf);
	sim_destroy(sim);
}

/* Spins (ticks every cycle) holding work; calls sim_progress only up to cycle 500. */
static uint64_t tick_spin(struct tcomp *t, uint64_t cycle)
{
	t->outstanding = 1;
	if (cycle <= 500)
		sim_progress(t->base.sim);
	return cycle + 1;
}

Test(watchdog, no_progress_for_the_limit_is_a_deadlock)
{
	/* Limit 1000 cycles of the 1000 MHz clock; last progress at cycle 500, so the watchdog
	 * fires at cycle 1500 = 1500000 ps, after the spinner's tick of that instant. */
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	struct sim *sim = tsim_create(1, 1000, &clk);
	tclock_add(sim, &clk);
	struct tcomp spin = {.dump_text = "spinning on a lock"};
	tcomp_add(sim, &spin, "spinner", &clk, tick_spin);
	sim_component_wake(&spin.base);
	char *buf = NULL;
	size_t len = 0;
	FILE *report = open_memstream(&buf, &len);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, report, &err), SIM_STOP_DEADLOCK);
	fclose(report);
	cr_assert_eq(err.code, SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "no progress for 1000 cycles of clock core"), "%s", err.msg);
	cr_assert(strstr(buf, "component spinner"), "%s", buf);
	cr_assert(strstr(buf, "spinning on a lock"), "%s", buf);
	cr_assert_eq(sim_now_ps(sim), 1500000);
	cr_assert_eq(spin.base.ticks, 1501);
	free(buf);
	sim_destroy(sim);
}

Test(watchdog, does_not_keep_an_idle_simulation_alive)
{
	/* Busy until cycle 5000, never reports progress but holds nothing: with a 1000-cycle
	 * watchdog it must not fire, and the run ends when the timer component finishes
	 * (cycle 5000 = 5000000 ps), not at a later watchdog check. */
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	struct sim *sim = tsim_create(1, 1000, &clk);
	tclock_add(sim, &clk);
	struct tcomp t = {0};
	tcomp_add(sim, &t, "timer", &clk, tick_every_1000);
	sim_component_wake(&t.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(sim_now_ps(sim), 5000000);
	cr_assert_eq(t.base.ticks, 6);
	sim_destroy(sim);
}
