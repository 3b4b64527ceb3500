/* SPDX-License-Identifier: MIT */
/* One memory channel as the assembly sees it: L2 slices (gpu.l2.clock_mhz; one per sub-partition,
 * each attached to the NoC at its own node) + memory controller and DRAM banks (gpu.dram.clock_mhz). */
#ifndef WARPSIM_MEM_CHANNEL_H
#define WARPSIM_MEM_CHANNEL_H

#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim.h"
#include "../engine/stats.h"
#include "../noc/noc.h"

struct mem_channel;

/* Settings gpu.l2.*, gpu.dram.*, gpu.dram.addrmap.*, gpu.dram.timing.*, gpu.dram.prefetcher.*
 * (defaults: owl-28, OWL Table 1). */
int mem_channel_cfg_define(struct cfg *c, struct sim_error *err);

/* Build channel `channel` (0 .. gpu.dram.channels-1): its gpu.l2.sub_partitions L2 slices
 * (slice i = channel x sub_partitions + s, addrmap.h: mem_addr_slice) and its MC: registers a
 * component per slice and the MC's, two clock domains, stats l2.<slice>.*, mc.<channel>.*,
 * mc.<channel>.bank.<b>.* with st (st may be NULL), and becomes noc's sink at
 * noc->mc_node[slice] for each slice. It ejects struct mem_req packets of class NOC_CLASS_REQ
 * there and answers each with the same object (is_reply = 1) injected in NOC_CLASS_REPLY to
 * noc->core_node[req->src_sm]: read reply 8 B + data, write / write-back ack 8 B, atomic reply
 * 8 B + data. Reads gpu.memory.model when defined (perfect-l2: every L2 access hits, no DRAM).
 * NULL on failure with err filled (SIM_ERR_CONFIG naming the setting, SIM_ERR_NOMEM). The
 * channel must be destroyed before sim and st. */
struct mem_channel *mem_channel_create(const struct cfg *cfg, struct sim *sim, struct stats *st,
				       uint32_t channel, struct noc *noc, struct sim_error *err);
void mem_channel_destroy(struct mem_channel *ch); /* NULL is fine */

/* Requests held (in the slice, the MC queue or on the DRAM bus). */
uint64_t mem_channel_outstanding(const struct mem_channel *ch);

/* The host copied the line of global address addr (on this channel): l2_slice_copy_fill. */
void mem_channel_copy_fill(struct mem_channel *ch, uint64_t addr);

/* sim.check, with the simulation quiescent (end of a kernel): nothing held in the slice, the MC
 * queue or the bus, and the DRAM command trace obeys the timings (memory/dram_check.h).
 * 0 or SIM_ERR_FAULT naming what broke. */
int mem_channel_check(struct mem_channel *ch, struct sim_error *err);

/* For memtest and tests: the controller's OWL metrics. */
struct mem_channel_summary {
	uint64_t reads, writes, row_hits, row_misses, row_conflicts;
	uint64_t dram_cycles;        /* elapsed DRAM cycles */
	double blp, row_hit_rate, bus_util, avg_queue_len;
	double queue_latency_cycles, service_latency_cycles; /* DRAM cycles */
	uint64_t l2_hits, l2_misses, pf_issued, pf_useful, pf_late;
	uint32_t dram_clock_mhz;
	double peak_bytes_per_s;     /* data bus peak: bus_bytes * data_rate * clock */
};
void mem_channel_summary(struct mem_channel *ch, struct mem_channel_summary *out);

#endif
