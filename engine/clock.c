/* SPDX-License-Identifier: MIT */
/* Clock domains: edge c of a domain lies at floor(c * 10^6 / freq_mhz) ps, computed from c
 * each time (never accumulated), so non-integer periods such as 1300 MHz never drift. */
#include "sim.h"

#define PS_PER_US 1000000ull
/* Below this cycle count c * 10^6 fits in 64 bits (2^44 * 10^6 < 2^64). */
#define CLOCK_DIRECT_LIMIT (1ull << 44)

uint64_t sim_clock_edge_ps(const struct sim_clock *clk, uint64_t cycle)
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
	if (cycle == SIM_NEVER)
		return SIM_NEVER;
	/* c = q*f + r  =>  c*10^6/f = q*10^6 + r*10^6/f exactly; r*10^6 < 10^11. */
	uint64_t f = clk->freq_mhz;
	uint64_t q = cycle / f, r = cycle % f;
	if (q > (SIM_NEVER - PS_PER_US) / PS_PER_US)
		return SIM_NEVER; /* beyond 584 000 years of simulated time: saturate */
	return q * PS_PER_US + r * PS_PER_US / f;
}

uint64_t sim_clock_cycle_at_or_after(const struct sim_clock *clk, uint64_t t_ps)
{
	if (t_ps == SIM_NEVER)
		return SIM_NEVER;
	/* floor(c*10^6/f) >= t  <=>  c*10^6 >= t*f  <=>  c >= ceil(t*f/10^6).
	 * Split t = q*10^6 + r so nothing overflows: q*f < 2^64/10^6 * 10^5. */
	uint64_t f = clk->freq_mhz;
	uint64_t q = t_ps / PS_PER_US, r = t_ps % PS_PER_US;
	return q * f + (r * f + PS_PER_US - 1) / PS_PER_US;
}

uint64_t sim_clock_cycle_at(const struct sim_clock *clk, uint64_t t_ps)
{
	if (t_ps == SIM_NEVER)
		return SIM_NEVER;
	/* floor(c*10^6/f) <= t  <=>  c*10^6 < (t+1)*f  <=>  c <= floor(((t+1)*f - 1)/10^6). */
	uint64_t f = clk->freq_mhz;
	uint64_t t1 = t_ps + 1;
	uint64_t q = t1 / PS_PER_US, r = t1 % PS_PER_US;
	if (r == 0)
		return q * f - 1; /* q >= 1 here since t1 >= 1 */
	return q * f + (r * f - 1) / PS_PER_US;
}
