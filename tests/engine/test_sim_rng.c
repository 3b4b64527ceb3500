/* SPDX-License-Identifier: MIT */
/* Tests engine/sim.h RNG: xoshiro256** reference outputs, determinism, stream independence. */
#include <criterion/criterion.h>

#include "engine/sim.h"

Test(rng, xoshiro256ss_matches_the_reference_recurrence)
{
	/* State {1,2,3,4} by hand: out1 = rotl(2*5,7)*9 = 1280*9 = 11520; the update gives
	 * s = {7, 0, 262146, rotl(6,45)}: out2 = rotl(0,7)*9 = 0; the next update gives
	 * s1 = 262146 ^ 7 = 262149: out3 = rotl(1310745,7)*9 = 1310745*1152 = 1509978240. */
	struct sim_rng r = {{1, 2, 3, 4}};
	cr_assert_eq(sim_rng_next(&r), 11520);
	cr_assert_eq(sim_rng_next(&r), 0);
	cr_assert_eq(sim_rng_next(&r), 1509978240ull);
}

Test(rng, same_seed_and_stream_same_sequence)
{
	struct sim_rng a, b, c;
	sim_rng_seed(&a, 42, 7);
	sim_rng_seed(&b, 42, 7);
	sim_rng_seed(&c, 43, 7);
	int same_as_c = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = sim_rng_next(&a);
		cr_assert_eq(x, sim_rng_next(&b));
		same_as_c += x == sim_rng_next(&c);
	}
	cr_assert_eq(same_as_c, 0);
}

Test(rng, streams_are_independent)
{
	/* Neighbouring streams of one seed: the low bits of 10000 draws should agree about half
	 * the time (binomial, sd 50: accept 5000 +- 300, six sd), and no 64-bit value repeats
	 * among the first draws of 256 streams. */
	struct sim_rng s0, s1;
	sim_rng_seed(&s0, 1, 0);
	sim_rng_seed(&s1, 1, 1);
	int agree = 0;
	for (int i = 0; i < 10000; i++)
		agree += (sim_rng_next(&s0) & 1) == (sim_rng_next(&s1) & 1);
	cr_assert(agree > 4700 && agree < 5300, "low bits agree %d of 10000", agree);
	static uint64_t first[256];
	for (int s = 0; s < 256; s++) {
		struct sim_rng r;
		sim_rng_seed(&r, 1, (uint64_t)s);
		first[s] = sim_rng_next(&r);
		for (int j = 0; j < s; j++)
			cr_assert_neq(first[s], first[j], "streams %d and %d start alike", s, j);
	}
}

Test(rng, below_is_uniform_and_in_range)
{
	/* 60000 draws of below(6): each face 10000 expected, sd = sqrt(60000/6*5/6) = 91;
	 * accept +- 500 (5.5 sd). unit() stays in [0,1) with mean near 0.5. */
	struct sim_rng r;
	sim_rng_seed(&r, 9, 3);
	int count[6] = {0};
	for (int i = 0; i < 60000; i++) {
		uint64_t x = sim_rng_below(&r, 6);
		cr_assert_lt(x, 6);
		count[x]++;
	}
	for (int k = 0; k < 6; k++)
		cr_assert(count[k] > 9500 && count[k] < 10500, "face %d: %d", k, count[k]);
	double sum = 0;
	for (int i = 0; i < 10000; i++) {
		double u = sim_rng_unit(&r);
		cr_assert(u >= 0.0 && u < 1.0);
		sum += u;
	}
	cr_assert(sum / 10000 > 0.48 && sum / 10000 < 0.52, "mean %f", sum / 10000);
	cr_assert_eq(sim_rng_below(&r, 1), 0);
}
