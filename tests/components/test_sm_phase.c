/* SPDX-License-Identifier: MIT */
/* components/sm/sm_phase.c: PAWS phase distance and lengths (003 Sec III-A: a phase's length is
 * the sum of its instructions' latencies, "from the last to the first instruction") with the
 * machine's latencies. */
#include <criterion/criterion.h>
#include <string.h>

#include "components/sm/sm_internal.h"

Test(sm_phase, distances_and_lengths_sum_the_costs_backwards)
{
	/* Two phases: three instructions costing 10, 10, 1 (an add and an add at m2090's 10 cycles,
	 * then a global load's issue), two more adds. Distances from the end of each phase:
	 * 21 11 1 | 20 10; lengths 21 | 20; the first phase's next phase is 20 long, the last has
	 * none. */
	struct wi_static wi[5];
	memset(wi, 0, sizeof wi);
	const uint32_t phase[5] = {0, 0, 0, 1, 1}, cost[5] = {10, 10, 1, 10, 10};
	for (int i = 0; i < 5; i++)
		wi[i].phase_id = phase[i];
	struct sm_phase out[5];
	uint32_t scratch[5];
	sm_phase_lengths(wi, 5, cost, out, scratch);
	const uint32_t dist[5] = {21, 11, 1, 20, 10}, len[5] = {21, 21, 21, 20, 20}, next[5] = {20, 20, 20, 0, 0};
	for (int i = 0; i < 5; i++) {
		cr_expect_eq(out[i].distance_cycles, dist[i], "pc %d distance %u", i, out[i].distance_cycles);
		cr_expect_eq(out[i].len_cycles, len[i], "pc %d length %u", i, out[i].len_cycles);
		cr_expect_eq(out[i].next_len_cycles, next[i], "pc %d next %u", i, out[i].next_len_cycles);
	}
}
