/* SPDX-License-Identifier: MIT */
/* Coalescer: distinct lines touched by a warp's active lanes (Fermi "one transaction per line",
 * OWL Sec 2.1 "memory coalescing enabled"). Pure function, no state. */
#include "coalescer.h"

/* Sectors s0..s1 of a line as a mask; sector_bytes is a power of two (coal_cfg). */
static inline uint32_t sectors_of(uint32_t sector_shift, uint64_t off, uint64_t last)
{
	uint32_t s0 = (uint32_t)(off >> sector_shift), s1 = (uint32_t)(last >> sector_shift);
	return ((2u << s1) - 1u) & ~((1u << s0) - 1u); /* s1 == 31: 2u << 31 wraps to 0, all ones */
}

static inline uint32_t bytes_of(const struct coal_cfg *cfg, bool sectored, uint32_t sectors)
{
	return sectored ? (uint32_t)__builtin_popcount(sectors) * cfg->sector_bytes : cfg->line_bytes;
}

/* Merge into the request for `line` (requests stay in order of first touch), trying the last
 * one hit first: neighbouring lanes nearly always share a line. */
static inline void add(struct coal_req *out, uint32_t *n, uint32_t *last, uint64_t line,
		       uint32_t sectors, uint32_t lane_bytes, uint32_t lane)
{
	uint32_t i = *last;
	if (i >= *n || out[i].line_addr != line) {
		for (i = 0; i < *n && out[i].line_addr != line; i++)
			;
	}
	if (i < *n) {
		out[i].sectors |= sectors;
		out[i].lane_bytes += lane_bytes;
		*last = i;
		return;
	}
	struct coal_req *r = &out[(*n)++];
	r->line_addr = line;
	r->sectors = sectors;
	r->lane_bytes = lane_bytes;
	r->first_lane = lane;
	*last = i;
}

/* Called on every (re)try of a memory instruction, so it walks the mask words instead of
 * testing each lane, and sizes each request once at the end (bytes depends only on the
 * final sector set). */
uint32_t coal_run(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out)
{
	uint32_t n = 0, last = 0;
	uint64_t lmask = cfg->line_bytes - 1;
	uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	bool sectored = cfg->sector_bytes && cfg->sector_bytes < cfg->line_bytes;
	uint32_t shift = sectored ? (uint32_t)__builtin_ctz(cfg->sector_bytes) : 0;
	for (uint32_t wd = 0; wd * 64 < wi->n_lanes; wd++) {
		uint64_t bits = wi->mask[wd];
		if (wi->n_lanes - wd * 64 < 64)
			bits &= (UINT64_C(1) << (wi->n_lanes - wd * 64)) - 1;
		while (bits) {
			uint32_t lane = wd * 64 + (uint32_t)__builtin_ctzll(bits);
			bits &= bits - 1;
			uint64_t a = wi->addr[lane];
			uint64_t end = a + ab - 1;
			/* PTX requires natural alignment, so an access lies in one line; a misaligned
			 * one is split in two rather than mis-counted. */
			for (uint64_t line = a & ~lmask; line <= (end & ~lmask); line += cfg->line_bytes) {
				uint64_t lo = a > line ? a - line : 0;
				uint64_t hi = end < line + lmask ? end - line : lmask;
				add(out, &n, &last, line, sectored ? sectors_of(shift, lo, hi) : 1,
				    (uint32_t)(hi - lo + 1), lane);
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		out[i].bytes = bytes_of(cfg, sectored, out[i].sectors);
	return n;
}
