/* SPDX-License-Identifier: MIT */
/* Tests mem_unit_warm (memory/mem_req.h): functionally executed accesses applied to the L1D tags
 * by its allocation and write policy, what passes the L1 handed below in order; sequences worked
 * by hand on mem_unit_harness.h's L1D (8 sets x 2 ways of 64 B, LRU: lines A = 0x1000,
 * B = 0x1200 and C = 0x1400 share set 0). */
#include <criterion/criterion.h>

#include "mem_unit_harness.h"

#define A 0x1000
#define B 0x1200
#define C 0x1400

static uint64_t below_addr[32];
static uint32_t n_below;

static void below(void *ctx, uint64_t addr, uint32_t bytes)
{
	(void)ctx;
	cr_assert_eq(bytes, 64, "a whole unsectored line");
	cr_assert_lt(n_below, 32);
	below_addr[n_below++] = addr;
}

static void warm(enum wi_mem_kind kind, uint64_t addr)
{
	mem_unit_warm(H.mu, inst(kind, WI_SPACE_GLOBAL, 1, addr, 4), below, NULL);
}

static void expect_below(const uint64_t *want, uint32_t n)
{
	cr_assert_eq(n_below, n, "%u accesses went below, expected %u", n_below, n);
	for (uint32_t i = 0; i < n; i++)
		cr_assert_eq(below_addr[i], want[i], "access %u below: 0x%llx, expected 0x%llx", i,
			     (unsigned long long)below_addr[i], (unsigned long long)want[i]);
}

TestSuite(mem_unit_warm, .fini = teardown);

/* Fermi's write-evict L1D:
 *  1 load A  miss: below, filled          set 0 {A}
 *  2 load B  miss: below, filled          {A, B}
 *  3 load A  hit: nothing below           A most recent
 *  4 load C  miss: below, evicts B (LRU)  {A, C}
 *  5 load B  miss: below, evicts A        {C, B}
 *  6 store C hit: the line dropped, the write goes below   {B}
 *  7 load C  miss: below, into the free way                {B, C}
 *  8 atomic B: the line dropped, performed below           {C}
 *  9 load B  miss: below                                   {C, B}
 * 10 load C  hit */
Test(mem_unit_warm, write_evict_sequence)
{
	setup_text("gpu.memory.l1d.write_policy=write-evict", true, NULL);
	n_below = 0;
	warm(WI_MEM_LOAD, A);
	warm(WI_MEM_LOAD, B);
	warm(WI_MEM_LOAD, A);
	warm(WI_MEM_LOAD, C);
	warm(WI_MEM_LOAD, B);
	warm(WI_MEM_STORE, C);
	warm(WI_MEM_LOAD, C);
	warm(WI_MEM_ATOMIC, B);
	warm(WI_MEM_LOAD, B);
	warm(WI_MEM_LOAD, C);
	static const uint64_t want[] = {A, B, C, B, C, C, B, B};
	expect_below(want, SIM_ARRAY_LEN(want));
	cr_assert_eq(stat("sm.0.l1d.warm_fills"), 6); /* steps 1, 2, 4, 5, 7, 9 */
	/* no demand access was made: the hit/miss counters stay at 0 */
	cr_assert_eq(stat("sm.0.l1d.accesses"), 0);
	cr_assert_eq(stat("sm.0.l1d.misses"), 0);
	cr_assert_eq(stat("sm.0.mem.loads"), 0);
}

/* A write-back L1D allocates a store's line without fetching it, dirty; its eviction writes it
 * back:
 *  1 store A miss: allocated dirty, nothing below   {A*}
 *  2 load B  miss: below                            {A*, B}
 *  3 load C  miss: below, evicts A: written back     {B, C}
 *  4 store B hit: dirty, most recent, nothing below  {B*, C}
 *  5 load A  miss: below, evicts C (clean)          {B*, A}
 *  6 load C  miss: below, evicts B: written back     {A, C} */
Test(mem_unit_warm, write_back_sequence)
{
	setup_text("gpu.memory.l1d.write_policy=write-back", true, NULL);
	n_below = 0;
	warm(WI_MEM_STORE, A);
	warm(WI_MEM_LOAD, B);
	warm(WI_MEM_LOAD, C);
	warm(WI_MEM_STORE, B);
	warm(WI_MEM_LOAD, A);
	warm(WI_MEM_LOAD, C);
	static const uint64_t want[] = {B, C, A, A, C, B};
	expect_below(want, SIM_ARRAY_LEN(want));
	cr_assert_eq(stat("sm.0.l1d.warm_fills"), 5);
}

/* Shared, constant and texture accesses do not touch the L1D; a warp's lanes in one line are one
 * access (the coalescer's): 32 lanes over lines A and A + 64 (set 1) go below twice. */
Test(mem_unit_warm, only_global_and_local_lines_once_per_line)
{
	setup_text(NULL, true, NULL);
	n_below = 0;
	mem_unit_warm(H.mu, inst(WI_MEM_LOAD, WI_SPACE_SHARED, 32, A, 4), below, NULL);
	mem_unit_warm(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 32, A, 4), below, NULL);
	mem_unit_warm(H.mu, inst(WI_MEM_LOAD, WI_SPACE_TEX, 32, A, 4), below, NULL);
	cr_assert_eq(n_below, 0);
	mem_unit_warm(H.mu, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 32, A, 4), below, NULL);
	static const uint64_t want[] = {A, A + 64};
	expect_below(want, SIM_ARRAY_LEN(want));
}
