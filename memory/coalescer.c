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

/* The request for `line` (requests stay in order of first touch), merged into or appended. */
static inline struct coal_req *add(struct coal_req *out, uint32_t *n, uint64_t line, uint32_t sectors,
				   uint32_t lane_bytes, uint32_t lane)
{
	uint32_t i = 0;
	while (i < *n && out[i].line_addr != line)
		i++;
	struct coal_req *r = &out[i];
	if (i < *n) {
		r->sectors |= sectors;
		r->lane_bytes += lane_bytes;
		return r;
	}
	(*n)++;
	r->line_addr = line;
	r->sectors = sectors;
	r->lane_bytes = lane_bytes;
	r->first_lane = lane;
	return r;
}

/* Called on every (re)try of a memory instruction that misses mem_unit's memo, so the common
 * cases are kept short: it walks runs of active lanes (a full warp is one); an access inside
 * one line (PTX's natural alignment makes that nearly every access) merges into the request
 * the previous lane used without a search when the line is the same, which neighbouring lanes
 * nearly always share; a lane repeating the previous split access's address (an 8-byte .param
 * word read by every lane, split over the constant cache's 4-byte "lines") adds its bytes to
 * the same two requests; each request is sized once at the end (bytes depends only on the
 * final sector set). Instantiated with `sectored` constant so the whole-line case computes no
 * sector masks. */
static inline __attribute__((always_inline)) uint32_t
coal_body(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out, const bool sectored)
{
	uint32_t n = 0;
	const uint64_t lbytes = cfg->line_bytes, lmask = lbytes - 1;
	const uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	const uint32_t shift = sectored ? (uint32_t)__builtin_ctz(cfg->sector_bytes) : 0;
	const uint64_t *addr = wi->addr;
	const uint32_t n_lanes = wi->n_lanes;
	/* The request the previous access ended in (cur_line is its line while cur is set). */
	struct coal_req *cur = NULL;
	uint64_t cur_line = 0;
	/* The last access split over exactly two lines: its address, requests and bytes in each. */
	bool split_ok = false;
	uint64_t split_a = 0;
	struct coal_req *split_r[2] = {NULL, NULL};
	uint32_t split_b[2] = {0, 0};
	for (uint32_t wd = 0; wd * 64 < n_lanes; wd++) {
		uint64_t bits = wi->mask[wd];
		if (n_lanes - wd * 64 < 64)
			bits &= (UINT64_C(1) << (n_lanes - wd * 64)) - 1;
		while (bits) {
			uint32_t s0 = (uint32_t)__builtin_ctzll(bits);
			uint64_t rest = ~(bits >> s0);
			uint32_t len = rest ? (uint32_t)__builtin_ctzll(rest) : 64 - s0;
			bits &= len + s0 >= 64 ? 0 : ~((UINT64_C(1) << (s0 + len)) - 1);
			for (uint32_t lane = wd * 64 + s0, stop = lane + len; lane < stop; lane++) {
				uint64_t a = addr[lane];
				uint64_t end = a + ab - 1;
				uint64_t line = a & ~lmask;
				if ((end & ~lmask) == line) {
					/* In one line: bytes a - line .. end - line of it, all ab of them. */
					uint32_t sec = sectored ? sectors_of(shift, a - line, end - line) : 1;
					if (cur && cur_line == line) {
						cur->sectors |= sec;
						cur->lane_bytes += ab;
					} else {
						cur = add(out, &n, line, sec, ab, lane);
						cur_line = line;
					}
					continue;
				}
				if (split_ok && a == split_a) {
					/* Same lines, same sectors (already set), same bytes again. */
					split_r[0]->lane_bytes += split_b[0];
					split_r[1]->lane_bytes += split_b[1];
					cur = split_r[1];
					cur_line = cur->line_addr;
					continue;
				}
				/* A misaligned access is split rather than mis-counted (an end that wraps past
				 * 2^64 gives no line, as it always did). */
				uint32_t k = 0;
				for (line = a & ~lmask; line <= (end & ~lmask); line += lbytes, k++) {
					uint64_t lo = a > line ? a - line : 0;
					uint64_t hi = end < line + lmask ? end - line : lmask;
					uint32_t b = (uint32_t)(hi - lo + 1);
					cur = add(out, &n, line, sectored ? sectors_of(shift, lo, hi) : 1, b, lane);
					cur_line = line;
					if (k < 2) {
						split_r[k] = cur;
						split_b[k] = b;
					}
				}
				split_ok = k == 2;
				split_a = a;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		out[i].bytes = bytes_of(cfg, sectored, out[i].sectors);
	return n;
}

/* The two commonest patterns answered without the per-lane walk: the active lanes are one run
 * s0 .. s0+len-1 of a warp of at most 64 lanes, and lane s0+k reads a0 + k*ab (consecutive
 * accesses: a[i] by thread i) or a0 for every k (a broadcast: a parameter, a shared index).
 * The bytes touched are then the one range [a0, last], so each line of it gets one request in
 * ascending order (the order of first touch), with the range's part in the line as its bytes
 * (a broadcast: that part once per lane) and sectors, and as first lane the first access
 * reaching the line. false (nothing written) for any other pattern, a range past 2^64 or into
 * its last line (left to the walk: its wrapped ends give no line, and its line loop cannot
 * step past the last line) or no active lane; it costs a compare per lane, and stops at the
 * first lane off the pattern. */
static bool coal_affine(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out, uint32_t *n_out)
{
	uint32_t n_lanes = wi->n_lanes;
	if (n_lanes > 64)
		return false;
	uint64_t bits = wi->mask[0];
	if (n_lanes < 64)
		bits &= (UINT64_C(1) << n_lanes) - 1;
	if (!bits)
		return false;
	uint32_t s0 = (uint32_t)__builtin_ctzll(bits);
	uint64_t run = bits >> s0;
	if (run & (run + 1))
		return false; /* not one run of lanes */
	uint32_t len = run == UINT64_MAX ? 64 : (uint32_t)__builtin_ctzll(~run);
	const uint64_t ab = wi->access_bytes ? wi->access_bytes : 1;
	const uint64_t *addr = wi->addr + s0;
	const uint64_t a0 = addr[0];
	uint64_t stride = len > 1 ? addr[1] - a0 : 0;
	if (stride != 0 && stride != ab)
		return false;
	for (uint32_t k = 2; k < len; k++)
		if (addr[k] != a0 + k * stride)
			return false;
	uint64_t span = stride ? (uint64_t)len * ab : ab;
	const uint64_t lbytes = cfg->line_bytes, lmask = lbytes - 1;
	if (a0 > UINT64_MAX - (span - 1) || ((a0 + span - 1) & ~lmask) == (UINT64_MAX & ~lmask))
		return false; /* (the walk's own answer: it never reaches the last line of 2^64 here) */
	const uint64_t last = a0 + span - 1;
	const bool sectored = cfg->sector_bytes && cfg->sector_bytes < cfg->line_bytes;
	const uint32_t shift = sectored ? (uint32_t)__builtin_ctz(cfg->sector_bytes) : 0;
	uint32_t n = 0;
	for (uint64_t line = a0 & ~lmask;; line += lbytes) {
		uint64_t lo = a0 > line ? a0 : line, hi = last < line + lmask ? last : line + lmask;
		struct coal_req *r = &out[n++];
		r->line_addr = line;
		r->sectors = sectored ? sectors_of(shift, lo - line, hi - line) : 1;
		r->bytes = bytes_of(cfg, sectored, r->sectors);
		r->lane_bytes = (uint32_t)(hi - lo + 1) * (stride ? 1 : len);
		r->first_lane = s0 + (stride && line > a0 ? (uint32_t)((line - a0) / ab) : 0);
		if (line == (last & ~lmask))
			break;
	}
	*n_out = n;
	return true;
}

uint32_t coal_run(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out)
{
	uint32_t n;
	if (coal_affine(cfg, wi, out, &n))
		return n;
	if (cfg->sector_bytes && cfg->sector_bytes < cfg->line_bytes)
		return coal_body(cfg, wi, out, true);
	return coal_body(cfg, wi, out, false);
}

/* Bytes [lo, hi] of a 256-byte window set in bm. */
static void bytes_set(uint64_t bm[4], uint32_t lo, uint32_t hi)
{
	for (uint32_t w = lo / 64; w <= hi / 64; w++) {
		uint32_t a = w * 64 > lo ? 0 : lo % 64, b = (w + 1) * 64 - 1 < hi ? 63 : hi % 64;
		bm[w] |= (b == 63 ? UINT64_MAX : ((UINT64_C(1) << (b + 1)) - 1)) & ~((UINT64_C(1) << a) - 1);
	}
}

static bool bytes_all(const uint64_t bm[4], uint32_t lo, uint32_t n)
{
	uint64_t probe[4] = {0, 0, 0, 0};
	bytes_set(probe, lo, lo + n - 1);
	for (int w = 0; w < 4; w++)
		if ((bm[w] & probe[w]) != probe[w])
			return false;
	return true;
}

uint32_t coal_store_sectors(const struct warp_inst *wi, const struct coal_req *r, uint32_t l1_line_bytes,
			    uint32_t l2_line_bytes, uint32_t sector_bytes, uint32_t *full)
{
	const uint64_t base = r->line_addr & ~((uint64_t)l2_line_bytes - 1);
	const uint64_t lo = r->line_addr, hi = r->line_addr + l1_line_bytes; /* r's bytes: [lo, hi) */
	const uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	const uint32_t shift = (uint32_t)__builtin_ctz(sector_bytes);
	const bool exact = l2_line_bytes <= 256;
	uint64_t bm[4] = {0, 0, 0, 0};
	uint32_t touched = 0;
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
		uint64_t a = wi->addr[lane], e = a + ab; /* [a, e) */
		if (e <= lo || a >= hi)
			continue;
		uint32_t o0 = (uint32_t)((a > lo ? a : lo) - base), o1 = (uint32_t)((e < hi ? e : hi) - base) - 1;
		touched |= sectors_of(shift, o0, o1);
		if (exact)
			bytes_set(bm, o0, o1);
	}
	/* GPGPU-Sim's segments: 32 B for byte accesses, 64 B for halfwords, else 128 B; each
	 * shrinks to the aligned half, then quarter, that holds all it touches. */
	uint32_t seg_bytes = ab == 1 ? 32 : ab == 2 ? 64 : 128;
	uint32_t seg = seg_bytes >> shift ? seg_bytes >> shift : 1;
	uint32_t n = l2_line_bytes >> shift, out = 0;
	for (uint32_t s0 = 0; s0 < n; s0 += seg) {
		uint32_t m = touched >> s0 & (seg >= 32 ? UINT32_MAX : (1u << seg) - 1);
		if (!m)
			continue;
		uint32_t size = seg, off = 0;
		while (size > 1 && size * sector_bytes > 32) {
			uint32_t half = size / 2, low = (1u << half) - 1;
			uint32_t lower = m >> off & low, upper = m >> (off + half) & low;
			if (lower && upper)
				break;
			off += lower ? 0 : half;
			size = half;
		}
		out |= (size >= 32 ? UINT32_MAX : (1u << size) - 1) << (s0 + off);
	}
	uint32_t f = 0;
	for (uint32_t s = 0; s < n; s++)
		if (touched >> s & 1 && (!exact || bytes_all(bm, s << shift, sector_bytes)))
			f |= 1u << s;
	*full = f;
	return out;
}
