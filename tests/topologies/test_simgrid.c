/* SPDX-License-Identifier: MIT */
/* topologies/simgrid.c: SimGrid platforms as topologies (routes, inferred routers, VC classes).
 * Criterion runs each test in its own process, which SimGrid's one-engine-per-process needs. */
#include <criterion/criterion.h>
#include <string.h>

#include "topologies/topology.h"

#ifdef WARPSIM_HAVE_SIMGRID
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>
Test(simgrid, torus_platform_routes_agree_with_our_torus, .timeout = 60)
{
	struct sim_error err;
	sim_error_clear(&err);
	struct topo *sg = topo_simgrid_load("topologies/platforms/torus-4x4.xml", 32, &err);
	cr_assert_not_null(sg, "%s", err.msg);
	int dims[2] = {4, 4};
	struct topo *ours = topo_torus(dims, 2, true, 1, NULL);
	cr_assert_eq(sg->n_nodes, 16);
	cr_assert_eq(sg->n_routers, 16);     /* torus routers are the hosts */
	cr_assert_eq(sg->n_links, 64);       /* 16 routers x 2 dims x 2 directions */
	cr_assert_eq(sg->n_vc_classes, 2);
	cr_assert_eq(topo_validate_routes(sg, &err), 0, "%s", err.msg);
	for (int s = 0; s < 16; s++)
		for (int d = 0; d < 16; d++) {
			cr_assert_eq(topo_route_len(sg, s, d), topo_route_len(ours, s, d), "%d->%d", s, d);
			/* VC classes are not compared: on a tie (2 hops either way in a 4-ring)
			 * SimGrid sometimes goes the other way, so the datelines fall elsewhere;
			 * the deadlock check below is what matters. */
		}
	char cyc[512];
	cr_assert(topo_cdg_acyclic(sg, cyc, sizeof cyc), "%s", cyc);
	/* Latency 1 s = 1 cycle; 32 B/s = 32 bytes per cycle. */
	cr_assert_eq(sg->links[0].latency_cycles, 1);
	cr_assert_float_eq(sg->links[0].bandwidth_bytes_cycle, 32.0, 1e-9);
	topo_destroy(ours);
	topo_destroy(sg);
}

Test(simgrid, fat_tree_platform_loads, .timeout = 60)
{
	struct sim_error err;
	struct topo *t = topo_simgrid_load("topologies/platforms/fat-tree-16.xml", 32, &err);
	cr_assert_not_null(t, "%s", err.msg);
	cr_assert_eq(t->n_nodes, 16);
	cr_assert_eq(topo_validate_routes(t, &err), 0, "%s", err.msg);
	/* Up-down routes: node up, switch up, switch down, node down. */
	cr_assert_eq(topo_route_len(t, 0, 10), 4);
	cr_assert(topo_cdg_acyclic(t, NULL, 0));
	topo_destroy(t);
}

/* issue 35: routes of a lone cluster of 64 hosts or more are composed from its structure rather
 * than asked of SimGrid per pair. Every pair's links must be SimGrid's, by name, in order. */
static void expect_routes_as_simgrid(const char *platform, const int *ranks, int n, bool torus)
{
	struct sim_error err = {0};
	struct topo *t = topo_simgrid_load(platform, 32, &err);
	cr_assert_not_null(t, "%s", err.msg);
	cr_assert_eq(t->n_nodes, n);
	cr_assert_eq(t->n_vc_classes, torus ? 2 : 1);
	cr_assert_eq(topo_validate_routes(t, &err), 0, "%s", err.msg);
	cr_assert(topo_cdg_acyclic(t, NULL, 0));
	xbt_dynar_t dy = xbt_dynar_new(sizeof(sg_link_t), NULL);
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++) {
			if (s == d)
				continue;
			char a[32], b[32];
			snprintf(a, sizeof a, "n%d", ranks[s]);
			snprintf(b, sizeof b, "n%d", ranks[d]);
			xbt_dynar_reset(dy);
			sg_host_get_route(sg_host_by_name(a), sg_host_by_name(b), dy);
			int len = topo_route_len(t, s, d);
			cr_assert_eq(len, (int)xbt_dynar_length(dy), "%s->%s", a, b);
			const int32_t *l = topo_route_links(t, s, d);
			for (int i = 0; i < len; i++)
				cr_assert_str_eq(t->links[l[i]].name,
						 sg_link_get_name(xbt_dynar_get_as(dy, (unsigned)i, sg_link_t)), "%s->%s hop %d", a, b, i);
		}
	xbt_dynar_free(&dy);
	topo_destroy(t);
}

static void expect_composed(const char *platform, int lo1, int hi1, int lo2, int hi2, bool torus)
{
	int ranks[512], n = 0;
	for (int i = lo1; i <= hi1; i++)
		ranks[n++] = i;
	for (int i = lo2; i <= hi2; i++)
		ranks[n++] = i;
	expect_routes_as_simgrid(platform, ranks, n, torus);
}

Test(simgrid, composed_flat_cluster_routes_are_simgrids, .timeout = 120)
{
	expect_composed("tests/topologies/platforms/flat_backbone_100.xml", 0, 99, 0, -1, false);
}
Test(simgrid, composed_torus_routes_are_simgrids, .timeout = 120)
{
	expect_composed("tests/topologies/platforms/torus_16x16.xml", 0, 255, 0, -1, true);
}
Test(simgrid, composed_torus_with_a_ring_of_two, .timeout = 120)
{
	expect_composed("tests/topologies/platforms/torus_2x4x8.xml", 0, 63, 0, -1, true);
}
Test(simgrid, composed_torus_of_odd_rings_and_gapped_radicals, .timeout = 120)
{
	expect_composed("tests/topologies/platforms/torus_5x13_gap.xml", 0, 31, 40, 72, true);
}

/* issue 35: a TORUS cluster inside a comment is no torus (the text scan read it) */
Test(simgrid, commented_out_torus_is_not_read, .timeout = 60)
{
	struct sim_error err = {0};
	struct topo *t = topo_simgrid_load("tests/topologies/platforms/commented_torus.xml", 32, &err);
	cr_assert_not_null(t, "%s", err.msg);
	cr_assert_eq(t->n_nodes, 8);
	cr_assert_eq(t->n_dims, 0);
	cr_assert_eq(topo_validate_routes(t, &err), 0, "%s", err.msg);
	topo_destroy(t);
}

Test(simgrid, nested_zones_with_a_zone_route_load, .timeout = 60)
{
	struct sim_error err = {0};
	struct topo *t = topo_simgrid_load("tests/topologies/platforms/nested_zones.xml", 32, &err);
	cr_assert_not_null(t, "%s", err.msg);
	cr_assert_eq(t->n_nodes, 2);
	cr_assert_eq(topo_route_len(t, 0, 1), 3); /* la, x, lb */
	cr_assert_eq(topo_validate_routes(t, &err), 0, "%s", err.msg);
	topo_destroy(t);
}

Test(simgrid, second_platform_in_one_process_is_refused, .timeout = 60)
{
	struct sim_error err;
	struct topo *t = topo_simgrid_load("topologies/platforms/torus-4x4.xml", 32, &err);
	cr_assert_not_null(t, "%s", err.msg);
	cr_assert_null(topo_simgrid_load("topologies/platforms/torus-4x4.xml", 32, &err));
	cr_assert(strstr(err.msg, "one engine per process") != NULL, "%s", err.msg);
	topo_destroy(t);
}

Test(simgrid, missing_platform_is_a_config_error, .timeout = 60)
{
	struct sim_error err;
	cr_assert_null(topo_simgrid_load("topologies/platforms/nope.xml", 32, &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
}
/* Issue 19: a malformed platform is a config error with SimGrid's own message (and the file's
 * line where its parser gives one), never an abort. Each runs in its own process (SimGrid has
 * one engine per process). */
static void expect_bad(const char *name, const char *want)
{
	struct sim_error err = {0};
	char path[256];
	snprintf(path, sizeof path, "tests/bad_inputs/platforms/%s", name);
	cr_assert_null(topo_simgrid_load(path, 32, &err), "%s loaded", name);
	cr_assert_eq(err.code, SIM_ERR_CONFIG, "%s: code %d", name, err.code);
	char msg[1024];
	sim_error_format(&err, msg, sizeof msg);
	cr_assert(strstr(msg, want) != NULL, "%s: '%s' lacks '%s'", name, msg, want);
	cr_assert(!strchr(msg, '\n'), "one line: %s", msg);
}

Test(simgrid_bad, garbage_is_a_parse_error_at_its_line, .timeout = 60)
{
	expect_bad("garbage.xml", "garbage.xml:2: SimGrid: Invalid XML");
}
Test(simgrid_bad, entity_declarations_are_refused_at_their_line, .timeout = 60)
{
	expect_bad("bomb.xml", "bomb.xml:3: SimGrid: Invalid XML");
}
Test(simgrid_bad, empty_and_truncated_files, .timeout = 60)
{
	expect_bad("empty.xml", "empty.xml has no <platform> element");
}
Test(simgrid_bad, truncated_file, .timeout = 60)
{
	expect_bad("truncated.xml", "truncated.xml:6: SimGrid: Invalid XML (XML input line 6");
}
/* issue 35: value errors name their element's line (SimGrid's exception had none) */
Test(simgrid_bad, zero_bandwidth_torus_is_refused_at_its_line, .timeout = 60)
{
	expect_bad("zero_bw.xml", "zero_bw.xml:6: <cluster id=\"torus\">: bw=\"0Bps\" must be a positive");
}
Test(simgrid_bad, zero_bandwidth_link_in_a_zone_is_refused_at_its_line, .timeout = 60)
{
	expect_bad("zone_zero_bw.xml", "zone_zero_bw.xml:8: <link id=\"l0\">: bandwidth=\"0Bps\" must be a positive");
}
Test(simgrid_bad, negative_latency_is_refused_at_its_line, .timeout = 60)
{
	expect_bad("negative_latency.xml", "negative_latency.xml:9: <link id=\"c\">: latency=\"-2s\" must be a finite number >= 0");
}
/* issue 35: SimGrid 3.32 aborts (exit 134) on these; refused before it sees them */
Test(simgrid_bad, symmetrical_duplicate_route_in_a_full_zone, .timeout = 60)
{
	expect_bad("full_dup_symmetrical.xml", "full_dup_symmetrical.xml:11: <route src=\"n1\" dst=\"n0\">: zone z already "
		   "has a route from n1 to n0 (line 10, as the reverse of a symmetrical route)");
}
Test(simgrid_bad, the_same_route_twice, .timeout = 60)
{
	expect_bad("full_dup_route.xml", "full_dup_route.xml:11: <route src=\"n0\" dst=\"n1\">: zone z already has a route from n0 to n1 (line 9)");
}
Test(simgrid_bad, a_symmetrical_route_over_an_explicit_reverse, .timeout = 60)
{
	expect_bad("full_sym_over_explicit.xml", "full_sym_over_explicit.xml:10: <route src=\"n0\" dst=\"n1\"> is symmetrical");
}
Test(simgrid_bad, floyd_and_dijkstra_duplicates, .timeout = 60)
{
	expect_bad("floyd_dup_symmetrical.xml", "floyd_dup_symmetrical.xml:10: <route src=\"n1\" dst=\"n0\">: zone z already");
}
Test(simgrid_bad, dijkstra_duplicate, .timeout = 60)
{
	expect_bad("dijkstra_dup_symmetrical.xml", "dijkstra_dup_symmetrical.xml:10:");
}
/* issue 35: SimGrid crashed adding the reverse of a symmetrical self route to a Dijkstra graph */
Test(simgrid_bad, dijkstra_symmetrical_self_route, .timeout = 60)
{
	expect_bad("dijkstra_self_route.xml", "dijkstra_self_route.xml:10: <route src=\"n1\" dst=\"n1\">: a route from a "
		   "point to itself in a Dijkstra zone needs symmetrical=\"NO\"");
}
Test(simgrid_bad, nested_zone_routes_duplicated, .timeout = 60)
{
	expect_bad("nested_zoneroute_dup.xml", "nested_zoneroute_dup.xml:15: <zoneRoute src=\"zb\" dst=\"za\">: zone top already");
}
Test(simgrid_bad, routes_and_members_of_a_none_zone, .timeout = 60)
{
	expect_bad("route_in_none_zone.xml", "route_in_none_zone.xml:9: <route> in zone z, whose routing \"None\" takes no routes");
}
Test(simgrid_bad, none_zone_with_two_hosts, .timeout = 60)
{
	expect_bad("none_zone_two_hosts.xml", "none_zone_two_hosts.xml:4: <zone id=\"z\"> has routing \"None\" but 2 members");
}
Test(simgrid_bad, unknown_routing, .timeout = 60)
{
	expect_bad("unknown_routing.xml", "unknown_routing.xml:4: <zone id=\"z\">: routing \"Star\" is not one of");
}
Test(simgrid_bad, include_is_refused, .timeout = 60)
{
	expect_bad("include_tag.xml", "include_tag.xml:9: <include> is not read");
}
Test(simgrid_bad, duplicate_names, .timeout = 60)
{
	expect_bad("duplicate_link.xml", "duplicate_link.xml:9: <link id=\"a\">: a link of that name is already declared at line 7");
}
Test(simgrid_bad, cluster_hosts_declared_twice, .timeout = 60)
{
	expect_bad("cluster_host_twice.xml", "cluster_host_twice.xml:6: cluster d: its host n2 is already declared at line 5");
}
Test(simgrid_bad, two_root_zones, .timeout = 60)
{
	expect_bad("two_root_zones.xml", "two_root_zones.xml:7: <zone id=\"y\">: a second top-level zone");
}
Test(simgrid_bad, route_without_links, .timeout = 60)
{
	expect_bad("empty_route.xml", "empty_route.xml:9: <route src=\"n0\" dst=\"n1\"> has no <link_ctn>");
}
/* issue 35: was "link r0 is used in both directions" (the empty route joined the hosts) */
Test(simgrid_bad, host_without_routes_is_named, .timeout = 60)
{
	expect_bad("host_no_routes.xml", "host_no_routes.xml:5: host n0 has no route to host n2 (line 7)");
}
Test(simgrid_bad, route_through_a_missing_link, .timeout = 60)
{
	expect_bad("badlink.xml", "Link not found: nolink");
}
Test(simgrid_bad, no_hosts_at_all, .timeout = 60)
{
	expect_bad("no_hosts.xml", "has no hosts");
	
}
Test(simgrid_bad, backwards_radical_is_refused_at_its_line, .timeout = 60)
{
	expect_bad("bad_radical.xml", "bad_radical.xml:5: cluster c: radical \"9-2\" is not a list");
}
Test(simgrid_bad, unknown_element_and_unit, .timeout = 60)
{
	expect_bad("unknown_tag.xml", "unknown_tag.xml:7: SimGrid: Invalid XML");
}
Test(simgrid_bad, unknown_unit, .timeout = 60)
{
	expect_bad("bad_unit.xml", "bad_unit.xml:5: SimGrid: unknown unit: furlongs");
}
Test(simgrid_bad, torus_parameters_that_are_not_numbers, .timeout = 60)
{
	expect_bad("torus_bad_dims.xml", "torus_bad_dims.xml:5: cluster t: topo_parameters \"4,x\" do not describe a TORUS");
}
/* found by fuzz_simgrid: SimGrid aborts (xbt_die) on a torus its radicals do not fill */
Test(simgrid_bad, torus_with_too_few_radicals_is_refused_before_simgrid, .timeout = 60)
{
	struct sim_error err = {0};
	cr_assert_null(topo_simgrid_load("tests/fuzz/regressions/simgrid_torus_radicals_short.xml", 32, &err));
	cr_assert(strstr(err.msg, "cluster torus: TORUS \"6,6\" has 36 places but radical \"0-17\" names 18 hosts"),
		  "%s", err.msg);
	cr_assert_eq(err.line, 6);
}
/* found by fuzz_simgrid: NUL bytes in a comment hid the cluster from the check above */
Test(simgrid_bad, nul_bytes_do_not_hide_a_cluster, .timeout = 60)
{
	struct sim_error err = {0};
	cr_assert_null(topo_simgrid_load("tests/fuzz/regressions/simgrid_nul_before_cluster.xml", 32, &err));
	cr_assert(strstr(err.msg, "TORUS \"6,6\" has 36 places but radical \"1-35\" names 35 hosts"), "%s", err.msg);
}
/* found by fuzz_simgrid: a <platform> without a zone crashed SimGrid when it sealed it */
Test(simgrid_bad, a_platform_without_a_zone_is_refused_before_simgrid, .timeout = 60)
{
	struct sim_error err = {0};
	cr_assert_null(topo_simgrid_load("tests/fuzz/regressions/simgrid_no_zone.xml", 32, &err));
	cr_assert(strstr(err.msg, "simgrid_no_zone.xml has no <zone> or <cluster>"), "%s", err.msg);
}
Test(simgrid_bad, a_cluster_of_a_hundred_million_hosts_is_refused_from_the_text, .timeout = 60)
{
	expect_bad("too_many_hosts.xml", "cluster c: 100000 hosts, at most 4096");
}
Test(simgrid_bad, a_directory_is_not_a_platform, .timeout = 60)
{
	expect_bad("", "is a directory, not a regular file");
}
/* SimGrid lives in a plugin opened on first use (topologies/sg_plugin.c): one that cannot be
 * loaded is a configuration error naming the file and dlopen's reason. */
Test(simgrid_plugin, a_missing_plugin_is_a_config_error_naming_it, .timeout = 60)
{
	struct sim_error err = {0};
	cr_assert_null(topo_sg_plugin_symbol_at("/nonexistent/libwarpsim-simgrid.so", "topo_sg_plugin_load", &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "SimGrid is needed here, but its plugin cannot be loaded: "
			 "/nonexistent/libwarpsim-simgrid.so: cannot open shared object file"), "%s", err.msg);
}

Test(simgrid_plugin, the_built_plugin_has_every_entry_point, .timeout = 60)
{
	struct sim_error err = {0};
	static const char *const names[] = {"topo_sg_plugin_load", "noc_sgflow_plugin_new", "noc_sgflow_plugin_stats"};
	for (int i = 0; i < 3; i++)
		cr_assert_not_null(topo_sg_plugin_symbol(names[i], &err), "%s: %s", names[i], err.msg);
	cr_assert_null(topo_sg_plugin_symbol("topo_sg_plugin_no_such_entry", &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "libwarpsim-simgrid.so has no topo_sg_plugin_no_such_entry"), "%s", err.msg);
}
#else
Test(simgrid, simgrid_topology_needs_simgrid_build, .timeout = 60)
{
	struct sim_error err;
	struct cfg *c = cfg_create();
	cr_assert_eq(topo_cfg_define(c, &err), 0);
	cr_assert_eq(cfg_set_override(c, "gpu.noc.topology=simgrid", &err), 0);
	cr_assert_null(topo_create(c, &err));
	cr_assert(strstr(err.msg, "WARPSIM_SIMGRID=ON") != NULL, "%s", err.msg);
	cfg_destroy(c);
}
#endif
/* found by fuzz_simgrid: a file of only an XML declaration, a DOCTYPE and a comment has no root
 * element; SimGrid 3.32 accepts it and crashes sealing the platform */
Test(simgrid_bad, a_prolog_without_a_platform_is_refused_before_simgrid, .timeout = 60)
{
	struct sim_error err = {0};
	cr_assert_null(topo_simgrid_load("tests/fuzz/regressions/simgrid_prolog_only.xml", 32, &err));
	cr_assert(strstr(err.msg, "simgrid_prolog_only.xml has no <platform> element"), "%s", err.msg);
}
