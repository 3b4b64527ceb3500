/* SPDX-License-Identifier: MIT */
/* noc/noc.h: noc_create from gpu.noc.* (placement, deadlock refusal naming file:line), the flow
 * backend's single-packet latency, the engine component (ticked only while busy), determinism. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stats.h"
#include "noc/noc_drive.h"

static struct cfg *cfg_from(const char *name, const char *text)
{
	struct sim_error err;
	sim_error_clear(&err);
	struct cfg *c = cfg_create();
	cr_assert_eq(noc_cfg_define(c, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_load_string(c, name, text, &err), 0, "%s", err.msg);
	return c;
}

/* configs/owl-28/noc.cfg is a fragment for the inside of the gpu group; override is a -s. */
static struct cfg *owl28(const char *override)
{
	FILE *f = fopen("configs/owl-28/noc.cfg", "r");
	cr_assert_not_null(f, "run from the repository root");
	static char text[16384];
	size_t n = (size_t)snprintf(text, sizeof text, "gpu: {\n");
	n += fread(text + n, 1, sizeof text - n - 256, f);
	fclose(f);
	snprintf(text + n, sizeof text - n, "\n};\n");
	struct cfg *c = cfg_from("owl-28/noc.cfg", text);
	struct sim_error err;
	/* The router these tests' latencies were worked out for (5R + 2 + (L - 1): 1-cycle
	 * RC/VA/SA/ST, 4 VCs, noc/VALIDATION.md); owl-28 has GPGPU-Sim 2.x's 3-cycle hop since. */
	static const char *const router[] = {"gpu.noc.vc_alloc_delay_cycles=1", "gpu.noc.st_delay_cycles=1",
					     "gpu.noc.vcs=4", "gpu.noc.eject_queue_flits=16"};
	for (size_t i = 0; i < sizeof router / sizeof router[0]; i++)
		cr_assert_eq(cfg_set_override(c, router[i], &err), 0, "%s", err.msg);
	if (override)
		cr_assert_eq(cfg_set_override(c, override, &err), 0, "%s", err.msg);
	return c;
}

Test(noc, owl28_placement_mcs_and_cores_in_order)
{
	struct sim_error err;
	struct cfg *c = owl28(NULL);
	struct noc *n = noc_create(c, NULL, NULL, 28, 8, &err);
	cr_assert_not_null(n, "%s", err.msg);
	cr_assert_eq(n->n_nodes, 36);
	int mc[8] = {3, 7, 10, 12, 23, 25, 28, 32};
	for (int i = 0; i < 8; i++) {
		cr_assert_eq(n->mc_node[i], mc[i]);
		cr_assert_eq(n->node_kind[mc[i]], NOC_NODE_MC);
	}
	/* Cores fill 0,1,2,4,5,6,8,9,11,13,... in order. */
	cr_assert_eq(n->core_node[0], 0);
	cr_assert_eq(n->core_node[3], 4);
	cr_assert_eq(n->core_node[6], 8);
	cr_assert_eq(n->core_node[8], 11);
	cr_assert_eq(n->core_node[27], 35);
	noc_destroy(n);
	cfg_destroy(c);
}

Test(noc, ring_without_datelines_is_refused_naming_setting_and_cycle)
{
	struct sim_error err;
	struct cfg *c = cfg_from("bad.cfg", "gpu: { noc: {\n topology = \"ring\";\n dims = [8];\n datelines = false;\n"
					    " placement: { mc_nodes = [1]; }; }; };\n");
	cr_assert_null(noc_create(c, NULL, NULL, 4, 1, &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert_str_eq(err.file, "bad.cfg");
	cr_assert_eq(err.line, 4);
	cr_assert_str_eq(err.setting, "gpu.noc.datelines");
	cr_assert(strstr(err.msg, "cycle r") != NULL, "%s", err.msg);
	cfg_destroy(c);
	c = cfg_from("good.cfg", "gpu: { noc: { topology = \"ring\"; dims = [8]; datelines = true;"
				 " placement: { mc_nodes = [1]; }; }; };\n");
	struct noc *n = noc_create(c, NULL, NULL, 4, 1, &err);
	cr_assert_not_null(n, "%s", err.msg);
	noc_destroy(n);
	cfg_destroy(c);
}

Test(noc, placement_errors_name_the_setting)
{
	struct sim_error err;
	struct cfg *c = owl28("gpu.noc.placement.mc_nodes=[3,7,10,12,23,25,28,36]");
	cr_assert_null(noc_create(c, NULL, NULL, 28, 8, &err));
	cr_assert_str_eq(err.setting, "gpu.noc.placement.mc_nodes");
	cr_assert(strstr(err.msg, "node 36 is not in the topology") != NULL, "%s", err.msg);
	cfg_destroy(c);
	c = owl28(NULL);
	cr_assert_null(noc_create(c, NULL, NULL, 28, 6, &err));
	cr_assert(strstr(err.msg, "lists 8 nodes for 6 L2 slices") != NULL, "%s", err.msg);
	cfg_destroy(c);
}

static uint64_t lone_packet(struct noc *n, int s, int d, uint32_t bytes)
{
	static int tok;
	uint64_t t0 = noc_now_cycle(n);
	cr_assert(noc_try_inject(n, s, d, NOC_CLASS_REQ, bytes, &tok));
	while (!noc_try_eject(n, d, NOC_CLASS_REQ)) {
		noc_step(n);
		cr_assert_lt(noc_now_cycle(n) - t0, 10000);
	}
	return noc_now_cycle(n) - t0;
}

Test(noc, flow_model_single_packet_matches_formula)
{
	struct sim_error err;
	struct cfg *c = owl28("gpu.noc.model=flow");
	struct noc *n = noc_create(c, NULL, NULL, 28, 8, &err);
	cr_assert_not_null(n, "%s", err.msg);
	/* Same formula as the cycle model: 5R + 2 + (L - 1). 0 -> 35: R = 11. */
	cr_assert_eq(lone_packet(n, 0, 35, 32), 57);
	cr_assert_eq(lone_packet(n, 0, 35, 128), 60);
	cr_assert_eq(lone_packet(n, 4, 4, 8), 7);
	noc_destroy(n);
	cfg_destroy(c);
}

/* ---- the engine component ---------------------------------------------------------- */

struct sink {
	struct sim_component comp;
	struct noc *noc;
	int node;
	uint64_t got_ps;
	void *got;
};

static uint64_t sink_tick(struct sim_component *c, uint64_t cycle)
{
	struct sink *s = (struct sink *)c;
	void *p = noc_try_eject(s->noc, s->node, NOC_CLASS_REPLY);
	if (p) {
		s->got = p;
		s->got_ps = sim_now_ps(c->sim);
	}
	(void)cycle;
	return SIM_NEVER;
}

Test(noc, engine_component_ticks_only_while_busy_and_wakes_sink)
{
	struct sim_error err;
	sim_error_clear(&err);
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	struct stats *st = stats_create();
	struct cfg *c = owl28(NULL);
	struct noc *n = noc_create(c, sim, st, 28, 8, &err);
	cr_assert_not_null(n, "%s", err.msg);
	static const struct sim_component_ops ops = {.tick = sink_tick};
	static struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	cr_assert_eq(sim_clock_add(sim, &clk, &err), 0);
	struct sink s = {.comp = {.ops = &ops, .name = "sink", .clk = &clk}, .noc = n, .node = 35};
	cr_assert_eq(sim_component_add(sim, &s.comp, &err), 0);
	noc_set_sink(n, 35, &s.comp);
	static int tok;
	cr_assert(noc_try_inject(n, 0, 35, NOC_CLASS_REPLY, 32, &tok));
	cr_assert_eq(sim_run(sim, SIM_NEVER, NULL, &err), SIM_STOP_QUIESCENT, "%s", err.msg);
	cr_assert_eq(s.got, &tok);
	/* 57 NoC cycles at 650 MHz: edge 57 = floor(57 * 10^6 / 650) ps = 87692 ps; the 1 GHz sink
	 * ticks at its first edge at or after that: 88000 ps. */
	cr_assert_eq(s.got_ps, 88000);
	/* The NoC ticked from cycle 0 until its buffers emptied (the tail left the last router at
	 * cycle 54: SA at 57 - 3), so 55 ticks (cycles 0..54), and not while idle afterwards. */
	cr_assert_str_eq(sim_component_get(sim, 0)->name, "noc");
	cr_assert_eq(sim_component_get(sim, 0)->ticks, 55);
	uint64_t v;
	cr_assert(stats_get_u64(st, "noc.packets_ejected", &v));
	cr_assert_eq(v, 1);
	noc_destroy(n);
	stats_destroy(st);
	sim_destroy(sim);
	cfg_destroy(c);
}

/* Same traffic twice gives identical results. */
static void run_uniform(struct noc_summary *out)
{
	struct sim_error err;
	struct cfg *c = owl28(NULL);
	struct noc *n = noc_create(c, NULL, NULL, 28, 8, &err);
	cr_assert_not_null(n, "%s", err.msg);
	uint64_t x = 99;
	for (int cyc = 0; cyc < 3000; cyc++) {
		for (int s = 0; s < 36; s++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x % 10 == 0)
				(void)noc_try_inject(n, s, (int)((x >> 8) % 36), NOC_CLASS_REQ, 64, NULL);
		}
		noc_step(n);
		for (int d = 0; d < 36; d++)
			while (noc_try_eject(n, d, NOC_CLASS_REQ) || noc_peek_eject(n, d, NOC_CLASS_REQ))
				;
	}
	noc_get_summary(n, out);
	noc_destroy(n);
	cfg_destroy(c);
}

Test(noc, deterministic)
{
	struct noc_summary a, b;
	run_uniform(&a);
	run_uniform(&b);
	cr_assert_gt(a.packets_ejected, 1000);
	cr_assert_eq(a.packets_ejected, b.packets_ejected);
	cr_assert_eq(a.inject_refused, b.inject_refused);
	cr_assert_float_eq(a.avg_network_cycles, b.avg_network_cycles, 1e-12);
}

/* A consumer that never ejects: the NoC keeps flits but stops moving them, so the engine's
 * watchdog must report a deadlock (the NoC's tick does not claim progress while stuck). */
Test(noc, stuck_consumer_is_reported_by_the_watchdog)
{
	struct sim_error err;
	sim_error_clear(&err);
	static struct sim_clock wd = {.name = "wd", .freq_mhz = 650};
	struct sim_config sc = {.seed = 1, .watchdog_cycles = 2000, .watchdog_clk = &wd};
	struct sim *sim = sim_create(&sc, &err);
	cr_assert_eq(sim_clock_add(sim, &wd, &err), 0, "%s", err.msg);
	struct cfg *c = owl28(NULL);
	struct noc *n = noc_create(c, sim, NULL, 28, 8, &err);
	cr_assert_not_null(n, "%s", err.msg);
	static int tok;
	int accepted = 0;
	/* 35 sources x 8 queued packets x 4 flits toward node 35, whose 16-flit ejection queue
	 * takes 4 packets and is never drained. */
	for (int s = 0; s < 35; s++)
		for (int k = 0; k < 8; k++)
			accepted += noc_try_inject(n, s, 35, NOC_CLASS_REQ, 128, &tok);
	cr_assert_eq(accepted, 280);
	FILE *report = fopen("/dev/null", "w");
	cr_assert_eq(sim_run(sim, SIM_NEVER, report, &err), SIM_STOP_DEADLOCK);
	fclose(report);
	cr_assert_eq(noc_outstanding(n), 280);
	noc_destroy(n);
	sim_destroy(sim);
	cfg_destroy(c);
}

Test(noc, graph_and_fat_tree_from_config)
{
	struct sim_error err;
	/* A 6-node ring as a graph with shortest paths and one VC class: the 2-hop routes chain
	 * around the ring, so it is refused, naming the setting to change. */
	struct cfg *c = cfg_from("g.cfg", "gpu: { noc: {\n topology = \"graph\";\n graph: {\n nodes = 6;\n"
					  " links = [0,1, 1,2, 2,3, 3,4, 4,5, 5,0];\n vc_classes = \"single\";\n };\n"
					  " placement: { mc_nodes = [5]; }; }; };\n");
	cr_assert_null(noc_create(c, NULL, NULL, 5, 1, &err));
	cr_assert_str_eq(err.setting, "gpu.noc.graph.vc_classes");
	cr_assert_eq(err.line, 6); /* the vc_classes line */
	cfg_destroy(c);
	/* One class per hop (diameter 3 -> 3 classes): accepted with 2 networks x 3 VCs. */
	c = cfg_from("g.cfg", "gpu: { noc: { topology = \"graph\"; vcs = 3; graph: { nodes = 6;"
			      " links = [0,1, 1,2, 2,3, 3,4, 4,5, 5,0]; vc_classes = \"hop\"; };"
			      " placement: { mc_nodes = [5]; }; }; };\n");
	struct noc *n = noc_create(c, NULL, NULL, 5, 1, &err);
	cr_assert_not_null(n, "%s", err.msg);
	/* 0 -> 3: 3 hops, R = 4: 5*4 + 2 = 22. */
	cr_assert_eq(lone_packet(n, 0, 3, 8), 22);
	noc_destroy(n);
	cfg_destroy(c);
	/* 4-ary 2-tree: 16 nodes; 0 -> 15 goes up to the top and down: 2 links, R = 3 -> 17. */
	c = cfg_from("f.cfg", "gpu: { noc: { topology = \"fat-tree\"; fat_tree: { k = 4; levels = 2; };"
			      " placement: { mc_nodes = [15]; }; }; };\n");
	n = noc_create(c, NULL, NULL, 15, 1, &err);
	cr_assert_not_null(n, "%s", err.msg);
	cr_assert_eq(n->n_nodes, 16);
	cr_assert_eq(lone_packet(n, 0, 15, 8), 17);
	noc_destroy(n);
	cfg_destroy(c);
}
