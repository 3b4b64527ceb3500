/* SPDX-License-Identifier: MIT */
/* xoshiro256** (Blackman & Vigna), its state filled by splitmix64 from (seed, stream) so every
 * component draws an independent, reproducible sequence from the one run seed. */
#include "sim.h"

static uint64_t splitmix64_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	/* Hash the stream id first so that neighbouring ids (component 3 and 4) start far apart
	 * on the splitmix sequence; seeds differing by one gamma step would otherwise overlap. */
	uint64_t h = stream ^ 0x6a09e667f3bcc909ull;
	uint64_t x = seed ^ splitmix64_next(&h);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64_next(&x);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1; /* the all-zero state is xoshiro's one fixed point */
}

uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return out;
}

uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
	SIM_ASSERT(n > 0);
	/* Reject the lowest 2^64 mod n values so every residue is equally likely. */
	uint64_t threshold = (0 - n) % n;
	for (;;) {
		uint64_t x = sim_rng_next(r);
		if (x >= threshold)
			return x % n;
	}
}

double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}
