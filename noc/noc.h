/* SPDX-License-Identifier: MIT */
/* Contract of the interconnect: inject a packet at a node, eject it at its destination, with
 * back-pressure; backends (cycle, flow, simgrid-flow) sit behind an ops table. */
#ifndef WARPSIM_NOC_H
#define WARPSIM_NOC_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim.h"
#include "../engine/stats.h"
#include "../engine/config.h"

/* Requests and replies never share buffers (separate VCs or networks), so a reply can
 * never wait behind a request: protocol deadlock is impossible by construction. */
enum noc_class { NOC_CLASS_REQ = 0, NOC_CLASS_REPLY = 1, NOC_NUM_CLASSES = 2 };

/* What a node is, from gpu.noc.placement. */
enum noc_node_kind { NOC_NODE_NONE, NOC_NODE_CORE, NOC_NODE_MC };

struct noc;
struct noc_ops {
	const char *name;
	bool (*try_inject)(struct noc *n, int src, int dst, enum noc_class cls, uint32_t size_bytes, void *payload);
	void *(*try_eject)(struct noc *n, int node, enum noc_class cls);
	void *(*peek_eject)(struct noc *n, int node, enum noc_class cls);
	uint64_t (*outstanding)(const struct noc *n);
	void (*destroy)(struct noc *n);
};

/* Common head of every backend's struct. */
struct noc {
	const struct noc_ops *ops;
	int n_nodes;
	int n_cores, n_mcs;
	int *core_node;                 /* [n_cores]: node of core i */
	int *mc_node;                   /* [n_mcs]: node of memory channel i */
	enum noc_node_kind *node_kind;  /* [n_nodes] */
	struct sim_component **sink;    /* [n_nodes]: woken when a packet is ejectable there */
};

/* Build the backend named by gpu.noc.model on the topology gpu.noc.topology with the
 * placement gpu.noc.placement.*, for n_cores cores and n_mcs channels. Config errors name
 * the setting (a placement naming a missing node, a deadlock-prone topology/routing/VC
 * combination: the error names a cycle of the channel dependency graph). */
struct noc *noc_create(const struct cfg *cfg, struct sim *sim, struct stats *st,
		       int n_cores, int n_mcs, struct sim_error *err);
void noc_destroy(struct noc *n);
/* Who consumes packets at node (woken on arrival). */
void noc_set_sink(struct noc *n, int node, struct sim_component *c);

/* Offer a packet of size_bytes (turned into flits by the backend); false = back-pressure,
 * retry later; the payload is not touched by the NoC. */
static inline bool noc_try_inject(struct noc *n, int src_node, int dst_node, enum noc_class cls,
				  uint32_t size_bytes, void *payload)
{
	return n->ops->try_inject(n, src_node, dst_node, cls, size_bytes, payload);
}
/* Next fully arrived packet for node in class cls, or NULL. */
static inline void *noc_try_eject(struct noc *n, int node, enum noc_class cls)
{
	return n->ops->try_eject(n, node, cls);
}
static inline void *noc_peek_eject(struct noc *n, int node, enum noc_class cls)
{
	return n->ops->peek_eject(n, node, cls);
}
static inline uint64_t noc_outstanding(const struct noc *n) { return n->ops->outstanding(n); }

int noc_cfg_define(struct cfg *c, struct sim_error *err);

#endif
