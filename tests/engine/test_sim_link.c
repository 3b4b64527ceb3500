/* SPDX-License-Identifier: MIT */
/* Tests engine/sim.h links: latency to the picosecond, wake-ups on arrival, back-pressure. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "engine/sim.h"
#include "test_sim_util.h"

struct link_fixture {
	struct sim_link link;
	uint64_t send_at[8];   /* sender cycles at which to send (SIM_NEVER terminated) */
	uint32_t n_sent;
	uint64_t recv_ps[8];   /* time each message was received */
	uint64_t recv_cycle[8];
	uintptr_t recv_val[8];
	uint32_t n_recv;
	uint32_t early_peeks;  /* ticks that found nothing receivable */
};

static uint64_t tick_scripted_sender(struct tcomp *t, uint64_t cycle)
{
	struct link_fixture *f = t->ctx;
	if (f->send_at[f->n_sent] == cycle) {
		cr_assert(sim_link_try_send(t->base.sim, &f->link, (void *)(uintptr_t)(f->n_sent + 1)));
		f->n_sent++;
	}
	return f->send_at[f->n_sent];
}

static uint64_t tick_drain(struct tcomp *t, uint64_t cycle)
{
	struct link_fixture *f = t->ctx;
	struct sim *sim = t->base.sim;
	if (!sim_link_peek(sim, &f->link))
		f->early_peeks++;
	void *m;
	while ((m = sim_link_recv(sim, &f->link))) {
		f->recv_ps[f->n_recv] = sim_now_ps(sim);
		f->recv_cycle[f->n_recv] = cycle;
		f->recv_val[f->n_recv++] = (uintptr_t)m;
	}
	return SIM_NEVER; /* relies on the link to wake it for the next message */
}

static void setup(struct sim *sim, struct link_fixture *f, struct tcomp *snd, struct tcomp *rcv,
		  struct sim_clock *sclk, struct sim_clock *rclk, uint64_t latency_ps, uint32_t cap)
{
	struct sim_error err;
	snd->ctx = f;
	rcv->ctx = f;
	tcomp_add(sim, snd, "sender", sclk, tick_scripted_sender);
	tcomp_add(sim, rcv, "receiver", rclk, tick_drain);
	cr_assert_eq(sim_link_init(&f->link, "s->r", &snd->base, &rcv->base, latency_ps, cap, &err), 0, "%s", err.msg);
}

Test(link, latency_is_exact_across_clock_domains)
{
	/* Sender 1300 MHz sends at cycle 5: floor(5e6/1300) = 3846 ps; latency 1000 ps: receivable
	 * from 4846 ps. Receiver 800 MHz (1250 ps) is also ticked at cycle 3 (3750 ps) and finds
	 * nothing; its next edge at or after 4846 is cycle 4 = 5000 ps. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock fast = {.name = "fast", .freq_mhz = 1300}, mem = {.name = "mem", .freq_mhz = 800};
	tclock_add(sim, &fast);
	tclock_add(sim, &mem);
	struct link_fixture f = {.send_at = {5, SIM_NEVER}};
	struct tcomp snd = {0}, rcv = {0};
	setup(sim, &f, &snd, &rcv, &fast, &mem, 1000, 4);
	sim_component_wake_at_cycle(&snd.base, 5);
	sim_component_wake_at_cycle(&rcv.base, 3);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(f.n_recv, 1);
	cr_assert_eq(f.early_peeks, 1);
	cr_assert_eq(f.recv_ps[0], 5000);
	cr_assert_eq(f.recv_cycle[0], 4);
	cr_assert_eq(f.link.sent, 1);
	cr_assert_eq(f.link.received, 1);
	sim_link_fini(&f.link);
	sim_destroy(sim);
}

Test(link, message_is_receivable_exactly_at_send_plus_latency)
{
	/* Both ends at 100000 MHz (10 ps edges). Sent at cycle 2 (20 ps) with latency 3750 ps:
	 * receivable at 3770 ps = edge 377 exactly; one ps more latency pushes it to edge 378. */
	uint64_t lat[2] = {3750, 3751}, want_ps[2] = {3770, 3780};
	for (int k = 0; k < 2; k++) {
		struct sim *sim = tsim_create(1, 0, NULL);
		struct sim_clock clk = {.name = "ghz100", .freq_mhz = 100000};
		tclock_add(sim, &clk);
		struct link_fixture f = {.send_at = {2, SIM_NEVER}};
		struct tcomp snd = {0}, rcv = {0};
		setup(sim, &f, &snd, &rcv, &clk, &clk, lat[k], 1);
		sim_component_wake_at_cycle(&snd.base, 2);
		struct sim_error err;
		cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
		cr_assert_eq(f.n_recv, 1);
		cr_assert_eq(f.recv_ps[0], want_ps[k], "latency %lu: received at %lu", (unsigned long)lat[k],
			     (unsigned long)f.recv_ps[0]);
		sim_link_fini(&f.link);
		sim_destroy(sim);
	}
}

Test(link, each_arrival_wakes_an_idle_receiver)
{
	/* 1000 MHz both ends, latency 20 cycles = 20000 ps; sends at cycles 0, 5, 9 arrive at
	 * receiver cycles 20, 25, 29 although the receiver sleeps between them and was ticked at
	 * cycle 20 with later messages still in flight. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct link_fixture f = {.send_at = {0, 5, 9, SIM_NEVER}};
	struct tcomp snd = {0}, rcv = {0};
	setup(sim, &f, &snd, &rcv, &clk, &clk, 20000, 8);
	sim_component_wake(&snd.base);
	struct sim_error err;
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT);
	cr_assert_eq(f.n_recv, 3);
	uint64_t want[3] = {20, 25, 29};
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(f.recv_cycle[i], want[i]);
		cr_assert_eq(f.recv_val[i], (uintptr_t)(i + 1));
	}
	cr_assert_eq(rcv.base.ticks, 3);
	sim_link_fini(&f.link);
	sim_destroy(sim);
}

/* ---- back-pressure ---------------------------------------------------------------- */

struct bp {
	struct sim_link link;
	uint32_t to_send, next_val, n_recv, out_of_order;
	uint64_t last_recv_cycle, last_recv_ps;
};

static uint64_t tick_greedy_sender(struct tcomp *t, uint64_t cycle)
{
	struct bp *b = t->ctx;
	t->outstanding = b->to_send - b->next_val;
	if (b->next_val == b->to_send)
		return SIM_NEVER;
	if (!sim_link_try_send(t->base.sim, &b->link, (void *)(uintptr_t)(b->next_val + 1)))
		return SIM_NEVER; /* sleeps until the receiver frees a slot */
	b->next_val++;
	t->outstanding = b->to_send - b->next_val;
	return cycle + 1;
}

static uint64_t tick_slow_receiver(struct tcomp *t, uint64_t cycle)
{
	struct bp *b = t->ctx;
	struct sim *sim = t->base.sim;
	if (b->n_recv && cycle < b->last_recv_cycle + 10)
		return b->last_recv_cycle + 10; /* one message per 10 cycles */
	void *m = sim_link_recv(sim, &b->link);
	if (!m)
		return SIM_NEVER;
	if ((uintptr_t)m != b->n_recv + 1)
		b->out_of_order++;
	b->n_recv++;
	b->last_recv_cycle = cycle;
	b->last_recv_ps = sim_now_ps(sim);
	return b->link.count ? cycle + 10 : SIM_NEVER;
}

Test(link, full_link_refuses_and_sender_is_woken_when_a_slot_frees)
{
	/* 1000 MHz, capacity 2, latency 500 ps, 100 messages, receiver takes one per 10 cycles.
	 * Sender: msg1 at cycle 0, msg2 at 1, msg3 at 2, refused at 3 and sleeps. The receiver
	 * (ticks after the sender in an instant: registered second) takes msg k at cycle
	 * 1 + 10(k-1), which wakes the sender in the same cycle: it sends msg k+2 there and is
	 * refused the cycle after, up to msg100 at cycle 971. Refusals: cycle 3 plus one after
	 * each of msg4..msg99 = 97. Sender ticks: 100 sends + 97 refusals + 1 at cycle 972
	 * that finds nothing left = 198. Last receive:
	 * msg100 at cycle 991 = 991000 ps. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct bp b = {.to_send = 100};
	struct tcomp snd = {.ctx = &b}, rcv = {.ctx = &b};
	tcomp_add(sim, &snd, "sender", &clk, tick_greedy_sender);
	tcomp_add(sim, &rcv, "receiver", &clk, tick_slow_receiver);
	struct sim_error err;
	cr_assert_eq(sim_link_init(&b.link, "s->r", &snd.base, &rcv.base, 500, 2, &err), 0);
	sim_component_wake(&snd.base);
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert_eq(b.n_recv, 100);
	cr_assert_eq(b.out_of_order, 0);
	cr_assert_eq(b.link.sent, 100);
	cr_assert_eq(b.link.received, 100);
	cr_assert_eq(b.link.count, 0);
	cr_assert_eq(b.link.refused, 97);
	cr_assert_eq(snd.base.ticks, 198, "%lu", (unsigned long)snd.base.ticks);
	cr_assert_eq(b.last_recv_cycle, 991);
	cr_assert_eq(b.last_recv_ps, 991000);
	sim_link_fini(&b.link);
	sim_destroy(sim);
}

Test(link, zero_capacity_is_a_config_error)
{
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct tcomp a = {0}, b = {0};
	tcomp_add(sim, &a, "a", &clk, NULL);
	tcomp_add(sim, &b, "b", &clk, NULL);
	struct sim_link l;
	struct sim_error err;
	cr_assert_eq(sim_link_init(&l, "a->b", &a.base, &b.base, 10, 0, &err), SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "a->b"), "%s", err.msg);
	sim_link_fini(&l);
	sim_destroy(sim);
}

/* ---- determinism and conservation on a ring of links ------------------------------ */

enum { RING_N = 8, RING_TOKENS = 3 };

struct ring_node {
	struct tcomp t;
	struct sim_link *in, *out;
	uintptr_t held[RING_N * RING_TOKENS];
	uint32_t n_held;
	uint64_t *hash;
};

static uint64_t tick_ring(struct tcomp *t, uint64_t cycle)
{
	struct ring_node *n = (struct ring_node *)t;
	struct sim *sim = t->base.sim;
	void *m;
	while ((m = sim_link_recv(sim, n->in))) {
		n->held[n->n_held++] = (uintptr_t)m;
		*n->hash = (*n->hash ^ (sim_now_ps(sim) * 131 + t->base.id * 7 + (uintptr_t)m)) * 0x100000001b3ull;
	}
	t->outstanding = n->n_held;
	if (!n->n_held)
		return SIM_NEVER;
	if (sim_rng_below(&t->base.rng, 3) == 0)
		return cycle + 1 + sim_rng_below(&t->base.rng, 6); /* busy with something else */
	if (!sim_link_try_send(sim, n->out, (void *)n->held[0]))
		return SIM_NEVER;
	sim_progress(sim);
	memmove(n->held, n->held + 1, (n->n_held - 1) * sizeof n->held[0]);
	n->n_held--;
	t->outstanding = n->n_held;
	return n->n_held ? cycle + 1 : SIM_NEVER;
}

static uint64_t run_ring(uint64_t seed, uint32_t *tokens_after, uint64_t *hops)
{
	struct sim_clock clks[3] = {{.name = "a", .freq_mhz = 1300}, {.name = "b", .freq_mhz = 650},
				    {.name = "c", .freq_mhz = 800}};
	struct sim *sim = tsim_create(seed, 10000, &clks[0]);
	for (int k = 0; k < 3; k++)
		tclock_add(sim, &clks[k]);
	static const char *names[RING_N] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7"};
	struct ring_node nodes[RING_N];
	struct sim_link links[RING_N];
	uint64_t hash = 0xcbf29ce484222325ull;
	memset(nodes, 0, sizeof nodes);
	for (int i = 0; i < RING_N; i++) {
		nodes[i].hash = &hash;
		tcomp_add(sim, &nodes[i].t, names[i], &clks[i % 3], tick_ring);
	}
	struct sim_error err;
	for (int i = 0; i < RING_N; i++) {
		cr_assert_eq(sim_link_init(&links[i], "ring", &nodes[i].t.base, &nodes[(i + 1) % RING_N].t.base,
					   1500 + 250 * (uint64_t)i, 2, &err), 0);
		nodes[i].out = &links[i];
		nodes[(i + 1) % RING_N].in = &links[i];
	}
	for (int i = 0; i < RING_N; i++) {
		for (int k = 0; k < RING_TOKENS; k++)
			nodes[i].held[nodes[i].n_held++] = (uintptr_t)(1 + i * RING_TOKENS + k);
		sim_component_wake(&nodes[i].t.base);
	}
	/* 2 us of simulated time: thousands of hops. */
	cr_assert_eq(sim_run(sim, 2000000, NULL, &err), SIM_STOP_TIME_LIMIT, "%s", err.msg);
	uint32_t tokens = 0;
	*hops = 0;
	for (int i = 0; i < RING_N; i++) {
		tokens += nodes[i].n_held + links[i].count;
		*hops += links[i].sent;
		sim_link_fini(&links[i]);
	}
	*tokens_after = tokens;
	sim_destroy(sim);
	return hash;
}

Test(link, ring_runs_are_deterministic_and_lose_nothing)
{
	uint32_t tok1, tok2, tok3;
	uint64_t hops1, hops2, hops3;
	uint64_t h1 = run_ring(5, &tok1, &hops1), h2 = run_ring(5, &tok2, &hops2), h3 = run_ring(6, &tok3, &hops3);
	/* 2 us at 650..1300 MHz with 24 tokens: well over a thousand hops. */
	cr_assert_gt(hops1, 1000, "only %lu hops", (unsigned long)hops1);
	cr_assert_eq(hops1, hops2);
	cr_assert_eq(tok1, RING_N * RING_TOKENS);
	cr_assert_eq(tok2, RING_N * RING_TOKENS);
	cr_assert_eq(tok3, RING_N * RING_TOKENS);
	cr_assert_eq(h1, h2, "same seed, different trace");
	cr_assert_neq(h1, h3, "different seed, same trace");
}
