/* SPDX-License-Identifier: MIT */
/* NoC front door: gpu.noc.* settings, placement, backend selection, the engine component that
 * ticks the whole interconnect while flits are in flight, and standalone stepping. */
#include "noc_impl.h"

#include <stdlib.h>
#include <string.h>

static const char *const noc_models[] = {"cycle", "flow", "simgrid-flow", NULL};
static const char *const noc_allocs[] = {"rr", "islip", "islip_input_first", NULL};
static const char *const noc_seps[] = {"networks", "vcs", NULL};

static const struct cfg_key_def noc_keys[] = {
	CFG_KEY_ENUM("gpu.noc.model", "cycle", noc_models,
		     "interconnect backend: cycle (flit-level routers), flow (fluid max-min), simgrid-flow (SimGrid cross-check)"),
	CFG_KEY_INT("gpu.noc.clock_mhz", "MHz", 650, 1, 100000, "interconnect clock (OWL Table 1: 650 MHz)"),
	CFG_KEY_INT("gpu.noc.channel_bytes", "bytes", 32, 1, 4096, "channel width = flit size (OWL Table 1: 32 B)"),
	CFG_KEY_INT("gpu.noc.vcs", "VCs", 4, 1, 64,
		    "virtual channels per port per physical network (split evenly over message and route VC classes)"),
	CFG_KEY_INT("gpu.noc.vc_buffer_flits", "flits", 4, 1, 1024, "input buffer depth of each virtual channel"),
	CFG_KEY_INT("gpu.noc.routing_delay_cycles", "cycles", 1, 0, 100, "route computation stage"),
	CFG_KEY_INT("gpu.noc.vc_alloc_delay_cycles", "cycles", 1, 0, 100, "VC allocation stage"),
	CFG_KEY_INT("gpu.noc.sw_alloc_delay_cycles", "cycles", 1, 1, 100, "switch allocation stage"),
	CFG_KEY_INT("gpu.noc.st_delay_cycles", "cycles", 1, 0, 100, "switch traversal stage"),
	CFG_KEY_INT("gpu.noc.credit_delay_cycles", "cycles", 1, 1, 100, "credit return to the upstream router"),
	CFG_KEY_INT("gpu.noc.inject_latency_cycles", "cycles", 1, 1, 1000, "node-to-router and router-to-node channels"),
	CFG_KEY_ENUM("gpu.noc.allocator", "rr", noc_allocs,
		     "cycle model's allocators: rr (separable input-first, round-robin pointers advance at every bid), "
		     "islip (switch: BookSim's and GPGPU-Sim's iSLIP, output-first request/grant/accept, one iteration, pointers "
		     "advance on an accept; VCs as rr), islip_input_first (separable input-first whose pointers advance only on "
		     "a grant: warpsim's islip before issue 34's change)"),
	CFG_KEY_INT("gpu.noc.internal_speedup", "allocations/cycle", 1, 1, 8,
		    "cycle model: switch allocation rounds per router cycle (BookSim's internal_speedup; route and VC allocation stay once a cycle, "
		    "and VC allocation takes one cycle less than gpu.noc.vc_alloc_delay_cycles, as BookSim's internal steps let a VC granted "
		    "in one bid for the switch in the next, same cycle): "
		    "each crossbar input and each output moves up to this many flits a cycle, an output's extra flits wait in its output buffer "
		    "for the channel (one flit a cycle). 1 = no speedup"),
	CFG_KEY_INT("gpu.noc.input_speedup", "crossbar inputs", 1, 1, 8,
		    "cycle model: crossbar inputs per router input port (BookSim's input_speedup): VC v uses input v mod this, so up to this many "
		    "VCs of one port send in a cycle, each output still taking one flit a cycle. 1 = no speedup"),
	CFG_KEY_ENUM("gpu.noc.class_separation", "networks", noc_seps,
		     "requests and replies on two physical networks (GPGPU-Sim's subnets) or on disjoint VCs of one"),
	CFG_KEY_INT("gpu.noc.inject_queue_packets", "packets", 8, 1, 65535, "injection queue per node and class (back-pressure beyond)"),
	CFG_KEY_INT("gpu.noc.eject_queue_flits", "flits", 16, 1, 65535, "ejection queue per node and class, shared by the class's ejection VCs; must hold "
		    "one largest packet (header + largest L1 line) per ejection VC (cycle model)"),
	CFG_KEY_BOOL("gpu.noc.flow_exact", 1,
		     "flow model: re-share bandwidth at every completion (exact max-min, as SimGrid) or once per cycle (faster)"),
	CFG_KEY_INT_LIST("gpu.noc.placement.mc_nodes", "nodes", "3,7,10,12,23,25,28,32", 0, 65535,
			 "node of each memory channel (default: GPGPU-Sim's 6x6 map for 28 SMs + 8 MCs)"),
	CFG_KEY_INT_LIST("gpu.noc.placement.core_nodes", "nodes", "", 0, 65535,
			 "node of each core; empty = the nodes without a memory channel, in order"),
};

int noc_cfg_define(struct cfg *c, struct sim_error *err)
{
	int rc = cfg_define(c, noc_keys, SIM_ARRAY_LEN(noc_keys), err);
	return rc ? rc : topo_cfg_define(c, err);
}

void noc_params_default(struct noc_params *p)
{
	memset(p, 0, sizeof *p);
	p->model = "cycle";
	p->clock_mhz = 650;
	p->channel_bytes = 32;
	p->vcs = 4;
	p->vc_buffer_flits = 4;
	p->routing_delay_cycles = p->vc_alloc_delay_cycles = p->sw_alloc_delay_cycles = p->st_delay_cycles = 1;
	p->credit_delay_cycles = 1;
	p->inject_latency_cycles = 1;
	p->separate_networks = true;
	p->allocator = NOC_ALLOC_RR;
	p->internal_speedup = 1;
	p->input_speedup = 1;
	p->inject_queue_packets = 8;
	p->eject_queue_flits = 16;
	p->flow_exact = true;
}

/* ---- engine hookup ------------------------------------------------------------------ */

static uint64_t noc_tick(struct sim_component *c, uint64_t cycle)
{
	struct noc_base *b = SIM_CONTAINER_OF(c, struct noc_base, comp);
	b->cycle = cycle;
	uint64_t moves = b->moves;
	b->drive->step(b, cycle);
	/* Progress only when something moved: flits stuck behind a consumer that never
	 * ejects keep the NoC ticking, and the watchdog must still see the deadlock. */
	if (b->moves != moves)
		sim_progress(b->sim);
	return b->drive->busy(b) ? cycle + 1 : SIM_NEVER;
}

static uint64_t noc_comp_outstanding(const struct sim_component *c)
{
	const struct noc_base *b = SIM_CONTAINER_OF(c, struct noc_base, comp);
	return b->pub.ops->outstanding(&b->pub);
}

static void noc_comp_dump(const struct sim_component *c, FILE *out)
{
	const struct noc_base *b = SIM_CONTAINER_OF(c, struct noc_base, comp);
	b->drive->dump(b, out);
}

static const struct sim_component_ops noc_comp_ops = {
	.tick = noc_tick, .outstanding = noc_comp_outstanding, .dump = noc_comp_dump,
};

void noc_base_wake_sink(struct noc_base *b, int node, uint64_t cycle)
{
	struct sim_component *s = b->pub.sink[node];
	if (b->sim && s)
		sim_component_wake_at_ps(s, sim_clock_edge_ps(&b->clk, cycle));
}

void noc_base_kick(struct noc_base *b)
{
	if (b->sim)
		sim_component_wake(&b->comp);
}

void noc_set_sink(struct noc *n, int node, struct sim_component *c)
{
	SIM_ASSERT(node >= 0 && node < n->n_nodes);
	n->sink[node] = c;
}

/* ---- building ------------------------------------------------------------------------ */

void noc_destroy(struct noc *n)
{
	if (!n)
		return;
	struct noc_base *b = (struct noc_base *)n;
	struct topo *t = b->topo;
	free(n->core_node);
	free(n->mc_node);
	free(n->node_kind);
	free(n->sink);
	free(b->inject_stall_cycles);
	free(b->last_refused_cycle);
	n->ops->destroy(n);
	topo_destroy(t);
}

struct noc *noc_create_from(const struct noc_params *p, struct topo *t, const int *core_node, int n_cores,
			    const int *mc_node, int n_mcs, struct sim *sim, struct stats *st,
			    struct sim_error *err)
{
	struct noc_base *b;
	if (!strcmp(p->model, "cycle"))
		b = noc_cycle_new(p, t, err);
	else if (!strcmp(p->model, "flow"))
		b = noc_flow_new(p, t, err);
#ifdef WARPSIM_HAVE_SIMGRID
	else if (!strcmp(p->model, "simgrid-flow"))
		b = noc_sgflow_new(p, t, err);
#endif
	else {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.noc.model", "model \"%s\" is not available in this build", p->model);
		b = NULL;
	}
	if (!b) {
		topo_destroy(t);
		return NULL;
	}
	struct noc *n = &b->pub;
	b->topo = t;
	b->sim = sim;
	b->st = st;
	n->n_nodes = t->n_nodes;
	n->n_cores = n_cores;
	n->n_mcs = n_mcs;
	n->core_node = calloc((size_t)(n_cores > 0 ? n_cores : 1), sizeof(int));
	n->mc_node = calloc((size_t)(n_mcs > 0 ? n_mcs : 1), sizeof(int));
	n->node_kind = calloc((size_t)t->n_nodes, sizeof *n->node_kind);
	n->sink = calloc((size_t)t->n_nodes, sizeof *n->sink);
	b->inject_stall_cycles = calloc((size_t)t->n_nodes, sizeof(uint64_t));
	b->last_refused_cycle = calloc((size_t)t->n_nodes, sizeof(uint64_t));
	if (!n->core_node || !n->mc_node || !n->node_kind || !n->sink || !b->inject_stall_cycles || !b->last_refused_cycle) {
		noc_destroy(n);
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the NoC");
		return NULL;
	}
	for (int i = 0; i < n_cores; i++) {
		SIM_ASSERT(core_node[i] >= 0 && core_node[i] < t->n_nodes);
		n->core_node[i] = core_node[i];
		n->node_kind[core_node[i]] = NOC_NODE_CORE;
	}
	for (int i = 0; i < n_mcs; i++) {
		SIM_ASSERT(mc_node[i] >= 0 && mc_node[i] < t->n_nodes);
		n->mc_node[i] = mc_node[i];
		n->node_kind[mc_node[i]] = NOC_NODE_MC;
	}
	if (sim) {
		b->clk.name = "noc";
		b->clk.freq_mhz = p->clock_mhz;
		b->comp.ops = &noc_comp_ops;
		b->comp.name = "noc";
		b->comp.clk = &b->clk;
		if (sim_clock_add(sim, &b->clk, err) || sim_component_add(sim, &b->comp, err)) {
			noc_destroy(n);
			return NULL;
		}
	}
	if (st) {
		int rc;
		if (!strcmp(p->model, "cycle"))
			rc = noc_cycle_stats(b, st);
#ifdef WARPSIM_HAVE_SIMGRID
		else if (!strcmp(p->model, "simgrid-flow"))
			rc = noc_sgflow_stats(b, st);
#endif
		else
			rc = noc_flow_stats(b, st);
		if (rc) {
			noc_destroy(n);
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory registering NoC stats");
			return NULL;
		}
		for (int i = 0; i < t->n_nodes; i++)
			stats_counter(st, &b->inject_stall_cycles[i], "cycles",
				      "cycles in which a try_inject at this node was refused (back-pressure)",
				      "noc.node.%d.inject_stall_cycles", i);
	}
	return n;
}

/* Placement from gpu.noc.placement.*: every listed node exists and is used once. */
static int placement(const struct cfg *c, const struct topo *t, int n_cores, int n_mcs, int *core, int *mc,
		     struct sim_error *err)
{
	size_t nm, nc;
	const int64_t *m = cfg_int_list(c, "gpu.noc.placement.mc_nodes", &nm);
	const int64_t *cn = cfg_int_list(c, "gpu.noc.placement.core_nodes", &nc);
	char *used = calloc((size_t)t->n_nodes, 1);
	int rc = 0;
	if (!used)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	if (n_cores + n_mcs > t->n_nodes) {
		/* Blame whichever of the sizes was set last (the overlay that changed the machine),
		 * and say where the others came from. */
		static const char *const sizes[] = {"gpu.core.count", "gpu.dram.channels", "gpu.noc.topology",
						    "gpu.noc.dims", "gpu.noc.fat_tree.k", "gpu.noc.fat_tree.levels",
						    "gpu.noc.graph.nodes", "gpu.noc.platform"};
		const char *blame = cfg_latest(c, sizes, SIM_ARRAY_LEN(sizes));
		const char *topo_key = cfg_latest(c, sizes + 2, SIM_ARRAY_LEN(sizes) - 2);
		const char *keys[3] = {sizes[0], sizes[1], topo_key};
		char at[3][300];
		for (int i = 0; i < 3; i++) {
			const char *f;
			int l;
			cfg_source(c, keys[i], &f, &l);
			if (l)
				snprintf(at[i], sizeof at[i], "%s:%d", f, l);
			else
				snprintf(at[i], sizeof at[i], "%s", f);
		}
		rc = cfg_error(err, c, blame, "%s topology (%s, %s) has %d nodes, fewer than %d cores (gpu.core.count, %s) "
			       "+ %d L2 slices (gpu.dram.channels x gpu.l2.sub_partitions, %s)",
			       t->kind, topo_key, at[2], t->n_nodes, n_cores, at[0], n_mcs, at[1]);
		goto out;
	}
	if ((int)nm != n_mcs) {
		rc = cfg_error(err, c, "gpu.noc.placement.mc_nodes", "lists %zu nodes for %d L2 slices (gpu.dram.channels x gpu.l2.sub_partitions)", nm, n_mcs);
		goto out;
	}
	for (size_t i = 0; i < nm; i++) {
		if (m[i] >= t->n_nodes || used[m[i]]) {
			rc = cfg_error(err, c, "gpu.noc.placement.mc_nodes", "node %lld is %s", (long long)m[i],
				       m[i] >= t->n_nodes ? "not in the topology" : "listed twice");
			goto out;
		}
		used[m[i]] = 1;
		mc[i] = (int)m[i];
	}
	if (nc) {
		if ((int)nc != n_cores) {
			rc = cfg_error(err, c, "gpu.noc.placement.core_nodes", "lists %zu nodes for %d cores", nc, n_cores);
			goto out;
		}
		for (size_t i = 0; i < nc; i++) {
			if (cn[i] >= t->n_nodes || used[cn[i]]) {
				rc = cfg_error(err, c, "gpu.noc.placement.core_nodes", "node %lld is %s", (long long)cn[i],
					       cn[i] >= t->n_nodes ? "not in the topology" : "already used");
				goto out;
			}
			used[cn[i]] = 1;
			core[i] = (int)cn[i];
		}
	} else {
		int k = 0;
		for (int node = 0; node < t->n_nodes && k < n_cores; node++)
			if (!used[node])
				core[k++] = node;
	}
out:
	free(used);
	return rc;
}

struct noc *noc_create(const struct cfg *cfg, struct sim *sim, struct stats *st,
		       int n_cores, int n_mcs, struct sim_error *err)
{
	struct noc_params p;
	noc_params_default(&p);
	p.model = cfg_str(cfg, "gpu.noc.model");
	p.clock_mhz = (uint32_t)cfg_int(cfg, "gpu.noc.clock_mhz");
	p.channel_bytes = (uint32_t)cfg_int(cfg, "gpu.noc.channel_bytes");
	p.vcs = (int)cfg_int(cfg, "gpu.noc.vcs");
	p.vc_buffer_flits = (int)cfg_int(cfg, "gpu.noc.vc_buffer_flits");
	p.routing_delay_cycles = (int)cfg_int(cfg, "gpu.noc.routing_delay_cycles");
	p.vc_alloc_delay_cycles = (int)cfg_int(cfg, "gpu.noc.vc_alloc_delay_cycles");
	p.sw_alloc_delay_cycles = (int)cfg_int(cfg, "gpu.noc.sw_alloc_delay_cycles");
	p.st_delay_cycles = (int)cfg_int(cfg, "gpu.noc.st_delay_cycles");
	p.credit_delay_cycles = (int)cfg_int(cfg, "gpu.noc.credit_delay_cycles");
	p.inject_latency_cycles = (uint32_t)cfg_int(cfg, "gpu.noc.inject_latency_cycles");
	const char *alloc = cfg_str(cfg, "gpu.noc.allocator");
	p.allocator = !strcmp(alloc, "islip")		    ? NOC_ALLOC_ISLIP
		      : !strcmp(alloc, "islip_input_first") ? NOC_ALLOC_ISLIP_INPUT_FIRST
							    : NOC_ALLOC_RR;
	p.internal_speedup = (int)cfg_int(cfg, "gpu.noc.internal_speedup");
	p.input_speedup = (int)cfg_int(cfg, "gpu.noc.input_speedup");
	p.separate_networks = !strcmp(cfg_str(cfg, "gpu.noc.class_separation"), "networks");
	p.inject_queue_packets = (int)cfg_int(cfg, "gpu.noc.inject_queue_packets");
	p.eject_queue_flits = (int)cfg_int(cfg, "gpu.noc.eject_queue_flits");
	p.flow_exact = cfg_bool(cfg, "gpu.noc.flow_exact");

	struct topo *t = topo_create(cfg, err);
	if (!t)
		return NULL;
	char cycle[512];
	if (!strcmp(p.model, "cycle") && !topo_cdg_acyclic(t, cycle, sizeof cycle)) {
		const char *blame = !strcmp(t->kind, "torus") || !strcmp(t->kind, "ring") ? "gpu.noc.datelines"
				    : !strcmp(t->kind, "graph") ? "gpu.noc.graph.vc_classes" : "gpu.noc.topology";
		cfg_error(err, cfg, blame, "%s topology with its routes and %d VC class(es) can deadlock: channel dependency cycle %s",
			  t->kind, t->n_vc_classes, cycle);
		topo_destroy(t);
		return NULL;
	}
	int *core = calloc((size_t)(n_cores > 0 ? n_cores : 1), sizeof *core);
	int *mc = calloc((size_t)(n_mcs > 0 ? n_mcs : 1), sizeof *mc);
	struct noc *n = NULL;
	if (!core || !mc) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		topo_destroy(t);
	} else if (placement(cfg, t, n_cores, n_mcs, core, mc, err)) {
		topo_destroy(t);
	} else {
		n = noc_create_from(&p, t, core, n_cores, mc, n_mcs, sim, st, err);
		if (!n && err && err->code == SIM_ERR_CONFIG && err->line == 0 && err->setting[0]) {
			char msg[sizeof err->msg], setting[sizeof err->setting];
			snprintf(msg, sizeof msg, "%s", err->msg);
			snprintf(setting, sizeof setting, "%s", err->setting);
			cfg_error(err, cfg, setting, "%s", msg);
		}
	}
	free(core);
	free(mc);
	return n;
}

/* ---- standalone driving -------------------------------------------------------------- */

uint64_t noc_now_cycle(const struct noc *n)
{
	return noc_base_now((const struct noc_base *)n);
}

void noc_step(struct noc *n)
{
	struct noc_base *b = (struct noc_base *)n;
	SIM_ASSERT(b->sim == NULL);
	b->drive->step(b, b->cycle);
	b->cycle++;
}

bool noc_busy(const struct noc *n)
{
	const struct noc_base *b = (const struct noc_base *)n;
	return b->drive->busy(b);
}

const struct topo *noc_topology(const struct noc *n)
{
	return ((const struct noc_base *)n)->topo;
}

void noc_get_summary(const struct noc *n, struct noc_summary *out)
{
	const struct noc_base *b = (const struct noc_base *)n;
	memset(out, 0, sizeof *out);
	b->drive->summary(b, out);
}
