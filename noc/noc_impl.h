/* SPDX-License-Identifier: MIT */
/* Private to noc/: the head every backend struct starts with, and the backends' constructors. */
#ifndef WARPSIM_NOC_IMPL_H
#define WARPSIM_NOC_IMPL_H

#include "noc_drive.h"

struct noc_base;
struct noc_drive_ops {
	void (*step)(struct noc_base *b, uint64_t cycle); /* simulate one cycle */
	bool (*busy)(const struct noc_base *b);
	void (*summary)(const struct noc_base *b, struct noc_summary *out);
	void (*dump)(const struct noc_base *b, FILE *out);
};

/* Common state of every backend: the public head, the topology, the engine hookup. */
struct noc_base {
	struct noc pub;                 /* first: a struct noc * is a struct noc_base * */
	const struct noc_drive_ops *drive;
	struct noc_params p;
	struct topo *topo;              /* owned */
	struct sim *sim;                /* NULL when driven by hand */
	struct stats *st;
	struct sim_clock clk;           /* gpu.noc.clock_mhz */
	struct sim_component comp;      /* the whole NoC is one component */
	uint64_t cycle;                 /* standalone: the current cycle */
	uint64_t *inject_stall_cycles;  /* [n_nodes]: cycles with a refused try_inject */
	uint64_t *last_refused_cycle;   /* [n_nodes] */
	uint64_t refused;
	uint64_t moves;                 /* flits (or flows) that advanced: progress for the watchdog */
};

static inline uint64_t noc_base_now(const struct noc_base *b)
{
	return b->sim ? sim_component_cycle(&b->comp) : b->cycle;
}
/* A try_inject at node was refused: count the cycle once. */
static inline void noc_base_refused(struct noc_base *b, int node, uint64_t now)
{
	b->refused++;
	if (b->last_refused_cycle[node] != now + 1) {
		b->last_refused_cycle[node] = now + 1;
		b->inject_stall_cycles[node]++;
	}
}
/* Wake node's sink at the NoC cycle when a packet becomes ejectable there. */
void noc_base_wake_sink(struct noc_base *b, int node, uint64_t cycle);
/* After try_inject accepted work: make sure the component ticks. */
void noc_base_kick(struct noc_base *b);

/* Backends: allocate the struct (embedding noc_base first), fill ops/drive and their state.
 * b's common fields (p, topo, placement, sim) are copied in by the caller afterwards. */
struct noc_base *noc_cycle_new(const struct noc_params *p, const struct topo *t, struct sim_error *err);
int noc_cycle_stats(struct noc_base *b, struct stats *st);
struct noc_base *noc_flow_new(const struct noc_params *p, const struct topo *t, struct sim_error *err);
int noc_flow_stats(struct noc_base *b, struct stats *st);
#ifdef WARPSIM_HAVE_SIMGRID
/* noc_sgflow.cc (C++, in SimGrid's plugin): SimGrid does the sharing; one per process. The
 * plain names (noc_sgflow_load.c) open the plugin and call its _plugin_ functions; stats only
 * after a successful new. */
struct noc_base *noc_sgflow_new(const struct noc_params *p, const struct topo *t, struct sim_error *err);
int noc_sgflow_stats(struct noc_base *b, struct stats *st);
struct noc_base *noc_sgflow_plugin_new(const struct noc_params *p, const struct topo *t, struct sim_error *err);
int noc_sgflow_plugin_stats(struct noc_base *b, struct stats *st);
#endif

#endif
