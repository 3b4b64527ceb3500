/* SPDX-License-Identifier: MIT */
/* Fermi-style coalescer: a warp's per-lane addresses become one request per distinct line
 * (optionally with the mask of sectors touched), in order of first touch by lane. */
#ifndef WARPSIM_COALESCER_H
#define WARPSIM_COALESCER_H

#include <stdint.h>

#include "../frontend/warp_inst.h"

struct coal_cfg {
	uint32_t line_bytes;   /* power of two: 64 (owl-28), 128 (gtx480) */
	uint32_t sector_bytes; /* 0 = whole lines; else power of two dividing line_bytes, <= 32 sectors */
};

/* One line request. */
struct coal_req {
	uint64_t line_addr;    /* byte address, line-aligned */
	uint32_t sectors;      /* sectors touched (bit i = sector i); all ones when unsectored */
	uint32_t bytes;        /* data bytes to move for it: touched sectors x sector_bytes, or
	                          the line when unsectored (a store's write mask covers less) */
	uint32_t lane_bytes;   /* sum of the active lanes' access bytes falling in this line */
	uint32_t first_lane;   /* lowest active lane touching it */
	/* Stores to a sectored L2 only (coal_store_sectors; else 0): the L2 sectors the write
	 * covers and those written whole (mem_req.h: sectors, full_sectors). */
	uint32_t l2_sectors, l2_full;
};

/* Upper bound of requests for a warp of n_lanes lanes (an access may straddle two lines). */
static inline uint32_t coal_max_reqs(uint32_t n_lanes) { return 2 * n_lanes; }

/* Coalesce wi's active lanes (wi->addr, wi->access_bytes) into out[0..n). Returns n;
 * out must hold coal_max_reqs(wi->n_lanes) entries. O(n_active x n) for the duplicate scan,
 * cheap for 32 lanes; large warps with scattered addresses cost more. Never fails. */
uint32_t coal_run(const struct coal_cfg *cfg, const struct warp_inst *wi, struct coal_req *out);

/* The L2 sectors (sector_bytes each, bit i = sector i of the l2_line_bytes line holding
 * r->line_addr) that a store's request r writes, as GPGPU-Sim's Fermi coalescer sends a store
 * (memory_coalescing_arch_reduce_and_send): the active lanes' bytes in r's line are cut into
 * segments of 32 B (1-byte accesses), 64 B (2-byte) or 128 B (wider), each shrunk to its
 * smallest aligned 32 B, 64 B or 128 B part holding every touched byte; the sectors of
 * those parts, with in *full those of them written whole. Lines over 256 B count every
 * touched sector as whole. O(active lanes). */
uint32_t coal_store_sectors(const struct warp_inst *wi, const struct coal_req *r, uint32_t l1_line_bytes,
			    uint32_t l2_line_bytes, uint32_t sector_bytes, uint32_t *full);

#endif
