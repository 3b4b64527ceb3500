/* SPDX-License-Identifier: MIT */
/* noc/noc_cycle.c against tests/noc/cycle_ref.inc, a copy of it as of 23166ab (only its include
 * line changed): random topologies, settings and traffic; every inject/peek/eject answer, the
 * state dump each cycle and the stats must be identical, so speed work keeps the model exact. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stats.h"
#include "noc/noc_impl.h"

/* The reference backend, under other names so the module's own is linked too. */
#define noc_cycle_new ref_cycle_new
#define noc_cycle_stats ref_cycle_stats
#include "cycle_ref.inc"
#undef noc_cycle_new
#undef noc_cycle_stats

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* What noc_create_from does for a standalone NoC with stats, for the reference backend. */
static struct noc *ref_create(const struct noc_params *p, struct topo *t, struct stats *st)
{
	struct sim_error err;
	sim_error_clear(&err);
	struct noc_base *b = ref_cycle_new(p, t, &err);
	cr_assert(b != NULL, "%s", err.msg);
	struct noc *n = &b->pub;
	b->topo = t;
	b->st = st;
	n->n_nodes = t->n_nodes;
	n->core_node = calloc(1, sizeof(int));
	n->mc_node = calloc(1, sizeof(int));
	n->node_kind = calloc((size_t)t->n_nodes, sizeof *n->node_kind);
	n->sink = calloc((size_t)t->n_nodes, sizeof *n->sink);
	b->inject_stall_cycles = calloc((size_t)t->n_nodes, sizeof(uint64_t));
	b->last_refused_cycle = calloc((size_t)t->n_nodes, sizeof(uint64_t));
	cr_assert(n->core_node && n->mc_node && n->node_kind && n->sink && b->inject_stall_cycles && b->last_refused_cycle);
	cr_assert_eq(ref_cycle_stats(b, st), 0);
	for (int i = 0; i < t->n_nodes; i++)
		stats_counter(st, &b->inject_stall_cycles[i], "cycles",
			      "cycles in which a try_inject at this node was refused (back-pressure)", "noc.node.%d.inject_stall_cycles", i);
	return n;
}

/* A topology and settings drawn from s; the topology twice (each NoC owns one). */
static void draw(uint64_t *s, struct noc_params *p, struct topo **t1, struct topo **t2, char *what, size_t n)
{
	noc_params_default(p);
	int kind = (int)(rnd(s) % 5);
	int dims[3] = {2 + (int)(rnd(s) % 4), 1 + (int)(rnd(s) % 4), 1 + (int)(rnd(s) % 2)};
	int nd = 1 + (int)(rnd(s) % 3);
	uint32_t lat = 1 + (uint32_t)(rnd(s) % 3);
	int k = 1, xn = 2 + (int)(rnd(s) % 20);
	for (int i = 0; i < 2; i++) {
		struct topo **t = i ? t2 : t1;
		switch (kind) {
		case 0: *t = topo_mesh(dims, nd, lat, NULL); break;
		case 1: *t = topo_torus(dims, nd, true, lat, NULL); k = 2; break;
		case 2: *t = topo_ring(3 + dims[0], true, lat, NULL); k = 2; break;
		case 3: *t = topo_crossbar(xn, NULL); break;
		default: *t = topo_fat_tree(2, 2 + (int)(dims[2] % 2), lat, NULL); break;
		}
		cr_assert(*t != NULL);
	}
	char cyc[256];
	if (!topo_cdg_acyclic(*t1, cyc, sizeof cyc)) { /* as noc_create refuses it */
		topo_destroy(*t1);
		topo_destroy(*t2);
		draw(s, p, t1, t2, what, n);
		return;
	}
	p->separate_networks = rnd(s) % 2;
	p->islip = rnd(s) % 2;
	int unit = (p->separate_networks ? 1 : 2) * k;
	p->vcs = unit * (1 + (int)(rnd(s) % (rnd(s) % 4 ? 3 : 8)));
	p->vc_buffer_flits = 1 + (int)(rnd(s) % 6);
	p->routing_delay_cycles = (int)(rnd(s) % 3);
	p->vc_alloc_delay_cycles = (int)(rnd(s) % 3);
	p->sw_alloc_delay_cycles = 1 + (int)(rnd(s) % 2);
	p->st_delay_cycles = (int)(rnd(s) % 3);
	p->credit_delay_cycles = 1 + (int)(rnd(s) % 3);
	p->inject_latency_cycles = 1 + (uint32_t)(rnd(s) % 3);
	p->inject_queue_packets = 1 + (int)(rnd(s) % 8);
	p->eject_queue_flits = p->vcs * (1 + (int)(rnd(s) % 6));
	p->channel_bytes = 8 << (rnd(s) % 3);
	snprintf(what, n, "%s nodes %d vcs %d depth %d delays %d/%d/%d/%d credit %d inject %u queues %d/%d %s %s",
		 (*t1)->kind, (*t1)->n_nodes, p->vcs, p->vc_buffer_flits, p->routing_delay_cycles,
		 p->vc_alloc_delay_cycles, p->sw_alloc_delay_cycles, p->st_delay_cycles, p->credit_delay_cycles,
		 p->inject_latency_cycles, p->inject_queue_packets, p->eject_queue_flits,
		 p->separate_networks ? "networks" : "vcs", p->islip ? "islip" : "rr");
}

static char *dump(const struct noc *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f != NULL);
	const struct noc_base *b = (const struct noc_base *)n;
	b->drive->dump(b, f);
	fclose(f);
	return buf;
}

/* The two machines of the bench: owl-28's 6x6 mesh and gtx480's crossbar (configs/). */
static void preset(int which, struct noc_params *p, struct topo **t1, struct topo **t2, char *what, size_t n)
{
	noc_params_default(p);
	if (which == 1) {
		int dims[2] = {6, 6};
		*t1 = topo_mesh(dims, 2, 1, NULL);
		*t2 = topo_mesh(dims, 2, 1, NULL);
		snprintf(what, n, "owl-28 mesh");
	} else {
		*t1 = topo_crossbar(21, NULL);
		*t2 = topo_crossbar(21, NULL);
		p->vcs = 1;
		p->vc_buffer_flits = 64;
		p->routing_delay_cycles = 0;
		p->clock_mhz = 700;
		p->islip = true;
		p->eject_queue_flits = 64;
		snprintf(what, n, "gtx480 crossbar");
	}
}

/* which: 0 = settings drawn from the seed, else a preset(). */
static void compare_run(uint64_t seed, int which)
{
	uint64_t s = seed;
	struct noc_params p;
	struct topo *t1, *t2;
	char what[256];
	if (which)
		preset(which, &p, &t1, &t2, what, sizeof what);
	else
		draw(&s, &p, &t1, &t2, what, sizeof what);
	struct stats *st_ref = stats_create(), *st_dut = stats_create();
	struct sim_error err;
	sim_error_clear(&err);
	struct noc *ref = ref_create(&p, t1, st_ref);
	struct noc *dut = noc_create_from(&p, t2, NULL, 0, NULL, 0, NULL, st_dut, &err);
	cr_assert(dut != NULL, "%s", err.msg);
	int N = ref->n_nodes;
	/* Load phases: light, saturating, and a drain; some nodes eject rarely (back-pressure). */
	uint32_t inj_pct = 5 + (uint32_t)(rnd(&s) % 60), ej_pct = 20 + (uint32_t)(rnd(&s) % 81);
	/* Packets on every ejection VC of a class at once must fit the ejection queue together:
	 * partial packets that fill it can never complete (the model deadlocks). */
	int ej_vcs = p.vcs / (p.separate_networks ? 1 : 2);
	uint32_t max_bytes = (uint32_t)(p.eject_queue_flits / ej_vcs) * p.channel_bytes;
	uintptr_t id = 0;
	const int cycles = 1500;
	for (int cyc = 0; cyc < cycles + 3000; cyc++) {
		if (cyc == cycles / 3)
			inj_pct = 90;
		bool drain = cyc >= cycles;
		for (int src = 0; src < N && !drain; src++) {
			if (rnd(&s) % 100 >= inj_pct)
				continue;
			int dst = (int)(rnd(&s) % (uint64_t)N);
			enum noc_class cls = rnd(&s) % 2 ? NOC_CLASS_REPLY : NOC_CLASS_REQ;
			uint32_t bytes = (uint32_t)(rnd(&s) % (max_bytes + 1));
			if (bytes > 2 * p.channel_bytes && rnd(&s) % 4)
				bytes %= 2 * p.channel_bytes + 1; /* mostly 1- and 2-flit packets, as in a GPU */
			void *pl = (void *)++id;
			bool a = noc_try_inject(ref, src, dst, cls, bytes, pl), b = noc_try_inject(dut, src, dst, cls, bytes, pl);
			cr_assert_eq(a, b, "%s: seed %llu cycle %d inject %d->%d", what, (unsigned long long)seed, cyc, src, dst);
		}
		noc_step(ref);
		noc_step(dut);
		for (int node = 0; node < N; node++)
			for (int c = 0; c < NOC_NUM_CLASSES; c++) {
				if (!drain && (rnd(&s) % 100 >= ej_pct || (node % 3 == 0 && rnd(&s) % 4)))
					continue;
				cr_assert_eq(noc_peek_eject(ref, node, (enum noc_class)c), noc_peek_eject(dut, node, (enum noc_class)c),
					     "%s: seed %llu cycle %d peek %d", what, (unsigned long long)seed, cyc, node);
				void *a, *b;
				do {
					a = noc_try_eject(ref, node, (enum noc_class)c);
					b = noc_try_eject(dut, node, (enum noc_class)c);
					cr_assert_eq(a, b, "%s: seed %llu cycle %d eject %d", what, (unsigned long long)seed, cyc, node);
				} while (a && rnd(&s) % 2);
			}
		char *da = dump(ref), *db = dump(dut);
		cr_assert_str_eq(da, db, "%s: seed %llu cycle %d", what, (unsigned long long)seed, cyc);
		free(da);
		free(db);
		cr_assert_eq(noc_busy(ref), noc_busy(dut));
		if (drain && !noc_busy(ref) && !noc_outstanding(ref))
			break;
	}
	cr_assert(!noc_busy(ref), "%s: seed %llu did not drain", what, (unsigned long long)seed);
	struct noc_summary sa, sb;
	noc_get_summary(ref, &sa);
	noc_get_summary(dut, &sb);
	cr_assert(!memcmp(&sa, &sb, sizeof sa), "%s: seed %llu summary", what, (unsigned long long)seed);
	char *ja = stats_to_json_string(st_ref), *jb = stats_to_json_string(st_dut);
	cr_assert_str_eq(ja, jb, "%s: seed %llu stats", what, (unsigned long long)seed);
	free(ja);
	free(jb);
	noc_destroy(ref);
	noc_destroy(dut);
	stats_destroy(st_ref);
	stats_destroy(st_dut);
}

Test(noc_cycle_ref, random_configs_and_traffic_match_the_reference, .timeout = 240)
{
	for (uint64_t seed = 1; seed <= 60; seed++)
		compare_run(seed, 0);
}

Test(noc_cycle_ref, bench_machines_match_the_reference, .timeout = 240)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		compare_run(seed, 1);
		compare_run(seed, 2);
	}
}
