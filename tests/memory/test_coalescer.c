/* SPDX-License-Identifier: MIT */
/* Tests memory/coalescer.h: requests per warp access pattern. */
#include <criterion/criterion.h>

#include "memory/coalescer.h"

static uint64_t addr[WI_MAX_LANES];
static struct coal_req out[2 * WI_MAX_LANES];

static void warp(struct warp_inst *wi, uint32_t lanes, uint64_t base, uint64_t stride, uint32_t bytes)
{
	memset(wi, 0, sizeof *wi);
	wi->n_lanes = lanes;
	wi->n_active = lanes;
	wi->addr = addr;
	wi->access_bytes = bytes;
	for (uint32_t l = 0; l < lanes; l++) {
		wi->mask[l / 64] |= 1ull << (l % 64);
		addr[l] = base + l * stride;
	}
}

Test(coalescer, consecutive_words_in_one_128B_line_make_one_request)
{
	/* 32 lanes x 4 B from 0x1000 = bytes 0x1000..0x107f: exactly one 128 B line. */
	struct coal_cfg cfg = {.line_bytes = 128};
	struct warp_inst wi;
	warp(&wi, 32, 0x1000, 4, 4);
	cr_assert_eq(coal_run(&cfg, &wi, out), 1);
	cr_expect_eq(out[0].line_addr, 0x1000);
	cr_expect_eq(out[0].bytes, 128);
	cr_expect_eq(out[0].lane_bytes, 128);
}

Test(coalescer, line_stride_makes_one_request_per_lane)
{
	/* stride 128 B = one line per lane: 32 requests. */
	struct coal_cfg cfg = {.line_bytes = 128};
	struct warp_inst wi;
	warp(&wi, 32, 0, 128, 4);
	cr_assert_eq(coal_run(&cfg, &wi, out), 32);
	for (uint32_t i = 0; i < 32; i++)
		cr_expect_eq(out[i].line_addr, i * 128ull);
}

Test(coalescer, owl_64B_lines_split_a_128B_span_in_two)
{
	/* owl-28: 64 B lines; 32 x 4 B = 128 B = 2 lines. */
	struct coal_cfg cfg = {.line_bytes = 64};
	struct warp_inst wi;
	warp(&wi, 32, 0x2000, 4, 4);
	cr_assert_eq(coal_run(&cfg, &wi, out), 2);
	cr_expect_eq(out[1].line_addr, 0x2040);
}

Test(coalescer, inactive_lanes_and_same_address_are_ignored)
{
	/* All lanes read address 0x40; only lanes 0..7 active -> one request, 8 x 4 B. */
	struct coal_cfg cfg = {.line_bytes = 128};
	struct warp_inst wi;
	warp(&wi, 32, 0x40, 0, 4);
	wi.mask[0] = 0xff;
	wi.n_active = 8;
	cr_assert_eq(coal_run(&cfg, &wi, out), 1);
	cr_expect_eq(out[0].lane_bytes, 32);
}

Test(coalescer, sectors_carry_only_touched_sectors)
{
	/* 128 B line, 32 B sectors; 8 lanes x 4 B from 0x20 = bytes 0x20..0x3f: sector 1 only. */
	struct coal_cfg cfg = {.line_bytes = 128, .sector_bytes = 32};
	struct warp_inst wi;
	warp(&wi, 8, 0x20, 4, 4);
	cr_assert_eq(coal_run(&cfg, &wi, out), 1);
	cr_expect_eq(out[0].sectors, 0x2);
	cr_expect_eq(out[0].bytes, 32);
}

Test(coalescer, misaligned_access_spanning_two_lines_counts_both)
{
	struct coal_cfg cfg = {.line_bytes = 64};
	struct warp_inst wi;
	warp(&wi, 1, 62, 0, 4); /* bytes 62..65 */
	cr_assert_eq(coal_run(&cfg, &wi, out), 2);
	cr_expect_eq(out[0].lane_bytes + out[1].lane_bytes, 4);
}
