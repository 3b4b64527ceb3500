/* SPDX-License-Identifier: MIT */
/* noc/noc_cycle.c through noc/noc_drive.h: zero-load latency, conservation under saturation,
 * credits, request/reply separation, determinism. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "noc/noc_drive.h"

static struct noc *mk(const struct noc_params *p, struct topo *t)
{
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert(t != NULL);
	struct noc *n = noc_create_from(p, t, NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert(n != NULL, "%s", err.msg);
	return n;
}

static struct noc *mesh66(const struct noc_params *p)
{
	int dims[2] = {6, 6};
	return mk(p, topo_mesh(dims, 2, 1, NULL));
}

/* Inject one packet at the current cycle and step until it can be ejected; returns cycles. */
static uint64_t one_packet(struct noc *n, int s, int d, enum noc_class cls, uint32_t bytes)
{
	static int token;
	uint64_t t0 = noc_now_cycle(n);
	cr_assert(noc_try_inject(n, s, d, cls, bytes, &token));
	for (int i = 0; i < 10000; i++) {
		void *p = noc_try_eject(n, d, cls);
		if (p) {
			cr_assert_eq(p, &token);
			return noc_now_cycle(n) - t0;
		}
		noc_step(n);
	}
	cr_assert_fail("packet never arrived");
	return 0;
}

Test(noc_cycle, zero_load_latency_is_5R_plus_2)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mesh66(&p);
	/* Same router: R = 1 -> 5*1 + 2 = 7. */
	cr_assert_eq(one_packet(n, 7, 7, NOC_CLASS_REQ, 8), 7);
	/* Neighbour: R = 2 -> 12. */
	cr_assert_eq(one_packet(n, 0, 1, NOC_CLASS_REQ, 8), 12);
	/* Corner to corner of 6x6: 5 + 5 hops, R = 11 -> 57. */
	cr_assert_eq(one_packet(n, 0, 35, NOC_CLASS_REQ, 32), 57);
	cr_assert_eq(one_packet(n, 35, 0, NOC_CLASS_REPLY, 1), 57);
	/* node 2 = (2,0) -> node 17 = (5,2): 3 + 2 hops, R = 6 -> 32. */
	cr_assert_eq(one_packet(n, 2, 17, NOC_CLASS_REPLY, 32), 32);
	noc_destroy(n);
}

Test(noc_cycle, multi_flit_adds_L_minus_1)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mesh66(&p);
	/* 128 B = 4 flits of 32 B, R = 11: 57 + 3 = 60. 65 B = 3 flits, R = 2: 12 + 2 = 14. */
	cr_assert_eq(one_packet(n, 0, 35, NOC_CLASS_REQ, 128), 60);
	cr_assert_eq(one_packet(n, 0, 1, NOC_CLASS_REPLY, 65), 14);
	noc_destroy(n);
}

Test(noc_cycle, pipeline_delays_are_configurable)
{
	struct noc_params p;
	noc_params_default(&p);
	p.routing_delay_cycles = 2;
	p.vc_alloc_delay_cycles = 0;
	p.sw_alloc_delay_cycles = 1;
	p.st_delay_cycles = 2;
	p.inject_latency_cycles = 3;
	int dims[2] = {4, 1};
	struct noc *n = mk(&p, topo_mesh(dims, 2, 4, NULL));
	/* 0 -> 3: R = 4 routers, 3 links of 4 cycles.
	 * 1 (source) + 3 (inject) + 4*(2+0+1+2) + 3*4 + 3 (eject) = 1+3+20+12+3 = 39. */
	cr_assert_eq(one_packet(n, 0, 3, NOC_CLASS_REQ, 32), 39);
	noc_destroy(n);
}

Test(noc_cycle, crossbar_is_one_router)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mk(&p, topo_crossbar(21, NULL));
	cr_assert_eq(one_packet(n, 0, 20, NOC_CLASS_REQ, 32), 7);
	cr_assert_eq(one_packet(n, 5, 3, NOC_CLASS_REQ, 64), 8);
	noc_destroy(n);
}

/* Saturating random traffic with 1..4-flit packets of both classes; every payload is an id
 * that must come out exactly once, at its destination, in its class. */
static void conservation(struct noc_params *p, struct topo *t, uint32_t total)
{
	struct noc *n = mk(p, t);
	int N = n->n_nodes;
	uint32_t *dst = malloc(total * sizeof *dst);
	uint8_t *cls = malloc(total);
	uint8_t *seen = calloc(total, 1);
	uint32_t sent = 0, got = 0;
	uint64_t refused = 0, flits = 0;
	uint64_t rng = 12345;
	while (got < total) {
		for (int s = 0; s < N && sent < total; s++) {
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			int d = (int)((rng >> 33) % (uint64_t)N);
			enum noc_class c = (rng >> 20) & 1 ? NOC_CLASS_REPLY : NOC_CLASS_REQ;
			uint32_t bytes = (uint32_t)(1 + ((rng >> 40) % 128));
			dst[sent] = (uint32_t)d;
			cls[sent] = (uint8_t)c;
			if (noc_try_inject(n, s, d, c, bytes, (void *)(uintptr_t)(sent + 1))) {
				sent++;
				flits += (bytes + p->channel_bytes - 1) / p->channel_bytes;
			} else {
				refused++;
			}
		}
		noc_step(n);
		for (int d = 0; d < N; d++)
			for (int c = 0; c < NOC_NUM_CLASSES; c++) {
				void *pl;
				while ((pl = noc_try_eject(n, d, (enum noc_class)c))) {
					uint32_t id = (uint32_t)(uintptr_t)pl - 1;
					cr_assert_lt(id, sent);
					cr_assert_eq(seen[id], 0, "packet %u delivered twice", id);
					cr_assert_eq(dst[id], (uint32_t)d);
					cr_assert_eq(cls[id], c);
					seen[id] = 1;
					got++;
				}
			}
		cr_assert_lt(noc_now_cycle(n), 50u * total, "no progress: deadlock?");
	}
	struct noc_summary sm;
	noc_get_summary(n, &sm);
	cr_assert_eq(sm.packets_injected, total);
	cr_assert_eq(sm.packets_ejected, total);
	cr_assert_eq(sm.flits_in_routers, 0);
	cr_assert_eq(noc_outstanding(n), 0);
	cr_assert_geq(sm.credit_min, 0);
	cr_assert_eq(sm.flits_ejected, flits);
	/* every refusal this loop saw, counted once */
	cr_assert_eq(sm.inject_refused, refused);
	/* how many there are depends on every arbitration (not derivable by hand); some there must
	 * be, or the traffic did not saturate the network and the test proves less */
	cr_assert_gt(refused, 0, "traffic did not saturate the network");
	cr_assert(!noc_busy(n));
	free(dst);
	free(cls);
	free(seen);
	noc_destroy(n);
}

Test(noc_cycle, no_flit_lost_or_duplicated_under_saturation, .timeout = 240)
{
	struct noc_params p;
	noc_params_default(&p);
	int dims[2] = {6, 6};
	conservation(&p, topo_mesh(dims, 2, 1, NULL), 100000);
}

Test(noc_cycle, conservation_shared_network_torus_islip, .timeout = 240)
{
	struct noc_params p;
	noc_params_default(&p);
	p.separate_networks = false;
	p.allocator = NOC_ALLOC_ISLIP;
	int dims[2] = {4, 4};
	/* 4 VCs = 2 message classes x 2 dateline classes x 1. */
	conservation(&p, topo_torus(dims, 2, true, 1, NULL), 20000);
}

/* Requests to node 35 are never ejected, so they fill the network; a reply to 35 must still
 * get through on its own VCs (or network). */
static void reply_not_blocked(bool networks)
{
	struct noc_params p;
	noc_params_default(&p);
	p.separate_networks = networks;
	struct noc *n = mesh66(&p);
	static int req, rep;
	uint64_t refused = 0;
	for (int cyc = 0; cyc < 2000; cyc++) {
		for (int s = 0; s < 35; s++)
			refused += !noc_try_inject(n, s, 35, NOC_CLASS_REQ, 64, &req);
		noc_step(n);
	}
	struct noc_summary sm;
	noc_get_summary(n, &sm);
	cr_assert_gt(sm.flits_in_routers, 100, "requests should be stuck in the network");
	cr_assert_eq(sm.inject_refused, refused);
	cr_assert_gt(refused, 0); /* the request network is full: sources are refused */
	/* Zero-load from node 0 to 35 is 57 cycles; allow switch contention with moving requests. */
	uint64_t t0 = noc_now_cycle(n);
	cr_assert(noc_try_inject(n, 0, 35, NOC_CLASS_REPLY, 64, &rep));
	void *got = NULL;
	while (!got && noc_now_cycle(n) - t0 < 200) {
		noc_step(n);
		got = noc_try_eject(n, 35, NOC_CLASS_REPLY);
	}
	cr_assert_eq(got, &rep, "reply waited behind requests");
	cr_assert_leq(noc_now_cycle(n) - t0, 2 * 58);
	noc_destroy(n);
}

Test(noc_cycle, reply_never_waits_behind_request_vcs) { reply_not_blocked(false); }
Test(noc_cycle, reply_never_waits_behind_request_networks) { reply_not_blocked(true); }

Test(noc_cycle, vcs_must_split_over_classes)
{
	struct noc_params p;
	noc_params_default(&p);
	p.separate_networks = false;
	p.vcs = 2; /* 2 message classes x 2 dateline classes need a multiple of 4 */
	int dims[2] = {4, 4};
	struct sim_error err;
	sim_error_clear(&err);
	struct noc *n = noc_create_from(&p, topo_torus(dims, 2, true, 1, NULL), NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert_null(n);
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "multiple of 4") != NULL, "%s", err.msg);
}

/* Inject every packet of the list at the current cycle (in order), step until all can be
 * ejected; arrive[k] = cycles from injection to packet k's ejection. */
static void burst(struct noc *n, int count, const int *src, const int *dst, const uint32_t *bytes,
		  uint64_t *arrive)
{
	uint64_t t0 = noc_now_cycle(n);
	for (int k = 0; k < count; k++) {
		arrive[k] = 0;
		cr_assert(noc_try_inject(n, src[k], dst[k], NOC_CLASS_REPLY, bytes[k], (void *)(uintptr_t)(k + 1)));
	}
	for (int got = 0, i = 0; got < count; i++) {
		cr_assert_lt(i, 1000, "packets never arrived");
		for (int k = 0; k < count; k++) {
			void *p = noc_try_eject(n, dst[k], NOC_CLASS_REPLY);
			if (p) {
				int id = (int)(uintptr_t)p - 1;
				cr_assert_eq(arrive[id], 0);
				arrive[id] = noc_now_cycle(n) - t0;
				got++;
			}
		}
		noc_step(n);
	}
}

/* Speedups (BookSim's internal_speedup 2 of GPGPU-Sim's Fermi crossbar, input_speedup 2 of its
 * GT200 mesh). Crossbar, 2 VCs,
 * 1-flit packets at cycle 0: Q from node 0 to node 5; P1 from node 1 to node 5, then P2 from
 * node 1 to node 6. Q and P1 leave their sources at cycle 1, are readable at 2, route, win a VC
 * of output 5 each at 3 and bid for the switch at 4: output 5 takes input 0 (Q: 4 + 3 = 7).
 * P2 leaves node 1 at 2, wins its VC at 4, may bid from 5. At 5 input 1 holds P1 and P2 for
 * two different outputs: without speedup one goes at 5 (8) and the other at 6 (9); with the
 * input speedup both go at 5 (8, 8).
 * With the internal speedup the VA delay of 1 is spent within the cycle (noc_cycle.c:
 * va_delay): Q and P1 win their VCs and bid at 3, and output 5 takes both (its second round),
 * Q leaving at 3 (6) and P1 waiting a cycle in the output buffer for the channel (7); P2,
 * readable at 3, wins its VC and the switch at 4 (7). */
Test(noc_cycle, speedup_lets_an_input_send_twice_a_cycle)
{
	const int src[] = {0, 1, 1}, dst[] = {5, 5, 6};
	const uint32_t bytes[] = {8, 8, 8};
	/* s = 3: input speedup 2 instead, P1 and P2 being on VCs 0 and 1 (the source rotates). */
	for (int s = 1; s <= 3; s++) {
		struct noc_params p;
		noc_params_default(&p);
		p.vcs = 2;
		p.internal_speedup = s == 3 ? 1 : s;
		p.input_speedup = s == 3 ? 2 : 1;
		struct noc *n = mk(&p, topo_crossbar(8, NULL));
		uint64_t a[3];
		burst(n, 3, src, dst, bytes, a);
		if (s == 2) {
			cr_assert_eq(a[0], 6);
			cr_assert_eq(a[1], 7);
			cr_assert_eq(a[2], 7);
			noc_destroy(n);
			continue;
		}
		cr_assert_eq(a[0], 7);
		uint64_t lo = a[1] < a[2] ? a[1] : a[2], hi = a[1] < a[2] ? a[2] : a[1];
		cr_assert_eq(lo, 8, "speedup %d: P1/P2 %llu %llu", s, (unsigned long long)a[1], (unsigned long long)a[2]);
		cr_assert_eq(hi, s == 1 ? 9u : 8u, "speedup %d: P1/P2 %llu %llu", s, (unsigned long long)a[1],
			     (unsigned long long)a[2]);
		noc_destroy(n);
	}
}

/* What an output wins beyond one flit a cycle waits in its output buffer: 1-flit packets from
 * nodes 0 and 1 to node 5 on its 2 VCs both win the switch at cycle 4 without speedup (7, 8)
 * and at 3 with speedup 2 (its VA delay spent within the cycle, noc_cycle.c: va_delay), and the
 * channel still delivers them one cycle apart (6, 7). */
Test(noc_cycle, internal_speedup_keeps_one_flit_a_cycle_per_channel)
{
	const int src[] = {0, 1}, dst[] = {5, 5};
	const uint32_t bytes[] = {8, 8};
	for (int s = 1; s <= 2; s++) {
		struct noc_params p;
		noc_params_default(&p);
		p.vcs = 2;
		p.internal_speedup = s;
		struct noc *n = mk(&p, topo_crossbar(8, NULL));
		uint64_t a[2];
		burst(n, 2, src, dst, bytes, a);
		cr_assert_eq(a[0], s == 1 ? 7u : 6u);
		cr_assert_eq(a[1], s == 1 ? 8u : 7u);
		noc_destroy(n);
	}
}

Test(noc_cycle, conservation_crossbar_internal_speedup, .timeout = 240)
{
	struct noc_params p;
	noc_params_default(&p);
	p.vcs = 1;
	p.internal_speedup = 2;
	p.allocator = NOC_ALLOC_ISLIP;
	conservation(&p, topo_crossbar(21, NULL), 20000);
}

/* Input speedup on a mesh (2 VCs, one per crossbar input): nothing lost, duplicated or stuck. */
Test(noc_cycle, conservation_mesh_input_speedup, .timeout = 240)
{
	struct noc_params p;
	noc_params_default(&p);
	p.vcs = 2;
	p.input_speedup = 2;
	p.allocator = NOC_ALLOC_ISLIP;
	int dims[2] = {4, 4};
	conservation(&p, topo_mesh(dims, 2, 1, NULL), 20000);
}

/* Random topologies, settings and traffic (light, saturating, then a drain, with some nodes
 * ejecting rarely): every packet arrives exactly once, at its destination, in its class, no
 * sooner than its zero-load latency (1 + inject + R x (rc + va + sa + st) + the route's link
 * latencies + inject + L - 1, test_cycle_alloc.c), all flits and credits come back, and a second
 * run of the same draw gives the same arrival cycles. */
static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static struct topo *draw_topo(uint64_t *s, int *k)
{
	int kind = (int)(rnd(s) % 5);
	int dims[3] = {2 + (int)(rnd(s) % 4), 1 + (int)(rnd(s) % 4), 1 + (int)(rnd(s) % 2)};
	int nd = 1 + (int)(rnd(s) % 3);
	uint32_t lat = 1 + (uint32_t)(rnd(s) % 3);
	*k = kind == 1 || kind == 2 ? 2 : 1; /* dateline VC classes */
	switch (kind) {
	case 0: return topo_mesh(dims, nd, lat, NULL);
	case 1: return topo_torus(dims, nd, true, lat, NULL);
	case 2: return topo_ring(3 + dims[0], true, lat, NULL);
	case 3: return topo_crossbar(2 + (int)(rnd(s) % 20), NULL);
	default: return topo_fat_tree(2, 2 + dims[2] % 2, lat, NULL);
	}
}

/* One run of draw `seed`; arrive[id] = ejection cycle of packet id (0 = not sent). */
static uint32_t random_run(uint64_t seed, uint64_t *arrive, uint32_t cap, char *what, size_t wn)
{
	uint64_t s = seed;
	struct topo *t;
	int k;
	char cyc[256];
	for (;;) {
		t = draw_topo(&s, &k);
		cr_assert_not_null(t);
		if (topo_cdg_acyclic(t, cyc, sizeof cyc))
			break;
		topo_destroy(t); /* as noc_create refuses it */
	}
	struct noc_params p;
	noc_params_default(&p);
	p.separate_networks = rnd(&s) % 2;
	p.allocator = (enum noc_alloc)(rnd(&s) % 3);
	int unit = (p.separate_networks ? 1 : 2) * k;
	p.vcs = unit * (1 + (int)(rnd(&s) % 3));
	p.vc_buffer_flits = 1 + (int)(rnd(&s) % 6);
	p.routing_delay_cycles = (int)(rnd(&s) % 3);
	p.vc_alloc_delay_cycles = (int)(rnd(&s) % 3);
	p.sw_alloc_delay_cycles = 1 + (int)(rnd(&s) % 2);
	p.st_delay_cycles = (int)(rnd(&s) % 3);
	p.credit_delay_cycles = 1 + (int)(rnd(&s) % 3);
	p.inject_latency_cycles = 1 + (uint32_t)(rnd(&s) % 3);
	p.inject_queue_packets = 1 + (int)(rnd(&s) % 8);
	p.eject_queue_flits = p.vcs * (1 + (int)(rnd(&s) % 6));
	p.channel_bytes = 8u << (rnd(&s) % 3);
	snprintf(what, wn, "seed %llu: %s, %d nodes, %d VCs x %d flits, delays %d/%d/%d/%d, credit %d, inject %u",
		 (unsigned long long)seed, t->kind, t->n_nodes, p.vcs, p.vc_buffer_flits, p.routing_delay_cycles,
		 p.vc_alloc_delay_cycles, p.sw_alloc_delay_cycles, p.st_delay_cycles, p.credit_delay_cycles,
		 p.inject_latency_cycles);
	struct noc *n = mk(&p, t);
	const struct topo *tp = noc_topology(n);
	int N = n->n_nodes;
	/* Packets on every ejection VC of a class at once must fit the ejection queue together. */
	int ej_vcs = p.vcs / (p.separate_networks ? 1 : 2);
	uint32_t max_bytes = (uint32_t)(p.eject_queue_flits / ej_vcs) * p.channel_bytes;
	uint32_t router_delay = (uint32_t)(p.routing_delay_cycles + p.vc_alloc_delay_cycles +
					   p.sw_alloc_delay_cycles + p.st_delay_cycles);
	static int dst_of[8192], cls_of[8192];
	static uint64_t t0[8192], bound[8192];
	uint32_t id = 0, got = 0;
	uint64_t flits = 0;
	uint32_t inj_pct = 5 + (uint32_t)(rnd(&s) % 60), ej_pct = 20 + (uint32_t)(rnd(&s) % 81);
	const int cycles = 1500;
	for (int c = 0; c < cycles + 5000; c++) {
		if (c == cycles / 3)
			inj_pct = 90;
		bool drain = c >= cycles;
		for (int src = 0; src < N && !drain && id + 1 < cap; src++) {
			if (rnd(&s) % 100 >= inj_pct)
				continue;
			int d = (int)(rnd(&s) % (uint64_t)N);
			enum noc_class cl = rnd(&s) % 2 ? NOC_CLASS_REPLY : NOC_CLASS_REQ;
			uint32_t bytes = (uint32_t)(rnd(&s) % (max_bytes + 1));
			if (bytes > 2 * p.channel_bytes && rnd(&s) % 4)
				bytes %= 2 * p.channel_bytes + 1;
			if (!noc_try_inject(n, src, d, cl, bytes, (void *)(uintptr_t)(id + 1)))
				continue;
			uint32_t L = bytes ? (bytes + p.channel_bytes - 1) / p.channel_bytes : 1;
			int hops = topo_route_len(tp, src, d);
			uint64_t links = 0;
			for (int h = 0; h < hops; h++)
				links += tp->links[topo_route_links(tp, src, d)[h]].latency_cycles;
			dst_of[id] = d;
			cls_of[id] = cl;
			t0[id] = noc_now_cycle(n);
			bound[id] = 1 + 2 * (uint64_t)p.inject_latency_cycles + (uint64_t)(hops + 1) * router_delay +
				    links + (L - 1);
			flits += L;
			arrive[id] = 0;
			id++;
		}
		noc_step(n);
		for (int node = 0; node < N; node++)
			for (int cl = 0; cl < NOC_NUM_CLASSES; cl++) {
				if (!drain && (rnd(&s) % 100 >= ej_pct || (node % 3 == 0 && rnd(&s) % 4)))
					continue;
				void *pl;
				while ((pl = noc_try_eject(n, node, (enum noc_class)cl))) {
					uint32_t j = (uint32_t)(uintptr_t)pl - 1;
					cr_assert_lt(j, id, "%s", what);
					cr_assert_eq(arrive[j], 0, "%s: packet %u twice", what, j);
					cr_assert_eq(dst_of[j], node, "%s: packet %u", what, j);
					cr_assert_eq(cls_of[j], cl, "%s: packet %u", what, j);
					arrive[j] = noc_now_cycle(n);
					cr_assert_geq(arrive[j] - t0[j], bound[j], "%s: packet %u took %llu < zero-load %llu",
						      what, j, (unsigned long long)(arrive[j] - t0[j]),
						      (unsigned long long)bound[j]);
					got++;
				}
			}
		if (drain && got == id)
			break;
	}
	cr_assert_eq(got, id, "%s: %u of %u packets arrived", what, got, id);
	struct noc_summary sm;
	noc_get_summary(n, &sm);
	cr_assert_eq(sm.packets_ejected, id, "%s", what);
	cr_assert_eq(sm.flits_ejected, flits, "%s", what);
	cr_assert_eq(sm.flits_in_routers, 0, "%s", what);
	cr_assert_geq(sm.credit_min, 0, "%s", what);
	cr_assert(!noc_busy(n), "%s", what);
	noc_destroy(n);
	return id;
}

Test(noc_cycle, random_configs_deliver_once_no_sooner_than_zero_load_and_repeat, .timeout = 240)
{
	static uint64_t a[8192], b[8192];
	for (uint64_t seed = 1; seed <= 40; seed++) {
		char what[256];
		uint32_t na = random_run(seed, a, 8192, what, sizeof what);
		uint32_t nb = random_run(seed, b, 8192, what, sizeof what);
		cr_assert_eq(na, nb, "%s", what);
		cr_assert(!memcmp(a, b, na * sizeof a[0]), "%s: a second run differs", what);
	}
}
