/* SPDX-License-Identifier: MIT */
/* Topology settings (gpu.noc.topology and its shape keys) and the builder dispatch; errors
 * from a builder are re-anchored on the setting that caused them. */
#include "topology.h"

#include <stdio.h>
#include <string.h>

static const char *const topo_kinds[] = {"mesh", "torus", "ring", "crossbar", "fat-tree", "graph", "simgrid", NULL};
static const char *const graph_vc_kinds[] = {"single", "hop", NULL};

static const struct cfg_key_def topo_keys[] = {
	CFG_KEY_ENUM("gpu.noc.topology", "mesh", topo_kinds,
		     "interconnect topology: mesh (XY), torus/ring (dimension order + datelines), crossbar, fat-tree, graph, simgrid"),
	CFG_KEY_INT_LIST("gpu.noc.dims", "routers", "6,6", 1, 4096,
			 "routers per dimension (mesh, torus); ring and crossbar use the product as node count"),
	CFG_KEY_INT("gpu.noc.link_latency_cycles", "cycles", 1, 1, 1000, "flight time of every router-to-router link"),
	CFG_KEY_BOOL("gpu.noc.datelines", 1,
		     "torus/ring: switch VC class after the wrap link (deadlock-free); false gives one class and is refused"),
	CFG_KEY_INT("gpu.noc.fat_tree.k", "ports", 4, 2, 64, "fat-tree arity (k-ary n-tree: k down and k up ports per switch)"),
	CFG_KEY_INT("gpu.noc.fat_tree.levels", "levels", 3, 1, 8, "fat-tree switch levels; nodes = k^levels"),
	CFG_KEY_INT("gpu.noc.graph.nodes", "nodes", 0, 0, 65536, "graph topology: number of routers (one node each)"),
	CFG_KEY_INT_LIST("gpu.noc.graph.links", "nodes", "", 0, 65535,
			 "graph topology: flat list of links src,dst,src,dst,... (routes are BFS shortest paths)"),
	CFG_KEY_BOOL("gpu.noc.graph.bidirectional", 1, "graph topology: each listed link also goes back"),
	CFG_KEY_ENUM("gpu.noc.graph.vc_classes", "single", graph_vc_kinds,
		     "graph topology: single VC class (may be refused as deadlock-prone) or one class per hop"),
	CFG_KEY_STR("gpu.noc.platform", "", "simgrid topology: SimGrid platform XML (relative to the config file that sets it; with -s, to the working directory)"),
};

int topo_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, topo_keys, SIM_ARRAY_LEN(topo_keys), err);
}

/* A builder failed with a plain message: put it on the setting's file:line. */
static struct topo *reanchor(struct sim_error *err, const struct cfg *c, const char *path)
{
	if (err && err->code == SIM_ERR_CONFIG && err->line == 0) {
		char msg[sizeof err->msg];
		snprintf(msg, sizeof msg, "%s", err->msg);
		cfg_error(err, c, path, "%s", msg);
	}
	return NULL;
}

struct topo *topo_create(const struct cfg *c, struct sim_error *err)
{
	const char *kind = cfg_str(c, "gpu.noc.topology");
	uint32_t lat = (uint32_t)cfg_int(c, "gpu.noc.link_latency_cycles");
	size_t nd;
	const int64_t *d64 = cfg_int_list(c, "gpu.noc.dims", &nd);
	int dims[TOPO_MAX_DIMS];
	long prod = 1;
	if (!strcmp(kind, "mesh") || !strcmp(kind, "torus") || !strcmp(kind, "ring") || !strcmp(kind, "crossbar")) {
		if (nd < 1 || nd > TOPO_MAX_DIMS) {
			cfg_error(err, c, "gpu.noc.dims", "needs 1..%d entries, got %zu", TOPO_MAX_DIMS, nd);
			return NULL;
		}
		for (size_t i = 0; i < nd; i++) {
			dims[i] = (int)d64[i];
			prod *= d64[i];
		}
		if (prod > 65536) {
			cfg_error(err, c, "gpu.noc.dims", "at most 65536 nodes, got %ld", prod);
			return NULL;
		}
	}
	struct topo *t = NULL;
	const char *blame = "gpu.noc.dims";
	if (!strcmp(kind, "mesh"))
		t = topo_mesh(dims, (int)nd, lat, err);
	else if (!strcmp(kind, "torus"))
		t = topo_torus(dims, (int)nd, cfg_bool(c, "gpu.noc.datelines"), lat, err);
	else if (!strcmp(kind, "ring"))
		t = topo_ring((int)prod, cfg_bool(c, "gpu.noc.datelines"), lat, err);
	else if (!strcmp(kind, "crossbar"))
		t = topo_crossbar((int)prod, err);
	else if (!strcmp(kind, "fat-tree")) {
		blame = "gpu.noc.fat_tree.k";
		t = topo_fat_tree((int)cfg_int(c, "gpu.noc.fat_tree.k"), (int)cfg_int(c, "gpu.noc.fat_tree.levels"), lat, err);
	} else if (!strcmp(kind, "graph")) {
		size_t nl;
		const int64_t *l = cfg_int_list(c, "gpu.noc.graph.links", &nl);
		blame = "gpu.noc.graph.links";
		if (nl % 2) {
			cfg_error(err, c, blame, "needs src,dst pairs, got an odd count (%zu)", nl);
			return NULL;
		}
		t = topo_graph((int)cfg_int(c, "gpu.noc.graph.nodes"), l, nl / 2, cfg_bool(c, "gpu.noc.graph.bidirectional"),
			       !strcmp(cfg_str(c, "gpu.noc.graph.vc_classes"), "hop"), lat, err);
	} else if (!strcmp(kind, "simgrid")) {
		blame = "gpu.noc.platform";
#ifdef WARPSIM_HAVE_SIMGRID
		const char *p = cfg_str(c, "gpu.noc.platform");
		if (!p[0]) {
			cfg_error(err, c, blame, "topology \"simgrid\" needs a platform file");
			return NULL;
		}
		char path[1024];
		if (cfg_path(c, "gpu.noc.platform", path, sizeof path)) {
			cfg_error(err, c, blame, "path too long (at most %zu bytes)", sizeof path - 1);
			return NULL;
		}
		t = topo_simgrid_load(path, 32, err);
#else
		cfg_error(err, c, "gpu.noc.topology", "\"simgrid\" needs a build with -DWARPSIM_SIMGRID=ON");
		return NULL;
#endif
	} else {
		cfg_error(err, c, "gpu.noc.topology", "unknown topology \"%s\"", kind);
		return NULL;
	}
	if (!t)
		return reanchor(err, c, blame);
	if (topo_validate_routes(t, err)) {
		topo_destroy(t);
		return reanchor(err, c, blame);
	}
	return t;
}
