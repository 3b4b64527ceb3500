/* SPDX-License-Identifier: MIT */
/* Clock domains: edge c of a domain lies at floor(c * 10^6 / freq_mhz) ps, computed from c
 * each time (never accumulated), so non-integer periods such as 1300 MHz never drift. */
#include "sim_internal.h"

uint64_t sim_clock_edge_far_ps(const struct sim_clock *clk, uint64_t cycle)
{
	if (cycle == SIM_NEVER)
		return SIM_NEVER;
	/* c = q*f + r  =>  c*10^6/f = q*10^6 + r*10^6/f exactly; r*10^6 < 10^11. */
	uint64_t f = clk->freq_mhz;
	uint64_t q = cycle / f, r = cycle % f;
	if (q > (SIM_NEVER - PS_PER_US) / PS_PER_US)
		return SIM_NEVER; /* beyond 584 000 years of simulated time: saturate */
	return q * PS_PER_US + r * PS_PER_US / f;
}

uint64_t sim_clock_edge_ps(const struct sim_clock *clk, uint64_t cycle)
{
	return clock_edge_ps(clk, cycle);
}

uint64_t sim_clock_cycle_at_or_after(const struct sim_clock *clk, uint64_t t_ps)
{
	return clock_cycle_at_or_after(clk, t_ps);
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
