/* SPDX-License-Identifier: MIT */
/* Interconnect topologies: routers, terminal nodes, directed links and a precomputed route
 * (links + VC class per hop) for every node pair; plus the channel-dependency deadlock check. */
#ifndef WARPSIM_TOPOLOGY_H
#define WARPSIM_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"

#define TOPO_MAX_DIMS 4
#define TOPO_MAX_VC_CLASSES 16 /* route VC classes (datelines, hop classes) */

/* A directed channel between two routers. */
struct topo_link {
	int src_router, dst_router;
	uint32_t latency_cycles;     /* >= 1, NoC cycles of flight */
	double bandwidth_bytes_cycle;/* bytes per NoC cycle (the cycle model sends 1 flit/cycle) */
	char name[48];               /* "r3->r4", or the SimGrid link name */
};

/* Routers are numbered 0..n_routers-1; each terminal node (core, MC, unused) hangs off one
 * router (node_router). A route from s to d is the list of inter-router links from
 * node_router[s] to node_router[d] (empty when they share a router) with one VC class per
 * hop; injection and ejection channels are implicit. Owned by the struct; topo_destroy frees. */
struct topo {
	char kind[16];               /* "mesh", "torus", "ring", "crossbar", "fat-tree", "graph", "simgrid" */
	int n_nodes, n_routers, n_links;
	int *node_router;            /* [n_nodes] */
	struct topo_link *links;     /* [n_links] */
	int n_vc_classes;            /* 1..TOPO_MAX_VC_CLASSES: classes a route's hops use */
	uint32_t *route_off;         /* [n_nodes*n_nodes] index into route_link / route_vc */
	uint16_t *route_len;         /* [n_nodes*n_nodes] hops (links) */
	int32_t *route_link;         /* concatenated link ids */
	uint8_t *route_vc;           /* VC class of each hop, < n_vc_classes */
	size_t route_cap, route_used;/* capacity / used entries of route_link/route_vc */
	int dims[TOPO_MAX_DIMS], n_dims; /* mesh/torus/fat-tree shape, for reports */
};

/* Builders. All allocate; on failure return NULL and fill err (SIM_ERR_NOMEM or
 * SIM_ERR_CONFIG with a message; callers with a cfg re-anchor it on the setting).
 * latency_cycles is the per-link latency (>= 1). */
/* n-D mesh, dims[0] fastest (node = x + X*y ...), dimension-order (XY) routing. */
struct topo *topo_mesh(const int *dims, int n_dims, uint32_t latency_cycles, struct sim_error *err);
/* n-D torus, dimension order, shortest direction (ties go +). datelines: hops after a packet
 * crossed the wrap link of the current dimension use VC class 1 (2 classes), else 1 class. */
struct topo *topo_torus(const int *dims, int n_dims, bool datelines, uint32_t latency_cycles,
			struct sim_error *err);
/* Bidirectional ring of n routers: a 1-D torus. */
struct topo *topo_ring(int n, bool datelines, uint32_t latency_cycles, struct sim_error *err);
/* One router with every node attached: one hop (as GPGPU-Sim's default crossbar). */
struct topo *topo_crossbar(int n, struct sim_error *err);
/* k-ary n-tree: k^levels nodes, levels*k^(levels-1) switches, up-down routing (up port
 * chosen by destination digit, so each destination has one down path). */
struct topo *topo_fat_tree(int k, int levels, uint32_t latency_cycles, struct sim_error *err);
/* Arbitrary graph: n routers (one node each), n_pairs directed links src,dst (pairs[2i],
 * pairs[2i+1]; bidir adds the reverse), shortest-path routes (BFS, lowest-numbered neighbour
 * first). hop_classes: hop i uses VC class i (deadlock-free with diameter classes). */
struct topo *topo_graph(int n, const int64_t *pairs, size_t n_pairs, bool bidir, bool hop_classes,
			uint32_t latency_cycles, struct sim_error *err);
void topo_destroy(struct topo *t);

/* Low-level construction (used by the builders and the SimGrid loader). */
struct topo *topo_alloc(const char *kind, int n_nodes, int n_routers, int max_links, struct sim_error *err);
int topo_add_link(struct topo *t, int src_router, int dst_router, uint32_t latency_cycles,
		  double bandwidth_bytes_cycle);
/* Link id from src to dst router, -1 if none. O(links). */
int topo_find_link(const struct topo *t, int src_router, int dst_router);
/* Append the route s->d (must be called for pairs in any order, once each). */
int topo_set_route(struct topo *t, int s, int d, const int32_t *links, const uint8_t *vc, int len,
		   struct sim_error *err);

static inline int topo_route_len(const struct topo *t, int s, int d) { return t->route_len[(size_t)s * (size_t)t->n_nodes + (size_t)d]; }
static inline const int32_t *topo_route_links(const struct topo *t, int s, int d) { return t->route_link + t->route_off[(size_t)s * (size_t)t->n_nodes + (size_t)d]; }
static inline const uint8_t *topo_route_vcs(const struct topo *t, int s, int d) { return t->route_vc + t->route_off[(size_t)s * (size_t)t->n_nodes + (size_t)d]; }

/* Check that every route is connected (link i ends where link i+1 starts, first link starts
 * at node_router[s], last ends at node_router[d]). 0 or SIM_ERR_CONFIG naming the pair. */
int topo_validate_routes(const struct topo *t, struct sim_error *err);

/* Channel dependency graph over (link, VC class): an edge for every consecutive hop pair of
 * every route (Dally & Seitz: acyclic => deadlock-free routing). Returns true if acyclic;
 * otherwise false and cycle_text gets "r0->r1[c0] -> r1->r2[c0] -> ... -> r0->r1[c0]". */
bool topo_cdg_acyclic(const struct topo *t, char *cycle_text, size_t n);

/* Settings gpu.noc.{topology,dims,link_latency_cycles,datelines,fat_tree.*,graph.*,platform}
 * (called by noc_cfg_define). */
int topo_cfg_define(struct cfg *c, struct sim_error *err);
/* Build the topology the config names. Errors name the setting (file:line). */
struct topo *topo_create(const struct cfg *c, struct sim_error *err);

#ifdef WARPSIM_HAVE_SIMGRID
/* Load a SimGrid platform (hosts become nodes in name order; routers are the hosts and the
 * inferred junctions). SimGrid has one engine per process: call at most once per process. */
struct topo *topo_simgrid_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err);
/* The function `name` of SimGrid's plugin (libwarpsim-simgrid.so: topologies/simgrid*.c*,
 * noc/noc_sgflow.cc), opened on first use and never closed (sg_plugin.c): looked for next to
 * the object holding warpsim's code, else in the build tree's lib/. NULL with SIM_ERR_CONFIG
 * and dlopen's reason if it cannot be loaded. _at: the plugin at path. */
void *topo_sg_plugin_symbol(const char *name, struct sim_error *err);
void *topo_sg_plugin_symbol_at(const char *path, const char *name, struct sim_error *err);
/* The plugin's own loader behind topo_simgrid_load (topologies/simgrid.c). */
struct topo *topo_sg_plugin_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err);
#endif

#endif
