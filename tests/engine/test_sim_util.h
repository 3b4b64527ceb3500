/* SPDX-License-Identifier: MIT */
/* Shared helpers for the engine tests: a scriptable component and a one-clock simulation. */
#ifndef WARPSIM_TEST_SIM_UTIL_H
#define WARPSIM_TEST_SIM_UTIL_H

#include <criterion/criterion.h>

#include "engine/sim.h"

/* A component whose tick calls a test-provided function; ctx is free for the test. */
struct tcomp {
	struct sim_component base;
	uint64_t (*tick_fn)(struct tcomp *t, uint64_t cycle);
	uint64_t outstanding;
	const char *dump_text;
	void *ctx;
	uint64_t last_tick_ps;
	uint64_t log[64]; /* cycles of the first 64 ticks */
	uint32_t n_log;
};

static inline uint64_t tcomp_tick(struct sim_component *c, uint64_t cycle)
{
	struct tcomp *t = (struct tcomp *)c;
	t->last_tick_ps = sim_now_ps(c->sim);
	if (t->n_log < 64)
		t->log[t->n_log++] = cycle;
	return t->tick_fn ? t->tick_fn(t, cycle) : SIM_NEVER;
}

static inline uint64_t tcomp_outstanding(const struct sim_component *c)
{
	return ((const struct tcomp *)c)->outstanding;
}

static inline void tcomp_dump(const struct sim_component *c, FILE *out)
{
	const struct tcomp *t = (const struct tcomp *)c;
	fprintf(out, "  %s\n", t->dump_text ? t->dump_text : "(nothing to say)");
}

static const struct sim_component_ops tcomp_ops = {tcomp_tick, tcomp_outstanding, tcomp_dump};

static inline void tcomp_add(struct sim *sim, struct tcomp *t, const char *name, struct sim_clock *clk,
			     uint64_t (*fn)(struct tcomp *, uint64_t))
{
	struct sim_error err;
	t->base.ops = &tcomp_ops;
	t->base.name = name;
	t->base.clk = clk;
	t->tick_fn = fn;
	cr_assert_eq(sim_component_add(sim, &t->base, &err), 0, "%s", err.msg);
}

static inline struct sim *tsim_create(uint64_t seed, uint64_t watchdog_cycles, struct sim_clock *wd_clk)
{
	struct sim_error err;
	struct sim_config cfg = {.seed = seed, .watchdog_cycles = watchdog_cycles, .watchdog_clk = wd_clk};
	struct sim *sim = sim_create(&cfg, &err);
	cr_assert_not_null(sim, "%s", err.msg);
	return sim;
}

static inline void tclock_add(struct sim *sim, struct sim_clock *clk)
{
	struct sim_error err;
	cr_assert_eq(sim_clock_add(sim, clk, &err), 0, "%s", err.msg);
}

#endif
