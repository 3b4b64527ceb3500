/* SPDX-License-Identifier: MIT */
/* One L2 slice (in front of its channel's memory controller): takes line requests from the NoC,
 * answers hits, tracks misses in MSHRs, fills from DRAM, writes dirty victims back, atomics. */
#ifndef WARPSIM_L2_H
#define WARPSIM_L2_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim.h"
#include "../engine/stats.h"
#include "../noc/noc.h"
#include "cache.h"
#include "dram.h"
#include "mem_req.h"

#define L2_HDR_BYTES 8 /* packet header: a read request / write ack is 8 B, data adds to it */

struct l2_cfg {
	struct cache_cfg cache;     /* write-back, write-allocate; sector_bytes < line_bytes: the
	                               sectored L2 of GPGPU-Sim 4 (l2.c: sectored slices) */
	uint32_t mshr_entries;      /* distinct lines missing at once */
	uint32_t mshr_merges;       /* requests per line (the first included) */
	uint32_t reply_queue;       /* replies waiting for the NoC (hits in the pipe included) */
	uint32_t miss_latency_cycles; /* arrival to the MC queue on a miss (tag lookup) */
	uint32_t reply_header_bytes;  /* beside a data reply's data (write acks: L2_HDR_BYTES) */
	bool perfect;               /* gpu.memory.model = perfect-l2: every access hits */
	bool none;                  /* gpu.l2.model = none: no cache, every access goes to the MC */
};

#define L2_MSHR_BUCKETS 256

struct l2_mshr {
	bool valid;
	uint64_t line_addr;         /* line-aligned channel-local address (mem_addr_local) */
	uint32_t n;
	uint32_t sectors;           /* sectors it fetches (sectored; all of the line otherwise) */
	struct mem_req **targets;   /* [mshr_merges]; targets[0] is the request sent to DRAM */
};

struct l2_reply {
	struct mem_req *req;
	uint64_t ready_cycle;       /* L2 cycle from which it may be injected */
};

/* The slice is ticked as a component on the L2 clock (comp); the memory controller is the
 * channel's other component (mc_comp, DRAM clock), shared by the channel's sub-partitions
 * (addrmap.h: mem_addrmap_set_sub_partitions). Replies go to noc->core_node[src_sm]. */
struct l2_slice {
	struct l2_cfg cfg;
	struct sim_component comp;
	struct sim_component *mc_comp;
	struct dram_mc *mc;
	const struct mem_addrmap *map;
	uint32_t slice;             /* mem_addr_slice: channel x sub-partitions + sub-partition */
	uint32_t channel;
	struct noc *noc;
	int node;
	struct cache cache;
	struct l2_mshr *mshr;       /* [mshr_entries] */
	uint32_t mshr_used;
	uint64_t mshr_version;      /* bumped when an MSHR is taken or freed (l2_slice_pf_version) */
	/* Which lines the MSHRs may hold: valid entries per hash bucket of the line, a bit per
	 * non-empty bucket. A line whose bucket is empty has no entry, so the scan of every entry
	 * is skipped (a new demand miss, the prefetcher's filter); the XOR of the bucket's entry
	 * indices names its entry when it holds one, so a line with an entry is found without it
	 * too. */
	uint64_t mshr_bits[L2_MSHR_BUCKETS / 64];
	uint16_t mshr_cnt[L2_MSHR_BUCKETS]; /* <= mshr_entries (<= 4096) */
	uint16_t mshr_x[L2_MSHR_BUCKETS];   /* XOR of the indices of the bucket's valid entries */
	struct l2_reply *rq;        /* ring [reply_queue]: ready cycles non-decreasing */
	uint32_t rq_head, rq_n;
	uint32_t rq_parts_sent;     /* sector reply packets of the head reply already injected */
	uint32_t rq_head_parts;     /* packets of the head reply (reply_parts), 0 until first asked:
	                               taken once per reply, not again for each packet or retry */
	struct l2_reply *mq;        /* ring [mshr_entries]: misses on their way to the MC */
	uint32_t mq_head, mq_n;
	struct mem_req **wbq;       /* ring [mshr_entries + 2]: dirty victims waiting for the MC */
	uint32_t wbq_cap, wbq_head, wbq_n;
	struct mem_req *pending;    /* input taken from the NoC that could not proceed yet */
	uint64_t blocked_since;     /* L2 cycle pending first failed, UINT64_MAX if not blocked */
	uint64_t tag_free_cycle;    /* sectored: first L2 cycle the tag stage takes the next request
	                               (one sector a cycle) */
	struct sim_pool wb_pool;    /* write-back requests the slice originates */
	uint64_t next_id;
	/* counters */
	uint64_t accesses, reads, writes, atomics, mshr_merges, mshr_full_cycles, mc_full_cycles;
	uint64_t noc_refused, writebacks, fills, unacked_writes;
	uint64_t pending_hits;      /* sectored: sectors found on their way from DRAM (GPGPU-Sim's
	                               HIT_RESERVED: accesses, not misses) */
	uint64_t pf_fills, pf_useful, pf_late, pf_unused_evicted, pf_dropped;
	uint64_t copy_fills, copy_dirty_drops; /* l2_slice_copy_fill */
};

/* Builds the tag store, MSHRs and queues of slice `slice` (mem_addr_slice numbering; its
 * channel is slice / map->sub_partitions); comp.ops/clk/name must be set and registered by the
 * caller. noc may be NULL only when no request will come (tests of the DRAM side). */
int l2_slice_init(struct l2_slice *l2, const struct l2_cfg *cfg, uint32_t slice,
		  const struct mem_addrmap *map, struct dram_mc *mc, struct sim_component *mc_comp,
		  struct noc *noc, int node, struct sim_error *err);
void l2_slice_fini(struct l2_slice *l2);  /* safe on a zeroed slice */

uint64_t l2_slice_tick(struct l2_slice *l2, uint64_t cycle);
/* The MC finished req (called from the MC's tick). */
void l2_slice_dram_done(struct l2_slice *l2, struct mem_req *req, uint64_t now_ps);
/* dram_pf_filter_fn: the line is in the slice already, so the prefetcher skips it. */
bool l2_slice_pf_filter(void *l2, uint64_t addr);
/* Changes whenever an l2_slice_pf_filter answer may change (a fill, a write, an invalidation,
 * an MSHR taken or freed): the prefetcher reuses answers while it holds. */
uint64_t l2_slice_pf_version(const void *l2);
uint64_t l2_slice_outstanding(const struct l2_slice *l2);
/* The host copied the line holding global address addr to or from the device, between
 * kernels (gpu.l2.fill_on_copy, GPGPU-Sim's -gpgpu_perf_sim_memcpy): the line is installed
 * clean as the most recently used, as a fill; a dirty line it displaces is dropped without a
 * write-back, as there (counted: copy_dirty_drops). */
void l2_slice_copy_fill(struct l2_slice *l2, uint64_t addr);
void l2_slice_stats_register(struct l2_slice *l2, struct stats *st);

#endif
