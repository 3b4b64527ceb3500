/* SPDX-License-Identifier: MIT */
/* Tests that the engine's firing order is exactly the documented one, against traces recorded
 * with the plain-heap engine (before tick batching, commit ba60af1): a change in how ticks are
 * queued must leave every (time, component, cycle) and every event fire where it was. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "engine/sim.h"
#include "test_sim_util.h"

/* Clocks chosen so that edges coincide across domains: two domains at 1300 MHz (one edge
 * time, distinct clocks), 650 MHz (every second 1300 MHz edge), 1000 and 500 MHz (integer
 * periods, coinciding), 924 MHz (exact division path, rarely coinciding). */
#define ORD_CLOCKS 6
#define ORD_COMPS 24
#define ORD_EVENTS 12

static const uint32_t ord_freqs[ORD_CLOCKS] = {1300, 1300, 650, 1000, 500, 924};

struct ord_world;

struct ord_ev {
	struct sim_event ev;
	struct ord_world *w;
	uint32_t tag;
};

struct ord_world {
	struct sim *sim;
	struct sim_clock clk[ORD_CLOCKS];
	struct tcomp t[ORD_COMPS];
	struct ord_ev ev[ORD_EVENTS];
	struct sim_link link[4];
	struct sim_rng rng; /* the events' own draws */
	uint64_t hash, n_ticks, n_fires, max_ticks, received;
	uint64_t busy_pct; /* share of ticks that ask for the next cycle */
	bool stops;        /* some ticks request a stop (the run then resumes) */
	uint64_t n_stops;
};

static void ord_mix(struct ord_world *w, uint64_t a, uint64_t b, uint64_t c)
{
	w->hash = (w->hash ^ a) * 0x100000001b3ull;
	w->hash = (w->hash ^ b) * 0x100000001b3ull;
	w->hash = (w->hash ^ c) * 0x100000001b3ull;
}

/* A wake of a random component: its current cycle (possibly one it has already ticked, or a
 * smaller id still due at this instant), a few cycles ahead, a time, or a far cycle. */
static void ord_random_wake(struct ord_world *w, struct sim_rng *r)
{
	struct sim_component *o = &w->t[sim_rng_below(r, ORD_COMPS)].base;
	switch (sim_rng_below(r, 6)) {
	case 0:
	case 1:
		sim_component_wake(o);
		break;
	case 2:
		sim_component_wake_at_cycle(o, sim_component_cycle(o) + sim_rng_below(r, 4));
		break;
	case 3:
		sim_component_wake_at_ps(o, sim_now_ps(w->sim) + sim_rng_below(r, 5000));
		break;
	case 4:
		sim_component_wake_at_cycle(o, sim_component_cycle(o) + 1);
		break;
	default:
		sim_component_wake_at_cycle(o, sim_component_cycle(o) + 10 + sim_rng_below(r, 100));
		break;
	}
}

static void ord_touch_event(struct ord_world *w, struct sim_rng *r)
{
	struct ord_ev *e = &w->ev[sim_rng_below(r, ORD_EVENTS)];
	uint64_t now = sim_now_ps(w->sim);
	switch (sim_rng_below(r, 4)) {
	case 0: /* at this very instant: interleaves with the ticks still due now */
		sim_event_reschedule(w->sim, &e->ev, now);
		break;
	case 1:
		sim_event_reschedule(w->sim, &e->ev, now + sim_rng_below(r, 3000));
		break;
	case 2:
		sim_event_cancel(w->sim, &e->ev);
		break;
	default:
		if (!sim_event_queued(&e->ev))
			sim_event_schedule(w->sim, &e->ev, now + 1 + sim_rng_below(r, 20000));
		break;
	}
}

static uint64_t ord_tick(struct tcomp *t, uint64_t cycle)
{
	struct ord_world *w = t->ctx;
	struct sim_component *c = &t->base;
	struct sim_rng *r = &c->rng;
	ord_mix(w, sim_now_ps(w->sim), c->id, cycle);
	w->n_ticks++;
	uint32_t li = c->id % 4;
	void *m;
	while ((m = sim_link_recv(w->sim, &w->link[li])) != NULL)
		w->received += (uintptr_t)m;
	if (w->n_ticks >= w->max_ticks)
		return SIM_NEVER;
	uint64_t x = sim_rng_below(r, 100);
	if (x < 30)
		ord_random_wake(w, r);
	if (x >= 20 && x < 35)
		ord_touch_event(w, r);
	if (x >= 90)
		sim_link_try_send(w->sim, &w->link[(li + 1) % 4], (void *)(uintptr_t)(c->id + 1));
	if (w->stops && x == 50)
		sim_request_stop(w->sim); /* mid-instant: the next tick of this edge waits for the resume */
	uint64_t y = sim_rng_below(r, 100);
	if (y < w->busy_pct)
		return cycle + 1; /* the common busy case */
	uint64_t rest = 100 - w->busy_pct;
	if (y < w->busy_pct + rest / 2)
		return cycle + 2 + sim_rng_below(r, 6);
	if (y < w->busy_pct + rest * 3 / 4)
		return cycle + 30 + sim_rng_below(r, 60); /* around a batching window of 64 cycles */
	if (y < 98)
		return cycle + 100 + sim_rng_below(r, 100);
	return SIM_NEVER;
}

static void ord_fire(struct sim *sim, struct sim_event *ev)
{
	struct ord_ev *e = (struct ord_ev *)ev;
	struct ord_world *w = e->w;
	ord_mix(w, sim_now_ps(sim), 1000 + e->tag, e->ev.prio);
	w->n_fires++;
	if (w->n_ticks >= w->max_ticks)
		return;
	ord_random_wake(w, &w->rng);
	if (sim_rng_below(&w->rng, 3) == 0)
		ord_random_wake(w, &w->rng);
	if (sim_rng_below(&w->rng, 4) == 0)
		ord_touch_event(w, &w->rng);
}

static const uint32_t ord_prios[3] = {SIM_PRIO_DELIVERY, SIM_PRIO_TICK, SIM_PRIO_STATS};

struct ord_result {
	uint64_t hash, fired, ticks, fires, now_ps;
};

static struct ord_result ord_run(uint64_t seed, uint64_t max_ticks, uint64_t busy_pct, bool stops)
{
	static const char *const names[ORD_COMPS] = {
		"o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "o10", "o11",
		"o12", "o13", "o14", "o15", "o16", "o17", "o18", "o19", "o20", "o21", "o22", "o23"};
	struct ord_world *w = calloc(1, sizeof *w);
	cr_assert_not_null(w);
	w->hash = 0xcbf29ce484222325ull;
	w->max_ticks = max_ticks;
	w->busy_pct = busy_pct;
	w->stops = stops;
	w->sim = tsim_create(seed, 0, NULL);
	sim_rng_seed(&w->rng, seed, 999);
	for (int k = 0; k < ORD_CLOCKS; k++) {
		w->clk[k] = (struct sim_clock){.name = "ord", .freq_mhz = ord_freqs[k]};
		tclock_add(w->sim, &w->clk[k]);
	}
	/* Components of one clock are not registered together: ids interleave the domains. */
	for (int i = 0; i < ORD_COMPS; i++) {
		w->t[i].ctx = w;
		tcomp_add(w->sim, &w->t[i], names[i], &w->clk[(i * 5 + i / 7) % ORD_CLOCKS], ord_tick);
	}
	struct sim_error err;
	for (int l = 0; l < 4; l++)
		cr_assert_eq(sim_link_init(&w->link[l], "ord", NULL, &w->t[l + 4].base, l * 700, 3, &err), 0);
	for (int e = 0; e < ORD_EVENTS; e++) {
		w->ev[e].w = w;
		w->ev[e].tag = (uint32_t)e;
		sim_event_init(&w->ev[e].ev, ord_prios[e % 3], ord_fire);
	}
	cr_assert_eq(sim_event_reserve(w->sim, ORD_EVENTS, &err), 0);
	for (int i = 0; i < ORD_COMPS; i += 3)
		sim_component_wake(&w->t[i].base);
	sim_event_schedule(w->sim, &w->ev[0].ev, 0);
	/* Run in slices so a time limit falls between and inside instants too. */
	enum sim_stop stop;
	do {
		stop = sim_run(w->sim, sim_now_ps(w->sim) + 7777, NULL, &err);
		w->n_stops += stop == SIM_STOP_REQUESTED;
		ord_mix(w, sim_now_ps(w->sim), sim_events_fired(w->sim), stop); /* where each run ended */
	} while (stop == SIM_STOP_TIME_LIMIT || stop == SIM_STOP_REQUESTED);
	if (stops)
		cr_assert_gt(w->n_stops, 100);
	cr_assert_eq(stop, SIM_STOP_QUIESCENT);
	struct ord_result res = {w->hash, sim_events_fired(w->sim), w->n_ticks, w->n_fires, sim_now_ps(w->sim)};
	for (int l = 0; l < 4; l++)
		sim_link_fini(&w->link[l]);
	sim_destroy(w->sim);
	free(w);
	return res;
}

Test(order, matches_the_recorded_heap_trace)
{
	static const struct {
		uint64_t seed, busy_pct;
		bool stops;
		struct ord_result want;
	} cases[] = {
		{1, 70, false, {0x551cd20e5d49eaa5ull, 315800, 200317, 16913, 12262000}},
		{2, 70, false, {0x746c46b027979369ull, 314771, 200310, 16748, 12332000}},
		{3, 70, false, {0xfe4a1de5a0350ae5ull, 315754, 200301, 16970, 12340000}},
		{4, 95, false, {0x7df69edbd2d912c4ull, 273119, 200152, 15672, 9386000}},
		{5, 95, false, {0x1c07a5c2369c20edull, 272923, 200136, 15818, 9340000}},
		{6, 40, false, {0x7080ab6d93fe95c5ull, 369696, 200483, 17363, 14388000}},
		{7, 95, true, {0x3fc7add0571a7b7aull, 273336, 200135, 15867, 9374000}},
		{8, 70, true, {0xc18645b26ee3717dull, 316314, 200309, 17063, 12288000}},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct ord_result got = ord_run(cases[k].seed, 200000, cases[k].busy_pct, cases[k].stops);
		if (memcmp(&got, &cases[k].want, sizeof got) != 0)
			fprintf(stderr, "got {%llu, %llu, %s, {0x%016llxull, %llu, %llu, %llu, %llu}},\n",
				(unsigned long long)cases[k].seed, (unsigned long long)cases[k].busy_pct,
				cases[k].stops ? "true" : "false",
				(unsigned long long)got.hash, (unsigned long long)got.fired,
				(unsigned long long)got.ticks, (unsigned long long)got.fires,
				(unsigned long long)got.now_ps);
		cr_expect_eq(got.hash, cases[k].want.hash, "seed %llu: trace hash", (unsigned long long)cases[k].seed);
		cr_expect_eq(got.fired, cases[k].want.fired);
		cr_expect_eq(got.ticks, cases[k].want.ticks);
		cr_expect_eq(got.fires, cases[k].want.fires);
		cr_expect_eq(got.now_ps, cases[k].want.now_ps);
	}
}

/* A wake asked for a cycle after a component's queued tick is kept as an event at
 * SIM_PRIO_DELIVERY, FIFO with the other events of its instant: a plain event scheduled
 * between two such wakes sees the first component woken and the second not yet. */
struct fifo_probe {
	struct sim_event ev;
	struct tcomp *a, *b;
	uint64_t a_next, b_next;
	int fired;
};

static void fifo_probe_fire(struct sim *sim, struct sim_event *ev)
{
	(void)sim;
	struct fifo_probe *p = (struct fifo_probe *)ev;
	p->a_next = p->a->base.next_tick_cycle;
	p->b_next = p->b->base.next_tick_cycle;
	p->fired++;
}

Test(order, deferred_wakes_fire_fifo_with_events_of_their_instant)
{
	for (int far = 0; far < 2; far++) {
		struct sim *sim = tsim_create(1, 0, NULL);
		struct sim_clock clk = {.name = "c", .freq_mhz = 1000};
		tclock_add(sim, &clk);
		struct tcomp a = {0}, b = {0};
		tcomp_add(sim, &a, "a", &clk, NULL); /* ticks once, then idle */
		tcomp_add(sim, &b, "b", &clk, NULL);
		uint64_t x = far ? 500 : 5; /* within a few cycles, and far ahead */
		sim_component_wake_at_cycle(&a.base, 1);
		sim_component_wake_at_cycle(&b.base, 1);
		sim_component_wake_at_cycle(&a.base, x); /* after a's tick at 1: deferred */
		struct fifo_probe p = {.a = &a, .b = &b};
		sim_event_init(&p.ev, SIM_PRIO_DELIVERY, fifo_probe_fire);
		sim_event_schedule(sim, &p.ev, sim_clock_edge_ps(&clk, x));
		sim_component_wake_at_cycle(&b.base, x); /* deferred, after the probe */
		struct sim_error err;
		cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
		cr_assert_eq(p.fired, 1);
		cr_expect_eq(p.a_next, x, "far %d: a woken before the probe", far);
		cr_expect_eq(p.b_next, SIM_NEVER, "far %d: b woken after the probe", far);
		cr_expect_eq(a.base.ticks, 2);
		cr_expect_eq(b.base.ticks, 2);
		cr_expect_eq(sim_events_fired(sim), 2 + 2 + 1 + 2);
		sim_destroy(sim);
	}
}
