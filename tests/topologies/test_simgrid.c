/* SPDX-License-Identifier: MIT */
/* topologies/simgrid.c: SimGrid platforms as topologies (routes, inferred routers, VC classes).
 * Criterion runs each test in its own process, which SimGrid's one-engine-per-process needs. */
#include <criterion/criterion.h>
#include <string.h>

#include "topologies/topology.h"

#ifdef WARPSIM_HAVE_SIMGRID
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
	expect_bad("empty.xml", "empty.xml:1: SimGrid: Invalid XML (XML input line 1, state 1): EOF in prolog");
}
Test(simgrid_bad, truncated_file, .timeout = 60)
{
	expect_bad("truncated.xml", "truncated.xml:6: SimGrid: Invalid XML (XML input line 6");
}
Test(simgrid_bad, zero_bandwidth_torus_is_simgrids_exception_caught, .timeout = 60)
{
	expect_bad("zero_bw.xml", "zero_bw.xml: TorusZone: incorrect bandwidth");
}
Test(simgrid_bad, zero_bandwidth_link_in_a_zone_is_refused_by_name, .timeout = 60)
{
	expect_bad("zone_zero_bw.xml", "link l0 has bandwidth 0 B/s");
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
