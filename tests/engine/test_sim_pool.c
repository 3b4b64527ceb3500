/* SPDX-License-Identifier: MIT */
/* Tests engine/sim.h pools: reuse without growth at steady state, zeroed objects, via links. */
#include <criterion/criterion.h>
#include <string.h>

#include "engine/sim.h"
#include "test_sim_util.h"

struct msg {
	uint64_t seq;
	uint64_t payload[5];
};

Test(pool, steady_state_alloc_free_does_not_grow)
{
	/* Live set kept between 0 and 100 objects over 10^6 alloc/free pairs: with chunks of 64
	 * the pool needs two chunks (128 objects) and must never make a third. */
	struct sim_pool p;
	struct sim_error err;
	cr_assert_eq(sim_pool_init(&p, sizeof(struct msg), 64, &err), 0);
	struct sim_rng r;
	sim_rng_seed(&r, 3, 0);
	static struct msg *live[100];
	uint32_t n = 0;
	uint64_t allocs = 0;
	while (allocs < 1000000) {
		bool do_alloc = n == 0 || (n < 100 && sim_rng_below(&r, 2));
		if (do_alloc) {
			struct msg *m = sim_pool_alloc(&p);
			cr_assert_not_null(m);
			cr_assert_eq(m->seq | m->payload[4], 0, "pool object not zeroed");
			memset(m, 0xab, sizeof *m);
			live[n++] = m;
			allocs++;
		} else {
			uint32_t i = (uint32_t)sim_rng_below(&r, n);
			sim_pool_free(&p, live[i]);
			live[i] = live[--n];
		}
	}
	cr_assert_eq(p.capacity, 128);
	cr_assert_eq(p.n_chunks, 2);
	cr_assert_eq(p.allocated, 1000000);
	cr_assert_eq(p.allocated - p.freed, n);
	for (uint32_t i = 0; i < n; i++)
		sim_pool_free(&p, live[i]);
	cr_assert_eq(p.allocated, p.freed);
	sim_pool_fini(&p);
}

Test(pool, objects_are_aligned_and_distinct)
{
	struct sim_pool p;
	struct sim_error err;
	cr_assert_eq(sim_pool_init(&p, 3, 4, &err), 0); /* 3-byte objects: stride 16 */
	cr_assert_eq(p.stride_bytes, 16);
	void *a[9];
	for (int i = 0; i < 9; i++) {
		a[i] = sim_pool_alloc(&p);
		cr_assert_eq((uintptr_t)a[i] % 16, 0);
		for (int j = 0; j < i; j++)
			cr_assert_neq(a[i], a[j]);
	}
	cr_assert_eq(p.capacity, 12); /* 9 live objects need 3 chunks of 4 */
	sim_pool_fini(&p);
	cr_assert_eq(sim_pool_init(&p, 0, 4, &err), SIM_ERR_FAULT);
}

/* 10^6 pooled messages through a link of capacity 4: producer allocates, consumer frees. */
struct pipe {
	struct sim_pool pool;
	struct sim_link link;
	uint64_t to_send, sent, got, bad;
};

static uint64_t tick_producer(struct tcomp *t, uint64_t cycle)
{
	struct pipe *p = t->ctx;
	while (p->sent < p->to_send && !sim_link_full(&p->link)) {
		struct msg *m = sim_pool_alloc(&p->pool);
		m->seq = p->sent;
		cr_assert(sim_link_try_send(t->base.sim, &p->link, m));
		p->sent++;
	}
	t->outstanding = p->to_send - p->sent;
	if (p->sent == p->to_send)
		return SIM_NEVER;
	/* Full: ask once more so the refusal registers and the consumer wakes us. */
	struct msg probe;
	(void)sim_link_try_send(t->base.sim, &p->link, &probe);
	return SIM_NEVER;
	(void)cycle;
}

static uint64_t tick_consumer(struct tcomp *t, uint64_t cycle)
{
	struct pipe *p = t->ctx;
	struct msg *m = sim_link_recv(t->base.sim, &p->link);
	if (!m)
		return SIM_NEVER;
	if (m->seq != p->got)
		p->bad++;
	p->got++;
	sim_pool_free(&p->pool, m);
	return cycle + 1; /* one per cycle; the link wakes it when empty */
}

Test(pool, million_messages_through_a_link_reuse_one_chunk)
{
	/* At most 4 messages live (link capacity) plus none held: one chunk of 16 suffices. */
	struct sim *sim = tsim_create(1, 0, NULL);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	tclock_add(sim, &clk);
	struct pipe p = {.to_send = 1000000};
	struct sim_error err;
	cr_assert_eq(sim_pool_init(&p.pool, sizeof(struct msg), 16, &err), 0);
	struct tcomp prod = {.ctx = &p}, cons = {.ctx = &p};
	tcomp_add(sim, &prod, "producer", &clk, tick_producer);
	tcomp_add(sim, &cons, "consumer", &clk, tick_consumer);
	cr_assert_eq(sim_link_init(&p.link, "p->c", &prod.base, &cons.base, 3000, 4, &err), 0);
	sim_component_wake(&prod.base);
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert_eq(p.got, 1000000);
	cr_assert_eq(p.bad, 0);
	cr_assert_eq(p.pool.allocated, 1000000);
	cr_assert_eq(p.pool.freed, 1000000);
	cr_assert_eq(p.pool.capacity, 16);
	cr_assert_eq(p.pool.n_chunks, 1);
	sim_link_fini(&p.link);
	sim_pool_fini(&p.pool);
	sim_destroy(sim);
}
