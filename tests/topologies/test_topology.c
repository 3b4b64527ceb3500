/* SPDX-License-Identifier: MIT */
/* topologies/topology.h: routes of the built-in topologies and the channel-dependency deadlock check. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topology.h"

Test(topology, xy_routes_on_6x6_mesh_are_minimal_and_x_first)
{
	int dims[2] = {6, 6};
	struct topo *t = topo_mesh(dims, 2, 1, NULL);
	cr_assert_not_null(t);
	cr_assert_eq(t->n_nodes, 36);
	/* 6 rows x 5 links x 2 directions x 2 dimensions = 120 directed links. */
	cr_assert_eq(t->n_links, 120);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	for (int s = 0; s < 36; s++)
		for (int d = 0; d < 36; d++) {
			int dx = abs(s % 6 - d % 6), dy = abs(s / 6 - d / 6);
			cr_assert_eq(topo_route_len(t, s, d), dx + dy, "route %d->%d", s, d);
			const int32_t *l = topo_route_links(t, s, d);
			/* The first dx hops change only x (same row), the rest only y. */
			for (int i = 0; i < dx + dy; i++) {
				int a = t->links[l[i]].src_router, b = t->links[l[i]].dst_router;
				if (i < dx)
					cr_assert_eq(a / 6, b / 6);
				else
					cr_assert_eq(a % 6, b % 6);
			}
		}
	char cyc[256];
	cr_assert(topo_cdg_acyclic(t, cyc, sizeof cyc));
	topo_destroy(t);
}

Test(topology, ring_with_one_vc_class_is_refused_and_datelines_accepted)
{
	char cyc[512] = "";
	struct topo *t = topo_ring(8, false, 1, NULL);
	cr_assert_not_null(t);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	cr_assert_not(topo_cdg_acyclic(t, cyc, sizeof cyc));
	/* The cycle goes once around one direction of the ring: 8 channels + the repeat. */
	cr_assert(strstr(cyc, "[vc0]") != NULL, "%s", cyc);
	int arrows = 0;
	for (const char *p = cyc; (p = strstr(p, " -> ")); p++)
		arrows++;
	cr_assert_eq(arrows, 8, "%s", cyc);
	topo_destroy(t);

	t = topo_ring(8, true, 1, NULL);
	cr_assert_eq(t->n_vc_classes, 2);
	cr_assert(topo_cdg_acyclic(t, cyc, sizeof cyc));
	/* 0 -> 6 goes the short way (-): 0->7 crosses the dateline, so both hops use class 1. */
	cr_assert_eq(topo_route_len(t, 0, 6), 2);
	cr_assert_eq(topo_route_vcs(t, 0, 6)[0], 1);
	cr_assert_eq(topo_route_vcs(t, 0, 6)[1], 1);
	/* 5 -> 1: 5->6->7->0->1, the wrap is the third hop. */
	const uint8_t *vc = topo_route_vcs(t, 5, 1);
	cr_assert_eq(topo_route_len(t, 5, 1), 4);
	cr_assert(vc[0] == 0 && vc[1] == 0 && vc[2] == 1 && vc[3] == 1);
	topo_destroy(t);
}

Test(topology, torus_hops_and_deadlock_check)
{
	int dims[2] = {4, 4};
	struct topo *t = topo_torus(dims, 2, true, 1, NULL);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	/* Hop count = sum over dims of min(|dx|, 4-|dx|). */
	for (int s = 0; s < 16; s++)
		for (int d = 0; d < 16; d++) {
			int dx = abs(s % 4 - d % 4), dy = abs(s / 4 - d / 4);
			int h = (dx < 4 - dx ? dx : 4 - dx) + (dy < 4 - dy ? dy : 4 - dy);
			cr_assert_eq(topo_route_len(t, s, d), h);
		}
	cr_assert(topo_cdg_acyclic(t, NULL, 0));
	topo_destroy(t);
	t = topo_torus(dims, 2, false, 1, NULL);
	cr_assert_not(topo_cdg_acyclic(t, NULL, 0));
	topo_destroy(t);
}

Test(topology, fat_tree_up_down)
{
	struct topo *t = topo_fat_tree(2, 3, 1, NULL);
	cr_assert_not_null(t);
	/* 2-ary 3-tree: 8 nodes, 3 levels of 4 switches, 2 inter-level stages x 4 x 2 x 2 links. */
	cr_assert_eq(t->n_nodes, 8);
	cr_assert_eq(t->n_routers, 12);
	cr_assert_eq(t->n_links, 32);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	cr_assert_eq(topo_route_len(t, 0, 1), 0); /* same leaf switch */
	cr_assert_eq(topo_route_len(t, 0, 2), 2); /* up one level and down */
	cr_assert_eq(topo_route_len(t, 0, 7), 4); /* to the top and down */
	cr_assert(topo_cdg_acyclic(t, NULL, 0));
	topo_destroy(t);
}

Test(topology, crossbar_one_hop)
{
	struct topo *t = topo_crossbar(5, NULL);
	cr_assert_eq(t->n_routers, 1);
	cr_assert_eq(topo_route_len(t, 0, 4), 0);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	topo_destroy(t);
}

Test(topology, graph_routes_shortest_and_hop_classes)
{
	/* A 6-node ring written as a graph, plus one chord 0-3. */
	int64_t links[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0, 3};
	struct topo *t = topo_graph(6, links, 7, true, false, 1, NULL);
	cr_assert_eq(topo_validate_routes(t, NULL), 0);
	cr_assert_eq(topo_route_len(t, 0, 3), 1);
	cr_assert_eq(topo_route_len(t, 1, 4), 3);
	topo_destroy(t);
	t = topo_graph(6, links, 7, true, true, 1, NULL);
	cr_assert(topo_cdg_acyclic(t, NULL, 0));
	cr_assert_eq(t->n_vc_classes, 3);
	topo_destroy(t);
	struct sim_error err;
	int64_t split[] = {0, 1, 2, 3};
	cr_assert_null(topo_graph(4, split, 2, true, false, 1, &err));
	cr_assert(strstr(err.msg, "not connected") != NULL, "%s", err.msg);
}
