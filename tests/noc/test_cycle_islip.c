/* SPDX-License-Identifier: MIT */
/* The iSLIP switch allocator (noc/noc_cycle_islip.c) against the input-first ones, flit by flit
 * on traffic where they differ, computed by hand from BookSim2's islip.cpp rules. */
#include <criterion/criterion.h>
#include <string.h>

#include "noc/noc_cycle_impl.h"

/* A switch traversal seen from outside: input port in's VC vc sent a flit in cycle. */
struct send {
	uint64_t cycle;
	int in, vc;
};

enum { MAX_SENDS = 64 };

/* Crossbar of 8 nodes (one router: input and output port i are node i's), 4 VCs, every delay 1,
 * 4-flit packets injected at cycle 0: P from node 0 to node 5, then Q from node 0 to node 6,
 * and R from node 1 to node 5. Records every flit router 0 sends (an input VC's ring head
 * moves once per flit sent) and each packet's arrival, cycles after injection. */
static int run(enum noc_alloc alloc, struct send *sends, uint64_t arrive[3], double *serial)
{
	struct noc_params p;
	noc_params_default(&p);
	p.allocator = alloc;
	struct sim_error err;
	sim_error_clear(&err);
	struct noc *n = noc_create_from(&p, topo_crossbar(8, NULL), NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert_not_null(n, "%s", err.msg);
	struct noc_cyc *nc = (struct noc_cyc *)n;
	struct cyc_router *r = &nc->net[0].r[0];
	const int src[] = {0, 0, 1}, dst[] = {5, 6, 5};
	for (int k = 0; k < 3; k++) {
		arrive[k] = 0;
		cr_assert(noc_try_inject(n, src[k], dst[k], NOC_CLASS_REQ, 128, (void *)(uintptr_t)(k + 1)));
	}
	uint16_t head[8][4] = {{0}};
	int count = 0;
	for (int got = 0, i = 0; got < 3; i++) {
		cr_assert_lt(i, 100, "packets never arrived");
		void *pk;
		for (int node = 0; node < 8; node++)
			while ((pk = noc_try_eject(n, node, NOC_CLASS_REQ))) {
				arrive[(uintptr_t)pk - 1] = noc_now_cycle(n);
				got++;
			}
		uint64_t c = noc_now_cycle(n);
		noc_step(n);
		for (int in = 0; in < 8; in++)
			for (int v = 0; v < 4; v++)
				if (r->in[in].vc[v].head != head[in][v]) {
					cr_assert_lt(count, MAX_SENDS);
					sends[count++] = (struct send){c, in, v};
					head[in][v] = r->in[in].vc[v].head;
				}
	}
	struct noc_summary s;
	noc_get_summary(n, &s);
	*serial = s.avg_serial_cycles;
	noc_destroy(n);
	return count;
}

static void check(enum noc_alloc alloc, const struct send *want, int n_want, const uint64_t want_arrive[3],
		  double want_serial)
{
	struct send got[MAX_SENDS];
	uint64_t arrive[3];
	double serial;
	int n = run(alloc, got, arrive, &serial);
	for (int k = 0; k < n && k < n_want; k++)
		cr_assert(got[k].cycle == want[k].cycle && got[k].in == want[k].in && got[k].vc == want[k].vc,
			  "allocator %d, send %d: cycle %llu in%d.vc%d, expected cycle %llu in%d.vc%d", (int)alloc, k,
			  (unsigned long long)got[k].cycle, got[k].in, got[k].vc, (unsigned long long)want[k].cycle,
			  want[k].in, want[k].vc);
	cr_assert_eq(n, n_want, "allocator %d: %d flits sent", (int)alloc, n);
	for (int k = 0; k < 3; k++)
		cr_assert_eq(arrive[k], want_arrive[k], "allocator %d, packet %c: %llu", (int)alloc, "PQR"[k],
			     (unsigned long long)arrive[k]);
	cr_assert_float_eq(serial, want_serial, 1e-9, "allocator %d: head to tail %g", (int)alloc, serial);
}

/* Common to all allocators (test_cycle_alloc.c's an_input_alternates_between_its_active_vcs):
 * P's flits are readable on in0's VC 1 at 2..5, Q's on in0's VC 2 at 6..9, R's on in1's VC 1 at
 * 2..5. VA: P holds output 5's VC 0 from 3 and may request the switch from 4, R output 5's VC 1
 * from 4 (from 5), Q output 6's VC 0 from 7 (from 8). A flit sent at s arrives at s + 3.
 *
 * Input-first (rr, and islip_input_first, whose pointers move only on a grant: the same here):
 * each input port bids with one VC, each output grants one port; 8: in0 bids with Q (its
 * pointer is past VC 1), so output 5 takes R; 9: in0 bids with P and wins output 5 (pointer 2,
 * wraps). Sends: 4 P, 5 R, 6 P, 7 R, 8 Q R, 9 P, 10 Q R(tail), 11 P(tail), 12 Q, 13 Q(tail):
 * R arrives 13, P 14, Q 16; heads at 7 (P), 8 (R), 11 (Q): head to tail (7 + 5 + 5) / 3.
 *
 * iSLIP: in0 requests every output it has a sendable VC for (the VC first from its VC pointer,
 * past the last VC accepted), each output grants the first requesting port from its grant
 * pointer, each port accepts the first granting output from its accept pointer; an accept
 * moves the output's pointer past the port and the port's past the output; a declined grant
 * leaves its output idle. Pointers: g5, g6 (outputs), a0, a1 (accept), all 0 at first.
 *   4: in0 P -> 5. g5 = 1, a0 = 6.          5: in0 P, in1 R -> 5 grants in1. g5 = 2, a1 = 6.
 *   6: 5 grants in0 (none at >= 2). g5 = 1. 7: 5 grants in1. g5 = 2.
 *   8: in0 asks 5 (P) and 6 (Q), in1 asks 5 (R). 5 grants in0 (wraps), 6 grants in0; in0
 *      accepts 6 (a0 = 6): Q. 5's grant is declined and in1 waits. g6 = 1, a0 = 7.
 *   9: the same requests; 5 and 6 grant in0, which accepts 5 (nothing at >= 7: wraps): P.
 *      g5 = 1, a0 = 6.
 *   10: 5 grants in1 (R), 6 grants in0 (Q), both accepted. g5 = 2, a0 = 7, a1 = 6.
 *   11: 5 and 6 grant in0, which accepts 5: P's tail. 6 idle, in1 waits again. g5 = 1.
 *   12: 5 grants in1 (R's tail), 6 in0 (Q).  13: Q's tail.
 * R arrives 15 (13 input-first), P 14, Q 16; head to tail (7 + 7 + 5) / 3. */
Test(noc_cycle_islip, output_first_grants_differ_from_input_first)
{
	static const struct send input_first[] = {
		{4, 0, 1}, {5, 1, 1}, {6, 0, 1}, {7, 1, 1}, {8, 0, 2}, {8, 1, 1}, {9, 0, 1},
		{10, 0, 2}, {10, 1, 1}, {11, 0, 1}, {12, 0, 2}, {13, 0, 2},
	};
	static const struct send islip[] = {
		{4, 0, 1}, {5, 1, 1}, {6, 0, 1}, {7, 1, 1}, {8, 0, 2}, {9, 0, 1},
		{10, 0, 2}, {10, 1, 1}, {11, 0, 1}, {12, 0, 2}, {12, 1, 1}, {13, 0, 2},
	};
	static const uint64_t arrive_if[3] = {14, 16, 13}, arrive_islip[3] = {14, 16, 15};
	check(NOC_ALLOC_RR, input_first, 12, arrive_if, 17.0 / 3);
	check(NOC_ALLOC_ISLIP_INPUT_FIRST, input_first, 12, arrive_if, 17.0 / 3);
	check(NOC_ALLOC_ISLIP, islip, 12, arrive_islip, 19.0 / 3);
}

/* With one VC per port (gtx480's and m2090's crossbars) a crossbar input holds at most one VC,
 * so it makes at most one request and accepts the only grant it can get: iSLIP's output
 * arbiters then pick as the input-first ones (first requester from the same pointer, moved past
 * the winner at each grant), also with input_speedup 2 (crossbar input 2i + 0 is port i's) and
 * internal_speedup 2 (a second allocation a cycle). Random traffic on 21 nodes, 1-4 flit packets
 * in both classes: every packet arrives in the same cycle with islip and islip_input_first. */
static void one_vc_run(enum noc_alloc alloc, int input_speedup, int internal_speedup, uint64_t *arrive, int n_pkts)
{
	struct noc_params p;
	noc_params_default(&p);
	p.allocator = alloc;
	p.vcs = 1;
	p.vc_buffer_flits = 8;
	p.eject_queue_flits = 8;
	p.input_speedup = input_speedup;
	p.internal_speedup = internal_speedup;
	struct sim_error err;
	sim_error_clear(&err);
	struct noc *n = noc_create_from(&p, topo_crossbar(21, NULL), NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert_not_null(n, "%s", err.msg);
	uint64_t s = 12345;
	int sent = 0, got = 0;
	for (int i = 0; got < n_pkts; i++) {
		cr_assert_lt(i, 100000, "stuck at %d of %d packets", got, n_pkts);
		for (int node = 0; node < 21 && sent < n_pkts; node++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			uint32_t r = (uint32_t)(s >> 33);
			if (r % 100 >= 30)
				continue;
			int dst = (int)((r / 100) % 21);
			enum noc_class cls = (r / 2100) % 2 ? NOC_CLASS_REPLY : NOC_CLASS_REQ;
			uint32_t bytes = 32u * (1 + (r / 4200) % 4);
			if (noc_try_inject(n, node, dst, cls, bytes, (void *)(uintptr_t)(sent + 1)))
				arrive[sent++] = 0;
		}
		for (int node = 0; node < 21; node++)
			for (int c = 0; c < NOC_NUM_CLASSES; c++) {
				void *pk;
				while ((pk = noc_try_eject(n, node, (enum noc_class)c))) {
					arrive[(uintptr_t)pk - 1] = noc_now_cycle(n);
					got++;
				}
			}
		noc_step(n);
	}
	noc_destroy(n);
}

Test(noc_cycle_islip, one_vc_per_port_allocates_as_input_first)
{
	enum { N = 3000 };
	static uint64_t a[N], b[N];
	static const int speedups[][2] = {{1, 1}, {2, 1}, {1, 2}};
	for (int k = 0; k < 3; k++) {
		one_vc_run(NOC_ALLOC_ISLIP, speedups[k][0], speedups[k][1], a, N);
		one_vc_run(NOC_ALLOC_ISLIP_INPUT_FIRST, speedups[k][0], speedups[k][1], b, N);
		for (int i = 0; i < N; i++)
			cr_assert_eq(a[i], b[i], "input speedup %d, internal %d: packet %d at %llu and %llu",
				     speedups[k][0], speedups[k][1], i, (unsigned long long)a[i], (unsigned long long)b[i]);
	}
}
