/* SPDX-License-Identifier: MIT */
/* The cycle NoC's allocators (noc/noc_cycle_router.c) and flow control (noc_cycle_traverse.c),
 * derived by hand from their documented rules:
 * which VC each packet gets (source and output-port rotation over every VC), VA and SA
 * round-robin winners cycle by cycle, credit return timing, zero-load latency by formula. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noc/noc_impl.h"

/* The rules the numbers below come from (noc_cycle*.c's comments), all delays 1
 * unless a test says otherwise:
 * - A packet accepted at cycle t leaves its source at t + 1 on the source's next VC in round
 *   robin (starting after VC 0, so the first packet takes VC 1); its head is readable in the
 *   router's input VC at t + 1 + inject_latency.
 * - A head readable at a does RC at a, bids in VA from a + rc, in SA from (VA grant) + va; a flit
 *   granted the switch at s is readable downstream at s + sa + st + link (or, at an ejection
 *   port, arrives at its node at s + sa + st + inject_latency).
 * - VA, input side: a head bids for the first free VC of its range at or after the output
 *   port's rotating pointer, which advances by one (over all `span` VCs) at every grant there.
 *   Output side: each output VC grants the first bidder (input port * V + VC) at or after its
 *   own pointer, which moves past the winner.
 * - SA: each input port bids with one VC (round robin from its pointer, advanced past the
 *   bidder at each bid), each output port grants the first bidding input port at or after its
 *   pointer, which moves past the winner.
 * - A flit granted at s frees its input slot: the credit is usable upstream from
 *   s + credit_delay. */

static struct noc *mk(const struct noc_params *p, struct topo *t)
{
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert(t != NULL);
	struct noc *n = noc_create_from(p, t, NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert(n != NULL, "%s", err.msg);
	return n;
}

/* ---- watching VC grants through the backend's state dump ---------------------------- */

/* A VA grant as the dump shows it: the cycle after which input VC (router, in, vc) was first
 * seen holding output VC ovc of output port out. */
struct grant {
	uint64_t cycle;
	int router, in, vc, out, ovc;
};

enum { W_ROUTERS = 16, W_PORTS = 16, W_VCS = 8, W_MAX = 256 };

struct watch {
	int held[W_ROUTERS][W_PORTS][W_VCS]; /* out * W_VCS + ovc + 1 while active, else 0 */
	struct grant g[W_MAX];
	int n;
};

/* Simulate one cycle and record the VCs that became held in it (state 2 = VC_ACTIVE). */
static void step(struct noc *n, struct watch *w)
{
	uint64_t c = noc_now_cycle(n);
	noc_step(n);
	int cur[W_ROUTERS][W_PORTS][W_VCS];
	memset(cur, 0, sizeof cur);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	const struct noc_base *b = (const struct noc_base *)n;
	b->drive->dump(b, f);
	fclose(f);
	for (char *line = strstr(text, "router "); line; line = strstr(line + 1, "router ")) {
		int r;
		cr_assert_eq(sscanf(line, "router %d:", &r), 1);
		char *end = strchr(line, '\n');
		for (char *p = strstr(line, " in"); p && (!end || p < end); p = strstr(p + 1, " in")) {
			int in, vc, st, out, ovc;
			unsigned cnt;
			if (sscanf(p, " in%d.vc%d=%u(state %d out %d.%d)", &in, &vc, &cnt, &st, &out, &ovc) != 6)
				continue;
			cr_assert(r < W_ROUTERS && in < W_PORTS && vc < W_VCS && ovc < W_VCS);
			if (st == 2)
				cur[r][in][vc] = out * W_VCS + ovc + 1;
		}
	}
	free(text);
	for (int r = 0; r < W_ROUTERS; r++)
		for (int i = 0; i < W_PORTS; i++)
			for (int v = 0; v < W_VCS; v++) {
				int h = cur[r][i][v];
				if (h && h != w->held[r][i][v]) {
					cr_assert_lt(w->n, W_MAX);
					w->g[w->n++] = (struct grant){c, r, i, v, (h - 1) / W_VCS, (h - 1) % W_VCS};
				}
				w->held[r][i][v] = h;
			}
}

/* Inject packet k (payload k + 1) from src[k] to dst[k] at the current cycle for every k, then
 * step until all are ejected; arrive[k] = cycles from injection to packet k's ejection, and
 * order[j] = the j-th packet ejected (ejecting at each node, lowest node first, each cycle). */
static void burst(struct noc *n, struct watch *w, int count, const int *src, const int *dst,
		  const uint32_t *bytes, uint64_t *arrive, int *order)
{
	uint64_t t0 = noc_now_cycle(n);
	for (int k = 0; k < count; k++) {
		arrive[k] = 0;
		cr_assert(noc_try_inject(n, src[k], dst[k], NOC_CLASS_REQ, bytes[k], (void *)(uintptr_t)(k + 1)));
	}
	for (int got = 0, i = 0; got < count; i++) {
		cr_assert_lt(i, 2000, "packets never arrived");
		for (int node = 0; node < n->n_nodes; node++) {
			void *p;
			while ((p = noc_try_eject(n, node, NOC_CLASS_REQ))) {
				int id = (int)(uintptr_t)p - 1;
				cr_assert_eq(arrive[id], 0);
				arrive[id] = noc_now_cycle(n) - t0;
				if (order)
					order[got] = id;
				got++;
			}
		}
		if (got < count)
			step(n, w);
	}
}

static void assert_grant(const struct watch *w, int k, uint64_t cycle, int router, int in, int vc,
			 int out, int ovc)
{
	cr_assert_lt(k, w->n, "only %d VC grants seen", w->n);
	const struct grant *g = &w->g[k];
	cr_assert(g->cycle == cycle && g->router == router && g->in == in && g->vc == vc && g->out == out &&
			  g->ovc == ovc,
		  "grant %d: got cycle %llu router %d in%d.vc%d -> out %d.vc%d; expected cycle %llu router %d "
		  "in%d.vc%d -> out %d.vc%d",
		  k, (unsigned long long)g->cycle, g->router, g->in, g->vc, g->out, g->ovc,
		  (unsigned long long)cycle, router, in, vc, out, ovc);
}

/* ---- VC allocation --------------------------------------------------------------------- */

/* One router (crossbar of 8 nodes: input and output port i are node i's), 4 VCs. Node 0 sends
 * six 1-flit packets to node 5, each once the one before has arrived, so each finds every VC
 * free. Each is accepted at t, its head readable at t + 2, routed at t + 2, granted a VC at
 * t + 3, sent at t + 4 and arrives at t + 4 + 3 = t + 7. The source's rotation gives input VCs
 * 1, 2, 3, 0, 1, 2; output port 5's pointer gives output VCs 0, 1, 2, 3, 0, 1: the rotation
 * reaches the last VC, then wraps to the first. */
Test(noc_cycle_alloc, successive_packets_rotate_over_every_vc)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mk(&p, topo_crossbar(8, NULL));
	struct watch w = {0};
	uint64_t t[6];
	for (int k = 0; k < 6; k++) {
		const int src = 0, dst = 5;
		const uint32_t bytes = 8;
		uint64_t a;
		t[k] = noc_now_cycle(n);
		burst(n, &w, 1, &src, &dst, &bytes, &a, NULL);
		cr_assert_eq(a, 7, "packet %d took %llu cycles", k, (unsigned long long)a);
	}
	cr_assert_eq(w.n, 6);
	static const int in_vc[] = {1, 2, 3, 0, 1, 2}, out_vc[] = {0, 1, 2, 3, 0, 1};
	for (int k = 0; k < 6; k++)
		assert_grant(&w, k, t[k] + 3, 0, 0, in_vc[k], 5, out_vc[k]);
	noc_destroy(n);
}

/* The same over links: a 3x1 mesh (routers 0-1-2, one node each), node 0 to node 2, five
 * packets one after another. Each router's link and ejection ports rotate on their own: at
 * router 0 the packet takes link VCs 0, 1, 2, 3, 0; it arrives at router 1 on that VC and takes
 * that router's next link VC (the same sequence); at router 2 it takes ejection VCs 0, 1, 2, 3,
 * 0. Per router a head is routed when readable and granted a VC one cycle later; the link adds
 * sa + st + link = 3 from grant + 1: VA at t + 3 (router 0), t + 8 (router 1), t + 13
 * (router 2); arrival 5R + 2 = 17. */
Test(noc_cycle_alloc, each_output_port_rotates_over_every_vc_of_its_link)
{
	struct noc_params p;
	noc_params_default(&p);
	int dims[2] = {3, 1};
	struct noc *n = mk(&p, topo_mesh(dims, 2, 1, NULL));
	struct watch w = {0};
	uint64_t t[5];
	for (int k = 0; k < 5; k++) {
		const int src = 0, dst = 2;
		const uint32_t bytes = 8;
		uint64_t a;
		t[k] = noc_now_cycle(n);
		burst(n, &w, 1, &src, &dst, &bytes, &a, NULL);
		cr_assert_eq(a, 17);
	}
	cr_assert_eq(w.n, 15);
	static const int src_vc[] = {1, 2, 3, 0, 1}, rot[] = {0, 1, 2, 3, 0};
	for (int k = 0; k < 5; k++) {
		const struct grant *g0 = &w.g[3 * k], *g1 = &w.g[3 * k + 1], *g2 = &w.g[3 * k + 2];
		/* ports: node first (in/out 0), then links; the link port numbers are the topology's */
		cr_assert(g0->cycle == t[k] + 3 && g0->router == 0 && g0->in == 0 && g0->vc == src_vc[k] &&
				  g0->out != 0 && g0->ovc == rot[k],
			  "packet %d at router 0: cycle %llu in%d.vc%d -> out %d.vc%d", k,
			  (unsigned long long)g0->cycle, g0->in, g0->vc, g0->out, g0->ovc);
		cr_assert(g1->cycle == t[k] + 8 && g1->router == 1 && g1->vc == rot[k] && g1->out != 0 &&
				  g1->ovc == rot[k],
			  "packet %d at router 1: cycle %llu in%d.vc%d -> out %d.vc%d", k,
			  (unsigned long long)g1->cycle, g1->in, g1->vc, g1->out, g1->ovc);
		cr_assert(g2->cycle == t[k] + 13 && g2->router == 2 && g2->vc == rot[k] && g2->out == 0 &&
				  g2->ovc == rot[k],
			  "packet %d at router 2: cycle %llu in%d.vc%d -> out %d.vc%d", k,
			  (unsigned long long)g2->cycle, g2->in, g2->vc, g2->out, g2->ovc);
	}
	noc_destroy(n);
}

/* Crossbar of 8, 4 VCs. Wave 1 at cycle 0: nodes 0..4 each send a 1-flit packet to node 7.
 * All heads are readable at 2 (each source's first packet: input VC 1), routed at 2, and from 3
 * bid for output 7 one VC at a time: every head asks for the same VC (the first free one at the
 * port's pointer), and that VC's arbiter takes the first bidder at or after its pointer (all
 * pointers 0: the lowest input). So:
 *   3: VC 0 -> in0 (pointer of VC 0 moves to 0*4+1+1 = 2)  SA 4, arrives 7
 *   4: VC 1 -> in1 (VC 1's pointer: 6)                      SA 5, arrives 8
 *   5: VC 2 -> in2 (10)                                     SA 6, arrives 9
 *   6: VC 3 -> in3 (14)                                     SA 7, arrives 10
 *   7: the port's pointer is back at VC 0, freed when in0's flit left at 4: VC 0 -> in4
 *      (VC 0's pointer: 4*4+1+1 = 18)                       SA 8, arrives 11
 * Wave 2, later (every VC free again; the port's pointer at 5 % 4 = VC 1): the same five nodes
 * again, now on input VC 2 (input-VC ids 2, 6, 10, 14, 18). All ask for VC 1, whose pointer is
 * 6: in1 wins, not in0. Then VC 2 (pointer 10) -> in2, VC 3 (14) -> in3, VC 0 (18) -> in4, and
 * in0 last, on VC 1 again (freed when in1's flit left): arrivals 7, 8, 9, 10 for nodes 1..4 and
 * 11 for node 0. */
Test(noc_cycle_alloc, va_grants_one_vc_a_cycle_round_robin_from_each_vc_pointer)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mk(&p, topo_crossbar(8, NULL));
	struct watch w = {0};
	const int src[] = {0, 1, 2, 3, 4}, dst[] = {7, 7, 7, 7, 7};
	const uint32_t bytes[] = {8, 8, 8, 8, 8};
	uint64_t a[5];
	burst(n, &w, 5, src, dst, bytes, a, NULL);
	static const uint64_t want1[] = {7, 8, 9, 10, 11};
	for (int k = 0; k < 5; k++)
		cr_assert_eq(a[k], want1[k], "wave 1 packet %d: %llu", k, (unsigned long long)a[k]);
	cr_assert_eq(w.n, 5);
	assert_grant(&w, 0, 3, 0, 0, 1, 7, 0);
	assert_grant(&w, 1, 4, 0, 1, 1, 7, 1);
	assert_grant(&w, 2, 5, 0, 2, 1, 7, 2);
	assert_grant(&w, 3, 6, 0, 3, 1, 7, 3);
	assert_grant(&w, 4, 7, 0, 4, 1, 7, 0);

	for (int i = 0; i < 10; i++)
		step(n, &w);
	uint64_t t1 = noc_now_cycle(n);
	burst(n, &w, 5, src, dst, bytes, a, NULL);
	static const uint64_t want2[] = {11, 7, 8, 9, 10};
	for (int k = 0; k < 5; k++)
		cr_assert_eq(a[k], want2[k], "wave 2 packet %d: %llu", k, (unsigned long long)a[k]);
	cr_assert_eq(w.n, 10);
	assert_grant(&w, 5, t1 + 3, 0, 1, 2, 7, 1);
	assert_grant(&w, 6, t1 + 4, 0, 2, 2, 7, 2);
	assert_grant(&w, 7, t1 + 5, 0, 3, 2, 7, 3);
	assert_grant(&w, 8, t1 + 6, 0, 4, 2, 7, 0);
	assert_grant(&w, 9, t1 + 7, 0, 0, 2, 7, 1);
	noc_destroy(n);
}

/* ---- switch allocation ------------------------------------------------------------------ */

/* Crossbar of 8, 4 VCs, 4-flit packets (128 B of 32-B flits) from nodes 0..3 to node 7 at
 * cycle 0. VA as above: in0..in3 hold output VCs 0..3 from 3, 4, 5, 6 and may bid in SA from
 * 4, 5, 6, 7. Each input has one packet, so one VC to bid with; output 7's pointer moves past
 * each winner:
 *   4: in0 alone                -> in0 (pointer 1)
 *   5: in0, in1                 -> in1 (2)
 *   6: in0, in1, in2            -> in2 (3)
 *   7: in0..in3                 -> in3 (4)
 *   8: in0..in3, none at or after 4 -> in0 (1); then in1, in2, in3, in0, ...
 * so flit f of input i goes at 4 + 4f + i, and the tails (f = 3) arrive at 16 + i + 3 = 19 + i
 * (a lone 4-flit packet: 7 + 3 = 10). */
Test(noc_cycle_alloc, sa_round_robin_interleaves_inputs_flit_by_flit)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mk(&p, topo_crossbar(8, NULL));
	struct watch w = {0};
	const int src[] = {0, 1, 2, 3}, dst[] = {7, 7, 7, 7};
	const uint32_t bytes[] = {128, 128, 128, 128};
	uint64_t a[4];
	int order[4];
	burst(n, &w, 4, src, dst, bytes, a, order);
	for (int k = 0; k < 4; k++) {
		cr_assert_eq(a[k], 19 + (uint64_t)k, "packet %d: %llu", k, (unsigned long long)a[k]);
		cr_assert_eq(order[k], k);
		assert_grant(&w, k, 3 + (uint64_t)k, 0, k, 1, 7, k);
	}
	struct noc_summary s;
	noc_get_summary(n, &s);
	/* heads arrive at 7, 8, 9, 10: tails 12 later each */
	cr_assert_float_eq(s.avg_serial_cycles, 12.0, 1e-9);
	cr_assert_eq(s.credit_min, 0); /* the 16-flit ejection queue filled exactly */
	noc_destroy(n);
}

/* An input port with two active VCs bids with one of them per cycle, round robin from its
 * pointer, which moves past the VC that bid. Crossbar of 8, 4 VCs, 4-flit packets at cycle 0:
 * node 0 sends P to node 5 then Q to node 6 (one injection channel: P's flits readable at 2..5
 * on input VC 1, Q's at 6..9 on VC 2); node 1 sends R to node 5 (readable 2..5, VC 1).
 *   3: VA: P and R both ask for output 5's VC 0; its arbiter takes in0 (P). 4: R gets VC 1.
 *   SA at output 5 (pointer moves past each winner): 4 P, 5 R, 6 P, 7 R.
 *   Q: routed 6, VA 7 (output 6, VC 0), may bid from 8.
 *   8: in0's pointer is past VC 1 (P bid at 7): Q bids, alone at output 6 -> Q; R alone at
 *      output 5 -> R.
 *   9: in0's pointer past VC 2, wraps to VC 1: P bids; output 5's pointer is at 2 (past in1),
 *      none of in0, in1 at or after it, so the first bidder: P.
 *   10: Q (in0), R's tail (in1). 11: P's tail. 12, 13: Q alone.
 * Tails arrive 3 after they are sent: R 13, P 14, Q 16. */
Test(noc_cycle_alloc, an_input_alternates_between_its_active_vcs)
{
	struct noc_params p;
	noc_params_default(&p);
	struct noc *n = mk(&p, topo_crossbar(8, NULL));
	struct watch w = {0};
	const int src[] = {0, 0, 1}, dst[] = {5, 6, 5};
	const uint32_t bytes[] = {128, 128, 128};
	uint64_t a[3];
	burst(n, &w, 3, src, dst, bytes, a, NULL);
	cr_assert_eq(a[0], 14, "P %llu", (unsigned long long)a[0]);
	cr_assert_eq(a[1], 16, "Q %llu", (unsigned long long)a[1]);
	cr_assert_eq(a[2], 13, "R %llu", (unsigned long long)a[2]);
	cr_assert_eq(w.n, 3);
	assert_grant(&w, 0, 3, 0, 0, 1, 5, 0);
	assert_grant(&w, 1, 4, 0, 1, 1, 5, 1);
	assert_grant(&w, 2, 7, 0, 0, 2, 6, 0);
	noc_destroy(n);
}

/* ---- credits ------------------------------------------------------------------------------ */

/* Credit return: 2x1 mesh (router 0 -> router 1, link latency 1), one 8-flit packet from node
 * 0 to node 1. A flit router 0 sends at s is readable at router 1 at s + 3 and, the VC being
 * held, sent on at s + 3, which frees its slot: the credit is back at router 0 at s + 4. So
 * router 0 can send at most `depth` flits per 4 cycles on one VC.
 * With 4-flit buffers nothing waits: 5R + 2 + (L - 1) = 12 + 7 = 19, head to tail 7.
 * With 2-flit buffers: router 0 sends flits 0, 1 at 4, 5 (router 1 holds VC from 8, sends
 * them at 9, 10: head arrives 12); credits back at 10, 11: flits 2, 3 at 10, 11 (the source's
 * own 2-flit VC refilled by then: router 0 freed its slots at 4, 5, credits at 5, 6, so flits
 * 2, 3 were readable at 6, 7 and the next pair at 12, 13); router 1 sends them at 13, 14,
 * credits 14, 15: flits 4, 5 at 14, 15, flits 6, 7 at 18, 19; router 1 sends 6, 7 at 21, 22:
 * the tail arrives at 22 + 3 = 25, head to tail 13. With a credit delay of 2 instead the loop
 * is 5 cycles: router 0 sends pairs at 4, 5 / 11, 12 / 16, 17 / 21, 22 (the first pair of
 * credits waits also for the first VA at router 1), tail sent at router 1 at 25, arrives 28. */
static void credit_case(int depth, int credit_delay, uint64_t want_total, double want_serial)
{
	struct noc_params p;
	noc_params_default(&p);
	p.vc_buffer_flits = depth;
	p.credit_delay_cycles = credit_delay;
	int dims[2] = {2, 1};
	struct noc *n = mk(&p, topo_mesh(dims, 2, 1, NULL));
	struct watch w = {0};
	const int src = 0, dst = 1;
	const uint32_t bytes = 8 * 32;
	uint64_t a;
	burst(n, &w, 1, &src, &dst, &bytes, &a, NULL);
	struct noc_summary s;
	noc_get_summary(n, &s);
	cr_assert_eq(a, want_total, "depth %d credit %d: %llu cycles", depth, credit_delay, (unsigned long long)a);
	cr_assert_float_eq(s.avg_serial_cycles, want_serial, 1e-9, "depth %d credit %d: head to tail %.0f", depth,
			   credit_delay, s.avg_serial_cycles);
	cr_assert_eq(s.credit_min, 0);
	noc_destroy(n);
}

Test(noc_cycle_alloc, credits_come_back_credit_delay_after_the_flit_leaves)
{
	credit_case(4, 1, 19, 7.0);
	credit_case(2, 1, 25, 13.0);
	credit_case(2, 2, 28, 16.0);
}

/* ---- zero-load latency -------------------------------------------------------------------- */

/* Zero-load latency of an L-flit packet over R routers and R - 1 links, by the rules above:
 *   1 (the source queue) + inject + R * (rc + va + sa + st) + (R - 1) * link + inject + (L - 1)
 * over a grid of stage delays, link latencies and packet lengths, on every pair of a 4x3 mesh
 * (XY routing: R = |dx| + |dy| + 1). Buffers of 8 flits so that no packet of up to 8 flits ever
 * waits for a credit. */
Test(noc_cycle_alloc, zero_load_latency_is_hops_times_router_delay_plus_serialisation)
{
	static const int rc[] = {0, 1, 2}, va[] = {0, 1, 2}, sa[] = {1, 2}, st[] = {0, 1, 2};
	static const uint32_t link[] = {1, 3}, inj[] = {1, 2};
	int cases = 0;
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			for (int c = 0; c < 2; c++)
				for (int d = 0; d < 3; d++)
					for (int e = 0; e < 2; e++) {
						struct noc_params p;
						noc_params_default(&p);
						p.routing_delay_cycles = rc[a];
						p.vc_alloc_delay_cycles = va[b];
						p.sw_alloc_delay_cycles = sa[c];
						p.st_delay_cycles = st[d];
						p.inject_latency_cycles = inj[e];
						p.vc_buffer_flits = 8;
						p.eject_queue_flits = 32;
						uint32_t lk = link[(a + b + c + d + e) % 2];
						int dims[2] = {4, 3};
						struct noc *n = mk(&p, topo_mesh(dims, 2, lk, NULL));
						struct watch w = {0};
						for (int s = 0; s < 12; s++)
							for (int t = 0; t < 12; t += 5) {
								int L = 1 + (s + t) % 8;
								uint32_t bytes = 32u * (uint32_t)L;
								int R = abs(s % 4 - t % 4) + abs(s / 4 - t / 4) + 1;
								uint64_t want = 1 + inj[e] +
										(uint64_t)R * (uint64_t)(rc[a] + va[b] + sa[c] + st[d]) +
										(uint64_t)(R - 1) * lk + inj[e] + (uint64_t)(L - 1);
								uint64_t got;
								burst(n, &w, 1, &s, &t, &bytes, &got, NULL);
								w.n = 0;
								cr_assert_eq(got, want,
									     "%d->%d L %d R %d rc %d va %d sa %d st %d link %u inject %u: %llu",
									     s, t, L, R, rc[a], va[b], sa[c], st[d], lk, inj[e],
									     (unsigned long long)got);
								cases++;
							}
						noc_destroy(n);
					}
	cr_assert_eq(cases, 3 * 3 * 2 * 3 * 2 * 12 * 3);
}
