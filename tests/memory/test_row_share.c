/* SPDX-License-Identifier: MIT */
/* CTAs per DRAM row (memory/row_share.c) against OWL Sec 4.3's worked example and sums by hand. */
#include <criterion/criterion.h>

#include "memory/row_share.h"

/* 2 channels interleaved every 2 KB row, 4 banks, 2 KB rows: address 0 is channel 0 bank 0 row
 * 0; 2048 is channel 1; 4096 is channel 0 bank 1 (auto map: banks right above the columns). */
static struct row_share *make(void)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 2, 2048, 4, 2048, "auto", false, &err), 0, "%s", err.msg);
	struct row_share *rs = row_share_create(&m);
	cr_assert_not_null(rs);
	return rs;
}

/* OWL Sec 4.3: "if a row is accessed by CTAs 1, 2, 3, and 7, its consecutive CTA row sharing
 * percentage is deemed to be 75%". Repeated and unordered accesses count once. */
Test(row_share, the_papers_example_row_shared_by_ctas_1_2_3_and_7)
{
	struct row_share *rs = make();
	static const uint32_t ctas[] = {7, 1, 3, 2, 1, 7, 3};
	for (size_t i = 0; i < sizeof ctas / sizeof *ctas; i++)
		cr_assert_eq(row_share_access(rs, ctas[i], 64 * i), 0); /* one row: bytes 0..447 */
	cr_assert_eq(row_share_end_launch(rs), 0);
	struct row_share_result r;
	row_share_result(rs, &r);
	cr_expect_eq(r.launches, 1);
	cr_expect_eq(r.rows, 1);
	cr_expect_float_eq(r.ctas_per_row, 4.0, 1e-12);
	cr_expect_float_eq(r.consecutive, 0.75, 1e-12);
	row_share_destroy(rs);
}

/* Three rows: channel 0 bank 0 row 0 by CTAs 0 and 1 (consecutive: 1), channel 1's first row by
 * CTA 5 alone (0), channel 0 bank 1 by CTAs 2 and 4 (0). CTAs per row (2 + 1 + 2) / 3, sharing
 * (1 + 0 + 0) / 3. A second launch's CTA 1 is a different CTA: its row counts again. */
Test(row_share, rows_and_launches_are_averaged_by_hand)
{
	struct row_share *rs = make();
	cr_assert_eq(row_share_access(rs, 0, 0), 0);
	cr_assert_eq(row_share_access(rs, 1, 100), 0);
	cr_assert_eq(row_share_access(rs, 5, 2048), 0);
	cr_assert_eq(row_share_access(rs, 5, 2048 + 2047), 0);
	cr_assert_eq(row_share_access(rs, 2, 4096), 0);
	cr_assert_eq(row_share_access(rs, 4, 4096 + 64), 0);
	cr_assert_eq(row_share_end_launch(rs), 0);
	struct row_share_result r;
	row_share_result(rs, &r);
	cr_expect_eq(r.rows, 3);
	cr_expect_float_eq(r.ctas_per_row, 5.0 / 3.0, 1e-12);
	cr_expect_float_eq(r.consecutive, 1.0 / 3.0, 1e-12);
	cr_assert_eq(row_share_access(rs, 1, 0), 0);
	cr_assert_eq(row_share_end_launch(rs), 0);
	row_share_result(rs, &r);
	cr_expect_eq(r.launches, 2);
	cr_expect_eq(r.rows, 4);
	cr_expect_float_eq(r.ctas_per_row, 6.0 / 4.0, 1e-12);
	cr_expect_float_eq(r.consecutive, 1.0 / 4.0, 1e-12);
	row_share_destroy(rs);
}

/* Many pairs: the buffer is compacted and grown as it fills; 3000 CTAs over 10 rows, each row
 * touched by every CTA: 3000 CTAs per row, all consecutive. Then a launch of CTAs with ids
 * beyond 2^24 at addresses far up (local memory's window, rows beyond 2^24): CTAs 2^30 and
 * 2^30 + 1 share a row, 2^31 is alone in another: (2 + 1) / 2 CTAs, (1 + 0) / 2 consecutive. */
Test(row_share, a_full_buffer_is_compacted_and_large_ids_and_rows_count)
{
	struct row_share *rs = make();
	for (uint32_t c = 0; c < 3000; c++)
		for (uint32_t k = 0; k < 10; k++)
			cr_assert_eq(row_share_access(rs, c, (uint64_t)k * 4096), 0);
	cr_assert_eq(row_share_end_launch(rs), 0);
	struct row_share_result r;
	row_share_result(rs, &r);
	cr_expect_eq(r.rows, 10);
	cr_expect_float_eq(r.ctas_per_row, 3000.0, 1e-9);
	cr_expect_float_eq(r.consecutive, 1.0, 1e-12);
	row_share_destroy(rs);
	rs = make();
	const uint64_t far = UINT64_C(0x7f0000000000);
	cr_assert_eq(row_share_access(rs, 1u << 30, far), 0);
	cr_assert_eq(row_share_access(rs, (1u << 30) + 1, far + 8), 0);
	cr_assert_eq(row_share_access(rs, 1u << 31, far + 4096), 0);
	cr_assert_eq(row_share_end_launch(rs), 0);
	row_share_result(rs, &r);
	cr_expect_eq(r.rows, 2);
	cr_expect_float_eq(r.ctas_per_row, 1.5, 1e-12);
	cr_expect_float_eq(r.consecutive, 0.5, 1e-12);
	row_share_destroy(rs);
}
