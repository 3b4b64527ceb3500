/* SPDX-License-Identifier: MIT */
/* Coalescer: distinct lines touched by a warp's active lanes (Fermi "one transaction per line",
 * OWL Sec 2.1 "memory coalescing enabled"). Pure function, no state. */
#include "coalescer.h"

static uint32_t sectors_of(const struct coal_cfg *cfg, uint64_t off, uint64_t last)
{
	if (!cfg->sector_bytes || cfg->sector_bytes >= cfg->line_bytes)
		return 1;
	uint32_t m = 0;
	for (uint64_t s = off / cfg->sector_bytes; s <= last / cfg->sector_bytes; s++)
		m |= 1u << s;
	return m;
}

static uint32_t bytes_of(const struct coal_cfg *cfg, uint32_t sectors)
{
	if (!cfg->sector_bytes || cfg->sector_bytes >= cfg->line_bytes)
		return cfg->line_bytes;
	return (uint32_t)__builtin_popcount(sectors) * cfg->sector_bytes;
}

static void add(const struct coal_cfg *cfg, struct coal_req *out, uint32_t *n, uint64_t line,
		uint32_t sectors, uint32_t lane_bytes, uint32_t lane)
{
	for (uint32_t i = 0; i < *n; i++) {
		if (out[i].line_addr == line) {
			out[i].sectors |= sectors;
			out[i].bytes = bytes_of(cfg, out[i].sectors);
			out[i].lane_bytes += lane_bytes;
			return;
		}
	}
	struct coal_req *r = &out[(*n)++];
	r->line_addr = line;
	r->sectors = sectors;
	r->bytes = bytes_of(cfg, sectors);
	r->lane_bytes = lane_bytes;
	r->first_lane = lane;
}

uint32_t coal_run(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out)
{
	uint32_t n = 0;
	uint64_t lmask = cfg->line_bytes - 1;
	uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
		uint64_t a = wi->addr[lane];
		uint64_t end = a + ab - 1;
		/* PTX requires natural alignment, so an access lies in one line; a misaligned
		 * one is split in two rather than mis-counted. */
		for (uint64_t line = a & ~lmask; line <= (end & ~lmask); line += cfg->line_bytes) {
			uint64_t lo = a > line ? a - line : 0;
			uint64_t hi = end < line + lmask ? end - line : lmask;
			add(cfg, out, &n, line, sectors_of(cfg, lo, hi), (uint32_t)(hi - lo + 1), lane);
		}
	}
	return n;
}
