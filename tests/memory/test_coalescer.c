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

/* A straightforward coalescer as the reference: every lane tested in order, a linear search of
 * the requests for every line a lane touches. */
static uint32_t ref_coal_run(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *o)
{
	uint32_t n = 0;
	uint64_t lmask = cfg->line_bytes - 1;
	uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	bool sectored = cfg->sector_bytes && cfg->sector_bytes < cfg->line_bytes;
	uint32_t shift = sectored ? (uint32_t)__builtin_ctz(cfg->sector_bytes) : 0;
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
		uint64_t a = wi->addr[lane], end = a + ab - 1;
		for (uint64_t line = a & ~lmask; line <= (end & ~lmask); line += cfg->line_bytes) {
			uint64_t lo = a > line ? a - line : 0;
			uint64_t hi = end < line + lmask ? end - line : lmask;
			uint32_t s0 = (uint32_t)(lo >> shift), s1 = (uint32_t)(hi >> shift);
			uint32_t sec = sectored ? ((2u << s1) - 1u) & ~((1u << s0) - 1u) : 1;
			uint32_t i = 0;
			while (i < n && o[i].line_addr != line)
				i++;
			if (i == n) {
				o[n++] = (struct coal_req){.line_addr = line, .first_lane = lane};
			}
			o[i].sectors |= sec;
			o[i].lane_bytes += (uint32_t)(hi - lo + 1);
		}
	}
	for (uint32_t i = 0; i < n; i++)
		o[i].bytes = sectored ? (uint32_t)__builtin_popcount(o[i].sectors) * cfg->sector_bytes
				      : cfg->line_bytes;
	return n;
}

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: a fixed seed keeps the test deterministic */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* coal_run and the reference give the same requests for wi; returns their number. */
static uint32_t same_as_reference(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *got,
				  struct coal_req *want, uint32_t iter)
{
	uint32_t n = coal_run(cfg, wi, got);
	uint32_t nw = ref_coal_run(cfg, wi, want);
	cr_assert_eq(n, nw, "iteration %u: %u requests, reference %u", iter, n, nw);
	for (uint32_t i = 0; i < n; i++) {
		cr_assert_eq(got[i].line_addr, want[i].line_addr, "iteration %u request %u", iter, i);
		cr_assert_eq(got[i].sectors, want[i].sectors, "iteration %u request %u", iter, i);
		cr_assert_eq(got[i].bytes, want[i].bytes, "iteration %u request %u", iter, i);
		cr_assert_eq(got[i].lane_bytes, want[i].lane_bytes, "iteration %u request %u", iter, i);
		cr_assert_eq(got[i].first_lane, want[i].first_lane, "iteration %u request %u", iter, i);
	}
	return n;
}

Test(coalescer, random_patterns_match_the_reference)
{
	static const uint32_t lines[] = {4, 16, 32, 64, 128, 256, 4096};
	static const uint32_t sizes[] = {0, 1, 2, 3, 4, 8, 12, 16, 32, 64, 200};
	static const uint32_t lane_counts[] = {1, 7, 32, 63, 64, 65, 100, 128, 1024};
	/* an access wider than a line touches several: 200 B over 4 B lines, 51 per lane */
	static struct coal_req got[64 * WI_MAX_LANES], want[64 * WI_MAX_LANES];
	uint64_t seed = 42;
	for (uint32_t iter = 0; iter < 5000; iter++) {
		struct coal_cfg cfg = {.line_bytes = lines[rng_next(&seed) % 7]};
		uint32_t nsec = 1u << (rng_next(&seed) % 7); /* sectors per line: 1..64 */
		if (nsec <= 32 && cfg.line_bytes / nsec >= 1 && rng_next(&seed) % 2)
			cfg.sector_bytes = cfg.line_bytes / nsec;
		struct warp_inst wi;
		memset(&wi, 0, sizeof wi);
		wi.n_lanes = lane_counts[rng_next(&seed) % 9];
		wi.addr = addr;
		wi.access_bytes = sizes[rng_next(&seed) % 11];
		/* masks: full, random, sparse, with bits past n_lanes set (they must be ignored) */
		uint32_t mk = (uint32_t)(rng_next(&seed) % 4);
		for (uint32_t w = 0; w < WI_MASK_WORDS; w++)
			wi.mask[w] = mk == 0 ? ~0ull : mk == 1 ? rng_next(&seed)
				   : mk == 2 ? rng_next(&seed) & rng_next(&seed) & rng_next(&seed) : 0;
		if (mk == 3)
			wi.mask[0] = 1ull << (rng_next(&seed) % 64);
		/* addresses: strided from an aligned or misaligned base, scattered in a small or a
		 * large range, or a few hot words */
		uint32_t pat = (uint32_t)(rng_next(&seed) % 5);
		uint64_t base = (rng_next(&seed) % (1ull << 40)) & ~(uint64_t)(pat == 0 ? 0 : 3);
		uint64_t stride = (uint64_t[]){0, 1, 4, 8, 12, 64, 128, 132}[rng_next(&seed) % 8];
		for (uint32_t l = 0; l < wi.n_lanes; l++) {
			switch (pat) {
			case 0:
			case 1:
				addr[l] = base + l * stride;
				break;
			case 2:
				addr[l] = base + rng_next(&seed) % 4096;
				break;
			case 3:
				addr[l] = rng_next(&seed) % (1ull << 48);
				break;
			default:
				addr[l] = base + 4 * (rng_next(&seed) % 3);
				break;
			}
		}
		uint32_t n = same_as_reference(&cfg, &wi, got, want, iter);
		if (wi.access_bytes <= cfg.line_bytes)
			cr_assert_leq(n, coal_max_reqs(wi.n_lanes));
	}
}

/* The walk-free path (consecutive accesses or a broadcast over one run of lanes) against the
 * reference, with the patterns it takes and their near misses: runs anywhere in warps of 1..64
 * lanes (and 65+, which it leaves to the walk), aligned and misaligned bases, accesses wider
 * than a line, sectored and whole-line caches, ranges ending at 2^64 - 1 or wrapping past it,
 * and one lane off the pattern. */
Test(coalescer, affine_runs_match_the_reference)
{
	static const uint32_t lines[] = {4, 16, 32, 64, 128, 4096};
	static const uint32_t sizes[] = {0, 1, 2, 3, 4, 8, 12, 16, 64, 200};
	static const uint32_t lane_counts[] = {1, 2, 3, 31, 32, 33, 63, 64, 65};
	static struct coal_req got[64 * WI_MAX_LANES], want[64 * WI_MAX_LANES];
	uint64_t seed = 7;
	for (uint32_t iter = 0; iter < 20000; iter++) {
		struct coal_cfg cfg = {.line_bytes = lines[rng_next(&seed) % SIM_ARRAY_LEN(lines)]};
		uint32_t nsec = 1u << (rng_next(&seed) % 6);
		if (rng_next(&seed) % 2 && cfg.line_bytes / nsec >= 1)
			cfg.sector_bytes = cfg.line_bytes / nsec;
		struct warp_inst wi;
		memset(&wi, 0, sizeof wi);
		wi.n_lanes = lane_counts[rng_next(&seed) % SIM_ARRAY_LEN(lane_counts)];
		wi.addr = addr;
		wi.access_bytes = sizes[rng_next(&seed) % SIM_ARRAY_LEN(sizes)];
		uint64_t ab = wi.access_bytes ? wi.access_bytes : 1;
		/* one run of lanes (sometimes with a stray lane after it), or every lane */
		uint32_t s0 = (uint32_t)(rng_next(&seed) % wi.n_lanes);
		uint32_t len = 1 + (uint32_t)(rng_next(&seed) % (wi.n_lanes - s0));
		if (rng_next(&seed) % 3 == 0)
			s0 = 0, len = wi.n_lanes;
		for (uint32_t l = s0; l < s0 + len; l++)
			wi.mask[l / 64] |= 1ull << (l % 64);
		if (rng_next(&seed) % 8 == 0) {
			uint32_t l = (uint32_t)(rng_next(&seed) % wi.n_lanes);
			wi.mask[l / 64] |= 1ull << (l % 64);
		}
		if (rng_next(&seed) % 8 == 0)
			wi.mask[0] |= ~0ull << (wi.n_lanes < 64 ? wi.n_lanes : 63); /* lanes past the warp */
		uint64_t stride = rng_next(&seed) % 2 ? ab : 0;
		uint64_t base = rng_next(&seed) % 4 == 0 ? UINT64_MAX - rng_next(&seed) % (4 * 64 * ab)
			      : rng_next(&seed) % (1ull << 40);
		if (rng_next(&seed) % 2)
			base &= ~(ab - 1);
		for (uint32_t l = 0; l < wi.n_lanes; l++)
			addr[l] = base + (uint64_t)(l - s0) * stride;
		if (rng_next(&seed) % 6 == 0)
			addr[s0 + rng_next(&seed) % len] += (rng_next(&seed) % 3) - 1;
		/* An access reaching the last line of 2^64 never ends the reference's line loop (nor
		 * the walk's, when it comes from the line before): not a pattern to compare. */
		bool top = false;
		for (uint32_t l = 0; l < wi.n_lanes; l++) {
			uint64_t a = addr[l], end = a + ab - 1, tl = UINT64_MAX & ~(uint64_t)(cfg.line_bytes - 1);
			top |= wi_lane_active(&wi, l) && end >= a && (end & tl) == tl;
		}
		if (top)
			continue;
		same_as_reference(&cfg, &wi, got, want, iter);
	}
}

/* coal_store_sectors: the L2 sectors (32 B of a 128 B line) a store writes, as GPGPU-Sim's
 * Fermi coalescer segments it (128 B segments for words, shrunk to the 64 B or 32 B part that
 * holds every touched byte; 32 B segments for bytes, 64 B for halfwords). */
static uint32_t store_sectors(struct warp_inst *wi, uint32_t *full)
{
	struct coal_cfg cfg = {.line_bytes = 128};
	cr_assert_eq(coal_run(&cfg, wi, out), 1);
	return coal_store_sectors(wi, &out[0], 128, 128, 32, full);
}

static void only_lanes(struct warp_inst *wi, uint32_t first, uint32_t n)
{
	wi->mask[0] = ((n == 64 ? 0 : (1ull << n)) - 1) << first;
	wi->n_active = n;
}

Test(coalescer, store_sectors_follow_gpgpusim_segments)
{
	struct warp_inst wi;
	uint32_t full;
	warp(&wi, 32, 0x1000, 4, 4); /* all 128 B written */
	cr_expect_eq(store_sectors(&wi, &full), 0xf);
	cr_expect_eq(full, 0xf);
	only_lanes(&wi, 0, 8); /* bytes 0..31: the segment shrinks to 32 B */
	cr_expect_eq(store_sectors(&wi, &full), 0x1);
	cr_expect_eq(full, 0x1);
	only_lanes(&wi, 8, 4); /* bytes 32..47: sector 1, half written */
	cr_expect_eq(store_sectors(&wi, &full), 0x2);
	cr_expect_eq(full, 0);
	only_lanes(&wi, 16, 16); /* bytes 64..127: the upper 64 B */
	cr_expect_eq(store_sectors(&wi, &full), 0xc);
	cr_expect_eq(full, 0xc);
	wi.mask[0] = 0xff | (0xffull << 16); /* bytes 0..31 and 64..95: both halves, no shrink */
	cr_expect_eq(store_sectors(&wi, &full), 0xf);
	cr_expect_eq(full, 0x5);
	wi.mask[0] = 1 | (1ull << 31); /* bytes 0..3 and 124..127 */
	cr_expect_eq(store_sectors(&wi, &full), 0xf);
	cr_expect_eq(full, 0);
	/* bytes: 32 B segments, each its own sector (offsets 0 and 100) */
	warp(&wi, 2, 0x1000, 100, 1);
	cr_expect_eq(store_sectors(&wi, &full), 0x9);
	cr_expect_eq(full, 0);
	/* halfwords: 64 B segments (offsets 0 and 40: one half; 0 and 70: both) */
	warp(&wi, 2, 0x1000, 40, 2);
	cr_expect_eq(store_sectors(&wi, &full), 0x3);
	warp(&wi, 2, 0x1000, 70, 2);
	cr_expect_eq(store_sectors(&wi, &full), 0x5);
}
