/* SPDX-License-Identifier: MIT */
/* Tests memory/mshr.h: allocation, merging, capacity. */
#include <criterion/criterion.h>

#include "memory/mshr.h"

Test(mshr, second_miss_to_a_line_merges)
{
	struct mshr m;
	struct mshr_cfg cfg = {.entries = 4, .merges_per_entry = 2};
	cr_assert_eq(mshr_init(&m, &cfg, NULL), 0);
	struct mshr_entry *e = mshr_alloc(&m, 0, 0x80, 1, 7, 0);
	cr_assert_not_null(e);
	cr_expect_eq(mshr_find(&m, 0, 0x80, 1), e);
	cr_expect_null(mshr_find(&m, 1, 0x80, 1)); /* another cache's line */
	cr_expect(mshr_merge(&m, e, 9));
	cr_expect_eq(e->n_targets, 2);
	cr_expect_not(mshr_merge(&m, e, 10));      /* 2 targets per entry */
	cr_expect_eq(m.allocs, 1);
	cr_expect_eq(m.merges, 1);
	mshr_fini(&m);
}

Test(mshr, full_table_refuses_and_release_frees)
{
	struct mshr m;
	struct mshr_cfg cfg = {.entries = 2, .merges_per_entry = 8};
	mshr_init(&m, &cfg, NULL);
	struct mshr_entry *a = mshr_alloc(&m, 0, 0, 1, 0, 0);
	cr_expect_not_null(mshr_alloc(&m, 0, 64, 1, 1, 0));
	cr_expect_eq(mshr_free_entries(&m), 0);
	cr_expect_null(mshr_alloc(&m, 0, 128, 1, 2, 0));
	mshr_release(&m, a);
	cr_expect_eq(mshr_free_entries(&m), 1);
	cr_expect_null(mshr_find(&m, 0, 0, 1));
	mshr_fini(&m);
}

/* The entry an allocation takes is the lowest free one (the order a scan from 0 gives, which the
 * memory unit's hash of entry indices and every run's statistics depend on), across the words
 * of the free bitmap: 70 entries, 3 and 65 released, then taken back lowest first. */
Test(mshr, allocation_takes_the_lowest_free_entry)
{
	struct mshr m;
	struct mshr_cfg cfg = {.entries = 70, .merges_per_entry = 1};
	cr_assert_eq(mshr_init(&m, &cfg, NULL), 0);
	for (uint32_t i = 0; i < 70; i++)
		cr_assert_eq(mshr_alloc(&m, 0, 64ull * i, 1, i, 0), &m.e[i]);
	cr_expect_null(mshr_alloc(&m, 0, 64ull * 70, 1, 70, 0));
	mshr_release(&m, &m.e[65]);
	mshr_release(&m, &m.e[3]);
	cr_expect_eq(mshr_alloc(&m, 0, 64ull * 71, 1, 71, 0), &m.e[3]);
	cr_expect_eq(mshr_alloc(&m, 0, 64ull * 72, 1, 72, 0), &m.e[65]);
	cr_expect_eq(mshr_find(&m, 0, 64ull * 72, 1), &m.e[65]);
	cr_expect_null(mshr_alloc(&m, 0, 64ull * 73, 1, 73, 0));
	mshr_fini(&m);
}

Test(mshr, entry_must_cover_wanted_sectors)
{
	struct mshr m;
	struct mshr_cfg cfg = {.entries = 2, .merges_per_entry = 8};
	mshr_init(&m, &cfg, NULL);
	mshr_alloc(&m, 0, 0, 0x3, 0, 0);
	cr_expect_not_null(mshr_find(&m, 0, 0, 0x2));
	cr_expect_null(mshr_find(&m, 0, 0, 0x4));
	mshr_fini(&m);
}

Test(mshr, bad_size_is_config_error)
{
	struct mshr m;
	struct mshr_cfg cfg = {.entries = 0, .merges_per_entry = 8};
	cr_expect_eq(mshr_init(&m, &cfg, NULL), SIM_ERR_CONFIG);
	mshr_fini(&m);
}
