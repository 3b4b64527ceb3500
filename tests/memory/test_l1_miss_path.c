/* SPDX-License-Identifier: MIT */
/* Tests GPGPU-Sim's L1 miss path in memory/mem_req.h's mem_unit: gpu.memory.l1d.allocate
 * (on-miss: a way reserved at the miss, LINE_ALLOC_FAIL) and gpu.memory.reservation_fail (hold),
 * against mem_unit_harness.h's fake NoC + L2: a miss issued at cycle c is done at c + 41 (queue 1,
 * NoC 10 + 10, L2 20), a hit at c + 5. L1D: 8 sets x 2 ways of 64 B; lines 0x1000, 0x1200 and
 * 0x1400 share set 0, 0x1040 is in set 1. 4 MSHR entries x 2 targets. */
#include <criterion/criterion.h>

#include "mem_unit_harness.h"

static const struct warp_inst *load(uint64_t addr) { return inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, addr, 4); }

/* Done cycle of the instruction with token tok. */
static uint64_t done_cycle(uint64_t tok)
{
	for (uint32_t i = 0; i < H.n_done; i++)
		if (H.done_token[i] == tok)
			return H.done_ps[i] / 1000;
	cr_assert_fail("token %llu not done", (unsigned long long)tok);
	return 0;
}

/* Builds H with overrides (NULL-terminated, or NULL) added to the harness's. */
static void setup_with(const char *const *overrides)
{
	extra_overrides = overrides;
	setup_text(NULL, true, NULL);
	extra_overrides = NULL;
}

/* Builds H with overrides (NULL-terminated, or NULL), then misses A = 0x1000 at 10 and
 * B = 0x1200 at 11 (tokens 1, 2: set 0's two ways, done at 51 and 52); returns at cycle 12. */
static void take_set0(const char *const *overrides)
{
	setup_with(overrides);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, load(0x1000), 1, 10));
	run_to(11);
	cr_assert(mem_unit_try_issue(H.mu, load(0x1200), 2, 11));
	run_to(12);
}

TestSuite(l1_miss_path, .fini = teardown);

/* The same sequence under both settings. Misses A = 0x1000 at 10 and B = 0x1200 at 11 take set
 * 0's two ways (done at 51 and 52); A again at 12 merges into its entry (a pending hit, done at
 * 51). Then C = 0x1400 at 13:
 * - on-fill: an MSHR entry is free, so C goes (done at 54; its fill evicts A, the LRU line);
 * - on-miss: both ways of set 0 are reserved (GPGPU-Sim's LINE_ALLOC_FAIL): refused, and again
 *   at 50; at 52 A is filled (51) and not reserved: C reserves A's way, evicting A at once, and
 *   is done at 52 + 41 = 93.
 * B at 60 hits either way (done at 65). A at 61 misses either way (done at 102): on-miss it
 * reserves B's way (C's is reserved), the second eviction. */
Test(l1_miss_path, allocate_on_miss_reserves_the_way_and_refuses_a_full_set)
{
	const char *const alloc[] = {"gpu.memory.l1d.allocate=on-miss", NULL};
	for (int on_miss = 0; on_miss < 2; on_miss++) {
		take_set0(on_miss ? alloc : NULL);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1000), 3, 12));
		run_to(13);
		cr_assert_eq(mem_unit_try_issue(H.mu, load(0x1400), 4, 13), !on_miss);
		if (on_miss) {
			run_to(50);
			cr_assert_not(mem_unit_try_issue(H.mu, load(0x1400), 4, 50));
			run_to(52);
			cr_assert(mem_unit_try_issue(H.mu, load(0x1400), 4, 52));
		}
		run_to(60);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1200), 5, 60));
		run_to(61);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1000), 6, 61));
		run_all();
		cr_assert_eq(done_cycle(1), 51);
		cr_assert_eq(done_cycle(2), 52);
		cr_assert_eq(done_cycle(3), 51);
		cr_assert_eq(done_cycle(4), on_miss ? 93 : 54);
		cr_assert_eq(done_cycle(5), 65);
		cr_assert_eq(done_cycle(6), 102);
		cr_assert_eq(stat("sm.0.l1d.pending_hits"), 1);
		cr_assert_eq(stat("sm.0.l1d.hits"), 1);
		cr_assert_eq(stat("sm.0.mem.mshr_full_stalls"), on_miss ? 2 : 0);
		if (on_miss)
			cr_assert_eq(stat("sm.0.l1d.evictions"), 2); /* A at 52, B at 61 */
		teardown();
	}
}

/* gpu.memory.reservation_fail = hold (with on-miss): C = 0x1400 at 12, finding set 0's ways
 * reserved by A and B, is accepted and waits in the L1 stage; D = 0x1040 (set 1, free) at 13 is
 * refused for the busy stage (GPGPU-Sim's ldst unit holds the failed access), and so on until
 * A's fill at 51 lets C reserve A's way in the unit's tick, which injects it in the same tick
 * (done at 51 + 40 = 91) and frees the stage for D in that cycle (done at 51 + 41 = 92). Under refuse, C is refused at 12 and D goes at
 * 13 (done at 54). */
Test(l1_miss_path, hold_keeps_the_failed_access_in_the_stage_and_blocks_the_next)
{
	for (int hold = 0; hold < 2; hold++) {
		const char *const ov[] = {"gpu.memory.l1d.allocate=on-miss",
					  hold ? "gpu.memory.reservation_fail=hold" : "gpu.memory.reservation_fail=refuse", NULL};
		take_set0(ov);
		cr_assert_eq(mem_unit_try_issue(H.mu, load(0x1400), 3, 12), hold);
		uint64_t t = 13;
		run_to(t);
		while (!mem_unit_try_issue(H.mu, load(0x1040), 4, t))
			run_to(++t);
		cr_assert_eq(t, hold ? 51 : 13, "hold %d: accepted at %llu", hold, (unsigned long long)t);
		run_all();
		cr_assert_eq(done_cycle(4), t + 41);
		if (hold)
			cr_assert_eq(done_cycle(3), 91);
		cr_assert_eq(stat("sm.0.mem.stage_busy_stalls"), hold ? 51 - 13 : 0);
		teardown();
	}
}

/* gpu.memory.l1d.miss_delay_cycles = 7 (GPGPU-Sim 4.x's L1 latency queue, which misses pass
 * too): miss A = 0x1000 accessed at 10 may leave at 17 instead of 11, so it is done at
 * 17 + 40 = 57 (51 without); B = 0x1040 at 11 leaves at 18, done at 58. A hit (A again at 60,
 * after the fill) still takes the hit latency alone: 65. */
Test(l1_miss_path, miss_delay_holds_l1d_misses_before_they_leave)
{
	for (int delay = 0; delay < 2; delay++) {
		const char *const ov[] = {delay ? "gpu.memory.l1d.miss_delay_cycles=7" : "gpu.memory.l1d.miss_delay_cycles=0", NULL};
		setup_with(ov);
		run_to(10);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1000), 1, 10));
		run_to(11);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1040), 2, 11));
		run_to(60);
		cr_assert(mem_unit_try_issue(H.mu, load(0x1000), 3, 60));
		run_all();
		cr_assert_eq(H.fn.first_inject_cycle[MEM_REQ_READ], delay ? 17 : 11);
		cr_assert_eq(done_cycle(1), delay ? 57 : 51);
		cr_assert_eq(done_cycle(2), delay ? 58 : 52);
		cr_assert_eq(done_cycle(3), 65);
		teardown();
	}
}
