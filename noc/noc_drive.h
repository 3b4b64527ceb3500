/* SPDX-License-Identifier: MIT */
/* Building a NoC without a config file and driving it without an engine: for the traffic
 * tool (warpsim noc) and tests. With sim == NULL at creation the NoC is stepped by hand. */
#ifndef WARPSIM_NOC_DRIVE_H
#define WARPSIM_NOC_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "noc.h"
#include "../topologies/topology.h"

/* gpu.noc.allocator: the cycle model's VC and switch allocators. */
enum noc_alloc {
	NOC_ALLOC_RR,                  /* separable input-first, pointers move at every bid */
	NOC_ALLOC_ISLIP_INPUT_FIRST,   /* separable input-first, pointers move only on a grant */
	NOC_ALLOC_ISLIP,               /* switch: BookSim's iSLIP (request, grant, accept), one iteration */
};

/* Every setting of the cycle and flow models; noc_create fills it from gpu.noc.*. */
struct noc_params {
	const char *model;             /* "cycle", "flow", "simgrid-flow" */
	uint32_t clock_mhz;
	uint32_t channel_bytes;        /* flit size */
	int vcs;                       /* VCs per port per physical network */
	int vc_buffer_flits;           /* depth of each input VC */
	int routing_delay_cycles, vc_alloc_delay_cycles, sw_alloc_delay_cycles, st_delay_cycles;
	int credit_delay_cycles;       /* credit flight back to the upstream router */
	uint32_t inject_latency_cycles;/* node -> router and router -> node channels */
	bool separate_networks;        /* request and reply on two physical networks */
	enum noc_alloc allocator;
	int internal_speedup;          /* router steps per cycle (cycle model) */
	int input_speedup;             /* crossbar inputs per input port (cycle model) */
	int inject_queue_packets;      /* per node and class */
	int eject_queue_flits;         /* per node and class; >= largest packet */
	bool flow_exact;               /* flow model: re-share at each completion (else per cycle) */
};
void noc_params_default(struct noc_params *p);

/* Build on topology t (ownership passes to the NoC, also on failure). core_node/mc_node give
 * the placement (copied). sim may be NULL (standalone), st may be NULL (no stats). */
struct noc *noc_create_from(const struct noc_params *p, struct topo *t, const int *core_node, int n_cores,
			    const int *mc_node, int n_mcs, struct sim *sim, struct stats *st,
			    struct sim_error *err);

/* Standalone stepping: the current cycle (try_inject stamps packets with it), simulate it and
 * advance by one. Packets ejectable at cycle c are visible once noc_now_cycle() >= c. */
uint64_t noc_now_cycle(const struct noc *n);
void noc_step(struct noc *n);
/* Flits in routers or packets in injection queues. */
bool noc_busy(const struct noc *n);
const struct topo *noc_topology(const struct noc *n);

struct noc_summary {
	uint64_t packets_injected, packets_ejected, flits_ejected;
	double avg_queue_cycles;       /* accepted -> head leaves the source */
	double avg_network_cycles;     /* head leaves source -> head at destination */
	double avg_serial_cycles;      /* head -> tail at destination */
	uint64_t inject_refused;       /* try_inject calls refused (back-pressure) */
	uint64_t flits_in_routers;     /* right now */
	int64_t credit_min;            /* smallest credit count ever seen (never negative) */
};
void noc_get_summary(const struct noc *n, struct noc_summary *out);

#endif
